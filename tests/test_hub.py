"""The JupyterHub configuration for a class past one machine (`deploy/jupyterhub_config.py`), tried as a class uses it
and as a hostile student would.

The class list (`deploy/roster.py`) first, without a hub: each name its own code, bad lists refused in one line.
Then a real hub on free loopback ports, as root, its state in a temporary folder, two students on its list: a student
logs in with their own code in headless Chromium and lands on the tutor in their own server; logging in under another
student's name (with the old shared class code, or with another student's code) is refused; a student's browser
session and token do not open another's server; run with the credentials of a student's server process, the hub's
secrets, another student's token (in `/proc`) and home, and the project's code cannot be read or changed. Run as
another user than root, the hub refuses to start and says why.

Needs root (the hub makes each student's account; CI runs as root), the `hub` extra and the proxy
(`pip install -e '.[dev,hub]'`, `npm install -g configurable-http-proxy`), Python `playwright` and Debian's Chromium:
skipped with a message naming what is missing. Students' accounts must be able to run the hub's Python: when the
project's .venv is closed to them (a Python under /root), a venv of a system Python with the hub extra is made once in
/var/tmp (the versions the project's .venv has, for every checkout alike, less one optional add-on that costs each
hub and server start seconds: `LEFT_OUT`; their files hard-linked from the .venv when it runs the same Python version,
`_venv_from_here`, else installed by pip) and the hub runs from it, the checkout on its PYTHONPATH. The students' accounts, and the processes the hubs started, are removed at the end.
"""
import asyncio, contextlib, fcntl, functools, grp, hashlib, os, pathlib, pwd, re, secrets, shutil, subprocess, sys, tempfile, time
import pytest

from helpers import ROOT, no_chromium, free_port, served, browser_page, wait_shown
try: import tomllib
except ImportError: import tomli as tomllib  # Python 3.10
CONFIG, CLASS_CODE = ROOT / 'deploy' / 'jupyterhub_config.py', 'kq7m-x2pd'
try:
    sys.path.insert(0, str(ROOT / 'deploy'))
    import roster, requests, jupyterhub  # (roster.py imports JupyterHub's authenticator only when it is used)
except ImportError as e: pytest.skip(f"the hub extra is not installed ({e.name}): pip install -e '.[dev,hub]'", allow_module_level=True)

# --- the class list, without a hub -----------------------------------------------------------------------------------

def test_each_name_has_its_own_code_and_a_new_number_gives_a_new_one():
    secret = bytes(range(32))
    asha, bram = roster.code_for(secret, 'asha'), roster.code_for(secret, 'bram')
    assert asha != bram and roster.code_for(secret, 'asha') == asha  # one code a name, the same each time it is printed
    assert re.fullmatch(r'[a-z2-9]{5}-[a-z2-9]{5}', asha) and not set(asha) & set('01ilo')
    assert roster.code_for(secret, 'asha', 2) != asha  # `asha 2` on the list: her old code stops working
    assert roster.code_for(bytes(32), 'asha') != asha  # another hub's secret, other codes
    assert roster.same_code(asha.upper().replace('-', ' '), asha) and not roster.same_code(bram, asha) and not roster.same_code('', asha)

def test_a_bad_class_list_is_refused_in_one_line_naming_the_line():
    assert roster.parse_roster("# class 4b\nasha\nbram 2  # new code\n\n") == {'asha': 1, 'bram': 2}
    for text, said in [('asha\nÁsha\n', "line 2: 'Ásha' is not a name"), ('asha\nasha\n', "line 2: 'asha' is on the list twice"),
                       ('root\n', "line 1: 'root' is an account on this machine already"), ('asha x\n', 'only a code number'),
                       ('asha 0\n', 'only a code number'), ('x' * 5000 + '\n', "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'")]:
        with pytest.raises(ValueError, match=re.escape(said)) as e: roster.parse_roster(text)
        assert len(str(e.value)) < 200 and '\n' not in str(e.value)
    for account in ('root', 'nobody'):  # the spawner's last check: never a server as an account that is not a student's
        with pytest.raises(ValueError, match="is not a student's account"): roster.student_account(account)

def test_the_roster_tool_prints_each_students_code_and_refuses_a_bad_list(tmp_path):
    (tmp_path / 'class.txt').write_text('asha\nbram\n')
    env = {**os.environ, 'HUB_STATE': str(tmp_path / 'state')}
    run = lambda *args: subprocess.run([sys.executable, str(ROOT / 'deploy' / 'roster.py'), *args], env=env, capture_output=True, text=True, timeout=60)
    done = run(str(tmp_path / 'class.txt'))
    rows = dict(line.split('\t') for line in done.stdout.splitlines())
    assert done.returncode == 0 and sorted(rows) == ['asha', 'bram'] and rows['asha'] != rows['bram']
    assert run(str(tmp_path / 'class.txt')).stdout == done.stdout  # printed again: the same codes
    assert (tmp_path / 'state').stat().st_mode & 0o777 == 0o700 and (tmp_path / 'state' / 'roster_secret').stat().st_mode & 0o777 == 0o600
    (tmp_path / 'codes.txt').write_text('old'); (tmp_path / 'codes.txt').chmod(0o644)  # a file others could read, there before
    wrote = run(str(tmp_path / 'class.txt'), '--out', str(tmp_path / 'codes.txt'))
    assert wrote.returncode == 0 and not wrote.stdout and '2 codes written' in wrote.stderr and 'readable by you only' in wrote.stderr
    assert (tmp_path / 'codes.txt').read_text() == done.stdout and (tmp_path / 'codes.txt').stat().st_mode & 0o777 == 0o600
    (tmp_path / 'bad.txt').write_text('asha\nroot\n')
    for args, said in [([str(tmp_path / 'bad.txt')], "line 2: 'root' is an account"), ([str(tmp_path / 'none.txt')], 'no such file'), ([], 'usage:')]:
        bad = run(*args)
        assert bad.returncode == 1 and said in bad.stderr and bad.stderr.count('\n') == 1 and not bad.stdout

