"""One visitor floods the classroom server; another student's clicks are timed at rest and during each flood (issue 39).

A classroom server (`cardgames-classroom`, with a class code, as on a network) on a free loopback port. The student is a
wire client (`wire_student.py`: the page's widget messages over the websocket, as the page sends them) on 127.0.0.1,
clicking a lit card every 0.5 s (a student of their own for each phase, within one hand); a click's latency is from sending it until the server's answer has taken the card out of
the hand. The attacker holds the class code and comes from another address, 127.0.0.2 (the server's limits are per
address and per browser; each phase from an address of its own, so that one phase's penalties do not carry into the
next), and tries in turn what a hostile student tried:

- `sockets`: 300 idle websockets (each with a session cookie of its own); also a new student's time to a working page;
- `panels`: 60 pages (sessions with a tutor panel each) opened at once;
- `clicks`: 1,000 clicks sent as fast as possible down one websocket;
- `uploads`: 8 uploads of 3.8 MB at once (one websocket message each, as the page's upload sends a file);
- `static`: 600 requests for Solara's largest script, each with a query never seen before (8 at a time);
- `guesses`: wrong class codes, 8 at a time, for the whole phase.

For each phase: the student's click latency (median, p95, ratio of the median to the one at rest), clicks lost (not
answered within 20 s, or the student's websocket closed), and what the attacker got through. Target: under 2x at rest,
none lost. The figures depend on the machine's load (printed with them).

Run: `.venv/bin/python bench/bench_flood.py [--clicks 12] [--phases sockets,panels,clicks,uploads,static,guesses]`.
Needs `websockets` (the `bench` extra) and psutil. Not a test.
"""
import argparse, asyncio, contextlib, http.client, json, os, pathlib, signal, socket, statistics, struct, subprocess, sys, time, uuid
import websockets
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from wire_student import WireStudent

ROOT = pathlib.Path(__file__).resolve().parent.parent
CODE, STUDENT = 'kq7m-x2pd', '127.0.0.1'
ATTACKER = '127.0.0.2'  # each phase's attacker comes from an address of its own: 127.0.0.2, .3, ...

def free_port() -> int:
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]

def ask(port, path, cookie='', source=STUDENT, timeout=30):
    "(status, body, headers) of one GET from `source`, no redirect followed."
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=timeout, source_address=(source, 0))
    try:
        c.request('GET', path, headers={'Cookie': cookie} if cookie else {})
        r = c.getresponse()
        return r.status, r.read(), r.headers
    finally: c.close()

def cookies_of(headers) -> list:
    return [h.split(';', 1)[0] for h in headers.get_all('Set-Cookie') or []]

def class_cookie(port, source) -> str:
    "The class code's cookie, got as a student gets it (the link with the code)."
    status, _, headers = ask(port, f'/?code={CODE}', source=source)
    assert status == 303, status
    return next(c for c in cookies_of(headers) if c.startswith('cgt-class='))


class Student(WireStudent):
    "A wire student from `source` on a server that asks for the class code."
    def __init__(self, port, source=STUDENT):
        super().__init__(port)
        self.source = source

    async def start(self, timeout:float=180):
        entry = await asyncio.to_thread(class_cookie, self.port, self.source)
        status, _, headers = await asyncio.to_thread(ask, self.port, '/', entry, self.source)
        cookie = '; '.join([entry, *cookies_of(headers)])
        self.ws = await websockets.connect(
            f'ws://127.0.0.1:{self.port}/jupyter/api/kernels/{uuid.uuid4()}/channels?session_id={uuid.uuid4()}',
            additional_headers={'Cookie': cookie}, max_size=2**24, local_addr=(self.source, 0), open_timeout=timeout)
        self.reader = asyncio.create_task(self._read())
        control = uuid.uuid4().hex
        await self.ws.send(self._message('comm_open', {'comm_id': control, 'target_name': 'solara.control', 'data': {}}))
        await self.ws.send(self._message('comm_msg', {'comm_id': control, 'data': {
            'method': 'run', 'args': {'path': '', 'appName': '__default__'}}}))
        await asyncio.wait_for(self._until(lambda: self.lit()), timeout)


