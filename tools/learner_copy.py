"""The learner's own copy of the notebooks, for `make tutor`: play there, and the project's notebooks stay as they are.

    python tools/learner_copy.py [SOURCE [COPY]]     # default: nbs -> learn

JupyterLab saves a notebook as it is played (outputs, widget state, the learner's own cells). Played in `nbs/`, that
would change the project's source, and `make test` would then refuse the unclean notebooks. So `make tutor` serves a
copy in `learn/` (git ignores it), with the same folders, so every link between notebooks still works.

Each notebook is written as JupyterLab itself would save it unchanged, so that it opens clean (not marked modified, and
not rewritten by autosave) until the learner changes it: its `kernelspec` as the kernel's spec names it and the
`language_info` the kernel reports once connected (JupyterLab writes both into a notebook as soon as the kernel is
there; `nbs/` keeps nbdev's clean metadata), in nbformat's own layout. A cell the learner need not read is collapsed
with JupyterLab's cell metadata `"jupyter": {"source_hidden": true}` (one click opens it): `#| hide`, `#| echo: false`,
`#| export` and `#| default_exp` cells, tests (asserts and `test_...` calls only) and imports only. The outputs of
`#| hide` cells and of tests are collapsed too (`outputs_hidden`); those of `#| echo: false` cells stay in view. JupyterLab
shows a folded cell's first line, so a folded cell starts with a line that says it is the tutor's own code (`LABEL`),
not with its `#|` directives.

Run again (each `make tutor` does), it brings the copy up to date without losing the learner's work:
- a notebook the copy does not have yet is copied;
- a notebook the learner has not changed since it was copied is replaced by the project's newer version;
- a notebook the learner has changed is kept as it is, and the line printed says how to get the new one.
What was copied is remembered in `COPY/.copied.json` (each file's SHA-256 as written).
"""
import ast, copy as _copy, functools, hashlib, json, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = '.copied.json'

def digest(data) -> str: return hashlib.sha256(data if isinstance(data, bytes) else data.read_bytes()).hexdigest()

def notebooks(source:Path) -> list:
    "The notebooks under `source` a learner opens (relative paths), checkpoints and hidden folders left out."
    return sorted(p.relative_to(source) for p in source.rglob('*.ipynb')
                  if not any(part.startswith('.') for part in p.relative_to(source).parts))

# ---------------------------------------------------------------- the notebook as JupyterLab saves it

@functools.lru_cache(maxsize=None)
def kernel_metadata(name:str) -> dict:
    """The notebook metadata JupyterLab writes once kernel `name` is connected: `kernelspec` (its spec's name, display
    name and language) and the `language_info` of its kernel_info reply (asked of the kernel's own Python, as
    ipykernel answers it). {} when there is no such kernel (the notebook's own metadata is then kept)."""
    try:
        from jupyter_client.kernelspec import KernelSpecManager
        spec = KernelSpecManager().get_kernel_spec(name)
    except Exception: return {}
    meta = {'kernelspec': {'display_name': spec.display_name, 'language': spec.language, 'name': name}}
    python = spec.argv[0] if spec.argv else ''
    if python in ('python', f'python{sys.version_info[0]}', 'python%i.%i' % sys.version_info[:2]): python = sys.executable  # as jupyter_client does
    if spec.language == 'python' and 'ipykernel' in ' '.join(spec.argv):
        try:
            said = subprocess.run([python, '-c', 'import json; from ipykernel.ipkernel import IPythonKernel as K; print(json.dumps(K.language_info))'],
                                  capture_output=True, text=True, timeout=60, check=True).stdout
            meta['language_info'] = json.loads(said)
        except (OSError, ValueError, subprocess.SubprocessError): pass
    return meta

def directives(source:str) -> dict:
    "The `#|` options at the top of a cell: `#| echo: false` -> {'echo': 'false'}, `#| hide` -> {'hide': ''}, `#| default_exp x` -> {'default_exp': 'x'}."
    out = {}
    for line in source.splitlines():
        if not line.startswith('#|'): break
        text = line[2:].strip()
        key, _, value = text.partition(':') if ':' in text else text.partition(' ')
        out[key.strip()] = value.strip().lower()
    return out

def _is_test(node) -> bool:
    "An assert, or a call of a test function (fastcore.test's `test_eq`, `test_fail`...)."
    if isinstance(node, ast.Assert): return True
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        f = node.value.func
        return (getattr(f, 'id', None) or getattr(f, 'attr', '')).startswith('test_')
    return False

def kind(source:str) -> str:
    "'test' (asserts and `test_...` calls only), 'imports' (imports only) or 'code'."
    try: body = ast.parse(source).body
    except SyntaxError: return 'code'
    if body and all(_is_test(s) for s in body): return 'test'
    if body and all(isinstance(s, (ast.Import, ast.ImportFrom)) for s in body): return 'imports'
    return 'code'

