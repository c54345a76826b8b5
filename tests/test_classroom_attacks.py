"""Issue 39, the classroom server's part: each attack a hostile student made on `cardgames-classroom`, made again.

Each test does what the attacker did, on a real server on a free loopback port (its own process group, killed in a
`finally`), and checks the server held: the page's scripts are the server's own whatever the first visitor's headers
said; one visitor's websockets, sessions and messages are capped (the attacker comes from 127.0.0.2, another student from
127.0.0.1: the limits are per address and per browser); wrong codes are slowed; a short `--code` is refused; the code's
redirect stays on this server; nobody closes another's session; odd paths, other Host names and `/resourcez` get a
plain answer. Skipped, as tests/test_classroom.py is, without Solara, playwright or Chromium.
"""
import concurrent.futures, contextlib, http.client, http.server, os, socket, struct, subprocess, threading, time, uuid
import pytest

pytestmark = pytest.mark.browser
from test_classroom import (classroom, get, session_cookie, kernel_msg, click_answered, closed_soon,
                            ConnectionClosed, InvalidStatus, connect, psutil)
from helpers import ROOT, free_port, wait_shown, malloc_env, CLASSROOM

CODE = 'kq7m-x2pd'
ATTACKER = '127.0.0.2'  # another address on the loopback network: the attacker, apart from the student at 127.0.0.1

@pytest.fixture(scope='module')
def hostile_site():
    "Another site's server (`Hostile`, below), up for the file's life: every path it is asked for is noted."
    hostile = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Hostile)
    threading.Thread(target=hostile.serve_forever, daemon=True).start()
    try: yield f'//127.0.0.1:{hostile.server_address[1]}'
    finally: hostile.shutdown()

@pytest.fixture(scope='module')
def started(hostile_site):
    """The file's server, and its answer to the first page request of its life, made as it starts (before any test asks
    it anything), with X-Script-Name and the other proxy headers pointing at `hostile_site` (the first visitor's test)."""
    # a class of 300 may start its sessions at once here (`--new-session-burst`: 30 by default, then one a second), so
    # that what refuses the 300 idle websockets below is the cap they test, not the new sessions' turns (60 s of waiting)
    with classroom('--new-session-burst', '300') as (addr, proc):
        evil = hostile_site
        headers = [('X-Script-Name', evil), ('Script-Name', evil), ('X-Forwarded-Prefix', evil),
                   ('X-Forwarded-Host', evil.lstrip('/')), ('X-Forwarded-Proto', 'http')]
        yield addr, proc, ask(addr, '/', headers)

@pytest.fixture(scope='module')
def server(started):
    addr, proc, _ = started
    return addr, proc

@pytest.fixture(scope='module')
def coded():
    # the class with a code; its websockets' message rate set low for the flood below (the other tests here ask pages
    # and codes of it, which that rate does not touch): one server, not another for the flood
    with classroom('--code', CODE, '--messages-per-second', '1', '--max-wait', '3') as (addr, proc): yield addr, proc

def ask(addr, path, headers=(), method='GET', source=ATTACKER, timeout=30):
    "(status, body, headers) of one raw HTTP request from `source`, the path sent exactly as given (no redirect followed)."
    host, port = addr.split(':')
    c = http.client.HTTPConnection(host, int(port), timeout=timeout, source_address=(source, 0))
    try:
        c.putrequest(method, path, skip_host=any(k.lower() == 'host' for k, _ in headers), skip_accept_encoding=True)
        for k, v in headers: c.putheader(k, v)
        c.endheaders()
        r = c.getresponse()
        return r.status, r.read(), r.headers
    finally: c.close()

def admitted_cookie(addr) -> str:
    "The class cookie, got as a student gets it: the page with the right code."
    status, _, headers = ask(addr, f'/?code={CODE}', source='127.0.0.1')
    assert status == 303
    return headers['Set-Cookie'].split(';')[0]

