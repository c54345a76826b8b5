"""A light core: the terminal commands (`play`, `replay`, `review`, `drill`) never import matplotlib or ipywidgets;
the charts and the panel load them where they are drawn. Each command runs in a fresh process, for every game."""
import json, os, subprocess, sys, pytest
from cardgames_tutor.core.registry import games

HEAVY = ('matplotlib', 'ipywidgets')
# Runs `cardgames-tutor ARGS` once per game in one process (FILE in ARGS: that game's record, GAME: its name; `typed`:
# what the learner types), then prints which of HEAVY were imported. `pre` is imported first (the check's own test).
WRAPPER = """
import contextlib, io, json, os, sys
from cardgames_tutor.core.registry import games
from cardgames_tutor.term.cli import main
for name in {pre!r}: __import__(name)
statuses = []
for game in games():
    argv = [a.replace('GAME', game).replace('FILE', os.path.join({folder!r}, game + '.json')) for a in {args!r}]
    sys.stdin = io.StringIO({typed!r})
    with contextlib.redirect_stdout(io.StringIO()): statuses.append(main(argv))
print(json.dumps({{'statuses': statuses, 'heavy': [m for m in {heavy!r} if m in sys.modules]}}))
"""

def heavy_imports(args, folder, typed='', pre=()) -> dict:
    code = WRAPPER.format(args=list(args), folder=str(folder), typed=typed, pre=list(pre), heavy=HEAVY)
    done = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=600,
                          env={**os.environ, 'CARDGAMES_TUTOR_DATA': str(folder)})
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])

@pytest.fixture(scope='module')
def folder(tmp_path_factory):
    "A folder with a saved record of every game (FILE: a match's first hand, which the review takes a second over) and the drill's progress store."
    d = tmp_path_factory.mktemp('light')
    r = heavy_imports(['play', 'GAME', '--seed', '3', '--bots', 'all', '--save', 'FILE'], d)
    assert r['statuses'] == [0] * len(games())
    for g in games():
        data = json.loads((d/f"{g}.json").read_text())
        (d/f"{g}.json").write_text(json.dumps({**data, 'hands': data['hands'][:1]}))
    return d

@pytest.mark.parametrize('args, typed', [
    (['play', 'GAME', '--seed', '3', '--bots', 'all'], ''),
    (['play', 'GAME', '--seed', '4', '--coach'], 'help\nhint\nundo\nquit\n'),  # the learner's seat: view, help, hints, quit
    (['replay', 'FILE'], ''), (['replay', 'FILE', '--json'], ''),
    (['review', 'FILE'], ''),
    (['drill', 'GAME', '--count', '5', '--seed', '1'], '1\n2\n1\n2\n1\n'),
])
def test_commands_import_neither_matplotlib_nor_ipywidgets(folder, args, typed):
    r = heavy_imports(args, folder, typed)
    assert r['statuses'] == [0] * len(games()), r
    assert r['heavy'] == [], f"{' '.join(args)} imported {r['heavy']}"

def test_the_check_sees_a_heavy_import(folder):
    "The check can fail: with the panel and the charts imported, both are seen."
    r = heavy_imports(['replay', 'FILE'], folder, pre=['cardgames_tutor.ui.panel', 'cardgames_tutor.ui.charts'])
    assert r['heavy'] == list(HEAVY)
