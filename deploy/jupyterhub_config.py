"""JupyterHub for a class past one machine's `make classroom`: every student logs in with their own code and gets their
own server, run as their own account on the machine, whose default page is the tutor (the start page as an app,
served by Voilà inside that server) in their own copy of the notebooks.

Run as root (the hub switches to each student's account; from the project root, with the project installed in .venv:
`pip install -e '.[dev,hub]'`, and the proxy: `npm install -g configurable-http-proxy`):

    sudo .venv/bin/python deploy/roster.py class.txt       # class.txt: the students' names, one a line
    sudo HUB_ROSTER=class.txt .venv/bin/jupyterhub -f deploy/jupyterhub_config.py

The first command prints each student's own login code (hand each student theirs); a name not on the list, or a name
with another student's code, cannot log in. Students open http://HUB:8000/, type their name and code, and land on the
tutor. Put the hub behind HTTPS (a reverse proxy: see README) before students connect over the internet.

Settings through the environment: HUB_ROSTER (required: the class list; see deploy/roster.py), HUB_IP (default
127.0.0.1; 0.0.0.0 for a network), HUB_PORT (8000), HUB_MAX_USERS (60 concurrent servers), HUB_STATE (the folder for
the hub's database, cookie secret and roster secret, mode 0700; default .hub in the project), HUB_LOGIN_HOURS (how
long a login lasts, default 12). The admin's page of the docs (admin/hub) says it all in order.

Isolation: each student's server runs as their own account (made at their first login by deploy/roster.py's
authenticator: no password, no shell, home folder 0700), so it cannot read the hub's state, another student's files,
tokens or processes, nor change the project (owned by root, only read). That needs the hub to run as root; run as
another user it refuses to start, naming what to use instead: sudospawner (the hub as a user allowed to start servers
as others), DockerSpawner (`pip install dockerspawner`, an image with this project installed) or Kubernetes
(zero-to-jupyterhub), keeping `default_url` and `args` below. On a lab of trusted machines, HUB_TRUSTED_LAB=1 runs
every server as the hub's own user instead (each in its own folder under HUB_STATE/homes): not for strangers.

A school's own logins instead of the class list: an LTI 1.3 tool in the school's learning platform (Moodle, Canvas,
...): HUB_AUTH=lti13 (see the end of this docstring), or OAuth with the school's accounts (`pip install oauthenticator`, e.g. 'google' or 'generic-oauth', with its client
id and secret). Those names are not accounts on the machine: give each student a container (DockerSpawner) or make
the accounts (`c.LocalAuthenticator.create_system_users`, the authenticator a LocalAuthenticator).

The class's classroom (students at tables together, each on their own device): HUB_CLASSROOM=1 adds the classroom
server as the hub's service, one for the class, at http://HUB:8000/services/classroom/, and students land there when
they log in (their own server, with the tutor and the notebooks, is one click away on the hub's home page):

    sudo HUB_ROSTER=class.txt HUB_CLASSROOM=1 HUB_TEACHERS=mrsrao .venv/bin/jupyterhub -f deploy/jupyterhub_config.py

The hub starts it (`python -m cardgames_tutor.serve.hub_service`, the `cardgames-classroom-service` command) as its
own account, `cardgames-classroom` (made here, no login, its home 0700: the service's token is out of the students'
reach), and restarts it if it stops. The hub's login is the classroom's door (the hub's OAuth): whoever the
authenticator lets in may enter, nobody else, and there is no class code to hand out. That holds for any
authenticator: with LTI as above, the tool's link in the school's platform logs the student in to the hub and they
land in the classroom, with nothing else to change here (students need no account on this machine for the classroom;
only their own servers do). Let the platform open the tool in a window of its own, not in a frame of its page: the
browser keeps the hub's cookies from a frame of another site. HUB_CLASSROOM_PORT (default 10101) is the loopback
port the hub's proxy reaches it on. HUB_CLASSROOM_START=tables opens the students' page on the form to join a table
(for a class playing at tables; the default, solo, opens a game alone, the tables one click away). HUB_TEACHERS: names on the class list who teach (comma between; the hub group
`teachers`; an authenticator that sets the hub's groups, `c.Authenticator.manage_groups`, can fill it instead). A
teacher who logs in lands on the teacher's page (http://HUB:8000/services/classroom/teacher: the class at a glance,
pause, the work, the results; its projector page at .../teacher/show) with no second code; students never reach it.
HUB_CLASSROOM_RESULTS: the class's results file (default: classroom.sqlite in the service account's data folder,
/var/lib/cardgames-classroom/.local/share/cardgames_tutor/; back it up with the hub's state); HUB_HINT_WORKERS: processes
the coach's hints are searched in (default: one per core, 8 at most), in each class's classroom and in the hub's shared
pool of hints.

The coach's hints in the students' own servers (the tutor pages, the notebooks): every server sends its searches to one
pool for the machine, the hub's service `hint-pool` (`python -m cardgames_tutor.serve.hint_pool`, as its own account,
`cardgames-hints`), on a Unix socket (/run/cardgames-hints/, HUB_HINT_SOCKET to put it elsewhere) that only this
machine's processes reach: the seat's view goes there, never the deal, and the hint comes back. HUB_HINT_WORKERS sizes
it as it sizes the classroom's (one process per core, 8 at most, by default).

More than one class on one hub: write each name's class on the class list (`asha @4a`, `mrsrao @4a @4b`). Each class C
then has its own classroom service, /services/classroom-C/ (loopback ports HUB_CLASSROOM_PORT, +1, ... in the classes'
order), its results in /var/lib/cardgames-classroom/classes/C/classroom.sqlite, only for the hub's group class-C (set
at each login from the list), its teachers (HUB_TEACHERS on C's list) the group teachers-C; a student lands in their
class's classroom and the hub refuses them any other's.

The school's own logins (LTI 1.3): HUB_AUTH=lti13 with HUB_LTI_ISSUER, HUB_LTI_CLIENT_ID, HUB_LTI_AUTHORIZE_URL and
HUB_LTI_JWKS_URL (from the tool's registration in the platform; HUB_LTI_USERNAME_KEY, default email, the claim that is the
hub's login) in place of HUB_ROSTER: deploy/school_lti.py. The platform's Instructors are the hub's `teachers`.
"""
import hashlib, os, pathlib, pwd, sys
import jupyterhub

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from roster import RosterAuthenticator, read_classes, read_roster, roster_secret, service_account, state_dir, student_account, students_cannot_run  # noqa: E402

