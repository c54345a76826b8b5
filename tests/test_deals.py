"""Deals a teacher writes (core/deals.py): in all five games (every variant), constraints made from a real deal are met,
as the test reads the deal itself (not with the module's own `fits`); roles (dealer, first to play, picker, trump
maker); the same seed gives the same deal; constraints that cannot hold are refused at once in one line; junk text is
refused in one line, never a traceback; and the search stops in bounds."""
import random, time
import pytest
from cardgames_tutor.core.registry import games, get_game
from cardgames_tutor.core.actions import Move
from cardgames_tutor.core.match import Match
from cardgames_tutor.core.deals import DealError, constrained_deal

SETUPS = [(name, n) for name, info in games().items() for n in info.players]

def options(name, n) -> dict: return {'players': n} if len(games()[name].players) > 1 else {}

def seat_cards(match, seat) -> set:
    "What the test counts as a seat's: every part of the first deal with a pile per seat, at that seat."
    deal, shape = match.hands[0].deal, match.game.deal_shape()
    return {c for k, v in deal.items() if not isinstance(shape[k], int) for c in v[seat]}

def all_cards(match) -> list:
    deal, shape = match.hands[0].deal, match.game.deal_shape()
    return sorted(c.order for k, v in deal.items() for c in (v if isinstance(shape[k], int) else [x for p in v for x in p]))

def suit_word(game, suit) -> str: return game.pack.suits[suit][0]

@pytest.mark.parametrize('name,players', SETUPS)
def test_constraints_from_a_real_deal_are_met(name, players):
    game, rng = get_game(name, **options(name, players)), random.Random(f"{name}{players}")
    for k in range(6):
        ref = Match(game, seed=1000 + k)  # a deal that meets every constraint made from it: they can all hold
        n = game.n_seats()
        a, b = rng.sample(range(n), 2)
        held_a, held_b = sorted(seat_cards(ref, a), key=lambda c: c.order), sorted(seat_cards(ref, b), key=lambda c: c.order)
        card = rng.choice(held_a)
        suit = rng.choice(held_b).suit
        count = sum(c.suit == suit for c in held_b)
        lacking = rng.choice([c for c in game.deck() if c not in held_a])
        text = f"seat {a} holds {card.code}\nseat {b} has at least {count} {suit_word(game, suit)}\nseat {a} does not hold {lacking.symbol}"
        d = constrained_deal(game, text, seed=k)
        got_a, got_b = seat_cards(d.match, a), seat_cards(d.match, b)
        assert card in got_a and lacking not in got_a, text
        assert sum(c.suit == suit for c in got_b) >= count, text
        assert all_cards(d.match) == sorted(c.order for c in game.deck())  # a deal of the whole pack, nothing twice
        assert d.match.actions == []

@pytest.mark.parametrize('name,players', SETUPS)
def test_the_same_seed_and_constraints_give_the_same_deal_and_another_seed_another(name, players):
    game = get_game(name, **options(name, players))
    card = game.deck()[5]
    deals = [constrained_deal(game, f"seat 1 holds {card.code}", seed=s).match.hands[0].deal for s in (3, 3, 4)]
    assert deals[0] == deals[1] and deals[0] != deals[2]

@pytest.mark.parametrize('name,players', SETUPS)
def test_the_dealer_and_the_first_to_play(name, players):
    game = get_game(name, **options(name, players))
    n = game.n_seats()
    card = game.deck()[-1]
    d = constrained_deal(game, f"seat {n - 1} deals\nthe dealer holds {card.code}", seed=2)
    assert d.match.hands[0].dealer == n - 1 and card in seat_cards(d.match, n - 1)
    d = constrained_deal(game, f"the first to play holds {card.code}", seed=2)
    assert card in seat_cards(d.match, d.match.hands[0].to_act if not d.match.actions else d.match.actions[0][1])

@pytest.mark.parametrize('players', [3, 4, 5])
def test_the_picker_holds_the_six(players):
    game = get_game('beggars-and-thieves', players=players)
    six = game.pack.parse('T6')
    for seed in range(4):
        d = constrained_deal(game, 'the picker holds the six', seed=seed)
        (_, picker, move), = d.match.actions
        assert move == Move('pick') and d.match.hand.phase == 'bury' and d.match.hand.picker == picker
        assert six in d.match.view(picker)['hand']  # the picker's hand, the blind picked up included

def test_the_hejma_and_the_trump_maker():
    d = constrained_deal('kocka', 'Seat 0 holds the Hejma. Seat 2 has 4 hearts.', seed=5)
    hejma = d.match.game.pack.parse('QL')
    assert hejma in seat_cards(d.match, 0) and sum(c.suit == 'H' for c in seat_cards(d.match, 2)) == 4
    d = constrained_deal('dehla-pakad', 'the trump maker has at least 5 spades\nthe trump maker holds 10S', seed=1)
    maker = d.match.hands[0].to_act
    assert any(isinstance(a, Move) and a.verb == 'trump' for a in d.match.legal_actions())
    held = seat_cards(d.match, maker)
    assert sum(c.suit == 'S' for c in held) >= 5 and d.match.game.pack.parse('10S') in held

