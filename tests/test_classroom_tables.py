"""Tables in the classroom server (serve/room.py and serve/lobby.py behind serve/classroom.py): students at one table, each in their own
browser, play each other through real pages.

The registry (`Classroom`) is tried first without a browser. The browser tests start a real `cardgames-classroom` on a
free loopback port (its own process group, killed in a `finally`) and drive headless Chromium: each student is a browser
context of their own (their own cookies: another student). Every wait is on the page's state (the table bar's
`data-moves`, whom it waits for), with generous timeouts for a loaded machine; nothing is timed.

Reusable for more games and more pages (helper T2): `classroom`, `Student`, `open_table`, `join_pages`, `play_hand`.
"""
import contextlib, importlib.util, json, random, re, time, urllib.error, urllib.request
import pytest
from cardgames_tutor.core.registry import get_game
from cardgames_tutor.core.match import Match
from cardgames_tutor.tables.seats import TableError
from cardgames_tutor.serve.room import Classroom, TableOptions, StudentPage
from cardgames_tutor.ui.session import Session
from cardgames_tutor.ui.seat import SeatSession
from cardgames_tutor.serve.pages import TITLE
from helpers import CHROMIUM, FEW_WINDOWS_FLAGS, POLL, named_only, sign_in, no_chromium, classroom_server, malloc_env, wait_shown


# ---------------------------------------------------------------- the registry, without a browser

class Clock:
    def __init__(self): self.t = 1000.0
    def __call__(self): return self.t

def beats(room, clock, seconds, every=0.05):
    "The pacer's beats over `seconds` of the test's clock."
    for _ in range(round(seconds / every)): clock.t += every; room.step()

def test_the_registry_knows_every_table_and_solo_student():
    clock = Clock()
    room = Classroom(TableOptions(bot_pace=0.6, seat_hold=30), now=clock)
    a = room.open_table('br-a', 'kocka', 'Asha', seed=4)
    b = room.join_table('br-b', a.code, 'Bo')
    room.add_page(StudentPage('k9:solo', 'br-s', 'solo', Session('begga-kaat', seed=2), name=None))
    glance = room.snapshot()
    json.dumps(glance)  # plain data
    (t,), (s,) = glance['tables'], glance['solo']
    assert (t['code'], t['game'], t['hand'], t['started'], t['host']) == (a.code, 'kocka', 1, False, 0)
    assert [x['state'] for x in t['seats']] == ['here', 'here', 'bot', 'bot'] and t['seats'][1]['name'] == 'Bo'
    assert (t['score_label'], t['scores']) == ('letters', ['', '', '', '']) and t['to_act_label'] is not None  # Kočka counts letters
    assert (s['id'], s['game'], s['hand'], s['connected'], s['name']) == ('k9:solo', 'begga-kaat', 1, True, None)
    assert 'token' not in json.dumps(glance) and a.token not in json.dumps(glance) and b.token not in json.dumps(glance)

def test_tokens_stay_on_the_server_and_a_browser_holds_one_seat_per_table():
    room = Classroom()
    a = room.open_table('br-a', 'begga-kaat', 'Asha')
    assert room.token('br-a', a.code) == a.token and room.token('br-x', a.code) is None
    assert room.join_table('br-a', a.code, 'Asha again') == a  # the same browser: its own seat again, not a second one
    with pytest.raises(TableError, match='no open table has the code'): room.join_table('br-b', 'zzzzzz' if a.code != 'zzzzzz' else 'yyyyyy', 'Bo')
    with pytest.raises(TableError, match='a name is 1 to 24'): room.join_table('br-b', a.code, '')
    assert room.close_table(a.code) and room.token('br-a', a.code) is None and room.seats == {}

def test_the_pacer_plays_bots_at_their_pace_and_never_for_a_student():
    clock = Clock()
    room = Classroom(TableOptions(bot_pace=0.6, seat_hold=5), now=clock)
    a = room.open_table('br-a', 'begga-kaat', 'Asha', seed=8)
    t = room.table(a.code)
    beats(room, clock, 3)
    assert t.match.actions == []  # not started: no bot moves
    t.start(a.token)
    played_at = []
    while t.bot_due is not None:
        n = len(t.match.actions); clock.t += 0.05; room.step()
        if len(t.match.actions) > n: played_at.append(clock.t)
    gaps = [b - a for a, b in zip(played_at, played_at[1:])]
    assert all(g >= 0.6 - 1e-9 for g in gaps), gaps  # the test's own clock: at least the pace between bot moves
    n = len(t.match.actions)
    beats(room, clock, 4)
    assert len(t.match.actions) == n and t.match.to_act == a.seat  # the student's turn: the bots wait, however long
    t.left(a.token)
    beats(room, clock, 4)
    assert len(t.match.actions) == n  # away: the seat is held
    beats(room, clock, 2)
    assert len(t.match.actions) > n  # the hold ran out: a bot plays the seat

