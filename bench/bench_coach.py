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
    python bench/bench_coach.py --hands 400 --turns 20 --against /work/prev
        (every variant in turns of 20 hands, so a run stopped early has them all; the coach of another checkout, e.g.
        `git worktree add /work/prev <commit>`, also plays Seat 0 of each deal: coach minus previous coach per hand)
    python bench/bench_coach.py --games dehla-pakad --hands 300 --first 300 --record dp.jsonl   (and another process with
        --first 0 ...): a line per hand in dp.jsonl; `--pool dp.jsonl` gives the interval over every hand recorded

Where an interval does not clear zero, a closing note says how many hands would, at the spread measured.
"""
import argparse, json, math, pathlib, random, statistics, sys, time
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # this checkout's package, not an installed one
from cardgames_tutor.core.engine import deal_cards
from cardgames_tutor.core.registry import get_game
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


def med_p95(xs):
    xs = sorted(xs)
    return (statistics.median(xs), xs[min(len(xs) - 1, int(0.95 * len(xs)))]) if xs else (float('nan'),) * 2


def load_prev(tree):
    "(engine, search) of another checkout `tree` (a `git worktree` of an older commit), imported beside this one (bench_hints.load_tree)."
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
    from bench_hints import load_tree
    return load_tree(tree, 'prev_tree')


class Tally:
    """One variant's hands so far (duplicate deals): the coach minus the house bot, minus random play and, with `prev`
    (another checkout's (engine, search)), minus that checkout's coach, each in Seat 0 on the same deal and seeds."""
    def __init__(self, name, opts, budget, prev=None, record=None):
        self.name, self.opts, self.budget, self.first, self.record = name, opts, budget, None, record
        self.game = get_game(name, **opts)
        self.result, self.what = result_of(self.game)
        self.prev = (prev[0].get_game(name, **opts), prev[0].deal_cards, prev[1]) if prev else None
        self.vs_bot, self.vs_random, self.vs_prev, self.latency, self.cpu, self.bots_differ = [], [], [], [], [], 0

    def coached(self, game, search, timed):
        "Seat 0's chooser: `search`'s hint at the budget (the hand's first hint timed, when `timed`)."
        first = [timed]
        def choose(view, rng):
            t, cpu = time.perf_counter(), time.process_time()
            h = search.hint(view, game, seed=0, budget=self.budget)
            if first[0]:
                self.latency.append(time.perf_counter() - t); self.cpu.append(time.process_time() - cpu); first[0] = False
            return h.best
        return choose

    def play(self, i):
        "Hand number `i` (its deal and seeds), played by each Seat 0."
        self.first = i if self.first is None else self.first
        deal_rng = random.Random(1_000_003 * i + 7)
        deal, dealer = deal_cards(self.game, deal_rng), deal_rng.randrange(self.game.n_seats())
        c = self.result(play_hand(self.game, deal, dealer, self.coached(self.game, coach, True), i))
        b = self.result(play_hand(self.game, deal, dealer, self.game.bot, i))
        r = self.result(play_hand(self.game, deal, dealer, random_choice, i))
        self.vs_bot.append(c - b); self.vs_random.append(c - r)
        if self.prev:  # the previous coach plays the same deal in its own code: its deal, bots and measure
            game, deal_of, search = self.prev
            result = result_of(game)[0]
            deal_rng = random.Random(1_000_003 * i + 7)
            deal, dealer = deal_of(game, deal_rng), deal_rng.randrange(game.n_seats())
            self.bots_differ += result(play_hand(game, deal, dealer, game.bot, i)) != b  # the same deal and house bots in both
            self.vs_prev.append(c - result(play_hand(game, deal, dealer, self.coached(game, search, False), i)))
        if self.record:  # one line per hand, to pool runs of different hands (`--pool`)
            with open(self.record, 'a') as f:
                f.write(json.dumps({'variant': self.label(), 'hand': i, 'vs_bot': c - b, 'vs_random': c - r, 'what': self.what,
                                    **({'vs_prev': self.vs_prev[-1], 'bots_differ': self.bots_differ} if self.prev else {}),
                                    'cpu': self.cpu[-1] if self.cpu else None}) + '\n')

    def label(self) -> str: return f"{self.name}{'' if not self.opts else ' ' + ','.join(f'{k}={v}' for k, v in self.opts.items())}"

    def line(self) -> str:
        "The figures so far, one line."
        label, n = self.label(), len(self.vs_bot)
        span = f" (hands {self.first}-{self.first + n - 1})" if self.first else ''
        mb, lob, hib = interval(self.vs_bot)
        mr, lor, hir = interval(self.vs_random)
        prev = ''
        if self.vs_prev:
            mp, lop, hip = interval(self.vs_prev)
            prev = (f"  coach-previous coach {mp:+.3f} [{lop:+.3f}, {hip:+.3f}] ({sum(x != 0 for x in self.vs_prev)} hands with another result;"
                    f" the house bots' hands differed in {self.bots_differ})")
        return (f"{label + span:34} {n:5d} hands  {self.what}: coach-bot {mb:+.3f} [{lob:+.3f}, {hib:+.3f}]"
                f"  coach-random {mr:+.3f} [{lor:+.3f}, {hir:+.3f}]{prev}"
                f"  first-move hint: wall median {med_p95(self.latency)[0]:.2f}s p95 {med_p95(self.latency)[1]:.2f}s,"
                f" CPU median {med_p95(self.cpu)[0]:.2f}s p95 {med_p95(self.cpu)[1]:.2f}s ({len(self.latency)} hints)")

    def notes(self) -> list:
        "Whether the interval against the house bot clears zero, and if not, how many hands would."
        xs, (mb, lob, _) = self.vs_bot, interval(self.vs_bot)
        if lob <= 0 < mb and len(xs) > 1:  # not yet shown: how many hands the interval would need to clear zero, at this spread
            need = math.ceil((1.96 * statistics.stdev(xs) / mb) ** 2)
            return [f"  note: the interval does not clear zero yet; at this mean ({mb:+.3f}) and spread (sd {statistics.stdev(xs):.3f} per hand)"
                    f" about {need} hands would (the half-width shrinks as 1/sqrt(hands)); run more with --first {self.first + len(xs)}"]
        return [f"  note: the coach is not ahead of the house bot here over these {len(xs)} hands"] if mb <= 0 else []


def run(name, opts, hands, budget, out, every=0, first=0, prev=None, record=None):
    "`hands` hands of one variant from hand `first` on; the closing line (and a running one every `every` hands)."
    t = Tally(name, opts, budget, prev, record)
    for k in range(hands):
        t.play(first + k)
        if every and (k + 1) % every == 0 and k + 1 < hands: out("  ... " + t.line())
    out(t.line())
    for note in t.notes(): out(note)
    return interval(t.vs_bot)


def in_turns(variants, hands, budget, out, turn, first=0, prev=None, record=None):
    "Every variant in turns of `turn` hands (so a run stopped early has them all), the running lines after each turn."
    tallies = [Tally(name, opts, budget, prev, record) for name, opts in variants]
    for start in range(first, first + hands, turn):
        for t in tallies:
            for i in range(start, min(start + turn, first + hands)): t.play(i)
            out(f"[{time.strftime('%H:%M:%S')}] " + t.line())
    for t in tallies:
        out(t.line())
        for note in t.notes(): out(note)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--hands', type=int, default=1000, help="hands per game and variant (default 1000)")
    p.add_argument('--quick', action='store_true', help="10 hands per game and variant, budget 0.2 s")
    p.add_argument('--budget', type=float, default=coach.DEFAULT_BUDGET, help="seconds of playouts per hint")
    p.add_argument('--games', nargs='*', help="only these games (e.g. kocka beggars-and-thieves)")
    p.add_argument('--players', type=int, nargs='*', help="Beggars and Thieves: only these numbers of players")
    p.add_argument('--first', type=int, default=0, help="the number of the first hand (to add hands to an earlier run: its deals and seeds)")
    p.add_argument('--every', type=int, default=0, help="print the running interval every this many hands (0: only at the end)")
    p.add_argument('--turns', type=int, default=0, help="play the variants in turns of this many hands each, the running lines after each turn (0: one variant after another)")
    p.add_argument('--against', metavar='TREE', help="another checkout (e.g. `git worktree add /tmp/prev <commit>`): its coach in Seat 0 on the same deals too")
    p.add_argument('--record', metavar='FILE', help="add a line per hand to FILE (JSON): runs of different hands pooled by --pool")
    p.add_argument('--pool', metavar='FILE', nargs='+', help="no hands played: the intervals over every hand recorded in these files (each hand once)")
    a = p.parse_args(argv)
    if a.pool: return pool(a.pool)
    hands, budget = (10, 0.2) if a.quick else (a.hands, a.budget)
    prev = load_prev(a.against) if a.against else None
    print(f"coach benchmark, {time.strftime('%Y-%m-%d %H:%M')}: {hands} hands per game and variant, hint budget {budget} s "
          f"(ACTIONS_PER_SECOND={coach.ACTIONS_PER_SECOND}); differences are per hand, positive = the coach does better"
          + (f"; the previous coach: {a.against}" if a.against else ''), flush=True)
    chosen = [(name, opts) for name, opts in VARIANTS if not (a.games and name not in a.games)
              and not (a.players and 'players' in opts and opts['players'] not in a.players)]
    out = lambda s: print(s, flush=True)
    if a.turns: return in_turns(chosen, hands, budget, out, a.turns, a.first, prev, a.record)
    for name, opts in chosen: run(name, opts, hands, budget, out, a.every, a.first, prev, a.record)


def pool(files):
    "`--pool`: per variant, every hand recorded in `files` (a hand recorded twice counted once), its intervals."
    rows = {}
    for f in files:
        for line in open(f):
            r = json.loads(line)
            rows.setdefault(r['variant'], {})[r['hand']] = r
    for variant, hands in rows.items():
        rs = [hands[k] for k in sorted(hands)]
        fig = lambda key: '{:+.3f} [{:+.3f}, {:+.3f}]'.format(*interval([r[key] for r in rs]))
        prev = [r for r in rs if 'vs_prev' in r]
        tail = (f"  coach-previous coach {'{:+.3f} [{:+.3f}, {:+.3f}]'.format(*interval([r['vs_prev'] for r in prev]))} over {len(prev)} hands"
                f" ({sum(r['vs_prev'] != 0 for r in prev)} with another result)") if prev else ''
        cpu = [r['cpu'] for r in rs if r.get('cpu') is not None]
        print(f"{variant:30} {len(rs):5d} hands  {rs[0]['what']}: coach-bot {fig('vs_bot')}  coach-random {fig('vs_random')}{tail}"
              f"  first-move hint CPU median {med_p95(cpu)[0]:.2f}s", flush=True)


if __name__ == '__main__': sys.exit(main())
