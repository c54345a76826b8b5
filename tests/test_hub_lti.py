"""The school's own logins (issue 58, item 4): the hub with HUB_AUTH=lti13 (`deploy/jupyterhub_config.py`,
`deploy/school_lti.py`, jupyterhub-ltiauthenticator), and this test playing the school's learning platform.

The test makes the platform's key pair and serves its public key set (JWKS) on a loopback port; the hub is told the
platform's issuer, the tool's client id, the platform's authorize address and that key set, as an admin sets them from
the tool's registration. A launch goes as LTI 1.3 has it: the platform starts the login at the hub
(/hub/lti13/oauth_login), the hub sends the browser to the platform's authorize address with a state and a nonce, the
platform posts back a signed id_token with that nonce (its roles: Learner or Instructor). A student lands in the
classroom; a teacher (the platform's Instructor: the hub's `teachers` group) on the teacher's page; a launch signed
with another key, and the same launch sent again with the browser's cookies, log nobody in.

Needs root, the hub extra (with jupyterhub-ltiauthenticator and PyJWT) and the proxy: skipped naming what is missing.
"""
import json, os, subprocess, threading, time, urllib.parse
import http.server
import pytest

from helpers import free_port
import test_hub as th
import test_hub_service as ts
import requests

jwt = pytest.importorskip('jwt', reason="PyJWT is not installed (it comes with the hub extra's jupyterhub-ltiauthenticator)")
rsa = pytest.importorskip('cryptography.hazmat.primitives.asymmetric.rsa', reason="cryptography is not installed (the hub extra brings it)")
pytestmark = pytest.mark.browser  # a server test: `make quick` leaves it out

ISS, CLIENT, KID = 'https://platform.school.example', 'cardgames-tool', 'platform-key-1'
PREFIX = ts.PREFIX
ROLE = 'http://purl.imsglobal.org/vocab/lis/v2/membership#'
C = 'https://purl.imsglobal.org/spec/lti/claim/'

def key_pair(): return rsa.generate_private_key(public_exponent=65537, key_size=2048)

class Platform:
    "The school's platform, as far as the hub sees it: its key set at /jwks (on a loopback port), and the launches it signs."
    def __init__(self):
        self.key = key_pair()
        jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.key.public_key()))
        body = json.dumps({'keys': [{**jwk, 'kid': KID, 'alg': 'RS256', 'use': 'sig'}]}).encode()
        class KeySet(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200 if self.path == '/jwks' else 404)
                self.send_header('Content-Type', 'application/json'); self.send_header('Content-Length', str(len(body))); self.end_headers()
                self.wfile.write(body)
            def log_message(self, *a): pass
        self.server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), KeySet)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def token(self, sub, roles, nonce, target, key=None) -> str:
        now = int(time.time())
        claims = {'iss': ISS, 'aud': CLIENT, 'sub': sub, 'email': f'{sub}@school.example', 'name': sub.title(), 'iat': now, 'exp': now + 300,
                  'nonce': nonce, C + 'version': '1.3.0', C + 'deployment_id': 'deployment-1', C + 'target_link_uri': target,
                  C + 'message_type': 'LtiResourceLinkRequest', C + 'resource_link': {'id': 'link-1'},
                  C + 'context': {'id': 'course-4b', 'label': '4B'}, C + 'roles': [ROLE + r for r in roles]}
        return jwt.encode(claims, key or self.key, algorithm='RS256', headers={'kid': KID})

    def launch(self, hub_url, sub, roles, key=None):
        "A launch of `sub` as the platform makes it, in a fresh browser: (session, the callback's answer, (the form posted, the cookies it went with))."
        s = requests.Session()
        target = f'{hub_url}{PREFIX}'
        r = s.get(f'{hub_url}/hub/lti13/oauth_login', params={'iss': ISS, 'login_hint': sub, 'target_link_uri': target, 'client_id': CLIENT,
                                                             'lti_message_hint': 'm1'}, allow_redirects=False, timeout=60)
        assert r.status_code == 302, (r.status_code, r.text[:200])
        where = urllib.parse.urlsplit(r.headers['location'])
        assert where.netloc == f'127.0.0.1:{self.port}' and where.path == '/auth', where  # sent to the platform's authorize address
        q = dict(urllib.parse.parse_qsl(where.query))
        form = {'id_token': self.token(sub, roles, q['nonce'], target, key), 'state': q['state']}
        cookies = s.cookies.get_dict()
        return s, s.post(q['redirect_uri'], data=form, allow_redirects=False, timeout=60), (q['redirect_uri'], form, cookies)

def wait_for_hub(port, wait=120):
    "The proxy opens the port before the hub has given it a route: wait until the hub's LTI tool configuration answers."
    th.wait_until_answers(f'http://127.0.0.1:{port}/hub/lti13/config', lambda r: r.status_code == 200, "the hub's LTI pages", wait)

