"""CPU-seconds per test, every process a test started included (servers, hubs, Chromium): where the suite spends the
machine (the clock, under load, measures waits too; tests/weights.json is the clock's, for balancing the shares).

A pytest plugin (Linux, cgroup v1 `cpuacct`, as root): each pytest process moves into a cgroup of its own, which every
process it starts joins, and writes `[[test id, CPU-s, wall-s], ...]` to OUT/<pid>.json when it ends. Then this file,
run as a script, sums those per file, and per test of the `SPLIT` files (the shape of tests/weights.json):

    PYTHONPATH=tools CPU_PER_TEST=/tmp/cpt python tests/shards.py 4 --site -q -p cpu_per_test
    python tools/cpu_per_test.py /tmp/cpt
    python tools/cpu_per_test.py /tmp/cpt --clock > tests/weights.json  # the clock's seconds: the shares' balance
"""
import json, os, pathlib, sys, time

OUT = pathlib.Path(os.environ.get('CPU_PER_TEST', '/tmp/cpu_per_test'))
GROUP = pathlib.Path(f'/sys/fs/cgroup/cpuacct/cpu_per_test.{os.getpid()}')
RECORD, LAST = [], []

def _usage() -> float: return int((GROUP / 'cpuacct.usage').read_text()) / 1e9

def _mark(what:str):
    used, now = _usage(), time.time()
    RECORD.append((what, round(used - LAST[0], 2), round(now - LAST[1], 2)))
    LAST[:] = [used, now]

def pytest_configure(config):
    if LAST: return
    GROUP.mkdir(exist_ok=True)
    (GROUP / 'cgroup.procs').write_text(str(os.getpid()))
    LAST[:] = [_usage(), time.time()]

def pytest_runtest_logstart(nodeid, location): _mark('before ' + nodeid)  # what ran between tests: collection, imports
def pytest_runtest_logfinish(nodeid, location): _mark(nodeid)             # the test: setup, call, teardown

def pytest_unconfigure(config):
    _mark('end')
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f'{os.getpid()}.json').write_text(json.dumps(RECORD))
    (GROUP.parent / 'cgroup.procs').write_text(str(os.getpid()))  # back to the machine's group, and the empty group removed
    try: GROUP.rmdir()
    except OSError: pass  # a process a test left running is still in it

def weights(folder:pathlib.Path, split, clock:bool=False) -> dict:
    """tests/weights.json's shape from the plugin's records in `folder`: CPU-s per file, and per test of the files in
    `split` (0.3 s or more); `clock`: the seconds by the clock instead (setup, call and teardown), which balance the shares."""
    files, tests = {}, {}
    for record in folder.glob('*.json'):
        for what, cpu, wall in json.loads(record.read_text()):
            if clock: cpu = wall
            if what.startswith('before ') or '::' not in what: continue
            path, test = what.split('::', 1)
            name = path.rsplit('/', 1)[-1]
            files[name] = files.get(name, 0) + cpu
            if name in split: tests[f'{name}::{test}'] = tests.get(f'{name}::{test}', 0) + cpu
    heaviest = lambda d: {k: round(v, 1) for k, v in sorted(d.items(), key=lambda kv: -kv[1])}
    return {'files': heaviest(files), 'tests': heaviest({t: s for t, s in tests.items() if s >= 0.3})}

if __name__ == '__main__':
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / 'tests'))
    from conftest import SPLIT
    print(json.dumps(weights(pathlib.Path(sys.argv[1]), SPLIT, clock='--clock' in sys.argv[2:]), indent=0, ensure_ascii=False))
