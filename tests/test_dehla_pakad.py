"""Dehla Pakad: the worked example, the centre (reset, partners, trick 13), scoring, streaks and dealers,
2,000 seeded random deals with invariants, bad input, views that leak nothing, records, the bot."""
import json, random, time, pytest
from cardgames_tutor.core.cards import FRENCH, Card, in_order
from cardgames_tutor.core.engine import IllegalAction, check_deal, deal_cards
from cardgames_tutor.core.options import BadOption
from cardgames_tutor.core.registry import get_game
from cardgames_tutor.core.actions import Move
from cardgames_tutor.core.match import Match, play_out, random_choice
from cardgames_tutor.games.dehla_pakad import (DehlaPakad, DehlaPakadHand, team, partner, team_seats, other_team,
                                               deal_winner, record_deal, bot, centre_story, table_html)
from cardgames_tutor.core.leaks import leaked_cards as leaked
from cardgames_tutor.core.records import to_record, load, save, summary, RecordError
from helpers import cards_in, assert_no_leak

C = FRENCH.parse_many
G = DehlaPakad()
DECK = set(FRENCH.cards)
TENS = {c for c in FRENCH if c.rank == 10}


def fill_deal(fixed, void=None):
    "A 4 x 13 deal: each seat holds its `fixed` cards first, then the rest of the pack in pack order."
    hands = [C(fixed.get(s, '')) for s in range(4)]
    used = {c for h in hands for c in h}
    for card in FRENCH:
        if card in used: continue
        seat = next(s for s in range(4) if len(hands[s]) < 13 and card.suit not in (void or {}).get(s, ''))
        hands[seat].append(card)
    return check_deal(G, {'hands': [[c.code for c in h] for h in hands]})


def tricks_deal(rows):
    "The deal in which seat s plays the s-th card of each row."
    return check_deal(G, {'hands': [[r.split()[s] for r in rows] for s in range(4)]})


def play_rows(target, rows):
    "Play rows of cards (each in seat order) in the order of play, on a hand or a match."
    for row in rows:
        cards = C(row)
        for _ in range(4): target.apply(cards[target.to_act])
    return target


# Seat 0 wins tricks 1-11 (collecting at 2, 4, 6, 8, 10), Seat 1 wins 12, Seat 3 wins 13 and takes what is left.
SPADES = ['AS 2D 2S 2C', 'KS 3D 3S 4C', 'QS 4D 3H 5C', 'JS 5D 4H 6C', '10S 6D 5H 7C', '9S 7D 6H 8C',
          '8S 8D 7H 9C', '7S 9D 8H 10C', '6S JD 9H JC', '5S QD JH QC', '4S 10D 10H KC', '2H AH QH AC',
          '3C KD KH AD']
EXAMPLE = {0: 'AH AS AD KD QD', 1: '10H QS', 2: '3H 2S', 3: '7H 10S'}


def new_hand(deal, dealer=3, trump=None):
    h = G.new_hand(deal, dealer)
    if trump: h.apply(f'trump {trump}')
    return h


# ---------------------------------------------------------------- the table
def test_team_helpers_and_options():
    assert [team(s) for s in range(4)] == [0, 1, 0, 1]
    assert [partner(s) for s in range(4)] == [2, 3, 0, 1]
    assert team_seats(0) == (0, 2) and team_seats(1) == (1, 3) and other_team(0) == 1
    assert get_game('dehla-pakad') == G and get_game('dehla-pakad', players=4).n_seats() == 4
    with pytest.raises(BadOption, match="players=5 is not allowed for Dehla Pakad"): DehlaPakad(players=5)
    with pytest.raises(BadOption, match="unknown option 'streak'"): DehlaPakad(streak=3)


def test_first_dealer_by_seeded_lot():
    seen = {Match(G, seed=s).hands[0].dealer for s in range(30)}
    assert seen == {0, 1, 2, 3}
    # the lot follows the seed alone (pinned: seeded deals never change), not Python's shared random state
    lots = [3, 1, 0, 1, 1, 2, 0, 2, 1, 3, 0, 3]
    assert [Match(G, seed=s).hands[0].dealer for s in range(12)] == lots
    random.seed(99)
    assert [Match(G, seed=s).hands[0].dealer for s in range(12)] == lots
    m = Match(G, seed=11)
    assert m.hand.to_act == (m.hand.dealer + 1) % 4 == m.hand.trump_maker


