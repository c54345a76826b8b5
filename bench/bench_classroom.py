"""A class of N students on one classroom server: Voilà (tuned) against Solara, side by side, in real Chromium pages.

For each server and each arrival mode (`at-once`: N pages opened together; `staggered`: one every --stagger s),
on a fresh server on a free loopback port:
- time to a working page: from opening the address until the learner's lit cards are on screen (median, max);
  a page not working within --bound s is counted as never working (with the reason);
- click latency under load: every working page plays --clicks cards at once with the others (1-3 s between
  clicks, as students think), timed inside the page from the click until the card has left the hand (the
  server's answer drawn); median and p95 over all clicks;
- server memory (RSS of the server process and all its children, e.g. Voilà's kernels): idle before anyone
  comes, with the N sessions open, then every 15 s for --settle s after the tabs close; for Solara also what the
  server still holds (virtual kernels, tutor panels, Python objects), to tell sessions not freed from memory kept;
- where the CPU went, per phase: the server's process tree against the browsers (Chromium: the pages' renderers and the
  processes they share) and Playwright's driver (told of every websocket message of every page: the rig's cost, not the
  classroom's), in CPU seconds and per arriving student / per click, with the load average. Server and browsers share this
  machine's cores, so the browsers' part slows the server's answers; `--placements` repeats the run with the server
  pinned to a core of its own (`pinned`) or with the browsers at the lowest priority (`server-first`), each labelled,
  always after the plain figure. `--profile DIR` samples the server with py-spy (collapsed stacks, one file per run).
- `--wire K` (Solara): K of the N students come without a browser (`wire_student.py`: the page's widget messages over the
  websocket, as the page sends them), so the server carries the whole class while only N-K Chromium pages share these two
  cores with it, as in a classroom where every student's browser runs on their own device. Their clicks are timed until
  the server's answer arrives; the Chromium pages' clicks until drawn, as always.
- `--classes C`: C classes one after another on the same server, to tell memory kept once from memory growing per class.
- `--warm K`: each Chromium student first plays K cards untimed (pressing *next hand* when a hand ends), so that the
  timed clicks come later in the match, where the log is long. Without it the timed clicks are the first hand's first
  cards: the lightest the page ever is.
- `--links ',?pace=0'`: the link every student opens, one run for each, in turn (default: the classroom's start page as it is,
  bots at 0.6 s a move). `?pace=0` lets the bots play at once: one drawn update per click instead of one per move, what the
  page would cost if it drew a click's moves together.
- `--servers floor`: not the tutor but the smallest ipywidgets page Solara serves with the classroom's rhythm (`floor_app.py`:
  a click, then three paced updates of two lines of text). Its figures beside the tutor's, in the same run, tell how much of
  the cost of 30 Chromium pages on these cores is the panel's, and how much any ipywidgets page pays.

- `--tables` (issue 33): instead, a class at tables of four. N students (32: 8 tables) arrive at the start page at once
  (served as a teacher serves a class at tables, `--start tables`: it opens on the form to join a table; `--start solo`:
  on a game alone, as the default server does, which each student then leaves for a table);
  every fourth opens a table through the lobby's widgets (*Open a table*, seed and name typed, *Open the table*), the three
  others join it with its code (*Join a table*, code and name typed), most without a browser (`wire_table.py`), --chromium
  of them (one per table) in Chromium pages; a table starts when its four seats are taken, and every table plays its first
  hand to the end (Begga Kaat, 52 moves), each student clicking a lit card at their turn after --think s. Printed: time
  until all are seated; the fan-out of each move from the client side (from a wire student's click until every wire page
  of its table had the table bar counting it: an upper bound on the server's part, which includes the click's way in and
  this script reading every websocket; target p95 < 250 ms), split into moves made while others were still arriving and
  after; the server's CPU for arriving and per move; its memory idle, at the peak and after the tabs closed (the server
  holds a closed tab's seat 30 s here, so tables close within --settle), and what it still holds then.

Targets (issue 13, this 2-core machine): N=30 all working, p95 click < 500 ms, memory back to the idle level
within two minutes of the tabs closing. Voilà is tuned as a class would need it: --pool-size preheated kernels,
idle kernels culled after 60 s (checked every 10 s), a 60 s IOPub timeout. Solara runs as `make classroom`
does (sessions of closed tabs freed after 60 s). Everything stays on 127.0.0.1. The figures depend on what
else the machine is doing: the load average is printed with them.

The server starts itself on glibc's allocator, as `make classroom` does; `PYTHONMALLOC=pymalloc` in this script's
environment keeps Python's own (for a side-by-side run of the two).

Run: `.venv/bin/python bench/bench_classroom.py [--n 30] [--servers solara,voila,floor] [--modes at-once,staggered]
[--placements plain,server-first] [--links ',?pace=0'] [--wire 27] [--classes 2] [--warm 16] [--settle 130] [--profile /tmp/prof]`;
`.venv/bin/python bench/bench_classroom.py --tables [--start tables|solo] [--n 32] [--chromium 4] [--think 0.3,1.0] [--settle 180]`.
Needs Python playwright and Debian's Chromium (/usr/bin/chromium; never `playwright install`). Not a test.
"""
import argparse, asyncio, collections, contextlib, itertools, os, pathlib, random, signal, socket, statistics, subprocess, sys, threading, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
START = ROOT / 'nbs' / 'tutorials' / 'start.ipynb'
CHROMIUM = '/usr/bin/chromium'
FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage']
BIN = pathlib.Path(sys.executable).parent
STATS = f'/tmp/bench_classroom_{os.getpid()}.json'

