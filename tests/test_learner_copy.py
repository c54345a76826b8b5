"""`tools/learner_copy.py`: `make tutor` serves a copy of `nbs/` that git ignores, and keeps it up to date without losing
the learner's own changes."""
import json, subprocess, sys
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
    assert (tmp_path / 'learn' / 'tutorials' / 'start.ipynb').read_bytes() == (ROOT / 'nbs' / 'tutorials' / 'start.ipynb').read_bytes()
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
