"""Beggars and Thieves (5p, 4p, Cutthroat, Snear, Leaster): 2,000 seeded random hands per variant with every
invariant; the rulebook's scoring examples; the blind, bury and partner rules; Snear turn-ups; bad input; views
that leak no hidden card and no partner; hand records."""
import random, re, pytest
from types import SimpleNamespace
from cardgames_tutor.core.cards import BEGGARS, in_order
from cardgames_tutor.core.engine import IllegalAction, check_deal, deal_cards
from cardgames_tutor.core.options import BadOption
from cardgames_tutor.core.registry import get_game
from cardgames_tutor.core.match import Match, play_out, random_choice
from cardgames_tutor.core.tricks import trick_winner
from cardgames_tutor.games.beggars_and_thieves import (BeggarsAndThieves, point_table, side_scores, leaster_winners,
                                                       match_winner, draw_rank, RECONSTRUCTED)
from cardgames_tutor.games.beggars_and_thieves_bot import bot
from cardgames_tutor.core.records import to_record, load, save, RecordError
from helpers import assert_no_leak, cards_in

C = BEGGARS.parse_many
VARIANTS = [2, 3, 4, 5]

# ---------------------------------------------------------------------------------------------------------------
# 2,000 random hands per variant, every invariant

def check_follow(h, held):
    "Every card followed suit when its player could (Thieves led need a Thief), checked from the deal."
    for t in h.tricks:
        led = t.cards[0].suit
        for seat, card in zip(t.seats, t.cards):
            assert card in held[seat]
            assert card.suit == led or all(c.suit != led for c in held[seat])
            held[seat].remove(card)

def check_hand(h, game):
    "Every invariant of a finished hand."
    n, pts = game.players, game.points_of
    assert h.is_over and h.to_act is None
    dealt = [c for part in h.deal.values() for x in part for c in (x if isinstance(x, list) else [x])]
    assert in_order(dealt) == in_order(game.deck())  # every card in play dealt exactly once
    played = [c for t in h.tricks for c in t.cards]
    for t in h.tricks:  # one card per seat, in play order from the leader; the right winner
        assert list(t.seats) == [(t.leader + k) % n for k in range(n)]
        assert t.winner == t.seats[trick_winner(list(t.cards), 'T')]
    assert all(h.tricks[i + 1].leader == h.tricks[i].winner for i in range(len(h.tricks) - 1))
    assert h.tricks[0].leader == (h.dealer + 1) % n  # the dealer's left (Snear: the non-dealer) leads first
    taken = [sum(pts[c] for t in h.tricks if t.winner == s for c in t.cards) for s in range(n)]
    r = h.result
    if n == 2:
        assert in_order(played) == in_order(dealt) and len(h.tricks) == 16
        assert r['points'] == taken == r['scores'] and sum(taken) == 120
        return
    if r['leaster']:  # the blind is set aside: its points count for nobody
        check_follow(h, [list(x) for x in h.deal['hands']])
        assert in_order(played + h.blind) == in_order(dealt)
        assert r['points'] == taken and sum(taken) == 120 - sum(pts[c] for c in h.blind)
        won = [s for s in range(n) if any(t.winner == s for t in h.tricks)]
        fewest = min(taken[s] for s in won)
        assert r['winners'] == [s for s in won if taken[s] == fewest]
        assert r['scores'] == [3 if s in r['winners'] else 0 for s in range(n)]
        return
    assert in_order(played + h.buried) == in_order(dealt) and len(h.buried) == game.bury_count
    held = [list(x) for x in h.deal['hands']]
    held[h.picker] = [c for c in held[h.picker] + list(h.deal['blind']) if c not in h.buried]
    check_follow(h, held)
    if any(c.suit == 'T' for c in h.buried):  # a Thief buried only with every Beggar: the picker then plays only Thieves
        assert all(c.suit == 'T' for t in h.tricks for c, s in zip(t.cards, t.seats) if s == h.picker)
    taken[h.picker] += sum(pts[c] for c in h.buried)
    assert r['points'] == taken and sum(taken) == 120  # all 120 points, buried included
    side = {h.picker} | ({h.partner} if h.partner is not None else set())
    side_points = sum(taken[s] for s in side)
    assert r['side_points'] == side_points
    winners = side if side_points > 60 else set(range(n)) - side
    assert set(r['winners']) == winners
    best = side_points if side_points > 60 else 120 - side_points
    base = 6 if best == 120 else 4 if best >= 91 else 2
    alone = h.partner is None
    bonus = 2 if n >= 4 and alone else 0  # default: a silent lone picker gets the bonus too
    assert r['scores'] == [base + bonus if s in winners else 0 for s in range(n)]  # losers score 0
    if n >= 4 and h.partner is not None:  # the partner really holds the partner card
        assert h.partner_card in h.deal['hands'][h.partner] and h.partner != h.picker

