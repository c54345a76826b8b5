"""The documentation site: it builds (the Quarto-free way), every notebook has a page in the sidebar, no internal link
is broken, no notebook fails, pages carry their outputs from execution, README.md is in step with nbs/index.ipynb,
and headless Chromium shows the start page and the Begga Kaat page."""
import importlib.util, json, os, re, shutil, subprocess, sys, time
from pathlib import Path
import pytest
from helpers import built_site, no_chromium

ROOT = Path(__file__).resolve().parent.parent
NBS, PROC, ARTIFACTS = ROOT/'nbs', ROOT/'_proc', ROOT/'tests'/'artifacts'

def _load(name):
    spec = importlib.util.spec_from_file_location(f'tools_{name}', ROOT/'tools'/f'{name}.py')
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod); return mod

docs = _load('docs')
GAMES = {'begga_kaat': ('Begga Kaat', '3-4'), 'kocka': ('Kočka', '4'), 'dehla_pakad': ('Dehla Pakad', '4'),
         'maghe_satra': ('Maghe Satra', '3-7'), 'beggars_and_thieves': ('Beggars and Thieves', '2-5')}


@pytest.fixture(scope='module')
def site():
    """The site `make test` has just built into _docs/ (with smalldocs, by `tools/docs.py`, which runs every notebook),
    when its stamp says it was built from the tree as it is now; else the site built here, once (tests/helpers.py).
    So no notebook runs twice in one `make test`, and a lone `pytest tests/test_docs.py` still checks a fresh build."""
    return built_site('smalldocs')

def test_a_stale_site_is_built_again(tmp_path):
    "A stamp vouches for a site only while nothing it was built from has changed, and only for its renderer."
    for rel in ('nbs/a.ipynb', 'tools/docs.py', 'cardgames_tutor/m.py'):
        (tmp_path/rel).parent.mkdir(exist_ok=True); (tmp_path/rel).write_text('{}')
    (tmp_path/'site').mkdir()
    stamp = {'renderer': 'smalldocs', 'inputs': docs.inputs_digest(tmp_path), 'said': 'ok'}
    (tmp_path/'site'/docs.STAMP).write_text(json.dumps(stamp))
    assert docs.fresh_site(tmp_path/'site', 'smalldocs', tmp_path) == stamp
    assert docs.fresh_site(tmp_path/'site', 'quarto', tmp_path) is None and docs.fresh_site(tmp_path/'gone', 'smalldocs', tmp_path) is None
    (tmp_path/'nbs'/'nbdev.yml').write_text('made by the build')  # nbdev writes it: not an input
    assert docs.fresh_site(tmp_path/'site', 'smalldocs', tmp_path) == stamp
    for rel in ('nbs/a.ipynb', 'cardgames_tutor/m.py'):
        (tmp_path/rel).write_text('{"changed": 1}')
        assert docs.fresh_site(tmp_path/'site', 'smalldocs', tmp_path) is None, rel
        (tmp_path/rel).write_text('{}')

def _html(out, page): return (out/page).read_text(encoding='utf-8')


# ---------------------------------------------------------------- the build

def test_build_passes(site):
    "The build exits 0: no notebook error, a page for every notebook, every notebook in the sidebar, no broken link."
    out, r = site
    assert r.returncode == 0, f"`python tools/docs.py` failed:\n{r.stderr[-6000:]}"
    assert 'rendered by smalldocs' in r.stdout

def test_a_page_for_every_notebook(site):
    out, _ = site
    missing = [f"{rel} -> {docs.page_name(rel)}" for rel in docs.notebooks() if not (out/docs.page_name(rel)).exists()]
    assert not missing, "notebooks with no page: " + ', '.join(missing)

def test_no_page_shows_the_environment_of_whoever_built_it(site):
    """A signature's default of `os.environ` once put the build machine's whole environment (a CI's secrets with it) on
    serve/housekeeping's page. No file of the site shows an environment: neither `environ({` nor this run's PATH (the
    build `make test` runs beside these tests has the same environment)."""
    out, _ = site
    path = os.environ.get('PATH', '')
    shown = [str(f.relative_to(out)) for f in out.rglob('*') if f.is_file() and f.suffix in ('.html', '.md', '.json', '.txt')
             and ('environ({' in (text := f.read_text(encoding='utf-8', errors='replace')) or (len(path) > 20 and path in text))]
    assert not shown, f"pages that show the build's environment: {shown}"

def test_no_broken_internal_link(site):
    out, _ = site
    assert (out/'index.html').exists()
    from nbdev.config import get_config
    cfg = get_config()
    bad = docs.broken_links(out, f"{cfg.get('doc_host', '')}{cfg.get('doc_baseurl', '')}")
    assert not bad, "broken links:\n" + '\n'.join(bad[:30])

