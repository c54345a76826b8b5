"""Engine benchmark (not a test): random full hands per second and microseconds per legal-actions call.

Plays random hands through the same engine the tutor uses (deal from a seeded shuffle, legal actions,
verdict, apply, events) on one core, and prints the figures. Target for Begga Kaat: >= 3,000 hands/s.
Usage: python bench/bench_engine.py [SECONDS_PER_FIGURE]
"""
import random, sys, time
from cardgames_tutor.engine import deal_cards, get_game, GAME_NAMES, BadOption

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0

def hands_per_second(game, seconds=SECONDS, seed=1):
    rng, n, start = random.Random(seed), 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        hand = game.new_hand(deal_cards(game, rng), n % game.n_seats())
        while not hand.is_over: hand.apply(rng.choice(hand.legal_actions()))
        n += 1
    return n / (time.perf_counter() - start)

def legal_actions_us(game, seed=2, samples=2000):
    "Average microseconds of the first legal_actions() call at positions met in random play."
    rng, total, n = random.Random(seed), 0.0, 0
    while n < samples:
        hand = game.new_hand(deal_cards(game, rng), 0)
        while not hand.is_over and n < samples:
            start = time.perf_counter()
            legal = hand.legal_actions()
            total += time.perf_counter() - start; n += 1
            hand.apply(rng.choice(legal))
    return total / n * 1e6

CASES = [('begga-kaat', {'players': 4}), ('begga-kaat', {'players': 3}), ('kocka', {}), ('dehla-pakad', {}),
         ('maghe-satra', {'players': 4}), ('beggars-and-thieves', {'players': 5}), ('beggars-and-thieves', {'players': 4}),
         ('beggars-and-thieves', {'players': 3}), ('beggars-and-thieves', {'players': 2})]

if __name__ == '__main__':
    print(f"{'game':<36}{'hands/s':>10}{'us/legal_actions':>18}")
    for name, opts in CASES:
        try: game = get_game(name, **opts)
        except BadOption as e: print(f"{name:<36} (skipped: {e})"); continue
        label = f"{name} {' '.join(f'{k}={v}' for k, v in opts.items())}"
        print(f"{label:<36}{hands_per_second(game):>10.0f}{legal_actions_us(game):>18.2f}", flush=True)