@pytest.mark.parametrize('players', VARIANTS)
def test_2000_random_hands(players):
    game, rng = BeggarsAndThieves(players=players), random.Random(players)
    kinds = set()
    for i in range(2000):
        h = game.new_hand(deal_cards(game, rng), dealer=i % players)
        while not h.is_over: h.apply(rng.choice(h.legal_actions()))
        check_hand(h, game)
        kinds.add('snear' if players == 2 else 'leaster' if h.result['leaster'] else h.declaration or 'cutthroat')
    if players >= 4: assert kinds == {'leaster', 'partner', 'alone', 'call'}  # every path was taken
    if players == 3: assert kinds == {'leaster', 'cutthroat'}

@pytest.mark.parametrize('players', VARIANTS)
def test_bot_matches_are_legal_and_finish(players):
    for seed in range(6):
        m = play_out(Match(BeggarsAndThieves(players=players), seed=seed))  # the engine refuses any illegal bot move
        totals = m.standing['totals']
        assert m.over and totals == [sum(x) for x in zip(*m.standing['hands'])]
        assert totals[m.standing['winner']] >= m.game.goal.value and totals.count(max(totals)) == 1

# ---------------------------------------------------------------------------------------------------------------
# views: no hidden card, no partner

@pytest.mark.parametrize('players', VARIANTS)
def test_views_never_leak_a_card_or_the_partner(players):
    game = BeggarsAndThieves(players=players)
    for seed in range(6):  # every seat, every action of a whole hand (the token scan is slow: keep it small)
        m, rng = Match(game, seed=seed), random.Random(seed)
        while not m.over and len(m.hands) == 1:
            legal = m.legal_actions()
            assert legal and all(m.explain(a).legal for a in legal[:20])
            h = m.hand
            for seat in range(players):
                assert_no_leak(m, seat)
                v = m.view(seat)
                if players >= 4 and not h.revealed and h.phase != 'over' and seat not in (h.picker, h.partner):
                    assert v['partner'] is None and 'alone' not in v
                    assert not any('partner' in e.text and e.to for e in h.events if e.seen_by(seat) and e.to)
            m.apply((bot if seed % 2 else random_choice)(m.view(m.to_act), rng))

def test_silent_alone_looks_like_a_partner_to_the_others():
    g = BeggarsAndThieves()
    base = [C('T1 G1 G2 G3 B2 B3 R2'), C('T2 T3 G4 B4 R3 R4 R5'), C('T14 T13 T12 T7 G7 B8 R8'),
            C('T6 T11 T5 G5 B5 B6 R6'), C('T4 T8 T9 T10 G6 B7 R1')]
    with_partner = Match(g, deals=[{'hands': base, 'blind': C('G8 R7')}], first_dealer=4)
    swapped = [base[0], base[1], base[3], base[2], base[4]]  # now the picker (seat 2) holds T6 itself
    silent = Match(g, deals=[{'hands': swapped, 'blind': C('G8 R7')}], first_dealer=4)
    for m in (with_partner, silent):
        for a in ('pass', 'pass', 'pick', 'bury G8 R7', 'partner'): m.apply(a)
    assert with_partner.hand.partner == 3 and silent.hand.partner is None
    for seat in (0, 1, 4):
        a, b = with_partner.view(seat), silent.view(seat)
        for key in ('declaration', 'partner', 'partner_thief', 'picker', 'buried_count', 'thief_buried', 'role', 'revealed'):
            assert a[key] == b[key], key
        assert 'alone' not in a and 'alone' not in b
        assert a['events'][-3:] == b['events'][-3:]
    assert silent.view(2)['alone'] is True and with_partner.view(2)['alone'] is False
    assert with_partner.view(3)['partner'] == 3 and with_partner.view(3)['role'] == 'partner'

