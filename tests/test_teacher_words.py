"""What the teacher reads on the console, the projector and the results files is true where it is said (the findings of a
teacher with four students at a Kočka table): the work's start, the hand the projector shows, the scores by name, the
pause's message, the projector page named in words, the exercises by game, the results' headers, the cost of a decision
as the review states it, and this class's results apart from the classes kept before."""
import csv, io, re, time
import pytest
from cardgames_tutor.core.registry import game_class, get_game
from cardgames_tutor.practice.exercises import EXERCISES
from cardgames_tutor.practice.results import HEADS, Results, cost_heads
from cardgames_tutor.serve.room import Classroom
from cardgames_tutor.serve.teacher import Console, make_work
from cardgames_tutor.serve.teacher_page import WHENS, TeacherPage, glance_html, shown_html, export_html
from cardgames_tutor.serve.teacher_server import TeacherGate
from cardgames_tutor.serve.projector import PROJECTOR_CSS, projector_parts
from test_teacher import a_class, as_dicts, call, cookie_of, _app
from test_projector import a_table, play

KOCKA = ['Ana', 'Ben', 'Chloé', 'Dev']

def kocka_table(seed=42):
    "A Kočka table where Ana, Ben, Chloé and Dev sit, its match started: (room, table, tokens)."
    room, t, tokens = a_table('kocka', None, KOCKA, seed)
    if not t.started: assert t.start(tokens[t.host]).ok
    return room, t, tokens

def text_of(html:str) -> str: return re.sub(r'<[^>]+>', ' ', html)

# ---------------------------------------------------------------- 1. the work from the next hand

def test_from_the_next_hand_says_that_a_hand_not_begun_is_replaced_at_once_and_it_is():
    room, t, tokens = kocka_table()
    assert t.set_work(make_work('exercise', name='kocka-last-letter').match, 'the exercise', 'now').ok
    assert t.match.standing['letters'] != [0, 0, 0, 0] and not t.match.hand.history  # the exercise's letters, no move made yet
    label = dict((v, k) for k, v in WHENS)['next-hand']
    assert 'replaced at once' in label and 'played out first' in label  # the choice says both
    done = Console(room).set_work(make_work('game', game='kocka', seed=42), 'tables', 'next-hand')
    assert done[0][1] and t.match.seed == 42 and t.next_work is None  # no move made in the hand: replaced at once, as said
    play(t, tokens, 1)
    Console(room).set_work(make_work('game', game='kocka', seed=7), 'tables', 'next-hand')
    assert t.match.seed == 42 and t.next_work['title'] == 'Kočka, seed 7'  # a move made: that hand is played out first

# ---------------------------------------------------------------- 2. the hand the projector shows

def test_the_projector_says_a_finished_hand_is_over_and_what_the_table_waits_for_in_the_next():
    room, t, tokens = kocka_table()
    console = Console(room)
    lesson = console.show(t.code)
    while not t.match.hands[0].is_over:
        if not t.bot_move(): play(t, tokens)
    assert len(t.match.hands) == 2 and not t.match.hands[1].history  # the table is on hand 2, no one has moved in it
    lesson.sync()
    head = text_of(projector_parts(lesson)['head'])
    assert 'hand 1 (over)' in head and 'Hand 1 is over' in head and 'Hand 2: Waiting for' in head, head
    play(t, tokens, 1); lesson.sync()
    head = text_of(projector_parts(lesson)['head'])
    assert 'hand 2' in head and 'over' not in head, head  # the next move: the hand under way, live

# ---------------------------------------------------------------- 3. the scores by name, the turn whole, a seat a line

def test_the_glance_gives_each_score_after_its_players_name_the_turn_whole_and_a_seat_a_line():
    room, t, tokens = kocka_table()
    t.set_work(make_work('exercise', name='kocka-last-letter').match, 'the exercise', 'now')
    row = next(r for r in Console(room).glance()['tables'] if r['code'] == t.code)
    letters = t.match.game.tally(t.match.standing)[1]
    for name, v in zip(KOCKA, letters): assert f"{name} {v or 'none'}" in row['scores_text'], row['scores_text']
    html = glance_html(Console(room).glance())
    assert f'<td style="white-space:nowrap">{row["to_act_label"]}' in html  # 'Ana (Seat 0)' on one line
    assert html.count('<br>') >= 3 and '; Seat' not in html  # each seat on a line of its own

