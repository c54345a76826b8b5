"""The command line under bad arguments, bad typed input, odd bytes and encodings, and Ctrl-C: exit status 2 with one
line (never a traceback) for anything wrong, and the `--save` record written whatever happens."""
import contextlib, io, json, os, random, signal, subprocess, sys, time, pytest
from cardgames_tutor.term import cli
from cardgames_tutor.core.registry import get_game
from cardgames_tutor.core.match import Match
from cardgames_tutor.core.records import load, save, to_record
from record_fuzz import VARIANTS, ACTIONS

CLI = [sys.executable, '-m', 'cardgames_tutor.term.cli']

def run(*args, stdin=b'', env=None, timeout=120):
    return subprocess.run(CLI + list(args), input=stdin, capture_output=True, timeout=timeout,
                          env={**os.environ, **(env or {})})

def in_process(argv) -> tuple:
    "main(argv) in this process: (exit status, stdout, stderr); argparse's exits are statuses too."
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try: status = cli.main(argv)
        except SystemExit as e: status = e.code
    return status, out.getvalue(), err.getvalue()

def one_line_error(status, err):
    assert status == 2, (status, err[:300])
    assert err.count('\n') == 1 and err.startswith('cardgames-tutor') and len(err) < 300, err[:400]

@pytest.fixture(scope='module')
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp('records')
    rec = to_record(Match(get_game('kocka'), seed=2))
    (d / 'deep.json').write_text('[' * 100_000 + ']' * 100_000)
    (d / 'digits.json').write_text(json.dumps(rec).replace('"seed": 2', '"seed": ' + '9' * 5000))
    (d / 'float.json').write_text(json.dumps(rec).replace('"early_end": true', '"early_end": 1.0'))
    (d / 'twice.json').write_text(json.dumps(rec).replace('"word"', '"early_end": false, "word"'))
    (d / 'latin1.json').write_bytes(json.dumps(rec, ensure_ascii=False).encode('latin-1', 'replace') + b'\xe9\xff')
    (d / 'empty.json').write_text('')
    return d

BAD_ARGS = [[], ['play'], ['bogus'], ['--help-me'], ['play', 'bridge'], ['play', 'x' * 100_000],
            ['play', 'begga-kaat', '--players', '٣'], ['play', 'begga-kaat', '--players', '³'],
            ['play', 'begga-kaat', '--players', '9' * 5000], ['play', 'begga-kaat', '--players', '4.0'],
            ['play', 'begga-kaat', '--players', '-3'], ['play', 'begga-kaat', '--players', '7'],
            ['play', 'begga-kaat', '--seed', '1e5'], ['play', 'begga-kaat', '--seed', '9' * 5000], ['play', 'kocka', '--seed'],
            ['play', 'begga-kaat', '--option', 'target=' + '5' * 5000], ['play', 'begga-kaat', '--option', 'target=³'],
            ['play', 'begga-kaat', '--option', 'target=٣٠٠'], ['play', 'begga-kaat', '--option', 'players=4.0'],
            ['play', 'begga-kaat', '--option', '='], ['play', 'begga-kaat', '--option', 'target'],
            ['play', 'begga-kaat', '--option', 'x' * 100_000 + '=1'], ['play', 'begga-kaat', '--option', 'removed_two=' + 'Q' * 100_000],
            ['play', 'maghe-satra', '--option', 'target=0'], ['play', 'kocka', '--option', 'word=K1'],
            ['play', 'beggars-and-thieves', '--option', 'points=T14=[4]'], ['play', 'kocka', '--save', ''],
            ['play', 'kocka', '--save', '   '], ['play', 'kocka', '--save', '/no/such/folder/m.json'], ['play', 'kocka', '--save', '/tmp'],
            ['play', 'kocka', '--save', 'x' * 5000], ['play', 'kocka', '--save', '/tmp/' + 'x' * 300 + '.json'],
            ['play', 'kocka', '--bots', 'some'], ['play', 'kocka', '--bots', 'x' * 100_000], ['replay'], ['replay', '/no/such.json'],
            ['replay', '/tmp'], ['replay', 'x' * 5000], ['replay', '{"format": "cardgames-tutor-record"}'],
            ['replay', 'a', 'b'], ['replay', 'a', '--json=3'], ['play', 'kocka', '--unknown', '1']]

