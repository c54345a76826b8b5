"""Long fuzz run of hand records (not a test): loads N damaged records and prints what happened to them.

Each record is a real one (every game and variant, part-played or whole) damaged as a careless or hostile user would:
values replaced, removed or added, lists reordered, texts and numbers changed, the JSON text cut or spliced (deep
brackets, 5,000-digit numbers, NaN), the bytes made non-UTF-8 (see tests/record_fuzz.py). A load must give a match or
one `RecordError` of one line under 300 characters. Prints the outcomes by class (failures are any other exception, a
bad message or a changed dict), an example of each failure, the time per load (mean, 99th percentile, max) and the
slowest loads. Exit status 1 if anything failed. CI runs 2,000 of these per run (tests/test_fuzz_records.py).
Usage: python bench/fuzz_records.py [N=100000] [SEED=0]
"""
import collections, pathlib, random, statistics, sys, time
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / 'tests'))
from record_fuzz import base_records, mutated, try_load

def main(n=100_000, seed=0) -> int:
    rng, counts, examples, times, slowest = random.Random(seed), collections.Counter(), {}, [], []
    base_records()
    start = time.perf_counter()
    for i in range(1, n + 1):
        kind, source = mutated(rng)
        outcome, message, seconds = try_load(source)
        counts[outcome] += 1
        times.append(seconds)
        examples.setdefault(outcome, (kind, message[:160]))
        slowest = sorted(slowest + [(seconds, kind, outcome, message[:100])], reverse=True)[:10]
        if i % 10_000 == 0: print(f"  {i:,} loads, {time.perf_counter() - start:.0f} s", flush=True)
    failures = {k: v for k, v in counts.items() if k not in ('ok', 'refused')}
    print(f"{n:,} damaged records (seed {seed}) in {time.perf_counter() - start:.1f} s")
    for outcome, count in counts.most_common(): print(f"  {outcome:>18}: {count:,}")
    print(f"failures: {sum(failures.values()):,}" + ''.join(f"\n  {k}: {examples[k]}" for k in failures))
    times.sort()
    print(f"time per load: mean {statistics.mean(times) * 1e3:.2f} ms, 99th percentile {times[int(0.99 * len(times))] * 1e3:.1f} ms, "
          f"max {times[-1] * 1e3:.0f} ms")
    print("slowest loads:")
    for seconds, kind, outcome, message in slowest: print(f"  {seconds * 1e3:7.1f} ms  {kind:>6}  {outcome}: {message}")
    return 1 if failures else 0

if __name__ == '__main__':
    sys.exit(main(*(int(a) for a in sys.argv[1:3])))