PROJECT = HERE.parent
BIN = pathlib.Path(sys.executable).parent
SERVER = BIN / 'jupyterhub-singleuser'  # what deploy/student_server.py becomes, as the student
# the hub's own PYTHONPATH, if it has one (the tests' hub: a checkout its Python imports the project from), passed on to
# the services and servers it starts; a hub installed as above has none, and then this adds nothing
PYTHONPATH = [os.environ['PYTHONPATH']] if os.environ.get('PYTHONPATH') else []
KEPT = {'PYTHONPATH': os.pathsep.join(PYTHONPATH)} if PYTHONPATH else {}
c = get_config()  # noqa: F821 (JupyterHub provides it)

def refuse(why:str):
    """The hub does not start: `why` said in one line on stderr, exit status 1 (as `sys.exit(why)` would). Nothing is running
    yet and nothing open needs closing, so the process ends at once (`os._exit`) rather than first tearing down every module
    JupyterHub imported (half a CPU-second of a refused start)."""
    print(why, file=sys.stderr, flush=True)
    os._exit(1)

TRUSTED = os.environ.get('HUB_TRUSTED_LAB', '') == '1'
if os.geteuid() != 0 and not TRUSTED:
    refuse(f"The hub runs as {pwd.getpwuid(os.geteuid()).pw_name}, not root, so it cannot start each student's server as "
           "their own account: every student could read the hub's secrets and the others' work. Run it as root, or use "
           "sudospawner, DockerSpawner or Kubernetes (see this file's docstring); on a lab of trusted machines only, "
           "set HUB_TRUSTED_LAB=1.")
AUTH = os.environ.get('HUB_AUTH', 'roster')  # who logs in: the class list (roster), or the school's platform (lti13)
if AUTH not in ('roster', 'lti13'): refuse(f"HUB_AUTH is roster (the class list, the default) or lti13 (the school's platform), not {AUTH[:20]!r}")
LTI = AUTH == 'lti13'
if not LTI and not os.environ.get('HUB_ROSTER'):
    refuse("Set HUB_ROSTER to the class list (one student's name a line); `python deploy/roster.py LIST` prints each "
           "student's code" + (" (CLASS_CODE is no longer used: one shared code let anyone log in as anyone)"
                               if os.environ.get('CLASS_CODE') else ''))