def test_every_notebook_is_in_the_sidebar():
    rels = [str(r) for r in docs.notebooks()]
    listed = docs.sidebar_pages(NBS/'_quarto.yml', rels)
    assert not sorted(set(rels) - listed), f"not in the sidebar of nbs/_quarto.yml: {sorted(set(rels) - listed)}"

def test_navigation_a_newcomer_understands(site):
    "The sidebar: Start here, one section per game (tutorial, quick reference, rulebook, code: issue 55), the API reference."
    out, _ = site
    page = _html(out, 'index.html')
    side = page[page.index('id="quarto-sidebar"'):]
    sections = re.findall(r'sidebar-item-text sidebar-link text-start"[^>]*><span class="menu-text">([^<]+)</span>', side)
    assert sections[0] == 'Start here' and sections[-1] == 'API reference', sections
    for title, players in GAMES.values(): assert f"{title} ({players}" in ' '.join(sections), (title, sections)
    for href in ('index.html', 'glossary.html', 'quickref/begga_kaat.html', 'games/begga_kaat.html', 'core/cards.html', 'core/engine.html'):
        assert f'href="./{href}"' in side or f'href="{href}"' in side, href
    for game in GAMES:  # in the order a learner reads them, each game's pages together
        at = [side.index(f'{page}/{game}.html') for page in ('tutorials', 'quickref', 'games', 'api')]
        assert at == sorted(at), (game, at)
    assert side.index('api/begga_kaat.html') < side.index('tutorials/kocka.html')
    if (NBS/'tutorials'/'start.ipynb').exists(): assert 'tutorials/start.html' in side

def test_previous_and_next_follow_each_game(site):
    "Issue 55: a game's previous/next links go tutorial -> quick reference -> rulebook -> code, never into another game."
    out, _ = site
    def nav(page):
        html = _html(out, page)
        bar = re.search(r'<nav class="page-navigation">(.*?)</nav>', html, re.S).group(1)
        link = lambda side: (m := re.search(rf'nav-page-{side}"><a href="([^"]+)"', bar)) and str((out/page).parent.joinpath(m.group(1)).resolve().relative_to(out.resolve()))
        return link('previous'), link('next')
    for game in GAMES:
        pages = docs.game_runs(out)[game]
        assert pages[:3] == [f'tutorials/{game}.html', f'quickref/{game}.html', f'games/{game}.html'], pages
        assert pages[-1].startswith('api/'), pages
        for i, page in enumerate(pages):
            prev, nxt = nav(page)
            assert prev == (pages[i - 1] if i else 'tutorials/start.html'), (page, prev)
            assert nxt == (pages[i + 1] if i + 1 < len(pages) else None), (page, nxt)
    assert 'Play a game' in _html(out, 'tutorials/kocka.html').split('page-navigation')[-1]

def test_sidebar_leaves_out_pages_not_written_yet():
    dropped = []
    kept = docs.trim_contents(['index.ipynb', {'text': 'Start', 'href': 'tutorials/start.ipynb'},
                               {'section': 'Kočka', 'contents': ['11[a-z]_*.ipynb', {'href': 'quickref/kocka.ipynb'}]},
                               {'section': 'API', 'contents': ['0?_*.ipynb']}, 'https://quarto.org'],
                              ['index.ipynb', '00_cards.ipynb', 'quickref/kocka.ipynb'], dropped)
    assert kept == ['index.ipynb', {'section': 'Kočka', 'contents': [{'href': 'quickref/kocka.ipynb'}]},
                    {'section': 'API', 'contents': ['0?_*.ipynb']}, 'https://quarto.org']
    assert dropped == ['tutorials/start.ipynb', '11[a-z]_*.ipynb']

def test_link_walker_finds_broken_links(tmp_path):
    (tmp_path/'sub').mkdir()
    (tmp_path/'index.html').write_text('<a href="sub/a.html#x">a</a> <a href="gone.html">g</a> <img src="pic.png">'
                                       '<a href="https://example.org/x">e</a> <a href="#top">t</a><h1 id="top">T</h1>'
                                       '<a href="https://site.test/base/sub/a.html#nope">s</a>')
    (tmp_path/'sub'/'a.html').write_text('<h2 id="x">x</h2><a href="../index.html">up</a>')
    bad = docs.broken_links(tmp_path, 'https://site.test/base')
    assert bad == ["index.html: gone.html (no such file)", "index.html: pic.png (no such file)",
                   "index.html: sub/a.html#nope (no id 'nope' in sub/a.html)"]

