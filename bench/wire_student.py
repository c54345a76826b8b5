"""A student without a browser: the classroom page's widget messages over the server's websocket, as the page sends them.

For `bench_classroom.py --wire K`: K of the N students are these, so the server carries a whole class while only N-K real
Chromium pages share this machine's cores with it (in a classroom every student's browser runs on their own device).
A wire student opens the page (for Solara's session cookie), opens a kernel websocket, asks Solara to run the app (the
`solara.control` comm's `run`, as the page's loader does), keeps every widget's state from the server's `comm_open` and
`update` messages, and clicks a lit card by sending the button's `click` (ipywidgets' custom message), as a page does.
A click's latency is from sending it until the server's answer has taken the card out of the hand (the button's slot
emptied or dropped from its row), the same moment the browser benchmark waits for, without drawing it.
Not a test; needs `websockets` (the `bench` extra).
"""
import asyncio, json, time, urllib.request, uuid
from datetime import datetime, timezone
import websockets


class WireStudent:
    "One student's session over the websocket: `await start()`, then `await click()` as often as wanted, then `await close()`."
    path = ''  # the page's path and query the app is run for, e.g. '?game=dehla-pakad&seed=9' (set before `start`)
    def __init__(self, port:int, host:str='127.0.0.1'):
        self.port, self.host, self.session = port, host, uuid.uuid4().hex
        self.models = {}  # comm id -> widget state (only the keys this client reads)
        self.changed = asyncio.Event()
        self.ws = self.reader = None

    def _message(self, msg_type, content, channel='shell') -> str:
        header = {'msg_id': uuid.uuid4().hex, 'msg_type': msg_type, 'session': self.session, 'username': 'student',
                  'date': datetime.now(timezone.utc).isoformat(), 'version': '5.3'}
        return json.dumps({'header': header, 'parent_header': {}, 'metadata': {}, 'content': content, 'channel': channel,
                           'buffers': []})

    async def start(self, timeout:float=180, ready=None):
        "Open the page and the app's session; return once the learner's lit cards have arrived (or `ready()` is true)."
        url = f'http://{self.host}:{self.port}/'
        answer = await asyncio.to_thread(urllib.request.urlopen, url, timeout=timeout)
        cookie = '; '.join(h.split(';', 1)[0] for h in answer.headers.get_all('Set-Cookie') or [])
        answer.read(); answer.close()
        self.ws = await websockets.connect(
            f'ws://{self.host}:{self.port}/jupyter/api/kernels/{uuid.uuid4()}/channels?session_id={uuid.uuid4()}',
            additional_headers={'Cookie': cookie}, max_size=2**24)
        self.reader = asyncio.create_task(self._read())
        control = uuid.uuid4().hex
        await self.ws.send(self._message('comm_open', {'comm_id': control, 'target_name': 'solara.control', 'data': {}}))
        await self.ws.send(self._message('comm_msg', {'comm_id': control, 'data': {
            'method': 'run', 'args': {'path': self.path, 'appName': '__default__'}}}))
        await asyncio.wait_for(self._until(ready or (lambda: self.lit())), timeout)

    async def _read(self):
        async for raw in self.ws:
            if isinstance(raw, bytes): continue  # a message with binary buffers (the chart's picture): nothing read from it
            msg = json.loads(raw)
            kind, content = msg['header']['msg_type'], msg.get('content', {})
            if kind == 'comm_open': self.models[content['comm_id']] = dict(content.get('data', {}).get('state', {}))
            elif kind == 'comm_msg' and content.get('data', {}).get('method') in ('update', 'echo_update'):
                self.models.setdefault(content['comm_id'], {}).update(content['data'].get('state', {}))
            elif kind == 'comm_close': self.models.pop(content.get('comm_id'), None)
            else: continue
            self.heard(content)
            self.changed.set()

    def heard(self, content):
        "Called with each widget message's content as it arrives (a subclass may note what it wants of it)."

    async def _until(self, done):
        while not done():
            self.changed.clear()
            await self.changed.wait()
        return done()

    def _rows(self, button) -> list:
        ref = f'IPY_MODEL_{button}'
        return [m for m in self.models.values() if ref in m.get('children', ())]

    def lit(self) -> list:
        """The comm ids of the learner's choices shown now: the lit card buttons in a row, or when no card is lit, the move
        buttons shown (a decision that is not a card, such as naming trump in Dehla Pakad)."""
        cards = [i for i, m in self.models.items() if 'cgt-legal' in m.get('_dom_classes', ()) and self._rows(i)]
        return cards or [ref.removeprefix('IPY_MODEL_') for m in self.models.values() if 'cgt-moves' in m.get('_dom_classes', ())
                         for ref in m.get('children', ())]

    async def click(self, timeout:float=20) -> float|None:
        """Click the first lit card (or move button): ms until the server's answer has taken it out of the hand (or the
        button out of its row); None: nothing to click now."""
        lit = self.lit()
        if not lit: return None
        button = lit[0]
        start = time.perf_counter()
        await self.ws.send(self._message('comm_msg', {'comm_id': button, 'data': {'method': 'custom', 'content': {'event': 'click'}}}))
        gone = lambda: 'cgt-empty' in self.models.get(button, {}).get('_dom_classes', ()) or not self._rows(button)
        await asyncio.wait_for(self._until(gone), timeout)
        return (time.perf_counter() - start) * 1000

    def button(self, description:str) -> str|None:
        "The comm id of the button shown with `description` (e.g. 'Hint'), if there is one."
        return next((i for i, m in self.models.items() if m.get('description') == description and m.get('_view_name') == 'ButtonView'), None)

    def hint_shown(self) -> str|None:
        "The hint box's text once it holds a hint (or says there is none), else None."
        return next((m['value'] for m in self.models.values() if isinstance(m.get('value'), str)
                     and (m['value'].startswith('<b>Hint:') or m['value'].startswith('<i>No hint'))), None)

    async def hint(self, timeout:float=120) -> float:
        "Press Hint at a moment with no hint shown yet: ms until the hint's text has arrived (searched, or from the shared cache)."
        button = self.button('Hint')
        if button is None: raise RuntimeError("no Hint button on the page")
        if self.hint_shown() is not None: raise RuntimeError("a hint is already shown: press Hint after a move")
        start = time.perf_counter()
        await self.ws.send(self._message('comm_msg', {'comm_id': button, 'data': {'method': 'custom', 'content': {'event': 'click'}}}))
        await asyncio.wait_for(self._until(lambda: self.hint_shown() is not None), timeout)
        return (time.perf_counter() - start) * 1000

    async def wait_lit(self, timeout:float=30):
        await asyncio.wait_for(self._until(lambda: self.lit()), timeout)

    async def close(self):
        if self.ws is not None: await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()
            try: await self.reader
            except (asyncio.CancelledError, websockets.ConnectionClosed): pass


if __name__ == '__main__':  # a quick look: one wire student on a running classroom server, PORT given
    import sys
    async def main(port):
        s = WireStudent(port)
        t = time.perf_counter(); await s.start(); print(f"working after {time.perf_counter() - t:.1f} s, {len(s.models)} widgets")
        for _ in range(5):
            await s.wait_lit(); print(f"click: {await s.click():.0f} ms")
            await asyncio.sleep(1)
        await s.close()
    asyncio.run(main(int(sys.argv[1])))
