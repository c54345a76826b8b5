"""The terminal shows a seat everything it may play, in plain words: one hand of every game variant is played through
`cardgames-tutor play`'s loop by a scripted learner, and everything printed is checked."""
import random, re
import pytest
from cardgames_tutor.core.cards import Card
from cardgames_tutor.term.cli import play
from cardgames_tutor.core.registry import get_game
from cardgames_tutor.core.actions import Move
from cardgames_tutor.core.match import Match
from cardgames_tutor.core.records import load, to_record
from cardgames_tutor.term.terminal import replay_text, help_text, turn_text

VARIANTS = [('begga-kaat', {'players': 3}), ('begga-kaat', {'players': 4}), ('kocka', {}), ('dehla-pakad', {}),
            ('maghe-satra', {'players': 3}), ('maghe-satra', {'players': 7}),
            ('beggars-and-thieves', {'players': 5}), ('beggars-and-thieves', {'players': 4}),
            ('beggars-and-thieves', {'players': 3}), ('beggars-and-thieves', {'players': 2})]

RAW = re.compile(r"\b(None|True|False)\b|[{}]")
ONE_PLURAL = re.compile(r"(?<!Seat )(?<!Seats )(?<![\d.,])\b1 (points|cards|tricks|deals|letters|hands|tens|players|seats|games|turns)\b")
LINK = re.compile(r"https?://|\]\(|\.html\b|\.ipynb\b")
TOKENS = re.compile(r"[\s,;:()]+|\.(?=\s|$)")

def problems(text:str) -> list:
    "What a learner should never read: a raw Python value, '1 points', a link."
    return [f"{what}: {m.group(0)!r} in {line!r}" for line in text.splitlines()
            for what, pat in (('raw Python value', RAW), ('plural after 1', ONE_PLURAL), ('link', LINK))
            for m in [pat.search(line)] if m]

def cards_of(action) -> list:
    if isinstance(action, Card): return [action]
    if isinstance(action, Move): return list(action.cards)
    return []

class Learner:
    "A scripted learner: at each turn checks what was printed, asks for help once, then plays a random legal action."
    def __init__(self, match, seed, leaster=False, helped=False, pick=False, pause=None):
        self.match, self.rng, self.out, self.mark, self.turns, self.leaster = match, random.Random(seed), [], 0, 0, leaster
        self.helped, self.missing, self.pick, self.pause, self.asked, self.blocks = helped, [], pick, pause, [], []

    def output(self, text): self.out.append(str(text))

    def input(self, prompt):
        m = self.match
        if prompt != '> ':  # between hands: one hand is enough once the learner has played in it
            self.asked.append((prompt, len(self.out)))
            if self.pause is not None: return self.pause.pop(0) if self.pause else 'quit'  # the words a test types there
            return 'quit' if self.turns else ''
        shown = '\n'.join(self.out[self.mark:]).rsplit('You may', 1)[0]  # the table, before what may be typed
        self.blocks.append(('\n'.join(self.out[self.mark:]), list(m.hand.points) if hasattr(m.hand, 'points') else None))
        self.mark = len(self.out)
        view = m.view(0)
        for action in view['legal']:
            self.missing += [f"hand {view['hand_no']}, {view['phase']}: {c.words} ({c}) not shown"
                             for c in cards_of(action) if not re.search(rf"(?<![\w]){re.escape(c.words)}(?![\w])", shown)]
        self.turns += 1
        if not self.helped: self.helped = True; return 'help'
        if len(m.hands) > 1: return 'quit'
        legal = view['legal']
        if self.leaster:
            legal = [a for a in legal if str(a) != 'pick'] or legal
        if self.pick and any(str(a) == 'pick' for a in legal): return 'pick'
        return str(self.rng.choice(legal))

def run(name, options, seed, leaster=False):
    match = Match(get_game(name, **options), seed=seed)
    learner = Learner(match, seed, leaster)
    play(match, input=learner.input, output=learner.output)
    return match, learner

