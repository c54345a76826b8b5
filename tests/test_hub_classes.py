"""More than one class on one hub (issue 58, item 6): the class list names each student's class (`asha @4a`), and the
hub (`deploy/jupyterhub_config.py` with HUB_CLASSROOM=1) runs one classroom service per class, each with its own results
file and its own teachers' group, and sends each student to their own class's classroom when they log in.

On a real hub with two classes: a student of class 4a lands in /services/classroom-4a/ and never gets class 4b's page
(the hub refuses her the login to it), and the other way round; 4a's teacher lands on 4a's teacher's page and is refused
4b's; each class's results are kept in a file of its own.

Needs root, the hub extra and the proxy: skipped with a message naming what is missing, as in test_hub.py.
"""
import os, pathlib, secrets, subprocess, urllib.parse
import pytest

from helpers import ROOT, free_port, port_open
import test_hub as th
import test_hub_service as ts

pytestmark = pytest.mark.browser  # a server test: `make quick` leaves it out

def two_free_ports() -> int:
    "A free loopback port whose next one is free too (the second class's service)."
    for _ in range(50):
        p = free_port()
        if p < 65535 and not port_open(p + 1): return p
    raise RuntimeError("no two free ports side by side")

@pytest.fixture(scope='module')
def hub(tmp_path_factory):
    if th._hub_missing(): pytest.skip(th._hub_missing())
    work, python, tag = tmp_path_factory.mktemp('classes'), th.student_python(), secrets.token_hex(2)
    asha, bram, cy, dee = (f'{n}{tag}' for n in ('asha', 'bram', 'cy', 'dee'))
    (work / 'class.txt').write_text(f"# two classes\n{asha} @4a\n{bram} @4a\n{cy} @4b\n{dee} @4b\n")
    port, first = free_port(), two_free_ports()
    env = {**th.checkout_env(), 'HUB_ROSTER': str(work / 'class.txt'), 'HUB_STATE': str(work / 'state'), 'HUB_CLASSROOM': '1',
           'HUB_CLASSROOM_PORT': str(first), 'HUB_TEACHERS': f'{bram},{dee}',
           'HUB_HINT_WORKERS': '1'}  # one process for the hints (HUB_HINT_WORKERS): this hub's tests search none; test_hub.py's hub checks the pool's size
    env.pop('CLASS_CODE', None)
    printed = subprocess.run([python, str(ROOT / 'deploy' / 'roster.py'), str(work / 'class.txt')], env=env, capture_output=True, text=True, timeout=60)
    codes = dict(line.split('\t') for line in printed.stdout.splitlines())
    had_group = subprocess.run(['getent', 'group', th.roster.GROUP], capture_output=True).returncode == 0
    log = open(work / 'hub.log', 'w')
    with th.service_account(ts.ACCOUNT):  # removed at the end if this made it and no other hub of the tests uses it
        try:
            with log, th.hub_served(th.hub_argv(python, port), port, env=env, stdout=log, stderr=subprocess.STDOUT):
                th.wait_for_login_page(port)
                ts.wait_for_service(first, '/services/classroom-4a/'); ts.wait_for_service(first + 1, '/services/classroom-4b/')
                hub = th.Hub(python, port, [asha, bram, cy, dee], codes, work / 'state')
                hub.log, hub.first = work / 'hub.log', first
                yield hub
        finally:
            for p in (first, first + 1):
                for pid in [int(x) for x in filter(str.isdigit, os.listdir('/proc'))
                            if th._environ(x).get('JUPYTERHUB_SERVICE_URL', '').endswith(f':{p}')]:
                    try: os.kill(pid, 9)
                    except ProcessLookupError: pass
            for name in (asha, bram, cy, dee):
                th._kill_account_processes(name)
                subprocess.run(['userdel', '--remove', name], capture_output=True)
            if not had_group and not th._group_members(th.roster.GROUP): subprocess.run(['groupdel', th.roster.GROUP], capture_output=True)

def landing(hub, name):
    "(session, the page `name` lands on after logging in at the hub, redirects followed)."
    s, r = hub.login(name, hub.codes[name])
    assert r.status_code == 302, f"{name} could not log in: {r.status_code}"
    return s, s.get(f'{hub.url}{r.headers["location"]}' if r.headers['location'].startswith('/') else r.headers['location'], timeout=60)

def refused(s, hub, prefix) -> bool:
    "Whether session `s` is kept out of the classroom at `prefix`: never its page, whatever the redirects."
    r = s.get(f'{hub.url}{prefix}', timeout=60)
    return r.status_code in (400, 403) and urllib.parse.urlsplit(r.url).path != prefix and 'cgt-' not in r.text

def test_each_student_lands_in_their_own_class_and_never_reaches_the_other(hub):
    asha, _, cy, _ = hub.names
    for name, mine, theirs in ((asha, '4a', '4b'), (cy, '4b', '4a')):
        s, page = landing(hub, name)
        assert page.status_code == 200 and page.url == f'{hub.url}/services/classroom-{mine}/', (name, page.status_code, page.url)
        assert refused(s, hub, f'/services/classroom-{theirs}/'), f"{name} of class {mine} reached class {theirs}'s classroom"
        assert refused(s, hub, f'/services/classroom-{theirs}/teacher')
        me = s.get(f'{hub.url}/hub/api/user', headers={'Referer': f'{hub.url}/hub/'}, timeout=30)
        if me.status_code == 200: assert f'class-{mine}' in me.json().get('groups', []) and f'class-{theirs}' not in me.json()['groups']

def test_each_classs_teacher_gets_their_own_classs_teachers_page_only(hub):
    _, bram, _, dee = hub.names
    for name, mine, theirs in ((bram, '4a', '4b'), (dee, '4b', '4a')):
        s, page = landing(hub, name)
        assert page.status_code == 200 and page.url == f'{hub.url}/services/classroom-{mine}/teacher', (name, page.status_code, page.url)
        assert s.get(f'{hub.url}/services/classroom-{mine}/teacher/results.csv?kind=summary', timeout=60).status_code == 200
        assert refused(s, hub, f'/services/classroom-{theirs}/teacher')

def test_each_class_keeps_its_results_in_a_folder_of_its_own(hub):
    log = hub.log.read_text()
    said = {k: next((l for l in log.splitlines() if l.startswith(f"Card games tutor for a class: the hub's service 'classroom-{k}'")), '') for k in ('4a', '4b')}
    paths = {k: line.rsplit("the class's results: ", 1)[-1].strip() for k, line in said.items()}
    assert all(said.values()) and paths['4a'] != paths['4b'], said
    assert all(pathlib.Path(p).name == 'classroom.sqlite' and f'/classes/{k}/' in p and pathlib.Path(p).is_file() for k, p in paths.items()), paths
    assert 'Traceback' not in log