def test_partner_revealed_when_the_card_is_played():
    g = BeggarsAndThieves()
    deal = {'hands': [C('T1 G1 G2 G3 B2 B3 R2'), C('T2 T3 G4 B4 R3 R4 R5'), C('T14 T13 T12 T7 G7 B8 R8'),
                      C('T6 T11 T5 G5 B5 B6 R6'), C('T4 T8 T9 T10 G6 B7 R1')], 'blind': C('G8 R7')}
    m = Match(g, deals=[deal], first_dealer=2)  # seat 3 is offered first and leads
    for a in ('pass', 'pass', 'pick', 'bury G8 R7', 'partner'): m.apply(a)  # seat 0 picks; T6 is seat 3's
    assert m.hand.picker == 0 and m.view(1)['partner'] is None
    m.apply('T6')
    assert m.view(1)['partner'] == 3 and m.view(1)['revealed']
    assert "That is the partner card: Seat 3 is Seat 0's partner." in m.view(1)['events'][-1]

# ---------------------------------------------------------------------------------------------------------------
# scoring: the rulebook's examples, in a real hand

def finished(players, taken, partner_verb='partner', alone_bonus=True):
    "A real hand up to the play, then scored with `taken` card points per seat (buried counted in seat 0's)."
    g = BeggarsAndThieves(players=players, silent_alone_bonus=alone_bonus)
    deal = {4: {'hands': [C('T6 T7 T14 T13 G8 G7 B8 B7 R8'), C('T8 T9 T10 T11 T12 G6 B6 R6 R7'),
                          C('T1 T2 T3 T4 T5 G5 B5 R5 G4'), C('G1 G2 G3 B1 B2 B3 B4 R1 R2')], 'blind': C('R3 R4')}}[players]
    h = g.new_hand(check_deal(g, deal), dealer=3)
    for a in ('pick', 'bury R3 R4', partner_verb): h.apply(a)
    h.taken = list(taken)
    h.hand_done()
    return h

def test_rulebook_scoring_examples():
    assert side_scores(93) == ('picker', 4)                          # example 1
    assert side_scores(120 - 74) == ('opponents', 2)                 # example 2
    assert side_scores(60) == ('opponents', 2)                       # example 3: 60-60
    assert side_scores(112, alone_bonus=True) == ('picker', 6)       # alone, 112: 4 + 2
    assert side_scores(8, alone_bonus=True) == ('opponents', 6)      # opponents 112 against a lone picker
    h = finished(4, [50, 43, 27, 0], 'call T8')  # picker 0 calls T8: seat 1 is partner; 93 together
    assert h.result['scores'] == [4, 4, 0, 0] and h.result['side_points'] == 93
    h = finished(4, [30, 16, 74, 0], 'call T8')  # opponents win with 74
    assert h.result['scores'] == [0, 0, 2, 2]
    h = finished(4, [30, 30, 60, 0], 'call T8')  # 60-60: opponents
    assert h.result['scores'] == [0, 0, 2, 2] and 'tie' in h.result['text']
    h = finished(4, [112, 8, 0, 0], 'alone')
    assert h.result['scores'] == [6, 0, 0, 0] and h.result['bonus']
    h = finished(4, [8, 100, 12, 0], 'alone')
    assert h.result['scores'] == [0, 6, 6, 6]
    h = finished(4, [120, 0, 0, 0], 'call T8')
    assert h.result['scores'] == [6, 6, 0, 0]