@pytest.mark.parametrize('name, options', VARIANTS, ids=[f"{n}-{o.get('players', '')}" for n, o in VARIANTS])
@pytest.mark.parametrize('seed', range(1, 7))
def test_a_hand_through_the_terminal_shows_every_playable_card(name, options, seed):
    match, learner = run(name, options, seed)
    assert learner.turns >= 2, "the learner never got a turn"
    assert match.hands[0].is_over, "the first hand was not played to its end"
    assert not learner.missing, '\n'.join(learner.missing[:10])
    text = '\n'.join(learner.out)
    assert not problems(text), '\n'.join(problems(text)[:10])
    account = replay_text(load(to_record(match)))
    assert not problems(account), '\n'.join(problems(account)[:10])
    assert not re.search(r"\b[Yy]ou\b", account.replace('you may', '')), "a replay is told in the third person"

def test_a_leaster_through_the_terminal():
    "Five players, everyone passes: the learner sees the Leaster, its role and everyone's points."
    for seed in range(200):
        match = Match(get_game('beggars-and-thieves'), seed=seed)
        learner = Learner(match, seed, leaster=True)
        play(match, input=learner.input, output=learner.output)
        if match.hands[0].leaster: break
    else: pytest.fail("no Leaster in 200 seeds")
    text = '\n'.join(learner.out)
    assert 'a Leaster' in text and 'Points taken: you ' in text
    assert not learner.missing and not problems(text), (learner.missing, problems(text))

def test_snear_shows_both_face_up_rows():
    "The fault a learner met: in Snear neither face-up row was shown, yet face-up cards are played."
    match = Match(get_game('beggars-and-thieves', players=2), seed=5)
    while match.to_act != 0: match.apply(match.game.bot(match.view(match.to_act), random.Random(0)))
    text, view = turn_text(match, 0), match.view(0)
    for seat, owner in ((0, 'Your face-up cards:'), (1, "Seat 1's face-up cards:")):
        line = next(l for l in text.splitlines() if l.startswith(owner))
        assert all(c.words in line for c in view['face_up'][seat])
    assert any(c in view['face_up'][0] for c in view['legal']) or view['trick']

def test_help_gives_the_rows_of_the_phase_and_the_notation():
    match = Match(get_game('beggars-and-thieves'), seed=4)
    while match.to_act != 0: match.apply(match.game.bot(match.view(match.to_act), random.Random(0)))
    text = help_text(match, 0)
    assert 'The blind (3-5):' in text and 'Bury:' not in text and 'T = Thieves' in text
    match = Match(get_game('kocka'), seed=1)
    while match.to_act != 0: match.apply(match.game.bot(match.view(match.to_act), random.Random(0)))
    assert 'The exchange:' in help_text(match, 0) and 'A = 🌰 acorns' in help_text(match, 0)

def test_the_checks_catch_what_they_are_for():
    "The checks themselves fail on the faults a learner reported."
    assert problems("header target=None") and problems("Seat 2 takes 1 points") and problems("see [partner](dehla_pakad.html)")
    assert problems("{'totals': [0, 0]}") and not problems("Seat 1 points: 3; 1 point; Seat 1 11, you 1")


def test_the_table_lines_are_the_games_own():
    "The terminal prints the lines a game writes for the view (`table_lines`), between the trick and the seat's cards."
    from cardgames_tutor.core.match import Match
    from cardgames_tutor.core.registry import get_game
    from cardgames_tutor.games.begga_kaat import BeggaKaat
    class Marked(BeggaKaat):
        def table_lines(self, view, me): return [f"A line of the game's own for seat {me}."]
    m = Match(Marked(), seed=3)
    text = turn_text(m, m.to_act).splitlines()
    assert f"A line of the game's own for seat {m.to_act}." in text
    assert text.index(f"A line of the game's own for seat {m.to_act}.") == len(text) - 3  # then the cards, then 'You may'
    plain = turn_text(Match(get_game('begga-kaat'), seed=3), m.to_act)
    assert "A line of the game's own" not in plain and 'Penalty points in the match:' in plain


# Issue 36 (LEARNER_NOTES Round 3, "Terminal", and "one notation on a screen"), driven as a learner through `play`

def run_learner(name, options, seed, **kw):
    match = Match(get_game(name, **options), seed=seed)
    learner = Learner(match, seed, **kw)
    play(match, input=learner.input, output=learner.output)
    return match, learner

