"""`tools/learner_copy.py`: `make tutor` serves a copy of `nbs/` that git ignores, and keeps it up to date without losing
the learner's own changes. The copy opens clean (issue 56): each notebook is what JupyterLab's server writes when it saves
it unchanged, with the metadata JupyterLab's page adds once the kernel is there, and the cells a learner need not read
collapsed. (tests/test_tutor_links.py opens the copy in JupyterLab itself.)"""
import hashlib, json, subprocess, sys
import pytest
from helpers import ROOT
sys.path.insert(0, str(ROOT / 'tools'))
import learner_copy

def write_nb(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({'cells': [{'cell_type': 'markdown', 'metadata': {}, 'source': text}], 'metadata': {},
                                'nbformat': 4, 'nbformat_minor': 5}))

def test_a_new_copy_has_every_notebook_and_keeps_the_links(tmp_path):
    done = learner_copy.sync(ROOT / 'nbs', tmp_path / 'learn')
    wanted = {p.relative_to(ROOT / 'nbs').as_posix() for p in (ROOT / 'nbs').rglob('*.ipynb') if '.ipynb_checkpoints' not in p.parts}
    assert set(done['copied']) == wanted and not done['updated'] and not done['kept']
    assert (tmp_path / 'learn' / 'tutorials' / 'start.ipynb').read_text(encoding='utf-8') == learner_copy.learner_text(ROOT / 'nbs' / 'tutorials' / 'start.ipynb')
    assert (tmp_path / 'learn' / 'games' / '10_begga_kaat.ipynb').exists()  # a tutorial's ../games/ link still resolves

def test_an_untouched_copy_is_updated_and_a_changed_one_is_kept(tmp_path):
    src, copy = tmp_path / 'nbs', tmp_path / 'learn'
    write_nb(src / 'tutorials' / 'a.ipynb', 'a, first'); write_nb(src / 'tutorials' / 'b.ipynb', 'b, first')
    assert sorted(learner_copy.sync(src, copy)['copied']) == ['tutorials/a.ipynb', 'tutorials/b.ipynb']
    write_nb(copy / 'tutorials' / 'b.ipynb', 'b, with my notes')            # the learner played in b
    write_nb(src / 'tutorials' / 'a.ipynb', 'a, second'); write_nb(src / 'tutorials' / 'b.ipynb', 'b, second')  # the project moved on
    write_nb(src / 'games' / 'c.ipynb', 'c')
    done = learner_copy.sync(src, copy)
    assert done == {'copied': ['games/c.ipynb'], 'updated': ['tutorials/a.ipynb'], 'kept': ['tutorials/b.ipynb']}
    assert 'a, second' in (copy / 'tutorials' / 'a.ipynb').read_text()
    assert 'my notes' in (copy / 'tutorials' / 'b.ipynb').read_text()
    assert 'Kept your changed tutorials/b.ipynb' in learner_copy.report(done, copy)
    assert learner_copy.sync(src, copy) == {'copied': [], 'updated': [], 'kept': ['tutorials/b.ipynb']}  # said again, never overwritten