def test_the_sweep_closes_tables_nobody_sits_at_and_forgets_their_seats():
    clock = Clock()
    room = Classroom(TableOptions(seat_hold=5, sweep_every=10), now=clock)
    a = room.open_table('br-a', 'kocka', 'Asha')
    keep = room.open_table('br-b', 'kocka', 'Bo')
    room.table(a.code).left(a.token)
    beats(room, clock, 11)
    assert set(room.tables.tables) == {keep.code} and room.token('br-a', a.code) is None

def test_watchers_hear_of_changes_at_most_ten_times_a_second():
    clock = Clock()
    room = Classroom(TableOptions(bot_pace=0), now=clock)
    heard = []
    room.watch(lambda: heard.append(clock.t))
    a = room.open_table('br-a', 'begga-kaat', 'Asha', seed=3)
    room.table(a.code).start(a.token)
    beats(room, clock, 2)
    assert heard and all(b - a >= 0.1 - 1e-9 for a, b in zip(heard, heard[1:]))
    n = len(heard); beats(room, clock, 1)
    assert len(heard) == n  # nothing changed (the student's turn): nobody told



# ---------------------------------------------------------------- a page draws only what changed (issue 33, the fan-out)

from cardgames_tutor.serve.lobby import Lobby, TableTutor
from cardgames_tutor.ui import drawing
from cardgames_tutor.ui.looks import widget_tree

# (game, players (None: the game has one size), seed): every seat a student's page
DRAWN = [('begga-kaat', 4, 12), ('kocka', None, 7), ('dehla-pakad', None, 12), ('maghe-satra', 4, 7), ('beggars-and-thieves', 5, 3)]

def shown(t) -> dict:
    "What a panel shows, part by part: its hand and moves as shown (in order), every line of HTML, the step buttons."
    row = lambda box: [(b.description, b.tooltip, b._dom_classes, b.disabled) for b in box.children]
    return {'status': t.status.value, 'table': t.table.value, 'message': t.message.value, 'hand': row(t.hand_box),
            'moves': row(t.move_box), 'notes': t.move_notes.value, 'log': [w.value for w in t.log_parts],
            'steps': [b.disabled for b in (t.first, t.back, t.forward, t.last, t.undo_button, t.bot_button) if b is not None],
            'jump': (t.jump.options, t.jump.value), 'scores': t.scores.value, 'chart': (t.chart.value, t.chart.layout.display),
            'download': t.download.value}

def seated_pages(name, players, seed):
    "A table of `name` whose every seat is a student's page (`Lobby`, drawn at once: no event loop): the room, the table, the pages."
    room = Classroom(TableOptions(bot_pace=0))
    options = {'players': players} if players else {}
    n = get_game(name, **options).n_seats()
    pages = [Lobby(room, f'br-{i}', '?table=') for i in range(n)]
    first = room.open_table('br-0', name, 'Student 0', seed=seed, **options)
    pages[0]._sit(first, back=False)
    for i in range(1, n): pages[i]._sit(room.join_table(f'br-{i}', first.code, f'Student {i}'), back=False)
    return room, room.table(first.code), pages

def drawn_again(page, monkeypatch) -> tuple:
    "Draw `page` again as the table's news would: (the widget messages it sent, the parts it computed)."
    sent, computed = [], []
    for w in widget_tree([page, *page.tutor.card_slots, *page.tutor.move_slots]):
        monkeypatch.setattr(w, '_send', lambda msg, buffers=None, w=w: sent.append((type(w).__name__, msg.get('state'))), raising=False)
    for part in ('_draw_status', '_draw_hand', '_draw_moves', '_draw_log', '_draw_steps', '_draw_scores'):
        monkeypatch.setattr(drawing.PanelDrawing, part, lambda *a, f=getattr(drawing.PanelDrawing, part), part=part: computed.append(part) or f(*a))
    monkeypatch.setattr(drawing, 'table_html', lambda *a, f=drawing.table_html: computed.append('table') or f(*a))
    monkeypatch.setattr(Lobby, '_draw_bar', lambda self, f=Lobby._draw_bar: computed.append('bar') or f(self))
    page._draw()
    monkeypatch.undo()
    return sent, computed

@pytest.mark.parametrize('name,players,seed', DRAWN)
def test_a_page_draws_only_what_changed_and_shows_what_a_whole_drawing_shows(name, players, seed, monkeypatch):
    """Every seat's page plays a whole hand (and 20 moves at least) through its widgets (some look back a move now and
    then, the finished hand stays on the others' screens until their turn). After every move each page shows exactly what
    a panel drawing every part afresh from the same session shows, its table bar too; and drawn again with nothing new,
    a page computes no part and sends no widget message."""
    room, table, pages = seated_pages(name, players, seed)
    whole = [TableTutor(session=p.session, pace=0) for p in pages]  # the same sessions, every part drawn at each look
    rng, n, moves = random.Random(seed), len(pages), 0
    try:
        assert table.started
        while not table.match.over and (len(table.match.hands) < 2 or moves < 20):
            page = pages[table.match.to_act]
            if page.session.review is not None: page.tutor.next_hand()
            elif not page.session.live: page.tutor.step_by('last')
            else:
                page.tutor.press(rng.choice(page.session.latest['legal']))
                moves += 1
                if moves % 5 == 0: pages[(table.match.to_act + 1) % n].tutor.step_by('back')  # a student looks back
            for p, w in zip(pages, whole):
                w._drawn.clear(); w.render()
                assert shown(p.tutor) == shown(w), f"Seat {p.session.seat} after {moves} moves"
                bar = (p.bar.value, p.start_button.layout.display)
                Lobby._draw_bar(p)
                assert (p.bar.value, p.start_button.layout.display) == bar
            assert drawn_again(page, monkeypatch) == ([], [])
        assert len(table.match.hands) >= 2 or table.match.over  # a whole hand was played (and the review shown)
        assert moves >= 20 or table.match.over
    finally:
        for t in whole: t.close()
        for p in pages: p.close()

