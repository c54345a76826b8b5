"""What a hint costs (not a test): playout speed, and the CPU time of a first-move hint per game at the shipped budget.

- Playouts: house bots playing every seat to the end of fresh hands, in actions per CPU second, through the view each
  bot would get from `HandState.view` (`--view`: what the coach did before issue 35) and through the lean entry the
  coach uses now (`coach.PLAYOUT`: the game's `bot_move`, on a quiet hand that keeps no sentences), side by side, in
  turns so both meet the same load.
- Hints: for --deals seeded deals per game and variant, the first decision of Seat 0 with a choice (house bots play
  the seats before it), the hint searched afresh (the shared cache emptied), timed in CPU seconds of this process
  (`time.process_time`: one core; other work on a shared machine disturbs it less than the wall clock). Median and
  95th percentile per game. Target (issue 35): a median of at most 100 ms at the shipped budget.
- The shared cache: the same position asked again, by another session on the same seed: the time of the second hint.
- `--class N`: a `make classroom` server (Solara, started as `bench_classroom.py` starts it, on a free loopback port) and
  N students without a browser (`wire_student.py`: the page's widget messages), all on one link (a class on one seed,
  `--link`), pressing Hint together at each of their first --rounds turns (each then plays its first lit card, the
  same for all, so the class stays at one position); the time from the press until the hint's text has arrived, median
  and p95 per round and over all. Target (issue 35): p95 under 2 s. `--spread` adds a class where every student has a
  seed of its own (no two share a position: the worst case for the shared cache, and a class at tables, where each seat
  has a moment of its own). `--hint-workers 0,2` serves each class once per setting of the server's `--hint-workers`
  (0: searched in the server's own process; `auto`: the server's default, one per core), in turns, in one run.
- `--class N --hub` (as root: the hub makes the students' accounts): the same class three ways in one run, each p95 printed
  side by side at the end with the load average at its start: on a `make classroom` server (as above); through a real
  hub (`deploy/jupyterhub_config.py` with HUB_CLASSROOM=1, as tests/test_hub.py starts it), N students logged in at the
  hub, in its classroom service through the hub's proxy; and in the students' own servers, each a kernel with the tutor
  on the same link (as a tutor page's kernel, over the kernel's websocket, no browser), pressing Hint together, their
  searches in the hub's shared pool (`serve/hint_pool.py`): the time from the press until the kernel sent the hint's
  text. `--servers K` starts K of the N students' own servers (each with a kernel: about 250 MB); `--spread` puts every
  student on a seed of their own, all three ways (no shared cache: every student's search is made).

- `--against TREE`: this checkout against another one (a `git worktree` of an older commit, say), side by side in one
  process: the same first-move positions, each searched by both in turn (which goes first alternates, so both meet the
  same load), the CPU medians, the median per-position ratio, and how many hints came out identical (the best action,
  every value and the deals). A change meant to make hints cheaper, not different, shows all of them identical.
- Every table's first line gives a yardstick: the CPU time of a fixed pure-Python loop on this machine, so figures taken
  on different machines can be set side by side (the same code has run about twice as slowly on one of these machines
  as on another).

- `--yardstick`: one run, every variant, for the coach page: the yardstick (measured before and after, so a change of
  load shows), then per variant the first-move hint (--deals positions: Seat 0's first decision with a choice) and a
  mid-hand hint (as many positions: a later decision of the seat to act), each searched afresh at the shipped budget,
  median and p95 in CPU ms of one core and as a multiple of the yardstick measured just before that variant (a loaded
  machine's figures, divided by its own yardstick, compare with a quiet one's; the load changes within a run); the date, the commit and the load average on the first line. Target
  (issue 50): a median first-move hint of at most 100 ms of CPU in every variant.

- `--race N`: what the race costs in strength, side by side in one run. At N positions per game and variant (even ones:
  the first decision with a choice; odd ones: a decision later in the hand), the hint as shipped and the hint with
  no race (every candidate played out on every deal, as before the race), each timed in CPU seconds; where the two choose differently, a long independent search (budget --judge, no
  race, its own seed) plays both choices out, and the difference (race minus no race, in the game's measure: more is
  better) is averaged over all N positions (0 where they agree), with its 95% interval.

Run: `.venv/bin/python bench/bench_hints.py [--deals 40] [--budget 0.5] [--games kocka ...] [--seconds 2]`;
`.venv/bin/python bench/bench_hints.py --race 200 [--judge 4]`; `.venv/bin/python bench/bench_hints.py --yardstick --deals 40`; `git worktree add /tmp/old HEAD~1 &&
.venv/bin/python bench/bench_hints.py --against /tmp/old`;
`.venv/bin/python bench/bench_hints.py --class 30 [--link '?game=begga-kaat&seed=1'] [--rounds 3] [--spread]
[--hint-workers 0,auto]`; `sudo .venv/bin/python bench/bench_hints.py --class 30 --hub` (needs the
`bench` extra: websockets, psutil).
"""
import argparse, asyncio, contextlib, itertools, math, os, pathlib, random, statistics, sys, time
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # this checkout's package, not an installed one
from cardgames_tutor.core.engine import deal_cards
from cardgames_tutor.core.registry import get_game
from cardgames_tutor.coach import search as coach

