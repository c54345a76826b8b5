"""Kočka: 2,000 seeded random hands with every invariant; the exchange; ties; letters; bad input; views; records."""
import json, random, re, pytest
from cardgames_tutor.core.cards import MARIAS, Card, in_order
from cardgames_tutor.core.engine import IllegalAction, check_deal, deal_cards
from cardgames_tutor.core.options import BadOption
from cardgames_tutor.core.registry import get_game
from cardgames_tutor.core.actions import Move
from cardgames_tutor.core.match import Match, play_out, random_choice
from cardgames_tutor.games.kocka import Kocka, KockaHand, penalty, HEJMA, certain_loser, hand_loser, bot
from cardgames_tutor.core.records import to_record, load, save
from helpers import cards_in

C = MARIAS.parse_many
DECK = set(MARIAS.cards)


def decided_after(tricks):
    "Independently: the first trick (1..7) after which some seat is certain to lose, and that seat; else (None, None)."
    points, hejma = [0] * 4, None
    for k, t in enumerate(tricks, 1):
        points[t.winner] += sum(penalty(c) for c in t.cards) + (5 if k == 8 else 0)
        if HEJMA in t.cards: hejma = t.winner
        if k == 8: break
        left = 33 - sum(points)
        for p in range(4):
            if all(points[q] + left < points[p] or (hejma == p and points[q] + left == points[p]) for q in range(4) if q != p):
                return k, p
    return None, None


def play_hand(game, deal, dealer, rng, actions=None):
    "Play a hand with random legal actions (or the given ones); return the hand and the actions taken."
    h = game.new_hand(deal, dealer)
    taken = []
    for a in (actions or iter(lambda: None, 0)):
        if h.is_over: break
        if a is None: a = rng.choice(h.legal_actions())
        h.apply(a); taken.append(a)
    return h, taken


def check_exchange(h):
    dealt = h.deal['hands']
    for s in range(4):
        assert len(h.passed[s]) == 3 and set(h.passed[s]) <= set(dealt[s])  # only dealt cards are passed
    after = [set(dealt[s]) - set(h.passed[s]) | set(h.passed[(s - 1) % 4]) for s in range(4)]
    return after


def check_played_out(h):
    "Every invariant of a hand played to the end."
    assert h.is_over and len(h.tricks) == 8 and not h.trick
    played = [c for t in h.tricks for c in t.cards]
    assert len(played) == 32 and set(played) == DECK                    # cards conserved
    for t in h.tricks:
        assert list(t.seats) == [(t.leader + k) % 4 for k in range(4)]  # clockwise from the leader
        led = t.cards[0].suit
        assert t.cards[t.seats.index(t.winner)].rank == max(c.rank for c in t.cards if c.suit == led)
    assert h.tricks[0].leader == (h.dealer + 1) % 4
    for a, b in zip(h.tricks, h.tricks[1:]): assert b.leader == a.winner
    assert sum(h.points) == 33                                          # 33 points when played out
    expect = [sum(penalty(c) for t in h.tricks if t.winner == s for c in t.cards) for s in range(4)]
    expect[h.tricks[-1].winner] += 5
    assert h.points == expect == h.result['points']
    hejma = next(t.winner for t in h.tricks if HEJMA in t.cards)
    assert h.result['hejma'] == hejma
    top = max(h.points)
    tied = [s for s in range(4) if h.points[s] == top]
    if len(tied) == 1: assert h.result['loser'] == tied[0]
    elif hejma in tied: assert h.result['loser'] == hejma
    else: assert h.result['loser'] is None and h.result['replay']


