"""The classroom as the hub's service (`deploy/jupyterhub_config.py` with HUB_CLASSROOM=1; `serve/hub_service.py`),
on one real hub that all the tests here share, set up as `tests/test_hub.py` sets up its own (as root, on free
loopback ports, the students' accounts made at their first login, the venv in /var/tmp that students can run).

A student goes to /services/classroom/ in headless Chromium, is sent to the hub's login, logs in with their own code
and comes back to the classroom, every file of the page loaded under the prefix, and plays a card. A visitor without a
hub login gets neither the page, nor a file of it, nor its websocket, through the hub's proxy or straight at the
service's own port; forged proxy headers, forged cookies and the hub's own cookies do not get in. The service runs
as its own account, whose token (in its environment) a student's own server cannot read.

Needs root, the hub extra (with the classroom's Solara) and the proxy: skipped with a message naming what is missing,
as in test_hub.py; the browser test also needs Python playwright and Debian's Chromium.
"""
import os, pathlib, pwd, secrets, time, urllib.parse, uuid
import pytest

from helpers import no_chromium, free_port, wait_shown, POLL
import test_hub as th  # its set-up (skips this module too, saying why, when the hub extra is missing)
import requests
from cardgames_tutor.practice.results import HEADS
KEY = HEADS["key"]  # the results CSV's column of the student's code

NAME, ACCOUNT = 'classroom', 'cardgames-classroom'
PREFIX = f'/services/{NAME}/'
pytestmark = pytest.mark.browser  # a server test: `make quick` leaves it out

def _environ(pid) -> dict: return th._environ(pid)

def service_pids(port) -> list:
    "The process ids of the classroom service the hub started to listen on `port`."
    return [int(p) for p in filter(str.isdigit, os.listdir('/proc'))
            if _environ(p).get('JUPYTERHUB_SERVICE_NAME') == NAME and _environ(p).get('JUPYTERHUB_SERVICE_URL', '').endswith(f':{port}')]

def wait_for_service(port, prefix=PREFIX, wait=150):
    "Until the service answers on its own port (a visitor is sent to the hub's login: 302)."
    th.wait_until_answers(f'http://127.0.0.1:{port}{prefix}', lambda r: r.status_code == 302, f"the classroom service {prefix}", wait)

@pytest.fixture(scope='module')
def hub(tmp_path_factory):
    if th._hub_missing(): pytest.skip(th._hub_missing())
    port = free_port()
    with th.service_account(ACCOUNT):  # removed at the end if this made it and no other hub of the tests uses it
        try:
            # one process for the hints (HUB_HINT_WORKERS): this hub's tests search none; test_hub.py's hub checks the pool's size
            with th.running_hub(tmp_path_factory.mktemp('hub'), HUB_CLASSROOM='1', HUB_CLASSROOM_PORT=str(port), HUB_TEACHERS='{1}',
                                HUB_HINT_WORKERS='1') as hub:
                hub.service_port = port
                wait_for_service(port)
                yield hub
        finally:
            for pid in service_pids(port):  # the hub stops its service; this one, should it not have
                try: os.kill(pid, 9)
                except ProcessLookupError: pass

def in_classroom(hub, name, query='?seed=3&pace=0'):
    "A plain HTTP session of `name`, logged in at the hub and then in the classroom (the OAuth redirects followed): (session, page)."
    s, r = hub.login(name, hub.codes[name])
    assert r.status_code == 302, f"{name} could not log in at the hub: {r.status_code}"
    page = s.get(f'{hub.url}{PREFIX}{query}', timeout=60)
    assert page.status_code == 200 and page.url == f'{hub.url}{PREFIX}{query}', (page.status_code, page.url)
    return s, page

def kernel_socket_refused(url, cookie=None) -> bool:
    "Whether a websocket to a new kernel at `url` is refused before it opens."
    from websockets.sync.client import connect
    from websockets.exceptions import InvalidStatus, InvalidHandshake
    try:
        with connect(f'{url}jupyter/api/kernels/{uuid.uuid4()}/channels?session_id={uuid.uuid4()}', proxy=None, open_timeout=20,
                     additional_headers={'Cookie': cookie} if cookie else None): return False
    except (InvalidStatus, InvalidHandshake, ConnectionError): return True

