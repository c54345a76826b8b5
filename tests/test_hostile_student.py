"""Issue 54, item 3: the hostile student, for every game.

One classroom server for the file (`--start tables`, quick bots; one visitor's message limits raised so that every
hostile message reaches the widgets: the limits are tests/test_classroom_attacks.py's). For each of the five games a
student (Asha) opens a table with a seed through the lobby's widgets, Bo and then Mallory (hostile) join, the empty
seats are bots, Asha starts the match; Zed has a second table of the same game open, not started. Every student is a
wire page (`bench/wire_table.py`: the page's widget messages over the server's websocket, as a browser sends them), so
nothing here needs Chromium.

Asha and Bo play their seats as students do ("bot plays my move" when the table bar says it is their turn), and so
does Mallory, from the widgets her page shows. At three moments spread over the hand (the others waiting while she
works, the bots playing on) she sets every trait of every widget model her page has heard of to hostile values (the
other type, out of range, a 1 MB string, lists of the wrong widgets, the widget itself, none, table 2's code), clicks
every widget (hidden and disabled buttons too: a disabled Button still runs its handlers on the server) and submits
every text box; the lobby's buttons from the second moment on, when she also types table 2's code and her name into
the lobby's join form (hidden, still live) and presses *Join the table*, then *Open the table*. After each moment she
puts back what her page shows as the server drew it, but for the boxes and toggles she flipped.

The test fails, naming the game, the message of Mallory's and the widget, if
- a message the server sent Mallory's page (or the text of her widget models after each moment) names a card that
  another seat holds and has not shown: from the table's hand record at the end (its deal checked against the seed's)
  and `hidden` (tests/test_classroom_tables_games.py, from `may_see`), at the move count of the next table bar;
- another seat's or table's state changes: table 1's other seats, table 2's seats, start or moves (the teacher's
  `glance.json`, read every half second, and Zed's page), or a table is opened from Mallory's page;
- Mallory's page is seated at another table, or table 1 waits on her seat and her page cannot play it: it is closed,
  shows another table, or has not shown her *bot plays my move* within `MOVE_WAIT` s, or her move is not answered
  within it (she then reloads her table's link, as a student would, so that the hand ends and the leak scan runs);
- the honest pages stop working (a move not answered, the hand's end not shown) or the server stops answering (the
  glance, `GET /` and a new page at the end). Every wait is bounded by a named timeout.
"""
import asyncio, base64, collections, contextlib, html, http.client, importlib.util, json, random, re, struct, subprocess, sys, time, uuid
import urllib.request
from typing import NamedTuple
import pytest
from helpers import ROOT, free_port, served, malloc_env, CLASSROOM


def _missing() -> str:
    for mod, what in (('solara', "Solara (pip install -e '.[classroom]')"), ('websockets', 'websockets (the bench extra)')):
        if importlib.util.find_spec(mod) is None: return f"{what} is not installed"  # found, not imported (see test_classroom)
    return ''

if _missing(): pytest.skip(_missing(), allow_module_level=True)
pytestmark = [pytest.mark.browser, pytest.mark.slow]  # a real server, as the other classroom tests; about 20 s a game (over 30 s with the holes open)

sys.path.insert(0, str(ROOT / 'bench'))
import websockets
from wire_table import TableStudent, _CODE, _MOVES
from cardgames_tutor.core import records
from cardgames_tutor.core.registry import get_game, games
from cardgames_tutor.core.match import Match
from cardgames_tutor.ui.table import cards_text_words
from test_classroom_tables import _plain
from test_classroom_tables_games import cards_named, hidden

# (game, players (None: its one size), seed): Mallory sits at Seat 2 of each
GAMES = [('begga-kaat', 4, 12), ('kocka', None, 7), ('dehla-pakad', None, 12), ('maghe-satra', 4, 7), ('beggars-and-thieves', 5, 3)]
TEACHER = 'hostile-teacher-54'
SERVER = ['--start', 'tables', '--bot-pace', '0.1', '--seat-hold', '3', '--cull', '2s', '--max-joins', '1000',
          '--hint-workers', '1', '--teacher-code', TEACHER,
          # one visitor's messages are not held back here: every hostile message reaches the widgets
          '--message-burst', '1000000', '--messages-per-second', '1000000', '--address-message-burst', '1000000',
          '--address-messages-per-second', '1000000', '--upload-bytes-per-second', '1000000000']

PAGE_WAIT = 60     # s: a page loads, a form answers, a seat is taken
MOVE_WAIT = 30     # s: a student's move is answered on their page
CATCH_UP = 60      # s: the server has handled every message Mallory sent so far
GAME_LIMIT = 240   # s: one game's whole scene, from the first page to the hand's end
ROUNDS = 3         # the moments of the hand at which Mallory attacks

BIG = 'x' * 10**6  # a 1 MB string (a websocket message may be 2**20 bytes)
LONG = '<img src=x onerror=alert(1)>' + 'y' * 4000
NOBODY = 'IPY_MODEL_' + 'f' * 32  # a widget that does not exist
FRONT = ('_model_', '_view_')  # which front-end class draws it (sending these does not close the socket): set with the look, last
LOOKS = ('LayoutModel', 'StyleModel', 'ThemeModel', 'ThemeColorsModel', 'TemplateModel')  # how a widget looks: no handler on the server
KEY = {'value', 'index', 'selected_index', 'disabled', 'children', 'description', '_dom_classes', '_options_labels',
       'titles', 'said', 'told', 'v_model', 'tooltip', 'placeholder'}  # what pages read or handlers observe: every hostile value, one message each