def test_a_failing_notebook_is_named_with_its_cell(tmp_path):
    nb = {'cells': [{'cell_type': 'code', 'id': 'a1', 'metadata': {}, 'outputs': [], 'execution_count': None, 'source': 'x = 1'},
                    {'cell_type': 'code', 'id': 'a2', 'metadata': {}, 'outputs': [], 'execution_count': None, 'source': 'x / 0'}],
          'metadata': {'kernelspec': {'name': 'python3', 'language': 'python', 'display_name': 'Python 3'}}, 'nbformat': 4, 'nbformat_minor': 5}
    p = tmp_path/'bad.ipynb'; p.write_text(json.dumps(nb))
    with pytest.raises(docs.DocsError, match=r"(?s)bad.ipynb in cell 1:\nx / 0.*ZeroDivisionError"): docs.execute(p)


def _main(html):
    "The page's own content: no sidebar, no previous/next links."
    main = html[html.find('<main'):html.find('</main>')]
    return main.split('<nav class="page-navigation"')[0]

def test_rulebooks_read_without_code(site):
    "A rulebook page has no signatures, [source] links or code, shown or folded (they are on its code page, linked at the bottom)."
    out, _ = site
    rulebooks = [r for r in docs.notebooks() if docs.is_rulebook(r)]
    assert len(rulebooks) >= 5
    for rel in rulebooks:
        page = _main(_html(out, str(docs.page_name(rel))))
        assert '>source</a>' not in page, rel
        assert 'code-fold' not in page and 'cell-code' not in page and '<details' not in page, f"{rel}: code on the rulebook"
        assert f'api/{docs.page_name(rel).name}' in page[-3000:], f"{rel}: no link to its code page at the bottom"
        api = out/'api'/docs.page_name(rel).name
        assert '>source</a>' in api.read_text(encoding='utf-8'), f"{rel}: no code page with signatures"

def test_source_links_point_at_the_defining_module_on_the_site(site):
    "[source] links stay on the site and open the module that defines the name (Kočka's penalty is Kočka's)."
    out, _ = site
    for page in out.rglob('*.html'):
        if 'src' in page.relative_to(out).parts: continue
        for href in re.findall(r'<a href="([^"]*)"[^>]*>source</a>', page.read_text(encoding='utf-8')):
            assert not href.startswith('http'), (page.name, href)
    kocka = (out/'api'/'kocka.html').read_text(encoding='utf-8')
    penalty = kocka[kocka.index('id="penalty"') - 600:kocka.index('id="penalty"')]
    assert 'src/cardgames_tutor/games/kocka.py.html#L' in penalty, penalty
    line = int(re.search(r'kocka\.py\.html#L(\d+)', penalty).group(1))
    assert 'def penalty' in (ROOT/'cardgames_tutor/games/kocka.py').read_text().splitlines()[line - 1]

def test_no_link_leaves_the_site_or_crosses_into_another_game(site):
    "No page links to the published site; a game's pages (rulebook, tutorial, quick reference) never link into another game's."
    out, _ = site
    for page in out.rglob('*.html'):
        if 'src' in page.relative_to(out).parts: continue
        text = _main(page.read_text(encoding='utf-8'))
        assert 'cardgames-tutor.github.io' not in text, page
        game = docs.game_of(page.name) if page.parent.name != 'api' else None
        if not game: continue
        for href in re.findall(r'href="([^"#]+\.html)', text):
            other = docs.game_of(Path(href).name)
            assert other in (None, game), f"{page.relative_to(out)} links to {href}"

# ---------------------------------------------------------------- outputs: saved HTML, from execution

def _norm(outputs):
    "Outputs as they can be compared: the text forms, with memory addresses and timings masked."
    res = []
    for o in outputs:
        kind = o.get('output_type')
        if kind == 'stream': res.append(('stream', o.get('name'), ''.join(o.get('text', ''))))
        elif kind in ('display_data', 'execute_result'):
            d = o.get('data', {})
            res.append(('data', {k: ''.join(v) if isinstance(v, list) else v for k, v in d.items() if k.startswith('text/')}))
        elif kind == 'error': res.append(('error', o.get('ename')))
    return re.sub(r'0x[0-9a-f]+', '0x?', json.dumps(res, sort_keys=True))