@pytest.mark.skipif(bool(no_chromium()), reason=no_chromium() or 'x')
def test_a_student_is_sent_to_the_hubs_login_and_back_and_plays_in_the_classroom(hub, browsers):
    pytest.importorskip('playwright.sync_api', reason="Python playwright is not installed (pip install playwright; do not run `playwright install`)")
    asha = hub.names[0]
    with browsers.page() as page:
        sockets, failed, scripts = [], [], []
        page.on('websocket', lambda ws: sockets.append(ws.url))
        page.on('response', lambda r: failed.append(f'{r.status} {r.url}') if r.status >= 400 else None)
        page.on('request', lambda r: scripts.append(r.url) if r.resource_type == 'script' else None)
        page.goto(f'{hub.url}{PREFIX}?seed=3&pace=0')
        wait_shown(page, '#username_input', timeout=30_000)  # not the classroom: the hub's login
        assert urllib.parse.urlsplit(page.url).path == '/hub/login' and not sockets and page.locator('.cgt-card').count() == 0
        scripts.clear(); failed.clear()  # the hub's login page's own
        page.fill('#username_input', asha); page.fill('#password_input', hub.codes[asha]); page.click('#login_submit')
        wait_shown(page, 'button.cgt-card.cgt-legal', timeout=120_000)
        assert page.url == f'{hub.url}{PREFIX}?seed=3&pace=0'  # back at the page she asked for, its settings kept
        assert page.locator('.cgt-hub-links a[href="/hub/logout"]').inner_text() == 'Log out'  # on a shared lab PC
        assert page.locator('.cgt-hub-links a[href="/hub/home"]').count() == 1  # her own server, one click away
        card = page.locator('button.cgt-card.cgt-legal').first
        name = card.get_attribute('title')
        card.click()  # the tutor answers: the card leaves her hand
        page.wait_for_function("name => ![...document.querySelectorAll('button.cgt-card')].some(b => b.title === name)", arg=name, polling=POLL, timeout=60_000)
    here = (f'{hub.url}{PREFIX}', f'blob:{hub.url}/')
    assert scripts and all(s.startswith(here) for s in scripts), [s for s in scripts if not s.startswith(here)][:3]
    assert sockets and all(s.startswith(f'ws://127.0.0.1:{hub.port}{PREFIX}') for s in sockets), sockets
    assert not failed, failed[:5]

def test_a_visitor_without_a_hub_login_gets_no_page_file_or_websocket(hub):
    for base in (hub.url, f'http://127.0.0.1:{hub.service_port}'):  # through the hub's proxy, and straight at the service's port
        for path in ('', '?seed=3', 'static/assets/custom.js', 'jupyter/api/kernels', '_solara/api/close/x'):
            r = requests.get(f'{base}{PREFIX}{path}', allow_redirects=False, timeout=30)
            where = urllib.parse.urlsplit(r.headers.get('location', ''))
            assert r.status_code == 302 and where.path == '/hub/api/oauth2/authorize', (base, path, r.status_code)
            assert dict(urllib.parse.parse_qsl(where.query))['client_id'] == f'service-{NAME}'
        assert requests.post(f'{base}{PREFIX}_solara/api/close/x', timeout=30).status_code == 403
        assert kernel_socket_refused(f'ws://{base.split("://")[1]}{PREFIX}')
    assert requests.get(f'http://127.0.0.1:{hub.service_port}/', timeout=30).status_code == 404  # outside the prefix
    followed = requests.get(f'{hub.url}{PREFIX}', timeout=30)  # every redirect followed: the hub's login page, nothing of the classroom
    assert urllib.parse.urlsplit(followed.url).path == '/hub/login' and 'username_input' in followed.text and 'cgt-' not in followed.text