# ---------------------------------------------------------------- deal and trump
def test_trump_maker_sees_five_cards_then_four_and_four():
    deal = deal_cards(G, random.Random(4))
    h = G.new_hand(deal, dealer=2)
    assert (h.phase, h.to_act) == ('trump', 3)
    for s in range(4):
        v = h.view(s)
        assert in_order(v['hand']) == in_order(deal['hands'][s][:5])
        assert not (cards_in(v, FRENCH) & set(deal['hands'][s][5:]))  # its own last eight are still in the pack
        assert v['legal'] == ([Move('trump', (), x) for x in 'SHDC'] if s == 3 else [])
    h.apply('trump c', seat=3)
    assert h.trump == 'C' and h.phase == 'play' and h.to_act == 3  # the trump maker leads
    for s in range(4): assert in_order(h.hands[s]) == in_order(deal['hands'][s])
    assert 'trump C' == str(h.history[0][1])


@pytest.mark.parametrize('text,suit', [('trump H', 'H'), ('TRUMP h', 'H'), ('trump ♠', 'S'), ('trump diamonds', 'D'),
                                       ('trump C', 'C')])
def test_trump_spellings(text, suit):
    h = G.new_hand(deal_cards(G, random.Random(1)), 0)
    h.apply(text)
    assert h.trump == suit and h.parse_action(str(h.history[0][1])) == h.history[0][1]


def test_bad_input_gets_the_clear_error_and_changes_nothing():
    deal = deal_cards(G, random.Random(2))
    h = G.new_hand(deal, dealer=0)  # Seat 1 names trump
    card = deal['hands'][1][0]
    def state(): return (h.phase, h.trump, h.to_act, len(h.history), len(h.events), [list(x) for x in h.hands])
    before = state()
    cases = [(lambda: h.apply(card), "No card may be played before trump is named: Seat 1", 'dehla-pakad/trump-first'),
             (lambda: h.apply('trump H', seat=2), "Only Seat 1, the dealer's right-hand neighbour, names trump; Seat 2 may not",
              'dehla-pakad/trump-maker'),
             (lambda: h.apply('trump X'), "X is not a suit: name spades, hearts, diamonds or clubs",
              'dehla-pakad/suit'),
             (lambda: h.apply('trump HS'), "HS is not a suit", 'dehla-pakad/suit'),
             (lambda: h.apply('trump'), "'trump' takes one word after it", 'notation'),
             (lambda: h.apply('shout'), "Unknown card 'shout'", 'notation')]
    for call, text, rule in cases:
        with pytest.raises(IllegalAction, match=None) as e: call()
        assert text in str(e.value) and e.value.verdict.rule == rule, str(e.value)
        assert '\n' not in str(e.value)
        assert state() == before
    assert h.explain('trump X').rule == 'dehla-pakad/suit' and h.explain('trump H').legal
    h.apply('trump H', seat=1)
    before = state()
    for seat in (None, 1, 3):
        with pytest.raises(IllegalAction) as e: h.apply('trump S', seat=seat)
        assert "Trump is already named (hearts, by Seat 1); it is named once per deal" in str(e.value)
    with pytest.raises(IllegalAction, match="It is Seat 1's turn"): h.apply(deal['hands'][2][0], seat=2)
    with pytest.raises(IllegalAction, match="does not hold"): h.apply(deal['hands'][2][0])
    assert state() == before


def test_bad_input_through_a_match():
    m = Match(G, seed=3)
    maker = m.hand.trump_maker
    with pytest.raises(IllegalAction, match="names trump"): m.apply('trump S', seat=(maker + 1) % 4)
    with pytest.raises(IllegalAction, match="before trump is named"): m.apply(m.hand.deal['hands'][maker][0])
    assert m.actions == []
    m.apply('trump S', seat=maker)
    with pytest.raises(IllegalAction, match="already named"): m.apply('trump D')
    assert len(m.actions) == 1


