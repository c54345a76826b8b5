"""Write README.md from nbs/index.ipynb (nbdev-readme needs Quarto, so this does it with nbconvert).

    python tools/readme.py          # write README.md
    python tools/readme.py --check  # exit 1 if README.md is not what index.ipynb gives

Hidden cells are left out and `#|` lines dropped; an output that has a plain-text form is shown as text
(GitHub strips the styles of HTML cards); links to notebooks point into `nbs/`.
"""
import copy, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INDEX, README = ROOT/'nbs'/'index.ipynb', ROOT/'README.md'

def render(index:Path=INDEX) -> str:
    "The README text that `index` gives."
    import nbformat
    from nbconvert import MarkdownExporter
    nb = nbformat.read(index, as_version=4)
    cells = []
    for cell in nb.cells:
        lines = cell.source.splitlines()
        directives = [l[3:].strip() if l.startswith('#| ') else l[2:].strip() for l in lines if l.startswith('#|')]
        if cell.cell_type == 'code':
            if any(d.split(':')[0].strip() in ('hide', 'include') and d.strip() != 'include: true' for d in directives): continue
            cell = copy.deepcopy(cell)
            cell.source = '\n'.join(l for l in lines if not l.startswith('#|'))
            for out in cell.get('outputs', []):
                if 'data' in out and 'text/plain' in out['data']: out['data'] = {'text/plain': out['data']['text/plain']}
        else:  # links to notebooks and pages, relative to nbs/, made relative to the repository root
            cell = copy.deepcopy(cell)
            cell.source = re.sub(r'\]\((?!https?:|#|/)([^)]+\.(?:ipynb|md|qmd))\)', r'](nbs/\1)', cell.source)
        cells.append(cell)
    nb.cells = cells
    nb.metadata['language_info'] = {'name': 'python'}  # so code blocks are marked python
    body, _ = MarkdownExporter().from_notebook_node(nb)
    note = "<!-- Generated from nbs/index.ipynb by tools/readme.py: edit the notebook, then run `python tools/readme.py`. -->\n\n"
    return note + re.sub(r'\n{3,}', '\n\n', body).strip() + '\n'

if __name__ == '__main__':
    text = render()
    if '--check' in sys.argv:
        if README.read_text() != text: print("FAILED: README.md is not in step with nbs/index.ipynb: run `python tools/readme.py`"); sys.exit(1)
        print("ok: README.md is in step with nbs/index.ipynb")
    else: README.write_text(text); print("wrote README.md")
