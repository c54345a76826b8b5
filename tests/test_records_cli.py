"""Hand records and the command line, as a user runs them: exit codes, one-line errors, no tracebacks.

Most commands run through the command line's `main` in this process, as `python -m cardgames_tutor.term.cli` runs it
(`sys.exit(main())`: its exit status, its standard input, output and error, a traceback as Python prints one): the checks
are the commands' outputs, and a start of Python per command cost half a CPU-second. Python is started for real where the
start is what is checked: `--version`, records on a real standard input (bytes, not UTF-8 text), and no widget imported.
"""
import contextlib, io, json, os, subprocess, sys, traceback, pytest
from cardgames_tutor.term import cli
from cardgames_tutor.core.engine import rule_title, rule_name
from cardgames_tutor.core.registry import games
from cardgames_tutor.core.match import Match, play_out
from cardgames_tutor.core.records import to_record, load, save, summary, RecordError
from cardgames_tutor.games.begga_kaat import BeggaKaat

CLI = [sys.executable, '-m', 'cardgames_tutor.term.cli']

def run_started(*args, stdin=''):
    "`python -m cardgames_tutor.term.cli ARGS`, started as a user starts it."
    return subprocess.run(CLI + list(args), input=stdin, capture_output=True, text=True, timeout=120)

def run(*args, stdin=''):
    "`python -m cardgames_tutor.term.cli ARGS` as its `__main__` runs it (`sys.exit(main())`), in this process: what it says and its exit status."
    out, err, saved = io.StringIO(), io.StringIO(), (sys.stdin, sys.argv)
    sys.stdin, sys.argv = io.TextIOWrapper(io.BytesIO(stdin.encode('utf-8')), encoding='utf-8'), [cli.__file__, *args]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try: code = cli.main(list(args))
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) or e.code is None else 1
                if not isinstance(e.code, int) and e.code is not None: print(e.code, file=sys.stderr)
            except Exception: traceback.print_exc(); code = 1
    finally: sys.stdin, sys.argv = saved
    return subprocess.CompletedProcess(CLI + list(args), code or 0, out.getvalue(), err.getvalue())

def available_games(): return list(games())

@pytest.fixture
def record(tmp_path):
    path = tmp_path / 'm.json'
    save(play_out(Match(BeggaKaat(), seed=21)), path)
    return path

def test_replay_prints_the_account_and_the_json_summary(record):
    r = run('replay', str(record))
    assert r.returncode == 0 and 'wins chaal 1' in r.stdout and 'Game over' in r.stdout
    s = json.loads(run('replay', str(record), '--json').stdout)
    m = load(record)
    assert s['standing']['totals'] == m.standing['totals'] and s['match_over']
    for h, hs in zip(m.hands, s['hands']):
        assert hs['points'] == h.points and len(hs['tricks']) == 13
        assert [t['winner'] for t in hs['tricks']] == [t.winner for t in h.tricks]
        assert all(set(t) >= {'leader', 'cards', 'winner', 'points'} for t in hs['tricks'])

@pytest.mark.parametrize('mutate, words', [
    (lambda d: d['hands'][0]['actions'].__setitem__(2, d['hands'][0]['actions'][0]), 'hand 1, action 2: Seat'),
    (lambda d: d['hands'][0]['deal']['hands'][1].__setitem__(0, 'XX'), "hand 1: unknown card 'XX'"),
    (lambda d: d['hands'][0]['deal']['hands'][1].__setitem__(0, d['hands'][0]['deal']['hands'][0][0]), 'dealt twice'),
    (lambda d: d.__setitem__('game', 'whist'), "unknown game 'whist'"),
    (lambda d: d['options'].__setitem__('target', 10), 'target=10 is not allowed'),
    (lambda d: d.__setitem__('format', 'x'), 'not a hand record'),
    (lambda d: d['hands'][0].__setitem__('actions', 'AS KS'), "'actions' must be a list"),
    (lambda d: d['hands'][1].__setitem__('dealer', 9), 'hand 2: dealer is 9'),
])
def test_a_bad_record_exits_2_with_one_line(tmp_path, record, mutate, words):
    data = json.loads(record.read_text()); mutate(data)
    bad = tmp_path / 'bad.json'; bad.write_text(json.dumps(data))
    r = run('replay', str(bad))
    assert r.returncode == 2 and r.stdout == ''
    assert r.stderr.count('\n') == 1 and words in r.stderr and 'Traceback' not in r.stderr

