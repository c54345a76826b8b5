"""Every learner: the panel in a real browser, for the keyboard alone and a screen reader (ui/access.py).

Voilà serves the start page (as the tutorials and `make tutor` show the panel); headless Chromium plays a whole hand
with the keyboard only, listens to the live region, reads the card buttons' names, and runs axe-core (from npm:
`npm install axe-core` in tests/, as .ci/run does) over the panel in the light and the dark theme. Skipped with a
message without playwright, Chromium, Voilà or axe-core.
"""
import contextlib, os, pathlib, sys
import pytest

pytestmark = pytest.mark.browser
from helpers import ROOT, POLL, wait_shown, no_chromium, free_port, served
START = ROOT / 'nbs' / 'tutorials' / 'start.ipynb'
VOILA = pathlib.Path(sys.executable).parent / 'voila'
AXE = ROOT / 'tests' / 'node_modules' / 'axe-core' / 'axe.min.js'

def _missing() -> str:
    try: import playwright.sync_api  # noqa: F401
    except ImportError: return "Python playwright is not installed (pip install playwright; do not run `playwright install`)"
    if not VOILA.exists(): return f"voila is not installed beside {sys.executable}"
    return no_chromium()

if _missing(): pytest.skip(_missing(), allow_module_level=True)

def opened(page, port, query='?seed=1&pace=0'):
    "The start page's panel, working (seed 1: Seat 0 must follow the spades led, so some cards are dimmed)."
    page.goto(f'http://127.0.0.1:{port}/{query}', timeout=60_000)
    wait_shown(page, 'button.cgt-card.cgt-legal', 90_000)
    page.wait_for_function("() => [...document.querySelectorAll('button.cgt-card')].every(b => b.getAttribute('aria-label'))", polling=POLL, timeout=30_000)

def voila(theme='light'):
    port = free_port()
    return port, served([str(VOILA), str(START), '--no-browser', f'--port={port}', '--Voila.ip=127.0.0.1', f'--theme={theme}'],
                        port, 'voila', env={**os.environ, 'PYTHONPATH': os.pathsep.join([str(ROOT), os.environ.get('PYTHONPATH', '')])})

@pytest.fixture(scope='module')
def light():
    """One Voilà for the module's tests, in the light theme; a page asks for the dark one with `?theme=dark` (Voilà's own
    switch: the same page, drawn in JupyterLab's dark theme) instead of a second server. Each page gets a kernel (a panel)
    of its own, as each visitor does."""
    port, server = voila()
    with server: yield port

@pytest.fixture(scope='module')
def start_page(light, browsers):
    """The start page's panel (light theme, seed 1: `opened`) in one page, for the module's light tests in the order they
    run: the cards' names and a refusal heard, axe-core over the panel with a refusal on screen, then a whole hand with
    the keyboard from there (a learner who clicked a dimmed card first). Loaded once, instead of a Voilà kernel and page
    for each test; a test that fails drops it, and the next test opens it afresh (as does a test run alone)."""
    held = {}
    def drop():
        made, _ = held.pop('made', None), held.pop('page', None)
        if made is not None:
            with contextlib.suppress(Exception): made.__exit__(None, None, None)
    @contextlib.contextmanager
    def page():
        try:
            if 'page' not in held:
                held['made'] = browsers.page()
                held['page'] = held['made'].__enter__()
                opened(held['page'], light)
            yield held['page']
        except BaseException: drop(); raise
    try: yield page
    finally: drop()

def heard(page) -> list:
    "The lines the live region has said so far (a screen reader reads each as it is added)."
    return page.eval_on_selector('.cgt-live', "e => [...e.children].map(c => c.textContent)")

def focused(page) -> dict:
    return page.evaluate("""() => { const e = document.activeElement;
        return {card: !!(e && e.matches('.cgt-hand button.cgt-card')), lit: !!(e && e.matches('button.cgt-legal')),
                label: e && e.getAttribute('aria-label'), inHand: !!(e && e.closest('.cgt-hand, .cgt-moves'))}; }""")