def test_the_authenticator_takes_a_name_only_with_its_own_code(tmp_path, monkeypatch):
    monkeypatch.setattr(roster, 'FAILED_LOGIN_WAIT', 0)
    (tmp_path / 'class.txt').write_text('asha\nbram\n')
    auth = roster.RosterAuthenticator(roster_file=str(tmp_path / 'class.txt'), state_folder=str(tmp_path))
    code = {name: roster.code_for(roster.roster_secret(tmp_path), name) for name in ('asha', 'bram', 'stranger')}
    login = lambda name, password: asyncio.run(auth.authenticate(None, {'username': name, 'password': password}))
    assert login('asha', code['asha']) == 'asha' and login('Asha ', code['asha'].upper()) == 'asha'
    assert login('bram', code['asha']) is None and login('bram', CLASS_CODE) is None and login('bram', '') is None
    assert login('stranger', code['stranger']) is None  # not on the list: no code works
    assert auth.check_allowed('asha') and not auth.check_allowed('stranger')
    session = lambda name: asyncio.run(auth.refresh_user(type('User', (), {'name': name})()))
    assert login('bram', code['bram']) == 'bram' and session('asha') and session('bram')
    (tmp_path / 'class.txt').write_text('asha\nbram 2\n')  # bram's code was shared: his new one logs in, the old one and its session end
    assert login('bram', code['bram']) is None and not session('bram') and session('asha')
    assert login('bram', roster.code_for(roster.roster_secret(tmp_path), 'bram', 2)) == 'bram' and session('bram')
    (tmp_path / 'class.txt').write_text('bram 2\n')  # asha taken off the list: her code stops, her session must log in again
    assert login('asha', code['asha']) is None and not auth.check_allowed('asha') and not session('asha')
    assert (tmp_path / 'login_codes.json').stat().st_mode & 0o777 == 0o600

def test_the_class_list_names_each_students_classes_and_a_login_gets_their_groups(tmp_path, monkeypatch):
    "More than one class on a hub: '@4a' after a name is its class; the authenticator puts a login in class-4a (and a teacher in teachers-4a)."
    text = "# two classes\nasha @4a\nbram 2 @4a @4b  # teaches both\ncy @4b\ndee\n"
    assert roster.parse_roster(text) == {'asha': 1, 'bram': 2, 'cy': 1, 'dee': 1}
    assert roster.classes_of(text) == {'asha': ('4a',), 'bram': ('4a', '4b'), 'cy': ('4b',), 'dee': ()}
    for bad, said in [('asha @4A\n', "line 1: '@4A' is not a class"), ('asha @\n', "'@' is not a class"), ('asha @4a x\n', 'only a code number')]:
        with pytest.raises(ValueError, match=re.escape(said)): roster.parse_roster(bad)
    monkeypatch.setattr(roster, 'FAILED_LOGIN_WAIT', 0)
    (tmp_path / 'class.txt').write_text(text)
    auth = roster.RosterAuthenticator(roster_file=str(tmp_path / 'class.txt'), state_folder=str(tmp_path), class_groups=True, teachers={'bram'})
    login = lambda name, gen=1: asyncio.run(auth.authenticate(None, {'username': name, 'password': roster.code_for(roster.roster_secret(tmp_path), name, gen)}))
    assert login('asha') == {'name': 'asha', 'groups': ['class-4a']} and login('dee') == {'name': 'dee', 'groups': []}
    assert login('bram', 2) == {'name': 'bram', 'groups': ['class-4a', 'class-4b', 'teachers-4a', 'teachers-4b']}

# --- a real hub --------------------------------------------------------------------------------------------------------

def _nobody_runs(python) -> bool:
    if not (python and os.path.exists(python)): return False
    with _checkout_on_path(): return not roster.students_cannot_run(python)

def _deps() -> list:
    "The core dependencies and the hub extra's, the project's own extras it names (`cardgames_tutor[classroom]`) spelled out."
    project = tomllib.loads((ROOT / 'pyproject.toml').read_text())['project']
    extras, todo, deps = project['optional-dependencies'], ['hub'], list(project['dependencies'])
    while todo:
        for req in extras[todo.pop()]:
            own = re.fullmatch(r'cardgames[-_]tutor\[([a-z0-9_,-]+)\]', req.replace(' ', ''))
            if own: todo += own.group(1).split(',')
            elif req not in deps: deps.append(req)
    return deps

def checkout_env(env=None) -> dict:
    "`env` (default: this process's) with the checkout on PYTHONPATH: the hub, its services and the students' servers import the project from it."
    env = dict(os.environ if env is None else env)
    env['PYTHONPATH'] = os.pathsep.join([str(ROOT), *filter(None, [env.get('PYTHONPATH')])])
    return env

@contextlib.contextmanager
def _checkout_on_path():
    "While the checkout is on this process's PYTHONPATH (a probe run as nobody imports the project from it)."
    before = os.environ.get('PYTHONPATH')
    os.environ['PYTHONPATH'] = checkout_env()['PYTHONPATH']
    try: yield
    finally:
        if before is None: os.environ.pop('PYTHONPATH', None)
        else: os.environ['PYTHONPATH'] = before

@functools.cache
def student_python() -> str:
    """A Python with the hub extra that an account with no rights can run: this one, or a venv of a system Python in
    /var/tmp (made once per base Python and set of dependencies, with pip; the checkout is not in it: the hub gets it on
    PYTHONPATH, `checkout_env`, so every checkout's tests share it). Asked once per test process.
    The tests' shares may both ask at once: one makes it while the other waits (a lock file), then finds it made."""
    if _nobody_runs(sys.executable): return sys.executable
    with open('/var/tmp/cardgames_tutor-hub-venv.lock', 'a') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try: return _student_venv()
        finally: fcntl.flock(lock, fcntl.LOCK_UN)

# left out of the students' Python: jsonschema's optional IRI syntax checks, which jupyter_events brings
# (`jsonschema[format-nongpl]`). rfc3987-syntax builds an Earley parser of RFC 3987's grammar when it is imported, 1.5-2
# CPU-s in every process that imports jupyter_events: each hub (also one that refuses to start), each check that
# students can run the hub's Python, each student's server. No schema the hub, its services or a student's server
# validates uses the formats iri or iri-reference (the only ones it checks); jsonschema goes without them when it is missing.
LEFT_OUT = {'rfc3987-syntax'}