def test_illegal_action_line_names_index_seat_card_and_rule(tmp_path, record):
    data = json.loads(record.read_text())
    data['hands'][0]['actions'][1] = data['hands'][0]['actions'][0]
    bad = tmp_path / 'bad.json'; bad.write_text(json.dumps(data))
    err = run('replay', str(bad)).stderr
    card = data['hands'][0]['actions'][0]
    assert 'action 1' in err and 'Seat ' in err and repr(card) in err and f"(rule: {rule_name('begga-kaat/hold')})" in err
    assert 'begga-kaat/' not in err  # the rule in words, never its id

@pytest.mark.parametrize('text', ['', '{', '[]', 'null', '{"format": "cardgames-tutor-record", "version": 1, "game": "begga-kaat", "hands": []}'])
def test_malformed_files(tmp_path, text):
    bad = tmp_path / 'bad.json'; bad.write_text(text)
    r = run('replay', str(bad))
    assert r.returncode == 2 and r.stderr.count('\n') == 1 and 'Traceback' not in r.stderr

def test_missing_file_and_bad_game_and_option():
    for args in [('replay', '/nonexistent/x.json'), ('play', 'bridge'), ('play', 'begga-kaat', '--option', 'target=5'),
                 ('play', 'begga-kaat', '--players', '7'), ('play', 'begga-kaat', '--option', 'colour=red')]:
        r = run(*args)
        assert r.returncode == 2 and r.stderr.count('\n') == 1 and 'Traceback' not in r.stderr, args

@pytest.mark.parametrize('game', available_games())
def test_bots_all_plays_saves_and_replays_every_game(tmp_path, game):
    f = tmp_path / 'g.json'
    r = run('play', game, '--seed', '3', '--bots', 'all', '--save', str(f))
    assert r.returncode == 0, r.stderr
    m = load(f)
    assert m.over and json.loads(run('replay', str(f), '--json').stdout)['match_over']

def test_terminal_play_refuses_a_wrong_card_with_its_reason(tmp_path):
    m = Match(BeggaKaat(), seed=2)
    # find what seat 0 holds that is not legal at its first turn: play with bots until seat 0 acts
    while m.to_act != 0: m.apply(BeggaKaat().bot(m.view(m.to_act), __import__('random').Random(2)))
    f = tmp_path / 'p.json'
    r = run('play', 'begga-kaat', '--seed', '2', '--save', str(f), stdin='ZZ\nquit\n')
    assert r.returncode == 0
    assert "Refused: Unknown card 'ZZ'" in r.stdout and 'Stopped.' in r.stdout and 'Your cards:' in r.stdout
    partial = load(f)
    assert not partial.over and partial.to_act == 0

def test_a_teachers_written_deal_by_seed_only(tmp_path):
    rec = {'format': 'cardgames-tutor-record', 'version': 1, 'game': 'begga-kaat', 'seed': 5, 'hands': [{'actions': []}]}
    m = load(rec)
    assert m.hand.deal == Match(BeggaKaat(), seed=5).hand.deal


def test_drills_and_links_need_no_widget(tmp_path):
    "The progress store, the command line's `drill` and link parsing are plain Python: none of them imports ipywidgets."
    code = ("import sys\nfrom cardgames_tutor.term.cli import main\nfrom cardgames_tutor.ui.session_data import parse_link\n"
            "assert main(['drill', 'kocka', '--count', '2', '--seed', '1']) == 0\nparse_link('game=kocka&seat=9')\n"
            "assert 'ipywidgets' not in sys.modules, 'ipywidgets was imported'")
    r = subprocess.run([sys.executable, '-c', code], input='1\nquit\n', capture_output=True, text=True, timeout=120,
                       env={**os.environ, 'CARDGAMES_TUTOR_DATA': str(tmp_path)})
    assert r.returncode == 0, r.stderr
    assert 'Score: ' in r.stdout and (tmp_path / 'progress.sqlite').exists()

def test_version_prints_the_version_and_exits_0():
    from cardgames_tutor import __version__
    r = run_started('--version')
    assert (r.returncode, r.stdout, r.stderr) == (0, f"cardgames-tutor {__version__}\n", '')

