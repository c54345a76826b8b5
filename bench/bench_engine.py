"""Engine benchmark (not a test): random full hands per second, per game, and OpenSpiel's hearts beside them.

Plays random hands through the same engine the tutor uses (a seeded deal, legal actions, apply with its
rule check, events) on one core. Times are CPU time of this process (`time.process_time`), so other work
on a shared machine disturbs them less; each figure is the median of ROUNDS rounds taken in turn with the
others, with the lowest and highest round as an interval. Where `open_spiel` is installed (the optional
`bench` extra: pip install -e '.[bench]'), OpenSpiel's hearts (C++ engine driven from Python, uniform
chance outcomes drawn in Python) is timed in the same rounds and the ratio printed.
Targets: Begga Kaat (4 players) at least as fast as OpenSpiel hearts; every game twice the rate of
commit 006f302 (measured by running this file with PYTHONPATH pointing at that commit's package).
Usage: python bench/bench_engine.py [SECONDS_PER_ROUND] [ROUNDS]
"""
import random, statistics, sys, time
from cardgames_tutor.engine import deal_cards, get_game

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 5

CASES = [('begga-kaat', {'players': 4}), ('begga-kaat', {'players': 3}), ('kocka', {}), ('dehla-pakad', {}),
         ('maghe-satra', {'players': 4}), ('beggars-and-thieves', {'players': 5}), ('beggars-and-thieves', {'players': 4}),
         ('beggars-and-thieves', {'players': 3}), ('beggars-and-thieves', {'players': 2})]


def engine_round(game, seconds, rng):
    "Random full hands per CPU second: deal, then the seat to act picks any legal action, until the hand is over."
    n, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        hand = game.new_hand(deal_cards(game, rng), n % game.n_seats())
        while not hand.is_over: hand.apply(rng.choice(hand.legal_actions()))
        n += 1
    return n / (time.process_time() - start)


def openspiel_round(seconds, rng, pyspiel=None):
    "Random full hands of OpenSpiel hearts per CPU second, chance outcomes drawn uniformly in Python."
    game, n, start = pyspiel.load_game('hearts'), 0, time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node(): state.apply_action(rng.choice(state.chance_outcomes())[0])
            else: state.apply_action(rng.choice(state.legal_actions()))
        n += 1
    return n / (time.process_time() - start)


def main():
    try: import pyspiel
    except ImportError: pyspiel = None; print("OpenSpiel is not installed (pip install -e '.[bench]'): hearts is skipped.")
    runs = {f"{name} {' '.join(f'{k}={v}' for k, v in opts.items())}".strip(): (get_game(name, **opts), random.Random(1))
            for name, opts in CASES}
    rates = {label: [] for label in runs}
    if pyspiel: rates['OpenSpiel hearts'] = []
    for _ in range(ROUNDS):  # every case once per round, so load on the machine falls on all alike
        for label, (game, rng) in runs.items(): rates[label].append(engine_round(game, SECONDS, rng))
        if pyspiel: rates['OpenSpiel hearts'].append(openspiel_round(SECONDS, random.Random(2), pyspiel))
    print(f"{'game':<36}{'hands/s':>10}  (lowest-highest of {ROUNDS} rounds, CPU time)")
    for label, xs in rates.items():
        print(f"{label:<36}{statistics.median(xs):>10.0f}  ({min(xs):.0f}-{max(xs):.0f})")
    if pyspiel and 'begga-kaat players=4' in rates:
        ours, theirs = rates['begga-kaat players=4'], rates['OpenSpiel hearts']
        per_round = [a / b for a, b in zip(ours, theirs)]
        print(f"Begga Kaat / OpenSpiel hearts: {statistics.median(per_round):.2f} "
              f"(per round {min(per_round):.2f}-{max(per_round):.2f})")


if __name__ == '__main__': main()