def _pins(base_version:str):
    """Each distribution the hub's Python needs (`_deps()` and what they require, markers read here), as `name==version`
    at the version this project's Python has (just `name` where that version does not run on `base_version`), so pip
    installs them without resolving anything; None when one of them is not installed here (then pip resolves)."""
    from packaging.requirements import Requirement
    from packaging.specifiers import SpecifierSet
    from packaging.utils import canonicalize_name
    from importlib import metadata
    todo, found = [(Requirement(r), '') for r in _deps()], {}
    while todo:
        req, extra = todo.pop()
        if req.marker and not req.marker.evaluate({'extra': extra}): continue
        try: dist = metadata.distribution(req.name)
        except metadata.PackageNotFoundError: return None
        name = canonicalize_name(req.name)
        extras = set(req.extras) - found.get(name, (None, set()))[1]
        if name in found and not extras: continue
        found.setdefault(name, (dist, set()))[1].update(req.extras)
        for r in map(Requirement, dist.requires or []):
            wanted = [e for e in ('', *sorted(extras)) if r.marker is None or r.marker.evaluate({'extra': e})]
            if wanted: todo.append((r, wanted[0]))
    runs = lambda dist: SpecifierSet(dist.metadata.get('Requires-Python') or '').contains(base_version, prereleases=True)
    return sorted(f"{dist.metadata['Name']}=={dist.version}" if runs(dist) else dist.metadata['Name'] for name, (dist, _) in found.items()
                  if name not in LEFT_OUT)

def _venv_from_here(base_version:str, venv:pathlib.Path, pins:list, pip) -> bool:
    """Fill the venv `venv` (made without pip) from what this Python's own environment has installed, when it is the
    same Python (major.minor: the same bytecode, the same extension modules): each pinned distribution's files as its
    RECORD lists them (the wheel pip unpacked here, the bytecode it compiled, its scripts and its data files: the
    Jupyter server's and Voilà's configuration in etc/, their templates in share/), hard-linked (copied where a link
    cannot be made or the file here is not root's alone: a student must not be able to change it), console scripts
    pointed at the venv's Python; pip and setuptools as this environment has them. The pins this Python's version
    cannot have (`name` alone: Requires-Python) are left to `pip`. The venv pip would make from the same wheels, in a
    tenth of the CPU (no index asked for 146 wheels, nothing unpacked or compiled again). False when a distribution is
    not here as pinned or `pip check` finds the result broken (then pip installs it all)."""
    if sys.implementation.name != 'cpython' or tuple(map(int, base_version.split('.')[:2])) != sys.version_info[:2]: return False
    from importlib import metadata
    site = os.path.join(venv, 'lib', f'python{sys.version_info[0]}.{sys.version_info[1]}', 'site-packages')
    bin_, root = os.path.join(venv, 'bin'), str(venv) + os.sep
    here_bin, there_bin = os.fsencode(os.path.join(sys.prefix, 'bin', '')), os.fsencode(os.path.join(bin_, ''))
    folders = set()
    for pin in [p for p in pins if '==' in p] + ['pip', 'setuptools']:
        name, _, version = pin.partition('==')
        try: dist = metadata.distribution(name)
        except metadata.PackageNotFoundError: return False
        if (version and dist.version != version) or not dist.files: return False
        here = str(dist.locate_file(''))
        for f in dist.files:
            src, dest = os.path.join(here, f), os.path.normpath(os.path.join(site, f))
            if not dest.startswith(root): return False
            try: st = os.stat(src)
            except FileNotFoundError: continue  # (in RECORD, not written: a .pyc of a file it does not compile)
            folder = os.path.dirname(dest)
            if folder not in folders: os.makedirs(folder, exist_ok=True); folders.add(folder)
            if os.path.lexists(dest): os.unlink(dest)  # two distributions with one file (a top-level LICENSE): the last one's, as pip
            if folder == bin_:
                with open(src, 'rb') as file: data = file.read()
                if data.startswith(b'#!'):  # a script: this environment's Python named in it becomes the venv's
                    with open(dest, 'wb') as file: file.write(data.replace(here_bin, there_bin))
                    os.chmod(dest, 0o755)
                    continue
            if st.st_uid == os.geteuid() == 0 and not st.st_mode & 0o022 and not os.path.islink(src):
                try: os.link(src, dest); continue
                except OSError: pass  # (another file system)
            shutil.copy2(src, dest); os.chmod(dest, st.st_mode & 0o755)
    loose = [p for p in pins if '==' not in p]
    if loose and pip('--no-deps', *loose).returncode: return False
    return subprocess.run([str(venv / 'bin' / 'python'), '-m', 'pip', 'check'], capture_output=True).returncode == 0

def _student_venv() -> str:
    base = next((p for p in ('/usr/bin/python3', '/usr/local/bin/python3', shutil.which('python3') or '')
                 if p and os.path.exists(p) and not roster.closed_folder(p)), None)
    if not base: pytest.skip("no Python that students' accounts can run (the project's is closed to them; no /usr/bin/python3)")
    base_version = subprocess.run([base, '-c', 'import platform; print(platform.python_version())'], capture_output=True, text=True).stdout.strip()
    pins = _pins(base_version)
    digest = hashlib.sha256(f"{base}\n{base_version}\n{pins or sorted(_deps())}".encode()).hexdigest()[:12]
    venv = pathlib.Path('/var/tmp') / f'cardgames_tutor-hubenv-{digest}'
    safe = lambda p: p.stat().st_uid == 0 and not p.stat().st_mode & 0o022  # /var/tmp is everyone's: only root's own will do
    if venv.exists() and safe(venv) and (venv / '.complete').exists() and _nobody_runs(str(venv / 'bin' / 'python')):
        os.utime(venv)  # in use: not stale for the others' clean-up
        return str(venv / 'bin' / 'python')
    for stale in pathlib.Path('/var/tmp').glob('cardgames_tutor-hubenv-*'):  # made for other dependencies and unused for a day:
        # another share's hub (another checkout, other dependencies) may be running from one made an hour ago
        if stale != venv and not stale.is_symlink() and safe(stale) and time.time() - stale.stat().st_mtime > 86400:
            shutil.rmtree(stale, ignore_errors=True)
    if venv.exists() and not safe(venv):
        venv = pathlib.Path(tempfile.mkdtemp(prefix='cardgames_tutor-hubenv-', dir='/var/tmp'))
        os.chmod(venv, 0o755)
    python = str(venv / 'bin' / 'python')
    pip = lambda *args: subprocess.run([python, '-m', 'pip', 'install', '-q', '--disable-pip-version-check', *args], capture_output=True, text=True)
    made = subprocess.run([base, '-m', 'venv', '--clear', '--without-pip', str(venv)], capture_output=True, text=True)
    if made.returncode: pytest.skip(f"cannot make a venv with {base}: {made.stderr.strip()[-200:]}")
    if not (pins and _venv_from_here(base_version, venv, pins, pip)):  # else pip installs it all, from the index
        made = subprocess.run([base, '-m', 'venv', '--clear', str(venv)], capture_output=True, text=True)
        if made.returncode: pytest.skip(f"cannot make a venv with {base}: {made.stderr.strip()[-200:]}")
        done = pip('--no-deps', *pins) if pins else None  # the versions this project runs, nothing to resolve
        if not done or done.returncode or subprocess.run([python, '-m', 'pip', 'check'], capture_output=True).returncode:
            done = pip(*_deps())  # else pip resolves what is missing or does not fit
        if done.returncode: pytest.skip(f"pip could not install the hub extra for students' accounts: {done.stderr.strip()[-200:]}")
        subprocess.run([python, '-m', 'pip', 'uninstall', '-q', '-y', *LEFT_OUT], capture_output=True)  # (brought in when pip resolved)
    with _checkout_on_path(): why = roster.students_cannot_run(python)
    if why: pytest.skip(f"students' accounts cannot run {python}: {why}")
    (venv / '.complete').write_text('')
    return python

