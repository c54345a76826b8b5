"""Every Python the package claims: build the wheel once, then for each interpreter present install it into a
fresh venv outside the checkout and run tools/wheel_smoke.py and the engine's rule tests against it.

`python tools/wheel_matrix.py [3.10 3.11 ...]` (default: 3.10 to 3.13). An interpreter is looked for as
`~/.pyenv/versions/3.X*/bin/python3`, then `python3.X` on PATH; one that is missing is reported and skipped, not failed.
Exit 1 if any present interpreter fails. Called by `.ci/run` after `make test`.
"""
import os, pathlib, shutil, subprocess, sys, tempfile, time

ROOT = pathlib.Path(__file__).resolve().parents[1]
VERSIONS = ('3.10', '3.11', '3.12', '3.13')
RULE_TESTS = ['tests/test_engine_rules.py', 'tests/test_engine_contracts.py']  # the fast ones (not marked slow)
PIP = ['-m', 'pip', 'install', '-q', '--disable-pip-version-check']

def interpreter(version:str) -> str|None:
    "A python of `version` (e.g. '3.10') that runs, or None (a pyenv shim for a version not selected does not)."
    pyenv = sorted((pathlib.Path.home() / '.pyenv' / 'versions').glob(f'{version}.*'), reverse=True)
    for python in [*(str(d / 'bin' / 'python3') for d in pyenv), shutil.which(f'python{version}')]:
        if python and pathlib.Path(python).exists() and subprocess.run(
                [python, '-c', f'import sys; assert sys.version.startswith("{version}.")'], capture_output=True).returncode == 0:
            return python
    return None

def build_wheel(out:pathlib.Path) -> pathlib.Path:
    """The package's wheel, built once into `out` from a copy of what it is made of (so the checkout gets no build/
    folder, and a stale build/ or egg-info there cannot put files in the wheel that the checkout no longer has)."""
    stage = out / 'src'
    shutil.copytree(ROOT / 'cardgames_tutor', stage / 'cardgames_tutor', ignore=shutil.ignore_patterns('__pycache__', '.ipynb_checkpoints'))
    for name in ('pyproject.toml', 'README.md', 'LICENSE'):  # what pyproject.toml names (the readme, the licence file)
        if (ROOT / name).exists(): shutil.copy2(ROOT / name, stage / name)
    done = subprocess.run([sys.executable, *PIP[:2], 'wheel', '-q', '--no-deps', '--disable-pip-version-check', '-w', str(out), str(stage)],
                          capture_output=True, text=True)
    if done.returncode: raise RuntimeError(f"the wheel cannot be built: {(done.stderr.strip().splitlines() or [done.returncode])[-1]}")
    wheels = list(out.glob('cardgames_tutor-*.whl'))
    if len(wheels) != 1: raise RuntimeError(f'expected one wheel in {out}, found {wheels}')
    return wheels[0]

def fresh_venv(python:str, where:pathlib.Path, wheel:pathlib.Path, extras:str='', more=()) -> pathlib.Path:
    "A new venv at `where` with `wheel` (and `extras`, `more`) installed: its python."
    subprocess.run([python, '-m', 'venv', str(where)], check=True)
    py = where / 'bin' / 'python'
    done = subprocess.run([str(py), *PIP, f'{wheel}{extras}', *more], capture_output=True, text=True)
    if done.returncode:  # pip's output only when it fails (a machine's index can make it chatty)
        print(done.stdout[-3000:], done.stderr[-3000:], sep='\n'); done.check_returncode()
    return py

def run_one(version:str, python:str, wheel:pathlib.Path, tmp:pathlib.Path) -> bool:
    "Install, smoke-test and rule-test on one interpreter; True if all passed."
    home = tmp / f'py{version}'
    py = fresh_venv(python, home / 'venv', wheel, more=['pytest'])
    env = {**os.environ, 'CARDGAMES_TUTOR_DATA': str(home / 'data')}  # a drill's progress store, not the user's
    env.pop('PYTHONPATH', None)
    smoke = subprocess.run([str(py), str(ROOT / 'tools' / 'wheel_smoke.py')], cwd=home, env=env)
    tests = subprocess.run([str(py), '-m', 'pytest', '-q', '-p', 'no:cacheprovider', '-m', 'not slow', '--rootdir', str(ROOT),
                            *[str(ROOT / t) for t in RULE_TESTS]], cwd=home, env=env)
    return smoke.returncode == 0 and tests.returncode == 0

def main(argv=sys.argv[1:]):
    versions = argv or VERSIONS
    bad = [v for v in versions if v not in VERSIONS]
    if bad: sys.exit(f"usage: python tools/wheel_matrix.py [{' '.join(VERSIONS)}]: unknown {', '.join(bad)}")
    results = []
    with tempfile.TemporaryDirectory(prefix='cgt-wheel-') as t:
        tmp = pathlib.Path(t)
        start = time.monotonic()
        try: wheel = build_wheel(tmp / 'dist')
        except RuntimeError as e: sys.exit(f'FAILED: {e}')
        print(f'built {wheel.name} in {time.monotonic() - start:.0f} s')
        for v in versions:
            python = interpreter(v)
            if python is None:
                results.append((v, 'skipped: not on this machine', 0.0)); continue
            start = time.monotonic()
            print(f'--- Python {v} ({python})', flush=True)
            try: ok = run_one(v, python, wheel, tmp)
            except subprocess.CalledProcessError as e: print(f'FAILED: {e}'); ok = False  # e.g. the install
            results.append((v, 'ok' if ok else 'FAILED', time.monotonic() - start))
    print('\nthe wheel on every Python claimed:')
    for v, what, took in results: print(f'  Python {v}: {what}' + (f' ({took:.0f} s)' if took else ''))
    if any(what == 'FAILED' for _, what, _ in results): sys.exit(1)

if __name__ == '__main__': main()
