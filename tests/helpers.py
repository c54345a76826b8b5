"""Shared test helpers: the leak check at a match's current hand, and seeded random matches."""
import random
from cardgames_tutor.core.cards import Card
from cardgames_tutor.core.engine import leaked_cards
from cardgames_tutor.core.match import Match, play_out, random_choice

_TEXT_CACHE = {}

def _text_cards(text, pack) -> frozenset:
    "The cards of `pack` written in `text` (notation or signs), cached: views repeat their event texts."
    key = (text, pack.name)
    if key not in _TEXT_CACHE:
        found = set()
        for token in text.replace(',', ' ').replace('(', ' ').replace(')', ' ').replace(':', ' ').replace(';', ' ').split():
            try: found.add(pack.parse(token.strip('.!?[]\'"')))
            except ValueError: pass
        _TEXT_CACHE[key] = frozenset(found)
    return _TEXT_CACHE[key]

def cards_in(obj, pack) -> set:
    "Every card of `pack` anywhere in `obj` (a view): Card objects, and cards written in texts."
    found = set()
    def walk(x):
        if isinstance(x, Card): found.add(x)
        elif isinstance(x, dict):
            for k, v in x.items(): walk(k); walk(v)
        elif isinstance(x, (list, tuple, set, frozenset)):
            for v in x: walk(v)
        elif isinstance(x, str): found.update(_text_cards(x, pack))
    walk(obj)
    return found

def assert_no_leak(match: Match, seat: int):
    "The view of `seat` shows no card that `seat` may not see now (the engine's `leaked_cards`)."
    assert len(match.view(seat)['events']) == len([e for e in match.hand.events if e.seen_by(seat)])
    leaked = leaked_cards(match.hand, seat)
    assert not leaked, f"Seat {seat}'s view leaks {[str(c) for c in leaked]} in phase {match.hand.phase}"

def random_match(game, seed, chooser=random_choice) -> Match:
    "A whole match of `game` from `seed`, every seat choosing with `chooser`."
    return play_out(Match(game, seed=seed), chooser, random.Random(seed))

# Servers and browsers for the browser tests (Voilà, the classroom, JupyterLab): one copy of the plumbing.
import contextlib, os, pathlib, shutil, signal, socket, subprocess, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get('CHROMIUM', '/usr/bin/chromium')
FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync']  # keep headless Chromium quiet and offline

def no_chromium() -> str:
    "Why Chromium cannot be used here ('' when it can)."
    return '' if os.path.exists(CHROMIUM) or shutil.which('chromium') else f"no Chromium at {CHROMIUM} (apt-get install chromium)"

def free_port() -> int:
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]

def port_open(port) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(('127.0.0.1', port)) == 0

@contextlib.contextmanager
def served(argv, port:int, what:str, wait:float=60, **popen):
    "Run server `argv` in its own process group until `port` answers (at most `wait` s); the whole group is killed on the way out."
    popen.setdefault('stdout', subprocess.DEVNULL); popen.setdefault('stderr', subprocess.DEVNULL)
    proc = subprocess.Popen(argv, cwd=ROOT, start_new_session=True, **popen)
    try:
        deadline = time.time() + wait
        while not port_open(port):
            if proc.poll() is not None:
                said = proc.stdout.read()[-500:] if popen['stdout'] == subprocess.PIPE else ''
                raise RuntimeError(f"{what} exited with code {proc.returncode} {said}")
            if time.time() > deadline: raise RuntimeError(f"{what} did not start within {wait:.0f} s")
            time.sleep(0.2)
        yield proc
    finally:
        with contextlib.suppress(ProcessLookupError): os.killpg(proc.pid, signal.SIGTERM)
        try: proc.wait(15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError): os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)

@contextlib.contextmanager
def browser_page():
    "A page (1100x1000) in headless Debian Chromium, closed on the way out; needs Python playwright."
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try: yield browser.new_page(viewport={'width': 1100, 'height': 1000})
        finally: browser.close()
