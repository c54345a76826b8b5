"""Browser CPU per click in ONE classroom page, with no test driver attached (issue 13: ~300 ms of browser CPU per click).

Starts the classroom server (as `make classroom` does, on a free loopback port) and Debian's Chromium by hand (headless,
the browser tests' flags), then one DevTools call starts a loop inside the page: click the first lit card, wait until it
has left the hand, wait --pause s, again (--clicks times). Nothing listens to the page meanwhile (Playwright would: it
receives every websocket frame through the DevTools protocol, which costs CPU of its own). Prints the latency and the CPU
per click of each Chromium process kind (renderer, gpu-process, browser, network), with the load average. `--warm K` first
plays K cards untimed (as `bench_classroom.py --warm` does), so that the timed clicks come later in the match, where the log
is long; the timed clicks must then end within a hand (Begga Kaat's hands are 13 cards: `--warm 16 --clicks 8`).

Run: `PYTHONPATH=. .venv/bin/python bench/bench_page_cpu.py [--clicks 12] [--pause 3] [--query '?pace=0'] [--warm 16]`. Not a test.
"""
import argparse, asyncio, json, os, pathlib, re, shutil, statistics, subprocess, sys, tempfile, time, urllib.request
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / 'tests'))
from helpers import FLAGS, free_port, served
from bench_classroom import JS_WARM
import psutil, websockets

LOOP = """(async () => {
  const sleep = ms => new Promise(r => setTimeout(r, ms));
  const lit = () => [...document.querySelectorAll('button.cgt-card.cgt-legal')];
  window.__lat = []; window.__done = false;
  for (let i = 0; i < %d; i++) {
    while (!lit().length) await sleep(100);
    const btn = lit()[0], title = btn.title, t0 = performance.now();
    btn.click();
    while ([...document.querySelectorAll('button.cgt-card')].some(b => b.title === title && b.isConnected)) await sleep(5);
    window.__lat.push(performance.now() - t0);
    await sleep(%d);
  }
  window.__done = true;
})(); 1"""

def cpu(root) -> dict:
    "CPU seconds so far of Chromium's processes, by kind (browser, renderer, gpu-process, NetworkService...)."
    out = {}
    for q in [root, *root.children(recursive=True)]:
        try:
            cl = ' '.join(q.cmdline()); t = q.cpu_times()
            kind = re.search(r'--type=([a-z-]+)', cl).group(1) if '--type=' in cl else 'browser'
            if '--utility-sub-type=' in cl: kind = re.search(r'--utility-sub-type=([a-zA-Z.]+)', cl).group(1).split('.')[-1]
            out[kind] = out.get(kind, 0) + t.user + t.system
        except (psutil.NoSuchProcess, AttributeError): pass
    return out

async def cdp(ws_url, method, params=None):
    "One DevTools call on a connection of its own (closed at once: nothing listens to the page in between)."
    async with websockets.connect(ws_url, max_size=2**26) as ws:
        await ws.send(json.dumps({'id': 1, 'method': method, 'params': params or {}}))
        while True:
            m = json.loads(await ws.recv())
            if m.get('id') == 1: return m.get('result', m)

def run(port, a):
    prof = tempfile.mkdtemp(prefix='cgt-page-cpu-')
    br = subprocess.Popen(['/usr/bin/chromium', '--headless=new', *FLAGS, '--disable-dev-shm-usage', f'--user-data-dir={prof}',
                           '--remote-debugging-port=0', '--window-size=1100,1000', f'http://127.0.0.1:{port}/{a.query}'],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        f = os.path.join(prof, 'DevToolsActivePort')
        deadline = time.time() + 60
        while not os.path.exists(f) or not open(f).read().strip():
            if time.time() > deadline: raise RuntimeError('Chromium did not start within 60 s')
            time.sleep(0.1)
        dport = open(f).read().split()[0]
        time.sleep(1)
        page = next(t for t in json.load(urllib.request.urlopen(f'http://127.0.0.1:{dport}/json')) if t['type'] == 'page')
        ws = page['webSocketDebuggerUrl']
        ev = lambda js: asyncio.run(cdp(ws, 'Runtime.evaluate', {'expression': js, 'returnByValue': True, 'awaitPromise': True}))['result'].get('value')
        t0 = time.time()
        while not ev("document.querySelectorAll('button.cgt-card.cgt-legal').length"):
            time.sleep(0.5)
            if time.time() - t0 > 120: raise RuntimeError('no panel')
        for _ in range(a.warm):
            if not ev(f'({JS_WARM})()'): raise RuntimeError('warming up: no lit card within 30 s')
            time.sleep(0.4)
        while not ev("document.querySelectorAll('button.cgt-card.cgt-legal').length"): time.sleep(0.5)
        time.sleep(3)
        size = ev("JSON.stringify({nodes: document.getElementsByTagName('*').length, html: document.documentElement.outerHTML.length, log_rows: document.querySelectorAll('.cgt-event').length})")
        root = psutil.Process(br.pid)
        c0 = cpu(root); w0 = time.time()
        ev(LOOP % (a.clicks, a.pause * 1000))
        while not ev('window.__done'): time.sleep(2)
        c1 = cpu(root); wall = time.time() - w0
        lat = ev('window.__lat')
        d = {k: (c1[k] - c0.get(k, 0)) * 1000 / a.clicks for k in c1}
        print(f"one page {size}, link '/{a.query}': {a.clicks} clicks over {wall:.0f} s; latency median {statistics.median(lat):.0f} ms, max {max(lat):.0f} ms")
        print(f"  browser CPU per click: total {sum(d.values()):.0f} ms = " + ', '.join(f'{k} {v:.0f}' for k, v in sorted(d.items(), key=lambda kv: -kv[1]) if v >= 0.5)
              + f"; load average {os.getloadavg()[0]:.1f}")
    finally:
        br.terminate(); br.wait(10)
        shutil.rmtree(prof, ignore_errors=True)

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--clicks', type=int, default=12)
    ap.add_argument('--pause', type=float, default=3.0, help='seconds after each answer (the paced bots play meanwhile)')
    ap.add_argument('--query', default='', help="the link's settings, e.g. '?pace=0' (bots at once) or '?game=kocka'")
    ap.add_argument('--warm', type=int, default=0, help='cards played untimed first (next hand pressed when a hand ends)')
    a = ap.parse_args()
    if not os.path.exists('/usr/bin/chromium'): return print("skipped: no Chromium at /usr/bin/chromium (apt-get install chromium)")
    port = free_port()
    with served([sys.executable, '-c', 'from cardgames_tutor.serve.classroom import main; main()', '--host', '127.0.0.1', '--port', str(port)], port, 'classroom', wait=120):
        run(port, a)

if __name__ == '__main__': main()
