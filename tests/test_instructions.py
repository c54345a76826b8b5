"""Every instruction a learner is given works as written (issue 56): each command and code line of the README's
learner part, of the start page and of each tutorial's "what to do" is run exactly as printed, and every word the
terminal's `help` tells the learner to type is accepted.

- `cardgames-tutor ...`: the console script's own `main` (what the script installed beside this Python calls), with
  `quit` typed (stdin), in a folder of its own, in this process (a start of Python per command cost half a CPU-second
  each, and the check is the command's output, not its start); exit status 0 and no traceback. The console script
  itself is started as a learner starts it by the checks of the terminal's `help` below, in every game. Placeholders
  are filled in: `GAME` with every game, `FILE` with a hand record that a printed `--save FILE` makes (those commands
  run first). A lone game name after a command (`cardgames-tutor play begga-kaat` (or `kocka`, ...)) is that command
  with the game changed; a lone `--option` is added to the command before it.
- `make TARGET ...`: never run (the tutor and the classroom are servers, the tests take 20 minutes); `make -n` must
  know the target and its variables.
- A Python line: run with `exec` in a fresh namespace per page (its import lines first), as a learner's cell would;
  a widget is made, not shown.
- A lone word (`help`, `hint`): typed at the terminal's first turn of every game, and not refused.
In the README's learner part, on the start page and in the "what to do" paragraphs every code span must be one of
these (a span the test cannot run fails it); elsewhere in the tutorials only the commands and code lines are run.
"""
import ast, builtins, io, json, os, re, shlex, subprocess, sys, traceback
from pathlib import Path
import pytest
from helpers import ROOT
from cardgames_tutor.core.registry import games
from cardgames_tutor.term import cli
from cardgames_tutor.core.words import read_seed

BIN = Path(sys.executable).parent
TUTOR = BIN / 'cardgames-tutor'
GAMES = tuple(games())
NB = ROOT / 'nbs'
TUTORIALS = sorted(p.stem for p in (NB / 'tutorials').glob('*.ipynb') if p.stem != 'start')
TIMEOUT = 120  # seconds for one command (about half a second here)
VENV_BIN = '.venv/bin'  # where `make install` puts the commands (the Makefile's VENV and BIN): `.venv/bin/cardgames-tutor`
NOTATION = '(rule: how actions are written)'  # the rule a line is refused with when it is not written as a card or an action

# ---------------------------------------------------------------- the texts a learner reads

def readme_part(title:str, text:str|None=None) -> str:
    "The README's section `title` (from its `## ` heading to the next)."
    text = (ROOT / 'README.md').read_text(encoding='utf-8') if text is None else text
    m = re.search(rf'^## {re.escape(title)}\n(.*?)(?=^## |\Z)', text, re.M | re.S)
    assert m, f"README.md has no section '## {title}'"
    return m.group(1)

def markdown(nb:Path) -> list:
    "The markdown cells of notebook `nb`, as text."
    return [''.join(c['source']) for c in json.loads(nb.read_text(encoding='utf-8'))['cells'] if c['cell_type'] == 'markdown']

def what_to_do(name:str) -> str:
    "A tutorial's 'what to do' paragraph."
    said = [m for m in markdown(NB / 'tutorials' / f'{name}.ipynb') if '**What to do.**' in m]
    assert len(said) == 1, f"{name}: {len(said)} 'What to do' paragraphs"
    return said[0]

# ---------------------------------------------------------------- the instructions in a text

SPAN = re.compile(r'```[^\n]*\n(.*?)```|`([^`]+)`', re.S)

def spans(md:str) -> list:
    "The code spans of markdown `md`, in order: each line of a code block (a shell comment dropped), each inline span."
    out = []
    for block, inline in SPAN.findall(md):
        if block: out += [l.split('  #')[0].strip() for l in block.splitlines() if l.split('  #')[0].strip()]
        else: out.append(' '.join(inline.split()))
    return out

def is_python(span:str) -> bool:
    "A line of Python that does something: an import or a call."
    try: tree = ast.parse(span)
    except SyntaxError: return False
    return any(isinstance(n, (ast.Import, ast.ImportFrom, ast.Call)) for n in ast.walk(tree))

