"""Build the documentation site into `_docs/` (`make docs` runs this).

1. nbdev's processing step (what `nbdev-proc-nbs` does) copies `nbs/_quarto.yml`, `styles.css` and friends to `_proc/`.
2. Every notebook is executed afresh, the way `nbdev-test` runs it (hidden cells too, `#| eval: false` and
   `#| slow` cells skipped), then processed by nbdev (hidden cells dropped, `show_doc` rendered) into `_proc/`.
   So every output on a page is the one the code gives today, saved in the page as static HTML. A failing cell
   fails the build, naming the notebook and the cell (the other pages are still rendered, to list every problem).
   The site has two kinds of page made from the same notebooks (issue 55). The learner's pages (home, start page,
   glossary, each game's tutorial, quick reference and rulebook) carry no code: a rulebook shows its prose and the
   outputs of its examples, never a cell's source (shown or folded); its signatures, tests, Python values (an output
   such as `[Move('trump S')]` is left out), notes *For programmers* and sections marked `<!-- code page -->` move to
   its code page, `api/<game>.html` (the whole notebook), linked once at the bottom; where an example's output is left
   out, a hidden mark (`cgt-dropped`) lets the site's check fail on a lead-in followed by nothing. Rule ids
   (`[kocka/follow]`) are left out of every output a learner's page shows. The home page is a learner's page: the five
   games, how to play a hand, a hand dealt from a seed; the rest of nbs/index.ipynb (the two commands, teaching, the
   layout, which README.md keeps first) is the page for programmers and teachers, `develop.html`, linked once at its
   bottom. A game's previous/next links run tutorial, quick reference, rulebook, code within the game.
   tests/test_learner_pages.py checks the built learner's pages. Links made by nbdev are made
   local (relative), `[source]` links point at the module that
   defines the name, on a source page of the site, and a game's pages never link into another game's page.
3. The sidebar of `_quarto.yml` is trimmed to the pages that exist (a notebook another helper has not written
   yet is left out and named), then the site is rendered: by Quarto (nbdev's render step) when `quarto` is
   installed, else by smalldocs from the same `_quarto.yml`.
4. The built site is checked: a page for every notebook, every notebook in the sidebar, no broken internal link.
   A site that passed is stamped (`.built.json`: the renderer and a digest of what it was built from), so that
   `tests/test_docs.py` checks the site `make test` has just built instead of running every notebook again.

    python tools/docs.py [--out _docs] [--renderer auto|quarto|smalldocs] [--workers 2]
"""
from __future__ import annotations
import argparse, html.parser, os, re, shutil, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor
from fnmatch import fnmatch
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))  # this checkout's library, whatever is installed
NBS, PROC = ROOT/'nbs', ROOT/'_proc'


class DocsError(Exception):
    "The site could not be built or failed a check; the message says where and why."


def read_settings_once():
    """nbdev reads `pyproject.toml` afresh each time it asks for its settings (`get_config`): several times for every
    cell it processes, and each `[source]` link asks again; parsing it again and again was a third of a page's build.
    Here a settings file is parsed once while it is unchanged (same size and time of change) and each caller gets a
    copy of what it says: the same settings, read once."""
    import pickle, nbdev.config as config
    if getattr(config._load_toml, 'once', False): return
    parse, parsed = config._load_toml, {}
    def load(p):
        st = os.stat(p)
        key = (str(Path(p).resolve()), st.st_mtime_ns, st.st_size)
        if key not in parsed: parsed[key] = pickle.dumps(parse(p), pickle.HIGHEST_PROTOCOL)
        return pickle.loads(parsed[key])  # a copy of its own, made far faster than copy.deepcopy
    load.once = True
    config._load_toml = load
    # and it looks for that file afresh each time too: up from the working folder, a stat and a read at each level
    # (~5,000 times in a build, 1.2 CPU-s). A folder's answer, once found, is kept; a folder with none is asked again.
    find, found = config._find_nbdev_pyproject, {}
    def find_once(path=None):
        key = (os.getcwd(), str(path) if path else None)
        if key not in found:
            f = find(path)
            if f is None: return None
            found[key] = f
        return found[key]
    config._find_nbdev_pyproject = find_once


def notebooks(nbs:Path=NBS) -> list[Path]:
    "The notebooks that become pages, relative to `nbs`: nbdev's rule (no `_` or `.` files or folders)."
    return sorted(p.relative_to(nbs) for p in nbs.rglob('*.ipynb')
                  if not any(part.startswith(('_', '.')) for part in p.relative_to(nbs).parts))


def page_name(rel:Path) -> Path:
    "The HTML page nbdev gives a notebook: `games/10_begga_kaat.ipynb` -> `games/begga_kaat.html` (number prefix dropped)."
    from nbdev.doclinks import nbpath2html
    return rel.parent/nbpath2html(rel).name


# ---------------------------------------------------------------- 2. execute and process one notebook

def execute(src:Path):
    "Run every cell of notebook `src` as `nbdev-test` does; return the notebook with its outputs, or raise `DocsError`."
    from execnb.shell import CaptureShell
    from fastcore.xtras import working_directory
    from nbdev.config import get_config
    from nbdev.process import NBProcessor
    from nbdev.test import _skip_cell
    nb = NBProcessor(src, rm_directives=False, process=True).nb
    flags = str(get_config().get('tst_flags', '') or '').split()
    skip = _skip_cell(nb, skip_flags=flags)
    shell = CaptureShell(src)
    os.environ['IN_TEST'] = '1'
    try:
        with working_directory(src.parent): shell.run_all(nb, exc_stop=True, preproc=skip, cell_timeout=600)
    except BaseException as e:
        bad = next((c for c in nb.cells if c.cell_type == 'code' and any(o.get('output_type') == 'error' for o in c.get('outputs', []))), None)
        where = f" in cell {bad.idx_}:\n{bad.source.strip()[:400]}\n" if bad is not None else ': '
        raise DocsError(f"notebook error: {src.relative_to(ROOT) if src.is_relative_to(ROOT) else src}{where}{type(e).__name__}: {e}") from None
    finally:
        os.environ.pop('IN_TEST', None)
    return nb


