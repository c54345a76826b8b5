"""Run the test suite as N pytest processes side by side, each on its share of the test files (whole files, balanced by
measured weight: `shares` in conftest.py; the tests of a file that shares nothing between them, `SPLIT`, dealt out
one by one), and fail if any share fails. `make test` runs it with N=auto: two shares per core the tests may use
(4 at least, 16 at most; 4 on a 2-core machine). Much of the suite waits (browsers, servers, hubs starting), so more
shares than cores keep the cores busy; and on a machine busy with other work, N shares get about N/(N+others) of it.
Measured on 2 cores, from fresh clones: beside two busy programs, 4 shares took 1,323 s and 6 took 1,231-1,262 s; on
the machine alone, 4 took 963 s and 6 took 1,117 s. Two per core, as most runs have the machine to themselves.

    python tests/shards.py N|auto [--site] [pytest arguments...]
    python tests/shards.py --weights LOG...

Each share is given its own files (so it imports only those); pytest arguments naming files or tests instead fall
back to `--shard K/N` (each share collects everything and keeps its part). Each share's output is printed whole when it
ends (not interleaved), with how long it took.

`--site`: build the documentation site (`tools/docs.py`, which runs every notebook and fails on any error) beside the
shares instead of before them, holding the lock the site tests take (tests/helpers.py), so they wait for this build
and check it; the files that read the site run last in their share. The build's failure fails the run.

The build and every share keep their data (drill progress, a class's results) in a temporary folder of this run's
(`CARDGAMES_TUTOR_DATA`, removed at the end; each pytest process makes its own inside, tests/conftest.py), never in the
user's own data folder (`~/.local/share/cardgames_tutor`).

`--weights LOG...`: the seconds per test file (and per test of the files whose tests are dealt out one by one, `SPLIT`)
in the `--durations=0` output of a run (its shares' logs), summed over setup, call and teardown: tests/weights.json.
"""
import fcntl, json, os, pathlib, re, subprocess, sys, tempfile, time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from conftest import shares, SITE_FILES, SPLIT  # noqa: E402

def counts(output:str) -> dict:
    "The counts in pytest's closing line of `output` ('12 passed, 1 skipped in 3.4s'): {'passed': 12, 'skipped': 1}."
    closing = [l for l in output.splitlines() if re.search(r'\b\d+ (passed|failed|errors?|skipped)\b.* in [\d.]+s', l)]
    found = re.findall(r'(\d+) (passed|failed|errors?|skipped)', closing[-1]) if closing else []
    return {('error' if word.startswith('error') else word): int(k) for k, word in found}

def weights(text:str) -> tuple:
    """Seconds per test file in `--durations=0` output `text` (setup, call and teardown summed), heaviest first, and per
    test of the `SPLIT` files ('file::id', the ones of a second or more)."""
    files, tests = {}, {}
    for secs, path, test in re.findall(r'^\s*([\d.]+)s (?:setup|call|teardown)\s+(?:\S*/)?(test_\w+\.py)::(.+?)\s*$', text, re.M):
        files[path] = files.get(path, 0) + float(secs)
        if path in SPLIT: tests[f'{path}::{test}'] = tests.get(f'{path}::{test}', 0) + float(secs)
    heaviest = lambda d: dict(sorted(d.items(), key=lambda kv: -kv[1]))
    return heaviest(files), heaviest({t: s for t, s in tests.items() if s >= 1})

def names_tests(args) -> bool:
    "Whether pytest arguments `args` name files, folders or tests (then each share collects them and keeps its part)."
    options_with_value = {'-m', '-k', '-p', '-c', '-o', '--durations', '--maxfail', '--deselect', '--ignore', '--rootdir', '--tb'}
    after = [a for prev, a in zip([None, *args], args) if not a.startswith('-') and prev not in options_with_value]
    return bool(after)

def split_tests(files) -> dict:
    "The test ids of the `SPLIT` files among `files`, by file, from one pytest collection (a file it cannot collect stays whole)."
    split = [f for f in files if f in SPLIT]
    found = subprocess.run([sys.executable, '-m', 'pytest', '-p', 'no:cacheprovider', '--collect-only', '-q', *(str(HERE/f) for f in split)],
                           cwd=ROOT, capture_output=True, text=True).stdout if split else ''
    ids = {}
    for line in found.splitlines():
        if '::' in line: ids.setdefault(line.split('::')[0].rsplit('/', 1)[-1], []).append(line.split('::', 1)[1])
    return ids

