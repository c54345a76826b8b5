"""pytest's set-up for tests/: the helpers importable, the `slow` mark for `make quick`, and shards for `make test`.

- `slow`: a test that takes seconds, not a fraction of one (property tests over thousands of hands, every verdict
  of every phase, the docs site). `make quick` leaves these and the browser tests out; `make test` runs everything.
  The list is here, by name, so that the test files stay as they are; `--durations` in `make test` shows when it
  needs changing.
- `--shard K/N`: run only the K-th of N shares of the test files (whole files: a module's server or browser is
  started once). `tests/shards.py` runs the N shares side by side; the shares are balanced by `WEIGHTS` (tests/weights.json).
- A data folder of the tests' own: every pytest process sets `CARDGAMES_TUTOR_DATA` to a fresh temporary folder before
  anything is collected or started (so every server, kernel and command a test starts inherits it) and removes it at
  the end. Without it the tests' students ("Asha", "Bo", ...) and drill answers went into the user's own data folder
  (`~/.local/share/cardgames_tutor/classroom.sqlite`), which a teacher's console and CSV then showed.
"""
import json, os, shutil, sys, pathlib, tempfile
sys.path.insert(0, str(pathlib.Path(__file__).parent))
import pytest

SLOW = ('test_2000_', 'random_games', 'random_hands', 'random_deals', 'views_never_leak', 'no_view_leaks', 'leaks_nothing',
        'test_every_verdict_agrees', 'test_illegal_actions_change_nothing', 'test_random_presses', 'test_full_hand_through_widgets',
        'test_views_results_standings_and_tallies', 'brute_force', 'test_matches_end_at_the_target', 'test_bot_',
        'test_verdicts_agree_with_the_legal_actions', 'test_beggars_and_thieves_score_leaster', 'test_kocka_loser_tie',
        'test_review_worst_first', 'test_nothing_leaks_to_the_browser', 'test_cards_drawn_as_cards', 'test_review_reasons_set',
        'test_hint_text_and_chart_show_no_hidden_card', 'test_any_json_anywhere', 'damaged_records',
        'wheel', 'test_commands_import_no', 'test_the_live_panel_comes_first', 'test_a_tutorial_fits')

# seconds per file, and per test of the `SPLIT` files, by the clock under `make test` (tests/weights.json: from a run of
# six shares beside two busy programs on 2 cores, from a fresh clone, each test's clock recorded by tools/cpu_per_test.py
# and written by `python tools/cpu_per_test.py DIR --clock`; `python tests/shards.py --weights LOG...` reads the same
# from the `--durations=0` output of a run); a file not there weighs 10.
# Not CPU-seconds (tools/cpu_per_test.py measures those): shares balanced by them ended 724-926 s apart in such a run, as
# the hub tests wait on hubs and spawns far longer than they compute
_MEASURED = json.loads((pathlib.Path(__file__).parent / 'weights.json').read_text())
WEIGHTS, TEST_WEIGHTS = _MEASURED['files'], _MEASURED['tests']

# the files that read the built site (tests/helpers.py): `tests/shards.py --site` runs them last in their share
SITE_FILES = ('test_docs.py', 'test_site_says.py', 'test_learner_pages.py', 'test_tutorials.py')

# practice/progress.data_dir reads it first (else `$XDG_DATA_HOME` or `~/.local/share`, + `cardgames_tutor`)
DATA_ENV = 'CARDGAMES_TUTOR_DATA'

def pytest_configure(config):
    "The tests' own data folder, fresh, set in this process's environment before any test module is imported."
    config._tests_data = tempfile.mkdtemp(prefix='cardgames-tutor-tests-')
    os.environ[DATA_ENV] = config._tests_data

