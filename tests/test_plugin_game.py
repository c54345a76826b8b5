"""A sixth game is one module (issue 48, item 2). `tests/duel_game.py` registers Duel, its bot and its drills from there
alone; this file shows it everywhere a game is: in the panel's game list, played in the terminal and by `cardgames-tutor
play` in a process of its own (the module named in CARDGAMES_TUTOR_GAMES), hinted by the coach, reviewed, drilled on its
follow rule, opened at a classroom table, saved and replayed. And no file of the project outside tests/ names it."""
import importlib, os, pathlib, random, re, subprocess, sys
import pytest
from cardgames_tutor.core import engine, records, registry
from cardgames_tutor.core.cards import Card
from cardgames_tutor.core.registry import games, get_game
from cardgames_tutor.core.leaks import leaked_cards
from cardgames_tutor.core.match import Match, play_out
from cardgames_tutor.core.tricks import follow_suit
from cardgames_tutor.practice import drills

HERE = pathlib.Path(__file__).parent
ROOT = HERE.parent
CLI = pathlib.Path(sys.executable).parent/'cardgames-tutor'
NAME = 'duel'


@pytest.fixture(scope='module')
def duel():
    "Duel registered by importing its module (again, if an earlier use took it back); taken back after this file."
    module = importlib.import_module('duel_game')
    if NAME not in games(): module = importlib.reload(module)
    yield module
    registry._REGISTRY.pop(NAME, None); drills.DRILLS.pop(NAME, None)  # the other tests count the package's five games


def cli(*args, plug_in=True, stdin=''):
    "`cardgames-tutor ARGS` in a process of its own; with `plug_in`, Duel's module named in CARDGAMES_TUTOR_GAMES."
    env = {k: v for k, v in os.environ.items() if k != 'CARDGAMES_TUTOR_GAMES'}
    if plug_in: env.update(CARDGAMES_TUTOR_GAMES='duel_game', PYTHONPATH=os.pathsep.join(filter(None, [str(HERE), env.get('PYTHONPATH')])))
    return subprocess.run([str(CLI), *args], input=stdin, capture_output=True, text=True, timeout=300, env=env)


def test_no_file_outside_tests_names_it():
    "The package, its notebooks, tools, bench and docs never name the sixth game: it is found, not listed."
    files = [p for d in ('cardgames_tutor', 'nbs', 'tools', 'bench', 'deploy') for p in (ROOT/d).rglob('*') if p.is_file()]
    files += [ROOT/'README.md', ROOT/'pyproject.toml', ROOT/'Makefile']
    named = [str(p.relative_to(ROOT)) for p in files if p.suffix in ('.py', '.ipynb', '.md', '.toml', '.yml', '.json', '')
             and re.search(r'\bduel', p.read_text(errors='replace'), re.I)]
    assert named == [] and len(files) > 100


def test_registered_and_in_the_panels_game_list(duel):
    from cardgames_tutor.ui.panel import Tutor
    assert games()[NAME].players == (2,) and engine.house_bot(duel.Duel) is duel.bot
    t = Tutor(NAME, seed=3, coach=False)
    assert ('Duel', NAME) in t.game_choice.options and t.game_choice.value == NAME
    assert t.session.match.game.n_seats() == 2 and t.session.match.to_act == 0  # the bots played up to the learner's turn


def test_played_in_the_terminal(duel):
    "Typed as a learner types: help, a card off the led suit while holding it (refused by the follow rule), then legal cards."
    from cardgames_tutor.term.cli import play
    match, said, tried = Match(get_game(NAME), seed=5), [], []
    def typed(prompt=''):
        said.append(prompt); assert len(said) < 5000, 'the terminal asks on and on'
        if prompt != '> ': return ''  # between hands: Enter deals the next
        if not tried: tried.append('help'); return 'help'
        hand, legal = match.hand, match.legal_actions()
        off = [c for c in hand.hands[0] if c not in legal]
        if off and len(tried) == 1: tried.append(off[0]); return off[0].code
        return legal[0].code
    play(match, input=typed, output=said.append)
    out = '\n'.join(map(str, said))
    assert match.over and 'Duel' in out and 'wins the match' in out
    assert len(tried) == 2 and 'You must follow the led suit' in out, out[:3000]
    assert not re.search(r"duel/|\[|Verdict\(", out)  # no rule id, no Python value on the learner's screen


