"""The terminal shows a seat everything it may play, in plain words: one hand of every game variant is played through
`cardgames-tutor play`'s loop by a scripted learner, and everything printed is checked."""
import random, re
import pytest
from cardgames_tutor.core.cards import Card
from cardgames_tutor.term.cli import play
from cardgames_tutor.core.engine import Move, get_game
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
    def __init__(self, match, seed, leaster=False):
        self.match, self.rng, self.out, self.mark, self.turns, self.leaster = match, random.Random(seed), [], 0, 0, leaster
        self.helped, self.missing = False, []

    def output(self, text): self.out.append(str(text))

    def input(self, prompt):
        m = self.match
        if prompt != '> ':  # between hands: one hand is enough once the learner has played in it
            return 'quit' if self.turns else ''
        shown = '\n'.join(self.out[self.mark:]).rsplit('You may', 1)[0]  # the table, before what may be typed
        self.mark = len(self.out)
        tokens = set(TOKENS.split(shown))
        view = m.view(0)
        for action in view['legal']:
            self.missing += [f"hand {view['hand_no']}, {view['phase']}: {c.symbol} ({c}) not shown"
                             for c in cards_of(action) if c.symbol not in tokens]
        self.turns += 1
        if not self.helped: self.helped = True; return 'help'
        if len(m.hands) > 1: return 'quit'
        legal = view['legal']
        if self.leaster:
            legal = [a for a in legal if str(a) != 'pick'] or legal
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
        assert all(c.symbol in line for c in view['face_up'][seat])
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
    from cardgames_tutor.core.engine import get_game
    from cardgames_tutor.games.begga_kaat import BeggaKaat
    class Marked(BeggaKaat):
        def table_lines(self, view, me): return [f"A line of the game's own for seat {me}."]
    m = Match(Marked(), seed=3)
    text = turn_text(m, m.to_act).splitlines()
    assert f"A line of the game's own for seat {m.to_act}." in text
    assert text.index(f"A line of the game's own for seat {m.to_act}.") == len(text) - 3  # then the cards, then 'You may'
    plain = turn_text(Match(get_game('begga-kaat'), seed=3), m.to_act)
    assert "A line of the game's own" not in plain and 'Penalty points in the match:' in plain
