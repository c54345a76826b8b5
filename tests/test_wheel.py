"""The wheel is complete: every file the package reads at run time ships in it, and an installed wheel, outside the
checkout, serves the classroom with its full start page.

The wheel is built from the checkout (`pip wheel`) and installed (`--no-deps`) into a fresh venv in a temporary folder that
takes its dependencies, the `classroom` extra's too, from this venv (tools/wheel_matrix.py installs them from the index);
where it cannot be built or installed (no build backend), the tests say why and skip,
except in CI (the environment sets CI=true), where a wheel that cannot be built or installed fails the test.
The start page ships as package data (`cardgames_tutor/serve/start_page.json`, made by `tools/start_page.py`).
"""
import importlib.util, json, os, pathlib, subprocess, sys, sysconfig, time, urllib.request, uuid, zipfile
import pytest
from helpers import ROOT, free_port, served

spec = importlib.util.spec_from_file_location('tools_wheel_matrix', ROOT / 'tools' / 'wheel_matrix.py')
wheel_matrix = importlib.util.module_from_spec(spec); spec.loader.exec_module(wheel_matrix)

def cannot(why:str):
    "A wheel that cannot be built or installed: a failure in CI (CI=true), where the tools must be there; else a skip naming what is missing."
    if os.environ.get('CI', '').lower() == 'true': pytest.fail(f"in CI: {why}")
    pytest.skip(why)