def _hub_missing() -> str:
    if os.geteuid() != 0: return "the hub makes each student's account: run as root (CI does)"
    if not shutil.which('configurable-http-proxy'): return "JupyterHub's proxy is not installed (npm install -g configurable-http-proxy)"
    if not shutil.which('useradd') or not shutil.which('userdel'): return "useradd/userdel are missing (passwd)"
    return ''

def hub_argv(python, port) -> list:
    "The hub on `port`, its proxy's API and its own address on free ports too (not the fixed 8001 and 8081)."
    return [str(pathlib.Path(python).parent / 'jupyterhub'), '-f', str(CONFIG), f'--JupyterHub.bind_url=http://127.0.0.1:{port}',
            f'--ConfigurableHTTPProxy.api_url=http://127.0.0.1:{free_port()}', f'--JupyterHub.hub_bind_url=http://127.0.0.1:{free_port()}']

def wait_until_answers(url, ok, what, wait=150):
    "Until `url` answers as `ok(response)` wants (not followed): `what` is named if it has not within `wait` seconds."
    deadline = time.time() + wait
    while True:
        try:
            if ok(requests.get(url, allow_redirects=False, timeout=5)): return
        except requests.RequestException: pass
        if time.time() > deadline: raise RuntimeError(f"{what} did not answer within {wait} s")
        time.sleep(0.5)

def wait_for_login_page(port, wait=120):
    "The proxy opens the port before the hub has given it a route: wait until the hub's login page itself answers."
    wait_until_answers(f'http://127.0.0.1:{port}/hub/login', lambda r: r.status_code == 200 and b'username_input' in r.content,
                       "JupyterHub's login page", wait)

class Hub:
    def __init__(self, python, port, names, codes, state): self.python, self.port, self.names, self.codes, self.state = python, port, names, codes, state
    @property
    def url(self): return f'http://127.0.0.1:{self.port}'

    def login(self, name, password):
        "(session, response) of a login through the hub's form, as a browser sends it."
        s = requests.Session()
        s.get(f'{self.url}/hub/login', timeout=30)
        r = s.post(f'{self.url}/hub/login', data={'username': name, 'password': password, '_xsrf': s.cookies.get('_xsrf', '')},
                   allow_redirects=False, timeout=60)
        return s, r

    def server(self, name, wait=150):
        "A logged-in session of student `name` whose own server runs, and that server's process id."
        s, r = self.login(name, self.codes[name])
        assert r.status_code == 302, f"{name} could not log in with their own code: {r.status_code}"
        s.get(f'{self.url}/hub/spawn', timeout=60, allow_redirects=False)
        deadline = time.time() + wait
        page = f'{self.url}/user/{name}/files/nbs/tutorials/start.ipynb'  # a page: its first visit logs in to the server (OAuth)
        while not ((r := s.get(page, timeout=30)).status_code == 200 and r.url == page):  # not the hub's "starting" page
            if time.time() > deadline: raise RuntimeError(f"{name}'s server did not start within {wait} s")
            time.sleep(1)
        return s, server_pid(name)

def _environ(pid) -> dict:
    try: raw = pathlib.Path(f'/proc/{pid}/environ').read_bytes()
    except OSError: return {}
    return dict(kv.split('=', 1) for kv in raw.decode(errors='replace').split('\0') if '=' in kv)

def server_pid(name) -> int:
    "The process id of student `name`'s Jupyter server (the hub set JUPYTERHUB_USER in its environment)."
    for pid in filter(str.isdigit, os.listdir('/proc')):
        try: cmd = pathlib.Path(f'/proc/{pid}/cmdline').read_bytes()
        except OSError: continue
        if b'jupyterhub-singleuser' in cmd and _environ(pid).get('JUPYTERHUB_USER') == name: return int(pid)
    raise LookupError(f"no server process for {name}")

def as_process(pid, *argv):
    "Run `argv` with the user, group and groups of process `pid` (what code in that student's server can do)."
    status = dict(line.split(':', 1) for line in pathlib.Path(f'/proc/{pid}/status').read_text().splitlines() if ':' in line)
    uid, gid = int(status['Uid'].split()[0]), int(status['Gid'].split()[0])
    return subprocess.run(list(argv), user=uid, group=gid, extra_groups=[int(g) for g in status['Groups'].split()],
                          cwd='/', capture_output=True, text=True, timeout=60)

def process_uid(pid) -> int: return pathlib.Path(f'/proc/{pid}').stat().st_uid

def _kill_account_processes(name):
    "Stop every process of account `name` (one the test made), by its process id."
    try: uid = pwd.getpwnam(name).pw_uid
    except KeyError: return
    for pid in filter(str.isdigit, os.listdir('/proc')):
        try:
            if pathlib.Path(f'/proc/{pid}').stat().st_uid == uid: os.kill(int(pid), 9)
        except (OSError, ProcessLookupError): pass