def test_2000_random_hands():
    full, early = Kocka(early_end=False), Kocka()
    counts = {'early': 0, 'replay': 0, 'hejma_tie': 0}
    for seed in range(2000):
        rng = random.Random(seed)
        deal, dealer = deal_cards(full, rng), seed % 4
        h, actions = play_hand(full, deal, dealer, rng)
        after = check_exchange(h)
        assert all(len(a) == 8 for a in after) and set().union(*after) == DECK  # passing conserves the 32 cards
        check_played_out(h)
        k, p = decided_after(h.tricks)
        if k is None: assert h.decided is None
        else:
            assert h.decided['after_trick'] == k and h.decided['loser'] == p
            assert h.result['loser'] == p  # a certain loser really loses when the hand is played out
        if h.result['replay']: counts['replay'] += 1
        elif len([x for x in h.points if x == max(h.points)]) > 1: counts['hejma_tie'] += 1
        # the same actions with early_end on: the hand stops exactly when decided, with the same loser
        e, _ = play_hand(early, deal, dealer, rng, actions)
        assert e.is_over and e.result['loser'] == h.result['loser']
        held = [c for hand in e.hands for c in hand]
        assert len(held) + 4 * len(e.tricks) == 32 and set(held) | {c for t in e.tricks for c in t.cards} == DECK
        if k is None: assert e.result == h.result and not e.result['early']
        else:
            counts['early'] += 1
            assert e.result['early'] and e.result['tricks'] == len(e.tricks) == k < 8
            assert e.points == [sum(penalty(c) for t in e.tricks if t.winner == s for c in t.cards) for s in range(4)]
            assert sum(e.points) < 33
            assert any(ev.kind == 'decided' and ev.data['loser'] == p for ev in e.events)
    # the seeds reach every kind of ending
    assert counts['early'] > 100 and counts['replay'] > 0 and counts['hejma_tie'] > 0, counts


def first_hand_with(pred, game=Kocka(early_end=False), limit=3000):
    for seed in range(limit):
        rng = random.Random(seed)
        h, _ = play_hand(game, deal_cards(game, rng), seed % 4, rng)
        if pred(h): return h
    raise AssertionError('no such hand in the seeds tried')


def _tied(h): return [s for s in range(4) if h.points[s] == max(h.points)]

def test_tie_with_the_hejma_taker_among_the_tied():
    h = first_hand_with(lambda h: len(_tied(h)) > 1 and h.hejma_taker in _tied(h))
    assert h.result['loser'] == h.hejma_taker and not h.result['replay']
    assert 'took the Hejma' in h.result['text']

def test_tie_without_the_hejma_is_replayed_by_the_same_dealer():
    h = first_hand_with(lambda h: len(_tied(h)) > 1 and h.hejma_taker not in _tied(h))
    assert h.result['loser'] is None and h.result['replay'] and 'replayed' in h.result['text']
    # in a match: no letter, the same dealer deals again
    for seed in range(300):
        m = play_out(Match(Kocka(early_end=False), seed=seed), random_choice, random.Random(seed))
        replays = [i for i, x in enumerate(m.hands[:-1]) if x.result['replay']]
        if replays: break
    else: raise AssertionError('no replayed hand in 300 matches')
    for i in replays:
        assert m.hands[i + 1].dealer == m.hands[i].dealer
        assert m.standing['losers'][i] is None
    assert m.standing['replays'] == len(replays)

def test_hand_loser_and_certain_loser():
    assert hand_loser([15, 15, 3, 0], 1) == 1
    assert hand_loser([15, 15, 3, 0], 2) is None
    assert hand_loser([15, 15, 3, 0], None) is None
    assert hand_loser([16, 15, 2, 0], 1) == 0
    assert certain_loser([17, 0, 0, 0], 16) == 0
    assert certain_loser([10, 0, 0, 0], 10, 0) == 0      # equal is enough for the Hejma taker
    assert certain_loser([10, 0, 0, 0], 10, 1) is None
    assert certain_loser([10, 0, 0, 0], 11, 0) is None


