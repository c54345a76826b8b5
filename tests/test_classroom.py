"""The classroom server (`make classroom`: Solara behind `ClassroomGate`), tried as a hostile visitor would.

The tests share one real server (`cardgames-classroom`, or start their own when they need other options) on a free
loopback port, in its own process group, killed in a `finally`; `PAGE_JS` alone is tried on a blank page. A visitor is a real headless Chromium page, or a plain HTTP/websocket client doing what a
page would not. Skipped with a message without Solara, playwright or Debian's Chromium (/usr/bin/chromium).
"""
import contextlib, importlib.util, json, os, pathlib, platform, shutil, signal, socket, struct, subprocess, sys, time, urllib.error, urllib.request, uuid
import pytest

pytestmark = pytest.mark.browser
from helpers import ROOT, POLL, wait_shown, no_chromium, free_port, port_open, served, classroom_server, malloc_env

def _missing() -> str:
    for mod, what in (('solara', "Solara (pip install -e '.[classroom]')"), ('websockets', 'websockets'),
                      ('playwright.sync_api', 'Python playwright (never run `playwright install`)'), ('psutil', 'psutil')):
        # found, not imported: importing Solara patches ipywidgets' comms for every later test in this process
        if importlib.util.find_spec(mod.split('.')[0]) is None: return f"{what} is not installed"
    if no_chromium(): return no_chromium()
    return ''

if _missing(): pytest.skip(_missing(), allow_module_level=True)
import psutil
from websockets.sync.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

@contextlib.contextmanager
def classroom(*args, restarts=False):
    """The classroom server as `make classroom` starts it, on a free loopback port; killed (whole group) on the way out.
    Given glibc's allocator from the start (`helpers.malloc_env`), unless `restarts`: then it starts itself again on it,
    as `cardgames-classroom` does (`coded_server`: `test_the_server_runs_on_the_c_allocator` checks it)."""
    with classroom_server(*args, env=None if restarts else malloc_env()) as (addr, proc): yield addr, proc

@pytest.fixture(scope='module')
def server():
    "The module's server, on glibc's allocator from the start (`coded_server` is the one that starts itself again on it)."
    with classroom() as (addr, proc): yield addr, proc

CODE = 'kq7m-x2pd'

@pytest.fixture(scope='module')
def coded_server():
    """The class with a code (`test_the_code_is_required`), started as `cardgames-classroom` starts: it starts itself again
    on glibc's allocator (`test_the_server_runs_on_the_c_allocator` checks it). One server starts twice, not two."""
    with classroom('--code', CODE, restarts=True) as (addr, proc): yield addr, proc

def get(url, cookie=None, method='GET', data=None, timeout=20):
    "(status, body, headers) of a plain HTTP request, redirects not followed."
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *a, **k): return None
    req = urllib.request.Request(url, method=method, data=data, headers={'Cookie': cookie} if cookie else {})
    try:
        with urllib.request.build_opener(NoRedirect).open(req, timeout=timeout) as r: return r.status, r.read(), r.headers
    except urllib.error.HTTPError as e: return e.code, e.read(), e.headers

def session_cookie(addr) -> str:
    "A fresh visitor's Solara session cookie (from loading the page once)."
    status, _, headers = get(f'http://{addr}/')
    assert status == 200
    return next(c.split(';')[0] for c in headers.get_all('Set-Cookie') if c.startswith('solara-session-id='))

def kernel_msg(msg_type, content, channel='shell') -> str:
    return json.dumps({'header': {'msg_id': uuid.uuid4().hex, 'msg_type': msg_type, 'session': uuid.uuid4().hex,
                                  'username': '', 'date': '', 'version': '5.3'},
                       'parent_header': {}, 'metadata': {}, 'content': content, 'channel': channel, 'buffers': []})

def kernel_socket(addr, kernel_id=None, cookie=None, **kw):
    "A websocket to a (new) virtual kernel, as a script would open it: no browser, no subprotocol."
    url = f'ws://{addr}/jupyter/api/kernels/{kernel_id or uuid.uuid4()}/channels?session_id={uuid.uuid4()}'
    return connect(url, additional_headers={'Cookie': cookie} if cookie else None, proxy=None, open_timeout=20, **kw)

@pytest.fixture(scope='module')
def tab(browsers):
    """The module's one browser tab for its students' pages (`student`): each loads the classroom page again in it, its
    cookies cleared first (a visitor of its own to the server, as a browser context of its own was). A cold page in a new
    context cost Chromium ~4.7 CPU-s; the same page loaded again in the same tab ~2.5-3 (its renderer keeps what it
    compiled, its cache the scripts). `SHARED` says which shared page it holds now (`seed_3_page`)."""
    with browsers.page() as page:
        SHARED.clear()
        try: yield page
        finally: SHARED.clear()

SHARED = {}  # the shared page the tab holds now: 'seed 3' -> its kernel id (`seed_3_page`), or 'seed 1' (`seed_1_page`)