def test_pages_carry_outputs_from_execution(site):
    "Every page of a notebook with code shows outputs, made by running it now (no error outputs); the pages need no kernel."
    out, _ = site
    for rel in docs.notebooks():
        if not (PROC/rel).exists(): continue  # a failed notebook: test_build_passes names it
        cells = [c for c in json.loads((PROC/rel).read_text())['cells'] if c['cell_type'] == 'code']
        errors = [c['source'][:80] for c in cells if any(o.get('output_type') == 'error' for o in c.get('outputs', []))]
        assert not errors, f"{rel}: error outputs in {errors}"
        if cells: assert any(c.get('outputs') for c in cells), f"{rel}: a page with code but no outputs"
    assert 'class="cgt-card"' in _html(out, 'index.html')  # a hand drawn as cards, saved as HTML
    for game in GAMES: assert 'class="cgt-card"' in _html(out, f'quickref/{game}.html'), game

def test_saved_outputs_are_the_ones_the_code_gives(site):
    "A notebook saved with outputs (index, glossary, quick references...) shows what running it gives today."
    stale = []
    for rel in docs.notebooks():
        src = json.loads((NBS/rel).read_text())
        saved = {c.get('id'): c['outputs'] for c in src['cells'] if c['cell_type'] == 'code' and c.get('outputs')}
        if not saved or not (PROC/rel).exists(): continue
        fresh = {c.get('id'): c.get('outputs', []) for c in json.loads((PROC/rel).read_text())['cells'] if c['cell_type'] == 'code'}
        stale += [f"{rel} cell {cid}" for cid, outs in saved.items() if cid in fresh and _norm(outs) != _norm(fresh[cid])]
    assert not stale, "saved outputs differ from a fresh run (run `python tools/save_outputs.py NOTEBOOK`): " + ', '.join(stale)

def test_my_notebooks_are_saved_with_outputs():
    for rel in ['index.ipynb', 'glossary.ipynb', *(f'quickref/{g}.ipynb' for g in GAMES)]:
        cells = [c for c in json.loads((NBS/rel).read_text())['cells'] if c['cell_type'] == 'code']
        assert cells and all(c.get('outputs') for c in cells if not ''.join(c['source']).startswith(('from', 'import'))), rel


# ---------------------------------------------------------------- README, glossary, quick references