# ---------------------------------------------------------------- the centre
def test_worked_example():
    h = new_hand(fill_deal(EXAMPLE), dealer=3, trump='D')  # A, B, C, D = Seats 0, 1, 2, 3
    play_rows(h, ['AH 10H 3H 7H'])
    assert (h.tricks[0].winner, len(h.centre), h.on_one, h.captures) == (0, 4, 0, [[], []])
    play_rows(h, ['AS QS 2S 10S'])
    assert h.tricks[1].winner == 0 and h.centre == [] and h.on_one is None
    assert len(h.captures[team(0)]) == 8 and set(h.captures[team(0)]) & TENS == set(C('10H 10S'))
    assert h.captures[team(1)] == []
    texts = [e.text for e in h.events if e.kind == 'trick']
    assert "The trick goes face down into the centre" in texts[0] and "Seat 0 is on one" in texts[0]
    assert "Seat 0 has won two tricks in a row and collects the whole centre" in texts[1] and "10♥ 10♠" in texts[1]
    assert h.events[-1].data['points'] == 2 and h.events[-1].data['collected'] == 8


def test_worked_example_partner_wins_second_trick():
    h = new_hand(fill_deal({0: 'AH AS AD KD QD', 1: '10H QS', 2: '3H 2D', 3: '7H 10S'}, void={2: 'S'}), trump='D')
    play_rows(h, ['AH 10H 3H 7H', 'AS QS 2D 10S'])
    assert h.tricks[1].winner == 2
    assert len(h.centre) == 8 and h.captures == [[], []] and h.on_one == 2
    assert "partners winning in turn do not collect" in h.events[-1].text


def test_third_win_stays_fourth_collects_and_trick_13_takes_the_rest():
    h = new_hand(tricks_deal(SPADES), dealer=3, trump='S')
    play_rows(h, SPADES[:3])
    assert [t.winner for t in h.tricks] == [0, 0, 0]
    assert len(h.centre) == 4 and h.on_one == 0 and len(h.captures[0]) == 8  # the third win stays
    play_rows(h, SPADES[3:4])
    assert h.centre == [] and len(h.captures[0]) == 16  # the fourth collects the new packet
    play_rows(h, SPADES[4:])
    assert [r['outcome'] for r in h.story] == ['stay', 'collect'] * 5 + ['stay', 'stay', 'last']
    assert [t.winner for t in h.tricks][-3:] == [0, 1, 3]
    assert h.story[-1]['on_one_before'] == 1  # Seat 3 was not on one, yet takes the centre
    assert h.story[-1]['collected'] == 12 and set(h.story[-1]['collected_tens']) == set(C('10D 10H'))
    assert (h.centre, [len(c) for c in h.captures]) == ([], [40, 12])
    md = centre_story(h)
    assert md.count('\n') == 14 and '**taken** (last trick)' in md


def test_trick_13_collects_even_a_single_trick():
    deal = check_deal(G, {'hands': [[c.code for c in FRENCH if c.suit == s] for s in 'SHDC']})
    h = new_hand(deal, dealer=3, trump='S')
    rng = random.Random(0)
    while not h.is_over: h.apply(rng.choice(h.legal_actions()))
    assert [r['outcome'] for r in h.story] == ['stay', 'collect'] * 6 + ['last']
    assert h.story[-1]['collected'] == 4 and len(h.captures[0]) == 52


def test_partners_alternating_never_collect():
    alt = fill_deal({0: 'AH 5H QH 2S 6S', 1: '2H 6H 10H 3S 7S', 2: '3H KH 8H AS KS', 3: '4H 7H 9H 4S 5S'})
    h = new_hand(alt, trump='D')
    play_rows(h, ['AH 2H 3H 4H', '5H 6H KH 7H', 'QH 10H 8H 9H', '2S 3S AS 4S'])
    assert [t.winner for t in h.tricks] == [0, 2, 0, 2]
    assert len(h.centre) == 16 and h.captures == [[], []] and h.on_one == 2
    play_rows(h, ['6S 7S KS 5S'])
    assert h.story[-1]['outcome'] == 'collect' and len(h.captures[0]) == 20