def visitor(page, viewport=(1100, 1000)):
    "`page` (the module's `tab`) as a new visitor's: no cookie of an earlier page's, a window of `viewport`."
    if page is SHARED.get('tab'): SHARED.clear()  # whatever shared page the tab held is gone from here on
    page.context.clear_cookies()
    page.set_viewport_size({'width': viewport[0], 'height': viewport[1]})
    return page

@contextlib.contextmanager
def student(page, addr, query='?seed=3&pace=0'):
    """A student's page loaded in `page` (the module's `tab`, or a page of its own) as a new visitor (`visitor`: a window
    of 1100x1000), open and working; yields (page, kernel id)."""
    visitor(page)
    sockets, seen = [], lambda ws: sockets.append(ws.url)
    page.on('websocket', seen)
    try:
        page.goto(f'http://{addr}/{query}', timeout=60_000)
        wait_shown(page, 'button.cgt-card.cgt-legal', 90_000)
    finally: page.remove_listener('websocket', seen)
    kernel = next(u.split('/kernels/')[1].split('/')[0] for u in sockets if '/kernels/' in u)
    yield page, kernel

@pytest.fixture
def seed_3_page(server, tab):
    """One student's page of seed 3, (page, kernel id), for the tests that look at a working page and play a move or a
    few on it (another visitor's attempt on its session, the cards' looks, its pictures, a malformed frame's neighbour):
    one page load, not four (the tests come one after another). Each takes the page where the last left it, at the
    student's turn, within the first hand (a few of its 13 moves: the cards' looks stop as soon as both looks are seen).
    Loaded again (in the tab) only when another test's page has taken the tab since."""
    if 'seed 3' not in SHARED:
        with student(tab, server[0]) as (_, kernel): SHARED.update({'tab': tab, 'seed 3': kernel})
    return tab, SHARED['seed 3']

def click_answered(page, timeout=60_000) -> float:
    """Click the first lit card; seconds until that card has left the hand (the server answered). The timeout is for
    a server that never answers: a loaded machine's slow answer is not a failure here (bench/ has the figures)."""
    card = page.locator('button.cgt-card.cgt-legal').first
    name, start = card.get_attribute('title'), time.perf_counter()
    card.click()
    page.wait_for_function("name => ![...document.querySelectorAll('button.cgt-card')].some(b => b.title === name)",
                           arg=name, polling=POLL, timeout=timeout)
    return time.perf_counter() - start

def closed_soon(ws, seconds=30) -> bool:
    "Whether the server closes `ws` within `seconds` (messages before the close are read and dropped)."
    end = time.time() + seconds
    try:
        while time.time() < end: ws.recv(timeout=max(0.1, end - time.time()))
    except ConnectionClosed: return True
    except TimeoutError: return False
    return False

def rss_mb(proc) -> float:
    p = psutil.Process(proc.pid)
    return sum(q.memory_info().rss for q in [p, *p.children(recursive=True)]) / 2**20

SECRETS = [b'[build-system]', b'root:x:0:0', b'"cells"', b'cardgames_tutor.serve.classroom']  # pyproject, /etc/passwd, a notebook, source

# ------------------------------------------------------------------ no server path, no code, from the page

def test_no_file_or_jupyter_api_is_reachable(server):
    "Jupyter's file, contents, terminal and kernel APIs do not exist here, and no path escapes the static folders."
    addr, _ = server
    for path in ['/api/contents', '/api/contents/pyproject.toml', '/files/pyproject.toml', '/tree', '/lab', '/edit/Makefile',
                 '/api/terminals', '/terminals/1', '/api/kernels', '/api/sessions', '/notebooks/nbs/tutorials/start.ipynb',
                 '/voila/render/start.ipynb', '/static/../pyproject.toml', '/static/%2e%2e/pyproject.toml',
                 '/static/public/..%2f..%2fpyproject.toml', '/static/assets/%2e%2e/%2e%2e/pyproject.toml',
                 '/jupyter/nbextensions/..%2f..%2f..%2f..%2f..%2f..%2fetc/passwd', '/_solara/cdn/..%2f..%2f..%2fetc%2fpasswd',
                 '/static/public/../../../../../../etc/passwd', '/cardgames_tutor/serve/classroom.py', '/nbs/serve/33_classroom.ipynb']:
        status, body, _ = get(f'http://{addr}{path}')
        leaked = [s for s in SECRETS if s in body]
        assert not leaked, f"GET {path} answered {status} with {leaked}"
    for method in ('PUT', 'POST', 'PATCH', 'DELETE'):
        status, _, _ = get(f'http://{addr}/api/contents/pwned.json', method=method, data=b'{"type": "file", "content": "x"}')
        assert status in (404, 405), (method, status)
        assert not (ROOT / 'pwned.json').exists()
    status, _, _ = get(f'http://{addr}/api/kernels', method='POST', data=b'{}')
    assert status in (404, 405), status  # no way to start a kernel of one's own

