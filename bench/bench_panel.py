"""How fast the tutor panel answers a click: median time from a click to the updated panel.

1. Without a browser: `button.click()` on a lit card of the learner's hand (or a move button), timed
   until the click handler returns, i.e. the action is played, the bots have answered (pace 0) and
   every widget is redrawn. Target: under 30 ms. Measured twice: as in a kernel (inside a running
   asyncio loop, where the matplotlib chart is drawn just after the click's update, as the panel does
   in Jupyter and Voilà), and with no loop at all (the chart drawn inside the click when a hand ends).
2. In headless Chromium (Voilà serving the start page, pace 0): timed inside the page, from the
   click on a card button until the browser shows the result (that card gone from the hand and the
   status saying it is your turn again). Target: under 250 ms. Skipped with a message where
   playwright, Chromium or Voilà is missing.

Run: `.venv/bin/python bench/bench_panel.py [--clicks N]`. Prints the figures; it is not a test.
"""
import argparse, asyncio, contextlib, os, pathlib, signal, socket, statistics, subprocess, sys, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from cardgames_tutor.core.registry import games
from cardgames_tutor.ui.panel import Tutor

def python_clicks(name, clicks, seed=1, in_loop=True) -> list:
    "Times (s) of clicks through the widgets (bots at pace 0), inside a running asyncio loop or without one."
    if in_loop: return asyncio.run(_clicks_in_loop(name, clicks, seed))
    t = Tutor(name, seed=seed)
    return [one_click(t, seed + i) for i in range(clicks)]

async def _clicks_in_loop(name, clicks, seed) -> list:
    t, times = Tutor(name, seed=seed), []
    for i in range(clicks):
        times.append(one_click(t, seed + i))
        await asyncio.sleep(0.2 if t.match.tallies else 0.001)  # let a deferred chart be drawn, untimed
    return times

def one_click(t, seed) -> float:
    "Time one learner's click: a lit card, else a move's button (its cards chosen first, untimed)."
    for _ in range(100):  # untimed: a new match, or moving on from a finished hand (it waits on screen for the learner)
        if t.match.over: t.deal(seed=seed)
        elif t.session.review is not None: t.next_hand()
        else: break
    cards = t.lit_cards()
    if cards and not t.choosing: button = t.card_button(cards[0])
    else:
        move = t.match.legal_actions()[0]
        if t.choosing:
            for c in move.cards: t.card_button(c).click()
            button = t.move_button(move.verb)
        else: button = t.move_button(str(move))
    start = time.perf_counter()
    button.click()
    return time.perf_counter() - start

JS_CLICK = """async () => {
  const btn = [...document.querySelectorAll('button.cgt-card.cgt-legal')][0];
  if (!btn) return null;
  const title = btn.title;
  const start = performance.now();
  btn.click();
  return await new Promise(resolve => {
    const check = () => {
      const still = [...document.querySelectorAll('button.cgt-card')].some(b => b.title === title && b.offsetParent);
      const status = document.querySelector('.cgt-status');
      if (!still && status && /your turn|match is over/.test(status.innerText)) resolve(performance.now() - start);
      else if (performance.now() - start > 10000) resolve(-1);
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}"""

def browser_clicks(clicks) -> list:
    "Times (s) from a click on a card button to the redrawn panel, measured in the page."
    try: from playwright.sync_api import sync_playwright
    except ImportError: return "skipped: Python playwright is not installed"
    chromium, voila = '/usr/bin/chromium', pathlib.Path(sys.executable).parent / 'voila'
    if not os.path.exists(chromium): return "skipped: no Chromium at /usr/bin/chromium"
    if not voila.exists(): return "skipped: voila is not installed"
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0)); port = s.getsockname()[1]
    proc = subprocess.Popen([str(voila), str(ROOT / 'nbs/tutorials/start.ipynb'), '--no-browser', f'--port={port}',
                             '--Voila.ip=127.0.0.1'], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    times = []
    try:
        flags = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
                 '--disable-component-update', '--disable-sync']
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, headless=True, args=flags)
            page = browser.new_page(viewport={'width': 1100, 'height': 1000})
            for _ in range(150):
                try: page.goto(f'http://127.0.0.1:{port}/?seed=2&pace=0', timeout=60_000); break
                except Exception: time.sleep(0.2)
            page.wait_for_selector('button.cgt-card.cgt-legal', timeout=90_000)
            page.wait_for_timeout(500)
            while len(times) < clicks:
                page.wait_for_selector('button.cgt-card.cgt-legal', timeout=30_000)
                ms = page.evaluate(JS_CLICK)
                if ms is None or ms < 0: break
                times.append(ms / 1000)
                page.wait_for_timeout(50)
            browser.close()
    finally:
        with contextlib.suppress(ProcessLookupError): os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(15)
    return times

def show(label, times, target_ms):
    if isinstance(times, str): return print(f"{label}: {times}")
    ms = sorted(t * 1000 for t in times)
    median = statistics.median(ms)
    print(f"{label}: median {median:.1f} ms, p90 {ms[int(0.9 * (len(ms) - 1))]:.1f} ms, max {ms[-1]:.1f} ms over "
          f"{len(ms)} clicks (target < {target_ms} ms: {'met' if median < target_ms else 'NOT met'})")

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--clicks', type=int, default=60)
    ap.add_argument('--no-browser', action='store_true')
    args = ap.parse_args()
    for name in games():
        show(f"python, as in a kernel  {name:<20}", python_clicks(name, args.clicks), 30)
        show(f"python, no event loop   {name:<20}", python_clicks(name, args.clicks, in_loop=False), 30)
    if not args.no_browser: show("chromium begga-kaat (Voilà)", browser_clicks(min(args.clicks, 40)), 250)

if __name__ == '__main__': main()