def test_silent_alone_bonus_is_a_table_option():
    h = finished(4, [112, 8, 0, 0], 'partner')  # seat 0 holds T6: alone in silence
    assert h.partner is None and h.result['scores'] == [6, 0, 0, 0]
    h = finished(4, [112, 8, 0, 0], 'partner', alone_bonus=False)
    assert h.result['scores'] == [4, 0, 0, 0] and not h.result['bonus']

def test_cutthroat_has_no_alone_bonus():
    g = BeggarsAndThieves(players=3)
    h = g.new_hand(deal_cards(g, random.Random(1)), dealer=0)
    h.apply('pick'); h.apply(h.legal_actions()[0])
    assert h.phase == 'play' and h.declaration is None  # no partner declaration in Cutthroat
    h.taken = [0] * 3; h.taken[h.picker] = 112 - sum(g.points_of[c] for c in h.buried)
    rest = [s for s in range(3) if s != h.picker]; h.taken[rest[0]] = 8
    h.hand_done()
    assert h.result['scores'][h.picker] == 4 and all(h.result['scores'][s] == 0 for s in rest)

# ---------------------------------------------------------------------------------------------------------------
# the blind, burying, the partner calls

def four():
    g = BeggarsAndThieves(players=4)
    deal = {'hands': [C('T6 T7 T14 T13 G8 G7 B8 B7 R8'), C('T8 T9 T10 T11 T12 G6 B6 R6 R7'),
                      C('T1 T2 T3 T4 T5 G5 B5 R5 G4'), C('G1 G2 G3 B1 B2 B3 B4 R1 R2')], 'blind': C('R3 R4')}
    return g.new_hand(check_deal(g, deal), dealer=3)

def refused(h, action, text):
    before = (h.phase, h.to_act, [list(x) for x in h.hands], list(getattr(h, 'buried', ())), len(h.events), len(h.history))
    with pytest.raises(IllegalAction) as e: h.apply(action)
    assert text in str(e.value) and '\n' not in str(e.value)
    assert before == (h.phase, h.to_act, [list(x) for x in h.hands], list(getattr(h, 'buried', ())), len(h.events), len(h.history))

def test_blind_offered_from_the_dealers_left_and_picked_once():
    h = four()
    assert (h.phase, h.to_act) == ('blind', 0)
    refused(h, 'T6', "'T6' is not an action here: the actions are pick, pass")
    h.apply('pass'); assert h.to_act == 1
    h.apply('pick'); assert h.picker == 1 and len(h.hands[1]) == 11
    refused(h, 'pick', "has already picked up the blind")
    refused(h, 'pass', "must first bury 2 cards")
    h.apply('bury R3 R4')
    refused(h, 'pick', "has already picked up the blind")
    h.apply('partner')
    assert h.to_act == 0 and h.phase == 'play'  # the dealer's left leads, not the picker

def test_bury_restriction():
    h = four(); h.apply('pick')
    refused(h, 'bury T6 G8', "may not bury a Thief (6 Thief) while a Beggar stays in your hand")
    refused(h, 'bury G8', "buries exactly 2 cards, not 1")
    refused(h, 'bury G8 G1', "You do not hold 1 green")
    assert all(all(c.suit != 'T' for c in m.cards) for m in h.legal_actions())
    g = BeggarsAndThieves(players=4)  # a picker with one Beggar may bury it with a Thief
    deal = {'hands': [C('T6 T7 T8 T9 T10 T11 T12 T13 G8'), C('G1 G2 G3 G4 G5 G6 G7 T14 B1'),
                      C('B2 B3 B4 B5 B6 B7 B8 R1 R2'), C('R3 R4 R5 R6 R7 R8 T1 T2 T3')], 'blind': C('T4 T5')}
    h = g.new_hand(check_deal(g, deal), dealer=3); h.apply('pick')
    refused(h, 'bury T4 T5', "You may not bury a Thief (4 Thief, 5 Thief) while a Beggar stays in your hand.")
    assert {str(m) for m in h.legal_actions()} == {f"bury {t} G8" for t in ('T4', 'T5', 'T6', 'T7', 'T8', 'T9', 'T10', 'T11', 'T12', 'T13')}
    h.apply('bury T4 G8')
    assert "At least one of them is a Thief" in h.view(1)['events'][-1] and 'T4' not in h.view(1)['events'][-1]