def kind(span:str) -> str|None:
    "What a code span is to a learner: 'make', 'command', 'option', 'game', 'python', 'word', or None (not an instruction)."
    if span.startswith('make '): return 'make'
    if span.startswith('cardgames-tutor') or span.startswith(f'{VENV_BIN}/cardgames-tutor'): return 'command'
    if span in (VENV_BIN, f'source {VENV_BIN}/activate'): return 'venv'
    if span.startswith('--'): return 'option'
    if span in GAMES: return 'game'
    if is_python(span): return 'python'
    if re.fullmatch(r'[a-z]+', span): return 'word'
    return None

def with_game(text:str, game:str) -> str:
    "`text` (a command or a line of Python) with its game name changed to `game`."
    names = '|'.join(sorted(map(re.escape, GAMES), key=len, reverse=True))
    changed, n = re.subn(rf'(?<![\w-])({names})(?![\w-])', game, text)
    assert n, f"{game!r} is given as another game for {text!r}, which names none"
    return changed

def instructions(md:str, strict:bool=True) -> list:
    """The (kind, text) instructions in `md`: a lone game name becomes the command or line before it with that game, a
    lone option the command before it with that option. `strict`: every code span must be an instruction."""
    out, base, unknown = [], None, []
    for span in spans(md):
        k = kind(span)
        if k in ('command', 'python', 'make'): base = (k, span.removeprefix(f'{VENV_BIN}/')); out.append(base)
        elif k == 'venv': out.append((k, span))
        elif k == 'game' and base and base[0] in ('command', 'python'): out.append((base[0], with_game(base[1], span)))
        elif k == 'option' and base and base[0] == 'command': out.append(('command', f'{base[1]} {span}'))
        elif k == 'word' and strict: out.append(('word', span))
        elif strict: unknown.append(span)
    assert not unknown, f"code spans the test cannot run as instructions (make it one, or teach the test): {unknown}"
    return out

def test_the_instructions_are_found():
    "The extraction sees what a learner sees (and refuses a span it cannot run)."
    md = ("Run `make tutor NO_BROWSER=1`, then `cardgames-tutor play kocka` (or `maghe-satra`); `help` and `--coach`.\n"
          "```sh\nmake test    # check\n```\nIn a cell: `from x import y; y('kocka')`.")
    assert instructions(md) == [('make', 'make tutor NO_BROWSER=1'), ('command', 'cardgames-tutor play kocka'),
                                ('command', 'cardgames-tutor play maghe-satra'), ('word', 'help'),
                                ('command', 'cardgames-tutor play kocka --coach'), ('make', 'make test'),
                                ('python', "from x import y; y('kocka')")]
    with pytest.raises(AssertionError, match='cannot run'): instructions("type `Q♥` here")
    assert instructions("type `Q♥` here", strict=False) == []
    assert readme_part('B', "## A\nno\n## B\nyes `x`\n## C\nno\n") == "yes `x`\n"

# ---------------------------------------------------------------- running them

def tutor(args:list, cwd:Path, stdin:str='quit\n') -> subprocess.CompletedProcess:
    "The installed console script, run as a learner runs it (stdin typed in), with its data kept in `cwd`."
    env = {**os.environ, 'CARDGAMES_TUTOR_DATA': str(cwd / 'data'), 'PYTHONIOENCODING': 'utf-8'}
    return subprocess.run([str(TUTOR), *args], input=stdin, capture_output=True, text=True, encoding='utf-8',
                          cwd=cwd, env=env, timeout=TIMEOUT)

def expand(command:str, record:Path) -> list:
    "The argument lists `command` stands for: `GAME` as every game, `FILE` as `record`."
    args = shlex.split(command)[1:]
    games_ = GAMES if 'GAME' in args else (None,)
    return [[{'GAME': g, 'FILE': str(record)}.get(a, a) for a in args] for g in games_]

