"""Shared test helpers: the leak check at a match's current hand (from the deal and the record, not the game's word),
seeded random matches, and the servers and browsers of the browser tests."""
import random, re
from cardgames_tutor.core.cards import Card
from cardgames_tutor.core.actions import Move
from cardgames_tutor.core.match import Match, play_out, random_choice

_TEXT_CACHE = {}  # by pack: the cards each text names

_WORDS_RE = {}  # by pack: a pattern of the card symbols written in two words (`6 Thief`, `5 green`): `signs_re`
_SIGN_RE = {}   # by sign of two words: where it is written (`sign_re`)

_NAMED = re.compile(r"\b(?:[Ww]hoever holds|[Aa] picker who holds|the holder of|[Pp]artner card:) the (?:<span class=\"cgt-mini\"[^>]*>[^<]*(?:<span[^>]*>[^<]*</span>)?</span>"
                    r"|\d{1,2} [A-Z][a-z]+\b|[^\s<,.;:)]+)")

def named_only(text:str, pack=None) -> str:
    """`text` (a sentence, or a page's HTML with its mini cards) without the cards a rule names, as distinct from a card
    seen: "whoever holds the 6 Thief", "a picker who holds the 6 Thief", "the holder of the 7 Thief", "partner card: the 6 Thief" (the
    table's facts line) name the partner card (Beggars and Thieves) without placing it. "Seat 2 holds the 6 Thief" places it: kept, so every leak check still reads it."""
    return _NAMED.sub(' ', text)

def sign_in(sign:str, words:set, text:str) -> bool:
    """Whether a card's sign is written in `text`, whose words (`_WORD`s) are `words`: a sign of one word ('Q♥') as a whole
    word; a sign of two (Beggars and Thieves' '6 Thief') as those words in a row, with any space or markup between ('16 Thief' and
    '6 Thieves' are not it). A scan that looked the two-word sign up among single words never found it."""
    return sign in words if ' ' not in sign else sign_re(sign).search(text) is not None

def sign_re(sign:str) -> re.Pattern:
    "Where a card's sign (or code) is written (`signs_re` of it alone): '6 Thief', not '16 Thief' nor '6 Thieves'."
    return _SIGN_RE.get(sign) or _SIGN_RE.setdefault(sign, signs_re([sign]))

_GAP = r'(?:\s|<[^<>]*>|&nbsp;|&#160;)+'  # between a sign's two words: spaces, and markup ('<b>6</b> Thief', '6&nbsp;Thief')

def signs_re(signs):
    """A pattern of the card signs `signs` (None if none), each found whole, the words of a sign of two (`6 Thief`, `5 green`)
    with any space or markup between (`_GAP`: a page's HTML), and not as a count ('6 Thief Thieves' is no card)."""
    many = sorted(set(signs), key=len, reverse=True)
    return re.compile(r"(?<![\w])(" + '|'.join(_GAP.join(map(re.escape, s.split())) for s in many) + r")(?![\w]| Beggars\b| Thieves\b)") if many else None

def sign_words(found:str) -> str:
    "A two-word sign as `signs_re` found it, its words with one space between ('6</b> Thief' -> '6 Thief')."
    return ' '.join(re.sub(_GAP, ' ', found).split())

def _text_cards(text, pack) -> frozenset:
    """The cards of `pack` written in `text` as cards (codes in capitals, signs, or number and suit in words), cached: views
    repeat their event texts. A word is not a card: "as good as" holds no A♠ (the pack reads any case, as a learner types)."""
    cache = _TEXT_CACHE.setdefault(pack.name, {})
    if text not in cache:
        found = set()
        for token in text.replace(',', ' ').replace('(', ' ').replace(')', ' ').replace(':', ' ').replace(';', ' ').split():
            token = token.strip('.!?[]\'"`')
            if token != token.upper(): continue  # a word ("as", "Ah"): cards are written as symbols (A♠) or codes in capitals (AS, T6)
            try: found.add(pack.parse(token))
            except ValueError: pass
        if pack.name not in _WORDS_RE: _WORDS_RE[pack.name] = signs_re(c.symbol for c in pack if ' ' in c.symbol)
        if _WORDS_RE[pack.name]: found.update(pack.parse(sign_words(w)) for w in _WORDS_RE[pack.name].findall(named_only(text, pack)))
        cache[text] = frozenset(found)
    return cache[text]

_PLAIN = {int, float, bool, type(None)}  # no card in these
_SEQUENCES = (list, tuple, set, frozenset)