def _group_members(name) -> list:
    try: return grp.getgrnam(name).gr_mem
    except KeyError: return []

@contextlib.contextmanager
def service_account(name='cardgames-classroom'):
    """While a hub of the tests runs the classroom as its service account `name`: on the way out the account is removed
    if it was not there before and no other hub of the tests (the other share, at the same time) still uses it (a shared
    lock held by each user); else it stays (a system account without a login)."""
    had = subprocess.run(['getent', 'passwd', name], capture_output=True).returncode == 0
    with open('/var/tmp/cardgames_tutor-service-account.lock', 'a') as lock:
        fcntl.flock(lock, fcntl.LOCK_SH)
        try: yield
        finally:
            try: fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError: return  # in use by another hub of the tests
            if not had: subprocess.run(['userdel', '--remove', name], capture_output=True)

def _descendants(pid) -> list:
    "(process id, command line) of each process under `pid`: the hub's services and the students' servers it started."
    children = {}
    for p in filter(str.isdigit, os.listdir('/proc')): children.setdefault(_ppid(p), []).append(int(p))
    found, todo = [], list(children.get(int(pid), []))
    while todo:
        p = todo.pop()
        found.append((p, _cmdline(p))); todo += children.get(p, [])
    return found

def _services_of(argv) -> list:
    "(process id, command line) of each process the hub of `argv` started, found by the hub API address it was given (JUPYTERHUB_API_URL)."
    bind = next((a.split('=', 1)[1] for a in argv if a.startswith('--JupyterHub.hub_bind_url=')), '')
    if not bind: return []
    return [(int(p), _cmdline(p)) for p in filter(str.isdigit, os.listdir('/proc'))
            if _environ(p).get('JUPYTERHUB_API_URL', '').startswith(bind.rstrip('/') + '/')]

@contextlib.contextmanager
def hub_served(argv, port, **popen):
    """`served` for a hub: on the way out the processes it started (its services run in sessions of their own: the
    idle culler, roster.py --watch, the hint pool) are stopped too, should the hub not have stopped them."""
    started = []
    try:
        with served(argv, port, 'jupyterhub', wait=90, **popen) as proc:
            try: yield proc
            finally: started = _descendants(proc.pid) + _services_of(argv)  # (a hub that stopped itself left them to init)
    finally:
        for pid, cmd in started:
            if cmd and _cmdline(pid) == cmd:  # the same process still (not a new one with its number)
                with contextlib.suppress(ProcessLookupError): os.kill(pid, 9)

@contextlib.contextmanager
def running_hub(work:pathlib.Path, first_names=('asha', 'bram'), later_names=(), **settings):
    """A real hub (`deploy/jupyterhub_config.py`, as root) on a free loopback port, its state in `work`, the students
    `first_names` (`hub.names`) and `later_names` (`hub.later`), each with a tag of this run, on its class list;
    `settings`: more of its environment (HUB_CLASSROOM...). The students' accounts (and their group, if this made it)
    are removed on the way out."""
    python = student_python()
    tag = secrets.token_hex(2)
    names = [f'{n}{tag}' for n in (*first_names, *later_names)]
    (work / 'class.txt').write_text('\n'.join(names) + '\n')
    env = {**checkout_env(), 'HUB_ROSTER': str(work / 'class.txt'), 'HUB_STATE': str(work / 'state'), 'CLASS_CODE': CLASS_CODE,
           **{k: v.format(*names) for k, v in settings.items()}}
    printed = subprocess.run([python, str(ROOT / 'deploy' / 'roster.py'), str(work / 'class.txt')], env=env, capture_output=True, text=True, timeout=60)
    codes = dict(line.split('\t') for line in printed.stdout.splitlines())
    had_group = subprocess.run(['getent', 'group', roster.GROUP], capture_output=True).returncode == 0
    port = free_port()
    log = open(work / 'hub.log', 'w')  # the hub's own account of a failure
    try:
        with log, hub_served(hub_argv(python, port), port, env=env, stdout=log, stderr=subprocess.STDOUT):
            wait_for_login_page(port)
            hub = Hub(python, port, names[:len(first_names)], codes, work / 'state')
            hub.later = names[len(first_names):]
            yield hub
    finally:
        for name in names:
            _kill_account_processes(name)  # anything of the test's own students still running
            subprocess.run(['userdel', '--remove', name], capture_output=True)
        # the students' group goes only when no account is left in it: another hub of the tests (in the other share, at
        # the same time) keeps its students there, and without the group their names would no longer read as students'
        if not had_group and not _group_members(roster.GROUP): subprocess.run(['groupdel', roster.GROUP], capture_output=True)

@pytest.fixture(scope='module')
def hub(tmp_path_factory):
    if _hub_missing(): pytest.skip(_hub_missing())
    with running_hub(tmp_path_factory.mktemp('hub'), later_names=('dee',)) as hub: yield hub  # Dee: the access test's

@pytest.fixture(scope='module')
def servers(hub):
    "Both students logged in, each with their own server running: {name: (session, pid)}."
    return {name: hub.server(name) for name in hub.names}

@pytest.mark.browser
@pytest.mark.skipif(bool(no_chromium()), reason=no_chromium() or 'x')
def test_a_student_logs_in_with_their_own_code_and_lands_on_the_tutor(hub):
    pytest.importorskip('playwright.sync_api', reason="Python playwright is not installed (pip install playwright; do not run `playwright install`)")
    asha = hub.names[0]
    with browser_page() as page:
        page.goto(f'{hub.url}/hub/login')
        page.fill('#username_input', asha); page.fill('#password_input', hub.codes[hub.names[1]]); page.click('#login_submit')
        wait_shown(page, '.login_error', timeout=20_000)
        assert '/hub/login' in page.url  # another student's code is refused
        page.fill('#username_input', asha); page.fill('#password_input', hub.codes[asha]); page.click('#login_submit')
        wait_shown(page, 'button.cgt-card.cgt-legal', timeout=150_000)  # her server spawned, Voilà ran the tutor
        assert f'/user/{asha}/voila/render/nbs/tutorials/start.ipynb' in page.url
        assert 'Begga Kaat' in page.inner_text('.cgt-status')
    assert (hub.state / 'jupyterhub.sqlite').exists()  # the hub's state where HUB_STATE says

