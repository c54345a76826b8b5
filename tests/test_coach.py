"""The coach: honest (reads one view, same hint for deals that look the same), right on obvious positions, and its
reasons name only facts the seat can see; the terminal's hint and review."""
import inspect, io, json, random, re, contextlib
import pytest
from cardgames_tutor.core.cards import FRENCH, MARIAS
from cardgames_tutor.core.registry import get_game
from cardgames_tutor.core.match import Match, play_out
from cardgames_tutor.coach.search import hint, hint_text, review, review_text
from cardgames_tutor.core.records import save
from cardgames_tutor.term import cli
from helpers import cards_in, assert_no_leak

B = 0.08  # a small budget keeps the tests quick; determinism does not depend on it


def _first_turn(game, deal, dealer):
    m = Match(game, seed=11, deals=[deal], first_dealer=dealer)
    play_out(m, stop_at=(0,))
    return m


def _twin(game, deal, shuffle_keys):
    "The same deal with every card seat 0 cannot see shuffled among the places it cannot see."
    d = json.loads(json.dumps({k: [[str(c) for c in p] if isinstance(p, list) else str(p) for p in v] for k, v in deal.items()}))
    places = [(k, i) for k, i in shuffle_keys]
    pool = [c for k, i in places for c in (d[k][i] if i is not None else d[k])]
    random.Random(99).shuffle(pool)
    for k, i in places:
        n = len(d[k][i] if i is not None else d[k])
        if i is None: d[k], pool = pool[:n], pool[n:]
        else: d[k][i], pool = pool[:n], pool[n:]
    return d


TWINS = [  # game, dealer that makes seat 0 act first, the places seat 0 cannot see
    ('begga-kaat', {}, 3, [('hands', 1), ('hands', 2), ('hands', 3)]),
    ('kocka', {}, 3, [('hands', 1), ('hands', 2), ('hands', 3)]),
    ('dehla-pakad', {}, 3, [('hands', 1), ('hands', 2), ('hands', 3)]),
    ('beggars-and-thieves', {'players': 5}, 4, [('hands', s) for s in range(1, 5)] + [('blind', None)]),
    ('beggars-and-thieves', {'players': 2}, 1, [('hands', 1), ('down', 0), ('down', 1)]),
]


@pytest.mark.parametrize('name,opts,dealer,places', TWINS)
def test_same_view_same_hint(name, opts, dealer, places):
    game = get_game(name, **opts)
    deal = Match(game, seed=5, first_dealer=dealer).hands[0].deal
    a = _first_turn(game, deal, dealer)
    b = _first_turn(game, _twin(game, deal, places), dealer)
    assert a.hands[0].deal != b.hands[0].deal
    va, vb = a.view(0), b.view(0)
    assert va['hand'] == vb['hand'] and va['events'] == vb['events']
    ha, hb = hint(va, game, seed=3, budget=B), hint(vb, game, seed=3, budget=B)
    assert [(r.action, r.value) for r in ha.ranked] == [(r.action, r.value) for r in hb.ranked]
    assert ha.reasons == hb.reasons
    hc = hint(va, game, seed=4, budget=B)  # another seed is another sample of deals
    assert hc.best in va['legal']


def test_coach_reads_a_view_not_a_match():
    assert list(inspect.signature(hint).parameters)[:2] == ['view', 'game']
    game = get_game('begga-kaat')
    m = Match(game, seed=1)
    play_out(m, stop_at=(0,))
    with pytest.raises(ValueError, match='teaching view'):
        from cardgames_tutor.coach.worlds import sample_hand
        sample_hand(m.view(None), game, random.Random(0))


GAMES = [('begga-kaat', {}), ('kocka', {}), ('dehla-pakad', {}), ('maghe-satra', {}),
         *[('beggars-and-thieves', {'players': p}) for p in (5, 4, 3, 2)]]