def test_a_move_draws_the_parts_it_changed():
    "A card played: the pages draw their table, status and log again; the scores stay as they were, computed once."
    room, table, pages = seated_pages('begga-kaat', 4, 3)
    try:
        page = pages[table.match.to_act]
        drawn = [dict(p.tutor._drawn) for p in pages]
        page.tutor.press(page.session.latest['legal'][0])
        for p, before in zip(pages, drawn):
            changed = {part for part, key in p.tutor._drawn.items() if before.get(part) != key}
            assert {'status', 'table', 'log'} <= changed, changed
            assert p.tutor.scores.value.count('No hand finished yet.') == 1
        assert 'message' not in {part for part, key in pages[(table.match.to_act + 1) % 4].tutor._drawn.items()
                                 if drawn[(table.match.to_act + 1) % 4].get(part) != key}  # a page that did not move: its message stays
    finally:
        for p in pages: p.close()


def test_a_seated_page_shares_a_whole_address_and_shows_a_pause_at_the_top_of_the_screen():
    "The link to share is the page's own address (scheme and all); a pause is a banner fixed at the top, read out, gone on resume."
    from cardgames_tutor.serve.pages import page_address
    room = Classroom(TableOptions(bot_pace=0))
    host = Lobby(room, 'b-asha', '?table=', host=page_address({'origin': ['http://10.0.0.5:8866'], 'host': ['10.0.0.5:8866']}, '/class'))
    host.show('open'); host.game_choice.value = 'kocka'; host.name_box.value = 'Asha'; host.open_button.click()
    code = host.ticket.code
    try:
        assert f'href="http://10.0.0.5:8866/class/?table={code}"' in host.bar.value and f'>http://10.0.0.5:8866/class/?table={code}<' in host.bar.value
        assert host.children[0] is host.banner and host.banner.value == '' and host.start_button.layout.display is None
        room.table(code).pause('<b>eyes</b> on the board')
        banner = host.banner.value
        assert 'role="alert"' in banner and 'position:fixed;top:0' in banner and '&lt;b&gt;eyes&lt;/b&gt; on the board' in banner
        host._draw()  # the whole page as a phone shows it: the message once, in the banner (it was there, in the bar and in the status line)
        seen = [banner.split('<div aria-hidden="true"')[0], host.bar.value, host.tutor.status.value, host.tutor.message.value]
        assert [x.count('on the board') for x in seen] == [1, 0, 0, 0] and 'Paused by your teacher' in host.tutor.status.value, seen
        assert host.start_button.layout.display == 'none'  # nothing to start while paused
        assert host.tutor.lit_cards() == [] and host.tutor.move_box.children == ()
        room.table(code).resume()
        assert host.banner.value == '' and host.start_button.layout.display is None
    finally: host.close()

def test_at_a_table_the_coach_names_the_students():
    """At a table the pages showed the students' names for their seats, but the coach's hint and review still said
    'Seat 1': now they name a student's seat as the page does (a bot's seat keeps its number)."""
    import ipywidgets as widgets
    room = Classroom(TableOptions(bot_pace=0))
    a = Lobby(room, 'b-ana', '?table='); a.show('open'); a.game_choice.value = 'begga-kaat'; a.name_box.value = 'Ana'; a.open_button.click()
    b = Lobby(room, 'b-bo', f'?table={a.ticket.code}'); b.name_box.value = 'Bo'; b.join_button.click()
    try:
        coach = a.tutor.coach  # the coach writes 'Seat N' (ui.coach_view): the page shows the names
        coach.hint_box.text.value = '<b>Hint: play 5♠</b><ul><li>Seat 1 has no spades; Seat 2 leads.</li></ul>'
        assert '<li>Bo has no spades; Seat 2 leads.</li>' in coach.hint_box.text.value
        coach.reviews.children = [widgets.VBox([widgets.HTML('1. Hand 1: you played 5♠; Seat 1 took the trick.')])]
        assert coach.reviews.children[0].children[0].value == '1. Hand 1: you played 5♠; Bo took the trick.'
    finally: a.close(); b.close()