def attacker_socket(addr, browser=None, kernel=None, cookie=None, **kw):
    "A kernel websocket opened by a script from the attacker's address, with a session cookie it made up (and `cookie`, the class's, if given)."
    url = f'ws://{addr}/jupyter/api/kernels/{kernel or uuid.uuid4()}/channels?session_id={uuid.uuid4()}'
    cookies = f'solara-session-id={browser or uuid.uuid4()}' + (f'; {cookie}' if cookie else '')
    return connect(url, additional_headers={'Cookie': cookies}, proxy=None, open_timeout=30, source_address=(ATTACKER, 0), **kw)

@pytest.fixture(scope='module')
def tab(browsers):
    """The file's one browser tab for its students' pages (`student_page`), each loaded in it as a new visitor's (its
    cookies cleared first, as a browser context of its own had none): the classroom page loaded again in the same tab
    costs Chromium ~2.5-3 CPU-s, a cold one in a new context ~4.7. `SHARED`: the shared page it holds (`a_student`)."""
    with browsers.page() as page:
        SHARED.clear()
        try: yield page
        finally:
            SHARED.clear()
            page.goto('about:blank')  # off the class's page before its server stops

SHARED = {}  # 'a student' -> `a_student`'s page, kernel id, page id, scripts' addresses while the tab holds that page

@contextlib.contextmanager
def student_page(tab, addr, query='?seed=3&pace=0', code=None):
    """A student's page (from 127.0.0.1), loaded in the file's `tab` as a new visitor (no cookie of an earlier page's),
    working; yields (page, kernel id, page id, scripts' addresses)."""
    SHARED.clear()  # the tab's shared page, if it held one, is gone from here on
    page, sockets, scripts = tab, [], []
    page.context.clear_cookies()
    on_socket, on_request = lambda ws: sockets.append(ws.url), lambda r: scripts.append(r.url) if r.resource_type == 'script' else None
    page.on('websocket', on_socket); page.on('request', on_request)
    try:
        page.goto(f'http://{addr}/{query}' + (f'&code={code}' if code else ''), timeout=60_000)
        wait_shown(page, 'button.cgt-card.cgt-legal', 90_000)
    finally: page.remove_listener('websocket', on_socket); page.remove_listener('request', on_request)
    url = next(u for u in sockets if '/kernels/' in u)
    yield page, url.split('/kernels/')[1].split('/')[0], url.split('session_id=')[1].split('&')[0], scripts

@pytest.fixture
def a_student(server, tab):
    """A student's page on the file's server (`student_page`'s page, kernel id, page id, scripts' addresses), loaded once
    for the tests that need one page working (the scripts it loaded; another visitor's attempt to close its session),
    which come one after the other: loaded again only if another test's page has taken the tab since."""
    if 'a student' not in SHARED:
        with student_page(tab, server[0]) as opened: SHARED['a student'] = opened
    return SHARED['a student']

# ------------------------------------------------------------------ High: script injection through X-Script-Name

class Hostile(http.server.BaseHTTPRequestHandler):
    "Another site's server: every path is a script that marks the page it runs in."
    asked = []
    def do_GET(self):
        Hostile.asked.append(self.path)
        body = b'window.__cgtInjected = (window.__cgtInjected || 0) + 1;'
        self.send_response(200)
        self.send_header('Content-Type', 'application/javascript'); self.send_header('Content-Length', str(len(body)))
        self.end_headers(); self.wfile.write(body)
    def log_message(self, *a): pass