@pytest.mark.parametrize('name,opts', GAMES)
def test_inputs_leak_nothing_and_reasons_name_only_seen_cards(name, opts):
    "At each of seat 0's turns: its view shows no hidden card, and the reasons name only cards it has seen."
    game = get_game(name, **opts)
    m, rng, turns = Match(game, seed=2), random.Random(2), 0
    while not m.over and turns < 6 and len(m.hands) < 10:
        if m.to_act != 0:
            m.apply(game.bot(m.view(m.to_act), rng)); continue
        view = m.view(0)
        hidden = m.hand.hidden_cards(0)
        assert_no_leak(m, 0)  # the engine's leak check over the view the coach reads
        h = hint(view, game, seed=turns, budget=B)
        assert h.best in view['legal'] and 1 <= len(h.reasons) <= 3
        assert not cards_in([r.text for r in h.reasons], game.pack) & hidden, h.reasons
        assert all(r.tactic and r.text.endswith('.') for r in h.reasons)
        if len(h.ranked) > 1: assert h.reasons[-1].tactic == 'compare'
        m.apply(h.best if rng.random() < .5 else rng.choice(view['legal'])); turns += 1
    assert turns >= 2


def test_begga_kaat_throws_the_queen_of_hearts_when_void():
    "Seat 0 has no clubs and plays last to a club chaal: the kaat, the Q♥ (11 points) into another's chaal."
    game, C = get_game('begga-kaat'), FRENCH.parse_many
    mine = C('QH AH KH AS KS JS 10S 9S AD KD JD 10D 9D')  # high cards: a queen kept would be taken later
    rest = [c for c in FRENCH if c not in mine]
    one = C('2C 3C 4C 5C 6C 7C 8C 3S 4S 5S 3D 4D 5D')  # Seat 1 leads its lowest card, 2♣
    rest = [c for c in rest if c not in one]
    hands = [mine, one, rest[0::2], rest[1::2]]
    m = _first_turn(game, {'hands': hands}, 0)  # the dealer's left, Seat 1, leads
    view = m.view(0)
    assert view['trick'][0] == (1, FRENCH.parse('2C')) and [c.suit for _, c in view['trick']] == ['C'] * 3
    h = hint(view, game, seed=0, budget=0.2)
    assert h.best is FRENCH.parse('QH')
    throw = [r for r in h.reasons if r.tactic == 'throw-penalty'][0]
    top_seat, top = max(view['trick'], key=lambda sc: sc[1].rank)
    assert 'no clubs' in throw.text and 'Q♥' in throw.text and f"Seat {top_seat}" in throw.text and top.symbol in throw.text


def test_kocka_throws_the_hejma_into_another_trick():
    "Playing last to a trick it cannot follow, with the Hejma in hand: throw it (10 points) to the winner."
    game, hejma = get_game('kocka'), MARIAS.parse('QL')
    for seed in range(300):
        m, rng = Match(game, seed=seed), random.Random(seed)
        while not m.over and len(m.hands) == 1:
            v = m.view(m.to_act)
            if (m.to_act == 0 and v['phase'] == 'play' and len(v['trick']) == 3 and hejma in v['legal']
                    and v['trick'][0][1].suit != 'L' and len(v['legal']) > 1):
                h = hint(v, game, seed=0, budget=0.2)
                assert h.best is hejma, (seed, h.ranked)
                assert h.reasons[0].tactic == 'throw-penalty' and 'QL' not in h.reasons[0].text
                return
            m.apply(game.bot(v, rng))
    pytest.fail("no position found")


def test_maghe_satra_begs_when_no_card_can_bust():
    from cardgames_tutor.games.maghe_satra import written_deal, BEG
    game = get_game('maghe-satra')
    m = Match(game, seed=1, deals=[written_deal(game, 'AS 9H 9D 9C', '2S 5H 6H 7H 8H')], first_dealer=3)
    v = m.view(0)
    assert v['to_act'] == 0 and v['total'][0] == 3
    h = hint(v, game, budget=B)
    assert h.best == BEG and h.reasons[0].tactic == 'beg-odds' and 'At 3, no card' in h.reasons[0].text