def test_certain_loser_is_its_definition():
    "Every position with 0-5 points a seat: the loser is the seat no other can reach (the Hejma taker: nor pass)."
    from itertools import product
    def defined(points, remaining, hejma):
        for p, mine in enumerate(points):
            reach = [points[q] + remaining for q in range(4) if q != p]
            if all(r < mine or (p == hejma and r == mine) for r in reach): return p
        return None
    checked = 0
    for points in product(range(6), repeat=4):
        for remaining in range(6):
            for hejma in (None, 0, 1, 2, 3):
                assert certain_loser(list(points), remaining, hejma) == defined(points, remaining, hejma), (points, remaining, hejma)
                checked += 1
    assert checked == 6 ** 4 * 6 * 5


@pytest.mark.parametrize('word', ['KOČKA', 'CAT', 'X'])
def test_letters_and_the_end_of_the_game(word):
    for seed in range(40):
        m = play_out(Match(Kocka(word=word, early_end=seed % 2 == 0), seed=seed), random_choice, random.Random(seed))
        st, n = m.standing, len(word)
        assert m.over and st['loser'] is not None
        assert st['letters'][st['loser']] == n and sorted(st['letters'])[-2] < n  # one seat has every letter
        assert len(st['losers']) == len(m.hands)
        assert st['letters'] == [sum(1 for l in st['losers'] if l == s) for s in range(4)]
        running = [0] * 4
        for i, (hand, loser) in enumerate(zip(m.hands, st['losers'])):
            assert hand.result['loser'] == loser
            if loser is not None: running[loser] += 1
            assert (max(running) == n) == (i == len(m.hands) - 1)  # the match ends on the word, not before
            if i + 1 < len(m.hands):  # the loser deals next (a replay: the same dealer)
                assert m.hands[i + 1].dealer == (hand.dealer if loser is None else loser)
        assert m.tallies[-1] == [word.upper()[:k] for k in st['letters']]


def _deal():
    return {'hands': [C('QL AH 7H 8L 9L 7A 8A 9A'), C('KH QH 10L JL KL 10A JA KA'),
                      C('JH 10H 9H QA AA 7B 8B 9B'), C('8H AL 7L 10B JB QB KB AB')]}

def _unchanged(h):
    return ([list(x) for x in h.hands], list(h.passed), len(h.events), h.to_act, h.phase, len(h.history))

def test_bad_input_is_refused_clearly_and_changes_nothing():
    g = Kocka()
    h = g.new_hand(check_deal(g, _deal()), dealer=3)
    before = _unchanged(h)
    cases = [('pass QL AH', 'Pass exactly 3 cards, not 2', 'kocka/pass-three'),
             ('pass QL AH 7H 8L', 'Pass exactly 3 cards, not 4', 'kocka/pass-three'),
             ('pass', 'Pass exactly 3 cards, not 0', 'kocka/pass-three'),
             ('pass QL AH KH', 'Seat 0 does not hold K♥', 'kocka/pass-hold'),
             ('pass QL QL AH', 'named twice', 'kocka/pass-three'),
             ('7A', 'The exchange is not finished: Seat 0 must first pass 3 cards', 'kocka/exchange-first'),
             ('pass QL AH 1H', "Unknown card '1H'", 'notation'),
             ('lead 7A', 'is not an action', 'notation')]
    for text, msg, rule in cases:
        with pytest.raises(IllegalAction, match=re.escape(msg)) as e: h.apply(text)
        assert e.value.verdict.rule == rule and '\n' not in str(e.value)
        assert h.explain(text).rule == rule
        assert _unchanged(h) == before
    with pytest.raises(IllegalAction, match="It is Seat 0's turn, not Seat 2's"): h.apply('pass QA AA JH', seat=2)
    h.apply('pass QL AH 7H')
    # seat 1 cannot pass on a card it was passed (the received cards are not in its hand yet)
    with pytest.raises(IllegalAction, match=re.escape('Seat 1 does not hold Q🍃')): h.apply('pass QL KH QH')
    with pytest.raises(IllegalAction, match='exchange is not finished'): h.apply('10A')
    h.apply('pass KH QH KL').apply('pass QA AA JH')
    with pytest.raises(IllegalAction, match='exchange is not finished: Seat 3'): h.apply('AL')
    h.apply('pass AL 8H AB')
    assert h.phase == 'play' and all(len(x) == 8 for x in h.hands)
    before = _unchanged(h)
    with pytest.raises(IllegalAction, match="It is Seat 0's turn, not Seat 1's"): h.apply('10A', seat=1)
    with pytest.raises(IllegalAction, match='The exchange is over'): h.apply('pass 7A 8A 9A')
    with pytest.raises(IllegalAction, match=re.escape('Seat 0 does not hold A♥')): h.apply('AH')
    assert _unchanged(h) == before
    h.apply('7A')
    with pytest.raises(IllegalAction, match=re.escape('You must follow the led suit (acorns)')) as e: h.apply('QL')
    assert e.value.verdict.rule == 'kocka/follow'