VARIANTS = [('begga-kaat', {}), ('kocka', {}), ('dehla-pakad', {}), ('maghe-satra', {}),
            *[('beggars-and-thieves', {'players': p}) for p in (5, 4, 3, 2)]]


def view_playout(hand, rng):
    "The playout before issue 35: a full view (events aside) built for every bot move."
    bot = hand.game.bot
    while not hand.is_over: hand.apply(bot(hand.view(hand.to_act, text=False), rng))
    return hand


def playout_rates(game, seconds) -> tuple:
    "(actions per CPU second through full views, through the lean playout), played in turns of 5 hands."
    spent, acts, i = [0.0, 0.0], [0, 0], 0
    while min(spent) < seconds:
        for j, play in enumerate((view_playout, coach.PLAYOUT)):
            rng = random.Random(i)
            for k in range(5):
                hand = game.new_hand(deal_cards(game, rng), (i + k) % game.n_seats())
                hand.quiet = play is coach.PLAYOUT  # the coach's playouts keep no sentences; the old way kept them
                t = time.process_time(); play(hand, rng); spent[j] += time.process_time() - t
                acts[j] += len(hand.history)
        i += 1
    return acts[0] / spent[0], acts[1] / spent[1]


def first_view(game, i, deal=deal_cards):
    "Seat 0's view at its first decision with a choice in deal `i` (house bots before it)."
    rng = random.Random(1_000_003 * i + 7)
    hand = game.new_hand(deal(game, rng), rng.randrange(game.n_seats()))
    while not hand.is_over:
        if hand.to_act == 0 and len(hand.legal_actions()) > 1: return hand.view(0)
        hand.apply(game.bot(hand.view(hand.to_act, text=False), rng))
    return None


def some_view(game, i):
    "Position `i` for `--race`: the seat to act's view at its first decision with a choice (i even), or a later one (i odd)."
    rng = random.Random(7919 * i + 3)
    hand = game.new_hand(deal_cards(game, rng), rng.randrange(game.n_seats()))
    skip = 0 if i % 2 == 0 else rng.randrange(1, 40)
    while not hand.is_over:
        if len(hand.legal_actions()) > 1:
            if skip <= 0: return hand.view(hand.to_act)
            skip -= 1
        hand.apply(game.bot(hand.view(hand.to_act, text=False), rng))
    return None


def timed_hint(view, game, budget, race=True):
    "(the hint searched afresh, with the race as shipped or none, its CPU seconds)."
    coach._hints.clear(); t = time.process_time(); h = coach.hint(view, game, seed=0, budget=budget, race=None if race else False)
    return h, time.process_time() - t


