"""The class list for the JupyterHub (`deploy/jupyterhub_config.py`): each student logs in with their own code.

The teacher writes the students' names in a text file, one a line, and prints each student's code:

    sudo HUB_STATE=/srv/tutor-hub .venv/bin/python deploy/roster.py class.txt     # name <TAB> code, one a line

A name is what the student types at the login page and the name of their own account on the machine: lowercase
letters, digits, '-' or '_', starting with a letter, at most 32 signs. Lines starting with '#' are notes. A school with
more than one class on the hub writes each name's class after it (`asha @4b`; a teacher of two classes: `mrsrao @4a @4b`):
each class then has a classroom of its own (deploy/jupyterhub_config.py).
A student's code is an HMAC of their name under the hub's roster secret (`roster_secret` in the hub's state folder,
made on first use, readable by the hub's user only): printing the codes again gives the same codes, a code fits one
name only, and a name not on the list cannot log in. To give one student a new code (theirs was shared), write a
number after their name (`asha 2`): the old code no longer logs in. A new roster secret (delete the file) gives every
student a new code.

Access ends at once: the hub runs `roster.py --watch CLASS_LIST` as its service `roster-watch` (deploy/jupyterhub_config.py),
which reads the list every few seconds and, for a student taken off it or given a new code since they logged in, asks
the hub's API to stop their server and delete them from the hub: every session and token they hold ends with it (their
account and home folder stay, with their work in them; given a new code, they log in again with it).
"""
import asyncio, grp, hashlib, hmac, json, os, pathlib, pwd, re, secrets, subprocess, sys, time, urllib.error, urllib.request

PROJECT = pathlib.Path(__file__).resolve().parent.parent
GROUP = 'cardgames-students'  # every student's account is in this group; an account outside it is never a student's
NAME = re.compile(r'[a-z][a-z0-9_-]{0,31}')
CLASS_NAME = re.compile(r'[a-z0-9][a-z0-9-]{0,19}')  # a class's name on the list ('@4b'): its service is /services/classroom-4b/
ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'  # no 0/o, 1/l/i: a code is read off a slip of paper
CODE_SIGNS = 10  # 31**10 codes (49 bits): guessing one online is hopeless
FAILED_LOGIN_WAIT = 1.0  # seconds a refused login waits before it answers

def state_dir() -> pathlib.Path:
    "The hub's state folder (database, cookie secret, roster secret): `HUB_STATE`, by default `.hub` in the project."
    return pathlib.Path(os.environ.get('HUB_STATE') or PROJECT / '.hub')

def roster_secret(state:pathlib.Path) -> bytes:
    "The secret the codes are made under (`state/roster_secret`, mode 0600), made the first time it is needed."
    path = state / 'roster_secret'
    if not path.exists():
        state.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, 'w') as f: f.write(secrets.token_hex(32) + '\n')
    return bytes.fromhex(path.read_text().strip())