@pytest.mark.browser
def test_nobody_logs_in_under_another_students_name(hub):
    asha, bram = hub.names
    for name, password in [(bram, CLASS_CODE), (bram, hub.codes[asha]), (bram, hub.codes[asha].replace('-', '').upper()),
                           (f'carl{asha[4:]}', CLASS_CODE), (f'carl{asha[4:]}', hub.codes[asha]), ('root', CLASS_CODE), (bram, '')]:
        s, r = hub.login(name, password)
        assert r.status_code == 403 and 'jupyterhub-hub-login' not in s.cookies, (name, password)
    s, r = hub.login(bram, hub.codes[bram])  # his own code does let him in: the refusals above are about the code
    assert r.status_code == 302 and 'jupyterhub-hub-login' in s.cookies

@pytest.mark.browser
def test_a_student_cannot_open_another_students_server(hub, servers):
    asha, bram = hub.names
    (a_session, a_pid), (b_session, b_pid) = servers[asha], servers[bram]
    a_token, b_token = _environ(a_pid)['JUPYTERHUB_API_TOKEN'], _environ(b_pid)['JUPYTERHUB_API_TOKEN']
    assert b_session.get(f'{hub.url}/user/{bram}/api/contents', timeout=30).status_code == 200
    assert requests.get(f'{hub.url}/user/{bram}/api/contents', headers={'Authorization': f'token {b_token}'}, timeout=30).status_code == 200
    # his server runs what a student's uses, no more: neither Solara's server extension (the classroom's) nor terminals
    assert [b_session.get(f'{hub.url}/user/{bram}/{path}', timeout=30).status_code for path in ('solara/readyz', 'api/terminals')] == [404, 404]
    # asha's browser session and her server's token do not open bram's server
    for path in ('files/nbs/tutorials/start.ipynb', 'api/contents', 'voila/render/nbs/tutorials/start.ipynb'):
        r = a_session.get(f'{hub.url}/user/{bram}/{path}', timeout=30)
        assert r.status_code in (403, 404) and '"cells"' not in r.text, path
    assert requests.get(f'{hub.url}/user/{bram}/api/contents', headers={'Authorization': f'token {a_token}'}, timeout=30).status_code in (401, 403)
    # from asha's server (a kernel runs as that process does), bram's token and files cannot be read
    assert process_uid(a_pid) != process_uid(b_pid)
    stolen = as_process(a_pid, 'cat', f'/proc/{b_pid}/environ')
    assert stolen.returncode != 0 and b_token not in stolen.stdout
    assert as_process(a_pid, 'ls', pwd.getpwuid(process_uid(b_pid)).pw_dir).returncode != 0
    assert as_process(a_pid, 'cat', f'{pwd.getpwuid(process_uid(b_pid)).pw_dir}/nbs/tutorials/start.ipynb').returncode != 0

@pytest.mark.browser
def test_a_students_server_cannot_read_the_hubs_secrets(hub, servers):
    a_pid = servers[hub.names[0]][1]
    assert process_uid(a_pid) not in (0, os.geteuid())  # not the hub's user
    assert hub.state.stat().st_mode & 0o777 == 0o700 and hub.state.stat().st_uid == os.geteuid()
    for secret in ('jupyterhub_cookie_secret', 'roster_secret', 'jupyterhub.sqlite'):
        assert (hub.state / secret).exists()
        read = as_process(a_pid, 'cat', str(hub.state / secret))
        assert read.returncode != 0 and not read.stdout, secret
    proxy = next(p for p in filter(str.isdigit, os.listdir('/proc')) if 'CONFIGPROXY_AUTH_TOKEN' in _environ(p)
                 and str(hub.port) in pathlib.Path(f'/proc/{p}/cmdline').read_bytes().decode(errors='replace').split('\0'))
    assert as_process(a_pid, 'cat', f'/proc/{proxy}/environ').returncode != 0  # the token that rewrites the proxy's routes

@pytest.mark.browser
def test_a_student_cannot_change_the_code_the_others_run_and_has_a_home_of_their_own(hub, servers):
    a_pid = servers[hub.names[0]][1]
    site = pathlib.Path(subprocess.run([hub.python, '-c', 'import jupyterhub, pathlib; print(pathlib.Path(jupyterhub.__file__).parent.parent)'],
                                       capture_output=True, text=True).stdout.strip())
    shared = [ROOT, ROOT / 'cardgames_tutor', ROOT / 'cardgames_tutor' / 'core' / 'engine.py', ROOT / 'deploy', CONFIG,
              ROOT / 'deploy' / 'student_server.py', ROOT / 'deploy' / 'roster.py', ROOT / 'tools' / 'learner_copy.py',
              ROOT / 'nbs' / 'tutorials' / 'start.ipynb', site, site / 'jupyterhub' / 'singleuser' / 'app.py', site / 'voila']
    for path in shared:
        assert path.exists() and as_process(a_pid, 'test', '-w', str(path)).returncode != 0, f'a student can change {path}'
    home = pathlib.Path(os.readlink(f'/proc/{a_pid}/cwd'))
    assert home.stat().st_uid == process_uid(a_pid) and home.stat().st_mode & 0o777 == 0o700 and home != ROOT
    mine = home / 'nbs' / 'tutorials' / 'start.ipynb'
    assert mine.stat().st_uid == process_uid(a_pid) and as_process(a_pid, 'test', '-w', str(mine)).returncode == 0  # her own copy