def test_readme_in_step_with_index():
    r = subprocess.run([sys.executable, str(ROOT/'tools'/'readme.py'), '--check'], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr

def test_readme_front_door():
    text = (ROOT/'README.md').read_text()
    first = text.index('make tutor')
    assert first < text.index('## The five games') and 'make test' in text[:text.index('## The five games')]
    for s in ('NO_BROWSER=1 PORT=9000', 'make classroom', 'cardgames-tutor replay FILE', '--seed S --save FILE',
              'make docs', '_docs/index.html', '[tool.nbdev]', 'settings.ini', '_quarto.yml'):
        assert s in text, s
    for d in ('pyproject.toml', 'README.md', 'Makefile', 'nbs/', 'cardgames_tutor/', 'tests/', 'bench/', 'tools/'):
        assert f"| `{d}` |" in text, d
    for title, players in GAMES.values(): assert re.search(rf"\[{title}\]\([^)]*\) \| {players}", text), title
    heads = [text.index(h) for h in ('## Two commands', '## If you are learning', '## If you are teaching',
                                     '## If you are reading the documentation', '## The five games')]
    assert heads == sorted(heads), "the two commands, then a learner's, a teacher's and a reader's paths, then the rest"
    assert 'p95' not in text and 'median' not in text, "benchmark figures belong on the classroom page, not the front door"
    assert 'learn/' in text  # where a learner's own copy of the notebooks is

def _md(rel):
    return '\n'.join(''.join(c['source']) for c in json.loads((NBS/rel).read_text())['cells'] if c['cell_type'] == 'markdown')

def test_glossary_has_the_local_words():
    text = _md('glossary.ipynb')
    words = ['chaal', 'paan', 'begam', 'dugi', 'kaat', 'safar', 'trepany', 'kot', 'Hejma', 'spodek', 'svršek',
             'blind', 'bury', 'picker', 'Leaster', 'partner card', 'dehla', 'beg', 'letter', 'Cutthroat', 'Snear']
    assert not [w for w in words if f"**{w}**" not in text]
    for title, _ in GAMES.values(): assert f"## {title}" in text

def test_a_quick_reference_per_game():
    for game, (title, players) in GAMES.items():
        text = _md(f'quickref/{game}.ipynb')
        assert text.startswith(f"# {title}: quick reference"), game
        assert re.search(r'\]\(\.\./games/1\d_' + game + r'\.ipynb\)', text), f"{game}: no link to its rulebook"


# ---------------------------------------------------------------- headless Chromium

@pytest.mark.browser
def test_pages_in_headless_chromium(site, browsers):
    if no_chromium(): pytest.skip(f"headless Chromium not found: {no_chromium()}")  # the one the `browsers` fixture launches
    try: import playwright.sync_api  # noqa: F401
    except ImportError: pytest.skip("Python playwright is not installed")
    out, _ = site
    if not (out/'games'/'begga_kaat.html').exists(): pytest.fail("the site has no games/begga_kaat.html (see test_build_passes)")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with browsers.page(viewport=(1280, 900)) as page:  # the module's Chromium (one for both browser tests), a context of its own
        page.goto((out/'index.html').as_uri()); page.wait_for_load_state('load')
        page.screenshot(path=str(ARTIFACTS/'docs_start.png'), full_page=True)
        assert page.locator('h1').first.inner_text().strip() == 'cardgames_tutor'
        assert page.locator('.cgt-card').first.is_visible() and page.locator('.cgt-card').count() == 13
        assert page.get_by_text('Begga Kaat (3-4)').first.is_visible()  # the sidebar, with the players
        page.goto((out/'games'/'begga_kaat.html').as_uri()); page.wait_for_load_state('load')
        page.screenshot(path=str(ARTIFACTS/'docs_begga_kaat.png'))
        assert page.locator('h1').first.inner_text().strip() == 'Begga Kaat'
        assert page.get_by_role('cell', name='chaal', exact=True).first.is_visible()  # the table of local words
        assert page.locator('.cell-output').count() >= 5  # the examples' outputs, saved in the page (signatures: its code page)
        page.goto((out/'quickref'/'begga_kaat.html').as_uri()); page.wait_for_load_state('load')
        page.screenshot(path=str(ARTIFACTS/'docs_begga_kaat_quickref.png'))
        assert page.locator('.cgt-card[data-card="QH"]').first.is_visible()

SIDEWAYS = """() => { const out = [], doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1) out.push(`the page is ${doc.scrollWidth}px wide`);
  for (const el of document.querySelectorAll('main *')) {
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
      out.push(`${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} is ${el.scrollWidth}px in ${el.clientWidth}px: ` +
               el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 60)); }
  return out; }"""

@pytest.mark.browser
def test_learner_pages_fit_a_phone(site, browsers):
    "Issue 55: at 390x844 no learner's page scrolls sideways, as a whole or in a box of its own (a table, a trick, a code block)."
    if no_chromium(): pytest.skip(f"headless Chromium not found: {no_chromium()}")  # the one the `browsers` fixture launches
    try: import playwright.sync_api  # noqa: F401
    except ImportError: pytest.skip("Python playwright is not installed")
    sys.path.insert(0, str(ROOT/'tests'))
    from test_learner_pages import learner_pages
    out, _ = site
    pages, bad = learner_pages(out), []
    with browsers.page(viewport=(390, 844)) as page:
        for f in pages:
            page.goto(f.as_uri()); page.wait_for_load_state('load', timeout=60_000)
            bad += [f"{f.relative_to(out)}: {b}" for b in page.evaluate(SIDEWAYS)]
        page.set_content('<main><div style="overflow-x:auto;width:100px"><table><tr><td style="white-space:nowrap">'
                         + 'wide ' * 60 + '</td></tr></table></div></main>')
        assert page.evaluate(SIDEWAYS), "the check misses a box that scrolls sideways"
    assert len(pages) >= 20 and not bad, "learner's pages that scroll sideways on a phone (390 px):\n" + '\n'.join(bad)


def test_every_module_docstring_links_a_page_of_the_site(site):
    "Each module's `Docs:` link (nbdev writes `<page>.html.md`, Quarto's `keep-md` twin) names a file the build wrote."
    import ast
    from nbdev.config import get_config
    cfg = get_config()
    base = f"{cfg.get('doc_host', '')}{cfg.get('doc_baseurl', '')}".rstrip('/') + '/'
    out, _ = site
    lib, missing, linked = ROOT/'cardgames_tutor', [], 0
    for py in sorted(lib.rglob('*.py')):
        doc = ast.get_docstring(ast.parse(py.read_text(encoding='utf-8'))) or ''
        url = next((l.split(' ', 1)[1] for l in doc.splitlines() if l.startswith('Docs: ')), None)
        if url is None: continue
        linked += 1
        if not url.startswith(base) or not (out/url[len(base):]).is_file(): missing.append(f"{py.relative_to(ROOT)}: {url}")
    assert linked >= 30 and not missing, f"{linked} modules link their page; broken: {missing}"
    assert (out/'core'/'engine.html.md').read_text(encoding='utf-8').count('# ') > 3  # the twin holds the page's text