def widgets_alive() -> frozenset:
    "The ids of the widgets alive in this process (none before ipywidgets is imported)."
    ipywidgets = sys.modules.get('ipywidgets')
    return frozenset(ipywidgets.Widget.widgets) if ipywidgets else frozenset()

def page_processors(before:frozenset):
    """nbdev's processors for a docs page, except that the page embeds the state of its own widgets only, not of those
    in `before`. nbdev's `exec_show_docs` embeds every widget alive in the process, and a worker builds many pages in
    turn, so each page carried the widgets of all the pages built before it in its worker (`_proc/` held 20 MB instead of
    6.5, and the build spent an eighth of its CPU-seconds making, writing and reading them)."""
    import nbdev.processors as nbdev_procs
    class exec_show_docs(nbdev_procs.exec_show_docs):  # its name, as nbdev's `skip_procs` setting names processors
        def end(self):
            try: from ipywidgets import Widget
            except ImportError: return
            key = 'application/vnd.jupyter.widget-state+json'
            old = (self.nb.metadata.get('widgets') or {}).get(key) or {'state': {}}
            new = Widget.get_manager_state(drop_defaults=True, widgets=[w for k, w in list(Widget.widgets.items()) if k not in before])
            self.nb.metadata['widgets'] = {key: {**old, **new, 'state': {**old.get('state', {}), **new['state']}}}
    class PageProcessors(nbdev_procs.FilterDefaults):
        def base_procs(self): return [exec_show_docs if p is nbdev_procs.exec_show_docs else p for p in super().base_procs()]
    return PageProcessors()

def build_page(src:Path, dest:Path):
    "Execute `src`, then process it the way nbdev does for docs, and write it to `dest`."
    from fastcore.nbio import read_nb, write_nb
    import json, tempfile
    before = widgets_alive()
    ran = execute(src)
    with tempfile.TemporaryDirectory() as tmp:  # a round trip through JSON gives outputs in the shape nbdev's processors read
        write_nb(ran, Path(tmp)/'ran.ipynb'); ran = read_nb(Path(tmp)/'ran.ipynb')
    nb = read_nb(src)  # fresh cells with their directives, given the outputs just made
    for cell, done in zip(nb.cells, ran.cells):
        if cell.cell_type == 'code':
            cell['outputs'] = done.get('outputs', [])
            cell['execution_count'] = done.get('execution_count')
    page_processors(before)(nb)
    rel = src.relative_to(NBS) if src.is_relative_to(NBS) else Path(src.name)
    module = _default_exp(src)
    if is_rulebook(rel):
        api = PROC/'api'/page_name(rel).with_suffix('.ipynb').name
        api.parent.mkdir(parents=True, exist_ok=True)
        write_nb(localize(api_page(nb, rel), api.relative_to(PROC), module), api)
        nb = rulebook_page(nb, rel)
    elif is_learner_page(rel):
        if str(rel) == 'index.ipynb':  # the home page's programmers' and teachers' part: a page of its own
            write_nb(localize(develop_page(nb), Path(DEVELOP), module), PROC/DEVELOP)
        nb = learner_page(nb, rel)
    dest.parent.mkdir(parents=True, exist_ok=True)
    write_nb(localize(nb, rel, module), dest)


# ---------------------------------------------------------------- 2b. rulebooks without code, local links

GAMES = ('begga_kaat', 'kocka', 'dehla_pakad', 'maghe_satra', 'beggars_and_thieves')
_SHOW_DOC = re.compile(r'^show_doc\(([\w.]+)', re.M)

def is_rulebook(rel:Path) -> bool:
    "A game's rulebook notebook (`games/10_begga_kaat.ipynb`, `games/14a_beggars_and_thieves_snear.ipynb`)."
    return len(rel.parts) == 2 and rel.parts[0] == 'games' and re.match(r'1\d[a-z]?_', rel.name) is not None

def game_of(page:str) -> str|None:
    "The game a page is about (its rulebook, code, tutorial or quick reference), from its name."
    name = re.sub(r'^\d+[a-z]?_', '', Path(page).stem)
    return next((g for g in GAMES if name.startswith(g)), None)

def _default_exp(src:Path) -> str|None:
    m = re.search(r'#\|\s*default_exp\s+([\w.]+)', src.read_text(encoding='utf-8'))
    return m.group(1) if m else None

def _src(cell) -> str: return ''.join(cell['source']) if isinstance(cell['source'], list) else cell['source']

def _front(nb, **changes):
    "Change the front matter (the first raw cell) of processed notebook `nb`: None removes a key."
    import yaml
    cell = next(c for c in nb.cells if c.cell_type == 'raw')
    meta = yaml.safe_load(_src(cell).strip().strip('-')) or {}
    for k, v in changes.items():
        if v is None: meta.pop(k, None)
        else: meta[k] = v
    cell['source'] = '---\n' + yaml.safe_dump(meta, allow_unicode=True, sort_keys=False) + '---\n'
    return meta

def api_page(nb, rel:Path):
    "The code page of a rulebook: the whole notebook, signatures and tests included, at `api/<page>.html`."
    import copy
    api = copy.deepcopy(nb)
    meta = _front(api, **{'output-file': None})
    _front(api, title=f"{meta.get('title', rel.stem)}: the code",
           description=f"The code behind the rulebook page: every function with its signature, examples and tests.")
    api.cells.insert(2, _md_cell(f"The rules in words: [the rulebook page](../{rel.as_posix()}). This page is its code."))
    return api

DROPPED = '<div class="cgt-dropped" hidden></div>'  # where a learner's page leaves out an example's output (a Python value): unseen, but
                                                  # tests/test_site_says.py fails on a lead-in followed by it (a lead-in followed by nothing)
CODE_PAGE = '<!-- code page -->'  # a Markdown cell with it is for the code page only: a heading's whole section, else the cell and the code cells after it
_RULE_ID = re.compile(r"\s*<span[^>]*>\((?:rule|tactic) <code>[\w/-]+</code>\)</span>|\s*\((?:rule|tactic) <code>[\w/-]+</code>\)|"
                      r"\s*\[(?:begga-kaat|kocka|dehla-pakad|maghe-satra|beggars-and-thieves|snear)/[\w-]+\]|"
                      r"\s*\((?:rule|tactic) (?:begga-kaat|kocka|dehla-pakad|maghe-satra|beggars-and-thieves|snear)/[\w-]+\)")