async def clicking(student, n, every=0.5) -> tuple:
    "`n` clicks `every` s apart (waiting for a lit card first): (latencies in ms, clicks lost)."
    times, lost = [], 0
    for i in range(n):
        await asyncio.sleep(every)
        try:
            stage = 'waiting for a lit card'
            await student.wait_lit(20)
            stage = 'waiting for the answer to a click'
            ms = await student.click(20)
            if ms is None: lost += 1; say(f'  click {i + 1}: no lit card')
            else: times.append(ms)
        except (asyncio.TimeoutError, websockets.ConnectionClosed) as e:
            lost += 1; say(f'  click {i + 1} lost {stage}: {type(e).__name__} {e}; t={time.perf_counter():.1f}')
    return times, lost

# ------------------------------------------------------------------ the attacks: each runs until `stop` is set

async def sockets(port, stop, entry):
    async def one():
        url = f'ws://127.0.0.1:{port}/jupyter/api/kernels/{uuid.uuid4()}/channels?session_id={uuid.uuid4()}'
        with contextlib.suppress(websockets.InvalidStatus, websockets.ConnectionClosed, OSError, asyncio.TimeoutError):
            return await websockets.connect(url, additional_headers={'Cookie': f'{entry}; solara-session-id={uuid.uuid4()}'},
                                            local_addr=(ATTACKER, 0), open_timeout=60, close_timeout=2)
    got = await asyncio.gather(*[one() for _ in range(300)])  # all at once
    held = [ws for ws in got if ws is not None]
    refused = len(got) - len(held)
    await stop.wait()
    await asyncio.gather(*[ws.close() for ws in held])
    return f'{len(held)} websockets held open, {refused} refused'

async def panels(port, stop, entry):
    async def one():
        s = Student(port, ATTACKER)
        try: await s.start(60); return s
        except Exception: await s.close(); return None
    t = time.perf_counter()
    made = await asyncio.gather(*[one() for _ in range(60)])
    say(f'  60 panels: from t={t:.1f} to t={time.perf_counter():.1f}')
    await stop.wait()
    await asyncio.gather(*[s.close() for s in made if s])
    return f'{sum(s is not None for s in made)} of 60 pages working'

async def clicks(port, stop, entry):
    s = Student(port, ATTACKER)
    await s.start()
    sent, button = 0, s.lit()[0]
    with contextlib.suppress(websockets.ConnectionClosed):
        for _ in range(1000):
            await s.ws.send(s._message('comm_msg', {'comm_id': button, 'data': {'method': 'custom', 'content': {'event': 'click'}}}))
            sent += 1
    await stop.wait()
    closed = s.ws.close_code is not None
    await s.close()
    return f'{sent} clicks sent' + (', its websocket closed by the server' if closed else ', its websocket still open')

def upload_frame(size) -> bytes:
    "A widget message carrying one binary buffer of `size` bytes, framed as the page frames it."
    msg = json.dumps({'header': {'msg_id': uuid.uuid4().hex, 'msg_type': 'comm_msg', 'session': '', 'username': '', 'date': '',
                                 'version': '5.3'}, 'parent_header': {}, 'metadata': {}, 'channel': 'shell',
                      'content': {'comm_id': 'upload', 'data': {'method': 'update', 'state': {}, 'buffer_paths': [['value', 0, 'content']]}}}).encode()
    return struct.pack('!iII', 2, 12, 12 + len(msg)) + msg + os.urandom(size)

async def uploads(port, stop, entry):
    async def one():
        url = f'ws://127.0.0.1:{port}/jupyter/api/kernels/{uuid.uuid4()}/channels?session_id={uuid.uuid4()}'
        try:
            async with websockets.connect(url, additional_headers={'Cookie': f'{entry}; solara-session-id={uuid.uuid4()}'},
                                          local_addr=(ATTACKER, 0), max_size=None) as ws:
                await ws.send(upload_frame(int(3.8 * 2**20)))
                await asyncio.wait_for(ws.wait_closed(), 30)
                return ws.close_code
        except websockets.ConnectionClosed as e: return e.rcvd.code if e.rcvd else 'no close frame'
        except (websockets.InvalidStatus, OSError, asyncio.TimeoutError) as e: return type(e).__name__
    codes = await asyncio.gather(*[one() for _ in range(8)])
    await stop.wait()
    return f'8 uploads of 3.8 MB: websockets closed by the server with codes {sorted(set(map(str, codes)))}'