def test_the_first_visitors_headers_do_not_choose_where_pages_load_scripts_from(started, hostile_site, a_student):
    """The first page request after the server starts comes with X-Script-Name (and the other proxy headers) pointing at
    another server (made by the fixture `started`, as the server starts): a later student's page, in Chromium, loads
    every script from the classroom server itself and runs none of the other server's (before the fix, Solara took its
    root path from that first request). The file's server: no server of its own to start."""
    addr, _, (status, body, _) = started  # the answer to the first page request of this server's life
    assert status == 200 and hostile_site.encode() not in body
    page, _, _, scripts = a_student
    here = (f'http://{addr}/', f'blob:http://{addr}/')  # (a blob: a script the page made itself)
    assert scripts and all(s.startswith(here) for s in scripts), [s for s in scripts if not s.startswith(here)][:3]
    assert page.evaluate('window.__cgtInjected') is None
    click_answered(page)
    assert Hostile.asked == [], Hostile.asked[:3]

def test_another_visitor_cannot_close_a_students_session(server, a_student):
    """Holding a student's kernel id and page id (read off their screen or guessed), another visitor posts Solara's close
    of that session: refused (403), with or without a session cookie of its own; the student plays on."""
    addr, _ = server
    page, kernel, page_id, _ = a_student
    for cookie in ([], [('Cookie', session_cookie(addr))]):
        status, _, _ = ask(addr, f'/_solara/api/close/{kernel}?session_id={page_id}', [('Host', addr), *cookie], 'POST')
        assert status == 403, status
    time.sleep(2)
    click_answered(page, timeout=30_000)

def test_under_a_root_path_files_load_and_the_gates_checks_hold_whether_the_proxy_strips_it_or_not():
    """`--root-path /class`, as behind a reverse proxy serving the class under /class: the page's scripts are under /class;
    each is served whether the proxy takes /class off (nginx's `proxy_pass .../`) or keeps it; the host's report stays
    hidden both ways (before the fix, a stripped path gave 404 for every script, a kept one showed `/class/resourcez`)."""
    with classroom('--root-path', '/class') as (addr, _):
        status, body, _ = ask(addr, '/', source='127.0.0.1')
        scripts = [s.split('"')[0] for s in body.decode().split('src="')[1:] if s.startswith('/class/')]
        assert status == 200 and scripts and not [s for s in body.decode().split('src="')[1:] if s.startswith('/static/')], scripts[:3]
        script = scripts[0].split('?')[0]
        for path in (script, script[len('/class'):]):
            assert ask(addr, path, source='127.0.0.1')[0] == 200, path
        for path in ('/resourcez', '/class/resourcez', '/class/resourcez?verbose'):
            assert ask(addr, path, source='127.0.0.1')[0] == 404, path

# ------------------------------------------------------------------ Medium: one visitor slows the whole class

def test_one_visitors_idle_websockets_are_capped(server, tab):
    """300 idle websockets from one address (each with a session cookie of its own, as a script makes them up): at most
    `--sockets-per-address` (90) are let in, the server does not start a thread for each (300 made 307 threads), and a
    student from another address still joins and plays."""
    addr, proc = server
    opened, refused = [], 0
    with contextlib.ExitStack() as stack:
        for _ in range(300):
            try: opened.append(stack.enter_context(attacker_socket(addr)))
            except (InvalidStatus, ConnectionClosed, OSError): refused += 1
        time.sleep(1)
        threads = psutil.Process(proc.pid).num_threads()
        assert len(opened) <= 90 and refused >= 210, (len(opened), refused)
        assert threads < 150, f"{threads} server threads with {len(opened)} websockets open"
        with student_page(tab, addr) as (page, _, _, _):
            click_answered(page)

def test_one_browsers_websockets_and_sessions_are_capped(server):
    "One browser (one session cookie) opens ten websockets, each for a new session: at most six are let in."
    addr, _ = server
    browser, opened = uuid.uuid4(), 0
    with contextlib.ExitStack() as stack:
        for _ in range(10):
            with contextlib.suppress(InvalidStatus, ConnectionClosed):
                stack.enter_context(attacker_socket(addr, browser)); opened += 1
    assert opened == 6, opened