_PY_VALUE = re.compile(r"\b[A-Z]\w*\((?:'|\"|\w+=)|\[\s*(?:-?\d+\s*,\s*)+-?\d+\s*\]|\[\s*(?:'[^']*'|\"[^\"]*\")\s*[,\]]|"
                       r"\{\s*'\w+'\s*:|\[(?:\s*[0-9AKQJT]{1,2}[SHDC]\s*,){2,}|<[\w.]+ object|"
                       r"(?<![\w.])(?:True|False|None)(?![\w])|^\s*\(?[\d\s,.()'\"\w-]{0,12}\)?\s*$|^\s*\w+ \w+\s*$")

def learner_text(text:str) -> str:
    "An engine's sentence as a learner's page shows it: without the rule id the panel and the terminal add for the coach."
    return _RULE_ID.sub('', text)

def learner_output(o):
    """One output of a code cell as a learner's page shows it (rule ids left out), or None when it is a Python value
    (`Move('trump S')`, a list or a dict as Python writes it, a bare number): that one stays on the code page."""
    import copy
    o = copy.deepcopy(o)
    if o.get('output_type') == 'stream':
        text = learner_text(''.join(o.get('text', '')))
        o['text'] = text
        return None if _PY_VALUE.search(text) else o
    data = o.get('data') or {}
    for mime in ('text/html', 'text/markdown', 'text/plain'):
        if mime in data: data[mime] = learner_text(''.join(data[mime]) if isinstance(data[mime], list) else data[mime])
    if not any(m in data for m in ('text/html', 'text/markdown', 'image/png', 'image/svg+xml')):
        return None if _PY_VALUE.search(data.get('text/plain', '')) or not data.get('text/plain', '').strip() else o
    if 'text/markdown' in data and 'text/html' not in data and _PY_VALUE.search(data['text/markdown']): return None
    return o

def learner_prose(src:str) -> str:
    "A Markdown cell without its notes *For programmers* (they stay on the code page)."
    paras = re.split(r'\n\s*\n', src)
    return '\n\n'.join(p for p in paras if not re.match(r'\s*>\s*\*For programmers', p))

def learner_cells(cells, code_page_link:str|None=None):
    """The cells a learner's page shows: prose without programmers' notes or sections marked `<!-- code page -->`,
    code cells as their outputs alone (no source, shown or folded; `show_doc` and Python values left out)."""
    out, skip = [], None  # skip: the heading level of a section for the code page; 9: one cell and its code cells
    for c in cells:
        src = _src(c)
        if c.cell_type == 'markdown':
            head = re.match(r'\s*(#+) ', src.replace(CODE_PAGE, ''))
            if skip == 9 or skip and head and len(head.group(1)) <= skip: skip = None
            if CODE_PAGE in src:
                if skip is None: skip = len(head.group(1)) if head else 9
                continue
            if skip: continue
            c['source'] = learner_prose(src)
            if not c['source'].strip(): continue
        elif c.cell_type == 'code':
            if skip or _SHOW_DOC.search(src) or not c.get('outputs'): continue
            outs = [o for o in map(learner_output, c['outputs']) if o is not None]
            if not outs:  # every output a Python value: the page shows nothing here, and says so to the site's check
                if out and out[-1].cell_type == 'markdown' and DROPPED in _src(out[-1]): continue
                out.append(_md_cell(DROPPED)); continue
            c['outputs'] = outs
            c['source'] = '#| echo: false\n' + src
        out.append(c)
    return out

def rulebook_page(nb, rel:Path):
    "The rulebook as a learner reads it (`learner_cells`); its code, tests and notes for programmers are on the code page."
    nb.cells = learner_cells(nb.cells)
    nb.cells.append(_md_cell(f"*How the tutor itself plays these rules, step by step, is on "
                             f"[the code page](../api/{page_name(rel).stem}.ipynb).*"))
    return nb

LEARNER_DIRS = ('tutorials', 'quickref')

def is_learner_page(rel:Path) -> bool:
    "A learner's page: the home and start pages, the glossary, a tutorial, a quick reference, a rulebook."
    return is_rulebook(rel) or str(rel) in ('index.ipynb', 'glossary.ipynb') or (len(rel.parts) == 2 and rel.parts[0] in LEARNER_DIRS)

def learner_page(nb, rel:Path):
    "A tutorial, quick reference, the glossary or the home page: outputs without rule ids; the home page leads with the games."
    for c in nb.cells:
        for o in c.get('outputs', []) if c.cell_type == 'code' else []:
            if o.get('output_type') == 'stream': o['text'] = learner_text(''.join(o.get('text', '')))
            for mime, v in (o.get('data') or {}).items():
                if mime.startswith('text/'): o['data'][mime] = learner_text(''.join(v) if isinstance(v, list) else v)
    if str(rel) == 'index.ipynb':
        for c in nb.cells:
            if c.cell_type == 'code': c['source'] = '#| echo: false\n' + _src(c)
        nb.cells = home_cells(nb.cells)[0]
        nb.cells.append(_md_cell(f"*Installing the tutor, serving it to a class, and how the project is made: "
                                 f"[for programmers and teachers]({DEVELOP}).*"))
    return nb

HOME = ('## The five games', '## Playing a hand', '## Dealt from a seed')  # the home page's sections for a learner, in this order
DEVELOP = 'develop.ipynb'  # the rest of nbs/index.ipynb (README.md's commands, teaching, the layout): a page for programmers and teachers

def home_cells(cells) -> tuple[list, list]:
    """The cells of the home page (nbs/index.ipynb, processed) split in two: the learner's (front matter, the sections of
    `HOME` in that order) and the rest, for the page for programmers and teachers (issue 55). A section runs from its
    `## ` heading to the next; the cells before the first heading (the front matter) go to both."""
    head, sections, cur = [], [], None
    for c in cells:
        if c.cell_type == 'markdown' and _src(c).lstrip().startswith('## '): cur = [c]; sections.append(cur)
        elif cur is None: head.append(c)
        else: cur.append(c)
    title = lambda sec: _src(sec[0]).lstrip().split('\n', 1)[0].strip()
    learner = [sec for h in HOME for sec in sections if title(sec) == h]
    rest = [sec for sec in sections if title(sec) not in HOME]
    return head + [c for sec in learner for c in sec], [c for sec in rest for c in sec]

