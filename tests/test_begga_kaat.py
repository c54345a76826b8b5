"""Begga Kaat: 2,000 seeded random games for each player count with every invariant; rules; bad input."""
import random, pytest
from collections import Counter
from cardgames_tutor.core.cards import FRENCH, in_order
from cardgames_tutor.core.engine import IllegalAction, check_deal
from cardgames_tutor.core.options import BadOption
from cardgames_tutor.core.match import Match, play_out, random_choice
from cardgames_tutor.games.begga_kaat import BeggaKaat, penalty
from cardgames_tutor.core.records import to_record, load
from helpers import assert_no_leak, random_match

def check_match(m, game):
    "Every invariant of a finished Begga Kaat match."
    n = game.players
    assert m.over
    for h in m.hands:
        dealt = [c for hand in h.deal['hands'] for c in hand]
        assert in_order(dealt) == in_order(game.deck())  # cards conserved: each in play exactly once
        assert len(h.tricks) == 52 // n
        for t in h.tricks:  # one card per seat per trick, each seat once, in play order from the leader
            assert len(t.cards) == n and sorted(t.seats) == list(range(n))
            assert list(t.seats) == [(t.leader + k) % n for k in range(n)]
            led = t.cards[0].suit
            assert t.cards[t.seats.index(t.winner)].rank == max(c.rank for c in t.cards if c.suit == led)
        played = [c for t in h.tricks for c in t.cards]
        assert in_order(played) == in_order(dealt)
        assert sum(h.points) == 53  # 53 points every round
        assert h.points == [sum(penalty(c) for t in h.tricks if t.winner == s for c in t.cards) for s in range(n)]
    assert m.standing['totals'] == [sum(x) for x in zip(*m.standing['hands'])]
    totals = m.standing['totals']
    assert max(totals) >= game.target
    # the game ended as soon as someone reached the target, not before and not later
    running = [0] * n
    for k, pts in enumerate(m.standing['hands']):
        running = [a + b for a, b in zip(running, pts)]
        assert (max(running) >= game.target) == (k == len(m.standing['hands']) - 1)
    assert m.standing['losers'] == [s for s in range(n) if totals[s] >= game.target]

@pytest.mark.parametrize('players', [3, 4])
def test_2000_random_games(players):
    game = BeggaKaat(players=players)
    for seed in range(2000):
        m = random_match(game, seed)
        check_match(m, game)
        if seed % 10 == 0:  # saving then replaying gives the same result
            again = load(to_record(m))
            assert again.standing == m.standing and len(again.hands) == len(m.hands)

@pytest.mark.parametrize('players', [3, 4])
def test_seat_to_act_always_has_a_legal_action_and_views_never_leak(players):
    game = BeggaKaat(players=players)
    for seed in range(30):
        m, rng = Match(game, seed=seed), random.Random(seed)
        while not m.over:
            legal = m.legal_actions()
            assert legal and all(m.explain(a).legal for a in legal)
            hand = m.hand.hands[m.to_act]
            assert all(not m.explain(c).legal for c in hand if c not in legal)
            for seat in range(players): assert_no_leak(m, seat)
            m.apply(rng.choice(legal))

def test_bot_plays_legal_whole_matches():
    for seed in range(50):
        check_match(play_out(Match(BeggaKaat(players=3 + seed % 2), seed=seed)), BeggaKaat(players=3 + seed % 2))

def test_bot_sheds_the_paan_begam_when_void():
    game = BeggaKaat()
    hands = [FRENCH.parse_many(h) for h in ('AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S', 'QH AH KH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H',
                                            'AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D', 'AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C')]
    h = game.new_hand(check_deal(game, {'hands': hands}), dealer=3)
    h.apply('2S')
    assert str(game.bot(h.view(1), random.Random(0))) == 'QH'  # kaat: the worst penalty card goes

def test_three_players_remove_the_chosen_two():
    for two in ('2C', '2D', '2S'):
        game = BeggaKaat(players=3, removed_two=two)
        m = Match(game, seed=1)
        dealt = {c for hand in m.hand.deal['hands'] for c in hand}
        assert FRENCH.parse(two) not in dealt and len(dealt) == 51 and FRENCH.parse('2H') in dealt
        assert all(len(hand) == 17 for hand in m.hand.deal['hands'])

