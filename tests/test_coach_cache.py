"""The shared hint cache: one class on one seed searches each moment once, keyed by the seat's view and never by the
hidden deal; sessions asking together wait for one search; another seed or budget is another search."""
import random, threading, time
from cardgames_tutor.core.engine import deal_cards
from cardgames_tutor.core.registry import get_game
from cardgames_tutor.core.match import Match, play_out
from cardgames_tutor.coach import search as coach

B = 0.05


def session(game, seed, stop=(0,)):
    "A learner's match on `seed`, played by bots up to Seat 0's first turn (as a class on one seed reaches it)."
    m = Match(game, seed=seed)
    play_out(m, stop_at=stop)
    return m


def twin(game, hand, seat):
    "A hand at the same moment, the cards `seat` cannot see dealt among the other seats again (same counts)."
    deal = {k: [list(p) for p in v] if v and isinstance(v[0], list) else list(v) for k, v in hand.deal.items()}
    others = [s for s in range(game.n_seats()) if s != seat]
    pool = [c for s in others for c in deal['hands'][s]]
    random.Random(5).shuffle(pool)
    for s in others: deal['hands'][s], pool = pool[:len(deal['hands'][s])], pool[len(deal['hands'][s]):]
    return game.new_hand(deal, hand.dealer)


def test_sessions_share_one_search(monkeypatch):
    game = get_game('dehla-pakad')
    a, b = session(game, 7), session(game, 7)
    calls = []
    real = coach.searched
    monkeypatch.setattr(coach, 'searched', lambda *x: calls.append(1) or real(*x))
    coach._hints.clear()
    ha, hb = coach.hint(a.view(0), game, 7, B), coach.hint(b.view(0), game, 7, B)
    assert ha is hb and len(calls) == 1  # two sessions, one search
    assert coach.hint(a.view(0), game, 8, B) is not ha and len(calls) == 2  # another seed: another search
    assert coach.hint(a.view(0), game, 7, B * 2) is not ha and len(calls) == 3  # another budget too


def test_key_is_the_view_not_the_deal():
    "Two deals that look the same to Seat 0 give the same key (and hint); the deal behind it is not part of it."
    game = get_game('begga-kaat')
    hand = game.new_hand(deal_cards(game, random.Random(3)), 3)  # Seat 0 leads
    other = twin(game, hand, 0)
    assert other.hands[1] != hand.hands[1] and other.hands[0] == hand.hands[0]
    va, vb = hand.view(0), other.view(0)
    actions = coach.candidates(va, game)
    assert coach.hint_key(va, game, 1, B, actions) == coach.hint_key(vb, game, 1, B, actions)
    coach._hints.clear()
    assert coach.hint(va, game, 1, B) is coach.hint(vb, game, 1, B)
    assert coach.hint_key(hand.view(1), game, 1, B, actions) != coach.hint_key(va, game, 1, B, actions)  # another seat's view


def test_together_one_search(monkeypatch):
    "Sessions asking for the same moment at once wait for the one search under way: it runs once, all get its answer."
    game = get_game('kocka')
    view = session(game, 4).view(0)
    calls, real = [], coach.searched
    def slow(*x):
        calls.append(1); time.sleep(0.2)
        return real(*x)
    monkeypatch.setattr(coach, 'searched', slow)
    coach._hints.clear()
    got = [None] * 8
    def ask(i): got[i] = coach.hint(dict(view), game, 4, B)
    threads = [threading.Thread(target=ask, args=(i,)) for i in range(8)]
    for t in threads: t.start()
    for t in threads: t.join()
    assert len(calls) == 1 and all(g is got[0] for g in got) and got[0] is not None
    assert not coach._making  # nothing left marked as under way


def test_failed_search_is_not_kept(monkeypatch):
    "A search that fails is not kept and does not block the next asker."
    game = get_game('kocka')
    view = session(game, 5).view(0)
    coach._hints.clear()
    monkeypatch.setattr(coach, 'searched', lambda *x: 1 / 0)
    try: coach.hint(view, game, 5, B)
    except ZeroDivisionError: pass
    monkeypatch.undo()
    assert not coach._making and coach.hint(view, game, 5, B) is not None
