"""Make the classroom's start page (package data) from the start notebook, or check that it is in step.

The classroom serves the start page's words (`nbs/tutorials/start.ipynb`, its markdown cells) from
`cardgames_tutor/serve/start_page.json`, so that an installed wheel has them too. After editing the start
notebook: `python tools/start_page.py`. `python tools/start_page.py --check` (run by tests/test_wheel.py) fails
when the two differ.
"""
import json, pathlib, sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / 'nbs' / 'tutorials' / 'start.ipynb'
DATA = ROOT / 'cardgames_tutor' / 'serve' / 'start_page.json'

def words(notebook=NOTEBOOK) -> list:
    "The notebook's markdown cells, in order."
    cells = json.loads(notebook.read_text(encoding='utf-8'))['cells']
    return [''.join(c['source']) for c in cells if c.get('cell_type') == 'markdown']

def text(notebook=NOTEBOOK) -> str:
    return json.dumps(words(notebook), indent=1, ensure_ascii=False) + '\n'

def main(argv=sys.argv[1:]):
    if argv not in ([], ['--check']): sys.exit('usage: python tools/start_page.py [--check]')
    want = text()
    if argv == ['--check']:
        if not DATA.exists() or DATA.read_text(encoding='utf-8') != want:
            sys.exit(f'FAILED: {DATA.relative_to(ROOT)} is not in step with {NOTEBOOK.relative_to(ROOT)}: run python tools/start_page.py')
        print('ok: the start page shipped with the package matches the start notebook')
    else:
        DATA.write_text(want, encoding='utf-8')
        print(f'wrote {DATA.relative_to(ROOT)} ({len(want)} characters)')

if __name__ == '__main__': main()
