"""JupyterHub for a class past one machine's `make classroom`: every student logs in and gets their own server,
whose default page is the tutor (the start page as an app, served by Voilà inside that server).

Run (from the project root, with the project installed in .venv: `pip install -e '.[dev,hub]'`, and the proxy:
`npm install -g configurable-http-proxy`):

    CLASS_CODE=kq7m-x2pd .venv/bin/jupyterhub -f deploy/jupyterhub_config.py

Students open http://HUB:8000/, type any name and the class code as the password, and land on the tutor.
Put it behind HTTPS (a reverse proxy: see README) before students connect over the internet.

Settings through the environment: CLASS_CODE (required: the shared password), HUB_IP (default 127.0.0.1; 0.0.0.0
for a network), HUB_PORT (8000), HUB_MAX_USERS (60 concurrent servers), HUB_STATE (the folder for the hub's database
and cookie secret; default .hub in the project).

Isolation: this file uses JupyterHub's SimpleLocalProcessSpawner, which runs every student's server as the
hub's own OS user (each in its own folder): fine for a lab of trusted machines, not for strangers. For strangers
use one container per student: DockerSpawner (pip install dockerspawner; an image with this project installed)
or Kubernetes (zero-to-jupyterhub), keeping the `default_url` and `args` below.
"""
import os, pathlib, sys

PROJECT = pathlib.Path(__file__).resolve().parent.parent
BIN = pathlib.Path(sys.executable).parent
c = get_config()  # noqa: F821 (JupyterHub provides it)

code = os.environ.get('CLASS_CODE', '')
if len(code) < 8: sys.exit("Set CLASS_CODE to the class's code (8 signs or more), e.g. CLASS_CODE=kq7m-x2pd")

# who may log in: anyone with the class code (a shared password), under a name of their choice
c.JupyterHub.authenticator_class = 'shared-password'
c.SharedPasswordAuthenticator.user_password = code
c.Authenticator.allow_all = True

c.JupyterHub.bind_url = f"http://{os.environ.get('HUB_IP', '127.0.0.1')}:{os.environ.get('HUB_PORT', '8000')}"
c.JupyterHub.active_server_limit = int(os.environ.get('HUB_MAX_USERS', '60'))
STATE = pathlib.Path(os.environ.get('HUB_STATE') or PROJECT / '.hub')  # the hub's database and cookie secret
STATE.mkdir(parents=True, exist_ok=True)
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / 'jupyterhub_cookie_secret')

# each student's server: the tutor as its default page, no terminals, idle kernels and servers shut down
c.JupyterHub.spawner_class = 'simple'
c.Spawner.cmd = [str(BIN / 'jupyterhub-singleuser')]
c.Spawner.notebook_dir = str(PROJECT)
c.Spawner.default_url = '/voila/render/nbs/tutorials/start.ipynb'
c.Spawner.environment = {'PATH': f"{BIN}:{os.environ.get('PATH', '')}"}
c.Spawner.mem_limit = '400M'  # enforced by container spawners; informational here
c.Spawner.args = [
    '--ServerApp.terminals_enabled=False',
    '--MappingKernelManager.cull_idle_timeout=600', '--MappingKernelManager.cull_interval=60',
    '--ServerApp.shutdown_no_activity_timeout=1800',  # a server nobody used for 30 min stops (memory back)
    '--VoilaConfiguration.show_tracebacks=False',
] + (['--allow-root'] if os.geteuid() == 0 else [])  # the simple spawner runs servers as the hub's user
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