def test_bad_options():
    with pytest.raises(BadOption, match='word'): Kocka(word='')
    with pytest.raises(BadOption, match='word'): Kocka(word='KO KA')
    with pytest.raises(BadOption, match='True or False'): Kocka(early_end=1)
    with pytest.raises(BadOption, match="unknown option 'players'"): get_game('kocka', players=3)
    assert get_game('kocka', word='cat').letters == 'CAT'


def _cards_and_text(x, cards, texts):
    "Every Card in `x` into `cards`, every text into `texts`: a loop over a stack (it runs for every seat at every move)."
    todo = [x]
    while todo:
        x = todo.pop()
        if isinstance(x, Card): cards.add(x)
        elif isinstance(x, str): texts.append(x)
        elif isinstance(x, dict): todo += x.keys(); todo += x.values()
        elif isinstance(x, (list, tuple, set, frozenset)): todo += x

_BY_WORD = {w.upper(): c for c in MARIAS for w in (c.code, c.symbol)}
_CARD_WORD = re.compile(r'(?<![\w])(' + '|'.join(re.escape(w) for w in sorted(_BY_WORD, key=len, reverse=True)) + r')(?![\w])',
                        re.IGNORECASE)

_WORDS_IN = {}  # by text: a view repeats every earlier event's sentence, so each sentence is read once

def _words_in(text) -> frozenset:
    "The cards `text` writes as notation or signs (what `_CARD_WORD` finds), cached by text."
    if text not in _WORDS_IN: _WORDS_IN[text] = frozenset(_BY_WORD[w.upper()] for w in _CARD_WORD.findall(text))
    return _WORDS_IN[text]

def leaked(m, seat, thorough=False):
    "Hidden cards of `seat` that its view mentions: as Card objects, as notation (QL), or as drawn signs (Q🍃)."
    hidden = m.hand.hidden_cards(seat)
    v = m.view(seat)
    cards, texts = set(), []
    _cards_and_text(v, cards, texts)
    found = cards & hidden
    for t in texts: found |= _words_in(t)
    found &= hidden
    if thorough: found |= cards_in(v, MARIAS) & hidden  # the shared helper too
    return found

def test_no_view_leaks_a_hidden_card():
    for seed in range(25):  # about 200 hands, every seat's view after every action
        m, rng = Match(Kocka(early_end=seed % 2 == 0), seed=seed), random.Random(seed)
        step = 0
        while not m.over:
            legal = m.legal_actions()
            assert legal and all(m.explain(a).legal for a in legal[:10])
            for seat in range(4):
                bad = leaked(m, seat, thorough=step % 15 == 0)
                assert not bad, (seed, seat, m.hand.phase, bad)
                assert not (m.hand.hidden_cards(seat) & set(m.hand.hands[seat]))
            m.apply(rng.choice(legal)); step += 1

def test_the_leak_check_would_see_a_leak():
    m = Match(Kocka(), seed=1)
    other = (m.to_act + 1) % 4
    card = m.hand.hands[other][0]
    m.hand.log('oops', f"Seat {other} holds {card.symbol}.")  # a badly written event that everyone may see
    assert leaked(m, m.to_act) == {card}