def test_first_dealer_is_the_first_jack():
    for seed in range(50):
        m = Match(BeggaKaat(), seed=seed)
        text = next(e.text for e in m.events() if e.kind == 'dealer')
        falls = text.split(': ', 1)[1].split('. ')[0].split(', ')
        assert all(f.split()[-1][:-1] != 'J' for f in falls[:-1]) and falls[-1].split()[-1][:-1] == 'J'
        assert falls[-1].startswith(f"Seat {m.first_dealer} ")
        assert m.hand.to_act == (m.first_dealer + 1) % 4  # the dealer's left leads

def test_highest_total_deals_next():
    m = Match(BeggaKaat(), seed=9)
    while len(m.hands) < 3: m.apply(m.legal_actions()[0])
    totals = [sum(x) for x in zip(*m.standing['hands'])]
    assert totals[m.hand.dealer] == max(totals)

def test_exactly_the_target_loses_and_several_lose_together():
    game = BeggaKaat()
    class FakeHand:  # settle reads only points and the dealer
        def __init__(self, points): self.points, self.dealer = points, 0
    class M: pass
    m = M(); m.standing = game.new_standing(); m.standing['totals'] = [47, 99, 80, 40]
    _, _, over = game.settle(FakeHand([53, 0, 0, 0]), m)
    assert over and m.standing['losers'] == [0] and m.standing['places'] == [None, 3, 2, 1]  # 40 first, then 80, then 99
    m.standing = game.new_standing(); m.standing['totals'] = [90, 90, 10, 20]
    events, _, over = game.settle(FakeHand([11, 10, 10, 22]), m)
    assert over and m.standing['losers'] == [0, 1] and 'lose together' in events[-1].text
    m.standing = game.new_standing(); m.standing['totals'] = [10, 20, 30, 0]
    _, dealer, over = game.settle(FakeHand([0, 10, 0, 43]), m)
    assert not over and dealer == 3  # 43 is the highest total (10, 30, 30, 43)

def test_bad_input_gets_a_clear_error_and_changes_nothing():
    game = BeggaKaat()
    m = Match(game, seed=5)
    seat = m.to_act
    other = next(c for s, h in enumerate(m.hand.hands) if s != seat for c in h)
    before = (len(m.actions), [list(h) for h in m.hand.hands], len(m.events()))
    for bad, words in [(other, 'does not hold'), ('ZZ', "Unknown card 'ZZ'"), ('1H', 'Unknown card')]:
        with pytest.raises(IllegalAction, match=words): m.apply(bad)
    with pytest.raises(IllegalAction, match="turn"): m.apply(m.legal_actions()[0], seat=(seat + 1) % 4)
    assert before == (len(m.actions), [list(h) for h in m.hand.hands], len(m.events()))
    m.apply(m.legal_actions()[0])
    nxt = m.to_act
    wrong = [c for c in m.hand.hands[nxt] if c not in m.legal_actions()]
    if wrong:
        with pytest.raises(IllegalAction, match='must follow the led colour') as e: m.apply(wrong[0])
        assert e.value.verdict.rule == 'begga-kaat/follow'
    for opts, words in [({'players': 2}, 'players=2'), ({'removed_two': '2H'}, 'never 2H'), ({'target': 99}, 'target=99'),
                        ({'target': '100'}, 'target='), ({'jokers': 1}, "unknown option 'jokers'")]:
        with pytest.raises(BadOption, match=words): BeggaKaat(**opts)


# ---------------------------------------------------------------- what the learner's rulebook says

import json, re
RULEBOOK = 'games/10_begga_kaat.ipynb'


from helpers import rulebook_prose

def test_the_rulebooks_prose_shows_typing_in_quotes_and_no_code_words():
    """The learner's rulebook said 'A `Match` plays hand after hand' and 'it is the module's function `bot`' (code words,
    drawn as code): the match is said in words, the note on the bot is for programmers (the code page), no code word is left."""
    prose = rulebook_prose(RULEBOOK)
    assert not re.findall(r"`[^`]+`|\bmodule\b|\bfunction\b", prose), re.findall(r".{40}(?:`[^`]+`|\bmodule\b|\bfunction\b).{20}", prose)