def free_port() -> int:
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]

# The classroom server as `make classroom` runs it, plus (for this benchmark only) a SIGUSR1 handler that writes what
# the server still holds to the file named by $CGT_BENCH_STATS: Solara's virtual kernels, live tutor panels, Python objects.
SOLARA = """if True:
    import gc, json, os, signal
    def held(*_):
        from solara.server import kernel_context
        from cardgames_tutor.ui.panel import Tutor
        gc.collect()
        objects = gc.get_objects()
        with open(os.environ['CGT_BENCH_STATS'], 'w') as f:
            from solara.toestand import KernelStore
            stale = sum(k != 'global' and k not in kernel_context.contexts for o in objects if isinstance(o, KernelStore)
                        for table in (o.listeners, o.listeners2) for k in table)
            fan = globals().get('FAN')
            json.dump({'kernels': len(kernel_context.contexts), 'panels': sum(isinstance(o, Tutor) for o in objects),
                       'objects': len(objects), 'stale': stale,
                       **({'fanout': [[code, n, [v * 1000 for k, v in pages.items() if k != 'at'], pages['at']] for (code, n), pages in fan.items()]} if fan is not None else {})}, f)
    signal.signal(signal.SIGUSR1, held)
    from cardgames_tutor.serve.classroom import main
    main()"""

# --tables only: the server-side fan-out, measured inside the server by wrapping two methods (nothing in the package changes):
# `Table._changed` (a move accepted: its views go to the table's pages) stamps the move, and `Lobby._draw` notes, for each
# page, when its first drawing after that move was done (its widget messages handed to the page's websocket).
TABLES_HOOK = """if True:
    import time
    from cardgames_tutor.tables import table as _tables
    from cardgames_tutor.serve import lobby as _room
    FAN = {}  # (table code, move count) -> {page id: seconds from the move's acceptance to that page drawn, 'at': its acceptance}
    # (time.perf_counter: CLOCK_MONOTONIC on Linux, the same clock as the benchmark's, so a move can be placed before or after all sat)
    _changed, _draw = _tables.Table._changed, _room.Lobby._draw
    def changed(self):
        n = len(self.match.actions)
        if getattr(self, '_bench_moves', None) != n: self._bench_moves, self._bench_at = n, time.perf_counter()
        return _changed(self)
    def draw(self):
        out = _draw(self)
        s = self.session
        if s is not None and getattr(s._table, '_bench_at', None) is not None and s._table.started:
            FAN.setdefault((self.ticket.code, s._table._bench_moves), {'at': s._table._bench_at}).setdefault(self.page_id, time.perf_counter() - s._table._bench_at)
        return out
    _tables.Table._changed, _room.Lobby._draw = changed, draw
"""

def server_command(kind, port, pool, extra=()) -> list:
    if kind == 'solara':
        return [sys.executable, '-c', SOLARA, '--host', '127.0.0.1', '--port', str(port), '--cull', '60s', *extra]
    if kind == 'tables':  # the class at tables: a closed tab's seat held 30 s (not 120), so tables close within --settle
        return [sys.executable, '-c', SOLARA.replace('    signal.signal(', TABLES_HOOK + '    signal.signal(', 1), '--host', '127.0.0.1',
                '--port', str(port), '--cull', '60s', '--seat-hold', '30', *extra]
    if kind == 'floor':  # not a tutor: the least any ipywidgets panel costs (floor_app.py)
        return [str(BIN / 'solara'), 'run', str(ROOT / 'bench' / 'floor_app.py'), '--production', '--no-open',
                '--host', '127.0.0.1', f'--port={port}']
    return [str(BIN / 'voila'), str(START), '--no-browser', f'--port={port}', '--Voila.ip=127.0.0.1',
            '--preheat_kernel=True', f'--pool_size={pool}', '--VoilaExecutor.iopub_timeout=60',
            '--MappingKernelManager.cull_idle_timeout=60', '--MappingKernelManager.cull_interval=10']

def rss_mb(pid) -> float:
    "Resident memory of a process and all its descendants, in MB."
    import psutil
    try: p = psutil.Process(pid)
    except psutil.NoSuchProcess: return 0.0
    total = 0
    for q in [p, *p.children(recursive=True)]:
        with contextlib.suppress(psutil.NoSuchProcess): total += q.memory_info().rss
    return total / 2**20

def n_children(pid) -> int:
    import psutil
    with contextlib.suppress(psutil.NoSuchProcess): return len(psutil.Process(pid).children(recursive=True))
    return 0

def _place_server(cores):
    "In the server's process before it starts: its cores (if pinned), and the normal priority (the browsers may be niced)."
    if cores: os.sched_setaffinity(0, cores)
    with contextlib.suppress(OSError): os.setpriority(os.PRIO_PROCESS, 0, 0)

