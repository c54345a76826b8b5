"Every third-party module the package (and its bench scripts) imports is declared: a core dependency, or in the extra of the part that uses it."
import ast, re, sys
from pathlib import Path
from importlib.metadata import packages_distributions
try: import tomllib
except ImportError: import tomli as tomllib  # Python 3.10

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT/'pyproject.toml').read_text())['project']
# Import names whose distribution is not installed here, or whose installed name maps to several distributions.
DIST_OF = {'pyspiel': 'open-spiel', 'solara': 'solara-ui'}
# Which extras a part may lean on, besides the core dependencies (`serve` -> classroom; bench scripts -> bench, and
# the classroom they measure). Any other package folder uses the core dependencies only.
EXTRAS_OF = {'serve': ('classroom',), 'bench': ('bench', 'classroom')}

def norm(name:str) -> str: return re.sub(r'[-_.]+', '-', name).lower()

def req_names(reqs) -> set:
    "Distribution names of requirement strings: `'solara-server[starlette]==1.58.2'` -> `'solara-server'`."
    return {norm(re.match(r'[A-Za-z0-9._-]+', r).group()) for r in reqs}

def top_imports(path:Path) -> set:
    "Top-level names of the absolute imports in `path` (at any depth: a lazy import is still a direct import)."
    names = set()
    for n in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(n, ast.Import): names |= {a.name.split('.')[0] for a in n.names}
        elif isinstance(n, ast.ImportFrom) and n.level == 0: names.add(n.module.split('.')[0])
    return names

def third_party(path:Path, local:set) -> set:
    return {m for m in top_imports(path) if m not in sys.stdlib_module_names and m != 'cardgames_tutor' and m not in local}

def dist_of(mod:str, pd:dict) -> str:
    if mod in DIST_OF: return DIST_OF[mod]
    dists = pd.get(mod) or [mod]
    return norm(dists[0])

def part_of(path:Path) -> str:
    rel = path.relative_to(ROOT)
    return rel.parts[0] if rel.parts[0] == 'bench' else rel.parts[1] if len(rel.parts) > 2 else ''

def undeclared(files, pyproject=PYPROJECT) -> list:
    "`(file, import, distribution)` for every third-party import in `files` that the part's declared dependencies miss."
    pd, core = packages_distributions(), req_names(pyproject['dependencies'])
    extras = {k: req_names(v) for k, v in pyproject.get('optional-dependencies', {}).items()}
    local = {p.stem for d in ('bench', 'tests') for p in (ROOT/d).glob('*.py')}  # bench's own helpers and tests/helpers.py
    out = []
    for f in files:
        allowed = core.union(*(extras.get(e, set()) for e in EXTRAS_OF.get(part_of(f), ())))
        out += [(str(f.relative_to(ROOT)), m, dist_of(m, pd)) for m in sorted(third_party(f, local)) if dist_of(m, pd) not in allowed]
    return out

def sources(): return sorted((ROOT/'cardgames_tutor').rglob('*.py')) + sorted((ROOT/'bench').glob('*.py'))

def test_every_import_declared():
    assert undeclared(sources()) == []

def test_finds_an_undeclared_import():
    "The check can fail: without the classroom extra, the classroom server's own imports (markdown, uvicorn, anyio, solara) are undeclared."
    bare = {**PYPROJECT, 'optional-dependencies': {k: v for k, v in PYPROJECT['optional-dependencies'].items() if k != 'classroom'}}
    missing = {m for _, m, _ in undeclared([ROOT/f'cardgames_tutor/serve/{m}.py' for m in ('classroom', 'pages', 'housekeeping')], bare)}
    assert {'markdown', 'uvicorn', 'anyio', 'solara'} <= missing
    assert undeclared([ROOT/'bench/bench_page_cpu.py'], {**PYPROJECT, 'optional-dependencies': {}}) != []

def test_hub_extra_installs_what_the_hub_starts():
    "deploy/jupyterhub_config.py starts jupyterhub-singleuser (a Jupyter server) on a Voilà page, run in a Python kernel."
    cfg = (ROOT/'deploy/jupyterhub_config.py').read_text()
    assert "'jupyterhub-singleuser'" in cfg and "'/voila/render/" in cfg
    assert {'jupyterhub', 'jupyter-server', 'voila', 'ipykernel'} <= req_names(PYPROJECT['optional-dependencies']['hub'])
