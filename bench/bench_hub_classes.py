"""Two classes of N students through a real hub (issue 58, item 6): `deploy/jupyterhub_config.py` with a class list of
two classes (`@4a`, `@4b`), HUB_CLASSROOM=1, so one classroom service per class, as tests/test_hub_classes.py starts it.

Every student logs in at the hub (their own code), comes into their class's classroom through the hub's OAuth, and plays
as a wire student (`wire_student.py`: the page's widget messages over the websocket, through the hub's proxy, no browser):
a class arrives at once, both classes together; then every student clicks a lit card --clicks times, 1-3 s apart.
Printed: students working and the time until all were, the p95 of a move (from the click until the server's answer took
the card out of the hand: what a page would draw), per class and overall; each class service's memory (its process and
its hint workers) idle, with the class in, and the hub's with its proxy; the load average.

Measured 2026-12-06 (2 cores, load average 13 from other work, --n 30 --clicks 5): 60 of 60 working within 16.6 s of
arriving together; 300 moves, p95 174 ms (class 4a 426 ms, 4b 150 ms), median 43-48 ms; each class service 128 MB idle,
171 MB with its class in, 173 MB after; the hub, its proxy and services 679 MB; logging 60 in one after another took 42 s.

Run as root (the hub makes each student's account; removed after): `.venv/bin/python bench/bench_hub_classes.py [--n 30]
[--clicks 5]`. Needs the hub extra, the proxy (configurable-http-proxy) and `websockets` (the bench extra). Not a test.
"""
import argparse, asyncio, contextlib, os, pathlib, random, secrets, statistics, subprocess, sys, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / 'tests'), str(ROOT / 'bench')]
import requests  # noqa: E402
import test_hub as th  # noqa: E402  (the tests' hub: a venv students can run, free ports, the login page's wait)
from helpers import free_port, port_open, served  # noqa: E402
from wire_student import WireStudent  # noqa: E402
import websockets  # noqa: E402


class HubStudent(WireStudent):
    "A wire student behind the hub: the page and its websocket under the class's prefix, with the student's cookies."
    def __init__(self, port, prefix, cookie):
        super().__init__(port); self.prefix, self.cookie = prefix, cookie

    async def start(self, timeout:float=180, ready=None):
        import json, uuid
        self.ws = await websockets.connect(f'ws://127.0.0.1:{self.port}{self.prefix}jupyter/api/kernels/{uuid.uuid4()}/channels?session_id={uuid.uuid4()}',
                                           additional_headers={'Cookie': self.cookie}, max_size=2**24, open_timeout=timeout)
        self.reader = asyncio.create_task(self._read())
        control = uuid.uuid4().hex
        await self.ws.send(self._message('comm_open', {'comm_id': control, 'target_name': 'solara.control', 'data': {}}))
        await self.ws.send(self._message('comm_msg', {'comm_id': control, 'data': {'method': 'run', 'args': {'path': self.path, 'appName': '__default__'}}}))
        await asyncio.wait_for(self._until(ready or (lambda: self.lit())), timeout)


def come_in(hub, name, prefix, query) -> str:
    "Log `name` in at the hub and into the classroom at `prefix` (the OAuth redirects followed): the Cookie header of their browser."
    s, r = hub.login(name, hub.codes[name])
    assert r.status_code == 302, f"{name} could not log in at the hub: {r.status_code}"
    page = s.get(f'{hub.url}{prefix}{query}', timeout=120)
    assert page.status_code == 200, f"{name} did not get {prefix}: {page.status_code}"
    return '; '.join(f'{c.name}={c.value}' for c in s.cookies)