def tutor_main(args:list, monkeypatch, capsys, stdin:str='quit\n') -> subprocess.CompletedProcess:
    """`cardgames-tutor ARGS` run through the console script's own `main`, in this process, as the script runs it (`stdin`
    typed in, exit status what `main` returns or exits with, a traceback printed to stderr with status 1, as Python's
    own): the data folder and the folder it runs in are the test's (`folder`)."""
    monkeypatch.setattr(sys, 'stdin', io.StringIO(stdin))
    monkeypatch.setattr(sys, 'argv', [str(TUTOR), *args])
    capsys.readouterr()
    try: status = cli.main(list(args))
    except SystemExit as e: status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except Exception: traceback.print_exc(); status = 1
    out = capsys.readouterr()
    return subprocess.CompletedProcess([str(TUTOR), *args], status or 0, out.out, out.err)

def run_commands(commands:list, folder:Path, monkeypatch, capsys) -> list:
    "Run every `cardgames-tutor` command (those that save FILE first) through `main`; the problems found, as lines."
    record, problems = folder / 'record.json', []
    assert Path.cwd() == folder.resolve() and os.environ['CARDGAMES_TUTOR_DATA'] == str(folder / 'data'), "run in the learner's folder (`folder`)"
    for command in sorted(dict.fromkeys(commands), key=lambda c: '--save' not in c):
        for args in expand(command, record):
            r = tutor_main(args, monkeypatch, capsys)
            said = r.stdout + r.stderr
            if r.returncode != 0 or 'Traceback' in said:
                problems.append(f"`{command}` (run as cardgames-tutor {shlex.join(args)}): exit status {r.returncode}\n{said[-1500:]}")
    return problems

def run_make(commands:list) -> list:
    "Each `make TARGET ...` as printed, dry-run (`make -n`, the install step left out): the problems found."
    problems = []
    for command in dict.fromkeys(commands):
        words = shlex.split(command)
        r = subprocess.run(['make', '-n', '-o', 'install', *words[1:]], cwd=ROOT, capture_output=True, text=True, timeout=60)
        if r.returncode != 0: problems.append(f"`{command}`: make -n says {r.stderr.strip()[-500:]}")
    return problems

def run_venv(spans:list) -> list:
    "`.venv/bin` and `source .venv/bin/activate` as printed: the folder `make install` makes holds the commands and the activate script."
    made = (ROOT / 'Makefile').read_text(encoding='utf-8')
    if spans and not ('VENV   ?= .venv' in made and 'BIN     = $(VENV)/bin' in made): return [f"{spans}: the Makefile no longer installs into {VENV_BIN}"]
    return [f"`{s}`: {BIN} has no activate script" for s in spans if 'activate' in s and not (BIN / 'activate').exists()]

def run_python(lines:list, where:str) -> list:
    "The lines of Python, each run as printed in one fresh namespace (imports first): the problems found."
    problems, namespace = [], {'__name__': '__main__'}
    for line in sorted(dict.fromkeys(lines), key=lambda l: not all(isinstance(s, (ast.Import, ast.ImportFrom)) for s in ast.parse(l).body)):
        try: exec(compile(line, f'<{where}>', 'exec'), namespace)
        except Exception as e: problems.append(f"`{line}` ({where}): {type(e).__name__}: {e}")
    return problems

def typed(game:str, seed:int, lines:list, monkeypatch, capsys) -> list:
    """What `cardgames-tutor play GAME --seed SEED` answers to each of `lines` typed at the prompt (then quit), run
    in this process through the console script's own `main`: one text per line typed."""
    todo = list(lines) + ['quit']
    def answer(prompt=''):
        print('\n@@typed@@')
        if not todo: raise EOFError
        return todo.pop(0)
    monkeypatch.setattr(builtins, 'input', answer)
    capsys.readouterr()
    status = cli.main(['play', game, '--seed', str(seed)])
    out = capsys.readouterr()
    assert status == 0 and 'Traceback' not in out.out + out.err, f"{game} seed {seed}: {lines}: {out.out[-800:]}{out.err}"
    return out.out.split('\n@@typed@@\n')[1:len(lines) + 1]

def check_words(words:list, monkeypatch, capsys) -> list:
    "Each word (`help`, `hint`...) typed at the first turn of every game: the refusals."
    problems = []
    for game in GAMES:
        for word, said in zip(words, typed(game, 1, words, monkeypatch, capsys)):
            if 'Refused' in said: problems.append(f"`{word}` in {game}: {said.strip()[:300]}")
    return problems