def test_opponent_stops_a_player_on_one():
    h = new_hand(fill_deal(EXAMPLE), trump='D')
    play_rows(h, ['AH 10H 3H 7H'])
    assert h.on_one == 0
    h2 = new_hand(fill_deal({0: 'AH 2S AD KD QD', 1: '10H AS', 2: '3H 3S', 3: '7H 10S'}), trump='D')
    play_rows(h2, ['AH 10H 3H 7H', '2S AS 3S 10S'])
    assert h2.tricks[1].winner == 1 and h2.on_one == 1 and len(h2.centre) == 8 and h2.captures == [[], []]
    assert "Seat 0 was on one and is stopped" in h2.events[-1].text


def test_views_say_what_is_in_the_centre():
    h = new_hand(fill_deal(EXAMPLE), trump='D')
    play_rows(h, ['AH 10H 3H 7H'])
    for s in range(4):
        v = h.view(s)
        assert v['centre'] == {'cards': 4, 'tricks': 1, 'tens': C('10H')} and v['on_one'] == 0
        assert v['captures'] == [{'cards': 0, 'tens': []}, {'cards': 0, 'tens': []}]
        assert 'centre_cards' not in v
    assert h.view(None)['centre_cards'] == C('AH 10H 3H 7H')
    html = table_html(h.view(2))
    assert 'on one' in html and '4 cards, 1 trick face down; in it: 10♥' in html


# ---------------------------------------------------------------- scoring, streaks, dealers
def test_deal_winner_cases():
    assert deal_winner([4, 0], 1) == (0, 'kot') and deal_winner([0, 4], 0) == (1, 'kot')
    assert deal_winner([3, 1], 0) == (0, 'three') and deal_winner([3, 1], 1) == (0, 'three')
    assert deal_winner([1, 3], 1) == (1, 'three')
    assert deal_winner([2, 2], 0) == (1, 'split') and deal_winner([2, 2], 1) == (0, 'split')


def test_two_two_non_dealer_wins_and_same_dealer_deals_again():
    m = Match(G, seed=1, deals=[tricks_deal(SPADES)] * 2, first_dealer=3)
    m.apply('trump S'); play_rows(m, SPADES)
    h = m.hands[0]
    assert h.result['tens'] == [2, 2] and h.result['winner'] == 0 and h.result['why'] == 'split'
    assert "The tens split 2-2, so the non-dealing side, Seats 0 and 2, wins the deal" in h.result['text']
    assert m.standing['deals'] == [[3, 2, 2, 0]] and not m.over
    assert m.hand.dealer == 3 and "Seat 3 deals again" in h.events[-1].text


def test_next_dealer_rules():
    st = G.new_standing()
    assert record_deal(st, 3, [1, 3])[1:] == (0, False)   # dealing side won with three: passes right
    assert record_deal(st, 0, [3, 1])[1:] == (1, False)
    assert record_deal(st, 1, [3, 1])[1:] == (1, False)   # non-dealing side won: same dealer
    assert record_deal(st, 1, [2, 2])[1:] == (1, False)   # 2-2: the non-dealing side won
    assert record_deal(st, 0, [2, 2])[1:] == (0, False)
    assert st['deals_won'] == [3, 2] and (st['streak_team'], st['streak']) == (1, 1)
    evs, nxt, over = record_deal(st, 0, [4, 0])
    assert (nxt, over, st['winner'], st['winner_seats'], st['kot']) == (None, True, 0, [0, 2], 'four tens')
    assert "Kot!" in evs[-1].text


def test_four_tens_kot_ends_the_match():
    deal = check_deal(G, {'hands': [[c.code for c in FRENCH if c.suit == s] for s in 'SHDC']})
    m = Match(G, seed=5, deals=[deal, deal], first_dealer=3)
    m.apply('trump S')  # Seat 0 holds every spade: it wins all 13 tricks whatever anyone plays
    play_out(m, random_choice, random.Random(0))
    assert m.over and len(m.hands) == 1
    assert m.standing['winner'] == 0 and m.standing['kot'] == 'four tens' and m.hands[0].result['kot']


def test_seven_deal_streak_kot_with_the_same_dealer():
    m = Match(G, seed=1, deals=[tricks_deal(SPADES)] * 8, first_dealer=3)
    for k in range(7):
        assert not m.over and m.hand.dealer == 3  # the non-dealing side keeps winning: Seat 3 deals again
        m.apply('trump S'); play_rows(m, SPADES)
        assert m.standing['streak'] == k + 1
    assert m.over and len(m.hands) == 7
    assert m.standing['winner'] == 0 and m.standing['kot'] == '7 deals in a row' and m.standing['deals_won'] == [7, 0]
    assert "won 7 deals in a row" in m.hands[-1].events[-1].text


