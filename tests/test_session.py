"""The tutor session without any widget: seeded random learners press anything, in any order.

A learner here clicks cards of the hand (lit or not), verbs with whatever is chosen, legal moves,
step buttons, undo and next hand, at random. After every press the session must agree with the
engine (what is lit is what is legal), a refused press must change nothing, every refusal or error
is one line naming its rule or problem, and the bots never move while the learner looks back or
while a finished hand is on screen.
"""
import random
import pytest
from cardgames_tutor.core.registry import games, get_game
from cardgames_tutor.ui.session import Session
from cardgames_tutor.ui.session_data import sort_actions
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


def test_a_hand_over_as_dealt_is_shown_before_play():
    "Maghe Satra for seven, seed 1: hands 1 and 2 end as dealt (a 17 shown); each is told and waits for “next hand”."
    s = Session('maghe-satra', seed=1, players=7)
    assert [h.is_over for h in s.match.hands] == [True, True, False] and not s.match.actions  # the deal's own doing
    assert s.review == 0 and s.message.kind == 'result' and s.message.text.startswith('Hand 1 is over.') and not s.bot_due
    assert s.next_hand() and s.review == 1 and s.message.text.startswith('Hand 2 is over.')
    assert s.next_hand() and s.review is None and s.message.text == 'Hand 3 is dealt.'
    assert s.deal(seed=1) and s.review == 0 and 'Hand 1 is over.' in s.message.text  # a new deal says it too


def test_every_hand_over_before_the_learners_turn_is_shown():
    "Over many seeds of Maghe Satra for seven, no finished hand passes without the learner seeing it."
    for seed in range(40):
        s, seen = Session('maghe-satra', seed=seed, players=7), set()
        for _ in range(200):
            if s.match.over: break
            if s.review is not None: seen.add(s.review); s.next_hand(); continue
            if s.bot_due: s.bot_move(); continue
            s.act(s.game.bot(s.match.view(s.seat), s.rng))
        if s.review is not None: seen.add(s.review)  # on screen when the loop stopped
        done = [i for i, h in enumerate(s.match.hands) if h.is_over]
        assert set(done) <= seen | ({done[-1]} if s.match.over else set()), (seed, done, seen)


def test_snear_face_up_row_stays_when_looking_back():
    "Snear: the learner's face-up cards are in the row of cards at every moment, stepped back or not, its turn or not."
    s = Session('beggars-and-thieves', seed=3, players=2)
    for _ in range(6): s.play_for_me()
    for k in range(len(s.match.actions) + 1):
        s.step(k)
        m = s.shown()
        up = [c for c in m.hand.playable(0) if c not in m.hand.hands[0]]
        assert up and set(up) <= set(s.controls().hand), (k, up, s.controls().hand)
    s.step(None)


def test_the_leaster_is_told_before_the_last_pass():
    "Beggars and Thieves: when everyone else has passed, the learner's pass says it makes a Leaster; pressed, it does."
    for seed in range(60):
        s = Session('beggars-and-thieves', seed=seed, players=3)
        s.run_bots()
        if s.match.hand.phase == 'blind' and len(s.match.hand.passed) == 2: break
    notes = dict(s.move_notes())  # each button as a learner says it: 'pass (leave the blind)', 'pick up the blind'
    assert 'Leaster' in notes['pass (leave the blind)'] and 'Leaster' not in notes['pick up the blind']
    pass_move = next(m for m in s.controls().plain if m.verb == 'pass')
    assert s.act(pass_move) and s.match.hand.leaster and 'Leaster' in s.message.text