@pytest.fixture(scope='module')
def hub(tmp_path_factory):
    if th._hub_missing(): pytest.skip(th._hub_missing())
    pytest.importorskip('ltiauthenticator', reason="jupyterhub-ltiauthenticator is not installed (pip install -e '.[hub]')")
    work = tmp_path_factory.mktemp('lti')
    platform, python = Platform(), th.student_python()
    port, service_port = free_port(), free_port()
    env = {**th.checkout_env(), 'HUB_AUTH': 'lti13', 'HUB_STATE': str(work / 'state'), 'HUB_CLASSROOM': '1', 'HUB_CLASSROOM_PORT': str(service_port),
           'HUB_LTI_ISSUER': ISS, 'HUB_LTI_CLIENT_ID': CLIENT, 'HUB_LTI_AUTHORIZE_URL': f'http://127.0.0.1:{platform.port}/auth',
           'HUB_LTI_JWKS_URL': f'http://127.0.0.1:{platform.port}/jwks',
           'HUB_HINT_WORKERS': '1'}  # one process for the hints (HUB_HINT_WORKERS): this hub's tests search none; test_hub.py's hub checks the pool's size
    for k in ('HUB_ROSTER', 'CLASS_CODE', 'HUB_TEACHERS'): env.pop(k, None)
    log = open(work / 'hub.log', 'w')
    with th.service_account(ts.ACCOUNT):  # removed at the end if this made it and no other hub of the tests uses it
        try:
            with log, th.hub_served(th.hub_argv(python, port), port, env=env, stdout=log, stderr=subprocess.STDOUT):
                wait_for_hub(port)
                ts.wait_for_service(service_port)
                platform.hub_url, platform.log = f'http://127.0.0.1:{port}', work / 'hub.log'
                yield platform
        finally:
            platform.server.shutdown()
            for pid in ts.service_pids(service_port):
                try: os.kill(pid, 9)
                except ProcessLookupError: pass

def test_a_student_launched_from_the_platform_lands_in_the_classroom(hub):
    s, r, _ = hub.launch(hub.hub_url, 'asha', ['Learner'])
    assert r.status_code == 302 and r.headers['location'] == PREFIX, (r.status_code, r.text[:200])
    page = s.get(f'{hub.hub_url}{PREFIX}', timeout=60)
    assert page.status_code == 200 and page.url == f'{hub.hub_url}{PREFIX}', (page.status_code, page.url)
    teacher = s.get(f'{hub.hub_url}{PREFIX}teacher', allow_redirects=False, timeout=60)
    assert teacher.status_code == 403 and "for the class's teachers" in teacher.text  # not the platform's Instructor

def test_the_platforms_instructor_lands_on_the_teachers_page(hub):
    s, r, _ = hub.launch(hub.hub_url, 'mrsrao', ['Instructor'])
    assert r.status_code == 302, (r.status_code, r.text[:200])
    page = s.get(f'{hub.hub_url}{PREFIX}', timeout=60)
    assert page.status_code == 200 and page.url == f'{hub.hub_url}{PREFIX}teacher', (page.status_code, page.url)
    csv = s.get(f'{hub.hub_url}{PREFIX}teacher/results.csv?kind=summary', timeout=60)
    assert csv.status_code == 200 and csv.content.startswith('\ufeff"student"'.encode())

def test_a_launch_signed_with_another_key_logs_nobody_in(hub):
    s, r, _ = hub.launch(hub.hub_url, 'mallory', ['Instructor'], key=key_pair())
    assert r.status_code in (400, 401), (r.status_code, r.text[:200])
    assert not any(c.name.startswith('jupyterhub-hub-login') for c in s.cookies)
    page = s.get(f'{hub.hub_url}{PREFIX}teacher', timeout=60)
    assert urllib.parse.urlsplit(page.url).path == '/hub/login', page.url  # sent to log in: neither the teacher's page nor the classroom

def test_the_same_launch_sent_again_logs_nobody_in(hub):
    _, r, (callback, form, cookies) = hub.launch(hub.hub_url, 'bram', ['Learner'])
    assert r.status_code == 302
    again = requests.Session()
    again.cookies.update(cookies)  # the browser's state and nonce cookies, as they were when the launch was posted
    r = again.post(callback, data=form, allow_redirects=False, timeout=60)
    assert r.status_code == 400 and not any(c.name.startswith('jupyterhub-hub-login') for c in again.cookies), r.status_code
    assert urllib.parse.urlsplit(again.get(f'{hub.hub_url}{PREFIX}', timeout=60).url).path == '/hub/login'
    assert 'Refused an LTI launch used before' in hub.log.read_text()
    assert 'Traceback' not in hub.log.read_text()