def test_streak_broken_and_restarted():
    st, dealer = G.new_standing(), 0
    for tens in [[3, 1]] * 6 + [[1, 3]]:
        _, dealer, over = record_deal(st, dealer, tens)
        assert not over
    assert (st['streak_team'], st['streak']) == (1, 1)
    for tens in [[3, 1]] + [[2, 2]] * 5:
        _, dealer, over = record_deal(st, dealer, tens)
        assert not over
    _, _, over = record_deal(st, dealer, [2, 2])
    assert over and st['kot'] == '7 deals in a row' and st['streak'] == 7


# ---------------------------------------------------------------- 2,000 seeded random deals
def expected_centre(tricks):
    "Independently: each partnership's captured cards from the trick winners alone."
    centre, on_one, caps = [], None, [set(), set()]
    for t in tricks:
        centre += t.cards
        if t.number == 13 or on_one == t.winner:
            caps[t.winner % 2] |= set(centre); centre, on_one = [], None
        else: on_one = t.winner
    return caps


def check_deal_played(h):
    assert h.is_over and len(h.tricks) == 13 and h.centre == [] and not any(h.hands) and not any(h.undealt)
    maker = (h.dealer + 1) % 4
    assert h.history[0] == (maker, Move('trump', (), h.trump))          # trump named first, by the right seat
    assert all(isinstance(a, Card) for _, a in h.history[1:]) and len(h.history) == 53
    kinds = [e.kind for e in h.events]
    assert kinds.index('trump') < kinds.index('play')
    played = [c for t in h.tricks for c in t.cards]
    assert len(played) == 52 and set(played) == DECK
    assert h.tricks[0].leader == maker
    for a, b in zip(h.tricks, h.tricks[1:]): assert b.leader == a.winner
    for t in h.tricks:
        assert list(t.seats) == [(t.leader + k) % 4 for k in range(4)]
        trumps = [c for c in t.cards if c.suit == h.trump]
        pool = trumps or [c for c in t.cards if c.suit == t.cards[0].suit]
        assert t.cards[t.seats.index(t.winner)] is max(pool, key=lambda c: c.rank)
    caps = [set(c) for c in h.captures]
    assert sum(len(c) for c in h.captures) == 52 and caps[0] | caps[1] == DECK   # 52 cards end in captures
    assert caps == expected_centre(h.tricks)
    tens = [len(c & TENS) for c in caps]
    assert sum(tens) == 4 == sum(h.result['tens']) and tens == h.result['tens']   # tens counted = 4
    assert h.result['winner'] == deal_winner(tens, team(h.dealer))[0]


def test_2000_seeded_random_deals():
    start = time.perf_counter()
    rng = random.Random(2026)
    outcomes = {'stay': 0, 'collect': 0, 'last': 0}
    for i in range(2000):
        h = G.new_hand(deal_cards(G, rng), dealer=i % 4)
        while not h.is_over:
            legal = h.legal_actions()
            a = rng.choice(legal)
            assert h.explain(a).legal and h.parse_action(str(a)) == a
            h.apply(a)
        check_deal_played(h)
        for r in h.story: outcomes[r['outcome']] += 1
    elapsed = time.perf_counter() - start
    assert outcomes['last'] == 2000 and outcomes['collect'] > 2000 and outcomes['stay'] > 2000
    print(f"\n2,000 random Dehla Pakad deals in {elapsed:.2f} s ({2000 / elapsed:.0f} deals/s)")