def test_the_cards_say_what_the_eye_sees_and_refusals_are_heard(start_page):
    with start_page() as page:
        names = page.eval_on_selector_all('.cgt-hand button.cgt-card', "bs => bs.map(b => [b.className.includes('cgt-illegal'), b.getAttribute('aria-label')])")
        assert names and all(label.endswith(', not playable now') == dim for dim, label in names), names
        assert any(dim for dim, _ in names) and any(not dim for dim, _ in names)
        assert names[0][1].startswith('2♠, two of spades')  # what is written on it first, then its name
        assert page.get_attribute('.cgt-live', 'aria-live') == 'polite'
        page.locator('.cgt-hand button.cgt-card.cgt-illegal').first.click()
        page.wait_for_function("() => document.querySelector('.cgt-live').textContent.includes('Not allowed')", polling=POLL, timeout=20_000)
        assert '(rule: following the led colour)' in heard(page)[-1]

@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (cd tests && npm install --no-save axe-core)")
@pytest.mark.parametrize('theme', ['light', 'dark'])
def test_axe_finds_no_serious_problem_in_the_panel(theme, light, start_page, browsers):
    "axe-core over the panel with a refusal on screen: the light theme's on the module's start page, the dark theme's on a page of its own (`?theme=dark`)."
    with start_page() if theme == 'light' else browsers.page() as page:
        if theme == 'dark': opened(page, light, '?seed=1&pace=0&theme=dark')
        assert page.evaluate('document.body.dataset.jpThemeLight') == ('true' if theme == 'light' else 'false')
        page.locator('.cgt-hand button.cgt-card.cgt-illegal').first.click()  # a refusal on the screen too
        wait_shown(page, '.cgt-refused', 15_000)
        page.add_script_tag(path=str(AXE))
        found = page.evaluate("""async () => (await axe.run('.cgt-tutor')).violations
            .filter(v => ['serious', 'critical'].includes(v.impact)).map(v => [v.id, v.impact, v.nodes.slice(0, 3).map(n => n.html.slice(0, 160))])""")
        assert not found, found

def test_a_whole_hand_with_the_keyboard_alone(start_page):
    """Tab to a card the learner may play, Enter, and the keyboard is still in the hand for the next: to the hand's end.
    The last of the module's tests on the start page (it plays the hand out)."""
    with start_page() as page:
        page.locator('.cgt-status').click()  # a learner's first Tab starts from the page, not from a card
        played = 0
        lost = 0  # a redraw moved the focus as the learner tabbed or pressed Enter: the learner looks again, presses again
        while played < 13 and lost < 6:  # Begga Kaat with four: 13 cards each
            if not focused(page)['inHand']:  # the first time: Tab from the top of the page into the hand
                for _ in range(30):
                    page.keyboard.press('Tab')
                    if focused(page)['card']: break
            # as a learner who sees the hand: Tab (or Shift+Tab) along the cards to the nearest one that may be played
            steps = page.evaluate("""() => { const cards = [...document.querySelectorAll('.cgt-hand button.cgt-card')].filter(b => b.offsetParent);
                const at = cards.indexOf(document.activeElement), lit = cards.map((b, i) => [i, b]).filter(([i, b]) => b.matches('.cgt-legal'));
                return lit.length && at >= 0 ? lit.map(([i]) => i - at).sort((a, b) => Math.abs(a) - Math.abs(b))[0] : null; }""")
            assert steps is not None, f"the focus is not on a card of the hand after {played} cards: {focused(page)}"
            for _ in range(abs(steps)): page.keyboard.press('Tab' if steps > 0 else 'Shift+Tab')
            if not focused(page)['lit']:  # the hand was redrawn between the look and the Tabs: the learner looks again
                lost += 1; continue
            before = page.eval_on_selector_all('.cgt-hand button.cgt-card', 'bs => bs.filter(b => b.offsetParent).length')
            page.keyboard.press('Enter')
            try: page.wait_for_function("n => [...document.querySelectorAll('.cgt-hand button.cgt-card')].filter(b => b.offsetParent).length < n",
                                        arg=before, polling=POLL, timeout=30_000)
            except Exception:
                lost += 1; continue
            played += 1
            if played == 13: break
            page.wait_for_function("() => document.querySelector('.cgt-status').textContent.includes('your turn')", polling=POLL, timeout=120_000)
            # the focus did not fall back to the page: the next card is a Tab or two away, not the whole page
            page.wait_for_function("() => document.activeElement && document.activeElement.closest('.cgt-hand, .cgt-moves')", polling=POLL, timeout=60_000)
        assert played == 13, f"{played} cards played with the keyboard, {lost} looks or presses lost (a playable card not reached with Tab, or Enter not taken)"
        page.wait_for_function("() => document.querySelector('.cgt-live').textContent.match(/penalty points|Hand 1 is over|hand over/i)", polling=POLL, timeout=60_000)
