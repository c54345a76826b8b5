"""pytest's set-up for tests/: the helpers importable, the `slow` mark for `make quick`, and shards for `make test`.

- `slow`: a test that takes seconds, not a fraction of one (property tests over thousands of hands, every verdict
  of every phase, the docs site). `make quick` leaves these and the browser tests out; `make test` runs everything.
  The list is here, by name, so that the test files stay as they are; `--durations` in `make test` shows when it
  needs changing.
- `--shard K/N`: run only the K-th of N shares of the test files (whole files: a module's server or browser is
  started once). `tests/shards.py` runs the N shares side by side; the shares are balanced by `WEIGHTS`.
"""
import sys, pathlib
sys.path.insert(0, str(pathlib.Path(__file__).parent))
import pytest

SLOW = ('test_2000_', 'random_games', 'random_hands', 'random_deals', 'views_never_leak', 'no_view_leaks', 'leaks_nothing',
        'test_every_verdict_agrees', 'test_illegal_actions_change_nothing', 'test_random_presses', 'test_full_hand_through_widgets',
        'test_views_results_standings_and_tallies', 'brute_force', 'test_matches_end_at_the_target', 'test_bot_',
        'test_verdicts_agree_with_the_legal_actions', 'test_beggars_and_thieves_score_leaster', 'test_kocka_loser_tie',
        'test_review_worst_first', 'test_nothing_leaks_to_the_browser', 'test_cards_drawn_as_cards', 'test_review_reasons_set',
        'test_hint_text_and_chart_show_no_hidden_card', 'test_any_json_anywhere', 'damaged_records',
        'wheel', 'test_commands_import_no', 'test_the_live_panel_comes_first', 'test_a_tutorial_fits')

# seconds per file under `make test` on a loaded 2-core machine (from `--durations=0`: `python tests/shards.py --weights LOG`);
# a file not listed weighs 10. The property tests' files rescaled from a run on a machine loaded by other work (6 Dec)
WEIGHTS = {'test_engine_rules.py': 150, 'test_classroom.py': 70, 'test_drills.py': 95, 'test_panel.py': 200,
           'test_begga_kaat.py': 25, 'test_maghe_satra.py': 35, 'test_browser.py': 22, 'test_kocka.py': 18,
           'test_engine_contracts.py': 24, 'test_docs.py': 20, 'test_coach.py': 15, 'test_records_cli.py': 9,
           'test_fuzz_cli.py': 11, 'test_session.py': 9, 'test_exercises.py': 9, 'test_fuzz_records.py': 9,
           'test_beggars_and_thieves.py': 8, 'test_dehla_pakad.py': 7, 'test_fuzz_continuation.py': 7,
           'test_wheel.py': 15, 'test_light_core.py': 15, 'test_record_schema.py': 15,
           'test_hub.py': 100, 'test_drill_truth.py': 90, 'test_drill_truth_more.py': 55, 'test_access.py': 40,
           'test_seat.py': 30, 'test_tutorials.py': 40, 'test_drill_sentences.py': 75, 'test_tables.py': 30,
           'test_coach_truth.py': 20, 'test_classroom_attacks.py': 70, 'test_hub_service.py': 80, 'test_hub_lti.py': 60, 'test_hub_classes.py': 60,
           'test_classroom_tables.py': 100, 'test_classroom_tables_games.py': 120, 'test_engine_bot_view.py': 8,
           'test_coach_alike.py': 5, 'test_coach_race.py': 15, 'test_hostile_student.py': 100,
           'test_instructions.py': 30, 'test_coach_numbers.py': 75, 'test_tutor_links.py': 150,
           'test_learner_pages.py': 15, 'test_no_code_on_screen.py': 60, 'test_teacher_browser.py': 90}

# the files that read the built site (tests/helpers.py): `tests/shards.py --site` runs them last in their share
SITE_FILES = ('test_docs.py', 'test_site_says.py', 'test_learner_pages.py', 'test_tutorials.py')

def pytest_addoption(parser):
    parser.addoption('--shard', default=None, metavar='K/N', help='run only the K-th of N shares of the test files (1-based)')

# files that go into one share together: the hubs' tests make one Python for students' accounts (a lock: a second
# share would wait for the first to make it) and start a hub each, one at a time rather than side by side
TOGETHER = [('test_hub.py', 'test_hub_service.py', 'test_hub_lti.py', 'test_hub_classes.py')]

def shares(files, n) -> list:
    "The files in `n` shares of about equal weight: the heaviest first (a `TOGETHER` group as one), each into the lightest share so far."
    units = [[f for f in group if f in files] for group in TOGETHER]
    units = [u for u in units if u] + [[f] for f in files if not any(f in group for group in TOGETHER)]
    weight = lambda fs: sum(WEIGHTS.get(f, 10) for f in fs)
    out = [[] for _ in range(n)]
    for unit in sorted(units, key=lambda u: (-weight(u), u)):
        min(out, key=weight).extend(unit)
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