def cards_in(obj, pack) -> set:
    "Every card of `pack` anywhere in `obj` (a view): Card objects, and cards written in texts."
    found, texts, todo = set(), set(), [obj]
    while todo:  # a loop over a stack, not recursion: the property tests call this for every seat at every move
        x = todo.pop()
        t = type(x)
        if t in _PLAIN: continue
        if t is str: texts.add(x)
        elif t is Card or isinstance(x, Card): found.add(x)
        elif t is dict or isinstance(x, dict): todo += x.keys(); todo += x.values()
        elif isinstance(x, _SEQUENCES): todo += x
    for text in texts: found |= _text_cards(text, pack)
    return found

def _moves(hand, verb) -> dict:
    "The cards each seat's `verb` move in the hand's record so far names (its cards, or its word: `call T7`), by seat."
    return {s: cards_in(a, hand.game.pack) for s, a in hand.history if isinstance(a, Move) and a.verb == verb}

def may_see(hand, seat:int) -> set:
    """The cards `seat` may know now, from the deal and the public record alone (the rulebooks in
    ../shared/rules and their CLARIFICATIONS), never from the game's own `hidden_cards`: its own dealt
    cards, every card played, cards it moved itself (passed, buried), cards named in a public call, and
    what each game lays face up or hands over."""
    deal, name, over = hand.deal, hand.game.name, hand.phase == 'over'
    played = {a for _, a in hand.history if isinstance(a, Card)}
    seen = set(played)                                                          # played to a trick: in the open
    seen |= {c for cards in _moves(hand, 'call').values() for c in cards}          # a called card is named, not placed
    if name == 'beggars-and-thieves' and _moves(hand, 'call'):  # only the 6 Thief's holder may call: the call says where it is
        seen.add(hand.game.pack.parse('T6'))
    seen |= {c for a in (a for s, a in hand.history if s == seat and isinstance(a, Move)) for c in a.cards}
    if name == 'maghe-satra':  # own face-down card; the cards dealt face up; face-down cards once shown
        from cardgames_tutor.games.maghe_satra import value
        down = [d for d, in deal['down']]  # one card each
        seen |= {down[seat], *deal['stock'][:hand.dealt]}  # how many were dealt, face up: the table, in the open
        if over:
            seventeen = [s for s, d in enumerate(down) if value(d) + sum(map(value, hand.up[s])) == 17]
            seen |= {down[s] for s in (seventeen or range(hand.n))}  # the 17 shows its cards, else the show
        return seen
    if name == 'dehla-pakad':  # the first five cards, the other eight once trump is named
        return seen | set(deal['hands'][seat][:13 if _moves(hand, 'trump') else 5])
    seen |= set(deal['hands'][seat])
    if name == 'kocka':  # the three cards passed from the right, once this seat and its giver have passed
        passed = _moves(hand, 'pass')
        if seat in passed and (seat - 1) % 4 in passed: seen |= set(passed[(seat - 1) % 4])
    if name == 'beggars-and-thieves' and 'blind' in deal:  # the blind to its picker; blind and buried in the score
        if over or seat in _moves(hand, 'pick'): seen |= set(deal['blind'])
        if over: seen |= {c for cards in _moves(hand, 'bury').values() for c in cards}  # counted for the picker, so shown
    if name == 'beggars-and-thieves' and 'up' in deal:  # Snear: both face-up rows; a face-down card once uncovered
        seen |= {d for up, down in zip(deal['up'], deal['down']) for u, d in zip(up, down) if u in played or over}
        seen |= {c for row in deal['up'] for c in row}
    return seen

def assert_no_leak(match: Match, seat: int):
    """The view of `seat` names no card beyond what `may_see` derives from the deal and the record; nor (the game's
    own check, on the same cards) any of the game's `hidden_cards`. The first-dealer lot is left out: its cards come
    from a separate, public shuffle. A legal `call` names a card without placing it."""
    hand, view = match.hand, match.view(seat)
    assert len(view['events']) == len([e for e in hand.events if e.seen_by(seat)])
    view['events'] = [e.text for e in hand.events if e.seen_by(seat) and e.kind != 'dealer']
    pack = hand.game.pack
    called = cards_in([m for m in view.get('legal') or () if isinstance(m, Move) and m.verb == 'call'], pack)
    shown = cards_in(view, pack)
    leaked = shown - may_see(hand, seat) - called
    assert not leaked, f"Seat {seat}'s view leaks {sorted(map(str, leaked))} in phase {hand.phase}"
    hidden = (shown - called) & hand.hidden_cards(seat)
    assert not hidden, f"Seat {seat}'s view shows {sorted(map(str, hidden))}, hidden by the game's own rule, in phase {hand.phase}"

