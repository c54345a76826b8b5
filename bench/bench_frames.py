"""Frames drawn half-updated on the classroom page: how many of the frames a student's page draws show cards lit
while the status says someone else's turn (or the other way round), through clicks and paced bots' moves.

`PAGE_JS` hands each update to the widgets whole, so on a quiet machine no frame should be half drawn (without it, 9
frames of 6 clicks were). A starved browser (two CPU-bound processes beside it on two cores) can still draw one: the
widgets' own rendering of one batch spans several tasks. This is a figure, not a test: tests/test_classroom.py checks
the hand-over itself on a clock of its own (`test_an_update_is_handed_over_whole`), where load cannot change it.

Run: `.venv/bin/python bench/bench_frames.py [--clicks 6] [--runs 3] [--link '?seed=3&pace=0.2'] [--load 0]`; `--load K`
starts K busy-looping processes beside it for the run. Needs Python playwright and Debian's Chromium.
"""
import argparse, contextlib, multiprocessing, os, pathlib, sys, time
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / 'tests'))
from helpers import browser_page, free_port, served

# what every frame the page draws shows: whether the status says "your turn", and how many cards are lit
FRAMES = """() => {
  window.__frames = [];
  const look = () => {
    const status = document.querySelector('.cgt-status')?.textContent || '';
    window.__frames.push([status.includes('your turn'), document.querySelectorAll('button.cgt-card.cgt-legal').length]);
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""
HALF = "() => window.__frames.filter(([mine, lit]) => mine !== (lit > 0)).length"

def spin():
    while True: pass

def one_run(addr, link, clicks) -> tuple:
    "(frames watched, frames half drawn, seconds) over `clicks` clicks of one student's page."
    with browser_page() as page:
        page.goto(f'http://{addr}/{link}', timeout=120_000)
        page.wait_for_selector('button.cgt-card.cgt-legal', timeout=120_000)
        page.evaluate(FRAMES)
        start = time.perf_counter()
        for _ in range(clicks):
            page.wait_for_selector('button.cgt-card.cgt-legal', timeout=60_000)
            time.sleep(0.3)
            card = page.locator('button.cgt-card.cgt-legal').first
            name = card.get_attribute('title')
            card.click()
            page.wait_for_function("n => ![...document.querySelectorAll('button.cgt-card')].some(b => b.title === n)",
                                   arg=name, timeout=60_000)
        page.wait_for_selector('button.cgt-card.cgt-legal', timeout=60_000)
        return page.evaluate('window.__frames.length'), page.evaluate(HALF), time.perf_counter() - start

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--clicks', type=int, default=6)
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--link', default='?seed=3&pace=0.2')
    ap.add_argument('--load', type=int, default=0, help='busy-looping processes beside the run')
    a = ap.parse_args()
    port = free_port()
    spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(a.load)]
    for p in spinners: p.start()
    try:
        with served([sys.executable, '-c', 'from cardgames_tutor.serve.classroom import main; main()', '--host', '127.0.0.1',
                     '--port', str(port)], port, 'the classroom server', wait=120):
            print(f"{a.runs} runs of {a.clicks} clicks, link {a.link!r}, {a.load} busy processes beside, load average "
                  f"{os.getloadavg()[0]:.2f}")
            for i in range(a.runs):
                frames, half, seconds = one_run(f'127.0.0.1:{port}', a.link, a.clicks)
                print(f"run {i + 1}: {frames} frames in {seconds:.1f} s, {half} half drawn")
    finally:
        for p in spinners: p.terminate()

if __name__ == '__main__': main()
