"""A student's own Jupyter server, as JupyterHub starts it (`deploy/jupyterhub_config.py`), run as the student.

First the student's own copy of the notebooks in `~/nbs` is brought up to date (`tools/learner_copy.py`: new and
untouched notebooks come from the project, the student's changed ones are kept), then this process becomes
`jupyterhub-singleuser` with the arguments JupyterHub gave. The project's own folder is only read.

Where the hub cannot give a student's server a memory limit of its own (no systemd: `deploy/jupyterhub_config.py`),
`CARDGAMES_MEM_LIMIT` (e.g. `1G`) is each of its processes' limit of data memory (`RLIMIT_DATA`: the heap and private
mappings), which the kernels it starts inherit: a kernel that asks for more gets a `MemoryError`, the rest go on.

The server loads only the extensions a student's server uses (Voilà; JupyterLab, if installed): `student_jupyter/`, first on
its JUPYTER_CONFIG_PATH, turns off Solara's (the hub extra brings it for the classroom, the hub's service: in a student's
server it cost seconds of every start and served pages nobody opens) and the terminals' (terminals are off).
"""
import os, pathlib, re, resource, sys

PROJECT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT / 'tools'))
import learner_copy  # noqa: E402

UNITS = {'': 1, 'K': 2**10, 'M': 2**20, 'G': 2**30}

def limit_bytes(text:str) -> int:
    "`400M`, `1G`, `1500000` as bytes; a `ValueError` for anything else."
    m = re.fullmatch(r'\s*(\d+)\s*([KMG]?)B?\s*', str(text).upper())
    if not m: raise ValueError(f"a memory limit is a number with K, M or G, such as 1G, not {str(text)[:20]!r}")
    return int(m.group(1)) * UNITS[m.group(2)]

def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if os.environ.get('CARDGAMES_MEM_LIMIT'):
        n = limit_bytes(os.environ['CARDGAMES_MEM_LIMIT'])
        resource.setrlimit(resource.RLIMIT_DATA, (n, n))  # this server and every kernel it starts
    home = pathlib.Path(os.environ.get('HOME') or os.getcwd())
    copy = home / 'nbs'
    print(learner_copy.report(learner_copy.sync(PROJECT / 'nbs', copy), copy), file=sys.stderr)
    os.chdir(home)
    os.environ['JUPYTER_CONFIG_PATH'] = os.pathsep.join([str(PROJECT / 'deploy' / 'student_jupyter'), *filter(None, [os.environ.get('JUPYTER_CONFIG_PATH')])])
    server = pathlib.Path(sys.executable).parent / 'jupyterhub-singleuser'
    os.execv(server, [str(server), *argv])

if __name__ == '__main__': main()