def test_a_flood_of_messages_is_cut_off_and_the_class_goes_on(coded, tab):
    """1,000 messages sent as fast as a script can down one websocket: the server holds them back to the websocket's rate
    and, held back for --max-wait seconds on end, closes it (nothing closed it before); a student on another address is
    still answered. The rate is set low here (1 a second after a page's burst of 200, closed after 3 s held back), so that even a loaded
    machine, which handles messages slowly, holds this flood back: the default (20 a second after 200, 30 s) is the
    same rule, slower to show. (The class has a code: both come in with it.)"""
    addr, _ = coded
    with student_page(tab, addr, code=CODE) as (page, _, _, _):
        with attacker_socket(addr, cookie=admitted_cookie(addr)) as ws:
            with contextlib.suppress(ConnectionClosed):
                for _ in range(1000): ws.send(kernel_msg('comm_msg', {'comm_id': 'nope', 'data': {'method': 'custom', 'content': {'event': 'click'}}}))
            assert closed_soon(ws, 90), "the flooding websocket was never closed"
        click_answered(page)

def upload(size:int) -> bytes:
    "A well-formed widget message with one binary buffer of `size` bytes, as the page's upload sends a file."
    msg = kernel_msg('comm_msg', {'comm_id': 'upload', 'data': {'method': 'update', 'state': {}, 'buffer_paths': [['value']]}}).encode()
    return struct.pack('!iII', 2, 12, 12 + len(msg)) + msg + b'{' * size

def test_a_large_upload_is_refused(server):
    """An upload of 1.5 MB in one well-formed message (a hand record is a few kB; the largest a class needs, 1 MB) closes
    its websocket; one of 100 kB does not."""
    addr, _ = server
    with attacker_socket(addr, max_size=None) as ws:
        with contextlib.suppress(ConnectionClosed): ws.send(upload(3 * 2**19))
        assert closed_soon(ws)
    with attacker_socket(addr, max_size=None) as ws:
        ws.send(upload(100_000))
        assert not closed_soon(ws, 5)

def test_static_files_asked_with_new_queries_are_not_made_again(server):
    """Solara's largest script asked for 200 times, each with a query never seen before: the server sends the copy it
    keeps (before, each was read and compressed again: 600 cost 98 s of the server's CPU). CPU seconds spent, not time."""
    addr, proc = server
    status, body, _ = get(f'http://{addr}/')
    scripts = [s.split('"')[0] for s in body.decode().split('src="')[1:] if s.startswith('/_solara/cdn/') and '.js' in s]
    biggest = max(scripts, key=lambda s: len(get(f'http://{addr}{s}')[1]))
    assert len(get(f'http://{addr}{biggest}')[1]) > 200_000, biggest
    server_cpu = lambda: sum(sum(p.cpu_times()[:2]) for p in [psutil.Process(proc.pid)])
    before = server_cpu()
    for i in range(200):
        assert ask(addr, f"{biggest.split('?')[0]}?v={uuid.uuid4().hex}", [('Host', addr), ('Accept-Encoding', 'gzip')])[0] == 200
    spent = server_cpu() - before
    assert spent < 15, f"200 requests for one kept file cost {spent:.1f} s of the server's CPU"

# ------------------------------------------------------------------ Medium: the code can be guessed; short codes

def test_wrong_codes_are_slowed_per_address(coded):
    """Eight clients on one address guess codes as fast as they can for 4 s: at most ten guesses are tried (answered 401),
    the rest are told when to try again (429, one line); before the fix 84 a second from one client were tried."""
    addr, _ = coded
    def guess(i):
        return ask(addr, f'/?code=guess-{i:05}', [('Host', addr)])[0]
    tried = {}
    end = time.time() + 4
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        while time.time() < end:
            for status in pool.map(guess, range(16)): tried[status] = tried.get(status, 0) + 1
    assert tried.get(401, 0) <= 10 and tried.get(429, 0) > 0 and set(tried) <= {401, 429}, tried
    status, body, headers = ask(addr, f'/?code={CODE}', [('Host', addr)])
    assert status == 429 and body.count(b'\n') == 1 and b'try again in' in body and int(headers['Retry-After']) > 0
    assert ask(addr, f'/?code={CODE}', source='127.0.0.1')[0] == 303  # a student on another address gets in