def test_passed_cards_stay_hidden_until_the_receiver_has_passed():
    m = Match(Kocka(), seed=3)
    h = m.hand
    leader = h.to_act
    order = [(leader + k) % 4 for k in range(4)]
    for i, s in enumerate(order):
        m.apply(bot(m.view(s), random.Random(0)))
        passed = set(h.passed[s])
        receiver = (s + 1) % 4
        if receiver != leader:  # the receiver has not passed yet
            assert passed <= h.hidden_cards(receiver)
            assert m.view(receiver)['received'] is None and not (cards_in(m.view(receiver), MARIAS) & passed)
            assert not any(c in h.hands[receiver] for c in passed)
        for other in range(4):
            if other not in (s, receiver): assert passed <= h.hidden_cards(other)
        if i > 0:  # s has passed and its giver too: s now sees what it received
            assert m.view(s)['received'] == h.passed[(s - 1) % 4]
    assert m.hand.phase == 'play' and m.view(leader)['received'] == h.passed[order[-1]]
    assert all(len(x) == 8 for x in h.hands)
    # the teaching view shows everything
    assert cards_in(m.view(None)['hands'], MARIAS) == DECK


def test_actions_read_back_from_their_text():
    m, rng = Match(Kocka(), seed=11), random.Random(11)
    while not m.over:
        for a in m.legal_actions(): assert m.hand.parse_action(str(a)) == a
        m.apply(rng.choice(m.legal_actions()))


def test_records_round_trip(tmp_path):
    for seed in range(20):
        m = play_out(Match(Kocka(word='CAT', early_end=seed % 3 != 0), seed=seed), random_choice, random.Random(seed))
        again = load(to_record(m))
        assert again.standing == m.standing and len(again.hands) == len(m.hands) and again.over
        assert [h.result for h in again.hands] == [h.result for h in m.hands]
        path = save(m, tmp_path / f'kocka{seed}.json')
        assert load(path).standing == m.standing
        assert load(path.read_text(encoding='utf-8')).standing == m.standing
    # a match stopped in the middle of the exchange
    m = Match(Kocka(), seed=5)
    m.apply(bot(m.view(m.to_act), random.Random(0)))
    again = load(json.loads(json.dumps(to_record(m))))
    assert again.hand.passed == m.hand.passed and again.to_act == m.to_act and again.hand.phase == 'pass'


def test_bot_plays_whole_matches_legally_and_sensibly():
    lost_by_bot = lost_by_random = 0
    for seed in range(100):
        m = play_out(Match(Kocka(), seed=seed))  # the bot's moves go through apply, so they are all legal
        assert m.over
        # one bot against three random players: it takes fewer letters than its share
        m = Match(Kocka(), seed=seed)
        rng = random.Random(seed)
        while not m.over:
            v = m.view(m.to_act)
            m.apply(bot(v, rng) if m.to_act == seed % 4 else random_choice(v, rng))
        lost_by_bot += m.standing['letters'][seed % 4]
        lost_by_random += sum(m.standing['letters']) - m.standing['letters'][seed % 4]
    assert lost_by_bot * 3 < lost_by_random * 0.7, (lost_by_bot, lost_by_random)

def test_bot_choices():
    r = random.Random(0)
    assert bot({'phase': 'pass', 'legal': [], 'hand': C('QL AH KH 7H 8H 7A 8A 9B')}, r) == Move('pass', tuple(in_order(C('QL AH KH'))))
    assert bot({'phase': 'play', 'trick': [(0, MARIAS.parse('KL'))], 'legal': C('QL 7L AL')}, r) is HEJMA  # duck
    assert bot({'phase': 'play', 'trick': [(0, MARIAS.parse('9A'))], 'legal': C('7A 10A KA')}, r) == MARIAS.parse('7A')
    assert bot({'phase': 'play', 'trick': [(0, MARIAS.parse('7B'))], 'legal': C('AH QL 7H 10A')}, r) is HEJMA  # dump
    assert bot({'phase': 'play', 'trick': [(0, MARIAS.parse('7B'))], 'legal': C('AH KH 7H 10A')}, r) == MARIAS.parse('AH')
    # last to play and cannot duck: takes it with its highest card, keeping the Hejma
    trick = [(1, MARIAS.parse('7L')), (2, MARIAS.parse('8L')), (3, MARIAS.parse('9L'))]
    assert bot({'phase': 'play', 'trick': trick, 'legal': C('QL AL')}, r) == MARIAS.parse('AL')