# ---------------------------------------------------------------- 4. the pause's message, and the projector paused

def test_the_pause_message_is_by_pause_emptied_once_said_and_the_projector_says_paused():
    room, t, tokens = kocka_table()
    page = TeacherPage(Console(room))
    assert page.reason_box.description != 'Reason' and 'pause' in page.reason_box.description.lower()
    row = next(w for w in page.children if page.pause_button in getattr(w, 'children', ()))
    assert page.show_button not in row.children  # not beside “Show to the class”: it is not shown on the projector
    page.table_choice.value, page.reason_box.value = t.code, 'Look at the projector: who took the hearts?'
    page.show_button.click(); page.pause_button.click()
    assert t.paused == 'Look at the projector: who took the hearts?' and page.reason_box.value == ''
    assert 'who took the hearts?' in page.said.value  # the teacher reads what the students were told
    head = projector_parts(page.console.on_projector())['head']
    assert '>Paused<' in head and '>Live<' not in head
    page.resume_button.click()
    assert '>Live<' in projector_parts(page.console.on_projector())['head']

# ---------------------------------------------------------------- 5. the projector page in words

def test_the_console_names_the_projector_page_by_a_link_never_by_its_path():
    line = shown_html('e249uw', '/class')
    assert 'href="/class/teacher/show"' in line and '/teacher/show' not in text_of(line) and 'click' in text_of(line)

# ---------------------------------------------------------------- 6. the projector scaled to the screen

def test_the_projector_table_grows_with_the_screen():
    assert 'max-width:700px' not in PROJECTOR_CSS and 'max-width:none' in PROJECTOR_CSS
    zooms = [float(z) for z in re.findall(r'@container cgt-fit \(min-width:\d+px\)\{\.cgt-proj-fit \.cgt-table-wrap\{zoom:([\d.]+)\}', PROJECTOR_CSS)]
    assert zooms == sorted(zooms) and zooms[-1] >= 2.4  # at 1920x1080 the cards are over twice the console's
    assert 'cgt-trick{gap:' in PROJECTOR_CSS  # the names under the trick apart

# ---------------------------------------------------------------- 7. exercises by game, the players a choice, the places said

def test_the_exercises_are_listed_by_game_the_players_are_the_games_and_the_places_are_named():
    room, t, tokens = kocka_table()
    page = TeacherPage(Console(room))
    labels = [label for label, _ in page.exercise_choice.options]
    games_in_order = [label.split(':')[0] for label in labels]
    assert all(label.startswith(f"{game_class(EXERCISES[n].record['game']).title}: ") for label, n in page.exercise_choice.options)
    assert games_in_order == sorted(games_in_order) and len(labels) == len(EXERCISES)  # each game's together
    page.game_choice.value = 'maghe-satra'
    assert [n for _, n in page.players_box.options] == list(game_class('maghe-satra').PLAYERS) and page.players_box.value == 4
    page.game_choice.value = 'kocka'
    assert [n for _, n in page.players_box.options] == [4] and page.players_box.disabled
    page.kind_choice.value, page.exercise_choice.value, page.target_choice.value = 'exercise', 'kocka-last-letter', 'tables'
    page.set_button.click()
    assert f"Set the exercise “One letter from KOČKA” for table {t.code}." in page.work_line.value and 'place' not in page.work_line.value

# ---------------------------------------------------------------- 8-10. the results files

def _results_of_a_class(tmp_path):
    "A results file that kept a class before this server started (its clock at 1000), and this class (from 2000)."
    clock = [1000.0]
    before = Results(tmp_path/'r.sqlite', now=lambda: clock[0])
    before.seen('s-old', 'Zed'); before.played('s-old', 'kocka', 1, 'old123', 0, 'Seat 0 lost.', points=[1, 2, 3, 4], seed=9)
    before.answered('s-old', 'kocka', 'kocka/follow', False); before.close()
    clock[0] = 2000.0
    now = Results(tmp_path/'r.sqlite', now=lambda: clock[0])
    clock[0] = 2001.0
    now.seen('s-ana', 'Ana'); now.played('s-ana', 'kocka', 1, 'e249uw', 0, 'Seat 1 lost.', points=[0, 5, 0, 0], seed=60090194139034708783449339565)
    now.answered('s-ana', 'kocka', 'kocka/follow', True)
    return now