@pytest.mark.parametrize('players', [3, 4])
@pytest.mark.parametrize('seed', range(1, 4))
def test_begga_kaat_shows_the_hands_penalty_points_at_every_turn(players, seed):
    "The fault: only the match totals were shown. Now every turn of the play shows each seat's points of this hand, as the engine counts them."
    match, learner = run_learner('begga-kaat', {'players': players}, seed, helped=True)
    plays = [(b, pts) for b, pts in learner.blocks if '-- Hand 1: the play' in b]
    assert len(plays) >= 5
    for block, pts in plays:
        line = next((l for l in block.splitlines() if l.startswith('Penalty points this hand: ')), None)
        assert line is not None, block
        assert line == 'Penalty points this hand: ' + ', '.join(f"{'you' if s == 0 else f'Seat {s}'} {p}" for s, p in enumerate(pts)) + '.'
    assert any(sum(pts) for _, pts in plays), "no penalty point taken in the hand: the check never saw a non-zero count"

@pytest.mark.parametrize('name, options', VARIANTS, ids=[f"{n}-{o.get('players', '')}" for n, o in VARIANTS])
def test_the_goal_is_said_once_in_a_sentence_of_its_own(name, options):
    "The fault: '(first to reach 20 points (alone in the lead) and you win wins)' at every turn. The goal, from its fields, once."
    match, learner = run_learner(name, options, 2, helped=True)
    goal, lines = match.game.goal, '\n'.join(learner.out).splitlines()
    said = [l for l in lines if f"{goal.value} {goal.measure}" in l]
    assert len(said) == 1 and said[0] is lines[0], said[:3]
    verb = 'wins the match' if goal.outcome == 'win' else 'loses the match'
    assert f"{goal.value} {goal.measure} {verb}." in lines[0], lines[0]
    assert not any(str(goal) in l or 'you win wins' in l or 'you lose loses' in l for l in lines)
    assert learner.blocks, "the learner never got a turn"

def test_the_declaration_choices_are_said_plainly():
    "The fault: 'You may partner (the holder of the six of Thieves), alone.' Now each choice is named, then what it does."
    for seed in range(1, 40):
        match, learner = run_learner('beggars-and-thieves', {}, seed, helped=True, pick=True)
        at = [b for b, _ in learner.blocks if '-- Hand 1: the partner (declaring)' in b]
        if at: break
    else: pytest.fail("the learner never declared")
    text = '\n'.join(learner.out)
    assert 'You may partner (' not in text
    lines = text[text.index('-- Hand 1: the partner (declaring)'):].splitlines()
    offer = next(i for i, l in enumerate(lines) if l.startswith('You may choose one: '))
    words = lines[offer].removeprefix('You may choose one: ').rstrip('.').replace(' or ', ', ').split(', ')
    assert words[:2] == ['"partner"', '"alone"'] and all(w in ('"partner"', '"alone"') or w.startswith('"call T') for w in words)
    for k, w in enumerate(words, 1):  # what to type, what it does in words, then what it means
        assert lines[offer + k].startswith(f"  {w} to ") and len(lines[offer + k]) > len(w) + 40, lines[offer + k]

@pytest.mark.parametrize('name, options', [('begga-kaat', {}), ('kocka', {}), ('maghe-satra', {'players': 3}),
                                           ('beggars-and-thieves', {'players': 2}), ('dehla-pakad', {})])
def test_between_hands_only_enter_or_next_deals_the_next_hand(name, options):
    "The fault: typing anything at 'Press Enter for hand 2' started the hand. A card, help and hint are answered; next goes on."
    game = get_game(name, **options)
    card = game.pack.cards[-1].code
    match = Match(game, seed=3)
    learner = Learner(match, 3, helped=True, pause=[card, 'help', 'hint', 'next', 'quit'])
    play(match, input=learner.input, output=learner.output)  # the learner stops at its first turn of hand 2
    hand = 'deal' if name == 'dehla-pakad' else 'hand'  # the game's word for a hand (Dehla Pakad's pages say deal)
    first = [(p, at) for p, at in learner.asked if f'for {hand} 2' in p]
    assert len(first) == 4, learner.asked  # the card, help and hint did not deal hand 2
    said = learner.out[first[0][1]:first[-1][1]]
    assert len(said) == 3 and said[0].startswith(f"Refused: '{card}' (as typed)") and '[' not in said[0]  # no tag after it
    assert f'press Enter (or type "next") for {hand} 2' in said[1] and 'nothing to advise on' in said[2]
    after = learner.out[first[-1][1]:]
    assert after and after[0].startswith(f'{hand.capitalize()} 2: '), after[:2]
    assert len(match.hands) >= 2