LIGHT = ('value', 'index', 'selected_index', 'disabled', 'children')  # the later moments: these, and every click
LOBBY = {'cgt-join', 'cgt-open', 'cgt-start', 'cgt-mode-solo', 'cgt-mode-open', 'cgt-mode-join'}  # the lobby's buttons: pressed from the second moment on
PUT_BACK = ('value', 'index', 'selected_index', 'children', '_options_labels', 'titles')  # set back after each moment (as a reload would)
_SEAT = re.compile(r'\(Seat (\d+), you')


def hostile(key, value, me, other, root, code2) -> list:
    """Hostile values for the trait `key` (now `value`) of the widget `me`: the other type, out of range, huge, a
    reference to a widget of the wrong kind, to itself, to its page's root, to none; the other table's code."""
    if key in ('layout', 'style') or (isinstance(value, str) and value.startswith('IPY_MODEL_')):
        return [f'IPY_MODEL_{other}', NOBODY, None]
    if isinstance(value, bool): return [value, not value]  # ends flipped: a box ticked, a toggle on (left so: see `attack`)
    if isinstance(value, int): return [-1, 10**9, 2**70, None]
    if isinstance(value, float): return [-1.0, 1e308, float('nan'), None]
    if isinstance(value, str): return ['', LONG, code2, None]
    if isinstance(value, (list, tuple)):
        return [[], [None, -1, 'x'], [f'IPY_MODEL_{me}'], [f'IPY_MODEL_{root}', f'IPY_MODEL_{other}'], None]
    if isinstance(value, dict): return [{}, {'x': [1, None]}, None]
    return [True, -1, LONG, [], {}]

def short(v) -> str:
    r = repr(v)
    return r if len(r) <= 40 else f"{r[:30]}... ({len(r)} characters)"

def named(m:dict) -> str:
    "A widget as a failure names it: its model and what tells it apart (its words, its CSS classes)."
    tag = m.get('description') or ' '.join(m.get('_dom_classes') or ())
    return m.get('_model_name', '?') + (f" {tag!r}" if tag else '')

def frame_text(raw) -> str:
    "A websocket message as text: a binary kernel message's JSON parts (its binary buffers, a picture's bytes, left out)."
    if isinstance(raw, str): return raw
    try:
        n = struct.unpack('!i', raw[:4])[0]
        offsets = list(struct.unpack('!' + 'I' * n, raw[4:4 * (n + 1)])) + [len(raw)]
    except struct.error: return ''
    parts = []
    for a, b in zip(offsets, offsets[1:]):
        with contextlib.suppress(ValueError, UnicodeDecodeError): json.loads(raw[a:b]); parts.append(raw[a:b].decode())
    return '\n'.join(parts)


class Bar(NamedTuple):
    "A table bar as a page got it: the message's place among the page's messages, the table, its moves, the page's seat, who sits where, when."
    index: int
    code: str|None
    moves: int|None
    seat: int|None
    seats: str
    at: float