def race_check(n, budget, judge, games):
    "The `--race` table (see the docstring)."
    print(f"the race against no race: {n} positions per game and variant at budget {budget} s; choices that differ judged at budget {judge} s, no race; load average {os.getloadavg()[0]:.1f}")
    print(f"{'game':30} {'positions':>9} {'differ':>6}   {'race minus no race [95%]':>32}   {'CPU median: race':>16} {'no race':>8}")
    for name, opts in VARIANTS:
        if games and name not in games: continue
        game, diffs, cpu = get_game(name, **opts), [], ([], [])
        for i in range(n):
            view = some_view(game, i)
            if view is None: continue
            (raced, t1), (full, t2) = timed_hint(view, game, budget), timed_hint(view, game, budget, race=False)
            cpu[0].append(t1); cpu[1].append(t2)
            if raced.best == full.best: diffs.append(0.0); continue
            vals, _ = coach.evaluate(view, game, [full.best, raced.best], seed=f"judge {i}", budget=judge, race=False)
            diffs.append(vals[1].value - vals[0].value)
        m, se = statistics.mean(diffs), statistics.stdev(diffs) / math.sqrt(len(diffs))
        label = f"{name}{' ' + ','.join(f'{k}={v}' for k, v in opts.items()) if opts else ''}"
        print(f"{label:30} {len(diffs):9} {sum(d != 0 for d in diffs):6}   {m:+10.4f} [{m - 1.96 * se:+.4f}, {m + 1.96 * se:+.4f}]"
              f"   {statistics.median(cpu[0]) * 1000:14.0f}ms {statistics.median(cpu[1]) * 1000:6.0f}ms", flush=True)


