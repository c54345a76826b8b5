"""Run notebooks as `nbdev-test` does and save their outputs in them, so that they read well with no kernel
(in Jupyter, on GitHub, in README.md), then clean them with nbdev-clean.

    python tools/save_outputs.py nbs/index.ipynb nbs/glossary.ipynb ...

`tests/test_docs.py` checks that the saved outputs of every notebook are the ones the code gives today.
"""
import subprocess, sys, tempfile
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from docs import ROOT, DocsError, execute

def save_outputs(path:Path):
    "Execute the notebook at `path` and write its fresh outputs into it."
    from fastcore.nbio import read_nb, write_nb
    ran = execute(path.resolve())
    with tempfile.TemporaryDirectory() as tmp:
        write_nb(ran, Path(tmp)/'ran.ipynb'); ran = read_nb(Path(tmp)/'ran.ipynb')
    nb = read_nb(path)
    for cell, done in zip(nb.cells, ran.cells):
        if cell.cell_type == 'code': cell['outputs'] = done.get('outputs', [])
    write_nb(nb, path)
    subprocess.run([str(Path(sys.executable).parent/'nbdev-clean'), '--fname', str(path)], check=True, cwd=ROOT)

if __name__ == '__main__':
    try:
        for p in sys.argv[1:]: save_outputs(Path(p)); print(f"saved outputs: {p}")
    except DocsError as e: print(f"FAILED: {e}", file=sys.stderr); sys.exit(1)