@contextlib.contextmanager
def server(kind, pool, cores=None, profile=None, extra=()):
    "A fresh server on a free port (on `cores` only if given; sampled by py-spy into `profile` if given; `extra` flags for --tables)."
    port = free_port()
    proc = subprocess.Popen(server_command(kind, port, pool, extra), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, 'CGT_BENCH_STATS': STATS, 'SOLARA_TELEMETRY_MIXPANEL_ENABLE': 'False', 'SOLARA_THEME_SHOW_BANNER': 'False',
                                 'SOLARA_KERNEL_CULL_TIMEOUT': '60s'},  # (the floor's `solara run`; the classroom sets them itself)
                            start_new_session=True, preexec_fn=lambda: _place_server(cores))
    spy = None
    try:
        deadline = time.time() + 120
        while True:
            with socket.socket() as s:
                s.settimeout(0.2)
                if s.connect_ex(('127.0.0.1', port)) == 0: break
            if proc.poll() is not None: raise RuntimeError(f"{kind} exited with code {proc.returncode}")
            if time.time() > deadline: raise RuntimeError(f"{kind} did not start within 120 s")
            time.sleep(0.2)
        if profile:  # py-spy samples the server's threads (collapsed stacks, one line each) without slowing it much
            spy = subprocess.Popen([str(BIN / 'py-spy'), 'record', '--pid', str(proc.pid), '--format', 'raw', '--rate', '50',
                                    '--nonblocking', '--output', profile], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        yield port, proc
    finally:
        if spy is not None:
            spy.send_signal(signal.SIGINT)
            with contextlib.suppress(subprocess.TimeoutExpired): spy.wait(30)
        with contextlib.suppress(ProcessLookupError): os.killpg(proc.pid, signal.SIGTERM)
        try: proc.wait(20)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError): os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)

class CpuMeter:
    """CPU seconds used by the server (its process tree), Playwright's driver (node) and the browsers (everything else this
    script started: Chromium), sampled every 0.5 s per process so processes that end are still counted."""
    def __init__(self, server_pid):
        import psutil
        self.psutil, self.server_pid, self.seen, self.marks, self.kinds = psutil, server_pid, {}, [], {}
        self.me, self.stop = psutil.Process(), threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _sample(self):
        ps = self.psutil
        server = {self.server_pid}
        with contextlib.suppress(ps.NoSuchProcess): server |= {q.pid for q in ps.Process(self.server_pid).children(recursive=True)}
        for q in [self.me, *self.me.children(recursive=True)]:
            with contextlib.suppress(ps.NoSuchProcess, ps.AccessDenied):
                t, key = q.cpu_times(), (q.pid, q.create_time())
                if key not in self.kinds: self.kinds[key] = chromium_kind(q)
                who = ('server' if q.pid in server else 'bench' if q.pid == self.me.pid
                       else 'driver' if q.name().startswith('node') else 'browsers')
                self.seen[key] = (who, self.kinds[key], t.user + t.system)

    def _run(self):
        while not self.stop.wait(0.5): self._sample()

    def totals(self) -> dict:
        out = collections.Counter()
        for who, kind, cpu in list(self.seen.values()):
            out[who] += cpu
            if who == 'browsers': out[kind] += cpu
        return out

    def mark(self, name):
        "Note the CPU used so far, the wall time and the load average at the end of phase `name`."
        self._sample()
        self.marks.append((name, time.perf_counter(), self.totals(), os.getloadavg()))

    def close(self): self.stop.set(); self.thread.join()

    def lines(self, per:dict) -> list:
        "One line per phase; `per` = {phase: (count, what)} adds the CPU per student or per click."
        out = []
        for (_, t0, c0, _), (name, t1, c1, load) in zip(self.marks, self.marks[1:]):
            wall, used = t1 - t0, {k: c1[k] - c0[k] for k in ('server', 'browsers', 'driver', 'bench')}
            total = sum(used.values()) or 1
            n, what = per.get(name, (0, ''))
            parts = ', '.join(f"{k} {(c1[k] - c0[k]) / n * 1000:.0f}" for k in CHROMIUM_KINDS if c1[k] - c0[k] >= n / 2000) if n else ''
            each = (f"; per {what}: server {used['server'] / n * 1000:.0f} ms, browsers {used['browsers'] / n * 1000:.0f} ms "
                    f"({parts}), Playwright's driver {used['driver'] / n * 1000:.0f} ms" if n else '')
            out.append(f"  CPU while {name} ({wall:.0f} s wall, {os.cpu_count()} cores = {wall * os.cpu_count():.0f} CPU s): "
                       f"server {used['server']:.0f} s ({used['server'] / total:.0%}), browsers {used['browsers']:.0f} s "
                       f"({used['browsers'] / total:.0%}), Playwright's driver {used['driver']:.0f} s ({used['driver'] / total:.0%}), "
                       f"this script {used['bench']:.0f} s{each}; load average at the end {load[0]:.1f}")
        return out

CHROMIUM_KINDS = ('renderers', 'browser process', 'GPU process', 'network', 'other')

def chromium_kind(q) -> str:
    "Which of Chromium's processes `q` is: the 30 pages' renderers, or one of the processes they all share."
    with contextlib.suppress(Exception):
        cl = ' '.join(q.cmdline())
        if 'chrom' not in cl: return 'other'
        if '--type=renderer' in cl: return 'renderers'
        if '--type=gpu-process' in cl: return 'GPU process'
        if 'network.mojom' in cl: return 'network'
        if '--type=' not in cl: return 'browser process'
    return 'other'

def settle(pid, seconds=180, still=10) -> float:
    "Wait until the server's memory stops growing (Voilà's preheated kernels are started); return it."
    last, since, end = rss_mb(pid), time.time(), time.time() + seconds
    while time.time() < end:
        time.sleep(2)
        now = rss_mb(pid)
        if abs(now - last) > 5: last, since = now, time.time()
        elif time.time() - since >= still: break
    return rss_mb(pid)