def test_a_kernel_message_runs_no_code(server, tmp_path):
    "An execute_request sent down the page's websocket runs nothing: Solara's kernels take widget messages only."
    addr, proc = server
    target = tmp_path / 'pwned.txt'
    with kernel_socket(addr, cookie=session_cookie(addr)) as ws:
        ws.send(kernel_msg('execute_request', {'code': f'open({str(target)!r}, "w").write("x")', 'silent': False,
                                               'store_history': False, 'user_expressions': {}, 'allow_stdin': False}))
        with contextlib.suppress(ConnectionClosed, TimeoutError):
            for _ in range(20): ws.recv(timeout=2)
    time.sleep(1)
    assert not target.exists(), "code sent by a visitor ran on the server"
    assert proc.poll() is None and get(f'http://{addr}/')[0] == 200

def test_the_page_writes_and_reads_no_server_path(server, tab, tmp_path):
    "Type a server path into every text box of the page and press every button: no file appears, none is read."
    addr, _ = server
    target = tmp_path / 'written.json'
    secret = tmp_path / 'secret.json'
    secret.write_text('{"this": "is on the server"}')
    usable = lambda e: e.is_visible() and e.is_enabled()  # a hidden or disabled one cannot be used (Playwright waited 2 s on each to say so)
    with student(tab, addr) as (page, _):
        for i in range(page.locator('summary, .p-Collapse-header, .jupyter-widget-Collapse-header').count()):
            header = page.locator('summary, .p-Collapse-header, .jupyter-widget-Collapse-header').nth(i)
            with contextlib.suppress(Exception):
                if usable(header): header.click(timeout=2000)
        for path in (str(target), str(secret)):
            boxes = page.locator('input[type=text], textarea')
            for i in range(boxes.count()):
                with contextlib.suppress(Exception):
                    if usable(boxes.nth(i)): boxes.nth(i).fill(path, timeout=2000); boxes.nth(i).press('Enter')
            buttons = page.locator('button:not(.cgt-card)')
            for i in range(buttons.count()):
                with contextlib.suppress(Exception):
                    if usable(buttons.nth(i)): buttons.nth(i).click(timeout=2000)
            page.wait_for_timeout(1500)
            assert 'is on the server' not in page.content()
    assert not target.exists(), "the page wrote a file on the server"

# ------------------------------------------------------------------ one visitor cannot reach another's session

def test_a_visitor_cannot_attach_to_another_students_kernel(server, seed_3_page):
    "Knowing a student's kernel id (say, read off their screen) is not enough to attach to their session and drive it."
    addr, _ = server
    page, kernel = seed_3_page
    wait_shown(page, 'button.cgt-card.cgt-legal', 30_000)  # the student's turn: the page still
    before = page.inner_text('.cgt-status')
    for cookie in (session_cookie(addr), None):
        got = []
        try:
            with kernel_socket(addr, kernel, cookie=cookie) as ws:
                ws.send(kernel_msg('comm_info_request', {'target_name': 'jupyter.widget'}))
                with contextlib.suppress(ConnectionClosed, TimeoutError):
                    for _ in range(20): got.append(ws.recv(timeout=3))
        except InvalidStatus: pass  # refused before it opened (the gate: another browser's session, or no session cookie)
        assert not any('comm_info_reply' in str(m) or 'cgt-' in str(m) for m in got), got[:3]
    assert page.inner_text('.cgt-status') == before
    click_answered(page)  # the student's own session goes on
    status, body, _ = get(f'http://{addr}/resourcez')
    assert kernel.encode() not in body, "the server lists a student's kernel id to anyone"

# ------------------------------------------------------------------ what the page looks like, and what it loads

LOOKS = """() => [...document.querySelectorAll('button.cgt-card')].filter(b => b.offsetParent).map(b => {
  const s = getComputedStyle(b); return [b.className, s.borderTopColor, s.borderTopWidth, s.color]; })"""

def rgb(hex_colour) -> str:
    h = hex_colour.lstrip('#')
    if len(h) == 3: h = ''.join(2 * x for x in h)
    return 'rgb({}, {}, {})'.format(*(int(h[i:i + 2], 16) for i in (0, 2, 4)))

def test_cards_look_as_their_state_says(seed_3_page):
    """The card buttons' look comes from the panel's stylesheet: a lit card has a green edge, a faded one grey text,
    every other card its suit's colour; the page loads no diagram library (Solara's Markdown would)."""
    from cardgames_tutor.core.cards import SUIT_COLOURS
    page, _ = seed_3_page
    wait_shown(page, 'button.cgt-card.cgt-legal', 30_000)  # the student's turn
    scripts = page.evaluate("() => performance.getEntriesByType('resource').map(r => r.name)")
    assert not [u for u in scripts if 'mermaid' in u], "the page loaded mermaid"
    seen = set()
    for _ in range(8):
        for classes, edge, width, colour in page.evaluate(LOOKS):
            state = next(c for c in classes.split() if c in ('cgt-legal', 'cgt-illegal', 'cgt-idle', 'cgt-chosen'))
            suit = next(c[4:] for c in classes.split() if c[4:] in SUIT_COLOURS)
            seen.add(state)
            if state == 'cgt-legal': assert (edge, width) == (rgb('#2e7d32'), '2px'), (classes, edge, width)
            assert colour == (rgb('#5f5f5f') if state == 'cgt-illegal' else rgb(SUIT_COLOURS[suit])), (classes, colour)
        if {'cgt-legal', 'cgt-illegal'} <= seen: break
        click_answered(page)
    assert {'cgt-legal', 'cgt-illegal'} <= seen, seen