class Page(TableStudent):
    """A wire page (`bench/wire_table.py`) that keeps every message it was sent (when, and which message of its own it
    answered: its parent) and its table bars in order. Its widget state is what the server drew: the server's echoes of
    the page's own updates are left out, so a hostile page still reads its widgets as the server has them."""
    def __init__(self, port:int, name:str, cookie:str|None=None):
        super().__init__(port)
        self.name, self.cookie = name, cookie
        self.frames, self.bars, self.sent = [], [], {}  # [(text, what it answered, when)]; [Bar]; msg id -> what it was
        self.closed, self.answered, self.last = None, set(), 'nothing yet'  # why the websocket closed; requests answered; the last hostile message

    def _message(self, msg_type, content, channel='shell', what=None) -> str:
        text = super()._message(msg_type, content, channel)
        if what is not None: self.sent[json.loads(text)['header']['msg_id']] = what
        return text

    async def start(self, timeout:float=PAGE_WAIT, path:str='', ready=None):
        "Open the page (with the browser's cookie, if it has one: a reload), ask Solara to run the app for `path`, wait for `ready()` (the lobby)."
        url = f'http://{self.host}:{self.port}/{path}'
        request = urllib.request.Request(url, headers={'Cookie': self.cookie} if self.cookie else {})
        answer = await asyncio.to_thread(urllib.request.urlopen, request, timeout=timeout)
        self.cookie = self.cookie or '; '.join(h.split(';', 1)[0] for h in answer.headers.get_all('Set-Cookie') or [])
        answer.read(); answer.close()
        self.ws = await websockets.connect(
            f'ws://{self.host}:{self.port}/jupyter/api/kernels/{uuid.uuid4()}/channels?session_id={uuid.uuid4()}',
            additional_headers={'Cookie': self.cookie}, max_size=2**26)
        self.reader = asyncio.create_task(self._read())
        control = uuid.uuid4().hex
        await self.ws.send(self._message('comm_open', {'comm_id': control, 'target_name': 'solara.control', 'data': {}}))
        await self.ws.send(self._message('comm_msg', {'comm_id': control, 'data': {
            'method': 'run', 'args': {'path': path, 'appName': '__default__'}}}))
        await asyncio.wait_for(self._until(ready or (lambda: self.widget('cgt-mode-open'))), timeout)

    async def _read(self):
        try:
            async for raw in self.ws:
                msg = None
                with contextlib.suppress(ValueError): msg = json.loads(raw) if isinstance(raw, str) else None
                cause = self.sent.get(((msg or {}).get('parent_header') or {}).get('msg_id'))
                self.frames.append((frame_text(raw), cause, time.monotonic()))
                if msg is None: continue
                kind, content = msg['header']['msg_type'], msg.get('content', {})
                if kind == 'kernel_info_reply': self.answered.add(msg['parent_header'].get('msg_id')); self.changed.set(); continue
                method = content.get('data', {}).get('method') if kind == 'comm_msg' else None
                if kind == 'comm_open': self.models[content['comm_id']] = dict(content.get('data', {}).get('state', {}))
                elif method == 'update': self.models.setdefault(content['comm_id'], {}).update(content['data'].get('state', {}))
                elif kind == 'comm_close': self.models.pop(content.get('comm_id'), None)
                else: continue  # an echo of the page's own update (or no widget's): not what the server drew
                self.heard(content)
                self.changed.set()
        except websockets.ConnectionClosed: pass
        finally:
            self.closed = self.closed or f"closed by the server (after her message: {self.last})"
            self.changed.set()

    async def close(self):
        self.closed = self.closed or 'closed by the test'
        await super().close()

    def heard(self, content):
        super().heard(content)
        value = content.get('data', {}).get('state', {}).get('value')
        if isinstance(value, str) and 'cgt-table-info' in value:
            code, moves, seat = _CODE.search(value), _MOVES.search(value), _SEAT.search(value)
            seats = re.search(r'class="cgt-seats">([^<]*)<', value)
            self.bars.append(Bar(len(self.frames) - 1, html.unescape(code.group(1)) if code else None, int(moves.group(1)) if moves else None,
                                 int(seat.group(1)) if seat else None, html.unescape(seats.group(1)) if seats else '', time.monotonic()))

    async def send(self, comm_id, data, what):
        "Send one widget message (`what` it is, for the failures)."
        self.last = what
        try: await self.ws.send(self._message('comm_msg', {'comm_id': comm_id, 'data': data}, what=what))
        except websockets.ConnectionClosed: self.closed = self.closed or f"closed by the server (after her message: {what})"

    async def click(self, comm_id, what=None):
        await self.send(comm_id, {'method': 'custom', 'content': {'event': 'click'}}, what or f"a click on {named(self.models.get(comm_id, {}))}")

    async def caught_up(self, timeout:float=CATCH_UP):
        "Wait until the server has handled every message sent so far: the kernel's answer to a `kernel_info_request` comes after them."
        text = self._message('kernel_info_request', {}, what='a check that the server has caught up')
        asked = json.loads(text)['header']['msg_id']
        with contextlib.suppress(websockets.ConnectionClosed): await self.ws.send(text)
        await asyncio.wait_for(self._until(lambda: self.closed or asked in self.answered), timeout)

    def table(self) -> str|None:
        "The code of the table the page shows now (its table bar), if any."
        m = _CODE.search(self.bar())
        return html.unescape(m.group(1)) if m else None

    def seat(self) -> int|None:
        m = _SEAT.search(self.bar())
        return int(m.group(1)) if m else None

    def tree(self) -> set:
        "The widgets the page shows now (reachable from the lobby through `children`, as the server drew them)."
        todo, seen = [self.widget('cgt-lobby')], set()
        while todo:
            i = todo.pop()
            if i is None or i in seen or i not in self.models: continue
            seen.add(i)
            todo += [r.removeprefix('IPY_MODEL_') for r in self.models[i].get('children') or () if isinstance(r, str)]
        return seen

    def shown_button(self, description:str) -> str|None:
        "The button reading `description` among the widgets the page shows."
        return next((i for i in self.tree() if self.models[i].get('_view_name') == 'ButtonView'
                     and self.models[i].get('description') == description), None)

    def text(self) -> str:
        "Every string in the page's widget models (its whole state as text)."
        return json.dumps([v for m in self.models.values() for v in m.values() if isinstance(v, str)], ensure_ascii=False)

    def over(self) -> bool:
        "Whether the page shows that hand 1 is over (its result, or the scores of hand 1)."
        return any(isinstance(m.get('value'), str) and ('Hand 1 is over' in m['value'] or 'class="cgt-last" data-hand="1"' in m['value'])
                   for m in self.models.values())


async def poll(done, timeout:float, every:float=0.05):
    "Wait until `done()` (checked every `every` s), at most `timeout` s."
    end = time.monotonic() + timeout
    while not done():
        if time.monotonic() > end: raise asyncio.TimeoutError
        await asyncio.sleep(every)