def develop_page(nb):
    "The page for programmers and teachers: what the home page leaves out (install, teach, build the docs, the layout)."
    import copy
    dev = copy.deepcopy(nb)
    for c in dev.cells:
        if c.cell_type == 'code': c['source'] = '#| echo: false\n' + _src(c)
    head, rest = home_cells(dev.cells)
    dev.cells = [c for c in head if c.cell_type == 'raw'] + rest
    home = '|'.join(re.sub(r'\W+', '-', h[3:].lower()) for h in HOME)  # a link to a section left on the home page goes there
    for c in dev.cells:
        if c.cell_type == 'markdown': c['source'] = re.sub(rf'\]\(#({home})\)', r'](index.ipynb#\1)', _src(c))
    _front(dev, **{'output-file': None, 'title': 'For programmers and teachers',
                   'description': 'Installing the tutor, serving it to a class, building these pages, and how the project is laid out.'})
    dev.cells.insert(1, _md_cell("The games and how to play them are on [the home page](index.ipynb); this page is for whoever "
                                 "installs the tutor, serves it to a class or works on it."))
    return dev

def _md_cell(text):
    from fastcore.basics import AttrDict
    return AttrDict(cell_type='markdown', metadata={}, source=text)

def _source_place(module:str|None, name:str):
    "(file relative to the project, first line) of `name` as defined in `module`, or None."
    import importlib, inspect
    if not module: return None
    try:
        obj = importlib.import_module(f"{_lib()}.{module}")
        for part in name.split('.'): obj = getattr(obj, part)
        if isinstance(obj, property): obj = obj.fget  # a method added with `@patch(as_prop=True)`
        obj = inspect.unwrap(getattr(obj, '__func__', obj))
        first = _first_line(obj)
        path = Path(inspect.getsourcefile(obj)).resolve()
        if path.suffix == '.py' and path.is_file(): return path.relative_to(ROOT), first  # e.g. cardgames_tutor/games/kocka.py
    except Exception: pass
    return _defined_at(module, name)

def _first_line(obj) -> int:
    """The first line of `obj`'s source, as `inspect.getsourcelines(obj)[1]` says, without its cost: for a class, inspect
    parses the whole module again at every call (a thousand calls, a module each, were a sixth of the pages' processing
    outside the notebooks) and for anything it then reads the object's block only to return its lines. Here a module's
    classes are found in one parse of it, kept while its text is the same; a function is asked of `inspect.findsource`."""
    import inspect, linecache
    if not inspect.isclass(obj):
        lines, lnum = inspect.findsource(obj)
        return 0 if inspect.ismodule(obj) else lnum + 1
    file = inspect.getsourcefile(obj)
    if file: linecache.checkcache(file)
    else:
        file = inspect.getfile(obj)
        if not (file.startswith('<') and file.endswith('>')): raise OSError('source code not available')
    module = inspect.getmodule(obj, file)
    lines = linecache.getlines(file, module.__dict__) if module else linecache.getlines(file)
    if not lines: raise OSError('could not get source code')
    found = _class_lines(''.join(lines)).get(obj.__qualname__)
    if found is None: raise OSError('could not find class definition')
    return found + 1

_CLASS_LINES = {}
def _class_lines(source:str) -> dict:
    "Where each class of `source` starts (0-based, at its first decorator), by qualified name: the first of a name, as `inspect`'s class finder finds it."
    import ast
    if source not in _CLASS_LINES:
        found = {}
        def walk(node, stack):
            for kid in ast.iter_child_nodes(node):
                if isinstance(kid, (ast.FunctionDef, ast.AsyncFunctionDef)): walk(kid, stack + [kid.name, '<locals>'])
                elif isinstance(kid, ast.ClassDef):
                    found.setdefault('.'.join(stack + [kid.name]), (kid.decorator_list[0].lineno if kid.decorator_list else kid.lineno) - 1)
                    walk(kid, stack + [kid.name])
                else: walk(kid, stack)
        walk(ast.parse(source), [])
        _CLASS_LINES[source] = found
    return _CLASS_LINES[source]

def _defined_at(module:str, name:str):
    """Where the module's file defines `name` (`Cls.method` added with `@patch` too), or None. Asked when the object
    at hand is not the module's own: a notebook run in the same process patches the package's classes again."""
    path = ROOT/_lib()/f"{module.replace('.', '/')}.py"
    if not path.is_file(): return None
    *owner, last = name.split('.')
    pattern = re.compile(rf"^\s*(?:def|class) {re.escape(last)}\b" + (rf".*\bself:\s*{re.escape(owner[-1])}\b" if owner else ''))
    for i, line in enumerate(path.read_text(encoding='utf-8').splitlines(), 1):
        if pattern.match(line): return path.relative_to(ROOT), i
    return None

def _lib() -> str:
    from nbdev.config import get_config
    return get_config().lib_path.name