def test_the_six_calls():
    h = four(); h.apply('pick'); h.apply('bury G8 B8')  # seat 0 holds T6 and T7
    assert [str(a) for a in h.legal_actions()] == ['partner', 'alone', 'call T8']
    refused(h, 'call T7', "You hold 7 Thief yourself")
    refused(h, 'call T6', "A call names a Thief above six")
    refused(h, 'call T9', "lowest Thief above six that you do not hold: 8 Thief, not 9 Thief")
    refused(h, 'call X', "A call names a Thief above six")
    h.apply('call T8')
    assert h.partner == 1 and h.partner_card == BEGGARS.parse('T8') and h.history[-1][1] == h.parse_action('call T8')
    h = four(); h.apply('pass'); h.apply('pick'); h.apply('bury R3 R4')  # seat 1 has no T6
    refused(h, 'call T8', "Only a picker who holds the 6 Thief may call")

def test_a_called_thief_is_never_one_the_picker_buried():
    g = BeggarsAndThieves(players=4)
    deal = {'hands': [C('T6 T7 T14 T13 G8 G7 B8 B7 R8'), C('T9 T10 T11 T12 G6 B6 R6 R7 R5'),
                      C('T1 T2 T3 T4 T5 G5 B5 G4 R3'), C('G1 G2 G3 B1 B2 B3 B4 R1 R2')], 'blind': C('T8 R4')}
    h = g.new_hand(check_deal(g, deal), dealer=3); h.apply('pick')
    assert all(BEGGARS.parse('T8') not in m.cards for m in h.legal_actions())  # a Beggar is still in hand
    h.apply('bury G8 B8')
    refused(h, 'call T8', "You hold 8 Thief yourself")
    assert str(h.callable_thief()) == 'T9'

# ---------------------------------------------------------------------------------------------------------------
# Leaster, the end of the game, the first dealer

def test_leaster_winner_needs_a_trick():
    g = BeggarsAndThieves(players=3)
    deal = {'hands': [C('T5 T6 T7 T8 T9 T10 T11 T12 T13 T14'), C('T1 T2 T3 T4 G3 G4 G5 G6 G7 G8'),
                      C('B3 B4 B5 B6 B7 B8 R2 R3 R4 R5')], 'blind': C('R6 R7 R8')}
    h = g.new_hand(check_deal(g, deal), dealer=2)
    for a in ('pass', 'pass', 'pass'): h.apply(a)
    assert h.leaster and h.to_act == 0
    while not h.is_over: h.apply(h.legal_actions()[-1])
    assert h.tricks_won == [10, 0, 0] and h.result['points'] == [120 - 25, 0, 0]  # R6 R7 R8 (25) set aside
    assert h.result['winners'] == [0] and h.result['scores'] == [3, 0, 0]  # 0 points but no trick: no win
    assert leaster_winners([0, 12, 30, 40, 38], [0, 1, 2, 2, 2]) == [1]
    assert leaster_winners([10, 10, 50, 40], [1, 2, 3, 3]) == [0, 1]  # a tie: both score 3 (table rule)

def settle(game, totals, scores, dealer=0):
    m = SimpleNamespace(standing={'totals': list(totals), 'hands': [], 'winner': None})
    hand = SimpleNamespace(result={'scores': scores}, dealer=dealer)
    events, next_dealer, over = game.settle(hand, m)
    return m.standing, events, next_dealer, over

