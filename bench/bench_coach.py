"""The coach's strength and speed, measured.

Strength, duplicate format: the same seeded deals are played twice, once with the coach in Seat 0 and once with
the house bot in Seat 0, house bots in every other seat (with the same seeds). The difference per hand in the
game's measure (coach minus bot; for penalty games, bot minus coach, so positive is always better for the coach)
is averaged, with its 95% interval (normal approximation, 1.96 standard errors). The same against random play in
Seat 0. Speed: the latency of a hint at the first decision of Seat 0 in a hand, median and 95th percentile.

    python bench/bench_coach.py --quick           # a few hands per game, to see that it runs
    python bench/bench_coach.py --hands 1000      # the full measure (hours on one core)
    python bench/bench_coach.py --games kocka --hands 200 --budget 0.3
    python bench/bench_coach.py --games beggars-and-thieves --players 5 --first 120 --hands 130 --every 26
        (hands 120-249 only, adding to an earlier run of hands 0-119: pool the two; --every prints the running interval)

Where an interval does not clear zero, a closing note says how many hands would, at the spread measured.
"""
import argparse, math, pathlib, random, statistics, sys, time
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # this checkout's package, not an installed one
from cardgames_tutor.core.engine import get_game, deal_cards
from cardgames_tutor.core.match import random_choice
from cardgames_tutor.coach import search as coach

VARIANTS = [('begga-kaat', {}), ('kocka', {}), ('dehla-pakad', {}), ('maghe-satra', {}),
            *[('beggars-and-thieves', {'players': p}) for p in (5, 4, 3, 2)]]

def result_of(game):
    "Seat 0's result for a hand, higher is better, and its name: the main stat of the game's coach measure (negated when lower is better)."
    m = game.coach_measure
    sign = -1 if m.lower_better else 1
    return (lambda h: sign * m.stats(h, 0)[m.main]), f"{m.label}{' (less is better: shown negated)' if m.lower_better else ''}"


def play_hand(game, deal, dealer, seat0, seed):
    "One hand of `deal`, `seat0(view, rng)` choosing for Seat 0, house bots elsewhere; the finished hand."
    hand, rng = game.new_hand(deal, dealer), random.Random(seed)
    while not hand.is_over:
        view = hand.view(hand.to_act)
        hand.apply(seat0(view, rng) if hand.to_act == 0 else game.bot(view, rng))
    return hand


def interval(xs):
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float('inf')
    return m, m - half, m + half


def run(name, opts, hands, budget, out, every=0, first=0):
    game = get_game(name, **opts)
    result, what = result_of(game)
    latency, cpu_time, vs_bot, vs_random = [], [], [], []

    def coached(view, rng):
        t, cpu = time.perf_counter(), time.process_time()
        h = coach.hint(view, game, seed=0, budget=budget)
        if not latency_done[0]:  # the first decision of the hand
            latency.append(time.perf_counter() - t); cpu_time.append(time.process_time() - cpu); latency_done[0] = True
        return h.best

    for k in range(hands):
        i = first + k  # the hand's number: its deal and seeds
        deal_rng = random.Random(1_000_003 * i + 7)
        deal, dealer = deal_cards(game, deal_rng), deal_rng.randrange(game.n_seats())
        latency_done = [False]
        c = result(play_hand(game, deal, dealer, coached, i))
        b = result(play_hand(game, deal, dealer, game.bot, i))
        r = result(play_hand(game, deal, dealer, random_choice, i))
        vs_bot.append(c - b); vs_random.append(c - r)
        if every and (k + 1) % every == 0 and k + 1 < hands:
            m, lo, hi = interval(vs_bot)
            out(f"  ... {name} {k + 1} hands: coach-bot {m:+.3f} [{lo:+.3f}, {hi:+.3f}]")
    label = f"{name}{'' if not opts else ' ' + ','.join(f'{k}={v}' for k, v in opts.items())}" + (f" (hands {first}-{first + hands - 1})" if first else '')
    def med_p95(xs):
        xs = sorted(xs)
        return (statistics.median(xs), xs[min(len(xs) - 1, int(0.95 * len(xs)))]) if xs else (float('nan'),) * 2
    mb, lob, hib = interval(vs_bot)
    mr, lor, hir = interval(vs_random)
    out(f"{label:34} {hands:5d} hands  {what}: coach-bot {mb:+.3f} [{lob:+.3f}, {hib:+.3f}]"
        f"  coach-random {mr:+.3f} [{lor:+.3f}, {hir:+.3f}]"
        f"  first-move hint: wall median {med_p95(latency)[0]:.2f}s p95 {med_p95(latency)[1]:.2f}s,"
        f" CPU median {med_p95(cpu_time)[0]:.2f}s p95 {med_p95(cpu_time)[1]:.2f}s ({len(latency)} hints)")
    if lob <= 0 < mb and len(vs_bot) > 1:  # not yet shown: how many hands the interval would need to clear zero, at this spread
        need = math.ceil((1.96 * statistics.stdev(vs_bot) / mb) ** 2)
        out(f"  note: the interval does not clear zero yet; at this mean ({mb:+.3f}) and spread (sd {statistics.stdev(vs_bot):.3f} per hand)"
            f" about {need} hands would (the half-width shrinks as 1/sqrt(hands)); run more with --first {first + hands}")
    elif mb <= 0: out(f"  note: the coach is not ahead of the house bot here over these {hands} hands")
    return mb, lob, hib


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--hands', type=int, default=1000, help="hands per game and variant (default 1000)")
    p.add_argument('--quick', action='store_true', help="10 hands per game and variant, budget 0.2 s")
    p.add_argument('--budget', type=float, default=coach.DEFAULT_BUDGET, help="seconds of playouts per hint")
    p.add_argument('--games', nargs='*', help="only these games (e.g. kocka beggars-and-thieves)")
    p.add_argument('--players', type=int, nargs='*', help="Beggars and Thieves: only these numbers of players")
    p.add_argument('--first', type=int, default=0, help="the number of the first hand (to add hands to an earlier run: its deals and seeds)")
    p.add_argument('--every', type=int, default=0, help="print the running interval every this many hands (0: only at the end)")
    a = p.parse_args(argv)
    hands, budget = (10, 0.2) if a.quick else (a.hands, a.budget)
    print(f"coach benchmark: {hands} hands per game and variant, hint budget {budget} s "
          f"(ACTIONS_PER_SECOND={coach.ACTIONS_PER_SECOND}); differences are per hand, positive = the coach does better")
    for name, opts in VARIANTS:
        if a.games and name not in a.games: continue
        if a.players and 'players' in opts and opts['players'] not in a.players: continue
        run(name, opts, hands, budget, lambda s: print(s, flush=True), a.every, a.first)


if __name__ == '__main__': sys.exit(main())