def test_the_start_page_is_in_step_with_its_notebook():
    "The start page the package ships is the start notebook's markdown, as it is now."
    done = subprocess.run([sys.executable, str(ROOT / 'tools' / 'start_page.py'), '--check'], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr or done.stdout

@pytest.fixture(scope='module')
def wheel(tmp_path_factory) -> pathlib.Path:
    "The package's wheel, built as `.ci/run` builds it (tools/wheel_matrix.py), into a folder outside the checkout."
    try: return wheel_matrix.build_wheel(tmp_path_factory.mktemp('dist'))
    except RuntimeError as e: cannot(f"no wheel could be built (pip's build backend, setuptools, is missing or failed): {e}")

def test_every_file_of_the_package_ships_in_the_wheel(wheel):
    "Every file under cardgames_tutor/ (modules and package data alike) is in the wheel: nothing read at run time is left behind."
    shipped = set(zipfile.ZipFile(wheel).namelist())
    files = {p.relative_to(ROOT).as_posix() for p in (ROOT / 'cardgames_tutor').rglob('*')
             if p.is_file() and '__pycache__' not in p.parts and '.ipynb_checkpoints' not in p.parts}
    assert 'cardgames_tutor/serve/start_page.json' in files
    assert sorted(files - shipped) == []

REQUIRES = """import importlib.metadata as md, sys
from packaging.requirements import Requirement
d = md.distribution('cardgames_tutor')  # the first on the path: the wheel's
bad = []
for r in map(Requirement, d.requires or []):
    if r.marker and not r.marker.evaluate({'extra': 'classroom'}): continue
    try: v = md.version(r.name)
    except md.PackageNotFoundError: bad.append(f'{r} (missing)'); continue
    if not r.specifier.contains(v, prereleases=True): bad.append(f'{r} ({v} installed)')
print(d.locate_file(''), *bad, sep='\\n')"""

@pytest.fixture(scope='module')
def venv(wheel, tmp_path_factory) -> pathlib.Path:
    """A fresh venv outside the checkout with the wheel installed in it (`--no-deps`): its folder. Its dependencies, the
    `classroom` extra's too, are this venv's, on its path by a path line in a .pth (a path line runs no .pth of this venv,
    so not the editable hook that would import the checkout); the test checks that every one the wheel requires with
    that extra is there, in a version it allows. What they install beside their modules under the prefix (etc/jupyter,
    share/jupyter: the widgets' front end the page loads) is linked to this venv's. Installing them from the index is tools/wheel_matrix.py's job (CI runs
    it after `make test`, on each Python)."""
    where = tmp_path_factory.mktemp('venv') / 'venv'
    subprocess.run([sys.executable, '-m', 'venv', '--without-pip', str(where)], check=True)
    here = pathlib.Path(sysconfig.get_path('purelib'))
    (where / here.relative_to(sys.prefix) / 'deps_of_the_test_venv.pth').write_text(f'{here}\n')
    for data in ('etc/jupyter', 'share/jupyter'):  # what they install beside their modules (the widgets' front end, its config)
        (where / data).parent.mkdir(exist_ok=True); (where / data).symlink_to(pathlib.Path(sys.prefix) / data)
    done = subprocess.run([sys.executable, '-m', 'pip', '--python', str(where / 'bin' / 'python'), 'install', '-q', '--no-deps',
                           '--ignore-installed', '--disable-pip-version-check', str(wheel)], capture_output=True, text=True)
    if done.returncode: cannot(f"pip could not install the wheel: {done.stderr.strip().splitlines()[-1:] or done.returncode}")
    found = subprocess.run([str(where / 'bin' / 'python'), '-c', REQUIRES], cwd=where.parent, capture_output=True, text=True,
                           env={k: v for k, v in os.environ.items() if k != 'PYTHONPATH'})
    assert found.returncode == 0, found.stderr
    home, *bad = found.stdout.splitlines()
    assert home.startswith(str(where)) and not bad, f"the wheel (at {home}) lacks what it requires with its classroom extra: {bad}"
    return where

def run_app(addr:str) -> list:
    "Load the page (urllib) and run its app over the page's websocket as the browser does: the HTML of every widget that shows some."
    from websockets.sync.client import connect
    with urllib.request.urlopen(f'http://{addr}/', timeout=30) as r:
        assert r.status == 200 and b'<title>Card games tutor</title>' in r.read()
        cookie = next(c.split(';')[0] for c in r.headers.get_all('Set-Cookie') if c.startswith('solara-session-id='))
    def msg(kind, content):
        return json.dumps({'header': {'msg_id': uuid.uuid4().hex, 'msg_type': kind, 'session': uuid.uuid4().hex, 'username': '',
                                      'date': '', 'version': '5.3'}, 'parent_header': {}, 'metadata': {}, 'content': content,
                           'channel': 'shell', 'buffers': []})
    url = f'ws://{addr}/jupyter/api/kernels/{uuid.uuid4()}/channels?session_id={uuid.uuid4()}'
    shown, comm = [], uuid.uuid4().hex
    with connect(url, additional_headers={'Cookie': cookie}, proxy=None, open_timeout=30) as ws:
        ws.send(msg('comm_open', {'comm_id': comm, 'target_name': 'solara.control', 'data': {}}))
        ws.send(msg('comm_msg', {'comm_id': comm, 'data': {'method': 'run', 'args': {'path': '', 'appName': None}}}))
        end = time.time() + 90
        while time.time() < end:
            m = ws.recv(timeout=90)
            if isinstance(m, bytes): continue
            m = json.loads(m)
            kind, content = m['header']['msg_type'], m['content']
            if kind == 'comm_open': shown += [v for k, v in content.get('data', {}).get('state', {}).items() if k == 'unsafe_innerHTML']
            if kind == 'comm_msg' and content.get('data', {}).get('method') == 'finished': return shown
    raise AssertionError('the app did not finish loading within 90 s')

def test_an_installed_wheel_serves_the_full_start_page(venv, tmp_path):
    "`cardgames-classroom` from the installed wheel (run from a folder outside the checkout) shows the whole start page."
    env = {k: v for k, v in os.environ.items() if k != 'PYTHONPATH'} | {'CARDGAMES_TUTOR_DATA': str(tmp_path / 'data')}
    where = subprocess.run([str(venv / 'bin' / 'python'), '-c', 'import cardgames_tutor; print(cardgames_tutor.__file__)'],
                           cwd=tmp_path, env=env, capture_output=True, text=True, check=True).stdout
    assert where.startswith(str(venv)), f'cardgames_tutor came from {where}, not the installed wheel'
    port = free_port()
    with served([str(venv / 'bin' / 'cardgames-classroom'), '--host', '127.0.0.1', '--port', str(port)], port,
                'the installed classroom server', wait=90, env=env):
        shown = run_app(f'127.0.0.1:{port}')
    made = subprocess.run([sys.executable, '-c', 'import json; from cardgames_tutor.serve.pages import start_html; '
                           'print(json.dumps([start_html(part="title"), start_html(part="rest")]))'],
                          cwd=ROOT, capture_output=True, text=True, check=True).stdout  # the checkout's (in a child: Solara patches ipywidgets when imported)
    title, rest = json.loads(made)  # the title above the buttons, the rest of the page under them
    page = [h for h in shown if h.startswith('<h1>Card games tutor</h1>')]
    assert 'How to play' in rest and page == [title] and rest in shown, f'the start page served: {page}'

def test_a_wheel_that_cannot_be_installed_fails_in_ci(monkeypatch):
    "In CI (CI=true) a wheel the tests cannot build or install is a failure; elsewhere a skip that says what is missing."
    monkeypatch.setenv('CI', 'true')
    with pytest.raises(pytest.fail.Exception, match='in CI: no package index'): cannot('no package index')
    monkeypatch.setenv('CI', '')
    with pytest.raises(pytest.skip.Exception, match='no package index'): cannot('no package index')