# pictures shown on the page that did not load (a browser draws an empty one as a broken-image icon)
BROKEN = """() => [...document.querySelectorAll('img')].filter(i => i.getClientRects().length && !(i.complete && i.naturalWidth))
  .map(i => i.outerHTML.slice(0, 90))"""
DRAWN = "() => [...document.querySelectorAll('img')].filter(i => i.getClientRects().length && i.naturalWidth).length"

def test_no_picture_is_drawn_broken(seed_3_page):
    """Every picture on the page has loaded or is hidden: the hint's chart before a hint (no test asks for one before
    this), and again after the move that clears it, is hidden, not an empty picture drawn as a broken-image icon."""
    page, _ = seed_3_page
    wait_shown(page, 'button.cgt-card.cgt-legal', 30_000)  # the student's turn: a hint to ask for
    assert page.evaluate(BROKEN) == []
    page.get_by_role('button', name='Hint', exact=True).click()
    page.wait_for_function(DRAWN, polling=POLL, timeout=30_000)  # the chart of the compared cards
    assert page.evaluate(BROKEN) == []
    click_answered(page)
    page.wait_for_function(f"() => !({DRAWN})()", polling=POLL, timeout=15_000)  # the move cleared the hint
    assert page.evaluate(BROKEN) == []

# ------------------------------------------------------------------ no single visitor can stall the server

def test_a_malformed_frame_does_not_stall_the_server(server, seed_3_page):
    """The Voilà freeze, tried on Solara: a kernel websocket opened without the browser's subprotocol, then binary
    widget messages whose header claims two billion parts (Solara would build a 2 GB format string), a flood of
    junk, and oversized messages. Another student's clicks are still answered, and the page (a stalled server never
    answers: the timeouts are a minute, for a loaded machine), and the server's memory does not grow by more than 150 MB."""
    addr, proc = server
    page, _ = seed_3_page
    wait_shown(page, 'button.cgt-card.cgt-legal', 30_000)  # the student's turn
    before = rss_mb(proc)
    good = json.dumps({'header': {'msg_type': 'comm_msg'}}).encode()
    freeze = struct.pack('!iI', 2**31 - 1, 8) + good
    with contextlib.ExitStack() as stack:
        attackers = [stack.enter_context(kernel_socket(addr, cookie=session_cookie(addr), max_size=None)) for _ in range(3)]
        for ws in attackers:
            with contextlib.suppress(ConnectionClosed): ws.send(freeze)
        with kernel_socket(addr, cookie=session_cookie(addr), max_size=None) as ws:
            with contextlib.suppress(ConnectionClosed):
                for _ in range(300): ws.send(kernel_msg('comm_msg', {'comm_id': 'nope', 'data': {'method': 'update'}}))
                ws.send(b'\0' * (8 * 2**20))  # over the 4 MB a message may have
        for _ in range(3):
            click_answered(page)
            assert get(f'http://{addr}/', timeout=60)[0] == 200
        assert rss_mb(proc) - before < 150, f"memory grew from {before:.0f} MB to {rss_mb(proc):.0f} MB"
        assert all(closed_soon(ws) for ws in attackers)  # each malformed frame closed its own websocket

def page_js() -> str:
    "`PAGE_JS` as the pages module writes it, read from its source (importing the module imports Solara)."
    import ast
    tree = ast.parse((ROOT / 'cardgames_tutor' / 'serve' / 'pages.py').read_text())
    return next(n.value.value for n in tree.body if isinstance(n, ast.Assign) and getattr(n.targets[0], 'id', '') == 'PAGE_JS')