# from the click on a lit card until that card has left the hand (the server's answer is drawn); checked at each change of
# the page (a MutationObserver), not by polling or asking for the layout, so that measuring adds little work of its own
JS_CLICK = """async () => {
  const btn = [...document.querySelectorAll('button.cgt-card.cgt-legal')][0];
  if (!btn) return null;
  const title = btn.title, start = performance.now();
  return await new Promise(resolve => {
    const gone = () => ![...document.querySelectorAll('button.cgt-card')].some(b => b.title === title && b.isConnected);
    const done = ms => { observer.disconnect(); clearTimeout(timer); resolve(ms); };
    const observer = new MutationObserver(() => { if (gone()) done(performance.now() - start); });
    const timer = setTimeout(() => done(-1), 20000);
    observer.observe(document.body, {childList: true, subtree: true, attributes: true, attributeFilter: ['title', 'class', 'style']});
    btn.click();
  });
}"""

def said(e, n=120) -> str:
    "An exception in one line: its kind and the first line of its message (a timeout may have none)."
    return f"{type(e).__name__}: {(str(e).splitlines() or ['no message'])[0][:n]}"

async def student(browser, url, delay, bound, results, i):
    "One student: arrive after `delay`, wait for a working page; return the context (kept open to play)."
    await asyncio.sleep(delay)
    ctx = await browser.new_context(viewport={'width': 1100, 'height': 1000})
    page = await ctx.new_page()
    start = time.perf_counter()
    try:
        await page.goto(url, timeout=bound * 1000)
        await page.wait_for_selector('button.cgt-card.cgt-legal', timeout=max(1, bound - (time.perf_counter() - start)) * 1000)
        results['ready'][i] = time.perf_counter() - start
    except Exception as e:
        results['failed'][i] = said(e)
    return ctx, page

# one untimed card of --warm: the first lit card, or "next hand" when a hand has ended (then its first lit card)
JS_WARM = """async () => {
  const sleep = ms => new Promise(r => setTimeout(r, ms));
  for (let waited = 0; waited < 30000; waited += 100) {
    const lit = document.querySelector('button.cgt-card.cgt-legal');
    if (lit) { lit.click(); return true; }
    const next = [...document.querySelectorAll('button')].find(b => b.textContent.includes('next hand'));
    if (next) { next.click(); await sleep(1000); }
    else await sleep(100);
  }
  return false;
}"""

async def warm_up(page, cards, rng, errors):
    "Play `cards` cards untimed (pressing next hand when a hand ends), as a student would, before the timed clicks."
    for _ in range(cards):
        await asyncio.sleep(rng.uniform(1, 3))
        try:
            if not await page.evaluate(JS_WARM): errors.append("warming up: no lit card within 30 s"); return
        except Exception as e:
            errors.append(f"warming up: {said(e, 100)}"); return

async def play(page, clicks, rng, latencies, errors):
    "Play `clicks` cards, as a student thinking 1-3 s before each; each latency noted as (which click of the student's, ms)."
    for nth in range(clicks):
        await asyncio.sleep(rng.uniform(1, 3))
        try:
            await page.wait_for_selector('button.cgt-card.cgt-legal', timeout=30_000)
            ms = await page.evaluate(JS_CLICK)
        except Exception as e:
            errors.append(said(e, 100)); return
        if ms is None: continue
        if ms < 0: errors.append("a click got no answer within 20 s"); return
        latencies.append((nth, ms))

async def wire_student(port, delay, bound, results, i):
    "A student without a browser (`wire_student.WireStudent`): arrive after `delay`, wait for the lit cards."
    from wire_student import WireStudent
    await asyncio.sleep(delay)
    s, start = WireStudent(port), time.perf_counter()
    try:
        await s.start(timeout=bound)
        results['wire ready'][i] = time.perf_counter() - start
    except Exception as e:
        results['failed'][i] = f"wire student: {said(e)}"
    return s

async def wire_play(s, clicks, rng, latencies, errors):
    for _ in range(clicks):
        await asyncio.sleep(rng.uniform(1, 3))
        try:
            await s.wait_lit()
            ms = await s.click()
        except Exception as e:
            errors.append(f"wire student: {said(e, 100)}"); return
        if ms is not None: latencies.append(ms)

async def one_class(port, n, mode, stagger, bound, clicks, pid, settle_s, meter, holds, wire=0, warm=0, link=''):
    "N students: the first `wire` of them without a browser (`wire_student`), the others in Chromium pages opening `link`."
    from playwright.async_api import async_playwright
    url, rng = f'http://127.0.0.1:{port}/{link}', random.Random(13)
    held = held_by if holds else lambda pid: {}  # only the Solara server has the handler (SIGUSR1 would stop Voilà)
    results = {'ready': {}, 'wire ready': {}, 'failed': {}, 'held': [('idle', held(pid))]}
    delay = lambda i: i * stagger if mode == 'staggered' else 0
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            meter.mark('start')
            t0 = time.perf_counter()
            arrivals = [wire_student(port, delay(i), bound, results, i) if i < wire else student(browser, url, delay(i), bound, results, i)
                        for i in range(n)]
            everyone = await asyncio.gather(*arrivals)
            wired, opened = everyone[:wire], everyone[wire:]
            arrival_s = time.perf_counter() - t0
            meter.mark('arriving')
            latencies, errors, wire_latencies = [], [], []
            working = [page for i, (ctx, page) in enumerate(opened, wire) if i in results['ready']]
            if warm:
                await asyncio.gather(*[warm_up(p, warm, random.Random(rng.random()), errors) for p in working])
                meter.mark('warming up')
            if working: results['page'] = await page_size(working[0])
            await asyncio.gather(*[play(p, clicks, random.Random(rng.random()), latencies, errors) for p in working],
                                 *[wire_play(s, clicks, random.Random(rng.random()), wire_latencies, errors)
                                   for i, s in enumerate(wired) if i in results['wire ready']])
            results['wire latencies'] = wire_latencies
            meter.mark('playing')
            with_sessions = rss_mb(pid)
            results['held'].append(('with the sessions open', held(pid)))
            for s in wired:
                with contextlib.suppress(Exception): await s.close()
            for ctx, page in opened:
                with contextlib.suppress(Exception): await page.close(run_before_unload=True)
                with contextlib.suppress(Exception): await ctx.close()
        finally:
            await browser.close()
    after = []
    for t in range(15, settle_s + 1, 15):
        await asyncio.sleep(15)
        after.append((t, rss_mb(pid)))
    results['held'].append((f'{settle_s} s after the tabs closed', held(pid)))
    return results, latencies, errors, with_sessions, after, arrival_s