async def open_table(page:Page, name:str, players, seed:int) -> str:
    "Open a table of `name` (game, players, seed chosen in the form) from the start page; its code."
    await page.press('cgt-mode-open')
    await asyncio.wait_for(page._until(lambda: page.widget('cgt-open') and page.widget('cgt-players')), PAGE_WAIT)
    game, info = page.widget('cgt-game'), games()[name]
    i = page.models[game]['_options_labels'].index(info.title)
    await page._send(game, {'method': 'update', 'state': {'index': i}, 'buffer_paths': []})
    labels = [str(n) for n in info.players]
    choice = page.widget('cgt-players')
    await asyncio.wait_for(page._until(lambda: list(page.models[choice].get('_options_labels', ())) == labels), PAGE_WAIT)
    if players is not None:
        await page._send(choice, {'method': 'update', 'state': {'index': labels.index(str(players))}, 'buffer_paths': []})
    await page.type('cgt-seed', str(seed))
    await page.type('cgt-name', page.name)
    await page.press('cgt-open')
    return await page.seated(PAGE_WAIT)


class Glance:
    "The teacher's `glance.json` (every table, its seats and whom it waits for), read with the teacher's cookie."
    def __init__(self, port):
        self.port, self.cookie = port, None

    def _get(self, path, headers=None):
        c = http.client.HTTPConnection('127.0.0.1', self.port, timeout=30)
        try:
            c.request('GET', path, headers=headers or {})
            r = c.getresponse()
            return r.status, r.getheader('Set-Cookie'), r.read()
        finally: c.close()

    def read(self) -> dict:
        if self.cookie is None:
            status, cookie, _ = self._get(f'/teacher/glance.json?teacher={TEACHER}')
            assert status == 303 and cookie, f"the teacher's code was not taken: {status}"
            self.cookie = cookie.split(';', 1)[0]
        status, _, body = self._get('/teacher/glance.json', {'Cookie': self.cookie})
        assert status == 200, f"glance.json answered {status}"
        return {t['code']: t for t in json.loads(body)['tables']}

def seats_of(row) -> list: return [(s['seat'], s['name'], s['state']) for s in row['seats']]

def table_facts(row) -> dict:
    "What must not change at a table nobody plays: its game, seats, start, hand, whom it waits for."
    return {k: row[k] for k in ('game', 'players', 'started', 'closed', 'hand', 'to_act', 'waiting', 'finished_hands')} | {'seats': seats_of(row)}