def test_the_sessions_own_words_write_cards_as_the_buttons_do():
    "“You picked up the blind …”, “You named clubs trumps …” and “Chosen: …” say moves as a learner says them, cards as their `words` read."
    s = Session('beggars-and-thieves', seed=5, players=3)
    pick = next(m for m in s.controls().plain if m.verb == 'pick')
    assert s.act(pick) and s.message.text.startswith('You picked up the blind:')
    card = next(c for c in s.controls().hand if c in s.controls().lit)  # one that may be buried (a faded one is refused)
    s.click_card(card)
    assert s.message.text.startswith(f"Chosen: {card.rank} ") and card.code not in s.message.text.split()
    d = Session('dehla-pakad', seed=9)
    d.run_bots()
    for _ in range(60):
        trump = [m for m in d.controls().plain if getattr(m, 'verb', '') == 'trump']
        if trump: break
        d.play_for_me(bots=True)
    assert trump  # seed 9: Seat 0 names trump in its first hand
    assert d.act(trump[0]) and d.message.text.startswith(f"You named {d.game.pack.suits[trump[0].arg][0]} trump: "), d.message.text

def test_a_hand_with_one_loser_says_who_lost_not_who_did_best():
    "Kočka gives one letter a hand: the end of a hand names the loser ('Only Seat 2 added to the letters'), not a 'best'."
    import random
    s = Session('kocka', seed=3)
    while not s.match.tallies: s.match.apply(s.game.bot(s.match.view(s.match.to_act), random.Random(1)))
    loser = next(i for i, (a, b) in enumerate(zip(s.match.tallies[0], [0] * 4)) if a)
    words = s.best_words(0)
    assert words.startswith(f"Only Seat {loser}") and 'added to the letters this hand: 1 more. Everyone else added nothing.' in words
    assert 'Best this hand' not in words


def test_dehla_pakad_says_what_each_side_added():
    "Dehla Pakad's end of a deal counts the deals won per side, named as the scores name them ('1 by you and Seat 2, 0 by Seats 1 and 3')."
    from cardgames_tutor.core.contracts import seats_text
    for seat in (0, 1):
        s = Session('dehla-pakad', seed=3, seat=seat)
        while not s.match.tallies: s.play_for_me()
        words, won = s.best_words(0), s.match.standing['deals_won']
        sides = [seats_text(team, seat) for team in s.match.standing['teams']]
        assert f"Added to the deals won by the side: {won[0]} by {sides[0]}, {won[1]} by {sides[1]} (more is better)." in words, words
        assert 'Best this' not in words and f"{seats_text(s.match.standing['teams'][won.index(1)], seat)}" in s.hand_over_text(0)  # the deal's result has named the winning side: said once


@pytest.mark.parametrize('name', list(games()))
def test_the_status_line_says_a_hand_is_over_once(name):
    """At the end of each hand, and of the match, the status line says so once ('hand 1 is over', in the game's word),
    never twice ('the deal is over · deal 1 is over'), the phase's words and the turn's saying the same thing."""
    from cardgames_tutor.core.words import in_game_words
    s, ends = Session(name, seed=2), 0
    while not s.match.over and ends < 3:
        while s.review is None and not s.match.over: s.play_for_me(bots=False) or s.run_bots()
        text, i = s.status().text, s.review
        assert text.count(' over') == 1, text
        if not s.match.over: assert text.endswith(in_game_words(f"hand {i + 1} is over", s.game)), text
        ends += 1
        s.next_hand()


def test_a_long_seed_is_said_as_the_hands_export_writes_it():
    """The hands export writes a long seed in fours ('12 3456 7890'), but the status line and the new-deal message said
    'seed 1234567890', and a link with the seed as written ('?seed=12 3456 7890') was refused as 'not a number'. All
    three now read and say it as written."""
    from cardgames_tutor.ui.session_data import parse_link
    s = Session('kocka', seed=1234567890)
    assert 'seed 12 3456 7890' in s.status().facts, s.status().facts
    assert s.deal(9876543210, 'kocka') and s.message.text.startswith('A new deal of Kočka with seed 98 7654 3210.'), s.message
    link = parse_link('game=kocka&seed=7 9228 1625 1426 4337 5935 4393 7991')
    assert link.seed == 2 ** 96 - 12345 and not link.notes, link