@pytest.mark.parametrize('how', ['--code', 'CLASS_CODE'])
def test_a_short_code_is_refused_at_start(how):
    "`--code abc-123` (or CLASS_CODE=abc-123): the server does not start, and says why in one line."
    env = malloc_env({**os.environ, 'CLASS_CODE': 'abc-123'} if how == 'CLASS_CODE' else os.environ)  # (on the allocator it would start again on)
    argv = [*CLASSROOM, '--port', str(free_port())]
    r = subprocess.run(argv + (['--code', 'abc-123'] if how == '--code' else []), cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode != 0 and 'kill ' not in r.stdout, r.stdout[-300:]
    said = r.stderr.strip().splitlines()
    assert len(said) == 1 and 'needs 8 to 64 letters or digits' in said[0], r.stderr[-500:]

# ------------------------------------------------------------------ Low

def test_the_code_sends_the_browser_on_to_this_server_only(coded):
    "`GET //other-host/path?code=...`: the browser is sent on to a path of this server (before: to //other-host/path)."
    addr, _ = coded
    for path in ('//evil.example/path', '/\\evil.example/path', '///evil.example/path', '/%2F%2Fevil.example'):
        status, _, headers = ask(addr, f'{path}?code={CODE}&seed=3', [('Host', addr)], source='127.0.0.1')
        where = headers['Location']
        assert status == 303 and where.startswith('/') and not where.startswith(('//', '/\\')) and '://' not in where, (path, where)

def test_a_path_outside_latin_1_gets_no_error(coded):
    "A path outside Latin-1, with the code or the code's cookie: the page or a 404, never a 500."
    addr, _ = coded
    cookie = admitted_cookie(addr)
    status, _, headers = ask(addr, f'/%D0%91%D1%83?code={CODE}', [('Host', addr)], source='127.0.0.1')
    assert status == 303 and headers['Location'] == '/%D0%91%D1%83', (status, headers['Location'])
    assert ask(addr, '/%D0%91%D1%83', [('Host', addr), ('Cookie', cookie)], source='127.0.0.1')[0] in (200, 404)

def test_other_host_names_are_refused(server):
    "A request or websocket for another name (DNS rebinding: a site's name pointed at this machine) gets one line, 400."
    addr, _ = server
    status, body, _ = ask(addr, '/', [('Host', 'rebound.example.com')])
    assert status == 400 and body.count(b'\n') == 1 and b'Host' in body, (status, body[:200])
    assert ask(addr, '/', [('Host', 'localhost:' + addr.split(':')[1])])[0] == 200  # the loopback's own names are this server's
    host, port = addr.split(':')
    with pytest.raises(InvalidStatus):  # a websocket to this server, opened under the other name
        url = f'ws://rebound.example.com:{port}/jupyter/api/kernels/{uuid.uuid4()}/channels?session_id={uuid.uuid4()}'
        with connect(url, sock=socket.create_connection((host, int(port))), open_timeout=20,
                     additional_headers={'Cookie': f'solara-session-id={uuid.uuid4()}'}): pass

def test_the_servers_internals_are_not_shown(server, coded):
    "`/resourcez?verbose` (the host's CPU, memory, threads) is not there for a visitor, with or without the code."
    addr, _ = server
    for path in ('/resourcez', '/resourcez?verbose', '/resourcez/'):
        status, body, _ = ask(addr, path, [('Host', addr)])
        assert status == 404 and b'memory' not in body and b'cpu' not in body.lower(), (path, status, body[:100])
    addr, _ = coded
    status, body, _ = ask(addr, '/resourcez?verbose', [('Host', addr), ('Cookie', admitted_cookie(addr))])
    assert status == 404 and b'memory' not in body, (status, body[:100])