@pytest.mark.browser  # a server test: `make quick` leaves it out
def test_the_hub_refuses_to_run_as_another_user_than_root_and_says_what_to_use():
    if _hub_missing(): pytest.skip(_hub_missing())
    python = student_python()
    nobody = pwd.getpwnam('nobody')
    work = pathlib.Path(tempfile.mkdtemp(dir='/var/tmp'))  # a folder nobody may use (pytest's own is root's alone)
    try:
        os.chown(work, nobody.pw_uid, nobody.pw_gid)
        (work / 'class.txt').write_text('asha\n')
        env = {'PATH': os.environ['PATH'], 'PYTHONPATH': str(ROOT), 'HOME': str(work), 'HUB_ROSTER': str(work / 'class.txt'), 'HUB_STATE': str(work / 'hub'),
               'CLASS_CODE': CLASS_CODE}
        as_nobody = dict(user=nobody.pw_uid, group=nobody.pw_gid, extra_groups=[])
        done = subprocess.run(hub_argv(python, free_port()), capture_output=True, text=True, timeout=90, cwd=ROOT, env=env, **as_nobody)
        said = done.stderr + done.stdout
        assert done.returncode != 0 and 'runs as nobody, not root' in said and 'HUB_TRUSTED_LAB=1' in said
        assert all(word in said for word in ('sudospawner', 'DockerSpawner', 'Kubernetes'))
        assert not (work / 'hub').exists()  # refused before it made anything
        port = free_port()  # a lab of trusted machines says so: the hub starts, as nobody
        with hub_served(hub_argv(python, port), port, env={**env, 'HUB_TRUSTED_LAB': '1', 'HUB_HINT_WORKERS': '1'}, **as_nobody):  # (one hint process: none asked)
            wait_for_login_page(port)
        assert (work / 'hub').stat().st_uid == nobody.pw_uid and (work / 'hub').stat().st_mode & 0o777 == 0o700
    finally: shutil.rmtree(work, ignore_errors=True)

@pytest.mark.browser  # a server test: `make quick` leaves it out
def test_the_hub_will_not_start_without_a_class_list(tmp_path):
    if _hub_missing(): pytest.skip(_hub_missing())
    python = student_python()
    base = {k: v for k, v in checkout_env().items() if k not in ('CLASS_CODE', 'HUB_ROSTER')} | {'HUB_STATE': str(tmp_path / 'state')}
    (tmp_path / 'bad.txt').write_text('asha\nroot\n')
    for env, said in [(base, 'Set HUB_ROSTER'), (base | {'CLASS_CODE': CLASS_CODE}, 'CLASS_CODE is no longer used'),
                      (base | {'HUB_ROSTER': str(tmp_path / 'bad.txt')}, "HUB_ROSTER: line 2: 'root' is an account")]:
        done = subprocess.run(hub_argv(python, free_port()), env=env, capture_output=True, text=True, timeout=90, cwd=ROOT)
        assert done.returncode != 0 and said in done.stderr + done.stdout

def _wait(what, test, wait=60):
    deadline = time.time() + wait
    while not test():
        if time.time() > deadline: raise AssertionError(f"{what} within {wait} s")
        time.sleep(0.5)

def test_a_students_server_has_limits_and_a_page_too_many_is_refused(hub, servers):
    "Memory and kernels per student (no systemd here: each process's data memory, inherited by its kernels); the hub says which."
    log = (hub.state.parent / 'hub.log').read_text()
    assert 'Traceback' not in log, log[log.index('Traceback') - 500:][:3000]  # (before its kernels: one stopped while it starts says KeyboardInterrupt)
    systemd = pathlib.Path('/run/systemd/system').is_dir()
    assert ("in a systemd unit of its own" if systemd else "as a process (no systemd here") in log, log[:2000]
    if systemd: pytest.skip("systemd runs this machine: the servers are units (their limits are systemd's); the test for the processes' limits is for machines without it")
    asha, bram = hub.names
    s, pid = servers[asha]
    hub_xsrf = next(c.value for c in s.cookies if c.name == '_xsrf' and c.path.startswith('/hub'))
    token = s.post(f'{hub.url}/hub/api/users/{asha}/tokens', json={'note': 'test', 'expires_in': 600},
                   headers={'X-XSRFToken': hub_xsrf}, timeout=30).json()['token']
    api, auth = f'{hub.url}/user/{asha}/api/kernels', {'Authorization': f'token {token}'}
    for k in requests.get(api, headers=auth, timeout=30).json(): requests.delete(f"{api}/{k['id']}", headers=auth, timeout=60)
    started = [requests.post(api, headers=auth, json={'name': 'python3'}, timeout=120) for _ in range(4)]
    assert [r.status_code for r in started] == [201, 201, 201, 429], [(r.status_code, r.text[:100]) for r in started]
    assert 'At most 3 tutor pages at once' in started[3].text and 'Traceback' not in started[3].text
    kernels = [int(p) for p in filter(str.isdigit, os.listdir('/proc')) if _ppid(p) == pid]
    assert kernels, "no kernel process under the student's server"
    for p in (pid, *kernels):
        data = re.search(r'Max data size\s+(\d+)\s+(\d+)', pathlib.Path(f'/proc/{p}/limits').read_text())
        assert data and int(data.group(1)) == int(data.group(2)) == 2 ** 30, (p, data and data.group(0))
    # what a kernel of hers meets when it asks for 1.5 GB (as her, with her kernel's limit), while Bram's server answers
    over = as_process(kernels[0], 'prlimit', f'--data={2 ** 30}', hub.python, '-c', 'b = bytearray(1500 * 2 ** 20); b[-1] = 1')
    assert over.returncode != 0 and 'MemoryError' in over.stderr, (over.returncode, over.stderr[-300:])
    assert servers[bram][0].get(f'{hub.url}/user/{bram}/api/status', timeout=30).status_code == 200
    for r in started[:3]: requests.delete(f"{api}/{r.json()['id']}", headers=auth, timeout=60)

def _ppid(pid) -> int:
    try: return int(pathlib.Path(f'/proc/{pid}/stat').read_text().rsplit(')', 1)[1].split()[1])
    except (OSError, IndexError, ValueError): return -1

# --- the coach's hints in a student's own server: the hub's shared pool (issue 50, item 4) -------------------------------

