"""Engine benchmark (not a test): random full hands per second, per game, and OpenSpiel's hearts beside them.

Plays random hands through the same engine the tutor uses (a seeded deal, legal actions, apply with its
rule check, events) on one core. Times are CPU time of this process (`time.process_time`), so other work
on a shared machine disturbs them less; each figure is the median of ROUNDS rounds taken in turn with the
others, with the lowest and highest round as an interval. Where `open_spiel` is installed (the optional
`bench` extra: pip install -e '.[bench]'), OpenSpiel's hearts (C++ engine driven from Python, uniform
chance outcomes drawn in Python) is timed in the same rounds, in turns of 10 hands with Begga Kaat (4 players)
so both meet the same load, and the ratio printed.
Targets: Begga Kaat (4 players) at least as fast as OpenSpiel hearts; every game twice the rate of
commit 006f302. With --baseline DIR (a checkout of that commit: `git worktree add --detach /tmp/base 006f302`, or of any
commit, before or after the packages by role), that package is timed in a child process right after each case, and the
speed-up printed with its range.
Usage: python bench/bench_engine.py [SECONDS_PER_ROUND] [ROUNDS] [--baseline DIR]
"""
import os, random, statistics, subprocess, sys, time
import cardgames_tutor
if os.path.isdir(os.path.join(os.path.dirname(cardgames_tutor.__file__), 'core')):  # the packages by role (issue 32)
    from cardgames_tutor.core.engine import deal_cards
    if os.path.isfile(os.path.join(os.path.dirname(cardgames_tutor.__file__), 'core', 'registry.py')):  # the games by name (issue 48)
        from cardgames_tutor.core.registry import get_game
    else: from cardgames_tutor.core.engine import get_game  # a baseline from before the engine was split (issue 48)
else:  # a baseline (--baseline, in the child process) from before the packages by role: one flat package
    from cardgames_tutor.engine import deal_cards, get_game

ARGS = [a for a in sys.argv[1:] if not a.startswith('--')]
SECONDS = float(ARGS[0]) if len(ARGS) > 0 else 1.0
ROUNDS = int(ARGS[1]) if len(ARGS) > 1 else 5
BASELINE = sys.argv[sys.argv.index('--baseline') + 1] if '--baseline' in sys.argv else None
if BASELINE: ARGS = [a for a in ARGS if a != BASELINE]

CASES = [('begga-kaat', {'players': 4}), ('begga-kaat', {'players': 3}), ('kocka', {}), ('dehla-pakad', {}),
         ('maghe-satra', {'players': 4}), ('beggars-and-thieves', {'players': 5}), ('beggars-and-thieves', {'players': 4}),
         ('beggars-and-thieves', {'players': 3}), ('beggars-and-thieves', {'players': 2})]


def engine_hands(game, rng, k):
    "`k` random full hands: deal, then the seat to act picks any legal action, until the hand is over."
    for i in range(k):
        hand = game.new_hand(deal_cards(game, rng), i % game.n_seats())
        while not hand.is_over: hand.apply(rng.choice(hand.legal_actions()))


def hearts_hands(game, rng, k):
    "`k` random full hands of OpenSpiel hearts (`game`), chance outcomes drawn uniformly in Python."
    for _ in range(k):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node(): state.apply_action(rng.choice(state.chance_outcomes())[0])
            else: state.apply_action(rng.choice(state.legal_actions()))


def timed(players, seconds) -> list:
    """Hands per CPU second of each (play, game, rng) in `players`, for at least `seconds` each. Played in turns of
    10 hands, so a compared pair shares whatever load the machine has (the clock is read every 10 hands)."""
    spent, done = [0.0] * len(players), 0
    while min(spent) < seconds:
        for j, (play, game, rng) in enumerate(players):
            start = time.process_time(); play(game, rng, 10); spent[j] += time.process_time() - start
        done += 10
    return [done / s for s in spent]


class Baseline:
    "The package at BASELINE in a child process that times one case when asked, so each pair is timed one after the other."
    def __init__(self):
        self.child = subprocess.Popen([sys.executable, __file__, str(SECONDS), '--serve'], env={**os.environ, 'PYTHONPATH': BASELINE},
                                      cwd=BASELINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    def rate(self, label) -> float:
        self.child.stdin.write(label + '\n'); self.child.stdin.flush()
        return float(self.child.stdout.readline())


PAIRED = 'begga-kaat players=4'  # the case timed beside OpenSpiel's hearts


def labelled():
    return {f"{name} {' '.join(f'{k}={v}' for k, v in opts.items())}".strip(): (get_game(name, **opts), random.Random(1))
            for name, opts in CASES}


def main():
    if '--serve' in sys.argv:  # the child process of `Baseline`: a case's label in, its rate out
        runs = labelled()
        for line in sys.stdin: print(timed([(engine_hands, *runs[line.strip()])], SECONDS)[0], flush=True)
        return
    try: import pyspiel
    except ImportError: pyspiel = None; print("OpenSpiel is not installed (pip install -e '.[bench]'): hearts is skipped.")
    runs, baseline = labelled(), Baseline() if BASELINE else None
    rates, base = {label: [] for label in runs}, {label: [] for label in runs}
    if pyspiel: rates['OpenSpiel hearts'], hearts_rng = [], random.Random(2)
    for _ in range(ROUNDS):  # every case once per round, so load on the machine falls on all alike
        for label, (game, rng) in runs.items():
            if label == PAIRED and pyspiel:  # Begga Kaat and hearts in turns: the ratio is taken under one load
                ours, theirs = timed([(engine_hands, game, rng), (hearts_hands, pyspiel.load_game('hearts'), hearts_rng)], SECONDS)
                rates[label].append(ours); rates['OpenSpiel hearts'].append(theirs)
            else: rates[label].append(timed([(engine_hands, game, rng)], SECONDS)[0])
            if baseline: base[label].append(baseline.rate(label))  # right after: the pair meets much the same load
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}; each figure: median (lowest-highest) of {ROUNDS} rounds, CPU time")
    print(f"{'game':<36}{'hands/s':>20}" + (f"{'baseline hands/s':>26}{'speed-up':>22}" if BASELINE else ''))
    for label, xs in rates.items():
        line = f"{label:<36}{statistics.median(xs):>7.0f} ({min(xs):5.0f}-{max(xs):5.0f})"
        if BASELINE and base.get(label):
            ups = [a / b for a, b in zip(xs, base[label])]
            line += (f"{statistics.median(base[label]):>13.0f} ({min(base[label]):5.0f}-{max(base[label]):5.0f})"
                     f"   x{statistics.median(ups):.2f} ({min(ups):.2f}-{max(ups):.2f})")
        print(line)
    if pyspiel and PAIRED in rates:
        ours, theirs = rates[PAIRED], rates['OpenSpiel hearts']
        per_round = [a / b for a, b in zip(ours, theirs)]
        print(f"Begga Kaat / OpenSpiel hearts: {statistics.median(per_round):.2f} "
              f"(per round {min(per_round):.2f}-{max(per_round):.2f})")


if __name__ == '__main__': main()
