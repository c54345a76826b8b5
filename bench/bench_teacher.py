"""The teacher page's update cost with 32 students playing at 8 tables (Python objects, tables and bots; no browser).

Every round, each of the 8 tables takes one move (its student's, through `Table.act`, or its bot's), as a class
does; the teacher page then draws itself again (`TeacherPage.refresh`: the glance of every table and student, the
results), as the server's watcher has it do at most every 0.1 s. Printed: the cost of one refresh (median, p95, max),
of the glance alone, of the HTML, the page's size, and the share of one core the page takes at 10 refreshes a
second. Also the lesson (a table shown to the class, every hand face up) brought up to the table's moment.

    .venv/bin/python bench/bench_teacher.py [--rounds 300] [--students 32]
"""
import argparse, random, statistics, sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from cardgames_tutor.practice.results import Results
from cardgames_tutor.serve.room import Classroom, StudentPage, TableOptions
from cardgames_tutor.serve.teacher import Console
from cardgames_tutor.serve.teacher_page import TeacherPage, glance_html
from cardgames_tutor.ui.session import Session

GAMES = [('kocka', {}), ('begga-kaat', {'players': 4}), ('dehla-pakad', {}), ('beggars-and-thieves', {'players': 4}),
         ('maghe-satra', {'players': 4})]

def ms(xs): return f"median {statistics.median(xs) * 1e3:.2f} ms, p95 {sorted(xs)[int(len(xs) * .95)] * 1e3:.2f} ms, max {max(xs) * 1e3:.2f} ms"

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--rounds', type=int, default=300)
    ap.add_argument('--students', type=int, default=32)
    ap.add_argument('--solo', type=int, default=4, help='solo students besides those at tables')
    a = ap.parse_args(argv)
    room, results, rng = Classroom(TableOptions(max_tables=64, max_hosted=64, max_joins=10_000)), Results(':memory:'), random.Random(1)
    tokens = {}  # (code, seat) -> token
    for k in range(a.students // 4):
        game, options = GAMES[k % len(GAMES)]
        first = room.open_table(f"b{k}-0", game, f"Student {k}-0", seed=k, **options)
        tokens[first.code, first.seat] = first.token
        for j in range(1, 4):
            ticket = room.join_table(f"b{k}-{j}", first.code, f"Student {k}-{j}")
            tokens[ticket.code, ticket.seat] = ticket.token
    for i in range(a.solo):
        room.add_page(StudentPage(f"solo{i}", f"bs{i}", 'solo', Session('kocka', seed=i), name=f"Solo {i}"))
    for (code, seat) in tokens:
        for _ in range(20): results.answered(f"b{list(room.tables.tables).index(code)}-{seat}", 'kocka', rng.choice(['kocka/follow', 'kocka/score']), rng.random() < .7)
    console = Console(room, results)
    page = TeacherPage(console)
    refresh, glance, html, moves, size = [], [], [], 0, 0
    tables = list(room.tables.tables.values())
    for r in range(a.rounds):
        for t in tables:
            if t.match.over: continue
            seat = t.match.to_act
            if (t.code, seat) in tokens and t.states()[seat] == 'here':
                t.act(tokens[t.code, seat], rng.choice(t.match.legal_actions()), f"r{r}")
            else: t.bot_move()
            moves += 1
        t0 = time.perf_counter(); page.refresh(); refresh.append(time.perf_counter() - t0)
        t0 = time.perf_counter(); g = console.glance(); glance.append(time.perf_counter() - t0)
        t0 = time.perf_counter(); h = glance_html(g); html.append(time.perf_counter() - t0)
        size = max(size, len(page.glance_box.value) + len(page.results_box.value))
    lesson_costs = []
    for t in tables:
        t0 = time.perf_counter(); console.show(t.code); lesson_costs.append(time.perf_counter() - t0)
    print(f"{a.students} students at {len(tables)} tables, {a.solo} solo; {a.rounds} rounds, {moves} moves")
    print(f"teacher page refresh: {ms(refresh)}")
    print(f"  of it, the glance (registry snapshot, seats, progress): {ms(glance)}; the HTML: {ms(html)}")
    print(f"  page size {size:,} characters; at 10 refreshes a second (the watcher's most): {statistics.median(refresh) * 10 * 100:.1f}% of one core")
    print(f"lesson brought up to a table's moment (a copy of its match, replayed): {ms(lesson_costs)}")

if __name__ == '__main__': main()