# The page's timers on a clock the test moves on by hand: what `PAGE_JS` does cannot depend on the machine's load.
HOLD = """async ([js, steps]) => {
  const ws = new WebSocket('ws://127.0.0.1:9/');  // nothing listens: it closes at once; its messages are dispatched by hand
  await new Promise(done => ws.addEventListener('close', done));
  let now = 0, id = 0; const timers = new Map();
  performance.now = () => now;
  window.setTimeout = (f, ms = 0) => { timers.set(++id, [now + ms, f]); return id; };
  window.clearTimeout = i => timers.delete(i);
  const wait = ms => {
    const end = now + ms;
    for (;;) {
      let next = null;
      for (const [i, [t, f]] of timers) if (t <= end && (!next || t < next[1])) next = [i, t, f];
      if (!next) break;
      timers.delete(next[0]); now = next[1]; next[2]();
    }
    now = end;
  };
  if (js) (0, eval)(js);
  const handed = [], seenAt = []; let open = false;  // the messages handed over together, one list per batch
  ws.onmessage = ev => {
    if (!open) { open = true; handed.push([]); queueMicrotask(() => { open = false; }); }
    handed.at(-1).push(ev.data);
  };
  const status = state => JSON.stringify({header: {msg_type: 'status'}, content: {execution_state: state}});
  for (const [what, arg] of steps) {
    if (what === 'wait') wait(arg);
    else ws.dispatchEvent(new MessageEvent('message', {data: what === 'status' ? status(arg) : arg}));
    seenAt.push(handed.flat().length);
    await Promise.resolve();  // a task boundary's microtasks: a batch ends here
  }
  return [handed.map(b => b.map(d => d.includes('execution_state') ? JSON.parse(d).content.execution_state : d)), seenAt];
}"""

CLICK = [('status', 'busy'), ('send', 'u1'), ('wait', 40), ('send', 'u2'), ('wait', 100), ('send', 'u3'), ('status', 'idle')]
PUSH = [('send', 'a'), ('wait', 10), ('send', 'b'), ('wait', 10), ('send', 'c'), ('wait', 29), ('wait', 1)]
SLOW = [('status', 'busy'), ('send', 'u1'), ('wait', 200), ('send', 'u2'), ('wait', 49), ('wait', 1), ('send', 'u3'),
        ('status', 'idle')]

def handed_over(page, steps, js=None):
    "The batches in which `PAGE_JS` (or `js`) hands the page's messages to the widgets, and how many it had handed after each step."
    page.goto('about:blank')  # a fresh page each time: nothing of the last run's script or clock is left
    return page.evaluate(HOLD, [page_js() if js is None else js, steps])

def test_an_update_is_handed_over_whole(tab):
    """`PAGE_JS` hands each update to the widgets in one piece, so the page draws it in one frame: the answer to a click
    (from "busy" to "idle", however far apart its messages come), and a paced bot's move (messages less than 30 ms
    apart); a server that never says "idle" holds the page 250 ms at most. Without it each message was drawn alone and
    9 frames of 6 clicks showed cards lit while the status said someone else's turn (`bench/bench_frames.py` counts them)."""
    page = visitor(tab)  # (blank pages in the module's tab)
    batches, seen = handed_over(page, CLICK)
    assert batches == [['busy', 'u1', 'u2', 'u3', 'idle']] and seen[:-1] == [0] * 6  # nothing before the "idle"
    batches, seen = handed_over(page, PUSH)
    assert batches == [['a', 'b', 'c']] and seen == [0, 0, 0, 0, 0, 0, 3]  # 30 ms of quiet after the last
    batches, seen = handed_over(page, SLOW)
    assert batches == [['busy', 'u1', 'u2'], ['u3', 'idle']] and seen[5] == 3  # 250 ms after the first message
    batches, _ = handed_over(page, CLICK, js='')
    assert len(batches) == 5  # the check can fail: the plain page hands each message over alone

def test_the_page_holds_its_updates_and_agrees_with_itself(server, tab):
    """The classroom page runs `PAGE_JS`, and after each click, once play is back with the learner, the cards lit and the
    status agree (a paced game: the bots' moves came as updates of their own)."""
    addr, _ = server
    with student(tab, addr, '?seed=3&pace=0.2') as (page, _):
        assert page.evaluate("() => String(Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage').set)"
                             ".includes('_cgtHandler')")
        for _ in range(4):
            click_answered(page, timeout=60_000)
            page.wait_for_function("() => (document.querySelector('.cgt-status')?.textContent || '').includes('your turn')",
                                   polling=POLL, timeout=60_000)
            wait_shown(page, 'button.cgt-card.cgt-legal', 60_000)
            assert 'your turn' in page.inner_text('.cgt-status')

# trace categories that say why Chromium laid a box out again (among the reasons: its scrollbar came or went)
SCROLLBARS = ['devtools.timeline', 'disabled-by-default-devtools.timeline.invalidationTracking']

def test_the_page_keeps_its_scrollbar(server, browsers):
    """The page's scroller keeps its scrollbar through every update (`PAGE_CSS`), in a browser that draws scrollbars as
    a desktop's does. Without it, the scrollbar of Solara's scroller went and came back within each update of a page just
    taller than the window, and Chromium laid out the whole page again each time (16 times over 2 clicks)."""
    addr, _ = server
    with browsers.page(launch={'ignore_default_args': ['--hide-scrollbars']}) as own, \
            student(own, addr, '') as (page, _):  # seed 1: a page 1,027 px tall in this window
        page.wait_for_function("() => { const s = document.querySelector('main.solara-content-main > div');"
                               " return s.scrollHeight > s.clientHeight; }", polling=POLL, timeout=30_000)  # the page, drawn whole, needs its scrollbar
        browser = page.context.browser
        browser.start_tracing(page=page, categories=SCROLLBARS)
        for _ in range(2):
            wait_shown(page, 'button.cgt-card.cgt-legal', 30_000)
            click_answered(page)
        wait_shown(page, 'button.cgt-card.cgt-legal', 30_000)
        events = json.loads(browser.stop_tracing())['traceEvents']
    layouts = [e for e in events if e.get('name') == 'Layout']
    changed = [e['args']['data'].get('nodeName', '') for e in events if e.get('name') == 'LayoutInvalidationTracking'
               and e['args']['data'].get('reason') == 'Scrollbar changed']
    assert len(layouts) >= 4, len(layouts)  # the updates were traced
    assert [n for n in changed if 'cgt-log' not in n] == [], changed  # (the log's box gets its scrollbar when the log first fills it)

