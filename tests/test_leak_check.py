"""The leak check itself (tests/helpers.py): it must catch a card planted in a seat's view, in every game.

`assert_no_leak` derives what a seat may see from the deal and the public record (`may_see`), not from
the game's own `hidden_cards`; so each planted leak here is planted with `hidden_cards` switched off
(saying nothing is hidden), and the check must still fail. Each game's typical secret is planted at
the moment it is secret: another seat's hand, the blind, the buried cards, passed cards before they
are handed over, the eight cards Dehla Pakad deals after trump, a face-down card, the next card of the stock.
"""
import random
import pytest
from cardgames_tutor.core.engine import Event
from cardgames_tutor.core.registry import games, get_game
from cardgames_tutor.core.actions import Move
from cardgames_tutor.core.match import Match
from helpers import assert_no_leak, cards_in, may_see, sign_in

def _setups():
    return [(name, n) for name, info in games().items() for n in info.players]

def _game(name, n):
    return get_game(name, **({'players': n} if len(games()[name].players) > 1 else {}))

def _until(m, done, rng, limit=400):
    "Play `m` at random until `done(m)`; the match (at that moment)."
    for _ in range(limit):
        if done(m): return m
        assert not m.over, "the moment never came"
        m.apply(rng.choice(m.legal_actions()))
    raise AssertionError("the moment never came")

def _plant(monkeypatch, m, card, where):
    "Make `m`'s hand show `card` to every seat (a card in its view, or written in an event), its `hidden_cards` blind."
    hand, orig = m.hand, m.hand.view
    if where == 'value': monkeypatch.setattr(hand, 'view', lambda seat=None, text=True: {**orig(seat, text), 'planted': card})
    else: monkeypatch.setattr(hand, 'events', [*hand.events, Event('note', f"A card slips out: {card}.")])
    monkeypatch.setattr(hand, 'hidden_cards', lambda seat: set())

def _caught(monkeypatch, m, seat, card):
    "Unplanted, the view of `seat` passes the check; with `card` planted (as a value, or in a text), it fails."
    assert card not in may_see(m.hand, seat)
    assert_no_leak(m, seat)
    for where in ('value', 'text'):
        with monkeypatch.context() as mp:
            _plant(mp, m, card, where)
            with pytest.raises(AssertionError, match=f"leaks \\['{card}'\\]"): assert_no_leak(m, seat)


@pytest.mark.parametrize('name,players', _setups())
def test_another_seats_card_is_caught(monkeypatch, name, players):
    m = Match(_game(name, players), seed=2)
    seat = (m.to_act + 1) % m.game.n_seats()
    other = next(c for s, h in enumerate(m.hand.deal.get('hands') or m.hand.deal['down']) if s != seat for c in h)
    _caught(monkeypatch, m, seat, other)


def test_dehla_pakad_the_eight_cards_dealt_after_trump(monkeypatch):
    m = Match(get_game('dehla-pakad'), seed=3)
    assert m.hand.phase == 'trump'
    for seat in range(4): _caught(monkeypatch, m, seat, m.hand.deal['hands'][seat][5])  # its own, not yet dealt

def test_kocka_passed_cards_before_they_are_handed_over(monkeypatch):
    m = Match(get_game('kocka'), seed=4)
    giver = m.to_act
    m.apply(m.legal_actions()[0])
    passed = next(a for s, a in m.hand.history if s == giver)
    _caught(monkeypatch, m, (giver + 1) % 4, passed.cards[0])  # its receiver has not passed yet

@pytest.mark.parametrize('players', [3, 4, 5])
def test_beggars_and_thieves_the_blind_and_the_buried(monkeypatch, players):
    m = Match(get_game('beggars-and-thieves', players=players), seed=5)
    for seat in range(players): _caught(monkeypatch, m, seat, m.hand.deal['blind'][0])
    _until(m, lambda m: any(isinstance(a, Move) and a.verb == 'bury' for _, a in m.hand.history), random.Random(5))
    picker, bury = next((s, a) for s, a in m.hand.history if isinstance(a, Move) and a.verb == 'bury')
    for seat in range(players):
        if seat != picker: _caught(monkeypatch, m, seat, bury.cards[0])