def test_review_worst_first_with_jump_index(tmp_path, monkeypatch):
    from test_coach_review import evaluated_once
    evaluated_once(monkeypatch)  # the review and its text (from the saved hand) weigh the same moves: searched once
    game = get_game('begga-kaat')
    done = play_out(Match(game, seed=4), lambda v, rng: rng.choice(v['legal']) if v['seat'] == 0 else game.bot(v, rng))
    items = review(done, 0, budget=B, top=4)
    assert items and [x.cost for x in items] == sorted((x.cost for x in items), reverse=True)
    for x in items:
        assert done.actions[x.index][1:] == (0, x.played) and x.played != x.best
        back = done.replayed(done.actions[:x.index])
        assert back.to_act == 0 and x.best in back.legal_actions()
    path = save(done, tmp_path / 'hand.json')
    text = review_text(path, 0, budget=B, top=4)
    assert text.startswith("Review of Seat 0") and f"1. Hand {items[0].hand_no}: you played {items[0].played.symbol}; the coach would rather play {items[0].best.symbol}." in text
    assert 'action ' not in text  # the review's own count of moves is a program's: the line names the hand and the moves


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err): code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


def test_cli_hint_and_coach_and_review(tmp_path, monkeypatch):
    import cardgames_tutor.coach.search as coach
    monkeypatch.setattr(coach, 'ACTIONS_PER_SECOND', 500)  # quick hints in a test
    said, answers = [], iter(['hint', 'quit'])
    cli.play(Match(get_game('begga-kaat'), seed=2), input=lambda _: next(answers), output=said.append)
    assert any(s.startswith('Hint: ') for s in said)
    said, answers = [], iter(['quit'])
    cli.play(Match(get_game('kocka'), seed=2), input=lambda _: next(answers), output=said.append, coach=True)
    assert any(s.startswith('Hint: ') for s in said)
    game = get_game('kocka')
    path = save(play_out(Match(game, seed=3)), tmp_path / 'k.json')
    code, out, _ = _run(['review', str(path), '--seat', '1'])
    assert code == 0 and out.startswith('Review of Seat 1')
    code, _, err = _run(['review', str(path), '--seat', '9'])
    assert code == 2 and 'seat must be from 0 to 3' in err and len(err) < 300
    code, _, err = _run(['review', str(tmp_path / 'missing.json')])
    assert code == 2 and 'no hand record' in err


@pytest.mark.parametrize('name,opts', GAMES)
def test_cli_hint_in_every_game(name, opts, monkeypatch):
    """`cardgames-tutor play GAME --coach` through `main`: the opening line names hint, `help` names hint and --coach;
    a hint (typed, or shown by --coach) names an action the game takes as typed; hint is asked again after it."""
    import cardgames_tutor.coach.search as coach
    monkeypatch.setattr(coach, 'ACTIONS_PER_SECOND', 500)  # quick hints in a test
    seen, lines = [], iter(['help', 'hint', None, 'hint', 'quit'])
    def answer(prompt):
        if prompt != '> ': return ''  # Enter at the pause after a hand
        line = next(lines)
        if line is None:  # play the hint of the turn shown
            line = re.search(r'\(type "([^"]+)"', seen[-1].split('\n')[0]).group(1)  # the hint's move as it is typed
        return line
    said = []
    def out(text): said.append(str(text)); seen.extend(s for s in [str(text)] if s.startswith('Hint: '))
    monkeypatch.setattr(cli, '_reader', lambda inp, o: answer)
    monkeypatch.setattr(cli, '_printer', lambda stream: out)
    argv = ['play', name, '--seed', '3', '--coach'] + (['--players', str(opts['players'])] if opts else [])
    assert cli.main(argv) == 0
    assert '"hint", "help", "undo" or "quit"' in said[0] and 'hint is shown at every turn' in said[0]
    assert any('"hint" asks the coach' in s and f'start these same deals again with: cardgames-tutor play {name}' in s and '--seed 3' in s and '--coach' in s for s in said)
    assert len(seen) >= 4 and not any(s.startswith('Refused') for s in said), said[-6:]


