"""A student at a table without a browser, for `bench_classroom.py --tables`: `wire_student.WireStudent` (the page's widget
messages over the server's websocket) that also uses the lobby's widgets, as a student's page does: the mode buttons,
the text boxes (their `value`, sent as the page sends a typed value) and the Open / Join buttons; then plays its seat,
clicking a lit card when the table bar says it is its turn.

Every update of the table bar (`.cgt-table-info[data-moves=N]`) is stamped on arrival (`arrived[N]`: this process's
`time.perf_counter()`), so the benchmark can tell when each page of a table had move N: the wire students' side of the
fan-out, one clock for all (they run in one process). Not a test; needs `websockets` (the `bench` extra).
"""
import asyncio, html, re, time
from wire_student import WireStudent

_MOVES = re.compile(r'class="cgt-table-info" data-moves="(\d+)"')
_CODE = re.compile(r'class="cgt-table-code"[^>]*>([^<]+)<')
_WAITING = re.compile(r'class="cgt-waiting"[^>]*>([^<]*)<')


class TableStudent(WireStudent):
    "A wire student who opens or joins a table through the lobby's widgets, then plays its seat."
    def __init__(self, port:int, host:str='127.0.0.1'):
        super().__init__(port, host)
        self.arrived, self.code, self.bar_id = {}, None, None  # move count -> when the bar saying it arrived

    def heard(self, content):  # a stamp on every table bar with a new move count
        value = content.get('data', {}).get('state', {}).get('value')
        if isinstance(value, str) and 'cgt-table-info' in value:
            m = _MOVES.search(value)
            if m: self.arrived.setdefault(int(m.group(1)), time.perf_counter())

    async def start(self, timeout:float=180):
        "Open the page; return once its lobby has arrived (the mode buttons: a page opens on a solo game or on the tables' form)."
        await super().start(timeout, ready=lambda: self.widget('cgt-mode-open'))

    def widget(self, css_class:str) -> str|None:
        "The comm id of the widget carrying `css_class` (e.g. 'cgt-join'), if the page has it."
        return next((i for i, m in self.models.items() if css_class in m.get('_dom_classes', ())), None)

    async def _send(self, comm_id, data):
        await self.ws.send(self._message('comm_msg', {'comm_id': comm_id, 'data': data}))

    async def press(self, css_class:str, timeout:float=60):
        "Click the button carrying `css_class`, once the page has it."
        await asyncio.wait_for(self._until(lambda: self.widget(css_class)), timeout)
        await self._send(self.widget(css_class), {'method': 'custom', 'content': {'event': 'click'}})

    async def type(self, css_class:str, text:str, timeout:float=60):
        "Type `text` into the text box carrying `css_class` (the page sends the box's new value)."
        await asyncio.wait_for(self._until(lambda: self.widget(css_class)), timeout)
        box = self.widget(css_class)
        self.models[box]['value'] = text
        await self._send(box, {'method': 'update', 'state': {'value': text}, 'buffer_paths': []})

    def bar(self) -> str:
        i = self.widget('cgt-table-bar')
        return self.models.get(i, {}).get('value', '') if i else ''

    def moves(self) -> int|None:
        m = _MOVES.search(self.bar())
        return int(m.group(1)) if m else None

    def waiting(self) -> str:
        m = _WAITING.search(self.bar())
        return html.unescape(m.group(1)) if m else ''

    async def seated(self, timeout:float=120) -> str:
        "Wait until the table bar shows the table's code; return it."
        await asyncio.wait_for(self._until(lambda: _CODE.search(self.bar())), timeout)
        self.code = html.unescape(_CODE.search(self.bar()).group(1))
        return self.code

    async def open_table(self, name:str, seed:int|None=None):
        "On the start page: *Open a table* (the form's default game and players), the seed and the name typed, *Open the table*."
        await self.press('cgt-mode-open')
        await asyncio.wait_for(self._until(lambda: self.widget('cgt-open')), 60)
        if seed is not None: await self.type('cgt-seed', str(seed))
        await self.type('cgt-name', name)
        await self.press('cgt-open')
        return await self.seated()

    async def join_table(self, code:str, name:str):
        "On the start page: *Join a table*, the code and the name typed, *Join the table*."
        await self.press('cgt-mode-join')
        await self.type('cgt-code', code)
        await self.type('cgt-name', name)
        await self.press('cgt-join')
        return await self.seated()

    def my_turn(self) -> bool: return self.waiting().startswith('Your turn') and bool(self.lit())

    async def play(self, until:int, think=lambda: 0.0, timeout:float=300) -> list:
        """Play the seat until the table has `until` moves: at each turn think (`think()` s), click a lit card, wait until the
        bar counts the move. Returns (move number, when clicked) for each of this student's moves."""
        mine = []
        while (self.moves() or 0) < until:
            await asyncio.wait_for(self._until(lambda: (self.moves() or 0) >= until or self.my_turn()), timeout)
            if (self.moves() or 0) >= until: break
            await asyncio.sleep(think())
            n = self.moves()
            lit = self.lit()
            if not lit: continue
            t = time.perf_counter()
            await self._send(lit[0], {'method': 'custom', 'content': {'event': 'click'}})
            await asyncio.wait_for(self._until(lambda: (self.moves() or 0) > n), timeout)
            mine.append((n + 1, t))
        return mine