def held_by(pid) -> dict:
    "What the Solara server holds now (its SIGUSR1 handler writes it), or {} (no answer within 20 s)."
    with contextlib.suppress(OSError): os.unlink(STATS)
    with contextlib.suppress(ProcessLookupError): os.kill(pid, signal.SIGUSR1)
    for _ in range(100):
        time.sleep(0.2)
        with contextlib.suppress(OSError, ValueError):
            import json
            return json.loads(pathlib.Path(STATS).read_text())
    return {}

JS_SIZE = """() => ({nodes: document.getElementsByTagName('*').length,
  widgets: document.querySelectorAll('.jupyter-widgets').length, html: document.documentElement.outerHTML.length})"""

async def page_size(page) -> dict:
    "What one working page holds: DOM elements, widget views, HTML characters."
    with contextlib.suppress(Exception): return await page.evaluate(JS_SIZE)
    return {}

def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]

def report(kind, mode, n, idle, results, clicks, errors, with_sessions, after, arrival_s, load, placement, meter, link=''):
    latencies = [ms for _, ms in clicks]
    ready, wired, wire_lat = list(results['ready'].values()), list(results['wire ready'].values()), results.get('wire latencies', [])
    wire = len(results['wire ready']) + sum(1 for why in results['failed'].values() if why.startswith('wire student'))
    who = f"{n} students ({n - wire} in Chromium pages, {wire} without a browser)" if wire else f"{n} students"
    print(f"\n== {kind}{f' {link}' if link else ''}, {who} {mode}, {placement} (load average before: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f};"
          f" arrivals took {arrival_s:.0f} s)")
    print(f"  working pages: {len(ready) + len(wired)}/{n}" + (f"   time to a working page (Chromium): median {statistics.median(ready):.1f} s, max {max(ready):.1f} s" if ready else '')
          + (f"; without a browser: median {statistics.median(wired):.1f} s, max {max(wired):.1f} s" if wired else ''))
    for i, why in sorted(results['failed'].items()): print(f"  page {i} never worked: {why}")
    if latencies:
        print(f"  click latency under load{' in the Chromium pages (until drawn)' if wire else ''}: median {statistics.median(latencies):.0f} ms,"
              f" p95 {pct(latencies, .95):.0f} ms, max {max(latencies):.0f} ms over {len(latencies)} clicks")
        by_nth = collections.defaultdict(list)  # the class's first clicks come together: is the tail theirs, or every click's?
        for nth, ms in clicks: by_nth[nth].append(ms)
        print("  by the student's click (1st, 2nd...), median/p90 ms: " + ', '.join(
            f"{nth + 1}: {statistics.median(xs):.0f}/{pct(xs, .9):.0f}" for nth, xs in sorted(by_nth.items())))
    if wire_lat:
        print(f"  click latency of the students without a browser (until the server's answer arrives): median "
              f"{statistics.median(wire_lat):.0f} ms, p95 {pct(wire_lat, .95):.0f} ms, max {max(wire_lat):.0f} ms over {len(wire_lat)} clicks")
    for e in sorted(set(errors)): print(f"  while playing ({errors.count(e)}x): {e}")
    for line in meter.lines({'arriving': (n, 'student'), 'playing': (len(latencies) + len(wire_lat), 'click')}): print(line)
    if results.get('page'): print("  one page in the browser: {nodes} DOM elements, {widgets} widget views, {html} characters of HTML".format(**results['page']))
    print(f"  server memory: idle {idle:.0f} MB, with {n} sessions {with_sessions:.0f} MB; after the tabs closed: "
          + ', '.join(f"{t} s {m:.0f} MB" for t, m in after))
    for when, h in results.get('held', []):
        if h: print(f"  the server holds {when}: {h['kernels']} virtual kernels, {h['panels']} tutor panels, {h['objects']} Python objects, {h.get('stale', '?')} Solara listener entries of closed sessions")
    back = next((t for t, m in after if m <= idle * 1.10), None)
    print(f"  back to idle (within 10%): {f'after {back} s' if back else 'NOT within ' + str(after[-1][0]) + ' s' if after else '-'}"
          + (f"; at the end {after[-1][1] - idle:+.0f} MB from idle" if after else ''))
    everyone = latencies + wire_lat
    target = len(ready) + len(wired) == n and everyone and pct(everyone, .95) < 500 and back is not None and back <= 120
    print(f"  targets (all working, p95 < 500 ms, idle again within 120 s): {'met' if target else 'NOT met'}")

