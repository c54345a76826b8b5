"""One source for each rule: every verdict agrees with the legal list on every candidate action (odd objects
included) over thousands of random positions of every game and variant; every rule id used is in the game's RULES."""
import random
import pytest
from cardgames_tutor.core.cards import Card
from cardgames_tutor.core.engine import IllegalAction, deal_cards
from cardgames_tutor.core.registry import games, get_game
from cardgames_tutor.core.actions import Move

VARIANTS = [(name, {'players': n}) if len(info.players) > 1 else (name, {})
            for name, info in games().items() for n in info.players]
VERBS = ('pick', 'pass', 'bury', 'partner', 'alone', 'call', 'trump', 'beg', 'play')
ODD = [None, 0, 1.5, True, [], {}, (), '', '   ', 'pass G5 G5 G5', 'call ²', 'call T²', 'call T٨', 'call ٨', 'call 7',
       'trump ٣', 'trump X', 'trump', 'beg now', 'pass', 'pick', 'partner T7', 'alone please', 'bury', 'bury T1 T1',
       '10H 10H', 'pass 7H', '²H', '١٠H', 'T¹⁴', 'x' * 400, object(), Move('pass', ('x', 'y', 'z')), Move('bury', (None, 1)),
       Move('call', (), 7), Move('trump', (), None), Move(None), Move('call', (), '٨'), Move('call', (), 'T²')]
POSITIONS = 2000  # per variant


def _read(hand, action):
    "The action in its one form, or None where it cannot be read (then it must not be legal)."
    try: return hand.read(action)
    except ValueError: return None


def candidates(hand, rng) -> list:
    "Every card of the pack (as a card and as text), the legal actions (and their text), moves built from the hand, odd objects."
    pack, legal = hand.game.pack, hand.legal_actions()
    out = list(pack) + [c.code for c in pack] + legal + [str(a) for a in legal] + ODD
    hands = getattr(hand, 'hands', None)
    held = list(hands[hand.to_act]) if hands and hand.to_act is not None and hands[hand.to_act] else list(pack)
    for verb in VERBS:
        out.append(Move(verb))
        for k in (1, 2, 3, 4):
            cards = tuple(rng.sample(held, min(k, len(held))))
            out += [Move(verb, cards), Move(verb, cards[::-1]), Move(verb, cards, 'X'), Move(verb, cards + cards[:1])]
        for arg in ('T7', 'T8', 'T14', '8', 'H', 'S', 'X', '²', '٣', 'T٨'):
            out.append(Move(verb, (), arg))
    for a in legal:  # each legal move with something added or its cards disturbed
        if isinstance(a, Move):
            out += [Move(a.verb, a.cards, a.arg + 'X'), Move(a.verb, a.cards + (rng.choice(list(pack)),), a.arg),
                    Move(a.verb, a.cards[1:], a.arg), Move(a.verb, a.cards[::-1], a.arg)]
    return out


def walk(name, options, seed, positions):
    "Random hands of the game, yielding each position before its action is taken."
    game, rng, seen = get_game(name, **options), random.Random(seed), 0
    while seen < positions:
        hand = game.new_hand(deal_cards(game, rng), rng.randrange(game.n_seats()))
        while not hand.is_over and seen < positions:
            yield hand, rng
            seen += 1
            hand.apply(rng.choice(hand.legal_actions()))
        yield hand, rng  # the finished hand too


@pytest.mark.parametrize('name,options', VARIANTS, ids=[f"{n}-{o.get('players', '')}" for n, o in VARIANTS])
def test_every_verdict_agrees_with_the_legal_list(name, options):
    rules, used = get_game(name, **options).RULES, set()
    for hand, rng in walk(name, options, 15, POSITIONS):
        legal = hand.legal_actions()
        for a in candidates(hand, rng):
            v = hand.explain(a)
            used.add(v.rule)
            expected = _read(hand, a) in legal if legal else False
            assert v.legal == expected, f"{name} {options} phase {hand.phase}: explain({a!r}) says {v} but in legal list: {expected}"
            assert isinstance(v.text, str) and 0 < len(v.text) < 300 and 'None' not in v.text, v
        for seat in range(hand.n):  # out of turn: never legal, always told
            if seat != hand.to_act and legal:
                v = hand.explain(legal[0], seat)
                assert not v.legal, v
                used.add(v.rule)
        for e in hand.events:
            if e.rule: used.add(e.rule)
    assert used <= set(rules), f"rule ids not in {name}.RULES: {sorted(used - set(rules))}"