@pytest.mark.parametrize('argv', BAD_ARGS, ids=range(len(BAD_ARGS)))
def test_a_bad_argument_is_one_line_and_exit_2(argv):
    status, out, err = in_process(argv)
    one_line_error(status, err)
    assert out == ''

@pytest.mark.parametrize('name', ['deep', 'digits', 'float', 'twice', 'latin1', 'empty'])
def test_replay_of_a_bad_file_is_one_line(files, name):
    one_line_error(*in_process(['replay', str(files / f'{name}.json')])[::2])

@pytest.mark.parametrize('name', ['deep', 'digits', 'float', 'twice', 'latin1', 'empty'])
@pytest.mark.parametrize('command', ['replay', 'review'])
def test_a_bad_record_on_standard_input_is_one_line(files, name, command, monkeypatch):
    "`-` reads the record from standard input: the same bad files, piped in, are refused in one line as well."
    monkeypatch.setattr(sys, 'stdin', io.TextIOWrapper(io.BytesIO((files / f'{name}.json').read_bytes())))
    status, _, err = in_process([command, '-'])
    one_line_error(status, err)
    if name in ('latin1', 'empty'): assert 'standard input is' in err, err  # what is wrong with the bytes names where they came from
    else: assert err == in_process([command, str(files / f'{name}.json')])[2]  # what is wrong with the record: as for the file

def test_random_argument_lists_never_give_a_traceback():
    "Seeded random command lines built from good and bad pieces: each ends with status 0 or 2 and a short stderr."
    rng = random.Random(16)
    words = ['play', 'replay', 'kocka', 'begga-kaat', 'maghe-satra', 'bridge', '--players', '--seed', '--option', '--save',
             '--bots', 'all', '--json', '3', '-1', '٣', '³', '9' * 400, 'target=5', 'target=³', 'word=', 'players=2', '=',
             '', ' ', '\x00', '/no/such', '--', '-h', 'A♠', '\udcff']
    for _ in range(300):
        argv = [rng.choice(words) for _ in range(rng.randrange(0, 6))]
        if 'play' in argv and '--bots' not in argv: argv += ['--bots', 'all']  # never wait for typed moves here
        if '-h' in argv or '--save' in argv: continue  # help pages are long on purpose; saving is tested below
        status, out, err = in_process(argv)
        assert status in (0, 2), (argv, status, err)
        if status == 2: one_line_error(status, err)

def typed_lines(rng, match):
    "What a careless or hostile learner types: garbage, other digits, very long lines, and now and then a legal move."
    yield from ['call ³', 'Q' * 5000]
    while True:
        legal = match.legal_actions()
        pick = rng.random()
        if pick < 0.3 and legal: yield str(rng.choice(legal))
        elif pick < 0.6: yield rng.choice(ACTIONS)
        elif pick < 0.7: yield rng.choice(['help', 'undo', '', '   ', 'HELP', 'quit now', '\x1b[2J', '\ufffd\ufffd', 'A\ufffd'])
        elif pick < 0.75: yield rng.choice(['Q', '9', '٣']) * rng.choice([201, 5000, 100_000])
        else: yield ''.join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(160, 0x3000)])) for _ in range(rng.randrange(1, 12)))

@pytest.mark.parametrize('name, options', VARIANTS, ids=[f"{n}{o}" for n, o in VARIANTS])
def test_typed_input_fuzz_never_breaks_the_game(name, options):
    "Hundreds of typed lines per variant through the terminal loop: refusals are one line, and the game goes on."
    rng = random.Random(name + str(options))
    match, said = Match(get_game(name, **options), seed=rng.randrange(1000)), []
    lines, count = typed_lines(rng, match), [0]
    def feed(prompt=''):
        count[0] += 1
        if count[0] > 400: raise EOFError  # the learner leaves: the loop quits
        return next(lines)
    cli.play(match, input=cli._reader(feed, said.append), output=said.append)
    refusals = [s for s in said if s.startswith('Refused')]
    assert refusals and all('\n' not in s and len(s) < 300 for s in refusals), max(refusals, key=len)[:400]
    assert any('digit other than 0-9' in s for s in refusals) and any('at most 200' in s for s in refusals)