# ---------------------------------------------------------------- --tables: a class at tables of four (issue 33)

JS_TURN = """n => { const b = document.querySelector('.cgt-table-info'), w = document.querySelector('.cgt-waiting');
  return (b && +b.dataset.moves >= n) || (w && w.innerText.startsWith('Your turn') && document.querySelector('button.cgt-card.cgt-legal')); }"""

async def chromium_seat(browser, url, code_of, i, name, until, think, results):
    """A student in a Chromium page at a table: the start page, then *Join a table* with the code typed (or, for a host,
    *Open a table*), then a lit card clicked at each turn until the table has `until` moves."""
    ctx = await browser.new_context(viewport={'width': 1100, 'height': 1000})
    page = await ctx.new_page()
    try:
        await page.goto(url, timeout=180_000)
        await page.wait_for_selector('.cgt-modes', timeout=180_000)
        code = await code_of
        await page.click('.cgt-mode-join')
        await page.fill('.cgt-code input', code); await page.fill('.cgt-name input', name); await page.click('.cgt-join')
        await page.wait_for_selector('.cgt-table-code', timeout=180_000)
        results['seated'][i] = time.perf_counter()
        while True:
            await page.wait_for_function(JS_TURN, arg=until, timeout=300_000)
            n = int(await page.get_attribute('.cgt-table-info', 'data-moves'))
            if n >= until: break
            await asyncio.sleep(think())
            await page.click('button.cgt-card.cgt-legal', timeout=60_000)
            await page.wait_for_function("n => +document.querySelector('.cgt-table-info').dataset.moves > n", arg=n, timeout=120_000)
        results['done'][i] = time.perf_counter()
    except Exception as e:
        results['failed'][i] = f"Chromium student: {said(e)}"
    return ctx, page

async def wire_seat(port, code_of, host_code, i, name, seed, until, think, results):
    "A student without a browser at a table (`wire_table.TableStudent`): the start page, open or join, then play."
    from wire_table import TableStudent
    s = TableStudent(port)
    try:
        await s.start(timeout=180)
        if host_code is not None:  # the table's host: opens it, and tells its code (as a host reads it out to the others)
            host_code.set_result(await s.open_table(name, seed))
        else: await s.join_table(await code_of, name)
        results['seated'][i] = time.perf_counter()
        results['moves'][i] = await s.play(until, think)
        results['done'][i] = time.perf_counter()
    except Exception as e:
        results['failed'][i] = f"wire student: {said(e)}"
        if host_code is not None and not host_code.done(): host_code.set_exception(RuntimeError("the host failed"))
    return s

def cpu_s(pid) -> float:
    "CPU seconds (user + system) of a process and its descendants so far."
    import psutil
    total = 0.0
    with contextlib.suppress(psutil.NoSuchProcess):
        p = psutil.Process(pid)
        for q in [p, *p.children(recursive=True)]:
            with contextlib.suppress(psutil.NoSuchProcess): t = q.cpu_times(); total += t.user + t.system
    return total