def code_for(secret:bytes, name:str, generation:int=1) -> str:
    "The login code of `name` (its `generation`-th): 10 signs from `ALPHABET`, written `xxxxx-xxxxx`."
    n = int.from_bytes(hmac.new(secret, f'{name}\n{generation}'.encode(), hashlib.sha256).digest(), 'big')
    signs = ''.join(ALPHABET[(n // len(ALPHABET) ** i) % len(ALPHABET)] for i in range(CODE_SIGNS))
    return f'{signs[:5]}-{signs[5:]}'

def same_code(typed:str, code:str) -> bool:
    "Whether the code a student typed is `code` (case, spaces and dashes ignored), compared in constant time."
    clean = lambda s: re.sub(r'[\s-]', '', s).lower()
    return hmac.compare_digest(clean(typed).encode(), clean(code).encode())

def foreign_account(name:str) -> bool:
    "Whether `name` is an account (or group) on this machine that is not a student's: root, a service, a person's login."
    try: members = grp.getgrnam(GROUP).gr_mem
    except KeyError: members = []
    try: entry = pwd.getpwnam(name)
    except KeyError: return name == GROUP or _group_exists(name)  # useradd could not make the student's own group
    return entry.pw_uid == 0 or name not in members

def _group_exists(name:str) -> bool:
    try: grp.getgrnam(name); return True
    except KeyError: return False

def parse_roster(text:str, check_accounts:bool=True) -> dict:
    "{name: generation} from a roster's text; a `ValueError` naming the first bad line and what a line may be."
    found = {}
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split('#', 1)[0].split()
        if not words: continue
        name, rest = words[0], [w for w in words[1:] if not w.startswith('@')]
        shown = name if len(name) <= 40 else name[:37] + '...'
        bad = next((w for w in words[1:] if w.startswith('@') and not CLASS_NAME.fullmatch(w[1:])), None)
        if bad: raise ValueError(f"line {number}: {bad[:24]!r} is not a class: '@' and its name, lowercase letters, digits or '-', at most 20 signs")
        if not NAME.fullmatch(name):
            raise ValueError(f"line {number}: {shown!r} is not a name the hub can use: lowercase letters, digits, "
                             f"'-' or '_', starting with a letter, at most 32 signs")
        if len(rest) > 1 or (rest and not (rest[0].isdigit() and len(rest[0]) <= 4 and int(rest[0]) >= 1)):
            raise ValueError(f"line {number}: after {name!r} only a code number (1 to 9999) and classes ('@4b') may follow")
        if name in found: raise ValueError(f"line {number}: {name!r} is on the list twice")
        if check_accounts and foreign_account(name):
            raise ValueError(f"line {number}: {name!r} is an account on this machine already, not a student's: "
                             f"give the student another name")
        found[name] = int(rest[0]) if rest else 1
    return found

def read_roster(path) -> dict:
    "{name: generation} from the roster file at `path`; a `ValueError` saying what is wrong with it."
    try: text = pathlib.Path(path).read_text(encoding='utf-8')
    except OSError as e: raise ValueError(f"cannot read the class list {path}: {(e.strerror or 'unreadable').lower()}") from None
    except UnicodeDecodeError: raise ValueError(f"the class list {path} is not UTF-8 text") from None
    return parse_roster(text)

def classes_of(text:str) -> dict:
    "{name: (its classes, in order)} from a roster's text (checked by `parse_roster` first): the words '@4b' after a name."
    found = {}
    for line in text.splitlines():
        words = line.split('#', 1)[0].split()
        if words: found[words[0]] = tuple(dict.fromkeys(w[1:] for w in words[1:] if w.startswith('@')))
    return found

def read_classes(path) -> dict:
    "{name: its classes} from the roster file at `path`; a `ValueError` saying what is wrong with it."
    read_roster(path)
    return classes_of(pathlib.Path(path).read_text(encoding='utf-8'))

def codes(path, state:pathlib.Path) -> list:
    "[(name, code)] for every student on the roster at `path`, in its order."
    secret = roster_secret(state)
    return [(name, code_for(secret, name, gen)) for name, gen in read_roster(path).items()]

WATCH_EVERY = 3.0  # seconds between two readings of the class list by `watch`

def logins(state:pathlib.Path) -> dict:
    "{name: the code number each student last logged in with} (`state/login_codes.json`, kept by the authenticator)."
    try: known = json.loads((state / 'login_codes.json').read_text())
    except (OSError, ValueError): return {}
    return known if isinstance(known, dict) else {}

def ended(users, roster:dict, logged:dict) -> list:
    "The hub's `users` whose access has ended: off the class list, or logged in with a code number replaced since."
    return [u for u in users if u not in roster or logged.get(u, roster[u]) != roster[u]]

def hub_api(method:str, path:str, api:str=None, token:str=None):
    "The hub's JSON answer to `method path` (its API at `JUPYTERHUB_API_URL`, with this service's `JUPYTERHUB_API_TOKEN`)."
    api, token = api or os.environ['JUPYTERHUB_API_URL'], token or os.environ['JUPYTERHUB_API_TOKEN']
    req = urllib.request.Request(api.rstrip('/') + path, method=method, headers={'Authorization': f'token {token}'})
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # the hub's API: never through a web proxy
    with opener.open(req, timeout=60) as r: body = r.read()
    return json.loads(body) if body else None

def end_access(roster_path, state:pathlib.Path, api=hub_api, say=print) -> list:
    "Delete from the hub (its servers stopped, its sessions and tokens gone) every user whose access has ended; their names."
    try: roster = read_roster(roster_path)
    except ValueError as e:
        say(f"roster-watch: the class list is not usable ({e}): nobody's access is changed"); return []
    done = []
    for name in ended([u['name'] for u in api('GET', '/users') or [] if u.get('kind', 'user') == 'user'], roster, logins(state)):
        why = 'is no longer on the class list' if name not in roster else 'has a new code'
        try: api('DELETE', f'/users/{name}')  # the hub stops their server first; their account and files stay
        except urllib.error.HTTPError as e:
            say(f"roster-watch: {name} {why}, but the hub did not end their access yet ({e.code}): tried again shortly"); continue
        say(f"roster-watch: {name} {why}: their server is stopped and every session and token of theirs has ended")
        done.append(name)
    return done

def watch(roster_path, state:pathlib.Path, every:float=WATCH_EVERY):
    "Run `end_access` every `every` s until stopped (the hub's service `roster-watch`); a hub that does not answer is tried again."
    print(f"roster-watch: reading {roster_path} every {every:g} s", flush=True)
    while True:
        try: end_access(roster_path, state, say=lambda line: print(line, flush=True))
        except (OSError, ValueError) as e: print(f"roster-watch: the hub did not answer ({str(e)[:120]}): tried again shortly", flush=True)
        time.sleep(every)

def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) == 2 and argv[0] == '--watch': return watch(argv[1], state_dir())
    out = argv[2] if len(argv) == 3 and argv[1] == '--out' else None
    if not (len(argv) == 1 or out) or argv[0].startswith('-'):
        sys.exit("usage: HUB_STATE=FOLDER python deploy/roster.py CLASS_LIST [--out FILE]   (each student's name and login code: "
                 "printed, or written to FILE, readable by you only)")
    try: rows = codes(argv[0], state_dir())
    except PermissionError: sys.exit(f"roster.py: cannot read the hub's roster secret in {state_dir()}: run this as the hub's user (sudo)")
    except ValueError as e: sys.exit(f"roster.py: {e}")
    text = ''.join(f'{name}\t{code}\n' for name, code in rows)
    if out is None: return print(text, end='')
    try:
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(fd, 0o600)  # a file that was there before: private too
        with os.fdopen(fd, 'w') as f: f.write(text)
    except OSError as e: sys.exit(f"roster.py: cannot write {out}: {(e.strerror or 'unwritable').lower()}")
    print(f"roster.py: {len(rows)} codes written to {out} (readable by you only: keep it so, and hand each student theirs)", file=sys.stderr)

def __getattr__(name):
    """`RosterAuthenticator`, made the first time it is asked for (`from roster import RosterAuthenticator`): JupyterHub's
    authenticator takes a second to import, which the class list tool and `--watch` (the hub's service) never need."""
    if name != 'RosterAuthenticator': raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()['RosterAuthenticator'] = made = _roster_authenticator()
    return made

def _roster_authenticator():
    from jupyterhub.auth import LocalAuthenticator
    from traitlets import Bool, Set, Unicode

    class RosterAuthenticator(LocalAuthenticator):
        """Log in with a name on the class list and that name's own code (`deploy/roster.py` prints them).

        The name is also the student's own account on the machine: made on their first login (home folder 0700, in the
        group `cardgames-students`), never an account that was there before for someone or something else."""
        roster_file = Unicode(help="The class list: one student's name a line").tag(config=True)
        state_folder = Unicode(help="The hub's state folder, holding the roster secret").tag(config=True)
        class_groups = Bool(False, help="Put each login in the hub groups of its classes on the list ('@4b': class-4b) and, for "
                            "`teachers`, teachers-4b (the authenticator then manages the hub's groups)").tag(config=True)
        teachers = Set(Unicode(), help="The names on the list who teach their classes").tag(config=True)

        def roster(self) -> dict:
            try: return read_roster(self.roster_file)
            except ValueError as e: self.log.error("The class list is not usable: %s", e); return {}

        async def authenticate(self, handler, data):
            name = self.normalize_username((data or {}).get('username', '').strip())
            gen = self.roster().get(name)
            if gen and same_code((data or {}).get('password', ''), code_for(roster_secret(pathlib.Path(self.state_folder)), name, gen)):
                self._remember(name, gen)
                return {'name': name, 'groups': self.groups_of(name)} if self.class_groups else name
            self.log.warning("Refused a login as %r: %s", name[:40], 'wrong code' if gen else 'not on the class list')
            await asyncio.sleep(FAILED_LOGIN_WAIT)  # the refused request waits; other students' requests do not
            return None

        def check_allowed(self, username, authentication=None): return username in self.roster()

        def groups_of(self, name:str) -> list:
            "The hub groups of `name`: class-C for each of their classes C, and teachers-C too for a teacher."
            try: classes = read_classes(self.roster_file).get(name, ())
            except ValueError: classes = ()
            return [f'class-{c}' for c in classes] + [f'teachers-{c}' for c in classes if name in self.teachers]

        def _logins(self) -> pathlib.Path: return pathlib.Path(self.state_folder) / 'login_codes.json'

        def _remember(self, name:str, gen:int):
            "Which of `name`'s codes their session was opened with (`state/login_codes.json`, mode 0600)."
            try: known = json.loads(self._logins().read_text())
            except (OSError, ValueError): known = {}
            known[name] = gen
            new = self._logins().with_suffix('.new')
            fd = os.open(new, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, 'w') as f: json.dump(known, f)
            os.replace(new, self._logins())

        async def refresh_user(self, user, handler=None):
            """A student taken off the list, or given a new code number since they logged in, must log in again. A request
            made with a token is left to `roster-watch` (which deletes the user, and their tokens with them, within seconds):
            JupyterHub's token path cannot take a refusal here (it logs a traceback)."""
            if handler is not None and (handler.request.headers.get('Authorization') or handler.get_argument('token', '')): return True
            known = logins(pathlib.Path(self.state_folder))
            return self.roster().get(user.name, 0) == known.get(user.name, -1)

        def system_user_exists(self, user):
            if foreign_account(user.name): raise ValueError(f"{user.name!r} is an account on this machine, not a student's")
            return super().system_user_exists(user)

        def add_system_user(self, user):
            "The student's own account: no password, no login shell, in `GROUP`, a home folder only they can open."
            if subprocess.run(['getent', 'group', GROUP], capture_output=True).returncode:
                subprocess.run(['groupadd', '--system', GROUP], check=True, capture_output=True)
            done = subprocess.run(['useradd', '--create-home', '--user-group', '--groups', GROUP, '--shell', '/usr/sbin/nologin',
                                   '--comment', 'cardgames_tutor student', '--key', 'HOME_MODE=0700', user.name],
                                  capture_output=True, text=True)
            if done.returncode: raise RuntimeError(f"could not make the account {user.name!r}: {done.stderr.strip()[:200]}")
            os.chmod(pwd.getpwnam(user.name).pw_dir, 0o700)

    RosterAuthenticator.__qualname__ = 'RosterAuthenticator'
    return RosterAuthenticator

def student_account(name:str) -> pwd.struct_passwd:
    "The account a student's server runs as; a `ValueError` when `name` is not a student's account (root, a service)."
    entry = pwd.getpwnam(name)
    if foreign_account(name): raise ValueError(f"{name!r} is not a student's account: its server is not started")
    return entry

def service_account(name:str) -> pwd.struct_passwd:
    """The system account a service of the hub runs as (`deploy/jupyterhub_config.py`'s classroom), made if missing: no
    password, no login shell, a home folder only it can open, in no students' group. Never a student's account."""
    try: entry = pwd.getpwnam(name)
    except KeyError:
        done = subprocess.run(['useradd', '--system', '--create-home', '--home-dir', f'/var/lib/{name}', '--user-group',
                               '--shell', '/usr/sbin/nologin', '--comment', 'cardgames_tutor hub service', name],
                              capture_output=True, text=True)
        if done.returncode: raise SystemExit(f"could not make the account {name!r} for the hub's service: {done.stderr.strip()[:200]}")
        entry = pwd.getpwnam(name)
    if entry.pw_uid == 0 or not foreign_account(name):
        raise SystemExit(f"{name!r} is root or a student's account: the hub's service does not run as it")
    os.chmod(entry.pw_dir, 0o700)
    return entry

def closed_folder(path) -> str:
    "The first folder on the way to `path` that accounts other than its owner cannot pass through ('' if none)."
    for folder in reversed(pathlib.Path(os.path.realpath(path)).parents):
        if not folder.stat().st_mode & 0o001: return str(folder)
    return ''

def students_cannot_run(python:str) -> str:
    "Why an account with no rights (as a student's is) cannot start a server with `python` ('' when it can)."
    try: nobody = pwd.getpwnam('nobody')
    except KeyError: return ''  # no such account to try with
    probe = 'import cardgames_tutor, jupyterhub.singleuser, voila, ipykernel'
    try: done = subprocess.run([python, '-c', probe], user=nobody.pw_uid, group=nobody.pw_gid, extra_groups=[],
                               cwd='/', capture_output=True, text=True, timeout=120)
    except PermissionError: done = None
    except subprocess.TimeoutExpired: return ''
    if done is not None and done.returncode == 0: return ''
    closed = closed_folder(python)
    if closed: return f"{closed} is closed to other accounts"
    return (done.stderr.strip().splitlines() or ['it does not start'])[-1][:200] if done else 'it is not executable for them'

if __name__ == '__main__': main()