def localize(nb, rel:Path, module:str|None):
    "Make the links of processed notebook `nb` (the page `rel`) local: see the module docstring."
    from nbdev.config import get_config
    cfg = get_config()
    site = f"{cfg.get('doc_host', '')}{cfg.get('doc_baseurl', '')}".rstrip('/') + '/'
    repo = f"{cfg.get('git_url', '')}/blob/{cfg.get('branch', 'main')}/"
    here, game = (PROC/rel).parent, game_of(str(rel))
    rulebooks = {page_name(r).stem for r in notebooks() if is_rulebook(r)}
    def relative(target:str) -> str: return os.path.relpath(PROC/target, here)
    def doc_link(m):
        text, page, frag = m.group(1), m.group(2), m.group(3) or ''
        target_game = game_of(page)
        if game and target_game and target_game != game and not str(rel).startswith('api/'): return text  # no cross-game link
        if frag.startswith('#_'): return text  # a private name has no entry of its own (and may be another module's)
        if Path(page).stem in rulebooks and frag: page = f"api/{Path(page).name}"  # signatures live on the code page
        return f"[{text}]({relative(page)}{frag})"
    link = re.compile(r'\[([^\]]*)\]\(' + re.escape(site) + r'([\w./-]+\.html)(#[\w.-]+)?\)')
    bare = re.compile(re.escape(site) + r'([\w./-]+\.html)(#[\w.-]+)?')
    def source_link(text, name):
        def fix(m):
            path, line = m.group(1), m.group(2)
            place = _source_place(module, name) if name else None
            if place: path, line = str(place[0]), str(place[1])
            elif not path.endswith('.py'):  # a method patched in a notebook cell (`<ipython-input-...>`): its module's page
                path, line = f"{_lib()}/{module.replace('.', '/')}.py", '1'
            return f"({relative(f'src/{path}.html')}#L{line})"
        return re.sub(r'\(' + re.escape(repo) + r'([^)#\s]+)#L(\d+)\)', fix, text)
    def fix_text(text, name=None):
        text = link.sub(doc_link, text)
        text = bare.sub(lambda m: relative(m.group(1)) + (m.group(2) or ''), text)
        return source_link(text, name)
    for c in nb.cells:
        c['source'] = fix_text(_src(c))
        if c.cell_type != 'code': continue
        shown = _SHOW_DOC.search(_src(c))
        for o in c.get('outputs', []):
            for mime, value in (o.get('data') or {}).items():
                if mime in ('text/markdown', 'text/html'):
                    o['data'][mime] = fix_text(''.join(value) if isinstance(value, list) else value, shown and shown.group(1))
    return nb


def write_sources(site:Path):
    "A page per module of the library, each line with an anchor (`#L12`), for the `[source]` links."
    from html import escape
    lib = ROOT/_lib()
    for py in sorted(lib.rglob('*.py')):
        rel = py.relative_to(ROOT)
        lines = py.read_text(encoding='utf-8').splitlines()
        body = '\n'.join(f'<span id="L{i}" class="line"><a href="#L{i}">{i:4d}</a>  {escape(l)}</span>' for i, l in enumerate(lines, 1))
        up = os.path.relpath(site/'index.html', (site/'src'/rel).parent)
        page = (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{escape(str(rel))}</title><style>'
                'body{font:13px/1.45 monospace;margin:1em} .line{display:block;white-space:pre} .line:target{background:#fff3b0}'
                ' .line a{color:#999;text-decoration:none}</style></head>'
                f'<body><p><a href="{up}">cardgames_tutor docs</a> · <b>{escape(str(rel))}</b> (made from the notebooks: '
                f'edit those, not this file)</p><pre>{body}</pre></body></html>')
        out = site/'src'/f"{rel}.html"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(page, encoding='utf-8')


def build_pages(rels:list[Path], workers:int=2) -> list[str]:
    "Build the pages of `rels` in `workers` processes (each runs its share in turn, as `nbdev-test` does); return the errors."
    shares = [rels[i::max(1, workers)] for i in range(max(1, workers))]
    def one(share):
        if not share: return []
        args = [str(a) for rel in share for a in (NBS/rel, PROC/rel)]
        r = subprocess.run([sys.executable, __file__, '--pages', *args], cwd=ROOT, capture_output=True, text=True)
        errs = [e.strip() for e in r.stdout.split(_SEP)[1:] if e.strip()]
        if r.returncode and not errs: errs = [f"notebook build failed (exit status {r.returncode}) for {', '.join(map(str, share))}:\n{r.stderr[-3000:]}"]
        return errs
    with ThreadPoolExecutor(max(1, workers)) as pool: return [e for errs in pool.map(one, shares) for e in errs]

_SEP = '\n@@docs-error@@\n'

def build_share(pairs:list[str]) -> int:
    "Build pages for `pairs` (source, destination, source, destination...) in this process; print each error after `_SEP`."
    import warnings; warnings.simplefilter('ignore')
    read_settings_once()
    failed = 0
    for src, dest in zip(pairs[::2], pairs[1::2]):
        try: build_page(Path(src), Path(dest))
        except DocsError as e: failed += 1; print(_SEP + str(e), flush=True)
        except Exception as e:  # nbdev's processing (it runs `show_doc` and import cells again, alone)
            failed += 1; print(_SEP + f"notebook error while nbdev processed {Path(src).relative_to(ROOT)}: {e}", flush=True)
    return failed


# ---------------------------------------------------------------- 3. the sidebar: keep what exists

def _is_glob(s:str) -> bool: return any(ch in s for ch in '*?[')

def _matches(pattern:str, pages:list[str]) -> list[str]:
    return [p for p in pages if fnmatch(p, pattern.lstrip('/'))] if _is_glob(pattern) else [p for p in pages if p == pattern.lstrip('/')]

def trim_contents(contents:list, pages:list[str], dropped:list) -> list:
    "The sidebar `contents` with entries for missing pages (and sections left empty) removed; removed paths go to `dropped`."
    out = []
    for c in contents:
        if isinstance(c, str):
            if c == 'auto' or c.startswith('---') or re.match(r'^[a-z]+:', c) or _matches(c, pages): out.append(c)
            else: dropped.append(c)
        elif isinstance(c, dict) and 'contents' in c:
            kids = trim_contents(c['contents'] if isinstance(c['contents'], list) else [c['contents']], pages, dropped)
            if kids: out.append({**c, 'contents': kids})
            else: dropped.append(f"section {c.get('section', '?')}")
        elif isinstance(c, dict) and (href := c.get('href') or c.get('file')) and not re.match(r'^[a-z]+:', str(href)):
            if _matches(str(href), pages): out.append(c)
            else: dropped.append(str(href))
        else: out.append(c)
    return out