def code_tokens(text, pack) -> list:
    "Cards of `pack` written as codes where the table writes them otherwise (symbols, or number and suit); what one types (in double quotes, or backquotes in a text before the terminal prints it) aside."
    codes = {c.code for c in pack if c.words != c.code}
    return [t for t in re.findall(r"(?<![\w'])[0-9A-Z]{2,3}(?![\w'])", re.sub(r'`[^`\n]*`|"[^"\n]*"', '', text)) if t in codes]

@pytest.mark.parametrize('name, options', VARIANTS, ids=[f"{n}-{o.get('players', '')}" for n, o in VARIANTS])
@pytest.mark.parametrize('seed', [1, 4])
def test_one_notation_where_the_learner_reads(name, options, seed):
    "Every line a learner reads (deal, pass, table, trick, log) writes cards as the table does; codes only where one types."
    match, learner = run_learner(name, options, seed, helped=True, pick=seed == 4)
    found = []
    for line in '\n'.join(learner.out).splitlines():
        if line.startswith('You may') or line.startswith('Refused:'): continue  # what to type (the e.g. hints, a choice's word)
        if line.startswith('  '): line = line.split(': ', 1)[-1]  # a choice: its word is typed, its meaning read
        found += [(t, line) for t in code_tokens(line, match.game.pack)]
    assert not found, found[:8]
    account = replay_text(load(to_record(match)))
    bad = [(t, l) for l in account.splitlines() if not l.startswith('(The record stops') for t in code_tokens(l, match.game.pack)]
    assert not bad, bad[:8]

@pytest.mark.parametrize('name', ['begga-kaat', 'kocka', 'beggars-and-thieves'])
def test_help_shows_every_card_in_both_notations(name):
    match = Match(get_game(name), seed=1)
    while match.to_act != 0: match.apply(match.game.bot(match.view(match.to_act), random.Random(0)))
    lines = help_text(match, 0).splitlines()
    for c in match.game.deck():  # every card in play (three-player Begga Kaat's removed two, Beggars and Thieves' removed cards: not)
        assert any(re.search(rf"(?<!\S){re.escape(c.code)} +{re.escape(c.words)} +{re.escape(c.name)}(?!\S| of)", l) for l in lines), c

def test_the_check_for_codes_catches_the_fault():
    from cardgames_tutor.core.cards import FRENCH, BEGGARS
    assert code_tokens("Seat 0 is dealt 4S 5S 8S", FRENCH) == ['4S', '5S', '8S'] and code_tokens("bury G1 R7", BEGGARS) == ['G1', 'R7']
    assert not code_tokens("Seat 0 is dealt 4♠ 5♠; 6 Thief, 5 green; KOČKA", FRENCH) and not code_tokens("'T6' as typed", BEGGARS)
    assert not code_tokens("type e.g. `T6` for 6 Thief", BEGGARS)  # what one types, in backquotes
    assert not code_tokens('type e.g. "T6" for 6 Thief', BEGGARS)  # and as the terminal prints it, in double quotes


# ---------------------------------------------------------------- 'you' in every game's own sentences (round 2, H1 item 7)
from cardgames_tutor.term.terminal import for_you, _VERBS

def _real_texts() -> set:
    "The sentences the games say: every event of a few bot-played matches of each variant, and the verdicts on the legal moves and on a few wrong ones."
    texts = set()
    for name, options in VARIANTS:
        for seed in range(2):
            m, rng, steps = Match(get_game(name, **options), seed=seed), random.Random(seed), 0
            while not m.over and steps < 300:
                legal = m.legal_actions()
                if not legal: break
                for a in [*legal[:3], 'pass', 'trump H', '10C', 'beg']:
                    try: texts.add(str(m.hand.explain(a).text))
                    except Exception: pass  # a word this game cannot read at all
                m.apply(rng.choice(legal)); steps += 1
            texts.update(str(e.text) for e in m.events())
    return texts