async def static(port, stop, entry):
    _, body, _ = ask(port, '/', entry, ATTACKER)
    scripts = [s.split('"')[0].split('?')[0] for s in body.decode().split('src="')[1:] if s.startswith('/_solara/cdn/')]
    path = max(scripts, key=lambda p: len(ask(port, p, entry, ATTACKER)[1]))
    sem, done = asyncio.Semaphore(8), []
    async def one():
        async with sem: done.append((await asyncio.to_thread(ask, port, f'{path}?v={uuid.uuid4().hex}', entry, ATTACKER))[0])
    await asyncio.gather(*[one() for _ in range(600)])
    await stop.wait()
    return f'600 requests for {path.rsplit("/", 1)[-1]}: {done.count(200)} answered 200'

async def guesses(port, stop, entry):
    seen = {}
    async def guesser():
        while not stop.is_set():
            status = (await asyncio.to_thread(ask, port, f'/?code=guess-{uuid.uuid4().hex[:8]}', '', ATTACKER))[0]
            seen[status] = seen.get(status, 0) + 1
    await asyncio.gather(*[guesser() for _ in range(8)])
    return f'wrong codes tried (401): {seen.get(401, 0)}, told to wait (429): {seen.get(429, 0)}'

PHASES = {'sockets': sockets, 'panels': panels, 'clicks': clicks, 'uploads': uploads, 'static': static, 'guesses': guesses}

def say(line): print(line, file=sys.stderr, flush=True)  # progress, as each phase ends

async def run(port, phases, n):
    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, lambda: [t.print_stack(file=sys.stderr) for t in asyncio.all_tasks()])  # where it waits
    student = Student(port)  # a fresh student for each phase: at most 12 clicks, all within the first hand (13 cards)
    await student.start()
    rest, lost = await clicking(student, n)
    await student.close()
    rows = [('rest', rest, lost, '')]
    say(f'rest: median {statistics.median(rest):.0f} ms, {lost} lost')
    for name in phases:
        student = Student(port)
        await student.start()
        stop = asyncio.Event()
        global ATTACKER
        ATTACKER = f'127.0.0.{2 + phases.index(name)}'
        async def attacking(name=name):
            try: return await PHASES[name](port, stop, class_cookie(port, ATTACKER) if name != 'guesses' else '')
            except Exception as e: return f'the attack stopped: {type(e).__name__}: {e}'
        attack = asyncio.create_task(attacking())
        await asyncio.sleep(0.2)
        extra = ''
        if name == 'sockets':  # a new student joining while they are held
            await asyncio.sleep(5)
            t = time.perf_counter(); joiner = Student(port)
            await joiner.start(); extra = f'; a new student working after {time.perf_counter() - t:.1f} s'
            await joiner.close()
        times, lost = await clicking(student, n)
        stop.set()
        try: said = await asyncio.wait_for(attack, 180)
        except asyncio.TimeoutError: said = 'the attack did not end within 180 s of the phase'
        rows.append((name, times, lost, said + extra))
        say(f'{name}: median {statistics.median(times) if times else float("nan"):.0f} ms, {lost} lost; {said}{extra}')
        await student.close()
        await asyncio.sleep(3)  # the server settles before the next phase
    return rows

def p95(xs): return sorted(xs)[max(0, int(len(xs) * 0.95 + 0.5) - 1)] if xs else float('nan')

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--clicks', type=int, default=12, help="the student's clicks per phase (at most 12: one hand)")
    ap.add_argument('--phases', default=','.join(PHASES))
    a = ap.parse_args()
    port = free_port()
    proc = subprocess.Popen([str(pathlib.Path(sys.executable).parent / 'cardgames-classroom'), '--port', str(port), '--code', CODE],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        for _ in range(600):
            with contextlib.suppress(OSError):
                socket.create_connection(('127.0.0.1', port), 0.2).close(); break
            time.sleep(0.2)
        rows = asyncio.run(run(port, a.phases.split(','), a.clicks))
    finally: os.killpg(proc.pid, signal.SIGTERM); proc.wait(30)
    at_rest = statistics.median(rows[0][1])
    print(f"Another student's click latency while one visitor floods (load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores)")
    print(f"{'phase':<8} {'median ms':>9} {'p95 ms':>7} {'x rest':>6} {'lost':>4}  the attacker")
    for name, times, lost, said in rows:
        med = statistics.median(times) if times else float('nan')
        print(f"{name:<8} {med:9.0f} {p95(times):7.0f} {med / at_rest:6.2f} {lost:4d}  {said}")

if __name__ == '__main__':
    main()