def test_forged_headers_and_cookies_do_not_get_in(hub):
    bram = hub.names[1]
    forged = {'X-Script-Name': '/', 'Script-Name': '/', 'X-Forwarded-Prefix': '/', 'X-Forwarded-For': '127.0.0.1',
              'X-Forwarded-User': bram, 'X-Remote-User': bram}
    s, _ = hub.login(bram, hub.codes[bram])  # his hub cookies, but no login of the classroom's
    hub_cookies = '; '.join(f'{c.name}={c.value}' for c in s.cookies)
    assert 'jupyterhub-hub-login' in hub_cookies
    for cookie in (f'service-{NAME}={secrets.token_urlsafe(32)}', f'service-{NAME}=', hub_cookies, f'{hub_cookies}; service-{NAME}=x'):
        for base in (hub.url, f'http://127.0.0.1:{hub.service_port}'):
            r = requests.get(f'{base}{PREFIX}', headers={**forged, 'Cookie': cookie}, allow_redirects=False, timeout=30)
            assert r.status_code == 302 and '/hub/api/oauth2/authorize' in r.headers['location'], (cookie[:40], base)
            assert kernel_socket_refused(f'ws://{base.split("://")[1]}{PREFIX}', cookie)
    made_up = requests.get(f'{hub.url}{PREFIX}oauth_callback?code={secrets.token_hex(16)}&state={secrets.token_urlsafe(24)}', timeout=30)
    assert made_up.status_code == 400 and 'not started in this browser' in made_up.text
    # logged in, a visitor's proxy headers still do not choose where the page loads its scripts from
    s, page = in_classroom(hub, bram)
    evil = s.get(f'{hub.url}{PREFIX}', headers={'X-Script-Name': '//evil.example', 'X-Forwarded-Prefix': '//evil.example',
                                                'X-Forwarded-Host': 'evil.example'}, timeout=30)
    assert evil.status_code == 200 and 'evil.example' not in evil.text and f'{PREFIX}static/' in evil.text
    assert s.get(f'{hub.url}{PREFIX}resourcez', timeout=30).status_code == 404  # the classroom's own rules, under the prefix too
    his = '; '.join(f'{c.name}={c.value}' for c in s.cookies if c.name in (f'service-{NAME}', 'solara-session-id'))
    assert not kernel_socket_refused(f'ws://127.0.0.1:{hub.port}{PREFIX}', his)  # his own cookies do open one (the refusals above are real)
    assert f'{bram} came in to the classroom (a teacher)' in (hub.state.parent / 'hub.log').read_text()  # HUB_TEACHERS: the hub group

def test_the_service_runs_as_its_own_account_and_students_cannot_read_its_token(hub):
    pids = service_pids(hub.service_port)
    assert pids, "no classroom service process"
    account = pwd.getpwnam(ACCOUNT)
    token = _environ(pids[0])['JUPYTERHUB_API_TOKEN']
    assert all(th.process_uid(p) == account.pw_uid != 0 for p in pids)
    assert th.roster.foreign_account(ACCOUNT)  # not a student's account
    home = pathlib.Path(account.pw_dir)
    assert home.stat().st_uid == account.pw_uid and home.stat().st_mode & 0o777 == 0o700
    for pid in filter(str.isdigit, os.listdir('/proc')):  # a command line is anyone's to read: the token is in none
        try: assert token.encode() not in pathlib.Path(f'/proc/{pid}/cmdline').read_bytes(), pid
        except OSError: pass
    _, student = hub.server(hub.names[0])  # her own Jupyter server, as her account
    assert th.process_uid(student) != account.pw_uid
    for pid in pids:
        read = th.as_process(student, 'cat', f'/proc/{pid}/environ')
        assert read.returncode != 0 and token not in read.stdout
    assert th.as_process(student, 'ls', str(home)).returncode != 0
    assert requests.get(f'{hub.url}/hub/api/user', headers={'Authorization': f'token {token}'}, timeout=30).json().get('kind') == 'service'  # it is the real token