@pytest.mark.parametrize('name', ['dehla-pakad', 'begga-kaat'])
def test_review_reasons_set_the_move_played_beside_the_coachs_choice(name):
    """Each reviewed decision's reasons name the learner's own move against the coach's choice (not the runner-up of the
    hint), and at least one decision of the hand gets a fact of the table on which the two moves differ."""
    from cardgames_tutor.core.actions import action_text
    game, items = get_game(name), []
    for seed in range(6, 12):  # random play in Seat 0 until the review has a few costly decisions to explain
        done = play_out(Match(game, seed=seed), lambda v, rng: rng.choice(v['legal']) if v['seat'] == 0 else game.bot(v, rng))
        items += review(done, 0, hand_no=1, budget=0.2, top=8)
        if len(items) >= 4: break
    assert len(items) >= 4
    facts = 0
    for x in items:
        mine, best = action_text(x.played), action_text(x.best)
        last = x.hint.reasons[-1]
        did, do = action_text(x.played, game, 'done'), action_text(x.best, game, 'do')  # 'played 6♥', 'play 9♣'; 'named clubs trumps'
        assert last.tactic == 'compare' and last.text.startswith(f"You {did}: ") and f"; to {do} would have given " in last.text
        assert x.hint.ranked[0].action == x.best and x.hint.value_of(x.played).value < x.hint.ranked[0].value
        table = [r for r in x.hint.reasons[:-1] if r.text.startswith(('You played', 'You led', 'You gave'))]
        for r in table: assert mine in r.text and best in r.text and r.tactic != 'compare'
        facts += bool(table)
    assert facts >= 1


def test_the_coach_asks_the_game_not_its_name():
    "A game the coach has never heard of (Begga Kaat under another name) gets the same hint: the coach reads the game's answers, no table keyed by name."
    from cardgames_tutor.games.begga_kaat import BeggaKaat
    class Renamed(BeggaKaat): name = 'renamed-begga-kaat'
    hints = []
    for game in (BeggaKaat(), Renamed()):
        m = Match(game, seed=3)
        play_out(m, stop_at=(0,))
        hints.append(hint_text(m.view(0), game, seed=1, budget=B))
    assert hints[0] == hints[1] and hints[0].startswith('Hint: ')


# ---------------------------------------------------------------- the sampler: every fitting deal, never a refusal (issue 38)

def test_deal_unknown_draws_every_fitting_deal_equally_often():
    "Six cards, three slots, each void in a suit: the 9 fitting deals, counted by hand, each drawn about 1 time in 9."
    import itertools
    from collections import Counter
    from cardgames_tutor.core.sampling import deal_unknown, Slot
    cards = FRENCH.parse_many('2S 3H 4D 5D 6C 7C')
    slots = [Slot(1, frozenset('S')), Slot(2, frozenset('H')), Slot(3, frozenset('D'))]
    deals = {(frozenset(p[:1]), frozenset(p[1:3]), frozenset(p[3:])) for p in itertools.permutations(cards)}
    deals = [d for d in deals if all(s.takes(c) for s, part in zip(slots, d) for c in part)]
    assert len(deals) == 9
    n = 6000
    got = Counter(tuple(map(frozenset, deal_unknown(list(cards), slots, random.Random(k)))) for k in range(n))
    assert set(got) <= set(deals)
    chi2 = sum((got[d] - n / 9) ** 2 / (n / 9) for d in deals)
    assert chi2 < 30, (chi2, got)  # 8 degrees of freedom: about 8 expected; the old greedy deal scored about 300

def test_deal_unknown_a_suit_a_slot_must_hold_and_a_deal_that_cannot_be():
    from cardgames_tutor.core.sampling import deal_unknown, Slot, NoDeal
    cards = FRENCH.parse_many('2S 3H 4H 5H 6H 7H 8H 9H')
    for k in range(100):  # one spade among eight cards, and the small slot must hold it
        small, big = deal_unknown(list(cards), [Slot(2, some=frozenset('S')), Slot(6)], random.Random(k))
        assert FRENCH.parse('2S') in small and len(big) == 6
    with pytest.raises(NoDeal, match='no deal'):
        deal_unknown(list(cards), [Slot(2, some=frozenset('S')), Slot(6, some=frozenset('S'))], random.Random(0))