def test_non_utf8_input_bytes_are_refused_and_play_goes_on(tmp_path):
    f = tmp_path / 'p.json'
    r = run('play', 'begga-kaat', '--seed', '2', '--save', str(f), stdin=b'\xff\xfe\x80\n\xc3(\nA\xe2\x99\n' + '³\n'.encode() + b'quit\n')
    assert r.returncode == 0 and b'Traceback' not in r.stderr, r.stderr[-500:]
    assert r.stdout.count(b'Refused') >= 4 and load(f).to_act == 0

@pytest.mark.parametrize('encoding', ['ascii', 'latin-1', 'cp437'])
def test_an_output_that_cannot_show_suit_signs_gets_letters(tmp_path, encoding):
    r = run('play', 'kocka', '--seed', '4', '--bots', 'all', env={'PYTHONIOENCODING': encoding})
    assert r.returncode == 0 and b'Traceback' not in r.stderr, r.stderr[-500:]
    text = r.stdout.decode(encoding)
    assert 'Kocka' in text or 'Kočka' in text
    assert '🍃' not in text and '?' not in text.replace('?)', '')  # no sign lost as '?': each became its letter
    f = tmp_path / 'k.json'
    save(Match(get_game('begga-kaat'), seed=1), f)
    r = run('replay', str(f), env={'PYTHONIOENCODING': encoding})
    assert r.returncode == 0 and (encoding == 'cp437' or '♠' not in r.stdout.decode(encoding))

def test_replay_into_a_closed_pipe_is_quiet(tmp_path):
    f = tmp_path / 'm.json'
    save(Match(get_game('maghe-satra'), seed=3), f)
    p = subprocess.run(f"{sys.executable} -m cardgames_tutor.term.cli replay {f} | head -c 10", shell=True, capture_output=True, timeout=120)
    assert b'Traceback' not in p.stderr and b'BrokenPipe' not in p.stderr

