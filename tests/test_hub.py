"""The JupyterHub configuration for a class past one machine (`deploy/jupyterhub_config.py`), smoke-tested as a class uses it.

A real hub on free loopback ports, its state in a temporary folder; a student logs in with a name and the class code in
headless Chromium and lands on the tutor in their own server; a wrong code is refused; the hub refuses to start without a
code. Needs the `hub` extra and the proxy (`pip install -e '.[dev,hub]'`, `npm install -g configurable-http-proxy`),
Python `playwright` and Debian's Chromium; skipped with a message naming what is missing.
"""
import os, shutil, subprocess, sys, time, urllib.error, urllib.request
import pytest

pytestmark = pytest.mark.browser
from helpers import ROOT, no_chromium, free_port, served, browser_page
HUB = os.path.join(os.path.dirname(sys.executable), 'jupyterhub')
CONFIG, CODE = ROOT / 'deploy' / 'jupyterhub_config.py', 'kq7m-x2pd'

def _missing() -> str:
    if not os.path.exists(HUB): return "jupyterhub is not installed (pip install -e '.[dev,hub]')"
    if not shutil.which('configurable-http-proxy'): return "JupyterHub's proxy is not installed (npm install -g configurable-http-proxy)"
    try: import playwright.sync_api  # noqa: F401
    except ImportError: return "Python playwright is not installed (pip install playwright; do not run `playwright install`)"
    return no_chromium()

if _missing(): pytest.skip(_missing(), allow_module_level=True)

def hub_argv(port) -> list:
    "The hub on `port`, its proxy's API and its own address on free ports too (not the fixed 8001 and 8081)."
    return [HUB, '-f', str(CONFIG), f'--JupyterHub.bind_url=http://127.0.0.1:{port}',
            f'--ConfigurableHTTPProxy.api_url=http://127.0.0.1:{free_port()}', f'--JupyterHub.hub_bind_url=http://127.0.0.1:{free_port()}']

def wait_for_login_page(port, wait=120):
    "The proxy opens the port before the hub has given it a route: wait until the hub's login page itself answers."
    deadline = time.time() + wait
    while True:
        try:
            with urllib.request.urlopen(f'http://127.0.0.1:{port}/hub/login', timeout=5) as r:
                if r.status == 200 and b'username_input' in r.read(): return
        except (urllib.error.URLError, OSError): pass
        if time.time() > deadline: raise RuntimeError(f"JupyterHub's login page did not answer within {wait} s")
        time.sleep(0.5)

def test_a_student_logs_in_with_the_class_code_and_lands_on_the_tutor(tmp_path):
    port = free_port()
    env = {**os.environ, 'CLASS_CODE': CODE, 'HUB_STATE': str(tmp_path)}
    with served(hub_argv(port), port, 'jupyterhub', wait=90, env=env):
        wait_for_login_page(port)
        with browser_page() as page:
            page.goto(f'http://127.0.0.1:{port}/hub/login')
            page.fill('#username_input', 'asha'); page.fill('#password_input', 'not-the-code'); page.click('#login_submit')
            page.wait_for_selector('.login_error', timeout=20_000)
            assert '/hub/login' in page.url  # a wrong code is refused
            page.fill('#username_input', 'asha'); page.fill('#password_input', CODE); page.click('#login_submit')
            page.wait_for_selector('button.cgt-card.cgt-legal', timeout=150_000)  # the server spawned, Voilà ran the tutor
            assert '/user/asha/voila/render/nbs/tutorials/start.ipynb' in page.url
            assert 'Begga Kaat' in page.inner_text('.cgt-status')
    assert (tmp_path / 'jupyterhub.sqlite').exists()  # the hub's state where HUB_STATE says

def test_the_hub_will_not_start_without_a_class_code(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != 'CLASS_CODE'} | {'HUB_STATE': str(tmp_path)}
    done = subprocess.run(hub_argv(free_port()), env=env, capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode != 0 and 'Set CLASS_CODE' in done.stderr + done.stdout