def trim_sidebar(root:Path=PROC) -> list[str]:
    "Trim the sidebar (and navbar) of `root/_quarto.yml` to the pages in `root`; return what was left out."
    import yaml
    qy = root/'_quarto.yml'
    cfg = yaml.safe_load(qy.read_text())
    pages = [str(p) for p in notebooks(root)] + [str(p.relative_to(root)) for p in root.rglob('*.qmd')] \
          + [str(p.relative_to(root)) for p in root.rglob('*.md')]
    dropped = []
    web = cfg.get('website', {})
    for sb in (web.get('sidebar') if isinstance(web.get('sidebar'), list) else [web.get('sidebar')]):
        if isinstance(sb, dict) and 'contents' in sb: sb['contents'] = trim_contents(sb['contents'], pages, dropped)
    nav = web.get('navbar') or {}
    for side in ('left', 'right'):
        if isinstance(nav, dict) and side in nav: nav[side] = trim_contents(nav[side], pages, dropped)
    qy.write_text(yaml.safe_dump(cfg, sort_keys=False, allow_unicode=True))
    return dropped


def sidebar_pages(quarto_yml:Path, pages:list[str]) -> set[str]:
    "The notebooks the sidebar of `quarto_yml` lists (globs resolved against `pages`)."
    import yaml
    web = yaml.safe_load(quarto_yml.read_text()).get('website', {})
    found = set()
    def walk(cs):
        for c in cs or []:
            if isinstance(c, str): found.update(_matches(c, pages))
            elif isinstance(c, dict):
                if c.get('href') or c.get('file'): found.update(_matches(str(c.get('href') or c.get('file')), pages))
                walk(c.get('contents') if isinstance(c.get('contents'), list) else [c.get('contents')] if c.get('contents') else [])
    for sb in (web.get('sidebar') if isinstance(web.get('sidebar'), list) else [web.get('sidebar')]):
        if isinstance(sb, dict): walk(sb.get('contents'))
    return found


# ---------------------------------------------------------------- 4. checks on the built site

class _Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.links, self.ids = [], set()
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get('id'): self.ids.add(a['id'])
        if tag == 'a' and a.get('name'): self.ids.add(a['name'])
        for k in ('href', 'src'):
            if a.get(k) is not None and not (tag == 'link' and a.get('rel') in ('preconnect', 'dns-prefetch')): self.links.append(a[k])


# Tags that carry no link and no id, as the renderer writes thousands of them (a highlighted line is a row of
# `<span class="n">`): left out before parsing, they cost the parser nothing. Each is put back as a space, so no text
# around it joins up into a tag; none holds a quote or a `<`, so none can end a comment, a script or an attribute early.
_PLAIN_TAG = re.compile(r'</?(?:span|div|code|pre|p|li|ul|ol|td|tr|th|em|strong|b|i)(?:\s+class="[\w\s-]*")?\s*>')

def broken_links(site:Path, site_url:str='') -> list[str]:
    """Every internal link or `src` in the HTML of `site` that points at no file (or at no id in its page).
    The same link from the same folder is looked up once (every page carries the whole sidebar)."""
    pages = {}
    for p in site.rglob('*.html'):
        parser = _Links(); parser.feed(_PLAIN_TAG.sub(' ', p.read_text(encoding='utf-8', errors='replace'))); pages[p] = parser
    bad = []
    base = site_url.rstrip('/') + '/' if site_url else None
    found = {}  # (the page, or its folder, and the link's path) -> (the file it points at, whether it exists)
    def place(p, path):
        key = (p.parent, path) if path else (p, path)
        if key not in found:
            target = (p if not path else (site/path.lstrip('/') if path.startswith('/') else p.parent/unquote(path))).resolve()
            if target.is_dir(): target = target/'index.html'
            found[key] = target, target.exists()
        return found[key]
    for p, parser in pages.items():
        for link in parser.links:
            if base and link.startswith(base): link = os.path.relpath(site/link[len(base):], p.parent) if link[len(base):] else 'index.html'
            u = urlsplit(link)
            if u.scheme or link.startswith('//') or not (u.path or u.fragment) or u.scheme in ('mailto', 'data', 'javascript'): continue
            target, exists = place(p, u.path)
            if not exists: bad.append(f"{p.relative_to(site)}: {link} (no such file)")
            elif u.fragment and target.suffix == '.html' and target in pages and unquote(u.fragment) not in pages[target].ids:
                bad.append(f"{p.relative_to(site)}: {link} (no id {u.fragment!r} in {target.relative_to(site)})")
    return sorted(set(bad))


def check_site(site:Path, nbs:Path=NBS, quarto_yml:Path=None) -> list[str]:
    "The problems of a built site: a notebook with no page, a notebook missing from the sidebar, a broken link."
    from nbdev.config import get_config
    rels = notebooks(nbs)
    problems = [f"no page for {rel}: expected {page_name(rel)}" for rel in rels if not (site/page_name(rel)).exists()]
    if quarto_yml is not None:
        listed = sidebar_pages(quarto_yml, [str(r) for r in rels])
        problems += [f"{rel} is not in the sidebar of nbs/_quarto.yml: add it to its section" for rel in rels if str(rel) not in listed]
    cfg = get_config()
    site_url = f"{cfg.get('doc_host', '')}{cfg.get('doc_baseurl', '')}" if cfg.get('doc_host') else ''
    return problems + [f"broken link in {b}" for b in broken_links(site, site_url)]


# ---------------------------------------------------------------- the whole build

def process_support_files():
    "nbdev's processing step (`nbdev-proc-nbs`) for everything but the notebooks, which are built after running them."
    import nbdev.quarto as q
    if not shutil.which('quarto'): q._ensure_quarto = lambda: None  # nbdev would try to download Quarto with sudo
    from contextlib import redirect_stderr
    import io, warnings
    with warnings.catch_warnings(), redirect_stderr(io.StringIO()):
        warnings.simplefilter('ignore')
        q.nbdev_proc_nbs.__wrapped__(file_re=r'^$')  # no notebooks: they are built below with fresh outputs
    for p in list(PROC.rglob('*.ipynb')):  # pages of deleted notebooks (code pages are made again with their rulebook, develop with index)
        if not (NBS/p.relative_to(PROC)).exists(): p.unlink()