def test_git_ignores_the_copy_and_make_tutor_serves_it():
    assert subprocess.run(['git', 'check-ignore', '-q', 'learn/tutorials/start.ipynb'], cwd=ROOT).returncode == 0
    made = subprocess.run(['make', '-n', '-o', 'install', 'tutor', 'NO_BROWSER=1'], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    copying, lab = (next(l for l in made.splitlines() if w in l) for w in ('learner_copy.py nbs learn', ' lab '))
    assert made.index(copying) < made.index(lab) and '--ServerApp.root_dir=learn' in lab and '/lab/tree/tutorials/start.ipynb' in lab

# ---------------------------------------------------------------- the copy opens clean

LEARNER_PAGES = ['tutorials/start.ipynb'] + [f'tutorials/{n}.ipynb' for n in ('begga_kaat', 'kocka', 'dehla_pakad', 'maghe_satra', 'beggars_and_thieves')] + ['glossary.ipynb']

@pytest.fixture(scope='module')
def copy(tmp_path_factory):
    "The learner's copy of nbs/, made as `make tutor` makes it; nbs/ itself is not written to."
    pages = lambda: {p: hashlib.sha256((ROOT / 'nbs' / p).read_bytes()).hexdigest() for p in LEARNER_PAGES}
    before, copy = pages(), tmp_path_factory.mktemp('learn')
    learner_copy.sync(ROOT / 'nbs', copy)
    assert pages() == before
    return copy

def test_jupyterlab_saves_every_notebook_of_the_copy_unchanged(copy):
    "A notebook opened and saved as it is by JupyterLab's server (its contents manager: get, then save) is byte-identical."
    pytest.importorskip('jupyter_server')
    from jupyter_server.services.contents.filemanager import FileContentsManager
    manager, changed = FileContentsManager(root_dir=str(copy)), []
    pages = [p.relative_to(copy).as_posix() for p in sorted(copy.rglob('*.ipynb'))]
    assert set(LEARNER_PAGES) <= set(pages)
    for rel in pages:
        before = (copy / rel).read_bytes()
        model = manager.get(rel)
        manager.save({'type': 'notebook', 'format': 'json', 'content': model['content']}, rel)
        if (copy / rel).read_bytes() != before: changed.append(rel)
    assert not changed, f"saved unchanged by JupyterLab's server, these notebooks of the copy changed: {changed}"

def test_the_copy_carries_the_metadata_jupyterlab_adds_when_the_kernel_connects(copy):
    """JupyterLab writes the kernel's spec (`kernelspec`) and its kernel_info reply (`language_info`) into a notebook as
    soon as the kernel is there: nbdev's clean notebooks have neither, so every page opened marked modified and autosave
    rewrote it. The copy has both, as a kernel started here gives them."""
    pytest.importorskip('ipykernel')
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import start_new_kernel
    name = 'python3'
    spec = KernelSpecManager().get_kernel_spec(name)
    manager, client = start_new_kernel(kernel_name=name, startup_timeout=120)
    try:
        msg_id = client.kernel_info()
        reply = client.get_shell_msg(timeout=60)
        while reply['parent_header'].get('msg_id') != msg_id: reply = client.get_shell_msg(timeout=60)
        language_info = reply['content']['language_info']
    finally:
        client.stop_channels(); manager.shutdown_kernel(now=True)
    for rel in LEARNER_PAGES:
        meta = json.loads((copy / rel).read_text(encoding='utf-8'))['metadata']
        assert meta['kernelspec'] == {'display_name': spec.display_name, 'language': spec.language, 'name': name}, rel
        assert meta['language_info'] == language_info, rel
    assert 'language_info' not in json.loads((ROOT / 'nbs' / 'tutorials' / 'start.ipynb').read_text(encoding='utf-8'))['metadata']  # nbs/ stays nbdev-clean

def _cells(copy, rel):
    return [c for c in json.loads((copy / rel).read_text(encoding='utf-8'))['cells'] if c['cell_type'] == 'code']

def test_the_learner_pages_show_no_code_and_keep_the_panel_in_view(copy):
    "On the start page and in the tutorials every code cell is collapsed; the outputs of `#| echo: false` (the panel, the pictures) stay in view."
    for rel in LEARNER_PAGES:
        for cell in _cells(copy, rel):
            source, meta = ''.join(cell['source']), cell['metadata']
            assert meta.get('jupyter', {}).get('source_hidden') is True, f"{rel}: a code cell a learner sees: {source[:80]!r}"
            assert source.startswith(learner_copy.LABEL + '\n'), f"{rel}: a folded cell whose first line (all JupyterLab shows of it) is code: {source[:80]!r}"
            shown = '#| echo: false' in source.splitlines()[:3]
            assert meta['jupyter'].get('outputs_hidden', False) is not shown and meta.get('collapsed', False) is not shown, (rel, source[:80])

def test_which_cells_are_collapsed(tmp_path):
    "`#| hide`, tests and `#| export` cells are collapsed, with their outputs for hide and tests; an example a learner reads is not."
    cells = {'hide': '#| hide\nimport os', 'echo': "#| echo: false\nprint('drawn')", 'export': '#| export\ndef f(): return 1',
             'default_exp': '#| default_exp core.x', 'test': 'assert f() == 1\ntest_eq(f(), 1)', 'imports': 'from os import path',
             'example': 'hand = f()\nhand', 'mixed': 'x = f()\nassert x == 1'}
    nb = {'cells': [{'cell_type': 'code', 'id': k, 'metadata': {}, 'source': v, 'outputs': [], 'execution_count': None} for k, v in cells.items()]
          + [{'cell_type': 'markdown', 'id': 'md', 'metadata': {}, 'source': 'words'}], 'metadata': {}, 'nbformat': 4, 'nbformat_minor': 5}
    (tmp_path / 'n.ipynb').write_text(json.dumps(nb))
    out = {c['id']: c['metadata'] for c in json.loads(learner_copy.learner_text(tmp_path / 'n.ipynb'))['cells']}
    hidden = {'jupyter': {'source_hidden': True}}
    both = {'collapsed': True, 'jupyter': {'source_hidden': True, 'outputs_hidden': True}}
    assert out == {'hide': both, 'echo': hidden, 'export': hidden, 'default_exp': hidden, 'test': both, 'imports': hidden,
                   'example': {}, 'mixed': {}, 'md': {}}
    assert learner_copy.learner_text(tmp_path / 'n.ipynb') == learner_copy.learner_text(tmp_path / 'n.ipynb')  # the same bytes each time