def test_the_hubs_teachers_get_the_teachers_page_and_students_never_reach_it(hub):
    asha, bram = hub.names  # Bram is in HUB_TEACHERS (the hub's group `teachers`), Asha is not
    s, r = hub.login(bram, hub.codes[bram])
    assert r.status_code == 302, f"{bram} could not log in at the hub: {r.status_code}"
    landed = s.get(f'{hub.url}{PREFIX}', timeout=60)  # the hub's default page: the classroom; a teacher lands on the console
    assert landed.status_code == 200 and landed.url == f'{hub.url}{PREFIX}teacher', (landed.status_code, landed.url)
    csv = s.get(f'{hub.url}{PREFIX}teacher/results.csv?kind=summary', timeout=60)
    assert csv.status_code == 200 and csv.content.startswith('\ufeff"student"'.encode()), csv.text[:80]  # no second code asked
    assert 'tables' in s.get(f'{hub.url}{PREFIX}teacher/glance.json', timeout=60).json()
    assert s.get(f'{hub.url}{PREFIX}?game=kocka', timeout=60).url == f'{hub.url}{PREFIX}?game=kocka'  # the students' page, when asked for
    st, _ = in_classroom(hub, asha)
    copied = {'cgt-teacher': next((c.value for c in s.cookies if c.name == 'cgt-teacher'), 'x')}  # nothing to copy: the door adds it
    for path in ('teacher', 'teacher/show', 'teacher/results.csv?kind=summary', 'teacher/glance.json'):
        for cookies in ({}, copied):
            r = st.get(f'{hub.url}{PREFIX}{path}', cookies=cookies, allow_redirects=False, timeout=60)
            assert r.status_code == 403 and "for the class's teachers" in r.text, (path, r.status_code, r.text[:80])
    assert 'Traceback' not in (hub.state.parent / 'hub.log').read_text()

@pytest.mark.skipif(bool(no_chromium()), reason=no_chromium() or 'x')
def test_a_teacher_logs_in_at_the_hub_and_sees_the_console_and_the_projector_page(hub, browsers):
    pytest.importorskip('playwright.sync_api', reason="Python playwright is not installed (pip install playwright; do not run `playwright install`)")
    bram = hub.names[1]
    with browsers.page() as page:
        page.goto(f'{hub.url}{PREFIX}')
        wait_shown(page, '#username_input', timeout=30_000)
        page.fill('#username_input', bram); page.fill('#password_input', hub.codes[bram]); page.click('#login_submit')
        wait_shown(page, '.cgt-glance-box table', timeout=120_000)  # the console, drawn for the hub's teacher
        assert page.url == f'{hub.url}{PREFIX}teacher'
        page.goto(f'{hub.url}{PREFIX}teacher/show')
        page.wait_for_function("() => document.body.innerText.includes('No table is on the projector yet')", polling=POLL, timeout=120_000)

@pytest.mark.skipif(bool(no_chromium()), reason=no_chromium() or 'x')
def test_a_students_results_are_kept_under_their_hub_login_not_a_typed_name(hub, browsers):
    "Behind the hub the classroom keeps a student's drill answers under their login: the teacher's CSV names the login, whatever she typed."
    pytest.importorskip('playwright.sync_api', reason="Python playwright is not installed (pip install playwright; do not run `playwright install`)")
    asha, bram = hub.names
    with browsers.page() as page:
        page.goto(f'{hub.url}/hub/login')
        page.fill('#username_input', asha); page.fill('#password_input', hub.codes[asha]); page.click('#login_submit')
        page.wait_for_load_state()
        page.goto(f'{hub.url}{PREFIX}?drill=kocka&seed=2')
        wait_shown(page, '.cgt-drill button', timeout=120_000)
        page.fill('.cgt-name input', 'Captain Hearts')  # a name typed on the page: not what her results are kept by
        page.locator('.cgt-drill .widget-hbox button').first.click()
        s, r = hub.login(bram, hub.codes[bram])
        deadline, rows = time.time() + 60, []
        while not rows and time.time() < deadline:  # the file may hold earlier classes' rows too: hers are under her login
            csv = s.get(f'{hub.url}{PREFIX}teacher/results.csv?kind=answers', timeout=60).content.decode('utf-8-sig')
            rows = [r for r in __import__('csv').DictReader(csv.splitlines()) if r['game'] == 'Kočka' and asha in (r['student'], r[KEY])]
            time.sleep(0.5)
    assert rows and all(r['student'] == asha and r[KEY] == asha for r in rows), rows
    assert 'Captain Hearts' not in csv