def test_a_buried_thief_is_always_in_the_sampled_burial():
    "The one seeded position (of 1,200 hands) where the view says a Thief is buried: every sample buries one."
    from cardgames_tutor.coach.worlds import same_for_seat
    from cardgames_tutor.practice.drills import positions
    game = get_game('beggars-and-thieves', players=5)
    for pos in positions(game, random.Random(200)):
        seat = next((s for s in range(5) if pos.phase == 'play' and pos.view(s).get('thief_buried') and pos.view(s)['picker'] != s), None)
        if seat is not None: break
    v = pos.view(seat)
    for k in range(300):
        h = game.resample(v, random.Random(k))
        assert any(c.suit == 'T' for c in h.buried) and same_for_seat(v, h.view(seat)), k

@pytest.mark.parametrize('players', [6, 7])
def test_the_coach_hints_where_fitting_deals_are_rarest(players):
    "Issue 38: the coach crashed in Maghe Satra with six players ('no face-down cards fit'); now it hints."
    from test_maghe_satra import _rarest
    view, fit = _rarest(players)
    game = get_game('maghe-satra', players=players)
    h = hint(view, game, budget=B)
    assert h.best in view['legal']


@pytest.mark.parametrize('name', ['kocka', 'dehla-pakad'])
def test_terminal_hint_says_each_figure_once(name):
    """The finding: a terminal hint gave the same odds three times (the headline, the comparison, "Every action tried").
    Now the headline says only how many deals were tried, and each compared action's figures are said once: the
    comparison names the best, the next best and the worst, "Also tried" the others."""
    game, n = get_game(name), 0
    m, rng = Match(game, seed=3), random.Random(1)
    while not m.over and len(m.hands) <= 1 and n < 6:
        v = m.view(m.to_act)
        if m.to_act == 0 and len(v['legal']) > 1:
            h, text = hint(v, game, seed=1, budget=B), hint_text(v, game, seed=1, budget=B)
            head = text.split('\n')[0]
            assert 'possible deals of the cards you cannot see' in head and 'deals tried' not in head and 'tens' not in head and 'penalty' not in head, head
            assert 'Every action tried' not in text
            differ = len({tuple(sorted(r.stats.items())) for r in h.ranked}) > 1
            assert len(re.findall(r'\d deals? tried', text)) == (len(h.ranked) if differ else 1), text  # one chance per action, said once
            n += 1
        m.apply(game.bot(v, rng), m.to_act)
    assert n >= 3, n


def test_the_terminals_hint_says_why_when_another_move_is_ahead_by_the_figures():
    """The terminal's hint listed a move with a better figure under 'Also tried' and said nothing of it ('J♣ ... about 16.0
    penalty points ... Also tried: A♣: about 12.1'); the panel said why beside its chart. The terminal now says it too, in
    the figures' words (it has no chart)."""
    from cardgames_tutor.coach.search import hint, hint_text
    from cardgames_tutor.coach.stat_words import by_value
    m, rng = Match(get_game('begga-kaat'), seed=11), random.Random(11)
    for turn in range(8):
        while m.to_act != 0: m.apply(m.game.bot(m.view(m.to_act), rng))
        if turn < 7: m.apply(m.game.bot(m.view(0), rng))
    h, said = hint(m.view(0), m.game, 11, 0.1), hint_text(m.view(0), m.game, 11, 0.1)
    top = by_value(h)[0]
    assert top.action != h.best, "the position no longer has a move ahead by the figures: choose another"
    why = next(l for l in said.splitlines() if l.strip().startswith('Why '))
    assert f"and not {top.action.symbol}? {top.action.symbol} is ahead by its" in why and 'chart' not in why and 'bar' not in why, said
