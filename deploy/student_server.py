"""A student's own Jupyter server, as JupyterHub starts it (`deploy/jupyterhub_config.py`), run as the student.

First the student's own copy of the notebooks in `~/nbs` is brought up to date (`tools/learner_copy.py`: new and
untouched notebooks come from the project, the student's changed ones are kept), then this process becomes
`jupyterhub-singleuser` with the arguments JupyterHub gave. The project's own folder is only read.
"""
import os, pathlib, sys

PROJECT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT / 'tools'))
import learner_copy  # noqa: E402

def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    home = pathlib.Path(os.environ.get('HOME') or os.getcwd())
    copy = home / 'nbs'
    print(learner_copy.report(learner_copy.sync(PROJECT / 'nbs', copy), copy), file=sys.stderr)
    os.chdir(home)
    server = pathlib.Path(sys.executable).parent / 'jupyterhub-singleuser'
    os.execv(server, [str(server), *argv])

if __name__ == '__main__': main()