class Scene:
    "One game's scene: the tables, the pages, what Mallory did, and every failure noted (each kind once)."
    def __init__(self, port, name, players, seed, k):
        self.port, self.name, self.players, self.seed, self.k = port, name, players, seed, k
        self.game = get_game(name, **({'players': players} if players else {}))
        self.mallory_name = f"Mallory-{name}"[:24]
        self.failures, self._said = [], set()
        self.paused = self.over = False
        self.rounds, self.spent = [], []  # the moves when each moment of Mallory's began; the seconds it took
        self.last_round_moves, self.mine_after = None, 0
        self.glance, self.reloaded = Glance(port), None
        est, rng = Match(self.game, seed=seed), random.Random(f"bots {seed}")  # the hand played by bots alone: about how long it is
        while not est.hands[0].is_over: est.apply(self.game.bot(est.view(est.to_act, text=False), rng), est.to_act)
        self.plan = [max(1, len(est.actions) * k // ROUNDS) for k in range(ROUNDS)]  # the moves from which each moment of Mallory's is due

    def fail(self, kind, text):
        "Note a failure (one of each `kind`)."
        if kind not in self._said:
            self._said.add(kind)
            self.failures.append(f"{self.name}: {text}")

    def moves(self) -> int: return self.host.moves() or 0

    def doing(self) -> str:
        "What Mallory sent last (for the failures)."
        return self.attacker.last

    def mallory_label(self) -> str: return f"{self.mallory_name} (Seat {self.mallory_seat})"

    def mallorys_turn(self) -> bool: return self.host.waiting().startswith(f"Waiting for {self.mallory_label()} to ")

    def round_due(self) -> bool:
        "Whether Mallory attacks now: a moment left and due (spread over the hand), others have moved since her last move and moment."
        n = self.moves()
        return (len(self.rounds) < ROUNDS and n >= self.plan[len(self.rounds)] and not self.attacker.closed and self.reloaded is None
                and n > self.mine_after and n != self.last_round_moves and not self.over)


async def honest(scene:Scene, page:Page):
    "A student playing their seat: at their turn (and no moment of Mallory's due), *bot plays my move*; each move answered."
    while not scene.over:
        try: await poll(lambda: scene.over or (page.waiting() == 'Your turn.' and not scene.paused and not scene.round_due()), GAME_LIMIT)
        except asyncio.TimeoutError: return scene.fail(f'turn-{page.name}', f"{page.name}'s turn never came (the table waits: {page.waiting()!r})")
        await asyncio.sleep(0.2)  # the rest of the page's drawing (a bar comes first): hand 1 may just have ended
        if scene.over or page.over(): return  # hand 1 is played: the scene ends there
        n = page.moves()
        bot = page.shown_button('bot plays my move')
        if bot is None: return scene.fail(f'page-{page.name}', f"{page.name}'s page shows no 'bot plays my move' button any more")
        await page.click(bot)
        try: await poll(lambda: scene.over or (page.moves() or 0) > n, MOVE_WAIT)
        except asyncio.TimeoutError:
            return scene.fail(f'move-{page.name}', f"{page.name}'s move (at move {n}) was not answered within {MOVE_WAIT} s: "
                                                   f"the page says {page.waiting()!r}")

def cannot_play(scene:Scene, page:Page) -> str:
    "Why Mallory's page cannot play her seat now ('' when it can: it shows her table and its *bot plays my move*)."
    if page.closed: return f"her page is closed ({page.closed})"
    if page.table() != scene.code1: return f"her page shows table {page.table()}"
    return '' if page.shown_button('bot plays my move') else "her page shows no 'bot plays my move'"

async def play_own(scene:Scene, page:Page) -> str:
    """Mallory plays her seat as a student does, from what her page shows: once it shows her move (at most `MOVE_WAIT` s:
    her page may hear of her turn after the host's), back to live play, then *bot plays my move*. Returns '' once the
    move is answered, else what went wrong (her turn over meanwhile: '')."""
    with contextlib.suppress(asyncio.TimeoutError):
        await poll(lambda: scene.over or not scene.mallorys_turn() or not cannot_play(scene, page) or page.closed, MOVE_WAIT)
    if scene.over or not scene.mallorys_turn(): return ''
    if why := cannot_play(scene, page): return why
    n = scene.moves()
    if (last := page.shown_button('▶|')) is not None: await page.click(last, "Mallory's ▶| (back to live play)")
    await page.click(page.shown_button('bot plays my move'), "Mallory's own move (bot plays my move)")
    with contextlib.suppress(asyncio.TimeoutError): await poll(lambda: scene.over or scene.moves() > n, MOVE_WAIT)
    scene.mine_after = scene.moves()
    return '' if scene.over or scene.moves() > n else f"her move (at move {n}) was not answered within {MOVE_WAIT} s"

async def attack(scene:Scene, m:Page, round_no:int):
    """One moment of Mallory's: every trait of every widget her page has heard of set to hostile values (at the first
    moment all of them, then those a handler reads), every widget clicked and every text box submitted (the lobby's
    buttons and boxes from the second moment on: the first moment is spent at her table); at the second moment, the
    other table's code and her name typed into the join form, *Join the table*, a seed, *Open the table*. Then what her
    page shows is set back as the server drew it (as a reload would), but for the boxes and toggles she flipped: a
    student may leave them so (the teaching view's toggle among them, while the hand goes on)."""
    full, sent = round_no == 0, 0
    other = next(i for i, v in m.models.items() if v.get('_model_name') == 'LayoutModel')
    root = m.widget('cgt-lobby')
    for cid in list(m.models):
        state = dict(m.models.get(cid) or {})
        looks, what = state.get('_model_name', '').endswith(LOOKS), named(state)
        keys = sorted((k for k in state if full or k in LIGHT), key=lambda k: k.startswith(FRONT))
        if full and keys and (looks or any(k not in KEY for k in keys)):  # the traits of how it looks: all of them in one message a value
            rest = [k for k in keys if looks or k not in KEY]
            for j in range(3):
                values = {k: (lambda vs: vs[(j + scene.k) % len(vs)])(hostile(k, state[k], cid, other, root, scene.code2)) for k in rest}
                await m.send(cid, {'method': 'update', 'state': values, 'buffer_paths': []}, f"{what} every trait of its look = hostile values")
                sent += 1
        for key in ([] if looks else [k for k in keys if k in KEY]):
            values = hostile(key, state[key], cid, other, root, scene.code2)
            if not full: values = values[:2]
            if full and key == 'value' and state.get('_model_name') == 'TextModel': values = [BIG] + values
            for v in values:
                await m.send(cid, {'method': 'update', 'state': {key: v}, 'buffer_paths': []}, f"{what} .{key} = {short(v)}")
                sent += 1
        if sent > 300: await m.caught_up(); sent = 0  # no further ahead of the server than a page loading
        if m.closed: return
    await m.caught_up()
    for cid, state in list(m.models.items()):  # every widget clicked (a button's handlers run even when it is disabled or hidden), every text box submitted
        if state.get('_model_name', '').endswith(LOOKS) or (round_no == 0 and set(state.get('_dom_classes') or ()) & LOBBY): continue
        await m.click(cid)
        if round_no and m.models.get(cid, {}).get('_model_name') == 'TextModel':
            await m.send(cid, {'method': 'custom', 'content': {'event': 'submit'}}, f"a submit of {named(m.models[cid])}")
    await m.caught_up()
    if round_no == 1: await lobby_attack(scene, m)
    for cid, state in list(m.models.items()):  # set back what the page shows, from what the server last said (a box ticked stays ticked)
        keep = {k: state[k] for k in PUT_BACK if k in state and not isinstance(state[k], bool)}
        if keep: await m.send(cid, {'method': 'update', 'state': keep, 'buffer_paths': []}, f"{named(state)} set back as the server drew it")
    await m.caught_up()

async def lobby_attack(scene:Scene, m:Page):
    "The lobby's forms, hidden but held by the page: the other table's code and a name typed, *Join the table*; a seed, *Open the table*."
    for css, value in (('cgt-code', scene.code2), ('cgt-name', m.name)):
        if (box := m.widget(css)) is not None:
            await m.send(box, {'method': 'update', 'state': {'value': value}, 'buffer_paths': []}, f"the join form's {css} box = {value!r}")
    if (join := m.widget('cgt-join')) is not None: await m.click(join, f"'Join the table' with table {scene.code2}'s code typed")
    if (box := m.widget('cgt-code')) is not None:
        await m.send(box, {'method': 'custom', 'content': {'event': 'submit'}}, f"the code box submitted with table {scene.code2}'s code")
    for css, value in (('cgt-seed', '7'), ('cgt-name', m.name)):
        if (box := m.widget(css)) is not None:
            await m.send(box, {'method': 'update', 'state': {'value': value}, 'buffer_paths': []}, f"the open form's {css} box = {value!r}")
    if (opener := m.widget('cgt-open')) is not None: await m.click(opener, "'Open the table' (the open form, hidden)")
    for css in ('cgt-mode-join', 'cgt-mode-open', 'cgt-mode-solo', 'cgt-start'):
        if (b := m.widget(css)) is not None: await m.click(b, f"the lobby's {css} button")
    await m.caught_up()
    await asyncio.sleep(1)  # a seat taken elsewhere is drawn on the page

async def mallory(scene:Scene):
    "Mallory: her own moves, and her moments of attack between the others' moves."
    while not scene.over:
        page = scene.reloaded or scene.attacker
        if scene.round_due():
            scene.paused, n = True, scene.moves()
            scene.last_round_moves = n
            began = time.monotonic()
            try: await attack(scene, scene.attacker, len(scene.rounds))
            except asyncio.TimeoutError:
                scene.fail('answer', f"the server did not handle Mallory's messages within {CATCH_UP} s (last: {scene.doing()})")
                scene.attacker.closed = scene.attacker.closed or 'given up: the server did not catch up'
            finally: scene.paused = False
            if not scene.attacker.closed: scene.rounds.append(n); scene.spent.append(round(time.monotonic() - began, 1))
            scene.attacker.frames.append((scene.attacker.text(), f"(the text of her widget models after moment {len(scene.rounds)})", time.monotonic()))
        elif scene.mallorys_turn() and (why := await play_own(scene, page)) and scene.reloaded is None:
            scene.fail('stuck', f"table {scene.code1} waits on {scene.mallory_label()}, a seat no page plays: {why}")
            await reload(scene)
        await asyncio.sleep(0.05)

async def watch(scene:Scene):
    """Every half second, the class as the teacher sees it: the hand's end; table 2 and table 1's other seats as they
    were; no table opened and no seat taken by Mallory's page."""
    while not scene.over:
        try: rows = await asyncio.to_thread(scene.glance.read)
        except Exception as e:
            scene.fail('answer', f"the server stopped answering the teacher's glance: {type(e).__name__}: {e}")
            scene.over = True
            return
        one, two = rows.get(scene.code1), rows.get(scene.code2)
        if one is None or two is None: scene.fail('closed', f"a table closed: table 1 {'open' if one else 'gone'}, table 2 {'open' if two else 'gone'}")
        if two is not None and table_facts(two) != scene.before2:
            changed = {k: v for k, v in table_facts(two).items() if scene.before2.get(k) != v}
            scene.fail('table2', f"table 2 ({scene.code2}, Zed's, not started) changed while Mallory attacked: {changed}")
        if one is not None:
            others = [s for s in seats_of(one) if s[0] != scene.mallory_seat]
            if others != scene.others1: scene.fail('seats1', f"table 1's other seats changed: {others} were {scene.others1}")
            if one['finished_hands'] >= 1: scene.over = True
        for code in sorted(set(rows) - scene.codes):
            scene.fail(f'opened-{code}', f"a table was opened while Mallory sat at table {scene.code1}: table {code} "
                                         f"({rows[code]['title']}, seats {seats_of(rows[code])})")
        await asyncio.sleep(0.5)

async def reload(scene:Scene):
    "Mallory's browser opens her table's link again (her cookie: the seat she holds there), to play the hand to its end."
    await scene.attacker.close()
    again = Page(scene.port, scene.mallory_name, cookie=scene.attacker.cookie)
    await again.start(path=f'?table={scene.code1}', ready=lambda: _CODE.search(again.bar()))
    await again.seated(PAGE_WAIT)
    scene.reloaded = again

def moments(scene:Scene, page:Page, n_hand:int) -> list:
    """For each message of `page`, the moments it may show, as (table, moves, seat). At table 1 alone: the next table
    bar's (a page draws its bar at each move, after whatever it drew before). Once the page has been seated at another
    table too: every table it has been at, table 1 at the moves Asha's page had heard of by then (a card counts only if
    hidden at each). None: after hand 1, or a table of unknown deal (not scanned)."""
    def table1(when): return max((b.moves for b in scene.host.bars if b.code == scene.code1 and b.moves is not None and b.at <= when), default=0)
    bars, after, nxt, j = page.bars, [None] * len(page.frames), None, len(page.bars) - 1
    for i in range(len(page.frames) - 1, -1, -1):  # the first table bar at or after each message
        while j >= 0 and bars[j].index >= i: nxt, j = bars[j], j - 1
        after[i] = nxt
    out, tables, k = [], {}, 0
    for i, (_, _, at) in enumerate(page.frames):
        q = after[i]
        while k < len(bars) and bars[k].index <= (q.index if q else len(page.frames)):
            tables.setdefault(bars[k].code, bars[k].seat); k += 1
        seen = []
        for code, seat in (tables.items() if tables else [(scene.code1, scene.mallory_seat)]):
            if code == scene.code1:
                n = q.moves if q is not None and len(tables) == 1 and q.moves is not None else table1((q.at if q else at) + 5)
                seen.append(None if n >= n_hand else (code, n, scene.mallory_seat))
            elif code == scene.code2: seen.append((code, 0, seat))  # never started: its deal as dealt
            else: seen.append(None)
        out.append(None if None in seen else tuple(sorted(set(seen))))
    return out

def plain(page:Page) -> list:
    "Each message `page` was sent as text a person reads (`_plain`), worked out once: the scan for her own cards and the leak scan read the same texts."
    done = page.__dict__.setdefault('plain', [])
    done += [_plain(t) for t, _, _ in page.frames[len(done):]]
    return done

def leaks(scene:Scene, page:Page, full:Match) -> list:
    """The messages `page` was sent (and its widget text after each moment) that name a card another seat held unshown
    at that moment (`hidden`, from the deal and the record), first ones first, one for each set of cards:
    [(cards, moment, what of Mallory's it answered, words around)]."""
    n_hand, table2 = len(full.hands[0].history), Match(scene.game, seed=scene.seed + 1)
    names = '|'.join(re.escape(x) for x in ('Asha', 'Bo', scene.mallory_name, f"Zed-{scene.name}"[:24]))  # the students' names
    lots = [re.compile(f'(?:Seat \\d+|{names})'.join(re.escape(part) for part in re.split(r'Seat \d+', x)))
            for h in (Match(scene.game, seed=scene.seed).hands[0], table2.hands[0]) for e in h.events if e.kind == 'dealer'
            for x in (e.text, cards_text_words(e.text, scene.game.pack))]  # each 'Seat N' as said, or a student's name put in
    def public(text):  # without the first-dealer lot's sentences (a separate, public shuffle: tests/helpers.py), as the live region says them too
        for x in lots: text = x.sub('', text)
        return text
    def hidden_at(key):
        code, n, seat = key
        return hidden(full.replayed(full.actions[:n]) if code == scene.code1 else table2, seat)
    cache, groups = {}, collections.defaultdict(list)
    for i, seen in enumerate(moments(scene, page, n_hand)):
        if seen is not None: groups[seen].append(i)
    found = []
    for seen, indices in groups.items():
        cards = set.intersection(*[cache.setdefault(key, hidden_at(key)) for key in seen])
        texts = [(i, public(plain(page)[i])) for i in indices]
        if not cards_named('\n'.join(t for _, t in texts), cards): continue
        for i, text in texts:
            if not (named_here := cards_named(text, cards)): continue
            card = min(named_here, key=str)
            at = min((x for x in (text.find(card.symbol), text.find(card.name)) if x >= 0), default=0)
            where = ' or '.join(f"table {c} at move {n} (Seat {s})" for c, n, s in seen)
            found.append((i, frozenset(named_here), where, page.frames[i][1] or "none of hers (the table's news)",
                          text[max(0, at - 100):at + 40].replace('\n', ' ')))
    first = {}
    for i, cards, where, cause, words in sorted(found, key=lambda x: x[0]): first.setdefault(cards, (cards, where, cause, words))
    return list(first.values())


async def scene_of(port, name, players, seed, k) -> Scene:
    scene = Scene(port, name, players, seed, k)
    pages = []
    def page(who, **kw):
        p = Page(port, who, **kw); pages.append(p); return p
    try:
        zed = page(f"Zed-{name}"[:24]); await zed.start()
        scene.code2 = await open_table(zed, name, players, seed + 1)  # the bystander's table: open, not started
        scene.host = host = page('Asha'); await host.start()
        scene.code1 = await open_table(host, name, players, seed)
        bo = page('Bo'); await bo.start(); await bo.join_table(scene.code1, 'Bo')
        scene.attacker = m = page(scene.mallory_name); await m.start()
        await m.press('cgt-mode-open')  # the open form is made when first shown: she holds it from here on
        await asyncio.wait_for(m._until(lambda: m.widget('cgt-open')), PAGE_WAIT)
        await m.join_table(scene.code1, scene.mallory_name)
        scene.mallory_seat = m.seat()
        assert scene.mallory_seat == 2, f"Mallory sits at Seat {scene.mallory_seat}, not 2"
        await poll(lambda: 'Start the match' in host.waiting(), PAGE_WAIT)
        await host.press('cgt-start')
        await poll(lambda: host.waiting() and 'Start the match' not in host.waiting(), PAGE_WAIT)
        rows = await asyncio.to_thread(scene.glance.read)
        scene.before2, scene.zed_bar, scene.codes = table_facts(rows[scene.code2]), zed.bar(), set(rows)
        scene.others1 = [s for s in seats_of(rows[scene.code1]) if s[0] != scene.mallory_seat]
        tasks = [asyncio.create_task(t) for t in (honest(scene, host), honest(scene, bo), mallory(scene), watch(scene))]
        try: await asyncio.wait_for(asyncio.gather(*tasks), GAME_LIMIT)
        except asyncio.TimeoutError:
            scene.fail('limit', f"the hand did not end within {GAME_LIMIT} s (table 1 says {host.waiting()!r}, {scene.moves()} moves)")
        finally:
            scene.over = True
            for t in tasks: t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        await checks(scene, host, bo, zed)
    finally:
        for p in pages + [scene.reloaded]:
            if p is not None:
                with contextlib.suppress(Exception): await p.close()
    return scene

async def checks(scene:Scene, host:Page, bo:Page, zed:Page):
    "After the hand: the honest pages show its end, table 2 as it was, the record's deal is the seed's, then the leak scan."
    for p in (host, bo):
        with contextlib.suppress(asyncio.TimeoutError): await poll(p.over, MOVE_WAIT)
        if not p.over(): scene.fail(f'end-{p.name}', f"{p.name}'s page does not show that hand 1 is over ({p.waiting()!r})")
    if zed.bar() != scene.zed_bar or any(b.moves for b in zed.bars):
        scene.fail('zed', f"Zed's page (table 2) changed: it shows {zed.bars[-1].seats!r}, {zed.bars[-1].moves} moves")
    moved = {}
    for b in scene.attacker.bars:  # the first table bar of each other table Mallory's page showed: which message of hers seated it there
        if b.code not in (None, scene.code1): moved.setdefault(b.code, scene.attacker.frames[b.index][1])
    for code, cause in moved.items():
        scene.fail(f'moved-{code}', f"Mallory's page was seated at {'table 2 (' + code + ')' if code == scene.code2 else 'a table of its own (' + code + ')'} "
                                    f"while she held Seat {scene.mallory_seat} at {scene.code1}, answering her message: {cause or 'none of hers'}")
    # the record of hand 1, as Asha's page offers it (the finished hands), and the seed's deal in it
    save = host.button('save record')
    await host.click(save)
    try: await poll(lambda: 'cgt-download' in host.text(), MOVE_WAIT)
    except asyncio.TimeoutError: return scene.fail('record', "Asha's page offered no record of the finished hand")
    link = re.search(r'data:application/json;base64,([A-Za-z0-9+/=]+)', host.text()).group(1)
    full = records.load(json.loads(base64.b64decode(link)))
    assert full.hands[0].deal == Match(scene.game, seed=scene.seed).hands[0].deal, "the table's deal is not the seed's"
    if not [n for n in scene.rounds if n < len(full.hands[0].history)]:
        scene.fail('rounds', f"Mallory never made a whole moment of attack during the hand ({len(full.hands[0].history)} moves; "
                             f"moments made at moves {scene.rounds}; her page: {scene.attacker.closed or 'open'})")
    own = set(Match(scene.game, seed=scene.seed).view(scene.mallory_seat).get('hand') or ())
    mine = cards_named('\n'.join(plain(scene.attacker)), own)
    assert mine == own, f"the scan does not see Mallory's own cards in her page's messages: {sorted(map(str, mine))} of {sorted(map(str, own))}"
    for p in (scene.attacker, scene.reloaded):
        if p is None: continue
        found = leaks(scene, p, full)
        for k, (cards, where, cause, words) in enumerate(found[:3]):
            scene.fail(f'leak-{id(p)}-{k}', f"Mallory's page was sent {' '.join(sorted(map(str, cards)))}, which other seats hold unshown "
                                            f"({where}), in a message answering hers: {cause}; it reads ...{words}..."
                                            + (f" ({len(found)} such sets of cards in all)" if k == 2 and len(found) > 3 else ''))


@pytest.fixture(scope='module')
def server(tmp_path_factory):
    "One classroom server for the file (its output in a file: a hostile page makes it log many refused updates)."
    tmp = tmp_path_factory.mktemp('hostile')
    port, log = free_port(), tmp / 'server.log'
    argv = [*CLASSROOM, '--host', '127.0.0.1',
            '--port', str(port), *SERVER, '--results', str(tmp / 'class.sqlite')]
    with open(log, 'w') as out, contextlib.ExitStack() as stack:
        try: proc = stack.enter_context(served(argv, port, 'the classroom server', wait=90, stdout=out, stderr=subprocess.STDOUT,
                                               env=malloc_env()))  # (on glibc's allocator from the start: not started twice)
        except RuntimeError as e: raise RuntimeError(f"{e}: {log.read_text(errors='replace')[-600:]}") from None
        yield port, proc, log


@pytest.mark.parametrize('k, name, players, seed', [(k, *g) for k, g in enumerate(GAMES)], ids=[g[0] for g in GAMES])
def test_a_hostile_student_learns_nothing_and_changes_nothing(server, k, name, players, seed):
    port, proc, log = server
    scene = asyncio.run(scene_of(port, name, players, seed, k))
    # the server still answers: a page, and a new student's lobby
    with urllib.request.urlopen(f'http://127.0.0.1:{port}/', timeout=PAGE_WAIT) as r: assert r.status == 200
    async def fresh():
        p = Page(port, 'Fresh')
        try: await p.start()
        finally: await p.close()
    asyncio.run(fresh())
    assert proc.poll() is None, "the classroom server has stopped"
    said = log.read_text(errors='replace')
    assert "pacer failed" not in said, "the classroom's pacer failed a beat: " + said[said.find('pacer failed'):][:400]
    assert not scene.failures, f"{len(scene.failures)} failures:\n" + '\n'.join(scene.failures)