def test_first_to_20_and_ties():
    g = BeggarsAndThieves()
    st, ev, d, over = settle(g, [18, 4, 0, 0, 0], [2, 0, 0, 0, 0])
    assert over and st['winner'] == 0 and st['totals'][0] == 20  # exactly 20 counts
    st, ev, d, over = settle(g, [18, 18, 0, 0, 0], [2, 2, 0, 0, 0], dealer=4)
    assert not over and st['winner'] is None and d == 0  # tied at the top: another hand, the deal passes on
    assert any(e.kind == 'tie' and 'everyone plays another hand' in e.text for e in ev)
    st, ev, d, over = settle(g, [18, 18, 0, 0, 0], [4, 6, 0, 0, 0])
    assert over and st['winner'] == 1  # both over 20: the higher
    st, ev, d, over = settle(g, [10, 10, 0, 0, 0], [2, 2, 0, 0, 0], dealer=2)
    assert not over and d == 3
    assert match_winner([499, 499], 500) is None and match_winner([520, 510], 500) == 0

def test_snear_target_and_tie():
    s2 = BeggarsAndThieves(players=2)
    st, ev, d, over = settle(s2, [440, 440], [60, 60])
    assert not over  # 500-500: play another hand
    st, ev, d, over = settle(s2, [440, 430], [60, 60])
    assert over and st['winner'] == 0

def test_first_dealer_draw():
    assert draw_rank(BEGGARS.parse('T8')) > draw_rank(BEGGARS.parse('G8')) > draw_rank(BEGGARS.parse('T7'))
    g = BeggarsAndThieves()
    ties = 0
    for seed in range(300):
        dealer, events = g.first_dealer(random.Random(seed))
        assert dealer == g.first_dealer(random.Random(seed))[0]  # seeded
        text = events[0].text
        ties += 'draw again' in text
        last = text.split(': ', 1)[1].split('; ')[-1].split('. Seat')[0]  # the last round of draws
        drawn = {int(p.split()[1]): BEGGARS.parse(' '.join(p.split()[2:4])) for p in last.split(', ')}  # 'Seat 2 7 Thief'
        assert max(drawn, key=lambda s: draw_rank(drawn[s])) == dealer
    assert ties > 0
    note = events[1].text  # the card points, in words a learner reads, and once where they come from
    assert '=' not in note and 'Thieves: 14 is worth 4 points' in note and '6 worth 11' in note and '120 in the pack' in note
    assert note.count('not known') == 1 and 'Sheepshead' in note and 'reconstructed' not in note and 'a table may' not in note
    own = BeggarsAndThieves(points=dict(RECONSTRUCTED, T14=5, T13=2)).first_dealer(random.Random(0))[1][1].text
    assert '14 is worth 5 points' in own and "the table's own values" in own and 'not known' not in own

def test_what_the_table_and_quick_reference_say():
    "The status line says once who picked the blind; the Bury row says who tells whom what; the call reads plainly."
    from cardgames_tutor.ui.table import facts_html
    g = BeggarsAndThieves(players=5)
    deal = {'hands': [C('T6 T7 T14 T13 G8 G7 B8'), C('T8 T9 T10 T11 T12 G6 B6'), C('T1 T2 T3 T4 T5 G5 B5'),
                      C('G1 G2 G3 B2 B3 B4 R1'), C('R2 R3 R4 R5 R6 R7 R8')], 'blind': C('G4 B7')}
    h = g.new_hand(check_deal(g, deal), dealer=4)
    for a in ('pick', 'bury G8 G7', 'call T8'): h.apply(a)
    for seat in range(5):  # the picker (Seat 0) is told once, as everyone is; the others are told their side too
        facts = facts_html(h.view(seat), pack=g)
        assert facts.count('picked up the blind') == 1, facts
        assert ('partner' in facts or 'against the picker' in facts) if seat else 'you ' not in facts
    call = [e.text for e in h.events if e.kind == 'declare'][-1]
    assert call.startswith('Seat 0 calls a partner: whoever holds the 8 Thief') and 'holder of the 6' not in call
    assert cards_in(call, g.pack) == set()  # names a rule's cards, places none
    bury = next(r.text for r in g.QUICKREF if r.label == 'Bury')
    assert '(say so)' not in bury and 'the picker then tells the table a Thief is buried' in bury