CLASSROOM = os.environ.get('HUB_CLASSROOM', '') == '1'
SERVICE_ACCOUNT = 'cardgames-classroom'  # the classroom service's own account (not a student's: never in the class list)
if CLASSROOM and not TRUSTED: service_account(SERVICE_ACCOUNT)  # before the class list is read: no student can take its name
HINT_ACCOUNT = 'cardgames-hints'  # the shared pool of hints' own account (below)
if not TRUSTED: service_account(HINT_ACCOUNT)
try: CLASS = {} if LTI else read_roster(os.environ['HUB_ROSTER'])
except ValueError as e: refuse(f"HUB_ROSTER: {e}")
if not TRUSTED:
    why = students_cannot_run(sys.executable)
    if why: refuse(f"Students' accounts cannot run this hub's Python ({sys.executable}): {why}. Install the project in a "
                   "venv every account can read, outside /root (e.g. `/usr/bin/python3 -m venv /opt/cardgames-tutor`, then "
                   "its pip: `pip install -e '.[hub]'`) and run the hub from it.")

# the hub's state: its own folder, mode 0700, which no student's server can open
STATE = state_dir().resolve()
STATE.mkdir(mode=0o700, parents=True, exist_ok=True)
if STATE.stat().st_uid != os.geteuid():
    refuse(f"HUB_STATE {STATE} belongs to another user: the hub's state must be its own (a new folder will do)")
STATE.chmod(0o700)
if not LTI: roster_secret(STATE)
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / 'jupyterhub_cookie_secret')
c.ConfigurableHTTPProxy.pid_file = str(STATE / 'jupyterhub-proxy.pid')

# who may log in: a name on the class list, with that name's own code
if not LTI:
    c.JupyterHub.authenticator_class = RosterAuthenticator
    c.RosterAuthenticator.roster_file = str(pathlib.Path(os.environ['HUB_ROSTER']).resolve())
    c.RosterAuthenticator.state_folder = str(STATE)
    c.RosterAuthenticator.create_system_users = True
    c.Authenticator.any_allow_config = True  # RosterAuthenticator.check_allowed: the class list
else:  # or whoever the school's platform launches (LTI 1.3; deploy/school_lti.py): its instructors in the hub's `teachers`
    LTI_NEEDED = {'HUB_LTI_ISSUER': 'issuer', 'HUB_LTI_CLIENT_ID': 'client_id', 'HUB_LTI_AUTHORIZE_URL': 'authorize_url', 'HUB_LTI_JWKS_URL': 'jwks_endpoint'}
    if (missing := [k for k in LTI_NEEDED if not os.environ.get(k)]):
        refuse(f"HUB_AUTH=lti13 needs {missing[0]} (and {', '.join(LTI_NEEDED)}): the values of the tool's registration in the school's platform")
    try: from school_lti import SchoolLTIAuthenticator
    except ImportError: refuse("HUB_AUTH=lti13 needs jupyterhub-ltiauthenticator in the hub's Python: pip install -e '.[hub]'")
    c.JupyterHub.authenticator_class = SchoolLTIAuthenticator
    for env, trait in LTI_NEEDED.items(): setattr(c.SchoolLTIAuthenticator, trait, os.environ[env])
    c.SchoolLTIAuthenticator.client_id = {i.strip() for i in os.environ['HUB_LTI_CLIENT_ID'].split(',') if i.strip()}
    c.SchoolLTIAuthenticator.username_key = os.environ.get('HUB_LTI_USERNAME_KEY', 'email')  # the platform's claim the hub's login is
    c.Authenticator.allow_all = True  # everyone the platform launches
    c.Authenticator.manage_groups = True  # the launch's roles set the `teachers` group
c.Authenticator.admin_users = set()

c.JupyterHub.bind_url = f"http://{os.environ.get('HUB_IP', '127.0.0.1')}:{os.environ.get('HUB_PORT', '8000')}"
c.JupyterHub.active_server_limit = int(os.environ.get('HUB_MAX_USERS', '60'))
# a login lasts a school day (HUB_LOGIN_HOURS, default 12), not JupyterHub's two weeks: lab PCs are shared
LOGIN_HOURS = float(os.environ.get('HUB_LOGIN_HOURS', '12'))
c.JupyterHub.cookie_max_age_days = LOGIN_HOURS / 24
c.JupyterHub.oauth_token_expires_in = int(LOGIN_HOURS * 3600)  # the servers' and the classroom's logins end with it