@pytest.mark.parametrize('args', [['replay'], ['replay', '--json'], ['review', '--seat', '1']])
def test_a_dash_reads_the_record_from_standard_input(record, args):
    """The same output from `-` (the record on standard input) as from the file. The review reads the match's first hand alone
    (a record saved when hand 1 was over): a review searches every decision, and one hand shows the dash as well as six."""
    if args[0] == 'review':
        data = json.loads(record.read_text()); data['hands'] = data['hands'][:1]
        record.write_text(json.dumps(data))
    from_file, from_stdin = run(*args, str(record)), run(*args, '-', stdin=record.read_text())
    assert from_stdin.returncode == 0 and from_stdin.stderr == '' and from_stdin.stdout == from_file.stdout != ''

@pytest.mark.parametrize('command', ['replay', 'review'])
@pytest.mark.parametrize('data, words', [(b'', 'standard input is empty'), (b'{"a": "\xff"}', 'standard input is not UTF-8 text (byte 7 is 0xFF)'),
                                         (b'hello', 'not valid JSON'), (b'[]', 'a hand record is a JSON object')])
def test_bad_standard_input_exits_2_with_one_line(command, data, words):
    r = subprocess.run(CLI + [command, '-'], input=data, capture_output=True, timeout=120)
    err = r.stderr.decode()
    assert r.returncode == 2 and r.stdout == b'' and err.count('\n') == 1 and words in err and 'Traceback' not in err

def test_a_seed_in_groups_of_digits_is_read_and_said_as_the_hands_export_writes_it():
    """`play maghe-satra --seed "12 345 678"` was refused ("not a whole number of at most 30 digits 0-9"), while the
    panel and the hands export write a long seed in groups (`seed_cell`) and read it back with spaces (`read_seed`). Now
    the terminal reads it so: the same deals as `--seed 12345678`, and its last line says the seed as `seed_cell` writes
    it, quoted so that the line, typed as printed, deals them again. `drill --seed` reads and says it the same way."""
    import shlex
    from cardgames_tutor.core.words import seed_cell
    spaced, plain = run('play', 'maghe-satra', '--seed', '12 345 678', '--bots', 'all'), run('play', 'maghe-satra', '--seed', '12345678', '--bots', 'all')
    assert spaced.returncode == 0 and spaced.stderr == '', spaced.stderr
    assert spaced.stdout == plain.stdout
    last = spaced.stdout.strip().splitlines()[-1]
    assert last.endswith(f"--seed '{seed_cell(12345678)}'") and seed_cell(12345678) == '1234 5678', last
    typed = shlex.split(last.split('type: ', 1)[1])
    assert cli._parser().parse_args(typed[1:]).seed == 12345678  # the line as printed, typed again
    assert cli._parser().parse_args(['drill', 'kocka', '--seed', "'-1 2345"]).seed == -12345  # as the export writes a negative one
    said = []
    cli.drill('kocka', count=1, seed=12345, input=lambda _: 'quit', output=said.append)
    assert ', seed 1 2345 (the same seed' in said[0], said[0]
    for bad in ('', '  ', '12a', '1.5'):
        r = run('play', 'kocka', '--seed', bad)
        assert r.returncode == 2 and r.stderr.count('\n') == 1 and 'seed' in r.stderr, (bad, r.stderr)

def test_a_drill_of_one_question_says_one_question():
    "`drill kocka --count 1` began '1 questions on Kočka': one question, said so; more, in the plural."
    said = []
    cli.drill('kocka', count=1, seed=3, input=lambda _: 'quit', output=said.append)
    assert said[0].startswith('1 question on Kočka, seed 3 '), said[0]
    cli.drill('kocka', count=2, seed=3, input=lambda _: 'quit', output=said.append)
    assert any(s.startswith('2 questions on Kočka, seed 3 ') for s in said), said


def test_a_drill_cut_short_by_its_reader_ends_quietly(monkeypatch, tmp_path):
    """`cardgames-tutor drill kocka | head -2` ended in a BrokenPipeError traceback: the drill ran outside the part of
    `main` that stops quietly when the reader goes away (or on Ctrl-C). Now it stops as `play` does, with no traceback."""
    import sys
    from cardgames_tutor.term import cli
    spare = open(tmp_path / 'out', 'w')  # what the quiet stop points the gone stream at
    class Gone:  # a pipe whose reader has gone: every write fails
        encoding = 'utf-8'
        def write(self, text): raise BrokenPipeError(32, 'Broken pipe')
        def flush(self): pass
        def fileno(self): return spare.fileno()
    monkeypatch.setattr(sys, 'stdout', Gone())
    monkeypatch.setenv('CARDGAMES_TUTOR_DATA', str(tmp_path))
    assert cli.main(['drill', 'kocka', '--seed', '3']) == 1  # stopped quietly, as `play` does
