"""The literate rhythm of the notebooks: small export cells (median at most 8 lines, none over 40), and after each
export cell an example or a test before the next one, so a reader meets every piece of code with what it does."""
import json, pathlib, statistics

NBS = pathlib.Path(__file__).parents[1]/'nbs'
# export cells that may be followed by another export cell, and why
BACK_TO_BACK = {('games/13_maghe_satra.ipynb', 'class MagheSatraHand(HandState):'):
                "making a hand deals its first turn, which needs `_next_turn`, written in the next cell"}


def size(src:str) -> int: return len([l for l in src.splitlines() if l.strip() and not l.lstrip().startswith('#|')])

def is_export(src:str) -> bool: return any(l.strip() in ('#| export', '#|export', '#| exporti') for l in src.splitlines()[:3])

def export_cells(nbs:pathlib.Path=NBS) -> list:
    "(notebook, source, the next code cell's source or None) for every export cell."
    out = []
    for nb in sorted(nbs.rglob('*.ipynb')):
        if any(p.startswith(('.', '_')) for p in nb.relative_to(nbs).parts): continue
        code = [''.join(c['source']) for c in json.loads(nb.read_text())['cells'] if c['cell_type'] == 'code']
        out += [(nb.relative_to(nbs).as_posix(), s, code[i + 1] if i + 1 < len(code) else None)
                for i, s in enumerate(code) if is_export(s)]
    return out


def test_export_cells_are_small():
    cells = export_cells()
    sizes = [size(s) for _, s, _ in cells]
    assert statistics.median(sizes) <= 8, f"median export cell {statistics.median(sizes)} lines"
    big = [f"{nb}: {size(s)} lines: {s.splitlines()[1][:60] if len(s.splitlines()) > 1 else s[:60]}"
           for nb, s, _ in cells if size(s) > 40]
    assert not big, '\n'.join(big)


def allowed(nb:str, src:str) -> bool: return any(nb == k and needle in src for k, needle in BACK_TO_BACK)

def test_an_example_after_every_export_cell():
    bare = [f"{nb}: {s.splitlines()[1][:70] if len(s.splitlines()) > 1 else ''}" for nb, s, nxt in export_cells()
            if nxt is not None and is_export(nxt) and not allowed(nb, s)]
    assert not bare, "export cells followed by another export cell, with no example or test between:\n" + '\n'.join(bare)


def test_the_rhythm_checks_see_a_bad_notebook(tmp_path):
    cell = lambda src: {'cell_type': 'code', 'source': src, 'metadata': {}, 'outputs': [], 'execution_count': None}
    big = '#| export\n' + '\n'.join(f"x{i} = {i}" for i in range(41))
    (tmp_path/'a.ipynb').write_text(json.dumps({'cells': [cell(big), cell('#| export\ny = 1'), cell('test_eq(y, 1)')]}))
    cells = export_cells(tmp_path)
    assert [size(s) for _, s, _ in cells] == [41, 1]
    assert is_export(cells[0][2]) and not is_export(cells[1][2])


def test_every_notebook_is_valid_nbformat():
    "Each notebook opens in JupyterLab as written: nbformat's own validation (a cell of an unknown type is refused)."
    import nbformat
    bad = []
    for nb in sorted(NBS.rglob('*.ipynb')):
        if any(p.startswith('.') for p in nb.relative_to(NBS).parts): continue
        try: nbformat.validate(nbformat.read(nb, as_version=4))
        except nbformat.ValidationError as e: bad.append(f"{nb.relative_to(NBS)}: {str(e).splitlines()[0][:160]}")
    assert not bad, '\n'.join(bad)


def test_every_page_has_a_title_and_a_subtitle():
    "nbdev makes a page's title and the module's docstring (with its `Docs:` link) from the first `# ` cell and its `> ` line."
    untitled = []
    for nb in sorted(NBS.rglob('*.ipynb')):
        if any(p.startswith(('.', '_')) for p in nb.relative_to(NBS).parts): continue
        cells = json.loads(nb.read_text())['cells']
        first = next((''.join(c['source']) for c in cells if c['cell_type'] == 'markdown' and ''.join(c['source']).startswith('# ')), '')
        if '\n> ' not in first: untitled.append(str(nb.relative_to(NBS)))
    assert not untitled, f"no '# Title' cell with a '> subtitle' line: {untitled}"