SUBJECT_YOU = re.compile(r"\b[Yy]ou((?:, [^,.]+,)?(?: \([^)]*\))?) (?:(?:first|also|then|now|again|still|only|never) )?([a-z]+)\b")

def test_you_never_goes_with_a_verb_of_seat():
    "Every sentence of every game, said to each seat: 'you' is never followed by 'wins', 'begs', 'does' ('You begs' was said)."
    texts = _real_texts()
    assert len(texts) > 500
    third = _VERBS | {'announces', 'begs', 'does', 'says', 'shows', 'trumps', 'stops', 'gives', 'sees', 'chooses', 'bids'}
    bad = {(w, said) for t in texts for me in range(5) for said in [for_you(t, me)]
           for w in (m[2] for m in SUBJECT_YOU.finditer(said)) if w in third or (w.endswith('s') and not w.endswith('ss') and w not in ('always',))}
    assert not bad, sorted(bad)[:10]
    assert not [s for t in texts for me in range(5) if re.search(r"\b[Yy]ou are dealt its\b|\bYou and Seat \d+ [^.]*\. Their\b", s := for_you(t, me))]

def test_dehla_pakad_terminal_speaks_to_you():
    "Seed 9 in the terminal: the first five cards are yours; a card before trump says what to type; the deal's winners' streak is yours; no count of tricks won."
    from cardgames_tutor.core.match import play_out
    m = Match(get_game('dehla-pakad'), seed=9)
    me = m.hand.trump_maker
    first = [for_you(e.text, me) for e in m.events() if e.seen_by(me)]
    assert any(l.startswith('Your first five cards: ') for l in first), first
    refused = for_you(m.hand.explain('10C').text, me)  # the terminal shows the turn again after it: how to type trump
    assert "you, on the dealer's right, first name trump" in refused and 'e.g.' not in refused, refused
    from cardgames_tutor.term.terminal import you_may
    assert '"trump H"' in you_may(m, me)
    play_out(m)
    streaks = [(e.text, seat) for e in m.events() if e.kind == 'deal-won' and 'Their streak' in e.text
               for seat in map(int, re.search(r"Seats (\d) and (\d)", e.text).groups())]
    assert streaks
    for text, seat in streaks:
        said = for_you(text, seat)
        assert 'Your streak' in said and 'Their' not in said, said


def test_a_refusals_example_typed_as_it_reads_is_played():
    """Kočka's exchange refusal gives its example as a learner reads a move ('e.g. pass 9♥, A♥ and 9🍃'); typed so, the
    terminal refused the word 'and'. Typed as it reads, it is the pass."""
    m, out, typed = Match(get_game('kocka'), seed=1), [], []
    def answer(prompt):
        if len(typed) == 0: typed.append(m.hand.hands[0][0].code)  # a card, in the exchange
        elif len(typed) == 1: typed.append(re.search(r'\(e\.g\. (pass [^)]+)\)', [l for l in out if l.startswith('Refused:')][-1])[1])
        else: typed.append('quit')
        return typed[-1]
    play(m, input=answer, output=lambda text='': out.append(str(text)))
    assert ', ' in typed[1] and ' and ' in typed[1], typed  # the example in words, as typed
    assert sum(l.startswith('Refused:') for l in '\n'.join(out).splitlines()) == 1, out
    assert (0, m.hand.parse_action(typed[1])) in m.hand.history and f"You pass {typed[1].removeprefix('pass ').replace(',', '').replace(' and', '')} to Seat 1." in out

@pytest.mark.parametrize('name, players', [('beggars-and-thieves', 5), ('beggars-and-thieves', 4), ('beggars-and-thieves', 3),
                                           ('beggars-and-thieves', 2), ('begga-kaat', 3), ('begga-kaat', 4)])