def run_in_kernel(hub, name, session, code, wait=180) -> str:
    "What `code` prints, run in a new kernel of student `name`'s own server (as a tutor page's kernel runs), over its websocket."
    import json, uuid
    from websockets.sync.client import connect
    hub_xsrf = next(c.value for c in session.cookies if c.name == '_xsrf' and c.path.startswith('/hub'))
    token = session.post(f'{hub.url}/hub/api/users/{name}/tokens', json={'note': 'hint test', 'expires_in': 600},
                         headers={'X-XSRFToken': hub_xsrf}, timeout=30).json()['token']
    api, auth = f'{hub.url}/user/{name}/api/kernels', {'Authorization': f'token {token}'}
    for k in requests.get(api, headers=auth, timeout=30).json(): requests.delete(f"{api}/{k['id']}", headers=auth, timeout=60)
    kernel = requests.post(api, headers=auth, json={'name': 'python3'}, timeout=120).json()['id']
    msg_id, out, done = uuid.uuid4().hex, [], set()
    try:
        with connect(f"ws://127.0.0.1:{hub.port}/user/{name}/api/kernels/{kernel}/channels", additional_headers=auth, open_timeout=60, max_size=2**24) as ws:
            ws.send(json.dumps({'header': {'msg_id': msg_id, 'msg_type': 'execute_request', 'session': uuid.uuid4().hex, 'username': name, 'version': '5.3'},
                                'parent_header': {}, 'metadata': {}, 'channel': 'shell',
                                'content': {'code': code, 'silent': False, 'store_history': False, 'user_expressions': {}, 'allow_stdin': False}}))
            deadline = time.time() + wait
            while time.time() < deadline:
                m = json.loads(ws.recv(timeout=deadline - time.time()))
                if m.get('parent_header', {}).get('msg_id') != msg_id: continue
                if m['msg_type'] == 'stream': out.append(m['content']['text'])
                if m['msg_type'] == 'error': out.append('\n'.join(m['content']['traceback']))
                done |= {m['msg_type']} & {'execute_reply'} | ({'idle'} if m['msg_type'] == 'status' and m['content'].get('execution_state') == 'idle' else set())
                if done == {'execute_reply', 'idle'}: return ''.join(out)  # the reply, and every output before the kernel went idle
        raise AssertionError(f"the kernel did not answer within {wait} s: {''.join(out)[-500:]}")
    finally: requests.delete(f"{api}/{kernel}", headers=auth, timeout=60)

def test_a_students_hint_is_searched_in_the_hubs_shared_pool_sized_by_the_machine(hub, servers):
    "The tutor's Hint in a student's own server: searched by the hub's service `hint-pool` (its own account, one worker per core), not in the kernel."
    asha = hub.names[0]
    said = run_in_kernel(hub, asha, servers[asha][0], "import os\nfrom cardgames_tutor.coach.pool import ask, ENV\n"
                         "from cardgames_tutor.ui.panel import Tutor\nbefore = ask(os.environ[ENV], ('served',))\n"
                         "t = Tutor(seed=1); t.coach.hint_box.show()\n"
                         "print('served', before, ask(os.environ[ENV], ('served',)), 'hint', t.coach.hint_box.hint.best, 'Hint:' in t.coach.hint_box.text.value)")
    got = re.search(r'served (\d+) (\d+) hint (\S+) True', said)
    assert got, said[-2000:]
    assert int(got.group(2)) == int(got.group(1)) + 1, said  # her search was the pool's (counted for her account), not her kernel's
    pool = [p for p in filter(str.isdigit, os.listdir('/proc')) if _environ(p).get('JUPYTERHUB_SERVICE_NAME') == 'hint-pool'
            and _ppid(p) in _hub_pids(hub)]
    assert len(pool) == 1, pool
    assert pwd.getpwuid(process_uid(pool[0])).pw_name == 'cardgames-hints' and process_uid(pool[0]) != process_uid(servers[asha][1])
    cores = len(os.sched_getaffinity(0))
    workers = [p for p in filter(str.isdigit, os.listdir('/proc')) if _ppid(p) == int(pool[0]) and b'spawn_main' in _cmdline(p)]
    assert len(workers) == min(8, cores), (len(workers), cores)  # sized by the machine: one per core, 8 at most (started with the pool)
    log = (hub.state.parent / 'hub.log').read_text()
    assert f"Shared hint pool: {min(8, cores)} worker" in log, log[-3000:]

def _hub_pids(hub) -> set:
    "The process ids of the hub on `hub.port` (the hub starts its services as its children)."
    return {int(p) for p in filter(str.isdigit, os.listdir('/proc'))
            if f'--JupyterHub.bind_url=http://127.0.0.1:{hub.port}'.encode() in _cmdline(p).split(b'\0')}

def _cmdline(pid) -> bytes:
    try: return pathlib.Path(f'/proc/{pid}/cmdline').read_bytes()
    except OSError: return b''  # (it ended meanwhile)

def test_access_ends_at_once_for_a_student_taken_off_the_list_or_given_a_new_code(hub, servers):
    """The class list changed under a running hub: the student taken off it and the student given a new code lose their
    sessions, tokens and server within seconds. (The module's last test: Bram, whose server the tests before used, is
    taken off the list, no server started for this alone; Dee, on the list from the start, gets a new code.)"""
    asha, bram = hub.names
    (dee,) = hub.later
    before = len((hub.state.parent / 'hub.log').read_text())  # (the log up to here: test_a_students_server_has_limits... read it)
    old_bram, bram_pid = servers[bram]  # logged in, his own server running
    old_dee, r = hub.login(dee, hub.codes[dee]); assert r.status_code == 302
    home = lambda s: s.get(f'{hub.url}/hub/home', allow_redirects=False, timeout=30).status_code
    assert home(old_bram) == home(old_dee) == 200 and pathlib.Path(f'/proc/{bram_pid}').exists()
    (hub.state.parent / 'class.txt').write_text(f'{asha}\n{dee} 2\n')  # Bram taken off the list; Dee given a new code
    _wait("Bram's server stopped", lambda: not pathlib.Path(f'/proc/{bram_pid}').exists())
    _wait("the old sessions ended", lambda: home(old_bram) == home(old_dee) == 302)
    assert old_bram.get(f'{hub.url}/user/{bram}/files/nbs/tutorials/start.ipynb', timeout=30).url.startswith(f'{hub.url}/hub/login')
    assert hub.login(bram, hub.codes[bram])[1].status_code != 302 and hub.login(dee, hub.codes[dee])[1].status_code != 302
    new = roster.code_for(roster.roster_secret(hub.state), dee, 2)
    assert hub.login(dee, new)[1].status_code == 302  # her new code logs her in (her files are where she left them)
    assert home(servers[asha][0]) == 200  # Asha, on the list as she was, keeps her session
    log = (hub.state.parent / 'hub.log').read_text()
    assert f'roster-watch: {bram} is no longer on the class list' in log and f'roster-watch: {dee} has a new code' in log, log[-2000:]
    assert 'Traceback' not in log[before:], log[log.index('Traceback', before) - 500:][:3000]