def random_match(game, seed, chooser=random_choice) -> Match:
    """A whole match of `game` from `seed`, every seat choosing with `chooser`. `random_choice` reads only the legal
    list, so no view is made for it: the same choice from the match's legal actions (the same actions, the same match,
    without a copy of the standing and the hand's table at every move); every event's sentence is then read once at the
    end, so each is still written (not once per view: a hand's events were read again at every move)."""
    if chooser is not random_choice: m = play_out(Match(game, seed=seed), chooser, random.Random(seed))
    else:
        m, rng = Match(game, seed=seed), random.Random(seed)
        for _ in range(100_000):  # play_out's bound
            if m.over: break
            m.apply(rng.choice(m.legal_actions()))
        assert m.over, f"the match did not end within 100000 actions"
    for h in m.hands:
        for e in h.events: assert type(e.text) is str, e
    return m

# Servers and browsers for the browser tests (Voilà, the classroom, JupyterLab): one copy of the plumbing.
import contextlib, os, pathlib, shutil, signal, socket, subprocess, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Chromium's headless shell (Debian's `chromium-headless-shell`, the same release as `chromium`): what Playwright itself
# runs headless tests on. The full browser in headless mode draws its pages through a GPU process and a browser's UI
# nobody sees; the shell renders the same pages (Blink, V8, layout, the same DOM and websockets) for less: the projector
# tests took 50 CPU-s in all against 62 with the full browser. Without the shell, the full browser.
CHROMIUM = os.environ.get('CHROMIUM') or next((p for p in ('/usr/bin/chromium-headless-shell', '/usr/bin/chromium') if os.path.exists(p)),
                                              '/usr/bin/chromium')
FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync']  # keep headless Chromium quiet and offline

# Playwright's own --disable-features list (1.65): a second --disable-features replaces the first, so a launch that
# turns more off names these too
PLAYWRIGHT_OFF = ('AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,HttpsUpgrades,HttpsFirstBalancedModeAutoEnable,'
                  'LensOverlay,MediaRouter,PaintHolding,ThirdPartyStoragePartitioning,AvoidCorsURLLoaderRestartOnRedirect,'
                  'TcpPortRandomizationWin,OptimizationHints,NetworkTimeServiceQuerying,AimEnabled,PreconnectToSearch')
# FLAGS, and no omnibox popups: Chromium 156 loads its address bar's two popups (chrome://omnibox-popup.top-chrome, a
# renderer of their own) into every new browser context's window, headless too: 0.7-1 CPU-s per context for a page nobody
# sees (tests that make a context per student make dozens); the pages themselves are the same. Every launch here uses it.
FEW_WINDOWS_FLAGS = FLAGS + ['--disable-features=' + PLAYWRIGHT_OFF + ',WebUIOmniboxPopup,WebUIOmniboxAimPopup']

def no_chromium() -> str:
    "Why Chromium cannot be used here ('' when it can)."
    return '' if os.path.exists(CHROMIUM) or shutil.which('chromium') else f"no Chromium at {CHROMIUM} (apt-get install chromium-headless-shell, or chromium)"

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
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FEW_WINDOWS_FLAGS)
        try: yield browser.new_page(viewport={'width': 1100, 'height': 1000})
        finally: browser.close()

# The built site: the site tests read the one `make test` has just built into _docs/, and build it themselves when it is
# missing or stale (never skip on a stale site). One build at a time (a lock file): the two test processes of `make test`
# may both ask, and a build writes _proc/ and _docs/.
import fcntl, importlib.util, sys
from typing import NamedTuple

class Built(NamedTuple):
    "What the build said: as `subprocess.run` gives it."
    returncode: int
    stdout: str
    stderr: str

def _tools_docs():
    if 'docs' not in sys.modules:
        sys.path.insert(0, str(ROOT/'tools'))
        try: import docs  # noqa: F401
        finally: sys.path.pop(0)
    return sys.modules['docs']

