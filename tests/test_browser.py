"""The classroom app in a real headless Chromium: Voilà serves the start page, a card is clicked, the trick changes.

Needs Python `playwright` and Debian's Chromium at /usr/bin/chromium (never `playwright install`);
skipped with a message where either is missing. The Voilà server runs in its own process group on a
free loopback port and is killed in a `finally`, so no server outlives the tests.
"""
import contextlib, os, pathlib, shutil, signal, socket, subprocess, sys, time
import pytest

pytestmark = pytest.mark.browser
from helpers import ROOT, CHROMIUM, FLAGS, no_chromium, free_port, port_open, served, browser_page
START = ROOT / 'nbs' / 'tutorials' / 'start.ipynb'
ARTIFACTS = ROOT / 'tests' / 'artifacts'
VOILA = pathlib.Path(sys.executable).parent / 'voila'

def _missing() -> str:
    try: import playwright.sync_api  # noqa: F401
    except ImportError: return "Python playwright is not installed (pip install playwright; do not run `playwright install`)"
    if no_chromium(): return no_chromium()
    if not VOILA.exists(): return f"voila is not installed beside {sys.executable}"
    return ''

if _missing(): pytest.skip(_missing(), allow_module_level=True)
from playwright.sync_api import sync_playwright

@contextlib.contextmanager
def voila_server(notebook=START):
    "Voilà on a free loopback port, in its own process group; the whole group is killed on the way out."
    port = free_port()
    with served([str(VOILA), str(notebook), '--no-browser', f'--port={port}', '--Voila.ip=127.0.0.1'], port, 'voila',
                env={**os.environ, 'PYTHONPATH': os.pathsep.join([str(ROOT), os.environ.get('PYTHONPATH', '')])}) as proc:  # this tree's package
        yield port, proc

def played_titles(page) -> list:
    "The names of the cards on the table now (the trick, or the one just finished)."
    return page.eval_on_selector_all('.cgt-table .cgt-played .cgt-card', 'els => els.map(e => e.title)')

def test_click_a_card_in_voila():
    with voila_server() as (port, proc):
        with browser_page() as page:
            page.goto(f'http://127.0.0.1:{port}/?seed=3&pace=0.5', timeout=60_000)  # paced: the card stays on the table a while
            page.wait_for_selector('.cgt-card.cgt-legal', timeout=90_000)  # the widgets arrive over a websocket
            assert 'your turn' in page.inner_text('.cgt-status')
            before = played_titles(page)
            card = page.locator('.cgt-card.cgt-legal').first
            name = card.get_attribute('title')
            card.click()
            page.wait_for_function(
                "name => [...document.querySelectorAll('.cgt-table .cgt-played .cgt-card')].some(e => e.title === name)",
                arg=name, timeout=15_000)
            after = played_titles(page)
            assert name in after and after != before
            assert 'You played' in page.inner_text('.cgt-message')
            # a dimmed card is explained with its rule, in the browser too
            dimmed = page.locator('.cgt-card.cgt-illegal')
            if dimmed.count():
                dimmed.first.click()
                page.wait_for_selector('.cgt-refused', timeout=15_000)
                assert 'begga-kaat/' in page.inner_text('.cgt-refused')
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / 'voila_panel.png'), full_page=True)
        assert proc.poll() is None  # still serving until we stop it
    assert proc.poll() is not None, "the Voilà server is still running"
    assert not port_open(port), "something still listens on the test port"

def test_link_sets_game_and_seed():
    "A teacher's link (?game=...&seed=...) opens that game with that deal for everyone."
    from cardgames_tutor.ui.panel import Tutor
    expected = Tutor('kocka', seed=12).hand_box.children
    names = [b.tooltip for b in expected]
    with voila_server() as (port, proc):
        with browser_page() as page:
            page.goto(f'http://127.0.0.1:{port}/?game=kocka&seed=12&pace=0', timeout=60_000)
            page.wait_for_selector('.cgt-card', timeout=90_000)
            assert 'Kočka' in page.inner_text('.cgt-status') and 'seed 12' in page.inner_text('.cgt-status')
            shown = page.eval_on_selector_all('.cgt-card', 'els => els.filter(e => e.tagName === "BUTTON").map(e => e.title)')
            assert shown == names
    assert proc.poll() is not None

CLIPPED = """() => {
  const out = [];
  for (const b of document.querySelectorAll('button, .widget-toggle-button, .jupyter-button')) {
    if (!b.offsetParent) continue;  // not shown
    if (b.scrollWidth > b.clientWidth + 1) out.push(b.innerText || b.title);
  }
  return out;
}"""

def test_phone_screen_fits():
    "At 390x844 the table, hand and controls fit without sideways scrolling, and no button's text is clipped."
    with voila_server() as (port, proc):
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
            try:
                page = browser.new_page(viewport={'width': 390, 'height': 844}, device_scale_factor=1, is_mobile=True)
                page.goto(f'http://127.0.0.1:{port}/?game=beggars-and-thieves&players=5&seed=4&pace=0', timeout=60_000)
                page.wait_for_selector('.cgt-card', timeout=90_000)
                page.locator('.jupyter-widget-Collapse-header, .lm-Collapse-header, .p-Collapse-header').first.click()  # open the setup rows too
                page.wait_for_timeout(500)
                width = page.evaluate('document.documentElement.scrollWidth')
                ARTIFACTS.mkdir(exist_ok=True)
                assert width <= 390, f"the page is {width} px wide on a 390 px screen"
                assert page.evaluate(CLIPPED) == []
                for sel in ('.cgt-table', '.cgt-card.cgt-legal, button.cgt-card', '.cgt-status'):
                    box = page.locator(sel).first.bounding_box()
                    assert box and box['x'] >= 0 and box['x'] + box['width'] <= 390, (sel, box)
                page.set_viewport_size({'width': 390, 'height': 2600})  # as tall as the panel, for one picture of it all
                page.wait_for_timeout(300)
                page.locator('.cgt-tutor').screenshot(path=str(ARTIFACTS / 'voila_phone.png'))
            finally: browser.close()
    assert proc.poll() is not None
