"""`make tutor` (JupyterLab on the learner's copy of `nbs/`, made and served as the Makefile does): the tutorials' links work.

The Makefile's own commands (`make -n tutor`) are run with the copy in a temporary folder. Every relative link in the
tutorials and quick references is resolved the way JupyterLab resolves it (from the notebook's folder, through the
server's contents API); then, in headless Chromium, a tutorial's link to its rulebook is clicked and the rulebook
opens. Skipped with a message without JupyterLab, playwright or Chromium.
"""
import contextlib, json, os, pathlib, posixpath, re, shlex, shutil, signal, socket, subprocess, sys, time, urllib.request
import pytest

pytestmark = pytest.mark.browser
from helpers import ROOT, CHROMIUM, FLAGS, POLL, no_chromium, free_port
JUPYTER = pathlib.Path(sys.executable).parent / 'jupyter'
LINK = re.compile(r'\]\(([^)\s]+)\)')

def _missing() -> str:
    if not JUPYTER.exists(): return f"jupyter is not installed beside {sys.executable}"
    if not shutil.which('make'): return "make is not installed"
    try: import jupyterlab, playwright.sync_api  # noqa: F401
    except ImportError as e: return f"{e.name} is not installed"
    if no_chromium(): return no_chromium()
    return ''

if _missing(): pytest.skip(_missing(), allow_module_level=True)
from playwright.sync_api import TimeoutError as PlaywrightTimeout

def relative_links(nb: pathlib.Path) -> list:
    "The relative link targets (no scheme, no bare anchor) in a notebook's markdown cells."
    cells = json.loads(nb.read_text(encoding='utf-8'))['cells']
    links = [m for c in cells if c['cell_type'] == 'markdown' for m in LINK.findall(''.join(c['source']))]
    return [l.split('#')[0] for l in links if not re.match(r'[a-z]+:', l) and not l.startswith('#')]

SERVED = {}  # 'copy': the learner's copy the lab below serves

# Options for the test's server that change nothing a test checks (the pages, the notebooks, their kernels): no check for
# a newer JupyterLab and no news feed (both ask the internet, which a test machine has not), no language-server scan at
# start (jupyter-lsp looks for a dozen language servers; no test edits code), no terminals; and not the server extensions
# of Solara and Voilà (their own pages under /solara and /voila, which no tutorial opens and JupyterLab's page does not
# ask for: importing Solara's took seconds at each start).
QUIET_LAB = ['--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate', '--LabApp.news_url=None',
             "--ServerApp.jpserver_extensions={'jupyter_lsp': False, 'solara.server.jupyter.server_extension': False, "
             "'voila.server_extension': False}", '--ServerApp.terminals_enabled=False',
             '--LabApp.expose_app_in_browser=True']  # `window.jupyterapp`: the tests open notebook after notebook in one page