def test_snear_a_face_down_card_still_covered(monkeypatch):
    m = Match(get_game('beggars-and-thieves', players=2), seed=6)
    for seat in (0, 1): _caught(monkeypatch, m, seat, m.hand.deal['down'][1 - seat][0])
    _caught(monkeypatch, m, 0, m.hand.deal['down'][0][0])  # its own too: it lies face down under a face-up card

def test_maghe_satra_the_stock_and_the_face_down_cards(monkeypatch):
    m = Match(get_game('maghe-satra', players=4), seed=7)
    h = m.hand
    for seat in range(4):
        _caught(monkeypatch, m, seat, h.deal['stock'][h.dealt])  # the next card to be dealt
        _caught(monkeypatch, m, seat, h.deal['down'][(seat + 1) % 4][0])

def test_a_card_a_rule_names_is_told_from_a_card_seen(monkeypatch):
    """Beggars and Thieves' sentences name the partner card in the learner's notation ("whoever holds the 6 Thief", "the
    holder of the 7 Thief"): a rule's card, placed nowhere, so not a leak. The same card written where it places the
    card ("Seat 3 holds the 6 Thief", a card slipping out) is still caught, for every seat that may not know it."""
    from helpers import cards_in, named_only
    m = Match(get_game('beggars-and-thieves', players=5), seed=5)
    pack, six = m.game.pack, m.game.pack.parse('T6')
    assert cards_in("Seat 1 plays with a partner: whoever holds the 6 Thief (the partner card).", pack) == set()
    assert cards_in("Seat 1 calls the holder of the 7 Thief as partner.", pack) == set()
    assert cards_in("Only a picker who holds the 6 Thief may call a partner: say partner or alone.", pack) == set()
    assert cards_in("Seat 3 holds the 6 Thief: Seat 3 is Seat 1's secret partner.", pack) == {six}
    assert cards_in("Seat 1 calls the holder of the 7 Thief as partner: only the holder of the 6 Thief may call.", pack) == set()
    assert named_only("whoever holds the 6 Thief, and Seat 2 holds the 6 Thief", pack).count('6 Thief') == 1
    from cardgames_tutor.ui.table import cards_text_html
    html = cards_text_html("Whoever holds the 6 Thief is your partner; Seat 2 holds the 5 Thief.", pack)  # as the pages draw it: mini cards
    assert 'data-card="T6"' in html and 'data-card="T6"' not in named_only(html) and 'data-card="T5"' in named_only(html)
    holder = next(s for s, h in enumerate(m.hand.deal['hands']) if six in h)
    for seat in (s for s in range(5) if s != holder):
        with monkeypatch.context() as mp:  # the rule's own sentence, to every seat: no leak
            mp.setattr(m.hand, 'events', [*m.hand.events, Event('note', "Whoever holds the 6 Thief is the picker's partner.")])
            assert_no_leak(m, seat)
        with monkeypatch.context() as mp:  # where it is, in words: caught
            mp.setattr(m.hand, 'events', [*m.hand.events, Event('note', f"Seat {holder} holds the 6 Thief.")])
            mp.setattr(m.hand, 'hidden_cards', lambda seat: set())
            with pytest.raises(AssertionError, match=r"leaks \['6 Thief'\]|leaks \['T6'\]"): assert_no_leak(m, seat)


def test_a_two_word_sign_split_by_markup_is_caught():
    """A Beggars and Thieves card written by its sign in a page's HTML, its two words apart in markup ('<b>6</b> Thief'),
    is a card named: the classroom's and the panel's scans read HTML. A longer number, a plural or a count is not it."""
    pack = _game('beggars-and-thieves', 5).pack
    six = pack.parse('6 Thief')
    for page in ('<b>6</b> Thief', '6 <b>Thief</b>', '<span>6</span><span>Thief</span>', '6&nbsp;Thief', 'the <i>6</i>\n  Thief.'):
        assert cards_in(page, pack) == {six} and sign_in(six.symbol, set(), page), page
    for page in ('<b>16</b> Thief', '6 <b>Thieves</b>', '<b>6</b> Thief Thieves', '6<br>'):
        assert six not in cards_in(page, pack) and not sign_in(six.symbol, set(), page), page