def check(pairs:list, where:str, folder:Path, monkeypatch, capsys):
    "Run every instruction of `pairs` (kind, text); fail with every problem found."
    by = lambda k: [t for kk, t in pairs if kk == k]
    problems = (run_make(by('make')) + run_venv(by('venv')) + run_commands(by('command'), folder, monkeypatch, capsys) + run_python(by('python'), where)
                + check_words(list(dict.fromkeys(by('word'))), monkeypatch, capsys))
    assert not problems, f"{where}: instructions that do not work as printed:\n" + '\n'.join(problems)

def test_a_command_that_does_not_work_is_a_problem(folder, monkeypatch, capsys):
    "Run in this process, a command that exits 2 or ends in a traceback is still found (and one that works is not)."
    bad = run_commands(['cardgames-tutor play whist', 'cardgames-tutor replay FILE', 'cardgames-tutor play kocka'], folder, monkeypatch, capsys)
    assert len(bad) == 2 and all('exit status 2' in b for b in bad) and "unknown game 'whist'" in bad[0] + bad[1], bad
    monkeypatch.setattr(cli, '_show_record', lambda *a: 1 / 0)  # a command that breaks: its traceback, status 1
    crash = tutor_main(['replay', 'x.json'], monkeypatch, capsys)
    assert crash.returncode == 1 and 'Traceback' in crash.stderr and 'ZeroDivisionError' in crash.stderr

# ---------------------------------------------------------------- the README, the start page, the tutorials

@pytest.fixture
def folder(tmp_path, monkeypatch):
    "A folder of the learner's own, where the drills keep their progress."
    monkeypatch.setenv('CARDGAMES_TUTOR_DATA', str(tmp_path / 'data'))
    monkeypatch.chdir(tmp_path)
    return tmp_path

def test_the_readme_learner_part_works_as_printed(folder, monkeypatch, capsys):
    pairs = instructions(readme_part('If you are learning'))
    kinds = {k for k, _ in pairs}
    assert {'make', 'command', 'python', 'word'} <= kinds, pairs  # the README's learner part has each kind today
    check(pairs + instructions(readme_part('Two commands'), strict=False), 'README.md', folder, monkeypatch, capsys)

def test_the_start_page_works_as_printed(folder, monkeypatch, capsys):
    text = '\n\n'.join(markdown(NB / 'tutorials' / 'start.ipynb'))
    pairs = instructions(text)
    drills = [t for k, t in pairs if 'drill' in t or 'Practice(' in t]
    assert not any(k == 'python' for k, _ in pairs), "the start page is a learner's: no Python to type (issue 55)"
    # a learner drills in Jupyter with nothing to type: the chooser just under the paragraph that says so (before, the
    # page sent them to the programmers' page for a line to type, a page JupyterLab does not link, opening on code)
    assert 'page for programmers and teachers' not in text and 'home page' not in text, "a learner's path leads through code"
    cells = json.loads((NB / 'tutorials' / 'start.ipynb').read_text(encoding='utf-8'))['cells']
    said = next(i for i, c in enumerate(cells) if '## Practise' in ''.join(c['source']))
    chooser = ''.join(cells[said + 1]['source'])
    from cardgames_tutor.ui.practice_view import Drills
    assert cells[said + 1]['cell_type'] == 'code' and chooser.rstrip().endswith('Drills()'), chooser
    assert f"**{Drills().start.description}** button are just under this" in text
    assert any('cardgames-tutor drill' in t for t in drills), "the start page says how to drill in a terminal"
    check(pairs, 'nbs/tutorials/start.ipynb', folder, monkeypatch, capsys)

@pytest.mark.parametrize('name', TUTORIALS)
def test_a_tutorial_works_as_printed(name, folder, monkeypatch, capsys):
    "Its 'what to do' (every code span an instruction), and any command or code line elsewhere in its text."
    nb = NB / 'tutorials' / f'{name}.ipynb'
    pairs = instructions(what_to_do(name)) + [p for m in markdown(nb) for p in instructions(m, strict=False)]
    check(pairs, f'nbs/tutorials/{name}.ipynb', folder, monkeypatch, capsys)

# ---------------------------------------------------------------- the terminal's help

