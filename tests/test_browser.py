"""The classroom app in a real headless Chromium: Voilà serves the start page, a card is clicked, the trick changes.

Needs Python `playwright` and Debian's Chromium at /usr/bin/chromium (never `playwright install`);
skipped with a message where either is missing. The Voilà server runs in its own process group on a
free loopback port and is killed in a `finally`, so no server outlives the tests.
"""
import contextlib, os, pathlib, shutil, signal, socket, subprocess, sys, time
import pytest

pytestmark = pytest.mark.browser
from helpers import ROOT, POLL, wait_shown, no_chromium, free_port, port_open, served
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

@contextlib.contextmanager
def voila_server(notebook=START, theme='light'):
    "Voilà on a free loopback port (in JupyterLab's `theme`), in its own process group; the whole group is killed on the way out."
    port = free_port()
    with served([str(VOILA), str(notebook), '--no-browser', f'--port={port}', '--Voila.ip=127.0.0.1', f'--theme={theme}'], port, 'voila',
                env={**os.environ, 'PYTHONPATH': os.pathsep.join([str(ROOT), os.environ.get('PYTHONPATH', '')])}) as proc:  # this tree's package
        yield port, proc

@pytest.fixture(scope='module')
def light():
    """One Voilà for the module's tests, in the light theme; a page asks for the dark one with `?theme=dark` (Voilà's own
    switch: the same page, drawn in JupyterLab's dark theme) instead of a server of its own. Each page still gets its own
    kernel. On the way out the server is stopped, all of it: its process gone, nothing listening on its port."""
    with voila_server() as (port, proc): yield port, proc
    assert proc.poll() is not None, "the Voilà server is still running"
    assert not port_open(port), "something still listens on the test port"

@pytest.fixture(scope='module')
def desk(browsers):
    """One page (1100x1000, one browser context) for the module's desktop tests, each navigating it in turn as a
    learner's tab goes from link to link: Voilà's scripts come from the context's cache after the first page, instead of
    a new context loading them again for each test. (The phone test has a context of its own: a phone's.)"""
    with browsers.page() as page: yield page

def played_titles(page) -> list:
    "The names of the cards on the table now (the trick, or the one just finished)."
    return page.eval_on_selector_all('.cgt-table .cgt-played .cgt-card', 'els => els.map(e => e.title)')

def test_click_a_card_in_voila(light, desk):
    "A card clicked in Voilà's page lands on the table; a dimmed card is refused with its rule. (The server's stop: `light`.)"
    port, proc = light
    page = desk
    page.goto(f'http://127.0.0.1:{port}/?seed=3&pace=0.5', timeout=60_000)  # paced: the card stays on the table a while
    wait_shown(page, '.cgt-card.cgt-legal', 90_000)  # the widgets arrive over a websocket
    assert 'your turn' in page.inner_text('.cgt-status')
    before = played_titles(page)
    card = page.locator('.cgt-card.cgt-legal').first
    name = card.get_attribute('title')
    card.click()
    page.wait_for_function(
        "name => [...document.querySelectorAll('.cgt-table .cgt-played .cgt-card')].some(e => e.title === name)",
        arg=name, polling=POLL, timeout=15_000)
    after = played_titles(page)
    assert name in after and after != before
    assert 'You played' in page.inner_text('.cgt-message')
    # a dimmed card is explained with its rule, in the browser too
    dimmed = page.locator('.cgt-card.cgt-illegal')
    if dimmed.count():
        dimmed.first.click()
        wait_shown(page, '.cgt-refused', 15_000)
        assert 'begga-kaat/' in page.inner_text('.cgt-refused')
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / 'voila_panel.png'), full_page=True)
    assert proc.poll() is None  # still serving until we stop it

def test_link_sets_game_and_seed(light, desk):
    "A teacher's link (?game=...&seed=...) opens that game with that deal for everyone."
    from cardgames_tutor.ui.panel import Tutor
    expected = Tutor('kocka', seed=12).hand_box.children
    names = [b.tooltip for b in expected]
    port, proc = light
    page = desk
    page.goto(f'http://127.0.0.1:{port}/?game=kocka&seed=12&pace=0', timeout=60_000)
    wait_shown(page, '.cgt-card', 90_000)
    assert 'Kočka' in page.inner_text('.cgt-status') and 'seed 12' in page.inner_text('.cgt-status')
    shown = page.eval_on_selector_all('.cgt-card', 'els => els.filter(e => e.tagName === "BUTTON").map(e => e.title)')
    assert shown == names

CLIPPED = """() => {
  const out = [];
  for (const b of document.querySelectorAll('button, .widget-toggle-button, .jupyter-button')) {
    if (!b.offsetParent) continue;  // not shown
    if (b.scrollWidth > b.clientWidth + 1) out.push(b.innerText || b.title);
  }
  return out;
}"""