def mid_view(game, i):
    "A later decision: in deal `i` played by house bots, the seat to act's view at the middle one of the hand's decisions with a choice after the first (None if it has none)."
    rng = random.Random(7_919 * i + 11)
    hand, views = game.new_hand(deal_cards(game, rng), rng.randrange(game.n_seats())), []
    while not hand.is_over:
        if len(hand.legal_actions()) > 1: views.append(hand.view(hand.to_act))
        hand.apply(game.bot(hand.view(hand.to_act, text=False), rng))
    return views[1:][len(views[1:]) // 2] if len(views) > 1 else None


def positions(make, game, n) -> list:
    "The first `n` positions `make(game, i)` gives for i = 0, 1, ... (a deal that has none skipped; at most 50 n deals tried)."
    out = []
    for i in range(50 * n):
        if len(out) == n: break
        if (v := make(game, i)) is not None: out.append(v)
    return out


def commit() -> str:
    "This checkout's commit (and whether files differ from it), for the first line of a table."
    import subprocess
    here = pathlib.Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=here, capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(['git', 'status', '--porcelain', '--untracked-files=no'], cwd=here, capture_output=True, text=True).stdout.strip()
    except OSError: return 'unknown'
    return (head or 'unknown') + (' (with changes)' if dirty else '')


def yardstick_table(deals, budget, games):
    "`--yardstick`: first-move and mid-hand hints of every variant in one run, in CPU ms and as multiples of the yardstick."
    before = yardstick()
    print(f"hints as shipped, {time.strftime('%Y-%m-%d')}, commit {commit()}: {deals} first-move and {deals} mid-hand hints per variant"
          f" at budget {budget} s, CPU of one core; yardstick {before:.0f} ms; load average {os.getloadavg()[0]:.1f}")
    print(f"{'variant':30} {'first move: median':>18} {'p95':>7} {'x yardstick':>11}   {'mid-hand: median':>16} {'p95':>7} {'x yardstick':>11}   target   {'yardstick here':>14}")
    for name, opts in VARIANTS:
        if games and name not in games: continue
        game, row, here = get_game(name, **opts), [], yardstick()  # the yardstick again just before each variant: the multiples follow the load
        positions(first_view, game, 1); positions(mid_view, game, 1)  # (the game's first hands made before timing)
        for make in (first_view, mid_view):
            cpu = [timed_hint(v, game, budget)[1] for v in positions(make, game, deals)]
            m, p95 = med_p95(cpu)
            row.append((m * 1000, p95 * 1000))
        label = f"{name}{' ' + ','.join(f'{k}={v}' for k, v in opts.items()) if opts else ''}"
        (f, fp), (mid, mp) = row
        print(f"{label:30} {f:16.0f}ms {fp:5.0f}ms {f / here:11.2f}   {mid:14.0f}ms {mp:5.0f}ms {mid / here:11.2f}   "
              f"{'met' if f <= 100 else 'NOT met':7}   {here:12.0f}ms", flush=True)
    after = yardstick()
    print(f"yardstick after: {after:.0f} ms ({after / before - 1:+.0%} against before: the load changed by about that much)")


def yardstick() -> float:
    "This machine's pace, to set figures from different machines side by side: CPU ms of a fixed pure-Python loop (best of 5)."
    best = math.inf
    for _ in range(5):
        t = time.process_time(); sum(i * i % 7 for i in range(1_000_000)); best = min(best, time.process_time() - t)
    return best * 1000


def load_tree(tree, name):
    "The package of another checkout `tree` (e.g. a `git worktree` of an older commit), imported as `name` beside this one."
    import atexit, importlib, shutil, tempfile
    where = tempfile.mkdtemp(prefix='bench_hints_')
    atexit.register(shutil.rmtree, where, True)
    shutil.copytree(pathlib.Path(tree) / 'cardgames_tutor', pathlib.Path(where) / name)  # its imports are relative: it runs as `name`
    sys.path.insert(0, where)
    engine, search = importlib.import_module(f'{name}.core.engine'), importlib.import_module(f'{name}.coach.search')
    try: get = importlib.import_module(f'{name}.core.registry').get_game
    except ImportError: get = engine.get_game  # a tree from before issue 48, whose engine held the registry
    for module in ('begga_kaat', 'kocka', 'dehla_pakad', 'maghe_satra', 'beggars_and_thieves'): importlib.import_module(f'{name}.games.{module}')
    return (get, engine.deal_cards), search


def against(tree, deals, budget, games):
    "`--against TREE`: the same first-move hints searched by this checkout and by TREE's code in one process, in turns."
    other = load_tree(tree, 'other_tree')
    print(f"this checkout against {tree}: {deals} first-move hints per game and variant at budget {budget} s, each position searched"
          f" by both in turn (which goes first alternates), CPU of one core; yardstick {yardstick():.0f} ms; load average {os.getloadavg()[0]:.1f}")
    print(f"{'game':30} {'this':>8} {'other':>8}   {'this/other per position: median':>32}   {'same hints':>10}")
    for name, opts in VARIANTS:
        if games and name not in games: continue
        sides = []
        for (get, deal), search in (((get_game, deal_cards), coach), other):
            game = get(name, **opts)
            views = [first_view(game, i, deal) for i in range(deals)]
            sides.append((search, game, [v for v in views if v is not None]))
        cpu, same = ([], []), 0
        for k in range(len(sides[0][2])):
            got = [None, None]
            for j in ((0, 1) if k % 2 == 0 else (1, 0)):
                search, game, views = sides[j]
                search._hints.clear(); t = time.process_time(); h = search.hint(views[k], game, seed=0, budget=budget)
                cpu[j].append(time.process_time() - t); got[j] = (str(h.best), [(str(r.action), r.value) for r in h.ranked], h.deals)
            same += got[0] == got[1]
        ratio = statistics.median(a / b for a, b in zip(*cpu))
        label = f"{name}{' ' + ','.join(f'{k}={v}' for k, v in opts.items()) if opts else ''}"
        print(f"{label:30} {statistics.median(cpu[0]) * 1000:6.0f}ms {statistics.median(cpu[1]) * 1000:6.0f}ms   {ratio:32.3f}"
              f"   {same:4}/{len(cpu[0]):<5}", flush=True)


def med_p95(xs):
    xs = sorted(xs)
    return statistics.median(xs), xs[min(len(xs) - 1, int(0.95 * len(xs)))]


async def one_class(port, n, links, rounds, bound=240, make=None):
    "N wire students (`make(i)`, else on `port`), student i on links[i]; every round they press Hint together. Latencies (ms) per round, and the hints' texts."
    from wire_student import WireStudent
    students = []
    for i, link in enumerate(links):
        s = make(i) if make else WireStudent(port); s.path = link; students.append(s)
    t = time.perf_counter()
    await asyncio.gather(*(s.start(timeout=bound) for s in students))
    print(f"  {n} students working after {time.perf_counter() - t:.1f} s", flush=True)
    per_round, texts = [], []
    try:
        for r in range(rounds):
            await asyncio.gather(*(s.wait_lit(timeout=bound) for s in students))
            await asyncio.sleep(0.5)  # the page settled (a new turn clears the hint box)
            got = await asyncio.gather(*(s.hint(timeout=bound) for s in students))
            per_round.append(got); texts.append({s.hint_shown() for s in students})
            await asyncio.gather(*(s.click(timeout=bound) for s in students))
    finally:
        await asyncio.gather(*(s.close() for s in students), return_exceptions=True)
    return per_round, texts


def round_lines(per_round, texts=None) -> tuple:
    "Print each round's median, p95 and max; (median, p95) over all rounds."
    every = [x for r in per_round for x in r]
    for k, r in enumerate(per_round, 1):
        print(f"  round {k}: Hint pressed by {len(r)} together: median {statistics.median(r):.0f} ms, p95 {med_p95(r)[1]:.0f} ms, max {max(r):.0f} ms"
              + (f" ({len(texts[k - 1])} different {'hint' if len(texts[k - 1]) == 1 else 'hints'})" if texts else ''), flush=True)
    return med_p95(every)


def spread_links(n, link) -> list:
    "N links to `link`'s game, a seed each (no two students at the same position)."
    return [f"?game={dict(x.split('=') for x in link.lstrip('?').split('&')).get('game', 'begga-kaat')}&seed={100 + i}" for i in range(n)]


def classroom(n, link, rounds, spread, workers=('auto',), only_spread=False):
    "The class benchmark (see the docstring): a class on one link (unless `only_spread`), then (with `spread`) a class on N seeds; a fresh server for each of `workers`."
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
    from bench_classroom import n_children, rss_mb, server
    classes = [] if only_spread else [('one seed', [link] * n)]
    if spread: classes.append(('a seed each', spread_links(n, link)))
    for (what, links), w in itertools.product(classes, workers):
        with server('solara', 0, extra=() if w == 'auto' else ('--hint-workers', w)) as (port, proc):
            load = os.getloadavg()[0]
            print(f"class of {n} wire students, {what} ({links[0]}{' ...' if what != 'one seed' else ''}), --hint-workers {w}, load average {load:.1f}:", flush=True)
            per_round, texts = asyncio.run(one_class(port, n, links, rounds))
            memory, processes = rss_mb(proc.pid), 1 + n_children(proc.pid)
        m, p95 = round_lines(per_round, texts)
        print(f"  all rounds: median {m:.0f} ms, p95 {p95:.0f} ms over {sum(map(len, per_round))} hints"
              f" (target p95 < 2000 ms: {'met' if p95 < 2000 else 'NOT met'}); the server's memory {memory:.0f} MB in {processes} processes", flush=True)
    return p95


class KernelStudent:
    "A student's own server on the hub, without a browser: a kernel of theirs (as a tutor page's), code run in it over its websocket."
    def __init__(self, hub, name, session):
        self.hub, self.name, self.session = hub, name, session

    def _open(self):
        "A token of the student's (the hub's API, as their browser may ask) and a new kernel in their server."
        xsrf = next(c.value for c in self.session.cookies if c.name == '_xsrf' and c.path.startswith('/hub'))
        token = self.session.post(f'{self.hub.url}/hub/api/users/{self.name}/tokens', json={'note': 'bench', 'expires_in': 3600},
                                  headers={'X-XSRFToken': xsrf}, timeout=60).json()['token']
        self.auth = {'Authorization': f'token {token}'}
        self.api = f'{self.hub.url}/user/{self.name}/api/kernels'
        self.kernel = self.session.post(self.api, headers=self.auth, json={'name': 'python3'}, timeout=180).json()['id']

    async def start(self, bound=300):
        import websockets
        await asyncio.to_thread(self._open)
        self.ws = await websockets.connect(f"ws://127.0.0.1:{self.hub.port}/user/{self.name}/api/kernels/{self.kernel}/channels",
                                           additional_headers=self.auth, open_timeout=bound, max_size=2**24)

    async def run(self, code, mark=None, bound=300) -> tuple:
        "Run `code`: (ms until the first message holding `mark` (else until the reply), what it printed); an error is raised."
        import json, uuid
        msg_id, out, seen, done, t = uuid.uuid4().hex, [], None, set(), time.perf_counter()
        await self.ws.send(json.dumps({'header': {'msg_id': msg_id, 'msg_type': 'execute_request', 'session': uuid.uuid4().hex, 'username': self.name, 'version': '5.3'},
                                       'parent_header': {}, 'metadata': {}, 'channel': 'shell',
                                       'content': {'code': code, 'silent': False, 'store_history': False, 'user_expressions': {}, 'allow_stdin': False}}))
        async with asyncio.timeout(bound):
            while True:
                raw = await self.ws.recv()
                if mark and seen is None and mark in raw: seen = time.perf_counter()
                m = json.loads(raw)
                if m.get('parent_header', {}).get('msg_id') != msg_id: continue
                if m['msg_type'] == 'stream': out.append(m['content']['text'])
                if m['msg_type'] == 'error': raise RuntimeError(f"{self.name}'s kernel: {m['content']['ename']}: {m['content']['evalue']}"[:300])
                if m['msg_type'] == 'execute_reply': done.add('reply'); seen = seen or time.perf_counter()
                if m['msg_type'] == 'status' and m['content'].get('execution_state') == 'idle': done.add('idle')
                if done == {'reply', 'idle'}: return (seen - t) * 1000, ''.join(out)  # the reply, and every output before the kernel went idle

    async def close(self):
        with contextlib.suppress(Exception): await self.ws.close()
        with contextlib.suppress(Exception): await asyncio.to_thread(self.session.delete, f'{self.api}/{self.kernel}', headers=self.auth, timeout=60)


async def kernel_class(students, links, rounds):
    "Every student's own tutor (a kernel each, student i on links[i], the bots unpaced) pressing Hint together each round, then playing the hinted card: ms per round until the hint's text was sent."
    t = time.perf_counter()
    await asyncio.gather(*(s.start() for s in students))
    query = lambda link: link + ('&' if '?' in link else '?') + 'pace=0'
    await asyncio.gather(*(s.run(f"from cardgames_tutor.ui.panel import Tutor\nt = Tutor.from_query({query(link)!r})") for s, link in zip(students, links)))
    print(f"  {len(students)} kernels with the tutor after {time.perf_counter() - t:.1f} s", flush=True)
    per_round = []
    try:
        for _ in range(rounds):
            await asyncio.sleep(0.5)
            got = await asyncio.gather(*(s.run("t.coach.hint_box.clear(); t.coach.hint_box.show(); print(t.coach.hint_box.hint.best)", mark='<b>Hint:') for s in students))
            per_round.append([ms for ms, _ in got])
            await asyncio.gather(*(s.run("t.act(t.coach.hint_box.hint.best)") for s in students))
    finally:
        await asyncio.gather(*(s.close() for s in students), return_exceptions=True)
    return per_round


def through_hub(n, link, rounds, servers, spread=False):
    """`--hub`: the class on the classroom server (as `--class`), then on a real hub (deploy/jupyterhub_config.py, as
    tests/test_hub.py starts it, as root): through the hub's classroom service, and through the students' own servers
    (a tutor in a kernel each, their searches in the hub's shared pool); the three p95s side by side, with the load.
    `spread`: every student on a seed of their own, all three ways (no two at the same position: every search made)."""
    sys.path[:0] = [str(pathlib.Path(__file__).resolve().parent), str(pathlib.Path(__file__).resolve().parents[1] / 'tests')]
    import tempfile
    from concurrent.futures import ThreadPoolExecutor
    import test_hub as th
    from helpers import free_port
    from bench_hub_classes import HubStudent, come_in
    if th._hub_missing(): sys.exit(f"bench_hints --hub: {th._hub_missing()}")
    p95s, loads = {}, {}
    loads['classroom'] = os.getloadavg()[0]
    links = spread_links(n, link) if spread else [link] * n
    p95s['classroom'] = classroom(n, link, rounds, spread, only_spread=spread)
    port, work, prefix = free_port(), pathlib.Path(tempfile.mkdtemp(prefix='bench_hints_hub_')), '/services/classroom/'
    with th.service_account('cardgames-classroom'), th.running_hub(work, [f's{i:02d}' for i in range(n)], HUB_CLASSROOM='1',
                                                                    HUB_CLASSROOM_PORT=str(port), HUB_MAX_USERS='200') as hub:
        th.wait_until_answers(f'http://127.0.0.1:{port}{prefix}', lambda r: r.status_code == 302, 'the classroom service')
        cookies = [come_in(hub, name, prefix, '?pace=0') for name in hub.names]
        loads['hub service'] = os.getloadavg()[0]
        print(f"class of {n} wire students through the hub's classroom service ({links[0]}{' ...' if spread else ''}), load average {loads['hub service']:.1f}:", flush=True)
        per_round, texts = asyncio.run(one_class(hub.port, n, links, rounds, make=lambda i: HubStudent(hub.port, prefix, cookies[i])))
        m, p95s['hub service'] = round_lines(per_round, texts)
        print(f"  all rounds: median {m:.0f} ms, p95 {p95s['hub service']:.0f} ms", flush=True)
        t = time.perf_counter()
        with ThreadPoolExecutor(8) as threads: sessions = list(threads.map(lambda name: hub.server(name, wait=600)[0], hub.names[:servers]))
        loads['own servers'] = os.getloadavg()[0]
        print(f"{servers} students' own servers started in {time.perf_counter() - t:.0f} s; each a tutor in a kernel ({links[0]}{' ...' if spread else ''}), "
              f"pressing Hint together, searched in the hub's shared pool; load average {loads['own servers']:.1f}:", flush=True)
        per_round = asyncio.run(kernel_class([KernelStudent(hub, name, s) for name, s in zip(hub.names, sessions)], links, rounds))
        m, p95s['own servers'] = round_lines(per_round)
        print(f"  all rounds: median {m:.0f} ms, p95 {p95s['own servers']:.0f} ms", flush=True)
    print(f"p95 of a hint, {n} students pressing Hint together ({'a seed each' if spread else 'one seed'}), {time.strftime('%Y-%m-%d %H:%M')}, commit {commit()}, {os.cpu_count()} cores:")
    for what, label in (('classroom', 'the classroom server'), ('hub service', "the hub's classroom service"), ('own servers', "the students' own servers (the shared pool)")):
        print(f"  {label:45} {p95s[what]:6.0f} ms   (load average {loads[what]:.1f})")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--deals', type=int, default=40)
    p.add_argument('--budget', type=float, default=coach.DEFAULT_BUDGET)
    p.add_argument('--seconds', type=float, default=2.0, help="CPU seconds of playouts per game for the actions per second")
    p.add_argument('--games', nargs='*')
    p.add_argument('--before', action='store_true', help="also time each hint through full views (the playout before issue 35), in turn")
    p.add_argument('--class', dest='n', type=int, default=0, help="N wire students on a classroom server pressing Hint together")
    p.add_argument('--link', default='?game=begga-kaat&seed=1', help="the class's link (game and seed)")
    p.add_argument('--rounds', type=int, default=3)
    p.add_argument('--spread', action='store_true', help="also a class with a seed for each student")
    p.add_argument('--hub', action='store_true', help="--class N: also through a real hub (as root): its classroom service and the students' own servers")
    p.add_argument('--servers', type=int, default=0, help="--hub: how many students' own servers to start (default: all N)")
    p.add_argument('--hint-workers', default='auto', help="--class: the server's --hint-workers, or several to compare (e.g. 0,auto)")
    p.add_argument('--yardstick', action='store_true', help="first-move and mid-hand hints of every variant in one run, against the yardstick")
    p.add_argument('--race', type=int, default=0, help="N positions per game: the race against no race, judged (see above)")
    p.add_argument('--judge', type=float, default=4.0, help="--race: the budget of the search that judges two choices")
    p.add_argument('--against', metavar='TREE', help="another checkout (e.g. `git worktree add /tmp/old HEAD~1`): the same hints by both, in turns")
    a = p.parse_args(argv)
    if a.against: return against(a.against, a.deals, a.budget, a.games)
    if a.n and a.hub: return through_hub(a.n, a.link, a.rounds, a.servers or a.n, a.spread)
    if a.n: return classroom(a.n, a.link, a.rounds, a.spread, a.hint_workers.split(','))
    if a.race: return race_check(a.race, a.budget, a.judge, a.games)
    if a.yardstick: return yardstick_table(a.deals, a.budget, a.games)
    print(f"hint benchmark: {a.deals} first-move hints per game and variant at budget {a.budget} s "
          f"(ACTIONS_PER_SECOND={coach.ACTIONS_PER_SECOND}), CPU seconds on one core; yardstick {yardstick():.0f} ms; load average {os.getloadavg()[0]:.1f}")
    print(f"{'game':30} {'view acts/s':>12} {'lean acts/s':>12} {'x':>5}   {'hint median':>11} {'p95':>6}   {'deals':>5}  {'cached':>8}")
    for name, opts in VARIANTS:
        if a.games and name not in a.games: continue
        game = get_game(name, **opts)
        slow, fast = playout_rates(game, a.seconds)
        cpu, deals, again, before = [], [], [], []
        for i in range(a.deals):
            view = first_view(game, i)
            if view is None: continue
            if a.before:  # the same hint through full views, timed just before, under the same load
                coach._hints.clear(); lean, coach.PLAYOUT = coach.PLAYOUT, view_playout
                t = time.process_time(); old = coach.hint(view, game, seed=0, budget=a.budget); before.append(time.process_time() - t)
                coach.PLAYOUT = lean
            coach._hints.clear()
            t = time.process_time(); h = coach.hint(view, game, seed=0, budget=a.budget); cpu.append(time.process_time() - t)
            if a.before: assert old.ranked == h.ranked, f"{name}: the lean playout changed a hint"
            deals.append(h.deals)
            t = time.process_time(); coach.hint(dict(view), game, seed=0, budget=a.budget); again.append(time.process_time() - t)
        label = f"{name}{' ' + ','.join(f'{k}={v}' for k, v in opts.items()) if opts else ''}"
        m, p95 = med_p95(cpu)
        print(f"{label:30} {slow:12,.0f} {fast:12,.0f} {fast / slow:5.2f}   {m * 1000:9.0f}ms {p95 * 1000:4.0f}ms"
              f"   {statistics.median(deals):5.0f}  {statistics.median(again) * 1000:6.2f}ms"
              + (f"   (through full views: median {med_p95(before)[0] * 1000:.0f}ms p95 {med_p95(before)[1] * 1000:.0f}ms)" if before else ''), flush=True)


if __name__ == '__main__': sys.exit(main())