def test_counts_of_a_rank():
    d = constrained_deal('dehla-pakad', 'seat 1 has 3 tens\nseat 3 has no aces', seed=8)
    assert sum(c.rank == 10 for c in seat_cards(d.match, 1)) == 3 and not any(c.rank == 14 for c in seat_cards(d.match, 3))

IMPOSSIBLE = [('kocka', 'seat 0 holds QL\nseat 1 holds the Hejma', 'both Seat 0 and Seat 1'),
              ('kocka', 'seat 0 has 9 hearts', '8 cards'),
              ('kocka', 'seat 0 has 5 hearts; seat 1 has 4 hearts', 'counts ask for 9'),
              ('kocka', 'the picker holds AH', 'no picker'),
              ('begga-kaat', 'the trump maker holds AH', 'no trump maker'),
              ('kocka', 'seat 0 holds AH; seat 0 does not hold AH', 'another line gives'),
              ('kocka', 'seat 4 holds AH', 'seats 0 to 3'),
              ('kocka', 'seat 0 holds the joker', 'not a card of'),
              ('kocka', 'seat 0 has 3 spades', 'no suit or rank'),
              ('kocka', 'the blind holds AH', 'names no seat'),
              ('kocka', 'seat 0 likes AH', 'cannot read'),
              ('kocka', '', 'no constraint'),
              ('kocka', 'the dealer deals', 'named by seat'),
              ('kocka', 'seat 0 has exactly 8 hearts\nseat 0 holds the Hejma', '1 of them given already'),
              ('kocka', 'seat 2 has at most 1 heart\nseat 2 holds AH KH', 'other lines give Seat 2 2 hearts')]

@pytest.mark.parametrize('name,text,says', IMPOSSIBLE)
def test_what_cannot_be_is_refused_at_once_in_one_line(name, text, says):
    t = time.monotonic()
    with pytest.raises(DealError) as e: constrained_deal(name, text, seed=1, seconds=30)
    assert says in str(e.value) and '\n' not in str(e.value) and len(str(e.value)) <= 300, str(e.value)
    assert time.monotonic() - t < 25  # refused before the search's bound, not at its end (a generous margin: no timing claim)

def test_a_search_that_cannot_succeed_stops_at_its_bound_in_one_line():
    with pytest.raises(DealError) as e:
        constrained_deal('kocka', 'seat 0 has 5 hearts\nseat 0 has 5 leaves', seed=1, tries=200)
    assert 'no deal of Kočka met these constraints in 200 tries' in str(e.value) and '\n' not in str(e.value)
    with pytest.raises(DealError) as e:
        constrained_deal('kocka', 'seat 0 has 5 hearts\nseat 0 has 5 leaves', seed=1, tries=10**9, seconds=0.2)
    assert '(0.2 s)' in str(e.value)

def test_junk_is_refused_in_one_line_never_a_traceback():
    rng = random.Random(4)
    alphabet = 'seat 0123 holds has at least no the Hejma :;,.\n QLAH10♥🍃 picker blind dealer deals does not ' + '\x00\u202e<>'
    for _ in range(400):
        text = ''.join(rng.choice(alphabet) for _ in range(rng.randrange(1, 60)))
        for name in ('kocka', 'beggars-and-thieves'):
            try: constrained_deal(name, text, seed=1, tries=50, seconds=0.5)
            except DealError as e: assert '\n' not in str(e) and len(str(e)) <= 300
    words = ['seat', '0', '1', '3', '9', 'holds', 'has', 'at', 'least', 'most', 'exactly', 'no', 'four', 'hearts', 'tens',
             'the', 'Hejma', 'six', 'picker', 'dealer', 'blind', 'stock', 'deals', 'does', 'not', 'hold', ':', ';', ',',
             'and', 'QL', 'T6', 'AH', '10♥', 'of', 'thieves', 'first', 'to', 'play', 'trump', 'maker', '\n', '.']
    for _ in range(1500):
        text = ' '.join(rng.choice(words) for _ in range(rng.randrange(1, 12)))
        for name, players in (('kocka', 4), ('beggars-and-thieves', 5), ('maghe-satra', 3), ('dehla-pakad', 4)):
            try: constrained_deal(name, text, seed=1, tries=30, seconds=0.2, **options(name, players))
            except DealError as e: assert '\n' not in str(e) and len(str(e)) <= 300
    for bad in (None, 7, ['seat 0 holds AH'], 'x' * 6000):
        with pytest.raises(DealError): constrained_deal('kocka', bad)