def pytest_unconfigure(config):
    folder = getattr(config, '_tests_data', None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        if os.environ.get(DATA_ENV) == folder: del os.environ[DATA_ENV]

def pytest_addoption(parser):
    parser.addoption('--shard', default=None, metavar='K/N', help='run only the K-th of N shares of the test files (1-based)')

# files that go into one share together: the hubs' tests make one Python for students' accounts (a lock: a second
# share would wait for the first to make it) and start a hub each, one at a time rather than side by side
TOGETHER = [('test_hub.py', 'test_hub_service.py', 'test_hub_lti.py', 'test_hub_classes.py')]

# files whose tests share nothing (no module fixture, no cache one test fills for another): `tests/shards.py` deals
# their tests out one by one, so that one heavy file does not hold the whole run up (a test weighs its file's weight
# or its own, measured: TEST_WEIGHTS)
SPLIT = ('test_engine_rules.py', 'test_panel.py', 'test_begga_kaat.py', 'test_maghe_satra.py', 'test_drills.py',
         'test_coach_race.py', 'test_coach_numbers.py', 'test_engine_contracts.py', 'test_panel_coach.py')

def shares(files, n, tests=None) -> list:
    """The files in `n` shares of about equal weight: the heaviest first (a `TOGETHER` group as one), each into the
    lightest share so far. `tests`: {file: its test ids} for files of `SPLIT` dealt out test by test ('file::id')."""
    tests = tests or {}
    units = [[f for f in group if f in files] for group in TOGETHER]
    units = [u for u in units if u] + [[f] for f in files if not any(f in group for group in TOGETHER) and f not in tests]
    units += [[f'{f}::{t}'] for f in files if f in tests for t in tests[f]]
    def one(item):  # a test of a split file: its own measured seconds, else an equal part of what its file's measured tests leave
        f = item.split('::')[0]
        if '::' not in item: return WEIGHTS.get(f, 10)
        if item in TEST_WEIGHTS: return TEST_WEIGHTS[item]
        known = [TEST_WEIGHTS[f'{f}::{t}'] for t in tests[f] if f'{f}::{t}' in TEST_WEIGHTS]
        return max(0.1, (WEIGHTS.get(f, 10) - sum(known)) / max(1, len(tests[f]) - len(known)))
    weighed = sorted(((sum(map(one, u)), u) for u in units), key=lambda wu: (-wu[0], wu[1]))
    out, load = [[] for _ in range(n)], [0.0] * n
    for w, unit in weighed:
        k = load.index(min(load))
        out[k].extend(unit); load[k] += w
    return out

def pytest_collection_modifyitems(config, items):
    for item in items:
        if any(s in item.name for s in SLOW) or 'site' in getattr(item, 'fixturenames', ()): item.add_marker(pytest.mark.slow)
    shard = config.getoption('--shard')
    if not shard: return
    try: k, n = map(int, shard.split('/')); assert 1 <= k <= n
    except (ValueError, AssertionError): raise pytest.UsageError(f"--shard must be K/N with 1 <= K <= N, not {shard!r}") from None
    mine = set(shares(sorted({item.path.name for item in items}), n)[k - 1])
    keep = [item for item in items if item.path.name in mine]
    config.hook.pytest_deselected(items=[item for item in items if item.path.name not in mine])
    items[:] = keep

@pytest.fixture(scope='module')
def browsers():
    "One Chromium for a test module's pages, each page in a browser context of its own (`helpers.Browsers`)."
    from helpers import Browsers
    shared = Browsers()
    try: yield shared
    finally: shared.close()

# Charts whose pixels no assertion reads (matplotlib's drawing was half of test_panel's CPU and of the panel's hint tests'):
# the widgets still get each chart's <img> and its words (alt text), which the leak scans read; only the picture is empty.
# A test that reads a chart draws the real one (test_panel's test_full_hand_through_widgets, test_dehla_pakad_chart_is_per_side).

@pytest.fixture
def chart_pixels_unread(monkeypatch):
    "The scores chart set at each change of the tallies with its words, its pixels not drawn (pictures kept for this test only)."
    import collections
    from cardgames_tutor.ui import charts, drawing
    monkeypatch.setattr(charts, 'chart_png', lambda match, **kw: b'')
    monkeypatch.setattr(drawing, '_charts', collections.OrderedDict())

@pytest.fixture
def hint_pixels_unread(monkeypatch):
    "The hint box given its chart's words and no pixels (it then shows no picture), as a `png` giving b'' gave it."
    import collections
    from cardgames_tutor.ui import coach_view
    monkeypatch.setattr(coach_view, 'drawn_chart', lambda h, pack: (b'', coach_view.hint_words(h, pack)))
    monkeypatch.setattr(coach_view, '_charts', collections.OrderedDict())