def help_of(out:str) -> str|None:
    "What `help` printed at the learner's first turn (from the first prompt to the table shown again); None when the first prompt came between hands."
    after = out.split('\n> ', 1)[1] if '\n> ' in out else ''
    return after.split('\n-- Hand', 1)[0] if ': the quick reference' in after.split('\n', 1)[0] else None

def turn_help(game:str, folder:Path) -> tuple:
    """(first line, seed, help text) of `cardgames-tutor play GAME` typed `help` then `quit`, exactly as a learner does;
    if the learner's first hand gave them no turn (Maghe Satra's can end before it), seeds 1, 2... until one does.
    The seed is the one the last line gives to deal the same cards again (the first line names no seed), with the command
    as it was started (its path, where the shell would not find it by name: `terminal.typed_command`)."""
    for seed in (None, *range(1, 20)):
        r = tutor(['play', game] + ([] if seed is None else ['--seed', str(seed)]), folder, 'help\nquit\n')
        assert r.returncode == 0 and 'Traceback' not in r.stdout + r.stderr, r.stdout[-1500:] + r.stderr
        header = r.stdout.splitlines()[0]
        if (said := help_of(r.stdout)) is not None: return header, read_seed(shlex.split(re.search(rf'type: (?:{re.escape(str(TUTOR))}|cardgames-tutor) play \S+(?: --\S+ \S+)* --seed (\d+|\'[\d ]+\')$', r.stdout, re.M).group(1))[0]), said  # a long seed in fours, quoted
    raise AssertionError(f"{game}: no seed of 1-19 gave the learner a turn in the first hand")

CODE = re.compile(r'^(?:(?:10|[0-9]|[A-Z])(?:[A-Z]|[♠♥♦♣🍃🌰🔔])|[A-Z](?:1[0-4]|[1-9]))$')  # AC A♣ 10H TH AA, or T6 R8
TYPED = re.compile(r'"([^"]+)"')  # the terminal puts everything a learner types in double quotes