@pytest.fixture(scope='module')
def lab(tmp_path_factory):
    "JupyterLab started by the Makefile's own `tutor` commands (`make -n`), on a free loopback port, without a token."
    port, copy = free_port(), tmp_path_factory.mktemp('learn')
    SERVED['copy'] = copy
    venv = pathlib.Path(sys.executable).parent.parent
    made = subprocess.run(['make', '-n', '-o', 'install', 'tutor', 'NO_BROWSER=1', f'PORT={port}', 'HOST=127.0.0.1', f'VENV={venv}',
                           f'LEARN={copy}'], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    copying = next(l for l in made.splitlines() if 'learner_copy' in l)
    subprocess.run(shlex.split(copying), cwd=ROOT, check=True, capture_output=True)
    command = shlex.split(next(l for l in made.splitlines() if ' lab' in l))
    proc = subprocess.Popen(command + ['--ServerApp.token=', '--ServerApp.password=', '--allow-root', *QUIET_LAB],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.time() + 90
        while True:
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f'http://127.0.0.1:{port}/api/status', timeout=2); break
            if proc.poll() is not None or time.time() > deadline: raise RuntimeError("JupyterLab did not start")
            time.sleep(0.3)
        yield f'http://127.0.0.1:{port}'
    finally:
        with contextlib.suppress(ProcessLookupError): os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(20)

def _api(lab:str, path:str, method:str='GET', body:bytes|None=None):
    "A call to the lab's REST API (`/api/...`); a call that changes something sends the `_xsrf` cookie back, as JupyterLab's page does."
    headers = {}
    if method != 'GET':
        if 'xsrf' not in SERVED:
            with urllib.request.urlopen(f'{lab}/lab', timeout=30) as r:  # JupyterLab's page sets the cookie
                SERVED['xsrf'] = next(c.split(';')[0].split('=', 1)[1] for c in r.headers.get_all('Set-Cookie') if c.startswith('_xsrf='))
        headers = {'Content-Type': 'application/json', 'X-XSRFToken': SERVED['xsrf'], 'Cookie': f"_xsrf={SERVED['xsrf']}"}
    req = urllib.request.Request(f'{lab}{path}', data=body, method=method, headers=headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        return r.status, (json.load(r) if r.status != 204 else None)

KEPT = {}  # 'path': the notebook the clean-open test leaves open and run in the one page, its panel live, for the accessibility test

@pytest.fixture(autouse=True)
def kernels_shut(lab):
    """After each test, every kernel it started is shut (its page is closed by then): a kernel left running idles on
    beside the next tests' for the rest of the module. The one exception: the kernel of the notebook `KEPT` names,
    whose live panel a later test reads."""
    yield
    with contextlib.suppress(OSError):
        kept = set()
        for s in _api(lab, '/api/sessions')[1]:
            if KEPT.get('path') and s.get('path') == KEPT['path'] and s.get('kernel'): kept.add(s['kernel']['id']); continue
            _api(lab, f"/api/sessions/{s['id']}", 'DELETE')
        for k in _api(lab, '/api/kernels')[1]:
            if k['id'] not in kept: _api(lab, f"/api/kernels/{k['id']}", 'DELETE')

@pytest.fixture(scope='module')
def lab_pages(browsers):
    """Pages for JupyterLab, one at a time, all in one browser context of the module's Chromium: JupyterLab's scripts
    (megabytes) come from the context's cache and its compiled code after the first page, as in a learner's browser."""
    context = browsers.browser().new_context()
    @contextlib.contextmanager
    def page(width:int, height:int):
        p = context.new_page()
        p.set_viewport_size({'width': width, 'height': height})
        try: yield p
        finally: p.close()
    try: yield page
    finally: context.close()

def test_every_tutorial_link_resolves_in_jupyterlab(lab):
    pages = sorted((ROOT / 'nbs' / 'tutorials').glob('*.ipynb')) + sorted((ROOT / 'nbs' / 'quickref').glob('*.ipynb'))
    checked, broken = 0, []
    for nb in pages:
        folder = nb.parent.relative_to(ROOT / 'nbs').as_posix()  # the copy's top is nbs/
        for target in relative_links(nb):
            path = posixpath.normpath(posixpath.join(folder, target))
            try: urllib.request.urlopen(f'{lab}/api/contents/{path}?content=0', timeout=20); checked += 1
            except OSError as e: broken.append(f"{nb.relative_to(ROOT)} -> {target} ({path}: {e})")
    assert not broken, broken
    rulebooks = [t for nb in pages for t in relative_links(nb) if re.match(r'\.\./games/1\d_', t)]
    assert checked and len({t for t in rulebooks}) >= 5, "every game's tutorial links its rulebook"

FOUND = """({css, text, visible, within}) => {  // an element `css` finds (in the last `within`), holding `text`, shown if `visible`
  const roots = within ? [...document.querySelectorAll(within)].slice(-1) : [document], want = text && text.toLowerCase();
  const shown = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'; };
  return roots.some(root => [...root.querySelectorAll(css)].some(e =>
    (!want || e.textContent.replace(/\\s+/g, ' ').toLowerCase().includes(want)) && (!visible || shown(e))));
}"""

def wait_found(page, css:str, text:str='', visible:bool=True, within:str='', timeout:float=None):
    """Wait until `css` finds an element (in the last element `within` finds), its text holding `text` (as Playwright's
    `:has-text`), shown (`:visible`) unless `visible` is False: as `page.wait_for_selector`, but looking every POLL ms.
    Playwright's own waits look at every frame, which kept Chromium drawing JupyterLab's 1366x4000 page 60 times a second
    for as long as a test waited (for a kernel, a notebook run, 6 s of quiet); what is waited for is the same."""
    page.wait_for_function(FOUND, arg={'css': css, 'text': text, 'visible': visible, 'within': within}, polling=POLL,
                           timeout=SLOW_LAB if timeout is None else timeout)

QUIET = 6_000      # ms a page must stay unmodified once its kernel is idle (JupyterLab marked it within a second)
SLOW_LAB = 180_000  # ms for anything JupyterLab does on a loaded machine

class OnePage:
    """One JupyterLab page (1366x4000: tall, as JupyterLab draws only the cells in view) for the tests that open the
    learner's pages, loaded once in a fresh workspace: each test opens its notebook alone in the same JupyterLab, as a
    learner opens the next one from the file browser (JupyterLab's `docmanager:open`), and closes it when done, instead
    of loading JupyterLab again (its scripts parsed and run again: about 6 CPU-seconds each). A test that fails drops the
    page: the next one starts from a fresh page."""
    def __init__(self, lab, lab_pages): self.lab, self.lab_pages, self.held = lab, lab_pages, None

    def open(self, rel:str):
        "The page, with only `rel` open in it and its kernel idle; its tab's name."
        if self.held is None:
            held = self.lab_pages(1366, 4000)
            page = held.__enter__()
            self.held = (held, page)
            page.goto(f'{self.lab}/lab/workspaces/learner-pages?reset', timeout=90_000)  # a fresh workspace: nothing open
            page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell && document.querySelector('.lm-MenuBar-itemLabel')",
                                   polling=POLL, timeout=SLOW_LAB)
        page = self.held[1]
        self.close()
        # until its file is loaded (`context.ready`): while it loads, JupyterLab's blank notebook (one empty cell) may be
        # marked modified for a moment (CI caught it so, once), which is not the learner's notebook changing
        page.evaluate("""async rel => { const w = await window.jupyterapp.commands.execute('docmanager:open', {path: rel});
                                        await w.context.ready; return null; }""", rel)
        name = rel.rsplit('/', 1)[-1]
        wait_found(page, '.lm-TabBar-tab.jp-mod-current', name)
        wait_found(page, '.jp-Notebook .jp-Cell')
        wait_found(page, '.jp-Notebook-ExecutionIndicator[data-status="idle"]', visible=False)
        return page, name

    def keep(self, rel:str):
        "Leave the page as it is, `rel` open and run, its kernel running after the test (`kernels_shut`): a later test reads its panel (`kept`)."
        KEPT['path'] = rel

    def kept(self, rel:str):
        "The page with `rel` open and run as a test left it (`keep`), else None; either way nothing is kept after this test."
        page = self.held[1] if self.held is not None and KEPT.get('path') == rel else None
        KEPT.clear()
        return page

    def close(self):
        "Close every tab of the page as it is (a walkthrough ran its notebook: no save, no dialog), before its kernel is shut."
        KEPT.clear()
        if self.held is not None:
            self.held[1].evaluate("""() => { for (const w of Array.from(window.jupyterapp.shell.widgets('main'))) {
                                       if (w.context) w.context.model.dirty = false; w.dispose(); } }""")

    def drop(self):
        KEPT.clear()
        if self.held is not None:
            held, self.held = self.held[0], None
            with contextlib.suppress(Exception): held.__exit__(None, None, None)

@pytest.fixture(scope='module')
def one_page(lab, lab_pages):
    pages = OnePage(lab, lab_pages)
    try: yield pages
    finally: pages.drop()

MODEL = """() => { const nb = window.jupyterapp.shell.currentWidget.context.model.toJSON();  // the notebook as JupyterLab holds it,
                   for (const c of nb.cells) delete c.metadata.trusted; return nb; }"""    # less its cells' trust (never saved)

def changes(saved:dict, held:dict, at:str='') -> list:
    "Where notebook `held` (JupyterLab's model) differs from `saved` (the file), as paths: ['metadata.language_info.version', 'cells.3.metadata']."
    if isinstance(saved, dict) and isinstance(held, dict):
        return [c for k in sorted(set(saved) | set(held)) for c in changes(saved.get(k), held.get(k), f'{at}.{k}'.lstrip('.'))]
    joined = lambda v: ''.join(v) if isinstance(v, list) and all(isinstance(x, str) for x in v) else v  # a file's lines
    saved, held = joined(saved), joined(held)
    if isinstance(saved, list) and isinstance(held, list) and len(saved) == len(held):
        return [c for i, (a, b) in enumerate(zip(saved, held)) for c in changes(a, b, f'{at}.{i}')]
    return [] if saved == held else [f'{at}: {saved!r:.80} -> {held!r:.80}']

def _written(path) -> bool:
    "Whether `path` holds a whole notebook (a save caught half-way, on a loaded machine, is empty or cut off)."
    try: json.loads(path.read_bytes()); return True
    except ValueError: return False


def test_the_learner_pages_open_clean_and_run_to_the_panel(one_page):
    """Opened in JupyterLab, the start page and a tutorial are not marked modified (`jp-mod-dirty` on their tab) while
    the kernel is idle, and saved as they are, their files do not change: nothing for autosave to rewrite. Their code is
    collapsed, and Run All Cells, as the page says, brings up the live panel (left running: the accessibility test reads it)."""
    try: open_clean_and_run(one_page); one_page.keep('tutorials/start.ipynb')
    except BaseException: one_page.drop(); raise

def open_clean_and_run(one_page):
    "The checks of the test above, each page opened alone in the one JupyterLab page."
    copy = SERVED['copy']
    for rel in ('tutorials/kocka.ipynb', 'tutorials/start.ipynb'):
        before, stamp = (copy / rel).read_bytes(), (copy / rel).stat().st_mtime_ns
        page, name = one_page.open(rel)
        try: wait_found(page, '.lm-TabBar-tab.jp-mod-dirty', name, visible=False, timeout=QUIET)  # the page must stay clean all this while
        except PlaywrightTimeout: pass
        else: pytest.fail(f"{rel}: JupyterLab marked it modified as it opened, before any click (autosave would rewrite it): "
                          f"{changes(json.loads(before), page.evaluate(MODEL))}")
        page.wait_for_function("() => document.querySelectorAll('.jp-Notebook .jp-InputPlaceholder').length >= 2",
                               polling=POLL, timeout=SLOW_LAB)  # its code cells collapsed (JupyterLab's `source_hidden`)
        page.locator('.jp-Notebook .jp-MarkdownCell').first.click()  # a cell in command mode: Ctrl+S saves the notebook
        page.keyboard.press('Control+s')
        deadline = time.time() + SLOW_LAB / 1000
        while (copy / rel).stat().st_mtime_ns == stamp or not _written(copy / rel):  # saved, and the write finished
            assert time.time() < deadline, f"{rel}: JupyterLab did not save it"
            time.sleep(0.2)
        assert (copy / rel).read_bytes() == before, f"{rel}: JupyterLab saved it changed, unmodified by the learner"
    run_all_to_the_panel(page)  # the start page, as its first words say

def run_all_to_the_panel(page):
    "Run > Run All Cells in JupyterLab's menu, as a learner does, until the live panel's playable cards are shown."
    page.locator('.lm-MenuBar-itemLabel:text-is("Run")').click()
    page.locator('.lm-Menu-itemLabel:text-is("Run All Cells")').click()
    wait_found(page, '.cgt-tutor button.cgt-card.cgt-legal')

def test_saving_in_jupyterlab_changes_the_copy_not_the_project(lab):
    "What JupyterLab saves as a learner plays (here: a save through its contents API, as autosave does) lands in the copy."
    project = ROOT / 'nbs' / 'tutorials' / 'kocka.ipynb'
    before = project.read_bytes()
    with urllib.request.urlopen(f'{lab}/api/contents/tutorials/kocka.ipynb', timeout=30) as r: model = json.load(r)
    model['content']['cells'].append({'cell_type': 'markdown', 'metadata': {}, 'source': 'my own note', 'id': 'mine'})
    body = json.dumps({'type': 'notebook', 'format': 'json', 'content': model['content']}).encode()
    assert _api(lab, '/api/contents/tutorials/kocka.ipynb', 'PUT', body)[0] == 200  # with the _xsrf cookie JupyterLab's page sets
    with urllib.request.urlopen(f'{lab}/api/contents/tutorials/kocka.ipynb', timeout=30) as r:
        assert 'my own note' in json.dumps(json.load(r)['content'])  # saved where JupyterLab serves it from
    assert project.read_bytes() == before  # the project's notebook is untouched

AXE = ROOT / 'tests' / 'node_modules' / 'axe-core' / 'axe.min.js'

@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (cd tests && npm install --no-save axe-core)")
def test_the_panel_in_jupyterlab_has_no_serious_accessibility_problem(one_page):
    """The start page run in JupyterLab as a learner runs it (Run > Run All Cells): axe-core finds nothing serious in its
    panel. The panel is the one the clean-open test brought up in the one page, its kernel left running (instead of
    JupyterLab loaded again for this test alone); run alone, or after that test failed, the start page is opened and
    run here."""
    try:
        page = one_page.kept('tutorials/start.ipynb')
        if page is None:
            page, _ = one_page.open('tutorials/start.ipynb')
            run_all_to_the_panel(page)
        page.wait_for_function("() => [...document.querySelectorAll('.cgt-tutor button.cgt-card')].every(b => b.getAttribute('aria-label'))",
                               polling=POLL, timeout=60_000)
        page.add_script_tag(path=str(AXE))
        found = page.evaluate("""async () => (await axe.run('.cgt-tutor')).violations
            .filter(v => ['serious', 'critical'].includes(v.impact)).map(v => [v.id, v.impact, v.nodes.slice(0, 3).map(n => n.html.slice(0, 160))])""")
        assert not found, found
        one_page.close()
    except BaseException: one_page.drop(); raise

def test_clicking_a_rulebook_link_opens_it(one_page):
    "In a tutorial opened in JupyterLab (alone, in the one page), its link to the game's rulebook is clicked: the rulebook opens."
    try: click_the_rulebook(*one_page.open('tutorials/begga_kaat.ipynb')); one_page.close()
    except BaseException: one_page.drop(); raise

def click_the_rulebook(page, name):
    "The check of the test above, on `page` with the Begga Kaat tutorial (its tab `name`) open."
    link = page.locator('.jp-RenderedMarkdown a[href*="10_begga_kaat.ipynb"]:visible').first
    wait_found(page, '.jp-RenderedMarkdown a[href*="10_begga_kaat.ipynb"]')
    deadline = time.time() + SLOW_LAB / 1000
    while True:  # a loaded machine may still be laying the page out: each try finds the visible link again
        try: link.click(timeout=15_000); break
        except PlaywrightTimeout:
            if time.time() > deadline: raise
    wait_found(page, '.lm-TabBar-tab', '10_begga_kaat.ipynb')  # JupyterLab is slow on a loaded machine
    # the rulebook's title (the tutorial's is another): in the page, though JupyterLab may hide cells scrolled out of view
    wait_found(page, '.jp-RenderedMarkdown h1[data-jupyter-id="Begga-Kaat"]', visible=False)

CODE_ON_SCREEN = [('a traceback', re.compile(r'Traceback \(most recent call last\)|\b[A-Z][a-zA-Z]+Error\b')),
                  ('a tag', re.compile(r'\[[a-z][a-z0-9]*(?:-[a-z0-9]+)+\]|\[(?:duck|compare|forced|notation)\]')),
                  ('a rule id', re.compile(r'\b(?:begga-kaat|kocka|dehla-pakad|maghe-satra|beggars-and-thieves|tricks|table)/[a-z]')),
                  ('Python', re.compile(r"\bMove\(|\{'|\bNone\b"))]
TUTORIALS = ('begga_kaat', 'kocka', 'dehla_pakad', 'maghe_satra', 'beggars_and_thieves')

@pytest.mark.slow
@pytest.mark.parametrize('game', TUTORIALS)
def test_walkthrough_a_tutorial_as_a_learner_does(one_page, game):
    """A learner's walk through one tutorial in JupyterLab (issue 56, item 6): it opens unmodified, its code collapsed (no
    test or helper code in view); Run All Cells, as the page says, brings up the live panel; Hint answers; the bot plays
    the learner's moves to the end of the hand; the review is shown. Nothing on the page is a traceback, a tag, a rule id
    or a Python value, and no output holds a button that is not a live control (a picture's button would do nothing)."""
    rel = f'tutorials/{game}.ipynb'
    try: walk(*one_page.open(rel), rel); one_page.close()
    except BaseException: one_page.drop(); raise

def walk(page, name, rel):
    "The walkthrough of `rel` (its tab `name`), open alone on `page` with its kernel idle."
    page.wait_for_timeout(1500)
    assert page.locator(f'.lm-TabBar-tab.jp-mod-dirty:has-text("{name}")').count() == 0, f"{rel} opened modified"
    shown_code = page.evaluate("""() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputArea .cm-content')]
                                  .filter(e => e.offsetParent !== null).map(e => e.innerText)""")
    helpers = [c for c in shown_code if re.search(r'\bassert\b|\btest_\w+\(|^\s*def |^\s*import |\bre\.compile', c, re.M)]
    assert not helpers, f"{rel} shows code a learner need not read: {helpers[0][:200]!r}"
    page.locator('.lm-MenuBar-itemLabel:text-is("Run")').click()
    page.locator('.lm-Menu-itemLabel:text-is("Run All Cells")').click()
    panel = page.locator('.cgt-tutor').last
    wait_found(page, 'button', 'bot plays my move', within='.cgt-tutor')
    panel.locator('button:text-is("Hint")').click()
    page.wait_for_function("() => [...document.querySelectorAll('.cgt-tutor')].pop().innerText.includes('Hint:')", polling=POLL, timeout=SLOW_LAB)
    review = panel.locator('button:has-text("review this ")')
    deadline = time.time() + SLOW_LAB / 1000
    while not (review.count() and review.first.is_enabled() and 'is over' in panel.inner_text()):
        assert time.time() < deadline, f"{rel}: the hand did not end with the bot playing the learner's moves"
        bot = panel.locator('button:has-text("bot plays my move")')
        if bot.is_enabled(): bot.click()
        page.wait_for_timeout(300)
    review.first.click()
    page.wait_for_function("() => !/reviewing/i.test([...document.querySelectorAll('.cgt-tutor')].pop().innerText)", polling=POLL, timeout=SLOW_LAB)
    text = page.inner_text('.jp-Notebook')
    for what, pattern in CODE_ON_SCREEN:
        m = pattern.search(text)
        assert not m, f"{rel}: {what} on the learner's screen: {text[max(0, m.start() - 80):m.end() + 80]!r}"
    dead = page.evaluate("""() => [...document.querySelectorAll('.jp-OutputArea-output button')]
                            .filter(b => !b.closest('.jupyter-widgets')).map(b => b.innerText)""")
    assert not dead, f"{rel}: an output holds buttons that are no live control: {dead[:3]}"