def test_phone_screen_fits(light, browsers):
    "At 390x844 the table, hand, controls and the hint's chart fit without sideways scrolling, the table and the hand on one screen, and no button's text is clipped."
    port, _ = light
    with browsers.page(viewport=(390, 844), device_scale_factor=1, is_mobile=True) as page:
        page.goto(f'http://127.0.0.1:{port}/?game=beggars-and-thieves&players=5&seed=4&pace=0', timeout=60_000)
        wait_shown(page, '.cgt-card', 90_000)
        page.locator('.jupyter-widget-Collapse-header, .lm-Collapse-header, .p-Collapse-header').first.click()  # open the setup rows too
        page.wait_for_timeout(500)
        width = page.evaluate('document.documentElement.scrollWidth')
        ARTIFACTS.mkdir(exist_ok=True)
        assert width <= 390, f"the page is {width} px wide on a 390 px screen"
        assert page.evaluate(CLIPPED) == []
        for sel in ('.cgt-table', '.cgt-card.cgt-legal, button.cgt-card', '.cgt-status'):
            box = page.locator(sel).first.bounding_box()
            assert box and box['x'] >= 0 and box['x'] + box['width'] <= 390, (sel, box)
        table, last = page.locator('.cgt-table').first.bounding_box(), page.locator('button.cgt-card').last.bounding_box()
        assert last['y'] + last['height'] - table['y'] <= 844, (table, last)  # one screen holds the table and the whole hand
        page.locator('button', has_text='Hint').first.click()  # the hint's chart is drawn 5 inches wide: it fits the phone
        wait_shown(page, 'img.cgt-chart', 90_000)
        page.wait_for_timeout(300)
        assert page.evaluate('document.documentElement.scrollWidth') <= 390, "the hint made the page wider than the phone"
        chart = page.locator('img.cgt-chart').first.bounding_box()
        assert chart['x'] >= 0 and chart['x'] + chart['width'] <= 390, chart
        page.set_viewport_size({'width': 390, 'height': 2600})  # as tall as the panel, for one picture of it all
        page.wait_for_timeout(300)
        page.locator('.cgt-tutor').screenshot(path=str(ARTIFACTS / 'voila_phone.png'))


# The panel's contrast in the light and dark themes: tests/test_access.py (on its pages of the start panel, seed 1).


OVERLAPS = r"""() => {  // each played card's box against each seat box: any overlap, and the rows the trick takes
  const r = e => e.getBoundingClientRect(), out = [];
  const played = [...document.querySelectorAll('.cgt-trick .cgt-played')], seats = [...document.querySelectorAll('.cgt-seat')];
  for (const c of played) for (const b of seats) {
    const a = r(c), d = r(b);
    if (a.left < d.right && d.left < a.right && a.top < d.bottom && d.top < a.bottom) out.push([c.dataset.seat, b.dataset.seat]);
  }
  return {overlaps: out, cards: played.length, rows: new Set(played.map(c => Math.round(r(c).top))).size,
          wide: document.documentElement.scrollWidth};
}"""

def _five_card_tricks():
    "Beggars and Thieves for five, seed 4: the views (the learner's and the teaching view) with a whole trick of five cards on the table, and with four."
    from cardgames_tutor.ui.session import Session
    s, out = Session('beggars-and-thieves', seed=4, players=5), {}
    for _ in range(400):
        h = s.match.hand
        if h.phase == 'play' and len(h.trick) == 4 and 4 not in out: out[4] = (s.view(0), s.view(None))
        if h.phase == 'play' and not h.trick and h.tricks and 5 not in out: out[5] = (s.view(0), s.view(None))
        if len(out) == 2: return out, s
        if s.review is not None: s.next_hand()
        elif s.match.to_act == s.seat: s.play_for_me(bots=False)
        else: s.bot_move()
    raise AssertionError("no trick of five in 400 moves")

def test_a_five_player_trick_never_wraps_under_a_seat_box(desk):
    "At 1366x768 (the table at its 520 px and at its narrowest 300 px) and on a 390 px phone, a trick of four or five cards lies on one row and no card overlaps a seat box."
    from cardgames_tutor.ui.table import table_html, direction_of
    tricks, s = _five_card_tricks()
    page = desk
    for width, height, box in ((1366, 768, 520), (1366, 768, 300), (390, 844, 374)):
        page.set_viewport_size({'width': width, 'height': height})
        for k, views in tricks.items():
            for view in views:
                html = table_html(view, 0, direction_of(s.game), s.game.title, s.game.pack)
                page.set_content(f'<body style="margin:8px"><div style="width:{box}px;max-width:100%">{html}</div></body>')
                got = page.evaluate(OVERLAPS)
                assert got['cards'] == k and got['overlaps'] == [], (width, box, k, got)
                assert got['rows'] == 1, f"a trick of {k} wraps onto {got['rows']} rows in a {box} px table"
                assert got['wide'] <= width, (width, got)