async def tables_class(port, pid, a, idle):
    """`--tables`: N students (every 4 at a table; the table's first student opens it, the 3 others join with its code)
    arriving at once; --chromium of them (one per table, from the first table on, in Seat 3) in Chromium pages, the others
    without a browser. Every table plays its first hand (Begga Kaat for four: 52 moves) to the end."""
    from playwright.async_api import async_playwright
    n, per, until = a.n, 4, 52
    tables = n // per
    rng = random.Random(13)
    think = lambda: rng.uniform(a.think_min, a.think_max)
    results = {'seated': {}, 'done': {}, 'failed': {}, 'moves': {}}
    peak = [rss_mb(pid)]
    stop = asyncio.Event()
    at_seated = []  # (when, server CPU s) once every student is seated: arriving before, playing after
    async def watch_memory():
        while not stop.is_set():
            peak[0] = max(peak[0], rss_mb(pid))
            if not at_seated and len(results['seated']) + len(results['failed']) >= n: at_seated.append((time.perf_counter(), cpu_s(pid)))
            await asyncio.sleep(0.5)
    watcher = asyncio.create_task(watch_memory())
    loop = asyncio.get_running_loop()
    codes = [loop.create_future() for _ in range(tables)]
    chromium_at = {t * per + 3 for t in range(min(a.chromium, tables))}
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            cpu0, t0 = cpu_s(pid), time.perf_counter()
            seats = []
            for i in range(n):
                t, name = i // per, f"Student {i + 1}"
                if i in chromium_at: seats.append(chromium_seat(browser, f'http://127.0.0.1:{port}/', codes[t], i, name, until, think, results))
                else: seats.append(wire_seat(port, codes[t], codes[t] if i % per == 0 else None, i, name, t + 1, until, think, results))
            everyone = await asyncio.gather(*seats)
            t_end, cpu1 = time.perf_counter(), cpu_s(pid)
            with_sessions = rss_mb(pid)
            inside = await asyncio.to_thread(held_by, pid)  # the server's own fan-out figures (TABLES_HOOK), with the pages open
            for x in everyone:
                if isinstance(x, tuple):
                    with contextlib.suppress(Exception): await x[1].close(run_before_unload=True)
                    with contextlib.suppress(Exception): await x[0].close()
                else:
                    with contextlib.suppress(Exception): await x.close()
        finally:
            await browser.close()
    stop.set(); await watcher
    after = []
    for t in range(15, a.settle + 1, 15):
        await asyncio.sleep(15)
        after.append((t, rss_mb(pid)))
    # the fan-out, from the wire students' side: for each move, from the mover's click (a wire mover's) until every wire
    # page of its table had the table bar counting it (one clock: they all run in this process)
    wired = {i: s for i, s in enumerate(everyone) if not isinstance(s, tuple)}
    fan, spread = [], []
    for t in range(tables):
        pages = [wired[i] for i in range(t * per, t * per + per) if i in wired]
        for i in range(t * per, t * per + per):
            for move, clicked in results['moves'].get(i, []):
                stamps = [p.arrived.get(move) for p in pages]
                if None in stamps: continue
                fan.append((clicked, (max(stamps) - clicked) * 1000))
                spread.append((max(stamps) - min(stamps)) * 1000)
    seated = list(results['seated'].values())
    moves = sum(len(m) for m in results['moves'].values())
    all_moves = until * tables
    load = os.getloadavg()
    print(f"\n== tables: {n} students at {tables} tables of {per} (Begga Kaat, 4 players), arriving at once at a page that opens "
          f"on {'the form to join a table' if a.start == 'tables' else 'a solo game'} (--start {a.start}); "
          f"{len(chromium_at)} in Chromium pages, {n - len(chromium_at)} without a browser; think {a.think_min:g}-{a.think_max:g} s")
    print(f"  seated: {len(seated)}/{n}" + (f", all seated {max(seated) - t0:.1f} s after arriving (median student {statistics.median(seated) - t0:.1f} s)" if seated else ''))
    done = len(results['done'])
    print(f"  tables that finished the hand: {sum(all(i in results['done'] for i in range(t * per, t * per + per)) for t in range(tables))}/{tables}"
          f" ({done}/{n} students saw it end); the class took {t_end - t0:.0f} s")
    for i, why in sorted(results['failed'].items()): print(f"  student {i + 1} failed: {why}")
    (t_seated, cpu_seated), = at_seated or [(t_end, cpu1)]
    server_fan = [(at, max(ms)) for code, moves, ms, at in inside.get('fanout', []) if len(ms) == per and 0 < moves <= until]
    if server_fan:
        xs = [ms for _, ms in server_fan]
        print(f"  fan-out on the server side (from a move's acceptance until the last of its table's {per} pages had drawn it, its "
              f"widget messages handed to the page's websocket): median {statistics.median(xs):.0f} ms, p95 "
              f"{pct(xs, .95):.0f} ms (target < 250 ms), max {max(xs):.0f} ms over {len(xs)} moves")
        for label, xs in (('moves while students were still arriving', [ms for at, ms in server_fan if at < t_seated]),
                          ('moves once all were seated', [ms for at, ms in server_fan if at >= t_seated])):
            if xs: print(f"    server side, {label}: median {statistics.median(xs):.0f} ms, p95 {pct(xs, .95):.0f} ms, max {max(xs):.0f} ms over {len(xs)} moves")
    if fan:
        every = [ms for _, ms in fan]
        print(f"  fan-out, measured on the client side (from a wire student's click until every wire page of its table had the "
              f"move; includes the click's way in and this script's own event loop reading {len(wired)} websockets): median "
              f"{statistics.median(every):.0f} ms, p95 {pct(every, .95):.0f} ms (target < 250 ms), max {max(every):.0f} ms over {len(every)} moves")
        for label, xs in (('moves while students were still arriving', [ms for c, ms in fan if c < t_seated]),
                          ('moves once all were seated', [ms for c, ms in fan if c >= t_seated])):
            if xs: print(f"    client side, {label}: median {statistics.median(xs):.0f} ms, p95 {pct(xs, .95):.0f} ms, max {max(xs):.0f} ms over {len(xs)} moves")
        print(f"  spread between a table's first and last wire page receiving a move: median {statistics.median(spread):.0f} ms, "
              f"p95 {pct(spread, .95):.0f} ms")
    print(f"  server CPU ({os.cpu_count()} cores): arriving and sitting {cpu_seated - cpu0:.1f} s ({t_seated - t0:.0f} s wall, "
          f"{(cpu_seated - cpu0) / n * 1000:.0f} ms per student); playing {cpu1 - cpu_seated:.1f} s ({t_end - t_seated:.0f} s wall), "
          f"{(cpu1 - cpu_seated) / max(1, all_moves) * 1000:.0f} ms per move over the {all_moves} moves ({moves} made by wire students, "
          f"the rest in Chromium pages; every move drawn for the 4 pages of its table)")
    print(f"  server memory: idle {idle:.0f} MB, peak {peak[0]:.0f} MB, with the {n} pages open at the end {with_sessions:.0f} MB; after the tabs closed: "
          + ', '.join(f"{t} s {m:.0f} MB" for t, m in after))
    for when, h in (('idle, before the class', a.idle_held), (f'{a.settle} s after the tabs closed', held_by(pid))):
        if h: print(f"  the server holds {when}: {h['kernels']} virtual kernels, {h['panels']} tutor panels, "
                    f"{h['objects']} Python objects, {h.get('stale', '?')} Solara listener entries of closed sessions")
    print(f"  load average at the end: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} (others share this machine)")