def share_files(n:int) -> list:
    "What each of the `n` shares runs (files, and tests of `SPLIT` files as 'file::id'), the files that read the built site last."
    files = sorted(p.name for p in HERE.glob('test_*.py'))
    return [sorted(s, key=lambda f: f in SITE_FILES) for s in shares(files, n, split_tests(files))]

def auto_shares() -> int:
    "Two shares per core this process may run on, 4 at least and 16 at most."
    return max(4, min(16, 2 * len(os.sched_getaffinity(0))))

def environment(tmp) -> dict:
    "This process's environment with the data folder (`CARDGAMES_TUTOR_DATA`) a fresh folder in `tmp`: the build's and the shares'."
    os.makedirs(os.path.join(tmp, 'data'), exist_ok=True)
    return {**os.environ, 'CARDGAMES_TUTOR_DATA': os.path.join(tmp, 'data')}

def main(argv):
    if argv and argv[0] == '--weights':  # summed over the logs given (a run's shares), as tests/weights.json holds them
        found = {'files': {}, 'tests': {}}
        for log in argv[1:]:
            for part, measured in zip(found.values(), weights(pathlib.Path(log).read_text(errors='replace'))):
                for k, s in measured.items(): part[k] = part.get(k, 0) + s
        print(json.dumps({part: {k: round(s, 1) for k, s in sorted(d.items(), key=lambda kv: -kv[1])} for part, d in found.items()}, indent=0, ensure_ascii=False))
        return
    if argv and argv[0] == 'auto': argv = [str(auto_shares()), *argv[1:]]
    if not argv or not argv[0].isdigit() or int(argv[0]) < 1:
        sys.exit("usage: python tests/shards.py N|auto [--site] [pytest arguments...]  or  python tests/shards.py --weights LOG...")
    n, args = int(argv[0]), argv[1:]
    site = '--site' in args
    args = [a for a in args if a != '--site']
    start, runs, failed, total = time.time(), [], [], {}
    with tempfile.TemporaryDirectory() as tmp, open(ROOT/'.docs-build.lock', 'w') as lock:
        build, env = None, environment(tmp)
        if site:  # taken before any share starts: a site test waits for this build, then finds it stamped
            fcntl.flock(lock, fcntl.LOCK_EX)
            build_out = open(os.path.join(tmp, 'site.txt'), 'w+')
            build = subprocess.Popen([sys.executable, str(ROOT/'tools'/'docs.py'), '--renderer', 'smalldocs', '--out', str(ROOT/'_docs')],
                                     cwd=ROOT, env=env, stdout=build_out, stderr=subprocess.STDOUT)
        own = [] if names_tests(args) else share_files(n)
        for k in range(1, n + 1):
            out = open(os.path.join(tmp, f'shard{k}.txt'), 'w+')
            chosen = [str(HERE/f) for f in own[k - 1]] if own else [f'--shard={k}/{n}']
            if own and not chosen: continue  # more shares than files
            cmd = [sys.executable, '-m', 'pytest', '-p', 'no:cacheprovider', *args, *chosen]
            runs.append((k, subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT), out))
        if build:
            code = build.wait()
            fcntl.flock(lock, fcntl.LOCK_UN)
            build_out.seek(0); text = build_out.read(); build_out.close()
            print(f"---------------- the site (tools/docs.py): exit {code}, {time.time() - start:.0f} s since the start\n{text}", flush=True)
            if code: failed.append('the site build')
        for k, proc, out in runs:
            code = proc.wait()
            out.seek(0); text = out.read(); out.close()
            print(f"---------------- share {k} of {n}: exit {code}, {time.time() - start:.0f} s since the start\n{text}", flush=True)
            if code not in (0, 5) or (code == 0 and not counts(text)): failed.append(f'share {k}')  # 5: pytest collected nothing there
            for word, m in counts(text).items(): total[word] = total.get(word, 0) + m
    print(f"{n} shares in {time.time() - start:.0f} s" + (f"; FAILED: {', '.join(failed)}" if failed else ': all passed'))
    # one closing line for the whole suite, in pytest's words
    print(f"total: {total.get('passed', 0)} passed, {total.get('failed', 0) + total.get('error', 0)} failed, "
          f"{total.get('skipped', 0)} skipped")
    sys.exit(1 if failed else 0)

if __name__ == '__main__': main(sys.argv[1:])