LOG_SEEN = """() => { const box = document.querySelector('.cgt-log').getBoundingClientRect(), rows = document.querySelectorAll('.cgt-log .cgt-event');
  const last = rows[rows.length - 1].getBoundingClientRect();
  return [rows.length, last.top >= box.top - 1 && last.bottom <= box.bottom + 1]; }"""
LOG_ADDED = """() => { window.__added = 0; new MutationObserver(ms => { for (const m of ms) for (const n of m.addedNodes)
  if (n.nodeType === 1) window.__added += n.matches('.cgt-event') + n.querySelectorAll('.cgt-event').length; })
  .observe(document.body, {childList: true, subtree: true}); }"""

def test_the_log_shows_its_newest_row_and_redraws_only_its_latest_rows(server, tab):
    """The log's box scrolls to its newest row, and a click redraws only the log's latest part (`LOG_CHUNK` rows at
    most), except when that part is full and moves up. Drawn as one piece, every click drew the whole log again."""
    from cardgames_tutor.ui.drawing import LOG_CHUNK
    addr, _ = server
    with student(tab, addr) as (page, _):
        added = []
        for i in range(12):  # of the 13 cards of the first hand
            wait_shown(page, 'button.cgt-card.cgt-legal', 30_000)
            if i == 8: page.evaluate(LOG_ADDED)
            click_answered(page)
            if i >= 8: added.append(page.evaluate('window.__added')); page.evaluate('window.__added = 0')
        rows, seen = page.evaluate(LOG_SEEN)
    assert rows > 2 * LOG_CHUNK and seen, (rows, seen)
    assert 0 < min(added) <= LOG_CHUNK, added

# ------------------------------------------------------------------ the access code

