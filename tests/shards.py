"""Run the test suite as N pytest processes side by side, each on its share of the test files (`--shard K/N`, see
conftest.py), and fail if any share fails. `make test` runs it with N=2: the suite's tests run one at a time in a
process, so a second process uses the second core (and gets a fairer part of a machine shared with other work).

    python tests/shards.py N [pytest arguments...]

Each share's output is printed whole when it ends (not interleaved), with how long it took.
"""
import os, re, subprocess, sys, tempfile, time

def counts(output:str) -> dict:
    "The counts in pytest's closing line of `output` ('12 passed, 1 skipped in 3.4s'): {'passed': 12, 'skipped': 1}."
    closing = [l for l in output.splitlines() if re.search(r'\b\d+ (passed|failed|errors?|skipped)\b.* in [\d.]+s', l)]
    found = re.findall(r'(\d+) (passed|failed|errors?|skipped)', closing[-1]) if closing else []
    return {('error' if word.startswith('error') else word): int(k) for k, word in found}

def main(argv):
    if not argv or not argv[0].isdigit() or int(argv[0]) < 1: sys.exit("usage: python tests/shards.py N [pytest arguments...]")
    n, args = int(argv[0]), argv[1:]
    start, runs = time.time(), []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(1, n + 1):
            out = open(os.path.join(tmp, f'shard{k}.txt'), 'w+')
            cmd = [sys.executable, '-m', 'pytest', f'--shard={k}/{n}', '-p', 'no:cacheprovider', *args]
            runs.append((k, subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT), out))
        failed, total = [], {}
        for k, proc, out in runs:
            code = proc.wait()
            out.seek(0); text = out.read(); out.close()
            print(f"---------------- share {k} of {n}: exit {code}, {time.time() - start:.0f} s since the start\n{text}", flush=True)
            if code not in (0, 5) or (code == 0 and not counts(text)): failed.append(k)  # 5: pytest collected nothing there
            for word, m in counts(text).items(): total[word] = total.get(word, 0) + m
    print(f"{n} shares in {time.time() - start:.0f} s" + (f"; FAILED: share {', '.join(map(str, failed))}" if failed else ': all passed'))
    # one closing line for the whole suite, in pytest's words
    print(f"total: {total.get('passed', 0)} passed, {total.get('failed', 0) + total.get('error', 0)} failed, "
          f"{total.get('skipped', 0)} skipped")
    sys.exit(1 if failed else 0)

if __name__ == '__main__': main(sys.argv[1:])