def test_played_saved_replayed_and_drilled_by_the_command(duel, tmp_path):
    record = tmp_path/'duel.json'
    r = cli('play', NAME, '--seed', '4', '--bots', 'all', '--save', str(record))
    assert r.returncode == 0 and 'Duel' in r.stdout and 'wins the match' in r.stdout, r.stderr
    r = cli('replay', str(record))
    assert r.returncode == 0 and 'Hand 1' in r.stdout and r.stdout.strip() in cli('replay', str(record)).stdout
    r = cli('drill', NAME, '--rule', 'follow', '--count', '2', '--seed', '1', stdin='1\n1\n')
    assert r.returncode == 0 and 'follow' in r.stdout.lower() and 'Traceback' not in r.stderr, r.stderr
    gone = cli('replay', str(record), plug_in=False)  # without the plug-in the game is unknown: one line, no traceback
    assert gone.returncode == 2 and 'duel' in gone.stderr and len(gone.stderr.strip().splitlines()) == 1
    match = records.load(record)
    assert match.game.name == NAME and match.over
    again = tmp_path/'again.json'
    records.save(match, again)
    assert records.load(again).actions == match.actions


def test_a_plug_in_that_does_not_load_is_one_line():
    r = subprocess.run([str(CLI), '--version'], capture_output=True, text=True, timeout=120,
                       env={**os.environ, 'CARDGAMES_TUTOR_GAMES': 'no_such_game_module'})
    assert r.returncode == 0 and r.stderr.count('\n') == 1 and 'no_such_game_module' in r.stderr and 'Traceback' not in r.stderr


def test_hinted_and_reviewed_by_the_coach(duel):
    from cardgames_tutor.coach.search import hint, hint_text, review, review_text
    game = get_game(NAME)
    match = Match(game, seed=2)
    view = match.view(match.to_act)
    h = hint(view, game, seed=1, budget=0.05)
    assert h.best in view['legal'] and h.deals > 0 and h.label == 'expected tricks'
    said = hint_text(view, game, seed=1, budget=0.05)
    assert said.startswith('Hint: ') and ' tricks' in said and 'duel' not in said, said
    done = Match(game, seed=3)  # Seat 0 always plays its lowest card, winning or not: the review finds what that cost
    play_out(done, lambda v, rng: min(v['legal'], key=lambda c: c.rank) if v['seat'] == 0 else duel.bot(v, rng), random.Random(3))
    mistakes = review(done, 0, hand_no=1, budget=0.05)
    assert mistakes and review_text(done, 0, hand_no=1, budget=0.05).count('\n') > 2
    for m in mistakes:  # each a decision of Seat 0 in hand 1, the coach's choice another card it held then
        h_no, seat, action = done.actions[m.index]
        assert (h_no, seat, action, m.hand_no) == (0, 0, m.played, 1) and m.best != m.played and m.cost > 0


def test_drilled_on_its_follow_rule(duel):
    "Each question on following suit, answered by the engine, agrees with the follow rule read from the position itself."
    assert {'duel/follow', 'duel/trick', 'turn'} <= set(drills.drill_rules(NAME))
    checked = 0
    for seed in range(12):
        d = drills.drills_for(NAME, 'follow')[0]
        pos, _, fields = drills.asked(d, seed)
        q = drills.question(d, seed)
        if q.choices == drills.YES_NO:
            seat, action = q.facts['seat'], q.facts['action']
            led = pos.trick[0].suit if pos.trick else None
            allowed = follow_suit(pos.hands[seat], led)[0] if seat == pos.to_act else []
            assert (q.answers == (0,)) == (isinstance(action, Card) and action in allowed), q.prompt
        else:  # which card may be played: the right ones are those that follow
            led = pos.trick[0].suit
            assert {q.choices[i] for i in q.answers} == set(follow_suit(pos.hands[pos.to_act], led)[0])
        assert q.grade(q.answers[0]).right and not q.grade(next(i for i in range(len(q.choices)) if i not in q.answers)).right
        checked += 1
    assert checked == 12


def test_opened_at_a_classroom_table(duel):
    "A student opens a Duel table, a bot takes the other seat, the match is played to its end; the seat's view never shows the bot's cards."
    from cardgames_tutor.tables.class_tables import Tables
    tables = Tables()
    me = tables.open(NAME, 'Asha', client='browser-a', seed=6)
    table = tables.find(me.code)
    assert table.start(me.token).ok and len(table.seats) == 2
    moves = 0
    while not table.match.over:
        if table.match.to_act == me.seat:
            view = table.view(me.token)
            assert leaked_cards(table.match.hand, me.seat) == [] and view['legal']
            assert table.act(me.token, view['legal'][-1], f"r{moves}").ok
            moves += 1
        else: table.bot_move()
    assert moves > 6 and table.match.over
    saved = records.load(table.record(me.token))
    assert saved.actions == table.match.actions and saved.over