def test_the_page_address_comes_from_the_pages_own_websocket():
    from cardgames_tutor.serve.pages import page_address
    assert page_address({'origin': ['https://class.example.org'], 'host': ['127.0.0.1:8866']}, '/class') == 'https://class.example.org/class'
    assert page_address({'host': ['192.168.1.20:8866']}) == 'http://192.168.1.20:8866'  # no Origin (not a browser): the Host asked
    assert page_address({'origin': ['javascript:alert(1)'], 'host': ['x y']}) == '' and page_address({}) == ''


# ---------------------------------------------------------------- real pages

def _missing() -> str:
    for mod, what in (('solara', "Solara (pip install -e '.[classroom]')"), ('playwright', 'Python playwright (never run `playwright install`)')):
        if importlib.util.find_spec(mod) is None: return f"{what} is not installed"
    return no_chromium()

def browser_test(test):
    "A test with real pages: marked `browser` (as tests/test_classroom.py is), skipped with the reason when something is missing."
    return pytest.mark.browser(pytest.mark.skipif(bool(_missing()), reason=_missing() or 'ready')(test))

@contextlib.contextmanager
def classroom(*args):
    "The classroom server on a free loopback port, with `args` (e.g. '--seat-hold', '3'); yields its address."
    with classroom_server(*args, env=malloc_env()) as (addr, _): yield addr  # (on glibc's allocator from the start: not started twice)

@contextlib.contextmanager
def chromium():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FEW_WINDOWS_FLAGS)  # a context per student: no omnibox popups each
        try: yield browser
        finally: browser.close()

@pytest.fixture(scope='module')
def one_chromium():
    "One Chromium for the file's real pages: each student is a browser context of their own (contexts are cheap, browsers are not)."
    if _missing(): pytest.skip(_missing())
    with chromium() as b: yield b

@pytest.fixture
def browser(one_chromium):
    "The file's Chromium for one test: the contexts (students) it leaves open are closed after it."
    yield one_chromium
    for context in list(one_chromium.contexts):
        with contextlib.suppress(Exception): context.close()

@pytest.fixture(scope='module')
def tables_server():
    """One classroom server for the file's tables (yields its address): quick bots; a closed page's seat held 20 s and
    its session kept 2 s (the reload test's: its reloaded page must be back within the hold, which a loaded machine's
    reload took 10 s to be once; every other page stays open until its test ends); at most 6 joins from one
    browser (the flood of joins is one browser's: every other student joins once). A test whose server must open on
    another page or ask a class code starts its own."""
    if _missing(): pytest.skip(_missing())
    with classroom('--seat-hold', '20', '--cull', '2s', '--bot-pace', '0.2', '--max-joins', '6') as addr: yield addr

WAIT = 90_000  # ms: a loaded machine's page may take a while; a server that never answers fails here