# ---------------------------------------------------------------------------------------------------------------
# Snear

SDEAL = {'down': [C('T1 T2 T3 T4 T5 T6'), C('T7 T8 T9 T10 T11 T12')],
         'up': [C('G8 G6 B8 B7 R8 R7'), C('G7 G5 B6 B5 R6 R5')],
         'hands': [C('G4 G3 B3 R3'), C('T14 T13 B4 R4')]}

def test_snear_turn_ups_and_following_with_face_up_cards():
    g = BeggarsAndThieves(players=2)
    h = g.new_hand(check_deal(g, SDEAL), dealer=1)
    assert h.to_act == 0
    refused(h, 'T1', "cannot play 1 Thief: play from your hand or your face-up cards")  # face down
    refused(h, 'T14', "cannot play 14 Thief: play from your hand or your face-up cards")  # the opponent's: same words
    h.apply('G8')
    assert h.legal_actions() == C('G7 G5')  # only face-up greens, but they must follow
    assert BEGGARS.parse('T7') in h.hidden_cards(1) and BEGGARS.parse('T7') in h.hidden_cards(0)
    h.apply('G7')
    assert h.up[0][0] == BEGGARS.parse('T1') and h.up[1][0] == BEGGARS.parse('T7')
    assert 'Seat 1 turns up 7 Thief, which lay under the card played.' in h.view(0)['events']
    assert h.to_act == 0 and h.taken == [21, 0]  # the trick winner leads the next
    h.apply('G4')  # from hand: nothing turns up
    h.apply('G5')
    assert h.up[1][1] == BEGGARS.parse('T8') and h.to_act == 1 and h.taken == [21, 1]
    while not h.is_over: h.apply(h.legal_actions()[0])
    assert len(h.tricks) == 16 and sum(h.result['points']) == 120

def test_snear_deal_alternates():
    m = play_out(Match(BeggarsAndThieves(players=2), seed=11))
    dealers = [h.dealer for h in m.hands]
    assert all(dealers[i + 1] == 1 - dealers[i] for i in range(len(dealers) - 1))

# ---------------------------------------------------------------------------------------------------------------
# options, bad input, records

def test_point_table_option():
    assert sum(point_table().values()) == 120
    g = BeggarsAndThieves(points=dict(RECONSTRUCTED, T14=5, T13=2))
    assert g.points_of[BEGGARS.parse('T14')] == 5
    for bad, text in [(dict(RECONSTRUCTED, T14=5), "adds up to 121"), (dict(RECONSTRUCTED, T1=1, T14=3), "T1 is numbered 1-4"),
                      ({'T14': 120}, "T5 is numbered 5 or more"), ('T14=x', "T14 must be worth a whole number"),
                      ({'Z9': 1}, "unknown card 'Z9'"), ([1], "option points=[1] is not allowed")]:
        with pytest.raises(BadOption) as e: BeggarsAndThieves(points=bad)
        assert text in str(e.value) and '\n' not in str(e.value)
    with pytest.raises(BadOption, match="2, 3, 4 or 5"): get_game('beggars-and-thieves', players=6)

def test_bad_text_is_refused_in_one_line():
    h = four()
    refused(h, 'fold', "'fold' is not an action here: the actions are pick, pass")
    refused(h, 'pick G8', "'pick' takes nothing after it")
    h.apply('pick')
    refused(h, 'bury G9 G8', "Unknown card 'G9'")
    h.apply('bury R3 R4'); h.apply('alone')
    refused(h, 'alone', "plays a card to the trick")
    refused(h, 'G1', "does not hold 1 green")
    h.apply('T14')
    refused(h, 'G6', "You must follow the led suit (Thieves) while you hold any")  # a Thief led needs a Thief
    h.apply('T8')
    refused(h, 'G5', "You must follow the led suit (Thieves)")