def rss_mb(pids) -> float:
    "The resident memory of `pids` and all their descendants, MB."
    children = {}
    for p in filter(str.isdigit, os.listdir('/proc')):
        with contextlib.suppress(OSError):
            ppid = int(pathlib.Path(f'/proc/{p}/stat').read_text().rsplit(')', 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(p))
    todo, seen, kb = list(pids), set(), 0
    while todo:
        p = todo.pop()
        if p in seen: continue
        seen.add(p); todo += children.get(p, [])
        with contextlib.suppress(OSError, StopIteration):
            kb += int(next(l for l in pathlib.Path(f'/proc/{p}/status').read_text().splitlines() if l.startswith('VmRSS')).split()[1])
    return kb / 1024


def service_pids(name) -> list:
    return [int(p) for p in filter(str.isdigit, os.listdir('/proc')) if th._environ(p).get('JUPYTERHUB_SERVICE_NAME') == name]


def p95(xs): return sorted(xs)[max(0, int(len(xs) * 0.95 + 0.5) - 1)] if xs else float('nan')


async def play(students, clicks):
    times = []
    async def one(s):
        for _ in range(clicks):
            await asyncio.sleep(random.uniform(1, 3))
            with contextlib.suppress(asyncio.TimeoutError):
                await s.wait_lit(60)
                t = await s.click(30)
                if t is not None: times.append(t)
    await asyncio.gather(*(one(s) for s in students))
    return times


async def run(hub, classes, port, clicks):
    "Both classes arrive at once, then play: (working, total, seconds until all arrived, {class: move times}, {class: MB in}, {class: MB after})."
    t0 = time.time()
    students = {k: [HubStudent(port, f'/services/classroom-{k}/', cookie) for cookie in cookies] for k, cookies in classes.items()}
    for ss in students.values():
        for i, s in enumerate(ss): s.path = f'?seed={i + 1}&pace=0'
    everyone = [s for ss in students.values() for s in ss]
    started = await asyncio.gather(*(s.start() for s in everyone), return_exceptions=True)
    failed = {id(s) for s, x in zip(everyone, started) if isinstance(x, BaseException)}
    arrived = time.time() - t0
    mem_in = {k: rss_mb(service_pids(f'classroom-{k}')) for k in classes}
    played = await asyncio.gather(*(play([s for s in ss if id(s) not in failed], clicks) for ss in students.values()))
    times = dict(zip(students, played))
    mem_after = {k: rss_mb(service_pids(f'classroom-{k}')) for k in classes}
    for s in everyone: await s.close()
    return len(everyone) - len(failed), len(everyone), arrived, times, mem_in, mem_after


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--n', type=int, default=30, help='students per class')
    ap.add_argument('--clicks', type=int, default=5, help='cards each student plays, 1-3 s apart')
    a = ap.parse_args()
    if th._hub_missing(): sys.exit(f"bench_hub_classes: {th._hub_missing()}")
    work = pathlib.Path(subprocess.run(['mktemp', '-d'], capture_output=True, text=True).stdout.strip())
    tag, python = secrets.token_hex(2), th.student_python()
    names = {k: [f's{k}{i:02d}{tag}' for i in range(a.n)] for k in ('4a', '4b')}
    (work / 'class.txt').write_text(''.join(f'{n} @{k}\n' for k, ns in names.items() for n in ns))
    first = next(p for p in iter(free_port, None) if not port_open(p + 1))
    port = free_port()
    env = {**os.environ, 'HUB_ROSTER': str(work / 'class.txt'), 'HUB_STATE': str(work / 'state'), 'HUB_CLASSROOM': '1',
           'HUB_CLASSROOM_PORT': str(first), 'HUB_MAX_USERS': '200'}
    env.pop('CLASS_CODE', None)
    printed = subprocess.run([python, str(ROOT / 'deploy' / 'roster.py'), str(work / 'class.txt')], env=env, capture_output=True, text=True, timeout=60)
    codes = dict(line.split('\t') for line in printed.stdout.splitlines())
    log = open(work / 'hub.log', 'w')
    try:
        with log, served(th.hub_argv(python, port), port, 'jupyterhub', wait=90, env=env, stdout=log, stderr=subprocess.STDOUT) as hub_proc:
            th.wait_for_login_page(port)
            for k, p in (('4a', first), ('4b', first + 1)):
                deadline = time.time() + 150
                while not port_open(p) and time.time() < deadline: time.sleep(0.5)
            time.sleep(5)
            hub = th.Hub(python, port, [n for ns in names.values() for n in ns], codes, work / 'state')
            idle = {k: rss_mb(service_pids(f'classroom-{k}')) for k in names}
            t = time.time()
            classes = {k: [come_in(hub, n, f'/services/classroom-{k}/', '?pace=0') for n in ns] for k, ns in names.items()}
            print(f"{2 * a.n} students logged in at the hub and into their class's classroom in {time.time() - t:.0f} s (one after another)")
            working, total, arrived, times, mem_in, mem_after = asyncio.run(run(hub, classes, port, a.clicks))
            hub_mb = rss_mb([hub_proc.pid])
            print(f"working: {working} of {total}, all within {arrived:.1f} s of arriving together (both classes at once)")
            for k in names:
                print(f"class {k}: {len(times[k])} moves, p95 {p95(times[k]):.0f} ms, median {statistics.median(times[k]) if times[k] else float('nan'):.0f} ms; "
                      f"its classroom service {idle[k]:.0f} MB idle, {mem_in[k]:.0f} MB with the class in, {mem_after[k]:.0f} MB after playing")
            every = [x for xs in times.values() for x in xs]
            print(f"both classes: {len(every)} moves, p95 {p95(every):.0f} ms; the hub with its proxy and services: {hub_mb:.0f} MB; "
                  f"load average {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")
    finally:
        for ns in names.values():
            for n in ns:
                th._kill_account_processes(n)
                subprocess.run(['userdel', '--remove', n], capture_output=True)


if __name__ == '__main__': main()