def test_the_code_is_made_up_for_a_network_address():
    "Bound to a network address with no code given, `serve` makes one up, prints it, and the gate asks for it."
    # In its own process: importing the classroom (Solara) patches ipywidgets' comms for every later test here.
    script = """if True:
        import uvicorn
        from cardgames_tutor.serve import classroom
        ran = {}
        uvicorn.run = lambda app, **kw: ran.update(app=app, **kw)
        classroom.serve('0.0.0.0', 8866)
        code = ran['app'].code
        assert code and ran['host'] == '0.0.0.0' and len(code) == 9, ran
        classroom.serve('127.0.0.1', 8866)
        assert ran['app'].code is None  # the teacher's own machine: nobody else can connect
        print('MADE', code)"""
    r = subprocess.run([sys.executable, '-c', script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-800:]
    code = r.stdout.split('MADE ')[-1].strip()
    assert f'Class code: {code}' in r.stdout

def test_the_log_says_how_to_stop_the_server_started_in_the_background(server):
    """The server's log said "Ctrl-C stops the server." also when it ran in the background, its output in a file (the
    README's `nohup ... &`), where no Ctrl-C reaches it. Started so here (no terminal), its log gives `kill` and its own
    process number (a walker's `cd ... && nohup ... & echo $!` printed a subshell's, which stopped nothing), as the README says."""
    import threading
    addr, proc = server
    lines = []
    def read():  # its first lines: printed before it listens, so before the fixture handed it over
        while not any('stop' in x for x in lines) and (line := proc.stdout.readline()): lines.append(line)
    reader = threading.Thread(target=read, daemon=True); reader.start(); reader.join(30)
    said = next((x for x in lines if 'stop' in x), '')
    assert f"kill {proc.pid}" in said and 'background' in said and 'Ctrl-C' not in said, lines
    readme = (ROOT/'README.md').read_text()
    assert 'the `kill` command that stops the server' in readme and 'echo $!' not in readme  # the README sends the teacher to the log's number

def test_a_server_stopped_with_kill_leaves_no_folder_behind(tmp_path):
    """`kill`, as the server's log tells a teacher to stop it (and as JupyterHub stops its service), ended the server at
    once, so Python never removed the page's folder of script and style it had made: every start left one in /tmp (650 on
    a test machine). Now it ends as on Ctrl-C: the folder is there while it serves and gone once it has stopped; it exits 0
    (`make classroom` said "Error 143"), and its log ends by saying it has stopped."""
    made = lambda: sorted(tmp_path.glob('cgt-classroom-page-*'))
    with classroom_server(env={**malloc_env(), 'TMPDIR': str(tmp_path)}) as (addr, proc):
        assert len(made()) == 1 and (made()[0] / 'custom.js').is_file(), made()
        proc.terminate()  # SIGTERM, as `kill PID` sends
        said = proc.communicate(timeout=30)[0]
    assert proc.returncode == 0 and made() == [], (proc.returncode, made())  # stopped as asked: `make classroom` reports no error
    assert said.rstrip().endswith('The classroom server has stopped.'), said[-300:]  # and its log says so

def test_closed_sessions_threads_end_and_memory_is_given_back():
    """Each student's websocket is served in a thread of anyio's pool, which ends idle threads only when it is next used.
    Once sessions have closed, the memory keeper uses the pool: the class's idle threads end (29 threads were about 8 MB).
    It also empties the caches the class filled: the log's card texts, and Python's type-attribute cache, which held an
    attribute name made afresh (as traitlets makes `_value_changed` at every change)."""
    script = """if True:
        import anyio, asyncio, sys, threading, time
        from anyio._backends._asyncio import WorkerThread
        from cardgames_tutor.serve import housekeeping
        from cardgames_tutor.ui.table import cards_text_html
        class Panel: pass
        name = ''.join(['_value', '_changed'])
        hasattr(Panel(), name)  # the type-attribute cache now holds this very string
        cards_text_html('Seat 1 plays QS')
        held = sys.getrefcount(name)
        WorkerThread.MAX_IDLE_TIME = 0.2  # anyio's 10 s, shortened for the test
        open_sessions = [10]
        async def main():
            await asyncio.gather(*[anyio.to_thread.run_sync(time.sleep, 0.3) for _ in range(10)])  # ten students at once
            class_here = threading.active_count()
            keeper = asyncio.create_task(housekeeping.give_back_memory(0.5, lambda: open_sessions[0], idle=0.3, forget=lambda: 0))
            await asyncio.sleep(1.2)
            still_here = threading.active_count()  # no session closed yet: nothing ended
            open_sessions[0] = 0  # the class leaves
            for _ in range(300):  # the keeper looks every 0.5 s; a loaded machine may take a while
                if threading.active_count() <= 2 and not cards_text_html.cache_info().currsize and sys.getrefcount(name) < held: break
                await asyncio.sleep(0.1)
            keeper.cancel()
            print('THREADS', class_here, still_here, threading.active_count())
            print('CACHES', cards_text_html.cache_info().currsize, held - sys.getrefcount(name))
        asyncio.run(main())"""
    r = subprocess.run([sys.executable, '-c', script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-800:]
    class_here, still_here, after = map(int, r.stdout.split('THREADS ')[-1].split('\n')[0].split())
    assert class_here >= 11 and still_here == class_here, (class_here, still_here)
    assert after <= 2, f"{after} threads left once the class had gone (from {class_here})"
    assert r.stdout.split('CACHES ')[-1].split() == ['0', '1'], r.stdout  # no card text kept; the cache let go of the name

def test_the_server_runs_on_the_c_allocator(coded_server):
    """`cardgames-classroom` starts itself again on glibc's allocator (`PYTHONMALLOC=malloc`), which gives free pages back
    after a class (Python's own kept 22-26 MB); a PYTHONMALLOC already set is kept, and it starts again only once."""
    if platform.libc_ver()[0] != 'glibc': pytest.skip("glibc's allocator (malloc_trim) is missing: not a glibc system, the server keeps Python's allocator")
    _, proc = coded_server
    environ = open(f'/proc/{proc.pid}/environ', 'rb').read().split(b'\0')
    assert f"PYTHONMALLOC={os.environ.get('PYTHONMALLOC') or 'malloc'}".encode() in environ
    script = ("import os; print('MALLOC', os.environ.get('PYTHONMALLOC'), flush=True); "
              "from cardgames_tutor.serve.housekeeping import on_system_malloc; on_system_malloc(); print('RAN')")
    plain = {k: v for k, v in os.environ.items() if k != 'PYTHONMALLOC'}
    for env, said in ((plain, 'MALLOC None MALLOC malloc RAN'), ({**plain, 'PYTHONMALLOC': 'pymalloc'}, 'MALLOC pymalloc RAN')):
        r = subprocess.run([sys.executable, '-c', script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0 and ' '.join(r.stdout.split()) == said, (r.stdout, r.stderr[-400:])

def test_the_code_is_required(coded_server, tab):
    "With a code, nothing of the app is served without it: pages ask for it, websockets are refused; the link works."
    addr, _ = coded_server
    status, body, _ = get(f'http://{addr}/?seed=3')
    assert status == 401 and b'class code' in body and b'solara' not in body.lower()
    for path in ('/static/main-vuetify.js', '/jupyter/nbextensions/jupyter-vue/nodeps.js', '/readyz'):
        assert get(f'http://{addr}{path}')[0] == 401, path
    assert get(f'http://{addr}/resourcez')[0] == 404  # not there for anyone (the host's CPU and memory)
    assert get(f'http://{addr}/?code=wrong-code')[0] == 401
    with pytest.raises(InvalidStatus):
        with kernel_socket(addr, cookie=session_cookie_or_none(addr)) as ws: ws.recv(timeout=5)
    page = visitor(tab, (1280, 720))  # (a new page's own size)
    page.goto(f'http://{addr}/?seed=3&pace=0', timeout=60_000)
    assert 'class code' in page.inner_text('body')
    page.fill('input[name=code]', 'KQ7M-X2PD')
    page.click('button')
    wait_shown(page, 'button.cgt-card.cgt-legal', 90_000)
    assert 'code=' not in page.url and 'seed=3' in page.url
    click_answered(page)

def session_cookie_or_none(addr):
    with contextlib.suppress(Exception): return session_cookie(addr)

FLOOR_PLAY = """if True:
    import asyncio, json, runpy, sys
    floor = runpy.run_path(sys.argv[1])
    async def play():
        f = floor['Floor']()
        floor['Floor'].play.__globals__['PACE'] = 0.01  # (run_path gives a copy of the globals)
        card = f.cards[3]; name = card.tooltip
        card.click(); card.click()  # the second click comes while the others play: ignored
        during = (len(f.hand.children), f.status.value)
        for _ in range(600):  # three moves 0.01 s apart; a loaded machine may take longer
            await asyncio.sleep(0.05)
            if f.status.value == '<b>your turn</b>': break
        return [during, (len(f.hand.children), f.status.value, f.table.value, f.clicks, name, card.tooltip,
                         len({b.tooltip for b in f.cards}))]
    print(json.dumps(asyncio.run(play())))"""

def test_the_floor_page_plays_as_the_benchmark_expects():
    "`bench/floor_app.py` (the floor of `bench_classroom.py`): a click takes the hand away, three moves, the hand back, the card renamed."
    out = subprocess.run([sys.executable, '-c', FLOOR_PLAY, str(ROOT / 'bench' / 'floor_app.py')], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-800:]
    during, after = json.loads(out.stdout.splitlines()[-1])
    assert during == [0, 'Seat 1 to play']  # nothing lit while the others play
    hand, status, table, clicks, name, renamed, names = after
    assert (hand, status, clicks) == (10, '<b>your turn</b>', 1) and 'Seat 3 played' in table
    assert renamed != name and names == 10  # the benchmark times a click until the name clicked has gone from the page

AXE = ROOT / 'tests' / 'node_modules' / 'axe-core' / 'axe.min.js'

@pytest.fixture
def seed_1_page(server, tab):
    """A student's page of seed 1, loaded once (in the tab) for both window sizes of the accessibility test (each sets
    its own size; they come one after the other), again only if another test's page has taken the tab since."""
    if 'seed 1' not in SHARED:
        with student(tab, server[0], query='?seed=1&pace=0'): SHARED.update({'tab': tab, 'seed 1': True})
    return tab

@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (cd tests && npm install --no-save axe-core)")
@pytest.mark.parametrize('viewport', [(1366, 768), (390, 844)])
def test_the_classroom_page_has_no_serious_accessibility_problem(seed_1_page, viewport):
    "axe-core over a student's page (the start page's words and the panel), on a laptop and a phone: nothing serious."
    page = seed_1_page
    page.set_viewport_size({'width': viewport[0], 'height': viewport[1]})
    page.locator('button.cgt-card.cgt-illegal').first.click()  # a refusal on the screen too
    wait_shown(page, '.cgt-refused', 20_000)
    if not page.evaluate("() => typeof axe !== 'undefined'"): page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => (await axe.run('.cgt-start, .cgt-tutor')).violations
        .filter(v => ['serious', 'critical'].includes(v.impact)).map(v => [v.id, v.impact, v.nodes.slice(0, 3).map(n => n.html.slice(0, 160))])""")
    assert not found, found
    assert '.ipynb' not in page.inner_html('.cgt-start')  # the classroom serves no notebook: no link to one

def test_playing_alone_the_page_says_what_a_student_there_can_do():
    """The classroom's “Play alone” page showed the JupyterLab start page's instructions (`make tutor`, cells to run,
    commands for a terminal), which a student in a browser cannot follow: its words now say what that page offers."""
    made = subprocess.run([sys.executable, '-c', 'import json; from cardgames_tutor.serve.pages import start_html; '
                           'print(json.dumps(start_html(part="rest")))'], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    rest = json.loads(made)  # in a child: Solara patches ipywidgets when imported
    assert [x for x in ('make tutor', 'Run All Cells', 'cardgames-tutor', 'terminal', 'Jupyter', '<code>', '.ipynb') if x in rest] == []
    assert all(x in rest for x in ('How to play here', 'Hint', 'review this hand', 'Open a table', 'Join a table', 'drills')), rest