def test_help_says_which_cards_this_table_leaves_out_and_why(name, players):
    """Beggars and Thieves' `help` said "Beggars and Thieves 38-card pack... Every card: type it as on the left" over a
    table of 37 rows at five players: the 1 blue was missing, unexplained. `help` now names the cards this table leaves
    out and why (the deal: so many cards to each player and to the blind, as many in all as are in play), for each
    player count; where every card is in play it says nothing of it."""
    from cardgames_tutor.core.match import play_out
    m = Match(get_game(name, players=players), seed=1)
    play_out(m, stop_at=(0,))
    said = help_text(m, 0)
    deck, pack = m.game.deck(), list(m.game.pack)
    out = [c for c in pack if c not in deck]
    lines = said.splitlines()
    rows = lines[next(i for i, l in enumerate(lines) if l.startswith('Every card')) + 2:]
    rows = rows[:next((i for i, l in enumerate(rows) if not re.match(r'\S+\s{2,}', l)), len(rows))]
    assert sum(len(re.findall(r'(?:^|\s{4})\S+\s{2,}\S', r)) for r in rows) == len(deck)  # the table: every card in play
    if not out:
        assert 'left out' not in said
        return
    line = next(l for l in lines if 'left out' in l)
    assert line.startswith(f"At this table {len(deck)} of the pack's {len(pack)} cards are in play: "), line
    named = re.search(r"in play: (.*) (?:is|are) left out", line)[1]
    assert sorted(re.split(r', | and ', named)) == sorted(c.words for c in out), line
    assert re.search(rf"to each of the {players} players.*, {len(deck)} in all\.$", line), line
    deal = line.split(', as the deal is ', 1)[1]
    each = sum(map(int, re.findall(r'(\d+) (?:cards|in hand|face down|face up)\b', deal)))
    blind = sum(map(int, re.findall(r'(\d+) to the blind', deal)))
    assert each * players + blind == len(deck), line  # the deal it gives is the cards in play
    assert lines.index(line) < next(i for i, l in enumerate(lines) if l.startswith('Every card'))

def test_the_terminal_lists_the_buried_cards_apart():
    """The panel's status read 'the buried cards: 4 blue7 red' (its small cards side by side, no word between them: a
    screen reader reads it so). The terminal says each list of cards with a comma between two cards: the picker's
    'Buried by the picker: 8 blue, 5 red.' and every other line it prints; no card's words run into the next card."""
    for seed in range(1, 40):
        match, learner = run_learner('beggars-and-thieves', {}, seed, helped=True, pick=True)
        text = '\n'.join(learner.out)
        if 'Buried by the picker: ' in text: break
    else: pytest.fail("the learner never buried")
    buried = re.search(r'Buried by the picker: (.*)\.$', text, re.M)[1]
    assert re.fullmatch(r'\d+ (?:Thief|green|blue|red), \d+ (?:Thief|green|blue|red)', buried), buried
    assert not re.search(r'\b\d+ (?:Thief|green|blue|red)\d', text), re.search(r'.*\b\d+ (?:Thief|green|blue|red)\d.*', text)[0]


def test_exercise_notes_said_to_seat_0_never_say_you_twice():
    """An exercise's note speaks to Seat 0 ('You (Seat 0) have KOČK'; 'Your side, you (Seat 0) and your partner ...'); said
    to that seat as 'you' (the terminal, the panel's screen-reader line) it read 'You (you) have' and 'you (you) and your
    partner' (w11). Every note, said to Seat 0, names the seat once, as 'you'."""
    import re
    from cardgames_tutor.practice.exercises import EXERCISES
    from cardgames_tutor.term.terminal import for_you
    for name, x in EXERCISES.items():
        said = for_you(x.note, 0)
        assert not re.search(r'\((?:you|your)\)|\bSeat 0\b', said, re.I), (name, said)


def test_help_offers_the_coach_on_these_same_deals():
    """`help` said "To see the hint at every turn, start the game with: cardgames-tutor play maghe-satra --coach", which
    deals other cards (w11). It gives the seed of the game being played, so the command starts these same deals again."""
    from cardgames_tutor.core.match import Match
    from cardgames_tutor.core.registry import get_game
    from cardgames_tutor.term.terminal import help_text
    said = help_text(Match(get_game('maghe-satra', players=4), seed=12345678), 0)
    assert "start these same deals again with: " in said and "play maghe-satra --seed '1234 5678' --coach" in said, said[-400:]