@pytest.mark.parametrize('name,options', VARIANTS, ids=[f"{n}-{o.get('players', '')}" for n, o in VARIANTS])
def test_illegal_actions_change_nothing_and_odd_input_never_raises(name, options):
    for hand, rng in walk(name, options, 16, 150):
        before = (hand.phase, hand.to_act, len(hand.events), len(hand.history), repr(hand.view(None)))
        for a in ODD + [Move('pass', tuple(hand.game.pack)[:3], 'X')]:
            if _read(hand, a) in hand.legal_actions(): continue
            with pytest.raises(IllegalAction) as e: hand.apply(a)
            assert len(str(e.value)) < 300
        assert (hand.phase, hand.to_act, len(hand.events), len(hand.history), repr(hand.view(None))) == before


def test_the_known_drift_is_gone():
    from cardgames_tutor.core.match import Match
    m = Match(get_game('beggars-and-thieves', players=5), seed=1)
    assert m.hand.phase == 'blind'
    v = m.explain(Move('pass', tuple(m.game.pack.parse_many('G5 G5 G5'))))
    assert not v.legal and v.rule == 'beggars-and-thieves/blind'
    assert not m.explain('pass G5 G5 G5').legal


@pytest.mark.parametrize('name', list(games()))
def test_rules_are_titled_and_prefixed(name):
    rules = games()[name].cls.RULES
    for rule, title in rules.items():
        assert isinstance(title, str) and 3 < len(title) < 80
        assert '/' not in rule or rule.startswith(name + '/'), rule


# ---------- what is typed, quoted as a person writes it (round 3, HB 2) ----------
from cardgames_tutor.core.engine import HandState
from cardgames_tutor.core.match import Match

TYPOS = ['ZZ', 'zz', 'pass ZZ', 'pass 7H', 'trump Q', 'call ZZ', 'bury ZZ ZZ', 'AH AH', 'beg please', '10H 10H', 'x y z']

def _said(hand, rng) -> list:
    "(what, text) of everything the hand says a person at this position: verdicts, refusals, read errors, help, events."
    out, legal = [], hand.legal_actions()
    for a in candidates(hand, rng) + TYPOS:
        out.append((f"explain({a!r})", hand.explain(a).text))
        try: hand.read(a)
        except ValueError as e: out.append((f"read({a!r})", str(e)))
        if _read(hand, a) not in legal:
            with pytest.raises(IllegalAction) as e: hand.apply(a)
            out.append((f"apply({a!r})", str(e.value)))
    for seat in range(hand.n):
        if seat != hand.to_act and legal: out.append((f"Seat {seat} out of turn", hand.explain(legal[0], seat).text))
    own = hand.action_help()
    if own != HandState.action_help(hand): out.append(('action_help', own))  # the engine's own list of cards to play: see below
    game, view = hand.game, hand.view(hand.to_act)
    out += [('help row', r.text) for r in game.help_rows(view)]
    return out + [('event', str(e.text)) for e in hand.events]

@pytest.mark.parametrize('name,options', VARIANTS, ids=[f"{n}-{o.get('players', '')}" for n, o in VARIANTS])
def test_no_text_a_person_reads_has_a_backquote(name, options):
    """What a learner types is quoted in the engine's and the games' own texts as a person writes it, in double quotes
    ('e.g. "AB" for A🔔'), never in a programmer's backquotes: a learner in JupyterLab reads `m.apply('ZZ')`'s refusal as
    the engine wrote it. Swept: the verdict, the read error and the refusal of every candidate action (unknown cards, odd
    input, moves of every verb, the legal moves disturbed) at 100 positions of every variant, out-of-turn refusals, each
    game's own help line for a phase, its quick-reference rows, table lines and events; the packs' notation lines.
    (The engine's 'play one of ...' for the play phase, core/engine.py's `HandState.action_help`, and the coach's 'type
    ...' are outside this: the terminal still puts their backquotes in double quotes.)"""
    game, found = get_game(name, **options), []
    texts = [('notation', game.pack.notation_help()), ('typing note', game.pack.typing_note)]
    m = Match(game, seed=1)
    for typed in TYPOS:
        texts.append((f"Match.explain({typed!r})", m.explain(typed).text))
        try: m.apply(typed)
        except (IllegalAction, ValueError) as e: texts.append((f"Match.apply({typed!r})", str(e)))
    rng = random.Random(17)
    for _ in range(80):  # a match played on: the table's lines as each seat to act sees them
        if m.over or not m.legal_actions(): break
        view = m.view(m.to_act)
        texts += [('table', l) for l in game.table_lines(view, m.to_act) + game.hand_lines(view)]
        m.apply(rng.choice(m.legal_actions()))
    texts += [('event', str(e.text)) for e in m.events()]
    for hand, rng in walk(name, options, 17, 100): texts += _said(hand, rng)
    found = [(what, text) for what, text in texts if '`' in text]
    assert not found, found[:5]