# limits per student, and every timeout, here in one place: HUB_MEM_LIMIT (a student's server: all of it under systemd,
# each of its processes elsewhere), HUB_CPU_LIMIT (cores, under systemd), HUB_MAX_KERNELS (tutor pages open at once)
MEM_LIMIT, CPU_LIMIT = os.environ.get('HUB_MEM_LIMIT', '1G'), float(os.environ.get('HUB_CPU_LIMIT', '1'))
MAX_KERNELS = int(os.environ.get('HUB_MAX_KERNELS', '3'))
IDLE_KERNEL, IDLE_SERVER = 120, 1800  # s: a closed page's kernel is stopped; a server nobody used is stopped (the idle culler)
SYSTEMD = pathlib.Path('/run/systemd/system').is_dir()  # systemd runs this machine: each server a unit with its own limits

# each student's server: as their own account (or, in a trusted lab, their own folder), the tutor as its default page,
# no terminals, no per-user Jupyter config, limits on memory and kernels, idle kernels and servers shut down
if TRUSTED:
    c.JupyterHub.spawner_class = 'simple'
    c.SimpleLocalProcessSpawner.home_dir_template = str(STATE / 'homes' / '{username}')
else:
    def only_students(spawner):
        "Never start a server as root or as an account that is not a student's."
        if LTI and not TRUSTED:
            try: pwd.getpwnam(spawner.user.name)
            except KeyError: raise ValueError(f"{spawner.user.name[:40]!r} has no account on this machine: with the school's logins "
                                              "(HUB_AUTH=lti13) a student's own server needs a container spawner or HUB_TRUSTED_LAB=1") from None
        student_account(spawner.user.name)
    c.Spawner.pre_spawn_hook = only_students
    if SYSTEMD:  # jupyterhub-systemdspawner: a unit per server, its memory and CPU capped, a private /tmp, no new privileges
        c.JupyterHub.spawner_class = 'systemdspawner'
        c.SystemdSpawner.isolate_tmp = c.SystemdSpawner.isolate_devices = c.SystemdSpawner.disable_user_sudo = True
        c.SystemdSpawner.user_workingdir = '/home/{USERNAME}'
    else:
        c.JupyterHub.spawner_class = 'localprocess'
print(f"cardgames_tutor hub: each student's server " + (
      f"in a systemd unit of its own (memory {MEM_LIMIT}, {CPU_LIMIT:g} CPU, a private /tmp), at most {MAX_KERNELS} tutor pages open"
      if SYSTEMD and not TRUSTED else
      f"as a process (no systemd here, so no limit on the whole server: each of its processes at most {MEM_LIMIT} of memory, "
      f"at most {MAX_KERNELS} tutor pages open, CPU not limited)"), file=sys.stderr, flush=True)
c.Spawner.mem_limit, c.Spawner.cpu_limit = MEM_LIMIT, CPU_LIMIT  # enforced by systemd (or a container spawner)
c.Spawner.cmd = [sys.executable, str(HERE / 'student_server.py')]
c.Spawner.notebook_dir = '~'
c.Spawner.default_url = '/voila/render/nbs/tutorials/start.ipynb'
c.Spawner.environment = {'PATH': f"{BIN}:/usr/local/bin:/usr/bin:/bin", 'PYTHONPATH': os.pathsep.join([str(HERE), *PYTHONPATH]),  # student_kernels
                         'CARDGAMES_MEM_LIMIT': MEM_LIMIT}  # each process's limit (deploy/student_server.py)
c.Spawner.disable_user_config = True
c.Spawner.args = [
    '--ServerApp.terminals_enabled=False',
    '--ServerApp.kernel_manager_class=student_kernels.CappedKernelManager', f'--CappedKernelManager.max_kernels={MAX_KERNELS}',
    f'--MappingKernelManager.cull_idle_timeout={IDLE_KERNEL}', '--MappingKernelManager.cull_interval=30',
    '--VoilaConfiguration.show_tracebacks=False',
] + (['--allow-root'] if TRUSTED and os.geteuid() == 0 else [])
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
if not SERVER.exists(): refuse(f"{SERVER} is missing: install the hub extra (pip install -e '.[dev,hub]')")