def told(header:str, said:str) -> tuple:
    """The words `help` (and the first line) tell the learner to type, each with what it must get: 'command' and
    'move': no refusal at all; 'card': read as a card (a card the learner does not hold may be refused by a rule);
    'verb': a word of the game named in the first line (typed with what follows it, when the turn asks for it). And the
    options `help` names (`--coach`)."""
    words = {}
    m = re.search(r'At your turn type (.*?); ((?:"\w+"(?:, | or )?)+)\.', header)
    assert m, f"the first line no longer says what to type: {header!r}"
    words.update((w, 'command') for w in TYPED.findall(m.group(2)))
    words.update((w, 'card' if CODE.match(w) else 'verb') for w in TYPED.findall(m.group(1)))
    lines = said.splitlines()
    for line in lines:
        if line.startswith('You may ') or line.startswith('  "'):  # what may be typed now: each must be taken
            words.update((w, 'move') for w in TYPED.findall(line))
        elif re.match(r'"(\w+)" (asks|takes back|stops|shows)\b', line) or '"quit" stops' in line:
            words.update((w, 'command') for w in TYPED.findall(line) if re.fullmatch(r'[a-z]+', w))
    start = next((i for i, l in enumerate(lines) if l.startswith('Typing a card')), None)
    end = next((i for i, l in enumerate(lines) if l.startswith('Every card: type it')), None)
    if start is None or end is None: return words, re.findall(r"again with: \S*cardgames-tutor play \S+(?: --\S+ (?:'[^']*'|\S+))* (--[a-z]+)$", said, re.M)
    for line in lines[start:end]:  # the notation: `AC` (`A♣` is read too), `TH` = `10H`, `AA` is the ace of acorns
        words.update((t, 'card') for t in TYPED.findall(line) if t not in words)
    table = [re.split(r'\s{2,}', l.strip()) for l in lines[end + 1:]]  # fields two spaces apart (a sign may be drawn wide)
    columns = [i for i, f in enumerate(table[0]) if f == 'type']
    assert columns, f"the table of every card has no 'type' column: {table[0]!r}"
    for row in table[1:]:
        if not CODE.match(row[0]): break  # the rows end where a line starts with no card
        for c in columns[:len(row) // 3 + 1]:
            if c < len(row):
                assert CODE.match(row[c]), f"the table of every card, column {c}: {row[c]!r} in {row!r}"
                words.setdefault(row[c], 'card')
    return words, re.findall(r"again with: \S*cardgames-tutor play \S+(?: --\S+ (?:'[^']*'|\S+))* (--[a-z]+)$", said, re.M)

@pytest.mark.parametrize('game', GAMES)
def test_every_word_the_terminal_help_gives_is_accepted(game, tmp_path, monkeypatch, capsys):
    header, seed, said = turn_help(game, tmp_path)
    words, options = told(header, said)
    assert {'help', 'hint', 'undo', 'quit'} <= set(words), words
    played = cli.make_game(game)
    cards = sum(v == 'card' for v in words.values())
    assert sum(v == 'move' for v in words.values()) >= 1 and (cards >= 20 if played.CARD_ACTIONS else cards == 0), words
    named = TYPED.findall(re.search(r'At your turn type (.*?); ', header).group(1))  # the game's words, in the first line
    assert {w for w in named if not CODE.match(w)} == {v.typed.split()[0] for v in played.VERB_WORDS.values()}, header
    problems, pack = [], played.pack
    plays_cards = any(l.startswith('You may play: ') for l in said.splitlines())  # else the turn is a word (pick, pass...)
    for word, want in words.items():
        if want == 'verb': continue  # a game's word, typed with what follows it when the turn asks for it (checked above)
        if want == 'card' and not plays_cards:  # a card is no answer to this turn: it must still be read as a card
            try: pack.parse(word)
            except ValueError as e: problems.append(f"{word!r} ({want}): not a card of the pack: {e}")
            continue
        answer = typed(game, seed, [word], monkeypatch, capsys)[0]
        refused = NOTATION in answer if want == 'card' else 'Refused' in answer
        if refused: problems.append(f"{word!r} ({want}): {answer.strip()[:300]}")
        if word == 'quit' and 'Stopped.' not in answer: problems.append(f"'quit' did not stop the game: {answer.strip()[:200]}")
    assert options == ['--coach'], f"help no longer offers the coach at every turn: {said[-300:]!r}"  # (a wording change would skip the check)
    for option in options:  # `play ... --coach`
        r = tutor(['play', game, '--seed', str(seed), option], tmp_path)
        if r.returncode != 0 or 'Traceback' in r.stdout + r.stderr: problems.append(f"play {game} {option}: exit status {r.returncode} {r.stderr[-300:]}")
    assert not problems, f"{game}, seed {seed}: words help tells the learner to type, refused:\n" + '\n'.join(problems)

def test_the_readme_says_how_to_drill_with_nothing_to_type_and_how_to_run_a_class():
    """A learner reads how to open the drills with no Python (the start page's button), and, before the line of Python
    for a cell of their own, to click inside the new cell (typing at once ran each letter as a JupyterLab shortcut and
    scrambled a notebook). A teacher reads how to run the classroom in the background and stop it, how to give the
    server its options (`make classroom` passes four), where the results file is, that it keeps every class served
    from the account, and how to keep a class in a file of its own; each option printed is one the server takes."""
    from cardgames_tutor.ui.practice_view import Drills
    from cardgames_tutor.serve.classroom_cli import arguments
    learn = readme_part('If you are learning')
    assert f"**{Drills().start.description}**" in learn
    item = learn.split("Practice('kocka')")[0].rsplit('\n5. ', 1)[-1]
    assert '**+**' in item and 'click inside the new cell' in item.split('**+**', 1)[1], item
    teach = readme_part('If you are teaching')
    assert 'nohup .venv/bin/cardgames-classroom' in teach and 'echo $!' not in teach and 'the `kill` command that stops the server' in teach  # the log's number, not the shell's `$!`
    assert '--seat-hold' in teach and '--bot-pace' in teach and 'keeps every' in teach and '`--results 7b.sqlite`' in teach
    assert '~/.local/share/cardgames_tutor/' in teach
    for printed in re.findall(r'`\.venv/bin/cardgames-classroom ([^`>]*?)(?: >[^`]*)?`', teach):
        words = shlex.split(printed.replace('\n', ' '))
        if words != ['--help']: arguments(words)  # argparse exits on an option the server does not take