def test_first_dealer_and_leader():
    for seed in range(20):
        m = Match(Kocka(), seed=seed)
        h = m.hand
        assert h.to_act == h.leader == (h.dealer + 1) % 4 and h.phase == 'pass'
        assert f"Seat {h.leader} is chosen by lot to lead the first trick, so Seat {h.dealer}" in m.events()[1].text


def test_has_passed_shows_only_during_the_exchange():
    "Issue 55: the table says 'has passed' beside a seat while the exchange is on (and only for seats that have), never during play."
    from cardgames_tutor.ui.table import table_html
    m = Match(Kocka(), seed=3)
    drawn = [table_html(m.view(0), 0, pack=MARIAS)]
    assert drawn[0].count('has passed') == 0  # nobody has passed yet
    while m.hand.phase == 'pass':
        m.apply(bot(m.view(m.to_act), random.Random(0)))
        drawn.append(table_html(m.view(0), 0, pack=MARIAS))
    assert [d.count('has passed') for d in drawn[1:-1]] == [1, 2, 3]  # each seat that has passed, while the others still must
    first = m.hand
    while m.hand is first and not first.is_over:  # the match deals the next hand once this one is over
        assert 'has passed' not in table_html(m.view(0), 0, pack=MARIAS), len(first.tricks)
        m.apply(bot(m.view(m.to_act), random.Random(0)))


# ---------------------------------------------------------------- what the learner's pages say

from pathlib import Path as _Path
_NBS = _Path(__file__).parent.parent/'nbs'

def _cell(rel, cid) -> str:
    "A notebook cell's text (by its id), on one line."
    cell = next(c for c in json.loads((_NBS/rel).read_text(encoding='utf-8'))['cells'] if c.get('id') == cid)
    return ' '.join(''.join(cell['source']).split())

def test_the_small_o_and_u_on_the_drawn_cards_are_explained_where_the_pack_is_introduced():
    """A learner saw an 'O' and a 'U' on Kočka's drawn jacks, explained nowhere the cards first appear: the rulebook's
    section on the cards, the quick reference's pack line and the glossary's Kočka words each say what they are."""
    from cardgames_tutor.core.cards import card_html
    assert '<sub>O</sub>' in card_html(HEJMA) and '<sub>U</sub>' in card_html(MARIAS.parse('JH'))  # the marks the pages draw
    for rel, cid in (('games/11_kocka.ipynb', '7c858bf6'), ('quickref/kocka.ipynb', '15f8564c'), ('glossary.ipynb', 'cc3c97cf')):
        text = _cell(rel, cid)
        for mark, name, means, jack in (('O', 'Ober', 'upper', 'upper jack'), ('U', 'Unter', 'lower', 'lower jack')):
            assert re.search(rf'small \*\*{mark}\*\*', text) and f'*{name}*' in text and f'"{means}"' in text and jack in text, (rel, mark, text)

RULEBOOK = 'games/11_kocka.ipynb'


from helpers import rulebook_prose

def test_the_rulebooks_prose_shows_typing_in_quotes_and_no_code_words():
    """The learner's rulebook drew what is typed as code (`pass 7H 8H 9H`, `QL`) and named 'the module's function `bot`':
    typing is written as the terminal shows it, in double quotes (as Dehla Pakad's rulebook does), and no code word is left."""
    prose = rulebook_prose(RULEBOOK)
    assert not re.findall(r"`[^`]+`|\bmodule\b|\bfunction\b", prose), re.findall(r".{40}(?:`[^`]+`|\bmodule\b|\bfunction\b).{20}", prose)