def test_the_results_headers_are_words_with_names_and_the_games_seats_only(tmp_path):
    db = _results_of_a_class(tmp_path)
    for kind in ('summary', 'answers', 'hands', 'decisions'):
        head = next(csv.reader(io.StringIO(db.csv_text(kind).lstrip('\ufeff'))))
        assert not any('_' in h for h in head), head  # no 'hand_no', 'seat_0_points', 'student_key'
    ana = [r for r in as_dicts(db.csv_text('hands')) if r['student'] == 'Ana'][0]
    assert ana['game'] == 'Kočka' and ana[HEADS['own']] == '0' and ana[HEADS['every']] == '0 · 5 · 0 · 0'  # four seats: no fifth
    assert 'deals the match again' in HEADS['seed'] and 'tells apart' in HEADS['key']  # a long seed and the code, each said what it is for

def test_the_console_exports_this_class_and_everything_only_when_asked(tmp_path):
    db = _results_of_a_class(tmp_path)
    room, _, _ = a_class()
    console = Console(room, db)
    this = as_dicts(console.csv_text('hands'))
    assert [r['student'] for r in this] == ['Ana']  # since the server started: not the class before
    assert [r['student'] for r in as_dicts(console.csv_text('hands', everything=True))] == ['Zed', 'Ana']
    assert console.summary() == ['Ana: Following the led suit (Kočka): 1 right, 0 wrong']  # the page's list: this class too
    links = export_html(console)
    assert time.strftime('%H:%M', time.localtime(db.started)) in text_of(links) and 'rows=all' in links and 'every row has its date' in links
    gate = TeacherGate(_app, 'kq7m-x2pd-9hte', console)
    mine = cookie_of(call(gate, '/teacher', 'teacher=kq7m-x2pd-9hte')[1])
    _, headers, body = call(gate, '/teacher/results.csv', 'kind=hands&rows=all', cookies=mine)
    assert [r['student'] for r in as_dicts(body)] == ['Zed', 'Ana'] and b'all-classes' in headers[b'content-disposition']
    assert [r['student'] for r in as_dicts(call(gate, '/teacher/results.csv', 'kind=hands', cookies=mine)[2])] == ['Ana']

def test_a_decisions_cost_is_the_chance_the_review_states(tmp_path):
    "Kočka's coach ranks a move by its chance of losing and its penalty points: the export's cost is the chance's, as the review reads."
    from cardgames_tutor.coach.search import review
    from cardgames_tutor.coach.reasons import tenths
    from cardgames_tutor.core.match import Match, play_out, random_choice
    import random
    m = play_out(Match(get_game('kocka'), seed=4), random_choice, random.Random(1))
    items = review(m, seat=0, hand_no=1, budget=0.02, top=5)
    assert items
    db = Results(tmp_path/'r.sqlite'); db.reviewed('s1', 'kocka', items)
    played, best, cost = cost_heads('lose')
    for row, x in zip(as_dicts(db.csv_text('decisions')), items):
        mine, coach = x.hint.value_of(x.played), x.hint.value_of(x.best)
        for head, v in ((played, mine), (best, coach)):  # each figure inside the range the review states in tenths
            lo, hi = v.ranges['lose']
            assert lo - 0.005 <= int(row[head]) / 100 <= hi + 0.005, (row[head], tenths(v.stats['lose'], lo, hi))
        assert abs(int(row[cost]) - (mine.stats['lose'] - coach.stats['lose']) * 100) <= 0.51  # their difference: not the ranking's number

def test_each_students_progress_on_the_console_is_this_classs(tmp_path):
    db = _results_of_a_class(tmp_path)
    db.seen('s-old', 'Zed')  # Zed is back: his answer and hand of the class before are not this class's
    assert db.standings()['s-old'].text.startswith('0 of 1 drill answer right') and db.standings()['s-old'].hands == 1
    assert db.standings(db.started)['s-old'].text == 'no drill answers yet; 0 hands played'
    assert db.standings(db.started)['s-ana'].text == '1 of 1 drill answer right; 1 hand played'
