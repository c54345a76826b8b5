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
ARTIFACTS = ROOT / 'tests' / 'artifacts'

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

QUERY = {'light': '?seed=1&pace=0', 'dark': '?seed=1&pace=0&theme=dark'}  # seed 1 (`opened`); the dark theme by Voilà's own switch

@pytest.fixture(scope='module')
def panel_pages(light, browsers):
    """The start page's panel (seed 1: `opened`) in one page per theme, for the module's tests in the order they run.
    Light: the cards' names and a refusal heard, the contrast of its texts and axe-core over it with a refusal on screen,
    then a whole hand with the keyboard from there (a learner who clicked a dimmed card first). Dark (`?theme=dark`): the
    contrast of its texts, then axe-core, each with a refusal on screen. Each loaded once, instead of a Voilà kernel and
    page for each test; a test that fails drops its page, and the next test opens it afresh (as does a test run alone)."""
    held = {}
    def drop(theme):
        made, _ = held.pop(theme, (None, None))
        if made is not None:
            with contextlib.suppress(Exception): made.__exit__(None, None, None)
    @contextlib.contextmanager
    def page(theme='light'):
        try:
            if theme not in held:
                made = browsers.page()
                held[theme] = (made, made.__enter__())
                opened(held[theme][1], light, QUERY[theme])
            yield held[theme][1]
        except BaseException: drop(theme); raise
    try: yield page
    finally:
        for theme in list(held): drop(theme)

@pytest.fixture(scope='module')
def start_page(panel_pages):
    "The light theme's page of `panel_pages`."
    return lambda: panel_pages('light')

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
        # the hand's opening (the deal, the bots' cards before the learner's first turn), said as the panel was made, is
        # read once the page has drawn the region, once (before, it came only after the learner's first card)
        page.wait_for_function("() => document.querySelector('.cgt-live').textContent.includes('Hand 1: ')", polling=POLL, timeout=20_000)
        assert heard(page)[0].startswith('Hand 1: ') and sum('Hand 1: ' in line for line in heard(page)) == 1, heard(page)
        page.locator('.cgt-hand button.cgt-card.cgt-illegal').first.click()
        page.wait_for_function("() => document.querySelector('.cgt-live').textContent.includes('Not allowed')", polling=POLL, timeout=20_000)
        assert '(rule: following the led colour)' in heard(page)[-1]

def test_the_open_record_button_says_what_it_opens(start_page):
    """The setup's upload button read "open record (0)" with no tooltip, the (0) being the widget's count of files (always
    0: the panel reads a file and empties it). The page shows and names it "open a hand record", its count hidden, and
    its tooltip says what a hand record is."""
    with start_page() as page:
        page.wait_for_function("() => document.querySelector('.cgt-upload') && document.querySelector('.cgt-upload').getAttribute('aria-label')", polling=POLL, timeout=20_000)
        b = page.evaluate("""() => { const b = document.querySelector('.cgt-upload');
            return {shown: getComputedStyle(b, '::after').content, size: getComputedStyle(b).fontSize, name: b.getAttribute('aria-label'),
                    tip: b.title, text: b.textContent}; }""")
        assert b['shown'] == '"open a hand record"' and b['size'] == '0px' and b['name'] == 'open a hand record', b  # the count drawn at no size
        assert '(0)' in b['text'] and 'save record' in b['tip'], b  # the widget's own words are still there, unseen and unsaid


CONTRAST = r"""() => {  // WCAG contrast of every piece of text in the panel against what is drawn behind it
  const rgba = s => { const m = s.match(/[\d.]+/g) || [0, 0, 0, 0]; return [+m[0], +m[1], +m[2], m.length > 3 ? +m[3] : 1]; };
  const over = (top, under) => top.slice(0, 3).map((c, i) => c * top[3] + under[i] * (1 - top[3])).concat([1]);
  const lum = c => c.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
                    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  const behind = el => {  // the colour under `el`: its and its ancestors' backgrounds, laid one over the other
    const layers = [];
    for (let e = el; e; e = e.parentElement) { const b = rgba(getComputedStyle(e).backgroundColor); if (b[3] > 0) layers.push(b); if (b[3] >= 1) break; }
    return layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255, 1]);
  };
  const out = [];
  for (const el of document.querySelectorAll('.cgt-tutor *')) {
    const text = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent.trim()).join('');
    const st = getComputedStyle(el);
    if (!text || st.visibility === 'hidden' || !el.getClientRects().length || +st.opacity < 0.05) continue;
    const bg = behind(el), fg = over(rgba(st.color), bg);
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    const large = parseFloat(st.fontSize) >= 24 || (parseFloat(st.fontSize) >= 18.66 && +st.fontWeight >= 700);
    out.push({text: text.slice(0, 40), ratio: (a + 0.05) / (b + 0.05), need: large ? 3 : 4.5, cls: el.className});
  }
  return out;
}"""

@pytest.mark.parametrize('theme', ['light', 'dark'])
def test_the_panel_reads_in_light_and_dark_themes(theme, panel_pages):
    """In JupyterLab's light and dark themes (Voilà uses the same), every text of the panel stands out from what is
    behind it. (Moved here from tests/test_browser.py: the same pages, seed 1 in each theme, as axe-core's below.)"""
    with panel_pages(theme) as page:
        assert page.evaluate('document.body.dataset.jpThemeLight') == ('true' if theme == 'light' else 'false')
        page.locator('.cgt-card.cgt-illegal').first.click()  # a refusal, with its rule, is on the screen too
        wait_shown(page, '.cgt-refused', 15_000)
        ARTIFACTS.mkdir(exist_ok=True)
        page.locator('.cgt-tutor').first.screenshot(path=str(ARTIFACTS / f'panel-{theme}.png'))
        texts = page.evaluate(CONTRAST)
        assert len(texts) > 30, texts  # the seats, the log, the cards, the buttons, the message
        faint = [t for t in texts if t['ratio'] < t['need']]
        assert not faint, f"{len(faint)} texts too faint in the {theme} theme: {faint[:8]}"

@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (cd tests && npm install --no-save axe-core)")
@pytest.mark.parametrize('theme', ['light', 'dark'])
def test_axe_finds_no_serious_problem_in_the_panel(theme, panel_pages):
    "axe-core over the panel with a refusal on screen, in each theme on the module's page of that theme (`panel_pages`)."
    with panel_pages(theme) as page:
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