class Student:
    """One student: a browser context of their own (their own cookies), one page, and every websocket text frame the
    page received (the widget state the browser was sent), kept from `mark()` on (the tests mark it as the student sits)."""
    def __init__(self, browser, addr, query='', name=None, viewport=(1100, 1000)):
        self.addr, self.name, self.seat, self.code = addr, name, None, None
        self.context = browser.new_context(viewport={'width': viewport[0], 'height': viewport[1]})
        self.page, self.frames, self.dialogs, self.scanned = self.context.new_page(), [], [], 0
        self.page.on('websocket', lambda ws: ws.on('framereceived', lambda data: self.frames.append(data) if isinstance(data, str) else None))
        self.page.on('dialog', lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.visit(query)

    def visit(self, query='', name=None):
        """Open the classroom's page at `query` in this student's page: their own cookies still, the same renderer (a page
        loaded again where one was costs Chromium less than a new one). The page it showed is closed, as a tab's is."""
        self.name, self.seat, self.code = name or self.name, None, None
        self.page.goto(f'http://{self.addr}/{query}', timeout=WAIT)
        self.page.wait_for_function("() => !!document.querySelector('.cgt-modes, .cgt-table-info')", polling=POLL, timeout=WAIT)  # a look every POLL ms, not every frame

    def mark(self): self.frames.clear(); self.scanned = 0

    def said(self) -> str:
        "The page's one-line refusal, once there is one."
        wait_shown(self.page, '.cgt-said-line', WAIT)
        return self.page.inner_text('.cgt-said-line')

    def seated(self):
        "Wait until the page shows its seat; note the code and the seat."
        wait_shown(self.page, '.cgt-table-code', WAIT)
        self.code = self.page.inner_text('.cgt-table-code')
        seats = self.page.inner_text('.cgt-seats')
        self.seat = int(re.search(r'\(Seat (\d+), you', seats).group(1))
        return self

    def moves(self) -> int: return int(self.page.get_attribute('.cgt-table-info', 'data-moves'))

    def wait_moves(self, n:int, at_least=False, most:int|None=None, why:str=''):
        """Wait until the page's table bar counts `n` moves (or more: `at_least`, or up to `most`, the bots' moves due by
        then, which the server may have played before this page is looked at); else fail saying what the page shows (its
        count, whom it waits for) and `why` (the caller's side: e.g. its mirror's count and last moves)."""
        top = None if at_least else n if most is None else most
        try: self.page.wait_for_function("([n, top]) => { const e = document.querySelector('.cgt-table-info');"
                                         " return e && +e.dataset.moves >= n && (top === null || +e.dataset.moves <= top); }",
                                         arg=[n, top], polling=POLL, timeout=WAIT)
        except Exception as e:
            count = f"at least {n}" if top is None else f"{n} to {top}" if top != n else f"{n}"
            raise AssertionError(f"Seat {self.seat}'s page does not count {count} moves ({type(e).__name__}): "
                                 f"it shows {self.shows()}{'; ' + why if why else ''}") from None

    def shows(self) -> str:
        "What the page's table bar says now: its move count and whom it waits for (for a failure's message)."
        try: return repr(self.page.evaluate("""() => { const e = document.querySelector('.cgt-table-info'), w = document.querySelector('.cgt-waiting');
                                                   return {moves: e && e.dataset.moves, waiting: w && w.innerText}; }"""))
        except Exception as e: return f"nothing readable ({type(e).__name__})"

    def waiting(self) -> str: return self.page.inner_text('.cgt-waiting')

    def wait_waiting(self, text:str):
        self.page.wait_for_function("t => { const e = document.querySelector('.cgt-waiting'); return e && e.innerText.includes(t); }",
                                    arg=text, polling=POLL, timeout=WAIT)

    def hand(self) -> list:
        "The titles (card names) of the cards in the page's hand."
        return [t for t in self.page.eval_on_selector_all('button.cgt-card:not(.cgt-empty)', 'bs => bs.map(b => b.title)') if t]

    def close(self): self.context.close()


def open_table(browser, addr, name='Asha', game=None, players=None, seed=None, query='') -> Student:
    """A student opens a table from the start page (\"Open a table\"): seated as its host. From the default start page
    (`query=''`) a solo game's panel may go on sending its own deal's cards for a moment after `mark()`: a test that scans
    the host's page for leaks opens it from `?table=` (the join form, no solo game)."""
    return open_from(Student(browser, addr, query, name), name, game, players, seed)

def open_from(s:Student, name='Asha', game=None, players=None, seed=None) -> Student:
    "`open_table` from the page `s` shows (the start page or the join form): seated as the table's host."
    p = s.page
    p.click('.cgt-mode-open'); wait_shown(p, '.cgt-name input', WAIT)
    if game: p.select_option('.cgt-game select', label=game)
    if players: p.select_option('.cgt-players select', label=str(players))
    if seed is not None: p.fill('.cgt-seed input', str(seed))
    p.fill('.cgt-name input', name)
    s.mark()  # from here on the page holds the table's widgets only (before: the solo tutor's own game)
    p.click('.cgt-open')
    return s.seated()

def join_pages(browser, addr, code, names) -> list:
    "Students who follow the table's link (`?table=CODE`: the code filled in), type their names and join."
    return [join_from(Student(browser, addr, f'?table={code}', name), code, name) for name in names]

def join_from(s:Student, code, name) -> Student:
    "A student whose page shows the table's link (`?table=CODE`) checks the code filled in, types a name and joins."
    assert s.page.input_value('.cgt-code input', timeout=WAIT) == code
    s.page.fill('.cgt-name input', name); s.mark(); s.page.click('.cgt-join')
    return s.seated()


_WORD = re.compile(r'[\w♠♥♦♣🍃🌰🔔]+')
_DEALER_ROW = re.compile(r'<(div|p) class="cgt-(?:event|last)[^"]*" data-hand="\d+" data-kind="dealer".*?</\1>', re.S)
_LOT = re.compile(r'Cards dealt face up to find the first dealer:.*?\.')  # the lot's sentence, as the live region reads it out

_PICTURE = re.compile(r'data:image/png;base64,[A-Za-z0-9+/=]+')  # a chart's pixels: its words (alt, scanned) are what it says

def _public(text:str) -> str:
    """`text` without the first-dealer lot (its cards come from a separate, public shuffle: tests/helpers.py), and
    without a chart's pixels (base64 is no text: '/T1+' in it is no card; the chart's alt text says what it shows)."""
    return _LOT.sub('', _DEALER_ROW.sub('', _PICTURE.sub('data:image/png', text)))

def _plain(frame:str) -> str:
    "A websocket frame as text a person reads (JSON's escapes undone), the first-dealer lot's rows (a separate, public shuffle) left out."
    with contextlib.suppress(ValueError): frame = json.dumps(json.loads(frame), ensure_ascii=False)
    return _public(frame.replace('\\"', '"'))

def cards_named(text:str, cards) -> set:
    "The cards of `cards` written in `text`: by code ('QH'), sign ('Q♥') or name ('queen of hearts'); not a card a rule names (`named_only`)."
    text = named_only(text)
    words = set(_WORD.findall(text))
    return {c for c in cards if c.code in words or sign_in(c.symbol, words, text) or c.name in text}

def leaks(student:Student, hidden, new=False) -> dict:
    """The cards of `hidden` in the page's DOM and in the widget state it was sent since `mark()`: {'dom': ..., 'state': ...}.
    `new`: the widget state sent since the last such scan only (each message read once: as a hand goes on the hidden
    cards only ever shrink, so a message read for more cards need not be read again for fewer)."""
    dom = _public(student.page.content())
    start = student.scanned if new else 0
    frames = student.frames[start:]
    if new: student.scanned = start + len(frames)
    return {'dom': cards_named(dom, hidden), 'state': cards_named('\n'.join(map(_plain, frames)), hidden)}

def hidden_from(mirror:Match, seat:int) -> set:
    "The cards still in the other seats' hands (a trick game's hands), which `seat` may not see."
    return {c for s, cards in enumerate(mirror.hand.hands) if s != seat for c in cards}

def play_hand(students, mirror:Match, scan=True):
    """Play the match's first hand to its end from the pages: whoever is to act clicks a lit card; after every move every
    page shows it (its move count), and (`scan`) each page's DOM and the widget state it was sent hold no card of another
    seat's hand. `mirror` is the same match (same game and seed) played alongside, to know what each seat may see."""
    by_seat = {s.seat: s for s in students}
    assert set(by_seat) == set(range(mirror.game.n_seats())), 'every seat a student (no bots: the test plays every move)'
    if scan:  # the scan is not blind: it finds each page's own cards on its page
        for s in students:
            own = set(mirror.hand.hands[s.seat])
            found = leaks(s, own)
            assert found['dom'] == own and found['state'] == own, f"the scan does not see Seat {s.seat}'s own cards on its page: {found}"
    while not mirror.hands[0].is_over:
        to = mirror.to_act
        s = by_seat[to]
        s.wait_waiting('Your turn.')
        card = s.page.locator('button.cgt-card.cgt-legal').first
        title = card.get_attribute('title')
        played = next(c for c in mirror.legal_actions() if c.name == title)
        card.click()
        mirror.apply(played, to)
        for t in students: t.wait_moves(len(mirror.actions))
        if scan and not mirror.hands[0].is_over:
            for t in students:
                found = leaks(t, hidden_from(mirror, t.seat), new=True)
                assert not found['dom'] and not found['state'], f"Seat {t.seat}'s page holds another seat's cards: {found}"
    return mirror


# Four students' whole hand of Begga Kaat (seed 12) at one table, every page scanned at every move for the cards in the
# other seats' hands (`play_hand` and `leaks` above): played once, in tests/test_classroom_tables_games.py (its
# begga-kaat table is this one: the same game, players and seed), whose test of the same name makes these checks too.

@browser_test
def test_a_reload_takes_the_seat_back_a_closed_page_is_away_then_a_bot_plays(browser, tables_server):
    addr = tables_server
    host = open_table(browser, addr, 'Asha', game='Begga Kaat', players=4, seed=5)
    (bo,) = join_pages(browser, addr, host.code, ['Bo'])
    host.wait_waiting('Start the match')
    host.page.click('.cgt-start')
    host.wait_waiting('Your turn.')
    assert f'?table={host.code}' in host.page.url  # the page's link is the table's now
    hand, moves = host.hand(), host.moves()
    host.page.reload()
    wait_shown(host.page, '.cgt-table-code', WAIT)
    host.wait_waiting('Your turn.')
    assert (host.hand(), host.moves(), host.page.inner_text('.cgt-table-code')) == (hand, moves, bo.code)
    assert 'Asha (Seat 0, you)' in host.page.inner_text('.cgt-seats')
    # a double click plays one card
    host.page.locator('button.cgt-card.cgt-legal').first.dblclick()
    host.wait_moves(moves + 1, at_least=True)
    bo.wait_waiting('Your turn.')  # the bots have played on to Bo
    assert len(host.hand()) == len(hand) - 1
    # a click from a page whose turn it is not: refused in one line, nothing played
    n = host.moves()
    host.page.locator('button.cgt-card').first.click()
    wait_shown(host.page, '.cgt-message.cgt-refused', WAIT)
    said = host.page.inner_text('.cgt-message')
    assert 'Not your turn' in said and 'Bo (Seat 1)' in said and '\n' not in said.strip()
    assert host.moves() == n and len(host.hand()) == len(hand) - 1
    # Bo closes his tab while it is his turn (his browser stays open): away for the others, then a bot plays his seat
    bo.page.close()
    host.page.wait_for_function("() => document.querySelector('.cgt-seats').innerText.includes('Bo (Seat 1, away)')", polling=POLL, timeout=WAIT)  # seconds: a look every POLL ms, not every frame
    assert 'Waiting for Bo (Seat 1' in host.waiting()
    host.page.wait_for_function("() => document.querySelector('.cgt-seats').innerText.includes('Seat 1 (bot)')", polling=POLL, timeout=WAIT)  # the hold's 20 s
    host.wait_moves(n + 1, at_least=True)  # the bot played for Bo
    assert host.page.url.endswith(f'?table={host.code}')
    # Bo opens the tutor's start page again in the same browser, as its leaving note says: it offers his seat (it showed
    # the empty join form before, with no sign of it), and one press gives it back to him
    back = bo.context.new_page(); back.goto(f'http://{addr}/', timeout=WAIT)
    wait_shown(back, '.cgt-code input', WAIT)
    assert back.input_value('.cgt-code input') == host.code and 'Bo, Seat 1' in back.inner_text('.cgt-guide')
    back.click('.cgt-join'); wait_shown(back, '.cgt-table-code', WAIT)
    assert 'Bo (Seat 1, you)' in back.inner_text('.cgt-seats') and 'come back' in back.inner_text('.cgt-table-info')
    host.page.wait_for_function("() => document.querySelector('.cgt-seats').innerText.includes('Bo (Seat 1)')", polling=POLL, timeout=WAIT)
    bo.close()


def _plays_a_card(p, hand:list):
    "Click a lit card on the solo page `p` and wait until its hand (`hand` before) is one card shorter."
    p.locator('button.cgt-card.cgt-legal').first.click()
    p.wait_for_function("n => [...document.querySelectorAll('button.cgt-card:not(.cgt-empty)')].filter(b => b.title).length < n",
                        arg=len(hand), polling=POLL, timeout=WAIT)

def _named_and_moved(browser, server) -> tuple:
    "Cy on a solo page of `server`: her name typed, then a card played (the name reaches the server first); (Cy, her hand after it)."
    cy = Student(browser, server, '', 'Cy')
    wait_shown(cy.page, 'button.cgt-card.cgt-legal', WAIT)
    cy.page.fill('.cgt-name input', 'Cy')
    _plays_a_card(cy.page, cy.hand())
    return cy, cy.hand()

@browser_test
def test_a_student_playing_alone_who_reloads_gets_her_game_and_her_name_back(browser, tables_server):
    "The solo page reloaded (tests/test_solo_reload.py has the rest): her game as she left it, her name in the box, and a line saying so."
    cy, played = _named_and_moved(browser, tables_server)
    p = cy.page
    p.reload()
    wait_shown(p, '.cgt-guide', WAIT)
    p.wait_for_function("() => document.querySelector('.cgt-guide').innerText.includes('your game from before')", polling=POLL, timeout=WAIT)
    wait_shown(p, 'button.cgt-card', WAIT)
    assert p.input_value('.cgt-name input') == 'Cy' and cy.hand() == played
    cy.close()


@browser_test
def test_a_second_tab_of_a_student_playing_alone_takes_her_game_over(browser, tables_server):
    "Table rule: the class page opened again in another tab of her browser takes her game (and name); the first tab says where it went."
    cy, played = _named_and_moved(browser, tables_server)
    first = cy.page
    second = cy.context.new_page(); second.goto(f'http://{tables_server}/', timeout=WAIT)
    second.wait_for_function("() => { const g = document.querySelector('.cgt-guide'); return g && g.innerText.includes('your game from before'); }",
                             polling=POLL, timeout=WAIT)
    wait_shown(second, 'button.cgt-card', WAIT)
    assert second.input_value('.cgt-name input') == 'Cy'
    first.wait_for_function("() => document.querySelector('.cgt-guide').innerText.includes('went on in a page of this browser')", polling=POLL, timeout=WAIT)
    assert first.locator('button.cgt-card').count() == 0
    cy.page = second
    assert cy.hand() == played
    wait_shown(second, 'button.cgt-card.cgt-legal', WAIT)
    _plays_a_card(second, played)  # she plays on in the second tab
    cy.close()


@browser_test
def test_hostile_names_full_tables_wrong_codes_and_a_flood_of_joins(browser, tables_server):
    addr = tables_server
    host = open_table(browser, addr, '<script>f()</script>', game='Begga Kaat', players=3, query='?table=')  # the join form: no solo game made (the reload test opens from the solo start page)
    script, img = '<script>f()</script>', '<img src=x onerror=f()>'
    (second,) = join_pages(browser, addr, host.code, [img])
    for s in (host, second):  # a name is shown as its characters: no element made of it, nothing run
        s.page.wait_for_function("n => document.querySelector('.cgt-seats').innerText.includes(n)", arg=img, polling=POLL, timeout=WAIT)
        seats = s.page.inner_text('.cgt-seats')
        assert script in seats and img in seats
        assert s.page.eval_on_selector_all('.cgt-lobby img, .cgt-lobby script, .cgt-tutor img[src=x]', 'es => es.length') == 0
        assert s.dialogs == []
    (third,) = join_pages(browser, addr, host.code, ['Cy'])  # three players: the table is full, and started
    late = Student(browser, addr, f'?table={host.code}', 'Dee')
    late.page.fill('.cgt-name input', 'Dee'); late.page.click('.cgt-join')
    said = late.said()
    assert f'table {host.code} is full' in said and '\n' not in said
    late.page.fill('.cgt-code input', 'zz zz zz' if host.code != 'zzzzzz' else 'yyyyyy'); late.page.click('.cgt-join')
    late.page.wait_for_function("() => document.querySelector('.cgt-said-line').innerText.includes('no open table has the code')", polling=POLL, timeout=WAIT)
    for _ in range(6):  # a flood of joins from one browser: held back after --max-joins
        late.page.click('.cgt-join')
    late.page.wait_for_function("() => document.querySelector('.cgt-said-line').innerText.includes('too many joins from your device')", polling=POLL, timeout=WAIT)
    assert '\n' not in late.page.inner_text('.cgt-said-line')
    assert not late.page.is_visible('.cgt-table-info')


CLASS_CODE = 'kq7m-x2pd-tables'

@pytest.fixture(scope='module')
def coded_tables_server():
    """One more server for the tests whose class needs options of its own: a class code, served for tables (`--start
    tables`: a page without a link opens on the join form). A page comes in by `?code=` (the gate sets its cookie and
    sends it on to the rest of its link, as a student's typed code does)."""
    if _missing(): pytest.skip(_missing())
    with classroom('--code', CLASS_CODE, '--start', 'tables', '--bot-pace', '0.3') as addr: yield addr


@browser_test
def test_the_class_code_covers_a_table_link(coded_tables_server):
    "With a class code, a table's link asks for the class code first, keeping the table's code for the join form."
    addr = coded_tables_server
    try:
        with urllib.request.urlopen(f'http://{addr}/?table=abcdef', timeout=30) as r: status, body = r.status, r.read()
    except urllib.error.HTTPError as e: status, body = e.code, e.read()
    assert status == 401 and b'class code' in body and b'name="table" value="abcdef"' in body


@browser_test
def test_a_class_served_for_tables_opens_on_the_join_form_with_playing_alone_one_click_away(browser, coded_tables_server):
    "`--start tables`: a page without a link opens on the form to join a table (no game made); a code typed seats the student; Play alone is one click."
    addr, code = coded_tables_server, f'?code={CLASS_CODE}'  # the class code given: the page comes without a link
    host = open_table(browser, addr, 'Asha', game='Kočka', seed=3, query=code)  # from the tables' start page: Open a table is one click
    phone = Student(browser, addr, code, 'Bo', viewport=(390, 844))  # a phone-size screen, no link
    p = phone.page
    assert p.url.rstrip('/') == f'http://{addr}'  # no link left: the start page itself
    wait_shown(p, '.cgt-code input', WAIT)
    assert "Type the table's code" in p.inner_text('.cgt-guide') and p.locator('button.cgt-card').count() == 0
    assert p.inner_text('.cgt-start-title h1').strip() == TITLE  # the join form's page says first what it is (it had no heading)
    for part in ('.cgt-start-title', '.cgt-modes', '.cgt-code input', '.cgt-name input', '.cgt-join', '.cgt-guide'):  # the page fits the phone's width
        box = p.locator(part).bounding_box()
        assert box and box['x'] >= 0 and box['x'] + box['width'] <= 390, (part, box)
    p.fill('.cgt-code input', host.code.upper()); p.fill('.cgt-name input', 'Bo'); p.click('.cgt-join')  # typed as read out
    assert phone.seated().seat == 1 and phone.code == host.code
    alone = Student(browser, addr, code, 'Chidi')
    wait_shown(alone.page, '.cgt-code input', WAIT)
    alone.page.click('.cgt-mode-solo')
    wait_shown(alone.page, 'button.cgt-card.cgt-legal', WAIT)  # the solo game, lit cards and all
    for s in (host, phone, alone): s.close()


def test_at_a_table_hint_shows_after_the_others_have_moved():
    """A seat's page was drawn again at each change of the table without its coach hearing of it (`render`, not `update`),
    so a hint asked for after the other seats had played was taken for a stale one and cleared at once: Hint showed nothing
    in trick play (a teacher's walk: three tries of 25 s). Now the page's redraw tells the coach, as the solo panel does
    after each move: the hint of an older moment is cleared when the table moves on, and a hint asked for is shown."""
    room = Classroom(TableOptions(bot_pace=0))
    page = Lobby(room, 'br-0', '?table=')
    ticket = room.open_table('br-0', 'kocka', 'Asha', seed=42)
    page._sit(ticket, back=False)
    table, rng = room.table(ticket.code), random.Random(42)
    table.start(ticket.token)
    try:
        def to_my_turn():
            while table.match.to_act != ticket.seat and not table.match.hand.is_over: table.run_bots()
        to_my_turn()
        page.tutor.press(rng.choice(page.session.latest['legal']))  # the pass: the others pass and lead after it
        to_my_turn()
        assert table.match.hand.phase == 'play' and table.match.to_act == ticket.seat
        box = page.tutor.coach.hint_box
        box.button.click()
        assert box.hint is not None and 'Hint:' in box.text.value, box.text.value
        page.tutor.press(box.hint.best)  # the coach's card; the others play on to the student's turn again
        to_my_turn()
        if not table.match.hand.is_over:
            assert box.hint is None and box.text.value == ''  # the old hint is gone with its moment
            box.button.click()
            assert box.hint is not None and 'Hint:' in box.text.value, box.text.value
    finally:
        page.close()