def render(renderer:str, out:Path):
    "Render `_proc` into `out` with Quarto (as `nbdev-docs` does) or smalldocs."
    from nbdev.config import get_config
    built = PROC/get_config().doc_path.name
    shutil.rmtree(built, ignore_errors=True)
    if renderer == 'quarto':
        from nbdev.quarto import render_quarto, _fix_quarto_nav
        render_quarto(PROC, built, n_workers=2)
        _fix_quarto_nav(built)
    else:
        r = subprocess.run([str(Path(sys.executable).parent/'smalldocs'), 'render', '--quiet', str(PROC)], cwd=ROOT,
                           capture_output=True, text=True)
        if r.returncode: raise DocsError(f"smalldocs failed:\n{r.stdout}{r.stderr}")
        known = ('format-links', 'format commonmark', 'keep-md', 'output-file is not read',  # nbdev's keys, for Quarto
                 'broken link')  # before pages get their names and source pages exist; check_site checks every link after
        said = [l for l in (r.stdout + r.stderr).splitlines() if l.strip() and not any(k in l for k in known)]
        if said: print('\n'.join(said))
        apply_output_files(built)
        write_markdown_twins(built)
    if not built.exists(): raise DocsError(f"the renderer wrote no site to {built}")
    game_navigation(built)
    write_sources(built)
    if out.resolve() != built.resolve():
        shutil.rmtree(out, ignore_errors=True)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(built), str(out))


GAME_DIRS = ('tutorials', 'quickref', 'games', 'api')  # a game's pages, in the order a learner reads them

def game_runs(site:Path) -> dict:
    "Each game's pages in the order of the sidebar (tutorial, quick reference, rulebook(s), code pages), from the home page's sidebar."
    home = (site/'index.html').read_text(encoding='utf-8')
    hrefs = re.findall(r'<a href="([^"#]+\.html)" class="sidebar-item-text sidebar-link', home)
    runs = {}
    for h in dict.fromkeys(h.lstrip('./') for h in hrefs):
        game = game_of(h) if Path(h).parts[0] in GAME_DIRS else None
        if game: runs.setdefault(game, []).append(h)
    return runs

def _nav_link(site:Path, here:str, target:str, side:str) -> str:
    "One previous/next link of the page `here` to the page `target` (both relative to `site`), titled as the target's page."
    m = re.search(r'<title>(.*?)(?: – [^<]*)?</title>', (site/target).read_text(encoding='utf-8'), re.S)
    title, href = (m.group(1).strip() if m else Path(target).stem), os.path.relpath(site/target, (site/here).parent)
    if target == 'tutorials/start.html': title = 'Play a game'  # as the sidebar names the start page
    arrow = f'<i class="bi bi-arrow-{"left" if side == "previous" else "right"}-short"></i>'
    text = f'<span class="nav-page-text">{title}</span>'
    return (f'<div class="nav-page nav-page-{side}"><a href="{href}" class="pagination-link">'
            + (f'{arrow} {text}' if side == 'previous' else f'{text} {arrow}') + '</a></div>')

def game_navigation(site:Path, start:str='tutorials/start.html'):
    """The previous/next links of a game's pages follow the learner's order within the game (issue 55): tutorial,
    quick reference, rulebook, code. The tutorial's previous page is the start page; the last page of a game has no next
    (the renderer's links run on from one game's code page into the next game's tutorial)."""
    nav = re.compile(r'<nav class="page-navigation">.*?</nav>', re.S)
    for game, pages in game_runs(site).items():
        for i, page in enumerate(pages):
            path = site/page
            if not path.exists(): continue
            prev = pages[i - 1] if i else (start if (site/start).exists() else None)
            nxt = pages[i + 1] if i + 1 < len(pages) else None
            links = ((_nav_link(site, page, prev, 'previous') if prev else '<div class="nav-page nav-page-previous"></div>')
                     + (_nav_link(site, page, nxt, 'next') if nxt else '<div class="nav-page nav-page-next"></div>'))
            html = path.read_text(encoding='utf-8')
            path.write_text(nav.sub(lambda m: f'<nav class="page-navigation">{links}</nav>', html, count=1), encoding='utf-8')


def write_markdown_twins(site:Path):
    """Beside each page `x.html`, its Markdown `x.html.md`, as Quarto writes with `keep-md: true` (nbs/_quarto.yml):
    the module docstrings nbdev exports link there (`Docs: .../core/engine.html.md`), a page a program can read.
    A twin holds what its page shows: no source of a cell the page does not show (`#| echo: false`), no `#|` lines,
    and its links point at the site's pages (`../games/begga_kaat.html`), not at notebooks."""
    import json, warnings
    if 'jsonschema' not in sys.modules:  # nbformat validates with jsonschema, which imports rfc3987_syntax when it can
        sys.modules['rfc3987_syntax'] = None  # for its IRI formats: 38 grammars built, ~2.7 CPU-s, for formats nbformat never checks
        try: import jsonschema  # noqa: F401
        finally: del sys.modules['rfc3987_syntax']
    import nbformat
    from nbconvert import MarkdownExporter
    from nbconvert.preprocessors import TagRemovePreprocessor
    # optimistic_validation: the notebook is validated once, after the preprocessors, not after each of the dozen
    # (all but one of them disabled, changing nothing): an invalid notebook still fails the build
    exporter = MarkdownExporter(exclude_output_prompt=True, exclude_input_prompt=True, optimistic_validation=True)
    exporter.register_preprocessor(TagRemovePreprocessor(remove_input_tags={'cgt-hide-input'}, remove_cell_tags={'cgt-hide'}), enabled=True)
    for nb in PROC.rglob('*.ipynb'):
        rel = nb.relative_to(PROC)
        page = site/(page_name(rel) if rel.parts[0] != 'api' else rel.with_suffix('.html'))
        if not page.exists(): continue
        data = json.loads(nb.read_text(encoding='utf-8'))
        for cell in data['cells']:  # processed notebooks carry what nbformat refuses: nbdev's `has_sd`, timings
            cell.pop('has_sd', None); cell.get('metadata', {}).pop('execution', None)
            if cell['cell_type'] != 'code': continue
            src = _src(cell)
            lines = src.splitlines()
            said = [l[2:].strip().replace(' ', '') for l in lines if l.startswith('#|')]
            cell['source'] = '\n'.join(l for l in lines if not l.startswith('#|'))
            tags = cell.setdefault('metadata', {}).setdefault('tags', [])
            if any(d in ('echo:false', 'hide', 'include:false') for d in said): tags.append('cgt-hide-input')
            if 'include:false' in said or 'hide' in said or not (cell['source'].strip() or cell.get('outputs')): tags.append('cgt-hide')
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            body, _ = exporter.from_notebook_node(nbformat.reads(json.dumps(data), as_version=4))
        page.with_name(page.name + '.md').write_text(_site_links(body), encoding='utf-8')

