"""The coach's searches in worker processes (`search_in_processes`, the classroom server's `--hint-workers`): the same
hints as searched in the caller's thread, in every variant, with a class's worth asking at once from threads; a worker
that dies costs no hint (the search is made in the caller's thread, and new workers are started for the next one);
a hint's chart is drawn there too, the same picture; 0 workers searches in the caller's thread again, and a wrong
number is refused in one line."""
import os, signal, threading
import pytest
from cardgames_tutor.core.registry import get_game
from cardgames_tutor.coach import search as coach
from test_coach_race import IDS, VARIANTS, views

B = 0.05

def said(h):
    "All a hint says: its choice, every action's value and figures, its deals and its reasons."
    return h.best, h.ranked, h.deals, h.reasons, h.label, h.main

@pytest.fixture
def workers():
    coach.search_in_processes(2)
    coach._hints.clear()
    try: yield
    finally:
        coach.search_in_processes(0)
        coach._hints.clear()

def here(view, game, seed):
    "The hint searched in this thread, nothing kept."
    return coach.searched(view, game, seed, B, coach.candidates(view, game))

def test_workers_give_the_same_hints_as_this_thread_in_every_variant_a_class_asking_at_once(workers):
    asked = [(get_game(name, **opts), view, seed) for name, opts in VARIANTS for seed, view in enumerate(views(get_game(name, **opts), 3, 7))]
    got = [None] * len(asked)
    def ask(i):
        game, view, seed = asked[i]
        got[i] = coach.hint(view, game, seed, B)
    threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(asked))]
    for t in threads: t.start()
    for t in threads: t.join()
    assert coach._pool is not None and len(coach._pool._processes) == 2  # searched in the two workers
    for (game, view, seed), h in zip(asked, got):
        assert said(h) == said(here(view, game, seed)), (game, seed)

def test_a_dead_worker_costs_no_hint_and_is_replaced(workers):
    game = get_game('begga-kaat')
    a, b, c = views(game, 3, 11)
    assert said(coach.hint(a, game, 1, B)) == said(here(a, game, 1))
    pool = coach._pool
    for pid in list(pool._processes): os.kill(pid, signal.SIGKILL)
    assert said(coach.hint(b, game, 1, B)) == said(here(b, game, 1))  # the pool broke: searched in this thread
    assert coach._pool is None
    assert said(coach.hint(c, game, 1, B)) == said(here(c, game, 1))  # new workers
    assert coach._pool is not None and coach._pool is not pool

def test_no_workers_searches_here_and_a_wrong_number_is_refused():
    coach.search_in_processes(0)
    game = get_game('kocka')
    (v,) = views(game, 1, 3)
    coach._hints.clear()
    assert said(coach.hint(v, game, 2, B)) == said(here(v, game, 2)) and coach._pool is None
    for wrong in (-1, 1.5, '2'):
        with pytest.raises(ValueError, match=r"^workers is a whole number, 0 \(search in this process\) or more, not"):
            coach.search_in_processes(wrong)
    assert coach._pool_size == 0

def test_a_hints_chart_is_drawn_in_a_worker_the_same_picture(workers):
    from cardgames_tutor.ui import coach_view as box
    game = get_game('dehla-pakad')
    (v,) = views(game, 1, 5)
    h = coach.hint(v, game, 1, B)
    box._charts.clear()
    got = box.chart_of(h, game.pack)
    assert coach._pool is not None and got == box.drawn_chart(h, game.pack) and got[0].startswith(b'\x89PNG')
    assert box.chart_of(h, game.pack) is got  # kept: drawn once
