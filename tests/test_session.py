"""The tutor session without any widget: seeded random learners press anything, in any order.

A learner here clicks cards of the hand (lit or not), verbs with whatever is chosen, legal moves,
step buttons, undo and next hand, at random. After every press the session must agree with the
engine (what is lit is what is legal), a refused press must change nothing, every refusal or error
is one line naming its rule or problem, and the bots never move while the learner looks back or
while a finished hand is on screen.
"""
import random
import pytest
from cardgames_tutor.core.engine import games, get_game
from cardgames_tutor.ui.session import Session, sort_actions
from helpers import assert_no_leak

def _sizes():
    "Each game at its default size, then every other size the registry lists."
    return [(name, n) for name, info in games().items()
            for n in (None, *(k for k in info.players if k != get_game(name).n_seats()))]

def _state(s):
    return (len(s.match.actions), s.match.to_act, s.match.hand.phase, len(s.match.hands))

def _check(s):
    "The session agrees with the engine after a press."
    c = s.controls()
    if s.live and s.review is None and not s.match.over and s.match.to_act == s.seat:
        legal = s.match.legal_actions()
        cards, plain, choose = sort_actions(legal, list(s.match.view(s.seat).get('hand') or []))
        assert set(c.cards) == set(cards) and c.plain == plain and set(c.choose) == set(choose)
    else:
        assert c.cards == [] and c.plain == [] and c.choose == {}
    assert not (s.bot_due and (not s.live or s.review is not None))
    if s.message.kind in ('refused', 'error'):
        assert s.message.text and '\n' not in s.message.text and len(s.message.text) < 300, s.message
    if s.message.kind == 'refused': assert s.message.rule
    if s.live and s.review is None: assert_no_leak(s.match, s.seat)  # from the deal and the record, and the game's own rule

@pytest.mark.parametrize('name,players', _sizes())
def test_random_presses(name, players):
    rng = random.Random(f"{name}{players}")
    for seed in range(3):
        s = Session(name, seed=seed, **({'players': players} if players else {}))
        s.run_bots()
        for _ in range(250):
            if s.match.over: break
            before, kind = _state(s), rng.random()
            hand = s.controls().hand or list(s.match.view(s.seat).get('hand') or [])
            if kind < 0.35 and hand:
                card = rng.choice(hand)
                legal_now = card in s.controls().cards
                done = s.click_card(card)
                if not done: assert _state(s) == before
                if legal_now and s.live: assert done and len(s.match.actions) == before[0] + 1
            elif kind < 0.45 and s.controls().choose:
                verb = rng.choice(list(s.controls().choose))
                if not s.choose(verb): assert _state(s) == before
            elif kind < 0.55: s.step_by(rng.choice(['first', 'back', 'forward', 'last']))
            elif kind < 0.6:
                if s.undo(): assert s.match.to_act == s.seat and s.live
                else: assert _state(s) == before
            elif kind < 0.7 and s.review is not None: assert s.next_hand() or s.match.over
            else: s.play_for_me()
            _check(s)
            if s.live: s.run_bots()
            _check(s)


def test_stepping_back_shows_a_past_moment_and_bots_wait():
    s = Session('kocka', seed=4)
    for _ in range(12): s.play_for_me()
    n = len(s.match.actions)
    s.step(n - 5)
    assert not s.bot_due and s.view(s.seat)['to_act'] == s.match.replayed(s.match.actions[:n - 5]).to_act
    assert not s.act(s.match.legal_actions()[0]) and '▶|' in s.message.text
    assert s.bot_step(s.generation) is False and len(s.match.actions) == n
    s.step(None)
    assert s.live


def test_a_record_loads_and_continues():
    s = Session('maghe-satra', seed=6, players=5)
    for _ in range(20): s.play_for_me()
    u = Session('begga-kaat')
    assert u.load_record(s.record_json().encode('utf-8'))
    assert u.match.actions == s.match.actions and u.cursor == 0 and u.seat == 0
    u.step(None)
    assert u.live and not u.match.over  # 20 moves into a match: it goes on from the record
    assert u.play_for_me(3) == 3 and u.match.actions[:len(s.match.actions)] == s.match.actions
    assert len(u.match.actions) > len(s.match.actions)