def test_undo_replays_exactly():
    m = Match(BeggarsAndThieves(players=4), seed=5)
    rng = random.Random(5)
    for _ in range(25): m.apply(bot(m.view(m.to_act), rng))
    view = m.view(None)
    m.apply(m.legal_actions()[0]); m.undo(1)
    assert m.view(None)['hands'] == view['hands'] and m.view(None)['phase'] == view['phase']

@pytest.mark.parametrize('players', VARIANTS)
def test_records_round_trip(players, tmp_path):
    for seed in range(4):
        m = play_out(Match(BeggarsAndThieves(players=players), seed=seed), random_choice, random.Random(seed))
        again = load(to_record(m))
        assert again.standing == m.standing and len(again.hands) == len(m.hands) and again.over
        path = save(m, tmp_path / f"bt{players}-{seed}.json")
        assert load(path).standing == m.standing
    g = BeggarsAndThieves(players=players, points=dict(RECONSTRUCTED, T14=5, T13=2), target=8)
    m = play_out(Match(g, seed=1))
    assert load(to_record(m)).standing == m.standing

def test_record_with_a_bad_action_is_refused():
    m = play_out(Match(BeggarsAndThieves(players=4), seed=2))
    rec = to_record(m)
    first = rec['hands'][0]['actions']
    first[0] = 'bury G8 R8'
    with pytest.raises(RecordError, match="hand 1, action 0"): load(rec)


# ---------------------------------------------------------------------------------------------------------------
# wording: counts agree with their noun, private lines in the third person

def _points(n): return f"{n} point{'' if n == 1 else 's'}"

def test_bury_help_and_verdict_wording():
    h = four()
    for a in ('pass', 'pass', 'pick'): h.apply(a)  # seat 2 picks R3 R4
    assert h.action_help().startswith("bury 2 cards from your hand: type bury and the cards, e.g. \"bury ")
    seen = set()
    for move in h.legal_actions():
        points = sum(h.points_of[c] for c in move.cards)
        assert f"their {_points(points)} count for you." in h.explain(move).text
        seen.add(points == 1)
    assert seen == {True, False}  # both a one-point burial and others were worded

def test_trick_points_and_private_lines_read_right_to_anyone():
    kinds, one = set(), False
    for seed in range(60):
        g = BeggarsAndThieves(players=(5, 4, 3, 2)[seed % 4])
        rng = random.Random(seed)
        h = g.new_hand(deal_cards(g, rng), seed % g.n_seats())
        while not h.is_over: h.apply(random_choice(h.view(h.to_act), rng))
        for e in h.events:
            if e.kind == 'trick':
                assert e.text.endswith(f"; {_points(e.data['points'])}."), e.text
                one = one or e.data['points'] == 1
            if e.to is not None and e.kind in ('buried', 'alone', 'partner'):
                kinds.add(e.kind)
                assert e.text.startswith(f"Seat {e.seat} ") and not re.search(r"\b(you|your|yours)\b", e.text, re.I), e.text
            if e.kind == 'buried':
                assert re.fullmatch(rf"Seat {e.seat} buried .+ \(\d+ points?, counted for Seat {e.seat} at the end\)\.", e.text), e.text
                n = int(re.search(r"\((\d+) point", e.text).group(1))
                assert e.text.count(_points(n)) == 1
    assert one and kinds == {'buried', 'alone', 'partner'}

def test_snear_hand_over_says_one_point():
    g = BeggarsAndThieves(players=2)
    h = g.new_hand(deal_cards(g, random.Random(0)), 0)
    h.taken = [1, 119]
    h.hand_done()
    assert h.result['text'].startswith("Hand over. Seat 0 took 1 point, Seat 1 119 points;")