def hidden(cell) -> tuple:
    "(source hidden, outputs hidden) for a learner: what of this cell a learner need not read."
    if cell.get('cell_type') != 'code': return False, False
    d = directives(cell['source'])
    if 'hide' in d or d.get('include') == 'false': return True, True
    if d.get('echo') == 'false': return True, False
    if 'default_exp' in d or any(k.startswith('export') for k in d): return True, False
    what = kind(cell['source'])
    return what in ('test', 'imports'), what == 'test'

LABEL = "# The tutor's own code: no need to read it (click to open it)."  # a folded cell's first line, all JupyterLab shows of it

def learner_notebook(nb):
    "A copy of notebook `nb` (nbformat) with the metadata JupyterLab writes and the cells a learner need not read collapsed."
    nb = _copy.deepcopy(nb)
    name = (nb.metadata.get('kernelspec') or {}).get('name') or 'python3'
    nb.metadata.update(_copy.deepcopy(kernel_metadata(name)))
    for cell in nb.cells:
        source, outputs = hidden(cell)
        if not (source or outputs): continue
        jupyter = cell.metadata.setdefault('jupyter', {})
        if source:
            jupyter['source_hidden'] = True
            cell.source = f"{LABEL}\n{cell.source}"  # what JupyterLab shows of the folded cell: its first line
        if outputs:
            jupyter['outputs_hidden'] = True
            cell.metadata['collapsed'] = True  # JupyterLab adds this to `outputs_hidden` when it saves
    return nb

def _nbformat():
    """nbformat, imported without jsonschema's optional IRI syntax checks: nbformat validates with jsonschema, which
    imports rfc3987_syntax when it can, for its formats iri and iri-reference (38 grammars built, ~2.3 CPU-s); no
    notebook schema uses a format, nor does nbformat give its validator a format checker: the same notebooks pass."""
    if 'jsonschema' not in sys.modules and 'rfc3987_syntax' not in sys.modules:
        sys.modules['rfc3987_syntax'] = None  # (an import of it fails: jsonschema goes without those two formats)
        try: import jsonschema  # noqa: F401
        finally: del sys.modules['rfc3987_syntax']
    import nbformat
    return nbformat

def learner_text(path:Path) -> str:
    "The learner's copy of the notebook at `path`, as JupyterLab saves it (nbformat's writer, as jupyter_server uses it)."
    nbformat = _nbformat()
    data = json.loads(path.read_text(encoding='utf-8'))
    if (data.get('nbformat', 0), data.get('nbformat_minor', 0)) >= (4, 5):  # a cell without its id would be given a random one
        for i, cell in enumerate(data.get('cells', [])): cell.setdefault('id', f'cell-{i}')
    nb = nbformat.reads(json.dumps(data), as_version=nbformat.NO_CONVERT)
    text = nbformat.writes(learner_notebook(nb), version=nbformat.NO_CONVERT)
    return text if text.endswith('\n') else text + '\n'

# ---------------------------------------------------------------- the copy, kept up to date

def sync(source:Path, copy:Path) -> dict:
    "Bring `copy` up to date with `source` (see the module's docstring): {'copied': [...], 'updated': [...], 'kept': [...]}."
    copy.mkdir(parents=True, exist_ok=True)
    try: known = json.loads((copy / MANIFEST).read_text(encoding='utf-8'))
    except (OSError, ValueError): known = {}
    done = {'copied': [], 'updated': [], 'kept': []}
    for rel in notebooks(source):
        dst, key = copy / rel, rel.as_posix()
        data = learner_text(source / rel).encode('utf-8')
        new = digest(data)
        if not dst.exists(): what = 'copied'
        elif digest(dst) == new: known[key] = new; continue
        elif known.get(key) == digest(dst): what = 'updated'   # the learner has not touched it: take the project's
        else: done['kept'].append(key); continue               # the learner's own work: never overwritten
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_bytes(data)
        known[key] = new
        done[what].append(key)
    (copy / MANIFEST).write_text(json.dumps(known, indent=1, sort_keys=True) + '\n', encoding='utf-8')
    return done

def report(done:dict, copy:Path) -> str:
    "What `sync` did, in a line or two for the learner."
    shown = copy.relative_to(ROOT) if copy.is_relative_to(ROOT) else copy
    words = [f"Your notebooks are in {shown}/ (your play there never changes the project's notebooks)."]
    news = [f"{len(done[k])} {k}" for k in ('copied', 'updated') if done[k]]
    if news: words.append(', '.join(news).capitalize() + '.')
    if done['kept']:
        words.append(f"Kept your changed {', '.join(done['kept'])}: the project has a newer version; "
                     f"delete or rename yours to get it at the next start.")
    return ' '.join(words)

def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) > 2: sys.exit("usage: python tools/learner_copy.py [SOURCE [COPY]]")
    source = Path(argv[0]) if argv else ROOT / 'nbs'
    copy = Path(argv[1]) if len(argv) > 1 else ROOT / 'learn'
    if not source.is_dir(): sys.exit(f"learner_copy: there is no folder {source}")
    print(report(sync(source.resolve(), copy.resolve()), copy.resolve()))

if __name__ == '__main__': main()