def test_ctrl_c_saves_the_record_before_exiting(tmp_path):
    f = tmp_path / 'ctrl-c.json'
    # SIGINT as a terminal's Ctrl-C sends it, even when this test runs in the background (where the shell ignores SIGINT and
    # a child Python inheriting that would never raise KeyboardInterrupt)
    p = subprocess.Popen(CLI + ['play', 'begga-kaat', '--seed', '2', '--save', str(f)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    os.set_blocking(p.stdout.fileno(), False)
    seen, start = b'', time.time()
    while b'> ' not in seen and time.time() - start < 60:  # wait for the prompt at seat 0's turn
        seen += p.stdout.read() or b''
        time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130 and b'Traceback' not in err and err.strip().endswith(b'Stopped.'), err[-500:]
    m = load(f)
    assert not m.over and m.to_act == 0 and len(m.actions) > 0  # the bots' moves before the prompt are kept


LONG = ['x' * 5000, '9' * 5000, '-' + '9' * 5000, 'é' * 5000, 'a b ' * 1250]
OPTION_ARGS = [['play', '{}'], ['play', 'kocka', '--players', '{}'], ['play', 'kocka', '--seed', '{}'],
               ['play', 'kocka', '--option', '{}'], ['play', 'kocka', '--option', 'target={}'], ['play', 'kocka', '--option', '{}=1'],
               ['play', 'kocka', '--save', '{}'], ['play', 'kocka', '--save', '/no/such/{}'], ['play', 'kocka', '--bots', '{}'],
               ['play', '--exercise', '{}'], ['replay', '{}'], ['replay', 'm.json', '{}'], ['review', '{}'],
               ['review', 'm.json', '--seat', '{}'], ['drill', '{}'], ['drill', 'kocka', '--rule', '{}'],
               ['drill', 'kocka', '--count', '{}'], ['drill', 'kocka', '--seed', '{}'], ['{}'], ['--{}']]

@pytest.mark.parametrize('argv', OPTION_ARGS, ids=[' '.join(a) for a in OPTION_ARGS])
def test_every_option_with_a_5000_character_value_is_one_short_error_line(argv, tmp_path, monkeypatch):
    """Issue 39: `drill --count` with 5,000 digits or `--rule` with 5,000 characters printed a 5,100-character error
    line. Every option (and the command and game), given a 5,000-character value, is refused with status 2 and one line
    of at most `cli.MAX_ERROR` (200) characters, no traceback, the value shown cut."""
    monkeypatch.setenv('CARDGAMES_TUTOR_DATA', str(tmp_path))
    monkeypatch.chdir(tmp_path)
    for value in LONG:
        status, out, err = in_process([a.replace('{}', value) for a in argv])
        assert status == 2 and err.count('\n') == 1 and err.endswith('\n'), (argv, value[:10], status, err[:300])
        assert len(err) - 1 <= cli.MAX_ERROR and 'Traceback' not in err and err.startswith('cardgames-tutor'), (argv, value[:10], err[:400])
        if ' ' not in value: assert value[:50] not in err  # shown shortened (a value of short words is cut with the line)

def test_a_5000_character_rule_as_a_user_runs_it():
    "The issue's own command lines, in a child process (the installed entry point's module): one short line each."
    for argv in (['drill', 'kocka', '--count', '9' * 5000], ['drill', 'kocka', '--rule', 'r' * 5000]):
        r = run(*argv)
        assert r.returncode == 2 and r.stderr.count(b'\n') == 1 and len(r.stderr.decode()) - 1 <= cli.MAX_ERROR, r.stderr[:300]

def _read_until(p, seen, want: bytes, count: int) -> bytes:
    "Read the child's stdout (non-blocking) until `want` has appeared `count` times (a minute at most: a guard, not a test)."
    start = time.time()
    while seen.count(want) < count and time.time() - start < 60 and p.poll() is None:
        seen += p.stdout.read() or b''
        time.sleep(0.05)
    return seen

@pytest.mark.parametrize('signum', [signal.SIGTERM, signal.SIGHUP], ids=['SIGTERM', 'SIGHUP'])
def test_sigterm_and_sighup_save_the_record_as_ctrl_c_does(tmp_path, signum):
    """Issue 39: SIGTERM (`kill`, a shutdown) and SIGHUP (the terminal closed) lost the `--save` record; Ctrl-C kept it.
    The learner makes two moves (the first card the prompt offers), then the signal comes at the third prompt: the exit
    status is 128 + the signal, no traceback, and the file holds a record that loads and replays, both moves in it."""
    f = tmp_path / 'signal.json'
    p = subprocess.Popen(CLI + ['play', 'begga-kaat', '--seed', '2', '--save', str(f)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    os.set_blocking(p.stdout.fileno(), False)
    seen, typed = b'', []
    for k in (1, 2):
        seen = _read_until(p, seen, b'\n> ', k)
        offer = [l for l in seen.decode('utf-8', 'replace').splitlines() if l.startswith('You may play: ')][-1]
        typed.append(offer.split(': ', 1)[1].split()[0])
        p.stdin.write(typed[-1].encode() + b'\n'); p.stdin.flush()
    seen = _read_until(p, seen, b'\n> ', 3)
    assert seen.count(b'\n> ') == 3 and p.poll() is None, seen[-500:]
    p.send_signal(signum)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 128 + signum and b'Traceback' not in err and err.strip().endswith(b'Stopped.'), (p.returncode, err[-500:])
    m = load(f)
    mine = [a for _, s, a in m.actions if s == 0]
    assert [a.symbol for a in mine] == typed and not m.over and m.to_act == 0
    r = run('replay', str(f))
    assert r.returncode == 0 and b'Traceback' not in r.stderr and r.stdout.count(b'Seat 0 ') >= 2