def test_random_matches_standing_and_dealers():
    for seed in range(60):
        m = play_out(Match(G, seed=seed), random_choice, random.Random(seed))
        st = m.standing
        assert m.over and st['winner'] in (0, 1) and st['winner_seats'] == list(team_seats(st['winner']))
        assert len(st['deals']) == len(m.hands) and sum(st['deals_won']) == len(m.hands)
        for i, (h, rec) in enumerate(zip(m.hands, st['deals'])):
            assert rec == [h.dealer, *h.result['tens'], h.result['winner']]
            if i + 1 < len(m.hands):
                nxt = m.hands[i + 1].dealer
                assert nxt == ((h.dealer + 1) % 4 if h.result['winner'] == team(h.dealer) else h.dealer)
        run = 0
        for rec in st['deals']:
            run = run + 1 if run and rec[3] == prev else 1
            prev = rec[3]
        assert run == st['streak'] and st['streak_team'] == st['deals'][-1][3]
        last = m.hands[-1].result
        assert (st['kot'] == 'four tens') == last['kot'] and (last['kot'] or st['streak'] == 7)
        assert m.tallies[-1] == [st['deals_won'][team(s)] for s in range(4)]


# ---------------------------------------------------------------- hidden information
def test_no_view_leaks_a_hidden_card():
    for seed in range(4):  # every step of a whole deal and into the next (about 2 ms a check)
        m = Match(G, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not m.over and steps < 60:
            for s in range(4):
                assert_no_leak(m, s)
                if steps % 4 == 0: assert leaked(m.hand, s) == []
            if m.hand.phase == 'trump':
                assert len(m.hand.hidden_cards(m.to_act)) == 47
            m.apply((bot if seed % 2 else random_choice)(m.view(m.to_act), rng))
            steps += 1


def test_views_before_trump_hide_the_undealt_eight():
    deal = deal_cards(G, random.Random(9))
    h = G.new_hand(deal, dealer=1)
    for s in range(4):
        later = set(deal['hands'][s][5:]) | {c for o in range(4) if o != s for c in deal['hands'][o]}
        assert not (cards_in(h.view(s), FRENCH) & later)
        assert h.hidden_cards(s) == DECK - set(deal['hands'][s][:5])
    teach = h.view(None)
    assert [len(x) for x in teach['hands']] == [5] * 4 and [len(x) for x in teach['undealt_cards']] == [8] * 4


# ---------------------------------------------------------------- records
def test_records_round_trip(tmp_path):
    for seed, chooser in [(1, random_choice), (2, bot), (3, random_choice), (4, bot)]:
        m = play_out(Match(G, seed=seed), chooser, random.Random(seed))
        rec = to_record(m)
        assert rec['game'] == 'dehla-pakad' and rec['hands'][0]['actions'][0].startswith('trump ')
        for source in (rec, json.dumps(rec), save(m, tmp_path / f'm{seed}.json')):
            back = load(source)
            assert back.standing == m.standing and back.over
            assert [h.result for h in back.hands] == [h.result for h in m.hands]
        s = summary(m)
        assert s['game'] == 'dehla-pakad' and len(s['hands'][0]['tricks']) == 13
        json.dumps(s)
    part = Match(G, seed=8)
    for _ in range(20): part.apply(random_choice(part.view(part.to_act), random.Random(1)))
    assert load(to_record(part)).view(None)['centre'] == part.view(None)['centre']


def test_records_refuse_bad_actions():
    m = Match(G, seed=6)
    m.apply('trump H'); m.apply(m.legal_actions()[0])
    rec = to_record(m)
    bad = json.loads(json.dumps(rec)); bad['hands'][0]['actions'][0] = 'trump X'
    with pytest.raises(RecordError, match="X is not a suit"): load(bad)
    bad = json.loads(json.dumps(rec)); bad['hands'][0]['actions'] = rec['hands'][0]['actions'][::-1]
    with pytest.raises(RecordError, match="before trump is named"): load(bad)
    bad = json.loads(json.dumps(rec)); bad['hands'][0]['actions'].insert(1, 'trump S')
    with pytest.raises(RecordError, match="already named"): load(bad)


# ---------------------------------------------------------------- the bot
def test_bot_plays_legal_whole_matches():
    for seed in range(20):
        m = play_out(Match(G, seed=seed), bot, random.Random(seed))
        assert m.over and m.standing['winner'] in (0, 1)


def test_bot_beats_random_play():
    rng, wins, tens = random.Random(5), [0, 0], [0, 0]
    for i in range(300):
        h = G.new_hand(deal_cards(G, rng), dealer=i % 4)
        while not h.is_over:
            v = h.view(h.to_act)
            h.apply((bot if team(h.to_act) == 0 else random_choice)(v, rng))
        wins[h.result['winner']] += 1
        for t in (0, 1): tens[t] += h.result['tens'][t]
    assert wins[0] > 1.8 * wins[1] and tens[0] > 2.5 * 300, (wins, tens)


def test_bot_collects_when_on_one_and_helps_its_partner():
    # on one with a ten in the centre: Seat 0 leads its surest winner (a top spade) to collect
    h = new_hand(fill_deal({0: 'AH AS KS 2C 3C', 1: '10H QS', 2: '3H 2S', 3: '7H 10S'}), trump='D')
    play_rows(h, ['AH 10H 3H 7H'])
    assert h.on_one == 0 and bot(h.view(0), random.Random(0)) == FRENCH.parse('AS')
    # Seat 0 is on one and leads the top trump; its partner Seat 2, void in trumps, throws its ten onto the trick
    h = new_hand(fill_deal({0: 'AH AD KD QD AS', 1: '2H 3D', 2: '3H 10C', 3: '7H 4D'}, void={2: 'D'}), trump='D')
    play_rows(h, ['AH 2H 3H 7H'])
    h.apply('AD'); h.apply('3D')
    assert bot(h.view(2), random.Random(0)) == FRENCH.parse('10C')
    # ... but not when the partner's card could still be beaten (a plain ace with trumps still out)
    h = new_hand(fill_deal({0: 'AH AS KD QD 2S', 1: '2H 3S', 2: '3H 10C', 3: '7H 4S'}, void={2: 'SD'}), trump='D')
    play_rows(h, ['AH 2H 3H 7H'])
    h.apply('AS'); h.apply('3S')
    assert bot(h.view(2), random.Random(0)) != FRENCH.parse('10C')
    # an opponent winning: the bot overtakes as cheaply as it can, and never throws a ten when losing
    h = new_hand(fill_deal({0: 'AH 5S AD KD QD', 1: '10H 9S KS 2S', 2: '3H 4S', 3: '7H 10S'}), trump='D')
    play_rows(h, ['AH 10H 3H 7H'])
    h.apply('5S')
    assert bot(h.view(1), random.Random(0)) == FRENCH.parse('9S')
    # trump choice: the longest suit among the five cards
    h = G.new_hand(fill_deal({0: 'AH 2C 3C 4C KS'}), dealer=3)
    assert bot(h.view(0), random.Random(0)) == Move('trump', (), 'C')


def test_deal_story_counts_in_words_and_a_kot_tells_no_streak():
    st = G.new_standing()
    evs, _, _ = record_deal(st, 3, [1, 3])
    assert evs[0].text == "Seats 1 and 3 win deal 1 (3-1 in tens). Their streak: 1 deal in a row (7 in a row is a kot)."
    evs, _, _ = record_deal(st, 0, [1, 3])
    assert "Their streak: 2 deals in a row" in evs[0].text
    evs, nxt, over = record_deal(st, 0, [4, 0])  # four tens: a kot in one deal, so no streak sentence before it
    assert [e.text for e in evs] == ["Seats 0 and 2 win deal 3 (4-0 in tens).",
                                     "Kot! Seats 0 and 2 collected all four tens in one deal and win the match."]
    st = G.new_standing()
    for k in range(7): evs, _, over = record_deal(st, 0, [3, 1])  # seven in a row: the kot sentence tells the streak
    assert over and not any('streak' in e.text for e in evs) and "won 7 deals in a row" in evs[-1].text


# ---------------------------------------------------------------- what the learner's pages say (round 2, H1)
import re as _re
from pathlib import Path as _Path
NBS = _Path(__file__).parent.parent/'nbs'

def _cell(rel, cid) -> str:
    cell = next(c for c in json.loads((NBS/rel).read_text(encoding='utf-8'))['cells'] if c.get('id') == cid)
    return ''.join(cell['source'])

def _facts_html(view) -> str:
    from cardgames_tutor.ui.table import facts_html
    return _re.sub(r'<[^>]+>', '', facts_html(view, pack=G))

def test_the_trump_makers_fact_is_true_in_every_phase():
    "The facts under the table said 'Seat 0 named trumps' while Seat 0 was still to name it (H1 item 1)."
    h = G.new_hand(deal_cards(G, random.Random(9)), 3)
    before = _facts_html(h.view(0))
    assert h.trump is None and 'Seat 0' in before and not _re.search(r'\bnamed\b', before), before
    h.apply('trump C')
    assert 'Seat 0' in _facts_html(h.view(0))  # the role is still said once trump is named

def test_the_tally_says_deals_are_won_by_partnerships():
    "The scores table's column per seat counted deals, which partnerships win (H1 item 2): its label says so."
    label, won = G.tally({'deals_won': [3, 1]})
    assert won == [3, 1, 3, 1] and 'side' in label and G.contract.tally.label == label

def test_quick_reference_example_gives_every_card_it_counts():
    "The example named the tens collected but not the second trick's cards (H1 item 3): the cards it gives are the tricks played."
    text = ' '.join(_cell('quickref/dehla_pakad.ipynb', 'fd292516').split())
    said = _re.findall(r'(?:10|[AKQJ2-9])[♠♥♦♣]', text)
    tricks = [said[0:4], said[4:8]]
    seats = {0: ' '.join(c[0] for c in tricks), 1: ' '.join(c[1] for c in tricks)}
    h = new_hand(fill_deal({s: ' '.join(t[s] for t in tricks) for s in range(4)}), dealer=3, trump='D')
    for t in tricks:
        for c in t: h.apply(c)
    collected = [c.symbol for c in h.captures[team(0)] if c.rank == 10]
    assert len(h.captures[team(0)]) == 8 and sorted(collected) == sorted(_re.findall(r'10[♠♥♦♣]', text.split('collects')[-1])), (collected, text)

def test_the_centre_story_names_each_seat():
    "The rulebook's trick table wrote '0: A♠, 1: 2♦' (H1 item 4): each card is given with its seat."
    h = play_rows(new_hand(tricks_deal(SPADES), dealer=3, trump='S'), SPADES[:1])
    row = centre_story(h).splitlines()[2]
    assert _re.search(r'\| Seat 0 A♠, Seat 1 2♦, Seat 2 2♠, Seat 3 2♣ \|', row), row

from helpers import rulebook_prose

def test_the_rulebooks_prose_has_no_code_words():
    "H1 item 5: 'the module's function `bot`', 'named as such and tested' were on the learner's page."
    prose = rulebook_prose('games/12_dehla_pakad.ipynb')
    assert not _re.findall(r"`[^`]+`|\bmodule\b|\bfunction\b|\btested\b", prose), _re.findall(r".{40}(?:`[^`]+`|\bmodule\b|\bfunction\b|\btested\b).{20}", prose)

def test_the_second_worked_example_is_said_as_the_deal_it_is():
    "H1 item 6: the rulebook called the second example 'a copy of the same deal', where C held 2♠; its deal gives C no spades."
    first = fill_deal(EXAMPLE)
    second = fill_deal({0: 'AH AS AD KD QD', 1: '10H QS', 2: '3H 2D', 3: '7H 10S'}, void={2: 'S'})
    prose = ' '.join(_cell('games/12_dehla_pakad.ipynb', 'ac84bdc1').split())
    assert first != second and any(FRENCH.parse(c).suit == 'S' for c in first['hands'][2])
    assert not any(FRENCH.parse(c).suit == 'S' for c in second['hands'][2])
    assert 'copy of the same deal' not in prose and 'no spades this time' in prose, prose

def test_the_terminals_table_lines_never_put_a_count_after_a_seat():
    "'Collected: you and Seat 2 4 cards', 'Deals won so far: you and Seat 2 0, Seats 1 and 3 1' read as seat numbers: each count is said apart."
    m = Match(G, seed=9)
    seen = []
    while len(m.hands) < 2 and not m.over:
        if m.hand.phase == 'play' and m.hand.tricks: seen += G.table_lines(m.view(0), 0)
        m.apply(m.legal_actions()[0])
    seen += G.table_lines(m.view(0), 0)
    assert any(l.startswith('Deals won so far') for l in seen) and any('Collected' in l for l in seen)
    bad = [l for l in seen if _re.search(r"\bSeats? \d+ \d", l)]
    assert not bad, bad[:3]