def built_site(renderer:str='smalldocs') -> tuple:
    """(folder, Built) of the site in _docs/ as the tree is now: the site the stamp vouches for, else built here (by
    `tools/docs.py`, which runs every notebook). Skips only when the renderer is not installed, naming it."""
    if renderer == 'smalldocs' and importlib.util.find_spec('smalldocs') is None:
        import pytest
        pytest.skip("smalldocs is not installed (the dev extra installs it on Python >= 3.11): the site cannot be built here")
    docs, out = _tools_docs(), ROOT/'_docs'
    with open(ROOT/'.docs-build.lock', 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a build by the other test process: wait for it, then read its stamp
        stamp = docs.fresh_site(out, renderer)
        if stamp: return out, Built(0, stamp['said'], '')
        t0 = time.time()
        r = subprocess.run([sys.executable, str(ROOT/'tools'/'docs.py'), '--renderer', renderer, '--out', str(out)],
                           cwd=ROOT, capture_output=True, text=True)
        print(f"docs build (the site in _docs/ was missing or stale): {time.time()-t0:.1f}s")
        return out, Built(r.returncode, r.stdout, r.stderr)

def fresh_site_or_fail(renderer:str='smalldocs'):
    "The folder of a site built from the tree as it is now; fails (with the build's own words) when it cannot be built."
    import pytest
    out, r = built_site(renderer)
    if r.returncode: pytest.fail(f"the site in _docs/ was stale and building it failed:\n{r.stderr[-3000:]}")
    return out

class Browsers:
    """One playwright and one headless Chromium per set of launch options, shared by a test module's pages (a module
    fixture); each page gets a browser context of its own (its own cookies, as a browser of its own had). Launching
    Chromium again for each page cost its start for nothing. `close()` on the way out."""
    def __init__(self): self._pw, self._launched = None, {}

    def browser(self, **launch):
        "The Chromium launched with `launch` (more of Chromium's options), started the first time it is asked for."
        if self._pw is None:
            from playwright.sync_api import sync_playwright
            self._manager = sync_playwright()
            self._pw = self._manager.__enter__()
        key = repr(sorted(launch.items()))
        if key not in self._launched:
            self._launched[key] = self._pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FEW_WINDOWS_FLAGS, **launch)
        return self._launched[key]

    @contextlib.contextmanager
    def page(self, viewport=(1100, 1000), launch=None, **context):
        "A page in a new context (`context`: more of its options) of the Chromium launched with `launch`, closed (with its context) on the way out."
        context = self.browser(**(launch or {})).new_context(viewport={'width': viewport[0], 'height': viewport[1]}, **context)
        try: yield context.new_page()
        finally: context.close()

    def close(self):
        for b in self._launched.values():
            with contextlib.suppress(Exception): b.close()
        if self._pw is not None: self._manager.__exit__(None, None, None)
        self._pw, self._launched = None, {}

POLL = 100  # ms between looks of a page's `wait_for_function` (`polling=POLL`): Playwright's default looks at every frame
            # the page draws, which kept headless Chromium drawing 60 frames a second for as long as a test waited
            # (1.2 CPU-s over 8 s of waiting, against 0.05 s looking every 100 ms); the thing waited for is the same

SHOWN = """sel => { const e = document.querySelector(sel), r = e && e.getBoundingClientRect();
  return !!e && r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'; }"""

def wait_shown(page, selector:str, timeout:float):
    """Wait until the first element `selector` finds is shown (a box of its own, not hidden), as `page.wait_for_selector`
    does, looking every POLL ms: Playwright's own looks at every frame, which kept Chromium drawing while a page loaded."""
    page.wait_for_function(SHOWN, arg=selector, polling=POLL, timeout=timeout)

def malloc_env(env=None) -> dict:
    """`env` (by default this process's environment) as `cardgames-classroom` starts itself again in it
    (`serve.housekeeping.on_system_malloc`: PYTHONMALLOC=malloc on glibc, unless PYTHONMALLOC is set). A server given it
    from the start runs on the same allocator without starting again: without it, each server imported the classroom
    (Solara and the package) twice. tests/test_classroom.py's module server starts without it: it checks the restart."""
    import platform
    env = dict(os.environ if env is None else env)
    if not env.get('PYTHONMALLOC') and platform.libc_ver()[0] == 'glibc': env['PYTHONMALLOC'] = 'malloc'
    return env

CLASSROOM = [sys.executable, '-c', 'from cardgames_tutor.serve.classroom_cli import main; main()']  # `cardgames-classroom`, from this checkout

@contextlib.contextmanager
def classroom_server(*args, env=None):
    """The classroom server as `make classroom` starts it (`cardgames-classroom`: its `main`), with `args`, on a free
    loopback port, its output in a pipe; yields (address, process). `env`: its environment (`malloc_env()`)."""
    port = free_port()
    with served([*CLASSROOM, '--host', '127.0.0.1', '--port', str(port), *args], port, 'the classroom server', wait=90, env=env,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as proc:
        yield f'127.0.0.1:{port}', proc


def rulebook_prose(rel:str) -> str:
    "The Markdown of rulebook `rel` (under nbs/) as the learner's page keeps it (tools/docs.py: notes for programmers go to the code page)."
    import json
    from fastcore.basics import AttrDict
    spec = importlib.util.spec_from_file_location('docs', ROOT/'tools'/'docs.py'); docs = importlib.util.module_from_spec(spec); spec.loader.exec_module(docs)
    cells = [AttrDict(c) for c in json.loads((ROOT/'nbs'/rel).read_text(encoding='utf-8'))['cells']]
    return '\n\n'.join(''.join(c['source']) for c in docs.learner_cells(cells) if c.cell_type == 'markdown')