def main_tables(a):
    profile = None
    if a.profile:  # py-spy samples the server for the whole class (collapsed stacks)
        os.makedirs(a.profile, exist_ok=True)
        profile = os.path.join(a.profile, f"tables-{a.n}.txt")
    with server('tables', a.pool_size, profile=profile, extra=('--start', a.start)) as (port, proc):
        idle = settle(proc.pid)
        a.idle_held = held_by(proc.pid)
        print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
        asyncio.run(tables_class(port, proc.pid, a, idle))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--n', type=int, default=30, help='students (pages)')
    ap.add_argument('--servers', default='voila,solara')
    ap.add_argument('--modes', default='at-once,staggered')
    ap.add_argument('--stagger', type=float, default=2.0, help='seconds between arrivals when staggered')
    ap.add_argument('--bound', type=float, default=180, help='seconds a page may take to work before it counts as never working')
    ap.add_argument('--clicks', type=int, default=6, help='cards each student plays under load')
    ap.add_argument('--warm', type=int, default=0, help='cards each Chromium student plays untimed first (pressing next hand when '
                    'a hand ends), so that the timed clicks come later in the match, with a longer log (e.g. 16: the second hand)')
    ap.add_argument('--pool-size', type=int, default=10, help="Voilà's preheated kernels")
    ap.add_argument('--settle', type=int, default=120, help='seconds to watch memory after the tabs close')
    ap.add_argument('--placements', default='plain', help="plain (everything on every core, as measured so far), pinned "
                    "(the server on core 0, Chromium and this script on core 1) and/or server-first (Chromium and this script "
                    "at the lowest priority, nice 19, the server at the normal one: a model of students on their own devices, "
                    "where no browser takes the server's CPU)")
    ap.add_argument('--wire', type=int, default=0, help="how many of the N students come without a browser (wire_student.py, "
                    "Solara only): the server carries the whole class while only N-WIRE Chromium pages take this machine's cores")
    ap.add_argument('--classes', type=int, default=1, help='classes one after another on the same server (each after the '
                    "last one's tabs closed and --settle s passed): memory kept once, or growing with every class?")
    ap.add_argument('--links', default='', help="the link every Chromium student opens, comma-separated for one run each in "
                    "turn (default: the start page as it is; students without a browser open that); e.g. ',?pace=0' for the page "
                    "as it is, then with the bots playing at once")
    ap.add_argument('--profile', default=None, help='a folder: py-spy samples the server into it (one collapsed-stack file per run)')
    ap.add_argument('--tables', action='store_true', help="a class at tables of four instead (issue 33): N students arrive at "
                    "once, open (every fourth) or join tables through the lobby's widgets and play a whole hand; --chromium of them in "
                    "Chromium pages (one per table), the others without a browser")
    ap.add_argument('--start', default='tables', choices=('tables', 'solo'), help="--tables: what the class's page opens on "
                    "(the server's --start: tables, as a teacher serves a class at tables, `make classroom TABLES=1`; solo, the default server)")
    ap.add_argument('--chromium', type=int, default=4, help='--tables: students in Chromium pages (one at each of the first tables)')
    ap.add_argument('--think', default='0.3,1.0', help='--tables: seconds a student thinks before a card, min,max')
    a = ap.parse_args()
    a.think_min, a.think_max = map(float, a.think.split(','))
    try:
        import playwright, psutil  # noqa: F401
    except ImportError as e: return print(f"skipped: {e.name} is not installed")
    if not os.path.exists(CHROMIUM): return print(f"skipped: no Chromium at {CHROMIUM} (apt-get install chromium)")
    print(f"{os.cpu_count()} cores; {a.n} students; Voilà pool {a.pool_size} preheated kernels; clicks {a.clicks} each"
          f"{f' after {a.warm} untimed' if a.warm else ''}; "
          f"Solara's allocator: {os.environ.get('PYTHONMALLOC') or 'malloc (cardgames-classroom sets PYTHONMALLOC on glibc)'}")
    if a.tables: return main_tables(a)
    everywhere = os.sched_getaffinity(0)
    for placement in a.placements.split(','):
        if placement == 'pinned' and len(everywhere) < 2: print("pinned: skipped (needs two cores)"); continue
        server_cores, own_cores = ({min(everywhere)}, everywhere - {min(everywhere)}) if placement == 'pinned' else (None, everywhere)
        os.sched_setaffinity(0, own_cores)  # Chromium, started from here, inherits it (and the priority)
        os.setpriority(os.PRIO_PROCESS, 0, 19 if placement == 'server-first' else 0)
        for kind, link, mode in itertools.product(a.servers.split(','), a.links.split(','), a.modes.split(',')):
            profile = None
            if a.profile:
                os.makedirs(a.profile, exist_ok=True)
                profile = os.path.join(a.profile, f"{kind}{link.replace('?', '-').replace('&', '-')}-{mode}-{placement}-{a.n}.txt")
            with server(kind, a.pool_size, server_cores, profile) as (port, proc):
                idle = settle(proc.pid)
                for lesson in range(a.classes):  # one class after another on the same server: does memory grow per class?
                    if a.classes > 1: print(f"\n-- class {lesson + 1} of {a.classes} on this server (idle: before the first)")
                    load = os.getloadavg()
                    meter = CpuMeter(proc.pid)
                    try: out = asyncio.run(one_class(port, a.n, mode, a.stagger, a.bound, a.clicks, proc.pid, a.settle, meter,
                                                     kind == 'solara', a.wire if kind == 'solara' else 0, a.warm, link))
                    finally: meter.close()
                    report(kind, mode, a.n, idle, *out, load, placement, meter, link)
        os.sched_setaffinity(0, everywhere)
        with contextlib.suppress(OSError): os.setpriority(os.PRIO_PROCESS, 0, 0)  # back to normal (root may)

if __name__ == '__main__': main()