def _site_links(md:str) -> str:
    "Markdown links to notebooks made links to their pages: `(../games/10_begga_kaat.ipynb#x)` -> `(../games/begga_kaat.html#x)`."
    return re.sub(r'\]\((?!https?:)([^)\s#]+\.ipynb)(#[^)\s]*)?\)',
                  lambda m: f"]({page_name(Path(m.group(1))).as_posix()}{m.group(2) or ''})", md)


def apply_output_files(site:Path, nbs:Path=NBS):
    "Give smalldocs' pages the names nbdev asks for (`output-file`, which Quarto reads): `10_begga_kaat.html` -> `begga_kaat.html`."
    moves = {rel.with_suffix('.html'): page_name(rel) for rel in notebooks(nbs) if rel.with_suffix('.html') != page_name(rel)}
    for old, new in moves.items():
        if (site/old).exists(): (site/old).replace(site/new)
    names = {old.name: new.name for old, new in moves.items()}
    if not names: return
    pat = re.compile(r'(?<=["\'/])(' + '|'.join(map(re.escape, names)) + r')(?=[#"\'?])')
    for p in [*site.rglob('*.html'), site/'search.json', site/'sitemap.xml']:
        if p.exists(): p.write_text(pat.sub(lambda m: names[m.group(1)], p.read_text(encoding='utf-8')), encoding='utf-8')


STAMP = '.built.json'  # in a site this script built whole and without a problem: what it was built from

def inputs_digest(root:Path=ROOT) -> str:
    "A digest of everything a site is built from: the notebooks and their folder, the library, this script, the project's settings."
    import hashlib
    h = hashlib.sha256()
    files = [*(root/'nbs').rglob('*'), *(root/'cardgames_tutor').rglob('*.py'), root/'tools'/'docs.py', root/'pyproject.toml']
    made = {root/'nbs'/'nbdev.yml', root/'nbs'/'sidebar.yml'}  # written by nbdev's processing step itself
    for p in sorted(f for f in files if f.is_file() and f not in made and not {'.ipynb_checkpoints', '.quarto', '__pycache__'} & set(f.parts)):
        h.update(str(p.relative_to(root)).encode() + b'\0' + p.read_bytes() + b'\0')
    return h.hexdigest()

def fresh_site(out:Path, renderer:str='smalldocs', root:Path=ROOT) -> dict|None:
    "The stamp of the site in `out` if it was built by `renderer` from the tree (`root`) as it is now, else None: a test may read it, not build it again."
    import json
    try: stamp = json.loads((out/STAMP).read_text())
    except (OSError, ValueError): return None
    return stamp if stamp.get('renderer') == renderer and stamp.get('inputs') == inputs_digest(root) else None


def build(out:Path=ROOT/'_docs', renderer:str='auto', workers:int=2) -> list[str]:
    "Build the site into `out`; return the pages the sidebar left out. Raises `DocsError` on any failure."
    import json
    os.chdir(ROOT)
    read_settings_once()
    if renderer == 'auto': renderer = 'quarto' if shutil.which('quarto') else 'smalldocs'
    (out/STAMP).unlink(missing_ok=True)  # an old stamp must not vouch for a build that fails
    digest = inputs_digest()  # the tree as it was when the notebooks ran
    t0 = time.time()
    process_support_files()
    rels = notebooks()
    errors = build_pages(rels, workers)
    for rel in rels:  # a notebook that failed must not keep an old page
        if any(re.search(rf"\bnbs/{re.escape(str(rel))}[: ]", e) for e in errors): (PROC/rel).unlink(missing_ok=True)
    t1 = time.time()
    dropped = trim_sidebar(PROC)
    render(renderer, out)  # render the rest even when a notebook failed, so that every problem is listed at once
    problems = errors + check_site(out, NBS, NBS/'_quarto.yml')
    if problems: raise DocsError(f"{len(problems)} problem(s):\n" + '\n\n'.join(problems))
    said = (f"docs: {len(rels)} notebooks run and processed in {t1-t0:.1f}s, rendered by {renderer} in {time.time()-t1:.1f}s "
            f"into {os.path.relpath(out, ROOT)}/ (open {os.path.relpath(out/'index.html', ROOT)})")
    print(said)
    (out/STAMP).write_text(json.dumps({'renderer': renderer, 'inputs': digest, 'said': said}) + '\n')
    missing = [d for d in dropped if not _is_glob(d) and not d.startswith('section ')]  # globs may match nothing yet
    if missing: print("not in the site yet (no such page): " + ', '.join(missing))
    return dropped


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', default=str(ROOT/'_docs'), help='where the site goes (default _docs)')
    ap.add_argument('--renderer', choices=('auto', 'quarto', 'smalldocs'), default='auto', help='auto: Quarto if installed, else smalldocs')
    ap.add_argument('--workers', type=int, default=2, help='notebooks run at once')
    ap.add_argument('--pages', nargs='+', help=argparse.SUPPRESS)  # pairs of notebook and page, in a worker process
    a = ap.parse_args(argv)
    if a.pages:
        code = 1 if build_share(a.pages) else 0
        sys.stdout.flush(); sys.stderr.flush()
        # Skip the interpreter's teardown: after running notebooks with widgets and matplotlib in this process,
        # it sometimes crashes at exit (SIGSEGV with no Python frame, after every page was written).
        os._exit(code)
    try: build(Path(a.out).absolute(), a.renderer, a.workers)
    except DocsError as e:
        print(f"FAILED: {e}", file=sys.stderr); sys.exit(1)


if __name__ == '__main__': main()