# access that ends at once: a student taken off the class list, or given a new code, is deleted from the hub within
# seconds (their server stopped, every session and token ended; their account and files stay): deploy/roster.py --watch
c.JupyterHub.services = [] if LTI else [{'name': 'roster-watch', 'command': [sys.executable, str(HERE / 'roster.py'), '--watch', c.RosterAuthenticator.roster_file],
                          'environment': {'HUB_STATE': str(STATE), 'PATH': f"{BIN}:/usr/local/bin:/usr/bin:/bin", **KEPT}}]
# the coach's hints in every student's own server: searched in one pool of processes for the whole machine, the hub's
# service `hint-pool` (cardgames_tutor.serve.hint_pool, as its own account), asked on a Unix socket only this machine's
# processes reach; HUB_HINT_WORKERS its size (default: one per core, 8 at most). Each student's server is told where it
# is (CARDGAMES_HINT_POOL) and sends it the seat's view only; the pool learns from the socket which account asks and
# searches each account's hints one at a time, so nobody's pages get in front of the class.
HINT_SOCKET = pathlib.Path(os.environ.get('HUB_HINT_SOCKET') or (STATE / 'hints.sock' if TRUSTED else  # one per hub (its state)
                           f"/run/cardgames-hints/hints-{hashlib.sha256(str(STATE).encode()).hexdigest()[:8]}.sock"))
if not TRUSTED and not os.environ.get('HUB_HINT_SOCKET'):  # its folder: the pool's to write in, everyone's to pass through
    hints = pwd.getpwnam(HINT_ACCOUNT)
    HINT_SOCKET.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
    os.chown(HINT_SOCKET.parent, hints.pw_uid, hints.pw_gid); HINT_SOCKET.parent.chmod(0o755)
c.JupyterHub.services.append({'name': 'hint-pool', 'command': [sys.executable, '-m', 'cardgames_tutor.serve.hint_pool', '--socket', str(HINT_SOCKET)]
                              + (['--workers', os.environ['HUB_HINT_WORKERS']] if os.environ.get('HUB_HINT_WORKERS') else []),
                              'environment': {'PATH': f"{BIN}:/usr/local/bin:/usr/bin:/bin", **KEPT},
                              **({} if TRUSTED else {'user': HINT_ACCOUNT, 'cwd': pwd.getpwnam(HINT_ACCOUNT).pw_dir})})
c.Spawner.environment['CARDGAMES_HINT_POOL'] = str(HINT_SOCKET)
# a server nobody used for IDLE_SERVER s is stopped (memory back; the student's files stay): jupyterhub-idle-culler
c.JupyterHub.services.append({'name': 'idle-culler', 'command': [sys.executable, '-m', 'jupyterhub_idle_culler', f'--timeout={IDLE_SERVER}', '--cull-every=60'], 'environment': KEPT})
c.JupyterHub.load_roles = [] if LTI else [{'name': 'roster-watch', 'services': ['roster-watch'], 'scopes': ['list:users', 'admin:users', 'admin:servers']}]
c.JupyterHub.load_roles += [{'name': 'idle-culler', 'services': ['idle-culler'], 'scopes': ['list:users', 'read:users:activity', 'read:servers', 'delete:servers']}]

# the class's classroom, as the hub's service (HUB_CLASSROOM=1; see the docstring): one classroom server for the class,
# behind the hub's login, on a loopback port only the hub's proxy is sent to
if CLASSROOM:
    teachers = [n.strip() for n in os.environ.get('HUB_TEACHERS', '').split(',') if n.strip()]
    if LTI and teachers: refuse("HUB_TEACHERS is for the class list: with HUB_AUTH=lti13 the platform's roles say who teaches")
    if any(n not in CLASS for n in teachers):
        refuse(f"HUB_TEACHERS: {next(n for n in teachers if n not in CLASS)[:40]!r} is not on the class list (HUB_ROSTER)")
    try: import solara  # noqa: F401 (the classroom's server)
    except ImportError: refuse("HUB_CLASSROOM=1 needs the classroom's server in the hub's Python: pip install -e '.[hub]'")
    port = int(os.environ.get('HUB_CLASSROOM_PORT', '10101'))
    start = os.environ.get('HUB_CLASSROOM_START', 'solo')  # what a student's page opens on: a game alone, or the tables' form
    if start not in ('solo', 'tables'): refuse(f"HUB_CLASSROOM_START is solo or tables, not {start[:20]!r}")
    # more than one class: the classes named on the class list ('asha @4b'), each its own classroom service, results and teachers
    CLASSES = sorted({k for ks in read_classes(os.environ['HUB_ROSTER']).values() for k in ks}) if not LTI else []
    DATA = STATE if TRUSTED else pathlib.Path(pwd.getpwnam(SERVICE_ACCOUNT).pw_dir)  # the classes' results: a folder each

    def classroom_service(name, port, group, results=None, description='The class at the card tables') -> dict:
        "The hub's service `name`: a classroom server on loopback `port`, its teachers the hub's `group`, its results file `results`."
        results = results or os.environ.get('HUB_CLASSROOM_RESULTS')
        service = {
            'name': name,
            'url': f'http://127.0.0.1:{port}',  # where the hub's proxy sends /services/<name>/ (the prefix left on)
            'command': [sys.executable, '-m', 'cardgames_tutor.serve.hub_service', '--teachers-group', group, '--start', start]
                       + (['--results', str(results)] if results else [])
                       + (['--hint-workers', os.environ['HUB_HINT_WORKERS']] if os.environ.get('HUB_HINT_WORKERS') else []),
            'environment': {'PATH': f"{BIN}:/usr/local/bin:/usr/bin:/bin", **KEPT},
            'oauth_no_confirm': True,  # the school's own service: no "allow this service?" page at each login
            'oauth_client_allowed_scopes': ['read:users:groups!user'],  # so the classroom sees who is in its teachers' group
            'display': True, 'info': {'description': description},
        }
        if int(jupyterhub.__version__.split('.')[0]) >= 6:  # (a service's start wait: JupyterHub 6's `timeout`; 5 has none)
            # a classroom starts in Solara's ~3 CPU-s: on a busy or slow server (the hub restarted in class) JupyterHub's
            # 30 s were too short and it stopped itself ("Cannot connect to classroom service"); the students' servers get 120 s
            service['timeout'] = 120
        if not TRUSTED:  # as its own account, never root nor a student (HUB_TRUSTED_LAB: as the hub's user)
            service.update(user=SERVICE_ACCOUNT, cwd=pwd.getpwnam(SERVICE_ACCOUNT).pw_dir)
        return service

    if not CLASSES:  # one class: every user the hub logs in may use its classroom
        if teachers: c.JupyterHub.load_groups = {'teachers': {'users': teachers}}
        c.JupyterHub.services.append(classroom_service('classroom', port, 'teachers'))
        c.JupyterHub.extra_user_scopes = {'access:services!service=classroom'}
        c.JupyterHub.default_url = '/services/classroom/'  # where a student lands after logging in
    else:  # each class: /services/classroom-C/, only for the hub's group class-C (its teachers: teachers-C), its results its own
        if os.environ.get('HUB_CLASSROOM_RESULTS'): refuse("HUB_CLASSROOM_RESULTS is for one class: with classes on the list each has its own folder")
        c.RosterAuthenticator.class_groups, c.RosterAuthenticator.teachers = True, set(teachers)
        c.Authenticator.manage_groups = True  # each login's groups: its classes on the list (deploy/roster.py)
        for i, k in enumerate(CLASSES):
            c.JupyterHub.services.append(classroom_service(f'classroom-{k}', port + i, f'teachers-{k}', DATA / 'classes' / k / 'classroom.sqlite',
                                                           f'Class {k} at the card tables'))
            c.JupyterHub.load_roles.append({'name': f'class-{k}', 'groups': [f'class-{k}'], 'scopes': [f'access:services!service=classroom-{k}']})

        def to_their_class(handler) -> str:
            "Where a user lands after logging in: their (first) class's classroom; someone in no class, the hub's home."
            mine = [g.name[len('class-'):] for g in getattr(handler.current_user, 'groups', None) or () if g.name.startswith('class-')]
            mine = [k for k in mine if k in CLASSES]
            return f'/services/classroom-{mine[0]}/' if mine else '/hub/home'
        c.JupyterHub.default_url = to_their_class
