"""The teacher's console and page (serve/teacher.py, serve/teacher_page.py, serve/teacher_server.py) without a browser: the gate as ASGI calls, tried as a hostile student would
(every teacher route with no cookie, the class's cookie, a forged or another server's cookie, the class code, a flood of
wrong codes); the class at a glance against the registry; what the projector is shown (every hand, following the table, held at
any moment, "what if" in a copy that leaves the table as it was); the work set for every table and every solo student at once;
the page's buttons; the CSV route."""
import asyncio, csv, io, json, random, re, threading, time
import pytest
from cardgames_tutor.core.registry import get_game
from cardgames_tutor.core.match import Match
from cardgames_tutor.practice.exercises import EXERCISES
from cardgames_tutor.practice.results import HEADS, Results, cost_heads
from cardgames_tutor.serve.room import Classroom, StudentPage
from cardgames_tutor.serve.teacher import Console, Lesson, make_work
from cardgames_tutor.serve.teacher_page import TeacherPage, glance_html
from cardgames_tutor.serve.teacher_server import TEACHER_COOKIE, TeacherGate, new_teacher_code, page_for
from cardgames_tutor.ui.session import Session

def read_csv(body) -> list:
    "An export (its bytes or text) as a spreadsheet reads it: the byte-order mark first (checked and taken off), then the rows."
    text = body.decode('utf-8') if isinstance(body, bytes) else body
    assert text.startswith('\ufeff'), text[:20]
    return list(csv.reader(io.StringIO(text[1:], newline='')))

def as_dicts(body) -> list:
    head, *rows = read_csv(body)
    return [dict(zip(head, r)) for r in rows]

class Clock:
    def __init__(self): self.t = 1000.0
    def __call__(self): return self.t

async def _app(scope, receive, send):
    "The classroom app behind the gate: it says which path it was asked for."
    body = f"app:{scope['path']}".encode()
    await send({'type': 'http.response.start', 'status': 200, 'headers': [(b'content-length', str(len(body)).encode())]})
    await send({'type': 'http.response.body', 'body': body})

def request(path, query='', cookies='', client='10.1.1.1', kind='http'):
    "The ASGI scope of one request."
    return {'type': kind, 'path': path, 'query_string': query.encode(), 'client': (client, 5000),
            'headers': [(b'cookie', cookies.encode())] if cookies else []}

def call(gate, path, query='', cookies='', client='10.1.1.1', kind='http'):
    "One request through the gate: (status, headers, body)."
    sent = []
    async def send(m): sent.append(m)
    async def receive(): return {'type': 'http.request'}
    asyncio.run(gate(request(path, query, cookies, client, kind), receive, send))
    head = sent[0]
    return head['status'], dict(head['headers']), b''.join(m.get('body', b'') for m in sent[1:])

def cookie_of(headers) -> str: return headers[b'set-cookie'].decode().split(';')[0]

def a_class(results=None):
    "A class: table A (Kočka) with Asha and Bo, table B (Begga Kaat) with Cy, two solo students."
    room = Classroom()
    a = room.open_table('b-asha', 'kocka', 'Asha', seed=3)
    b = room.join_table('b-bo', a.code, 'Bo')
    c = room.open_table('b-cy', 'begga-kaat', 'Cy', seed=5)
    solos = [room.add_page(StudentPage(f"k{i}:solo", f"b-solo{i}", 'solo', Session(game, seed=i), name=name))
             for i, (game, name) in enumerate([('kocka', 'Dee'), ('dehla-pakad', '<b>Eli</b>')])]
    return room, {'asha': a, 'bo': b, 'cy': c}, solos

TEACHER_ROUTES = ['/teacher', '/teacher/', '/teacher/results.csv', '/teacher/glance.json', '/teacher/anything/else']

# ---------------------------------------------------------------- the gate

def test_no_teacher_route_opens_without_the_teachers_cookie():
    room, _, _ = a_class()
    results = Results(':memory:'); results.seen('b-bo', 'Bo'); results.answered('b-bo', 'kocka', 'kocka/follow', False)
    gate = TeacherGate(_app, 'kq7m-x2pd-9hte', Console(room, results))
    other = TeacherGate(_app, 'kq7m-x2pd-9hte')  # the same code on another server: another secret
    status, headers, _ = call(other, '/teacher', 'teacher=kq7m-x2pd-9hte')
    hostile = ['', 'cgt-class=anything', f"{TEACHER_COOKIE}=", f"{TEACHER_COOKIE}={'0' * 64}", cookie_of(headers),
               f"{TEACHER_COOKIE}={gate.proof[:-1]}", f"cgt-class={gate.proof}", f"{TEACHER_COOKIE}={gate.proof.upper()}"]
    for path in TEACHER_ROUTES:
        for cookies in hostile:
            status, headers, body = call(gate, path, cookies=cookies)
            assert status == 401, (path, cookies, status)
            assert b'Bo' not in body and b'kocka/follow' not in body and b'set-cookie' not in headers
        for code in ('', 'the class code', 'kq7m-x2pd-9htf', "' OR 1=1", 'kq7m'):
            assert call(gate, path, f"teacher={code}", client=f"10.2.0.{len(code)}")[0] == 401
    assert call(gate, '/teachers')[2] == b'app:/teachers'  # not a teacher route: the classroom's own gate decides
    assert call(gate, '/')[2] == b'app:/'

def test_the_teacher_code_opens_every_teacher_route_with_a_cookie_of_its_own():
    room, _, _ = a_class()
    results = Results(':memory:'); results.answered('b-bo', 'kocka', 'kocka/follow', False)
    gate = TeacherGate(_app, 'kq7m-x2pd-9hte', Console(room, results))
    status, headers, _ = call(gate, '/teacher', 'teacher=KQ7M X2PD 9HTE&table=abc')
    assert status == 303 and headers[b'location'] == b'/teacher?table=abc'
    cookie = headers[b'set-cookie'].decode()
    assert all(x in cookie for x in ('HttpOnly', 'SameSite=Strict', 'Path=/')) and 'kq7m' not in cookie  # a keyed hash, not the code
    mine = cookie_of(headers)
    assert call(gate, '/teacher', cookies=mine)[2] == b'app:/teacher'
    status, headers, body = call(gate, '/teacher/results.csv', 'kind=answers', cookies=mine)
    assert status == 200 and headers[b'content-type'].startswith(b'text/csv')
    row = as_dicts(body)[0]  # Bo has typed no name here: his key, in its own column
    assert (row['student'], row['game'], row['rule'], row[HEADS['key']]) == ('', 'Kočka', 'Following the led suit', 'b-bo')
    assert call(gate, '/teacher/results.csv', 'kind=students', cookies=mine)[0] == 400
    glance = json.loads(call(gate, '/teacher/glance.json', cookies=mine)[2])
    assert len(glance['tables']) == 2 and len(glance['solo']) == 2
    rooted = TeacherGate(_app, 'kq7m-x2pd-9hte', root_path='/class7')
    status, headers, _ = call(rooted, '/class7/teacher', 'teacher=kq7m-x2pd-9hte')
    assert status == 303 and headers[b'location'] == b'/class7/teacher' and 'Path=/class7' in headers[b'set-cookie'].decode()

def test_wrong_codes_are_held_back_per_address_even_the_right_one_after():
    clock = Clock()
    gate = TeacherGate(_app, 'kq7m-x2pd-9hte', wrong_limit=10, window=60, clock=clock, hold=0)
    for i in range(10): assert call(gate, '/teacher', f"teacher=guess{i:04d}")[0] == 401
    assert call(gate, '/teacher', 'teacher=kq7m-x2pd-9hte')[0] == 429  # a script guessing gets no answer until the wait is over
    assert call(gate, '/teacher', 'teacher=kq7m-x2pd-9hte', client='10.9.9.9')[0] == 303  # another address is not held back
    clock.t += 61
    assert call(gate, '/teacher', 'teacher=kq7m-x2pd-9hte')[0] == 303

def test_an_ipv6_visitor_taking_a_new_address_for_every_guess_is_held_back_by_its_64():
    """A script on IPv6 may take any address of its /64 network, a new one for every guess: it is one visitor all the same
    (before, the teacher's gate counted each address apart, and ten guesses each from 2**64 addresses went through)."""
    clock = Clock()
    gate = TeacherGate(_app, 'kq7m-x2pd-9hte', wrong_limit=10, window=60, clock=clock, hold=0)
    for i in range(10): assert call(gate, '/teacher', f"teacher=guess{i:04d}", client=f"2001:db8:5:7:{i:x}::{i + 1:x}")[0] == 401
    assert call(gate, '/teacher', 'teacher=kq7m-x2pd-9hte', client='2001:db8:5:7:ffff::9')[0] == 429  # the same /64
    assert call(gate, '/teacher', 'teacher=kq7m-x2pd-9hte', client='2001:db8:5:8::1')[0] == 303  # the next /64: another visitor
    for i in range(10): call(gate, '/teacher', f"teacher=guess{i:04d}", client='10.3.3.3')
    assert call(gate, '/teacher', 'teacher=kq7m-x2pd-9hte', client='::ffff:10.3.3.3')[0] == 429  # IPv4, written as IPv6

def test_a_visitor_held_back_is_answered_late_and_told_the_seconds_left():
    """The teacher's gate answers a code tried while its visitor waits as the class gate does: only after a hold (so a
    script asking again at once goes no faster), 429 with `Retry-After`, the seconds left of the window (before: no hold,
    no Retry-After)."""
    clock = Clock()
    gate = TeacherGate(_app, 'kq7m-x2pd-9hte', wrong_limit=10, window=60, clock=clock, hold=0.05)
    for i in range(10): call(gate, '/teacher', f"teacher=guess{i:04d}"); clock.t += 1  # the first wrong code at 1000
    clock.t = 1015.5
    async def tried():
        sent = []
        async def send(m): sent.append(m)
        async def receive(): return {'type': 'http.request'}
        answering = asyncio.ensure_future(gate(request('/teacher', 'teacher=kq7m-x2pd-9hte'), receive, send))
        await asyncio.sleep(0); early = list(sent)  # the gate has run up to its hold
        await answering
        return early, sent
    early, sent = asyncio.run(tried())
    headers, body = dict(sent[0]['headers']), sent[1]['body']
    assert early == [] and sent[0]['status'] == 429  # held back: nothing was answered at once
    assert headers[b'retry-after'] == b'45' and body == b"Too many wrong teacher codes from your network: try again in 45 s.\n"

def test_a_teacher_code_is_long_and_fresh():
    codes = {new_teacher_code() for _ in range(100)}
    assert len(codes) == 100 and all(len(c.replace('-', '')) == 12 for c in codes)
    with pytest.raises(ValueError): TeacherGate(_app, 'short')

def test_the_page_itself_asks_for_the_cookie():
    room, _, _ = a_class()
    console = Console(room)
    gate = TeacherGate(_app, 'kq7m-x2pd-9hte', console)
    for cookies in ({}, {'cgt-class': gate.proof}, {TEACHER_COOKIE: 'x'}, None):
        page = page_for(gate, console, cookies)
        assert not isinstance(page, TeacherPage) and 'Asha' not in page.value
    assert room.watchers == []
    page = page_for(gate, console, {TEACHER_COOKIE: gate.proof})
    assert isinstance(page, TeacherPage) and room.watchers == [page.watcher]

# ---------------------------------------------------------------- the class at a glance

def test_the_glance_shows_every_table_and_solo_student_as_the_registry_has_them():
    results = Results(':memory:')
    room, k, solos = a_class()
    for right in (True, False, True): results.answered('b-bo', 'kocka', 'kocka/follow', right)
    results.answered('b-solo1', 'dehla-pakad', 'dehla-pakad/follow', False)
    t = room.table(k['asha'].code)
    t.start(k['asha'].token)
    t.left(k['bo'].token)  # Bo's tab closed: away
    console = Console(room, results)
    console.pause(k['cy'].code, 'wait')
    g = console.glance()
    by_code = {row['code']: row for row in g['tables']}
    a = by_code[k['asha'].code]
    assert (a['game'], a['title'], a['hand'], a['started'], a['paused']) == ('kocka', t.match.game.title, 1, True, None)
    assert [(s['name'], s['state']) for s in a['seats']] == [('Asha', 'here'), ('Bo', 'away'), (None, 'bot'), (None, 'bot')]
    assert a['seats'][1]['progress'] == '2 of 3 drill answers right; last missed: Following the led suit (Kočka); 0 hands played'
    assert a['to_act_label'] == t.label(t.match.to_act) and a['scores'] == list(t.match.game.tally(t.match.standing)[1])
    assert by_code[k['cy'].code]['paused'] == 'wait' and by_code[k['cy'].code]['started'] is False
    assert [(s['name'], s['game']) for s in g['solo']] == [('Dee', 'kocka'), ('<b>Eli</b>', 'dehla-pakad')]
    assert g['solo'][1]['progress'].startswith('0 of 1 drill answer right')
    html = glance_html(g)
    assert '<b>Eli</b>' not in html and '&lt;b&gt;Eli&lt;/b&gt;' in html and 'paused' in html and '(away)' in html

# ---------------------------------------------------------------- the teaching view

def _played(room, k, moves=12):
    t = room.table(k['asha'].code)
    t.start(k['asha'].token)
    tokens = {k['asha'].seat: k['asha'].token, k['bo'].seat: k['bo'].token}
    for i in range(moves):
        if not t.bot_move(): assert t.act(tokens[t.match.to_act], t.match.legal_actions()[0], f"m{i}").ok
    return t

def test_a_table_whose_match_is_over_is_said_over_not_playing():
    """After a kot ended a Dehla Pakad match, the console still said 'table ... (playing)', and resuming it 'Table ... plays
    on.': a match that is over is said so, in the glance and when its table is resumed."""
    room, k, _ = a_class()
    t = _played(room, k, 1)
    tokens = {k['asha'].seat: k['asha'].token, k['bo'].seat: k['bo'].token}
    console = Console(room)
    assert f"table {t.code} (playing)" in glance_html(console.glance())
    for i in range(20000):
        if t.match.over: break
        if not t.bot_move(): assert t.act(tokens[t.match.to_act], t.match.legal_actions()[0], f"o{i}").ok
    assert t.match.over
    said = glance_html(console.glance())
    assert f"table {t.code} (match over)" in said and f"table {t.code} (playing)" not in said, said
    assert console.pause(t.code).ok and console.resume(t.code).text == f"Table {t.code} is no longer paused; its match is over."

def test_the_glance_gives_a_partnership_game_one_score_per_side():
    "The console listed each player's own 'deals won by the side' ('Eli 0 · Seat 1 (bot) 0 · ...'): one score per side now, by its players."
    room, k, solos = a_class()
    eli = next(r for r in Console(room).glance()['solo'] if r['game'] == 'dehla-pakad')
    assert eli['scores_text'] == 'deals won by the side: <b>Eli</b> and Seat 2 (bot) 0 · Seat 1 (bot) and Seat 3 (bot) 0', eli['scores_text']

def test_the_lesson_shows_every_hand_and_steps_to_any_moment_of_the_table():
    room, k, _ = a_class()
    t = _played(room, k)
    lesson = Console(room).show(t.code)
    assert isinstance(lesson, Lesson)
    for at in (0, 3, 7, len(t.match.actions)):
        lesson.step(at)
        want = t.match.replayed(t.match.actions[:at])
        v = lesson.view()
        assert [sorted(map(str, h)) for h in v['hands']] == [sorted(map(str, want.view(s)['hand'])) for s in range(4)]
    assert len(lesson.session.log(None)) >= len(t.match.actions)  # the log to walk forward with

def test_what_if_plays_on_in_a_copy_and_the_table_is_as_it_was():
    room, k, _ = a_class()
    t = _played(room, k)
    before, version = list(t.match.actions), t.version
    heard = []; t.subscribe(k['asha'].token, heard.append)
    console = Console(room)
    lesson = console.show(t.code)
    lesson.step(4)
    assert lesson.what_if() and lesson.playing
    s = lesson.session
    assert s.match.actions == before[:4] and s.seat == s.match.to_act
    for _ in range(6):  # the teacher plays the seat to act at the cut; the bots answer for the others
        if s.match.over or s.review is not None: break
        assert s.match.to_act == s.seat and lesson.press(s.match.legal_actions()[-1])
    assert t.match.actions == before and t.version == version and heard == []  # nothing reached the table or its pages
    assert s.match.actions[:4] == before[:4] and s.match.actions != before[:len(s.match.actions)]
    assert console.show(t.code) is lesson and lesson.playing  # showing again keeps the what-if
    lesson.live()
    assert lesson.session.match.actions == before and not lesson.playing and lesson.mode == 'live'

def test_the_lesson_is_a_copy_that_follows_the_table_live_and_holds_while_it_plays_on():
    room, k, _ = a_class()
    t = _played(room, k, 4)
    lesson = Console(room).show(t.code)
    tokens = {k['asha'].seat: k['asha'].token, k['bo'].seat: k['bo'].token}
    def more():
        _ = [t.bot_move() for _ in range(3)]
        if t.match.to_act in tokens: t.act(tokens[t.match.to_act], t.match.legal_actions()[0], f"later{len(t.match.actions)}")
    more()
    assert lesson.sync() and lesson.session.match.actions == t.match.actions and lesson.session.match is not t.match
    lesson.step(2); more(); lesson.sync()
    assert lesson.mode == 'held' and len(lesson.session.shown().actions) == 2 and lesson.session.match.actions == t.match.actions
    lesson.live()
    assert lesson.mode == 'live' and lesson.session.live and lesson.session.match.actions == t.match.actions

# ---------------------------------------------------------------- setting the work

def test_the_work_set_for_all_reaches_every_table_and_every_solo_student():
    room, k, solos = a_class()
    _played(room, k, 5)
    console = Console(room)
    redrawn = []
    for p in solos: p.redraw = (lambda p=p: redrawn.append(p.id))
    work = make_work('exercise', name='kocka-two-letters')
    done = console.set_work(work, 'all')
    assert [ok for _, ok, _ in done] == [True] * 4
    for code in (k['asha'].code, k['cy'].code):
        t = room.table(code)
        assert t.match.game.name == 'kocka' and t.match.standing['letters'] == [2, 2, 2, 2] and t.match.actions == []
        assert t.view(k['asha'].token if code == k['asha'].code else k['cy'].token)['table']['work']['text'] == \
            'Your teacher set this work: the exercise “Two letters each”.'
    assert room.table(k['asha'].code).match is not room.table(k['cy'].code).match
    for p in solos:
        assert p.session.match.game.name == 'kocka' and p.session.match.standing['letters'] == [2, 2, 2, 2]
        assert p.session.message.text.startswith('Your teacher set this work: the exercise “Two letters each”.')
        assert EXERCISES['kocka-two-letters'].note in p.session.message.text
    assert sorted(redrawn) == sorted(p.id for p in solos)

def test_solo_work_where_a_bot_acts_first_is_played_to_the_students_turn():
    """The Dehla Pakad exercise 'Six deals in a row' set for students alone left each page frozen at 'naming trump · Seat 2
    to play': a bot was to act first, and only the student's own clicks move a solo page's bots. They play at once now."""
    room, k, solos = a_class()
    work = make_work('exercise', name='dehla-pakad-streak')
    assert work.match.to_act != 0  # a bot acts first in this exercise (the student is Seat 0)
    assert [ok for _, ok, _ in Console(room).set_work(work, 'solo')] == [True, True]
    for p in solos:
        s = p.session
        assert not s.bot_due and s.match.to_act == s.seat, (s.match.to_act, s.seat)  # the student's turn: nothing waits on a bot
        assert s.message.text.startswith('Your teacher set this work: the exercise “Six deals in a row”.')

def test_the_work_for_tables_only_or_solo_only_and_a_table_where_it_does_not_fit():
    room, k, solos = a_class()
    room.join_table('b-dan', k['cy'].code, 'Dan', seat=3)
    console = Console(room)
    before = {p.id: p.session.match for p in solos}
    b_match = room.table(k['cy'].code).match
    done = dict((where, (ok, line)) for where, ok, line in console.set_work(make_work('game', game='begga-kaat', seed=9, players=3), 'tables'))
    assert done[f"table {k['asha'].code}"][0] is True  # Asha and Bo at Seats 0 and 1: room for three players
    ok, line = done[f"table {k['cy'].code}"]
    assert not ok and 'Seat 3' in line and '\n' not in line  # Dan at Seat 3: that table keeps its match
    assert room.table(k['cy'].code).match is b_match and room.table(k['asha'].code).match.game.n_seats() == 3
    assert {p.id: p.session.match for p in solos} == before  # the solo students were not asked
    console.set_work(make_work('game', game='kocka', seed=2), 'solo')
    assert all(p.session.match.game.name == 'kocka' and p.session.match.seed == 2 for p in solos)
    assert room.table(k['asha'].code).match.game.name == 'begga-kaat'
    with pytest.raises(ValueError): console.set_work(make_work('game', game='kocka', seed=2), 'everyone')

def test_work_of_every_kind_and_bad_work_in_one_line():
    for kind, kw in [('game', dict(game='kocka', seed=1)), ('exercise', dict(name='begga-kaat-95')),
                     ('deal', dict(game='beggars-and-thieves', constraints='the picker holds the six', seed=2)),
                     ('record', dict(source=json.dumps(EXERCISES['dehla-pakad-centre-three'].record).encode()))]:
        w = make_work(kind, **kw)
        assert isinstance(w.match, Match) and w.title and not any(c.code in w.title for c in w.match.game.deck() if len(c.code) > 1)
    for kind, kw, says in [('game', dict(game='chess', seed=1), 'chess'), ('game', dict(game='kocka', seed='x'), 'whole number'),
                           ('deal', dict(game='kocka', constraints='seat 0 holds the joker'), 'not a card'),
                           ('record', dict(source=b'{not json'), ''), ('exercise', dict(name='x'), 'unknown exercise'),
                           ('homework', {}, 'a game, an exercise')]:
        with pytest.raises(ValueError) as e: make_work(kind, **kw)
        assert says in str(e.value) and '\n' not in str(e.value) and len(str(e.value)) < 300

# ---------------------------------------------------------------- the page

def test_the_page_buttons_do_what_they_say():
    results = Results(':memory:'); results.answered('b-bo', 'kocka', 'kocka/follow', False)
    room, k, solos = a_class()
    t = _played(room, k, 6)
    page = TeacherPage(Console(room, results))
    assert {c for _, c in page.table_choice.options} == {k['asha'].code, k['cy'].code}
    page.table_choice.value, page.reason_box.value = t.code, 'look at trick 1'
    page.pause_button.click()
    assert t.paused == 'look at trick 1' and 'paused' in page.said.value
    page.show_button.click()
    assert page.console.projected == t.code and page.console.on_projector() is page.lesson
    assert f"Table {t.code} is on the projector page." in page.said.value and 'href="/teacher/show"' in page.shown_line.value
    page.what_if_button.click()
    assert page.lesson.playing and 'what if' in page.said.value and 'on the projector page, from move 6' in page.said.value
    page.refresh_button.click()
    assert not page.lesson.playing and page.lesson.mode == 'live'
    page.resume_button.click(); assert t.paused is None
    page.pause_all_button.click(); assert all(x.paused is not None for x in room.tables.tables.values())
    page.resume_all_button.click(); assert all(x.paused is None for x in room.tables.tables.values())
    page.kind_choice.value, page.exercise_choice.value, page.target_choice.value = 'exercise', 'kocka-last-letter', 'solo'
    page.set_button.click()  # the solo students have made no move: set at once, said beside the button
    assert all(p.session.match.standing['letters'] == [4, 1, 2, 3] for p in solos) and 'for 2 students playing alone' in page.work_line.value
    page.kind_choice.value, page.game_choice.value, page.deal_box.value = 'deal', 'kocka', 'seat 0 holds QL; seat 1 holds QL'
    page.set_button.click()
    assert 'both Seat 0 and Seat 1' in page.work_line.value and '<br' not in page.work_line.value
    page.kind_choice.value, page.seed_box.value = 'game', '12x'
    page.set_button.click(); assert 'whole number' in page.work_line.value
    assert 'Following the led suit (Kočka)' in page.results_box.value and 'kocka/' not in page.results_box.value and 'results.csv?kind=summary' in page.csv_link.value

def test_a_seats_page_shows_the_work_the_teacher_set_and_the_pause():
    from cardgames_tutor.ui.seat import SeatSession
    room, k, _ = a_class()
    t = _played(room, k, 5)
    seat = SeatSession(room.tables, k['asha'].token)
    told = []; seat.on_change(lambda s: told.append(s.latest['table']))
    console = Console(room)
    console.pause(t.code, 'eyes up')
    assert told[-1]['paused'] == 'eyes up' and 'teacher paused' in told[-1]['waiting']
    assert not seat.act(t.match.legal_actions()[0]) if t.match.to_act == seat.seat else True
    console.set_work(make_work('game', game='kocka', seed=77), 'tables')
    assert seat.match.actions == [] and seat.match.hands[0]._hand is t.match.hands[0]  # the page's session has the new match
    assert sorted(map(str, seat.view(seat.seat)['hand'])) == sorted(map(str, t.view(k['asha'].token)['hand']))
    assert told[-1]['work']['text'] == 'Your teacher set this work: Kočka, seed 77.'

def test_playing_on_is_only_in_what_if_which_is_kept_when_shown_again_and_live_returns_to_the_table():
    """Before, a lit card clicked on the snapshot played on in a private copy while the console said "as it is now":
    now a press outside "what if" is refused (said in a line) and nothing moves; in "what if" the copy is kept when the
    table is shown again, and `live()` follows the table again."""
    room, k, _ = a_class()
    t = _played(room, k, 6)
    console = Console(room)
    lesson = console.show(t.code)
    mine = list(lesson.session.match.actions)
    assert not lesson.press(t.match.legal_actions()[0]) and "only in 'what if'" in lesson.note
    assert lesson.session.match.actions == mine == t.match.actions
    assert lesson.what_if() and lesson.press(lesson.session.match.legal_actions()[-1])
    played = list(lesson.session.match.actions)
    assert len(played) > len(mine) and t.match.actions == mine
    assert console.show(t.code).session.match.actions == played  # not thrown away behind the teacher's back
    lesson.live()
    assert lesson.mode == 'live' and lesson.session.match.actions == t.match.actions and lesson.session.message.text == ''

def test_the_csv_links_follow_the_servers_root_path():
    room, _, _ = a_class()
    page = TeacherPage(Console(room, Results(':memory:')), root_path='/class7/')
    assert 'href="/class7/teacher/results.csv?kind=answers"' in page.csv_link.value

def test_behind_a_root_path_the_teacher_lands_and_reads_under_it():
    """Behind a proxy under `--root-path /class`: the code takes the teacher to `/class/teacher` with a cookie for
    `/class`, the export and the glance are answered there, and the page's links keep the prefix; whether the root path
    reaches the gate taken off (as the classroom's gate hands it) or left on (before, the redirect went to `/teacher`,
    outside the class, and the export under the root path fell through to the page)."""
    from cardgames_tutor.serve.gates import ClassroomGate
    from cardgames_tutor.serve.teacher_server import forget
    room, _, _ = a_class()
    results = Results(':memory:'); results.seen('b-bo', 'Bo'); results.answered('b-bo', 'kocka', 'kocka/follow', False)
    console = Console(room, results)
    gate = TeacherGate(_app, 'kq7m-x2pd-9hte', console, root_path='/class')
    def rooted(path, query='', cookies=''):
        sent = []
        async def send(m): sent.append(m)
        async def receive(): return {'type': 'http.request'}
        asyncio.run(gate({**request(path, query, cookies), 'root_path': '/class'}, receive, send))
        return sent[0]['status'], dict(sent[0]['headers']), b''.join(m.get('body', b'') for m in sent[1:])
    for path in ('/teacher', '/class/teacher'):
        status, headers, _ = rooted(path, 'teacher=kq7m-x2pd-9hte&table=abc')
        assert status == 303 and headers[b'location'] == b'/class/teacher?table=abc', (path, headers)
        assert '; Path=/class;' in headers[b'set-cookie'].decode()
    mine = cookie_of(headers)
    for path in ('/teacher/results.csv', '/class/teacher/results.csv'):
        status, headers, body = rooted(path, 'kind=answers', mine)
        assert status == 200 and headers[b'content-type'].startswith(b'text/csv'), (path, status)
        row = as_dicts(body)[0]
        assert (row['student'], row['game'], row['rule'], row[HEADS['key']]) == ('Bo', 'Kočka', 'Following the led suit', 'b-bo')
    assert len(json.loads(rooted('/class/teacher/glance.json', cookies=mine)[2])['tables']) == 2
    assert rooted('/class/teacher', cookies=mine)[2] == b'app:/class/teacher'  # the page itself: the app's, path as it came
    front = ClassroomGate(gate, None, root_path='/class')  # the whole way in, as the server has it
    status, headers, _ = call(front, '/class/teacher', 'teacher=kq7m-x2pd-9hte')
    assert status == 303 and headers[b'location'] == b'/class/teacher' and '; Path=/class;' in headers[b'set-cookie'].decode()
    status, _, body = call(front, '/class/teacher/results.csv', 'kind=summary', cookies=mine)
    assert status == 200 and body.startswith('\ufeff"student","game","rule","answers"'.encode())
    page = page_for(gate, console, {TEACHER_COOKIE: gate.proof})
    assert all(f'href="/class/teacher/results.csv?kind={k}"' in page.csv_link.value for k in ('summary', 'answers', 'hands', 'decisions'))
    assert 'href="/teacher' not in page.csv_link.value
    forget(console, page)

# ---------------------------------------------------------------- what the students' pages keep

def test_the_keeper_records_each_finished_hand_once_per_student_and_follows_new_work():
    from cardgames_tutor.serve.teacher_server import ClassKeeper
    results = Results(':memory:')
    room, k, solos = a_class()
    from cardgames_tutor.ui.seat import SeatSession
    t = room.table(k['asha'].code)
    t.start(k['asha'].token)
    for who in ('asha', 'bo'):
        room.add_page(StudentPage(f"p-{who}:table", f"b-{who}", 'table', SeatSession(room.tables, k[who].token), who, t.code))
    keeper = ClassKeeper(room, results)
    v0 = room.version
    assert keeper.beat() == 0 and room.version == v0 + 1  # the first beat notes the solo games
    assert keeper.beat() == 0 and room.version == v0 + 1  # nothing moved: the teacher's page is not drawn again
    tokens = {k['asha'].seat: k['asha'].token, k['bo'].seat: k['bo'].token}
    i = 0
    while not t.match.hands[0].is_over:
        if not t.bot_move(): t.act(tokens[t.match.to_act], t.match.legal_actions()[0], f"x{i}")
        i += 1
    assert keeper.beat() == 2 and keeper.beat() == 0  # Asha's and Bo's hand 1, once each
    assert results.mine('b-asha').hands() == 1 and results.mine('b-bo').hands() == 1
    s = solos[0].session
    s.act(s.match.legal_actions()[0]) if s.match.to_act == s.seat else s.bot_move()
    assert keeper.beat() == 0 and room.version == v0 + 2  # a solo game moved: the glance is told
    Console(room).set_work(make_work('game', game='kocka', seed=5), 'tables')
    i = 0
    while not t.match.hands[0].is_over:
        if not t.bot_move(): t.act(tokens[t.match.to_act], t.match.legal_actions()[0], f"y{i}")
        i += 1
    assert keeper.beat() == 2 and results.mine('b-asha').hands() == 2  # the new work's hand 1 counts too

def test_drills_on_the_page_reach_the_results_under_the_students_key_only():
    from cardgames_tutor.serve.teacher_server import drill_view
    results = Results(':memory:')
    view = drill_view('dehla-pakad', 'b-asha', results, seed=4)
    practice = view.children[0]
    grades = []
    for _ in range(3): grades.append(practice.answer(0)); practice.ask()
    mine = results.mine('b-asha').by_rule()
    assert sum(r.right + r.wrong for r in mine) == 3 and sum(r.wrong for r in mine) == sum(not g.right for g in grades)
    assert results.by_rule('b-bo') == [] and 'cgt-drill' in view._dom_classes

# ---------------------------------------------------------------- the exports a spreadsheet reads (issue 57)

AT = 1796566992.0  # the results' clock in these tests: every row was written then

def iso(at:float) -> str: return time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(at))

def _finish(t, tokens:dict, hands:int, tag:str):
    "Play table `t` until `hands` of its hands are finished: the students' seats (`tokens`) their first legal move, bots the others."
    for i in range(5000):
        if sum(h.is_over for h in t.match.hands) >= hands or t.match.over: return
        if not t.bot_move(): assert t.act(tokens[t.match.to_act], t.match.legal_actions()[0], f"{tag}{i}").ok
    raise AssertionError('the table did not finish its hands')

def _finish_solo(s, hands:int):
    "Play the solo session `s` until `hands` of its hands are finished: the student's first legal move, the bots theirs."
    for _ in range(5000):
        if sum(h.is_over for h in s.match.hands) >= hands or s.match.over: return
        if s.review is not None: s.next_hand()
        elif s.match.to_act == s.seat: assert s.act(s.match.legal_actions()[0])
        else: s.bot_move()
    raise AssertionError('the solo game did not finish its hands')

def test_the_exports_read_as_a_spreadsheet_reads_them():
    """A class of two students, Asha (named, at a table) and one who has typed no name yet (alone, on an exercise):
    drill answers, two hands of Kočka and two of Beggars and Thieves for five at Asha's table, a solo hand of an
    exercise and its review. Each export, read back with the csv module once its byte-order mark is off, holds the
    names (and the keys in their own last column), ISO dates, a number per seat equal to the hand's own points,
    hand numbers 1 and 2 in each match, the seed or the exercise, the tactic in words with the cost in the game's
    unit, and answers counted per student and rule; the teacher's download is those bytes, ♥ and all."""
    from cardgames_tutor.coach.search import review
    from cardgames_tutor.practice.exercises import exercise
    from cardgames_tutor.practice.progress import rule_title
    from cardgames_tutor.practice.results import TACTIC_WORDS, tactic_of
    from cardgames_tutor.serve.teacher_server import ClassKeeper
    from cardgames_tutor.ui.seat import SeatSession
    results, room = Results(':memory:', now=lambda: AT), Classroom()
    asha = room.open_table('b-asha', 'kocka', 'Asha', seed=3)
    t = room.table(asha.code); t.start(asha.token)
    room.add_page(StudentPage('p-asha:table', 'b-asha', 'table', SeatSession(room.tables, asha.token), 'Asha', t.code))
    work = exercise('kocka-two-letters')
    kid = room.add_page(StudentPage('p-kid:solo', 'b-kid', 'solo', Session(work.game, match=work)))  # no name typed yet
    for right in (False, True, False, True): results.mine('b-kid').answered('kocka', 'kocka/letter', right)  # one rule, four answers
    results.mine('b-asha').answered('kocka', 'kocka/follow', True)
    keeper, tokens = ClassKeeper(room, results), {asha.seat: asha.token}
    _finish(t, tokens, 2, 'k'); keeper.beat()
    played = [h.result for h in t.match.hands[:2]]
    Console(room).set_work(make_work('game', game='beggars-and-thieves', seed=7, players=5), 'tables')
    _finish(t, tokens, 2, 'b'); keeper.beat()
    played += [h.result for h in t.match.hands[:2]]
    s = kid.session
    _finish_solo(s, 1); keeper.beat()
    played.append(s.match.hands[0].result)
    items = review(s.match, seat=s.seat, hand_no=1, budget=0.02, top=3)
    assert items, 'the first legal move every time costs something the coach sees'
    results.mine('b-kid').reviewed('kocka', items)

    summary = as_dicts(results.csv_text('summary'))  # the answers counted per student and rule, not the students
    assert [(r['student'], r['rule'], r['answers'], r['right'], r['wrong'], r[HEADS['key']]) for r in summary] == [  # the rule in words, no id
        ('Asha', rule_title('kocka', 'kocka/follow'), '1', '1', '0', 'b-asha'),
        ('', rule_title('kocka', 'kocka/letter'), '4', '2', '2', 'b-kid')]
    answers = as_dicts(results.csv_text('answers'))
    assert [(r[HEADS['key']], r['right'], r['wrong'], r[HEADS['at']]) for r in answers][:2] == [('b-kid', '0', '1', iso(AT)), ('b-kid', '1', '0', iso(AT))]
    assert re.fullmatch(r'\d{4}-\d\d-\d\d \d\d:\d\d:\d\d', answers[0][HEADS['at']])

    hands = as_dicts(results.csv_text('hands'))
    assert list(hands[0]) == ['student', HEADS['at'], 'game', HEADS['place'], 'seat', HEADS['hand'], HEADS['own'], HEADS['every'], HEADS['seed'],
                              'exercise', 'result', HEADS['key']]
    assert [(h['student'], h['game'], h[HEADS['place']], h['seat'], h[HEADS['hand']], h[HEADS['seed']], h['exercise'], h[HEADS['key']]) for h in hands] == [
        ('Asha', 'Kočka', t.code, str(asha.seat), '1', '3', '', 'b-asha'), ('Asha', 'Kočka', t.code, str(asha.seat), '2', '3', '', 'b-asha'),
        ('Asha', 'Beggars and Thieves', t.code, str(asha.seat), '1', '7', '', 'b-asha'),
        ('Asha', 'Beggars and Thieves', t.code, str(asha.seat), '2', '7', '', 'b-asha'),
        ('', 'Kočka', 'alone', '0', '1', '', 'Two letters each', 'b-kid')]  # an exercise: its seed alone deals other cards, so none
    for h, result in zip(hands, played):  # each seat's number is the hand's own, as many as the game has seats; the student's own beside
        points = [float(x) for x in h[HEADS['every']].split(' · ')]
        assert points == result['points'] and float(h[HEADS['own']]) == result['points'][int(h['seat'])]
        said = ' '.join(result['text'].split())[:300]
        if h[HEADS['place']] == t.code: said = re.sub(rf"\bSeat {asha.seat}\b", 'Asha', said)  # at the table, Asha by name; the bots' seats as they are
        assert h['result'] == said and h[HEADS['at']] == iso(AT)
    assert len(played[2]['points']) == 5 and any('♥' in h['result'] for h in hands)

    decisions = as_dicts(results.csv_text('decisions'))  # Kočka's coach counts the chance of losing: in percentage points
    assert [d['tactic'] for d in decisions] == [TACTIC_WORDS[tactic_of(x)] for x in items]
    played_head, best_head, cost_head = cost_heads('lose')  # the chance of losing the review states for each move, and their difference
    for d, x in zip(decisions, items):
        lose = lambda a: x.hint.value_of(a).stats['lose']
        assert (d[played_head], d[best_head]) == (str(round(round(lose(x.played), 4) * 100)), str(round(round(lose(x.best), 4) * 100)))
        assert int(d[cost_head]) == int(d[played_head]) - int(d[best_head])  # the cost as a reader subtracts the two
    assert all((d['student'], d[HEADS['key']], d[HEADS['hand']], d[HEADS['at']]) == ('', 'b-kid', '1', iso(AT)) for d in decisions)
    assert not any(re.fullmatch(r'[a-z]+(-[a-z]+)+', d['tactic']) for d in decisions)  # words, not a tag

    gate = TeacherGate(_app, 'kq7m-x2pd-9hte', Console(room, results))
    mine = cookie_of(call(gate, '/teacher', 'teacher=kq7m-x2pd-9hte')[1])
    for kind in ('summary', 'answers', 'hands', 'decisions'):
        status, headers, body = call(gate, '/teacher/results.csv', f"kind={kind}", cookies=mine)
        assert status == 200 and headers[b'content-type'] == b'text/csv; charset=utf-8'
        assert body.startswith(b'\xef\xbb\xbf') and body.decode('utf-8') == results.csv_text(kind)  # UTF-8 with its mark
        if kind == 'hands': assert '♥'.encode() in body

def test_a_hand_is_recorded_once_with_its_number_after_an_undo_or_a_page_loaded_again():
    """Issue 57 saw hands numbered 1 again and again: an undo made the match's hands anew, and a seat's page loaded again
    held the table's match in a new wrapper; the keeper took either for a new match and recorded its finished hands
    again from hand 1. Now a match is known by the server's own object, and an undo keeps the hands before it."""
    from cardgames_tutor.serve.teacher_server import ClassKeeper
    from cardgames_tutor.ui.seat import SeatSession
    results, room = Results(':memory:'), Classroom()
    keeper = ClassKeeper(room, results)
    s = Session('kocka', seed=3)
    room.add_page(StudentPage('p1:solo', 'b-dee', 'solo', s, name='Dee'))
    _finish_solo(s, 1); assert keeper.beat() == 1
    s.next_hand()
    while s.match.to_act != s.seat: s.bot_move()
    assert s.act(s.match.legal_actions()[0])
    first = s.match.hands[0]
    assert s.undo() and s.match.hands[0] is not first  # the hands made again, hand 1 as it was
    assert keeper.beat() == 0
    _finish_solo(s, 2); assert keeper.beat() == 1

    a = room.open_table('b-asha', 'kocka', 'Asha', seed=5)
    t = room.table(a.code); t.start(a.token)
    room.add_page(StudentPage('p2:table', 'b-asha', 'table', SeatSession(room.tables, a.token), 'Asha', t.code))
    _finish(t, {a.seat: a.token}, 1, 'x'); assert keeper.beat() == 1
    room.drop_page('p2:table'); assert keeper.beat() == 0  # the page closed...
    room.add_page(StudentPage('p3:table', 'b-asha', 'table', SeatSession(room.tables, a.token), 'Asha', t.code))  # ...and loaded again
    room.add_page(StudentPage('p4:table', 'b-asha', 'table', SeatSession(room.tables, a.token), 'Asha', t.code))  # and a second tab
    assert keeper.beat() == 0
    _finish(t, {a.seat: a.token}, 2, 'y'); assert keeper.beat() == 1
    assert results._read("SELECT student, hand_no, seed FROM hands ORDER BY rowid") == [
        ('b-dee', 1, '3'), ('b-dee', 2, '3'), ('b-asha', 1, '5'), ('b-asha', 2, '5')]

@pytest.mark.parametrize('game', ['begga-kaat', 'kocka', 'dehla-pakad', 'maghe-satra', 'beggars-and-thieves'])
def test_each_seats_points_in_the_export_are_the_hands_own_in_every_game(game):
    "Every game's hand result has `points`, a number per seat: the keeper keeps them and the export writes them, one column per seat."
    from cardgames_tutor.serve.teacher_server import ClassKeeper
    results, room = Results(':memory:'), Classroom()
    keeper, s, rng = ClassKeeper(room, results), Session(game, seed=11), random.Random(2)
    room.add_page(StudentPage('p:solo', 'b-eli', 'solo', s))
    while sum(h.is_over for h in s.match.hands) < 3 and not s.match.over:
        s.match.apply(s.game.bot(s.match.view(s.match.to_act, text=False), rng))
        keeper.beat()
    done = [h for h in s.match.hands if h.is_over]
    hands = as_dicts(results.csv_text('hands'))
    assert [h[HEADS['hand']] for h in hands] == [str(i) for i in range(1, len(done) + 1)]
    for h, hand in zip(hands, done):
        points = hand.result['points']
        assert len(points) == s.game.n_seats() and all(type(x) in (int, float) for x in points)
        assert [float(x) for x in h[HEADS['every']].split(' · ')] == points
        assert (h[HEADS['seed']], h[HEADS['place']], h['game']) == ('11', 'alone', get_game(game).title)
    if game in ('begga-kaat', 'maghe-satra'):  # scored by those points: the match's tally moved by them
        tallies = [[0] * s.game.n_seats()] + s.match.tallies
        assert [[b - a for a, b in zip(x, y)] for x, y in zip(tallies, tallies[1:])] == [h.result['points'] for h in done]


# ---------------------------------------------------------------- the console in front of a class (issue 57, items 2 and 3)

def test_the_only_table_is_chosen_and_the_choice_stays_sensible_as_tables_come_and_go():
    room = Classroom()
    a = room.open_table('b-asha', 'kocka', 'Asha', seed=3)
    page = TeacherPage(Console(room))
    assert page.table_choice.value == a.code  # one table: chosen, not a blank list
    assert page.table_choice.options[0][0] == f"{a.code} · Kočka"
    b = room.open_table('b-bo', 'begga-kaat', 'Bo', seed=4); page.refresh()
    assert page.table_choice.value == a.code  # another comes: the choice stays
    room.join_table('b-cy', a.code, 'Cy'); page.refresh()
    assert page.table_choice.value == a.code and 'Seat 1: Cy (here)' in page.glance_box.value  # every student by name
    room.close_table(a.code); page.refresh()
    assert page.table_choice.value == b.code  # the chosen one closed, one is left: that one
    c = room.open_table('b-dee', 'kocka', 'Dee', seed=5); room.close_table(b.code)
    d = room.open_table('b-eli', 'kocka', 'Eli', seed=6); page.refresh()
    assert page.table_choice.value is None  # closed, two left: the teacher chooses; nothing acts meanwhile
    assert page.pause_button.disabled and page.resume_button.disabled and page.show_button.disabled
    page.pause()  # pressed anyway (a page a moment behind): the teacher's words
    assert 'Choose a table first.' in page.said.value and all(room.table(x.code).paused is None for x in (c, d))

def test_every_refusal_the_console_gives_is_in_the_teachers_words():
    room, k, _ = a_class()
    console = Console(room)
    code = k['asha'].code
    room.close_table(code)
    lines = [console.pause(None).text, console.pause('').text, console.resume(code).text, console.show(code).text,
             console.pause('not a code at all').text, console.resume('kq7m').text]
    assert lines[:2] == ['Choose a table first.'] * 2
    assert lines[2] == f"Table '{code}' is not open any more (its students left): choose another table."
    for line in lines:
        assert 'student who opened' not in line and 'a table code is' not in line and '\n' not in line, line

def test_only_what_may_act_now_is_enabled_on_the_teachers_page():
    room, k, solos = a_class()
    page = TeacherPage(Console(room))
    assert page.table_choice.value is None  # two tables: none chosen yet
    off = lambda: {n: getattr(page, n).disabled for n in ('pause_button', 'resume_button', 'show_button', 'pause_all_button',
                                                          'resume_all_button', 'what_if_button', 'refresh_button', 'set_button')}
    assert off() == {'pause_button': True, 'resume_button': True, 'show_button': True, 'pause_all_button': False,
                     'resume_all_button': True, 'what_if_button': True, 'refresh_button': True, 'set_button': False}
    page.table_choice.value = k['asha'].code
    assert not page.pause_button.disabled and page.resume_button.disabled and not page.show_button.disabled
    page.pause_button.click()
    assert page.pause_button.disabled and not page.resume_button.disabled and not page.resume_all_button.disabled
    page.show_button.click()
    assert not page.what_if_button.disabled and not page.refresh_button.disabled
    page.pause_all_button.click()
    assert page.pause_all_button.disabled  # every table paused: nothing left to pause
    page.kind_choice.value = 'record'
    assert page.set_button.disabled  # a hand record, and no file chosen
    page.kind_choice.value, page.target_choice.value = 'game', 'solo'
    for p in solos: room.drop_page(p.id)
    page.refresh(); assert page.set_button.disabled  # nobody plays alone: nobody to set it for
    for b in (page.confirm_button, page.cancel_button): assert b.layout.display == 'none'  # no question asked

def test_the_form_shows_only_the_fields_of_the_kind_of_work_chosen():
    room, _, _ = a_class()
    page = TeacherPage(Console(room))
    fields = ('game_choice', 'players_box', 'seed_box', 'exercise_choice', 'deal_box', 'record_upload')
    want = {'game': {'game_choice', 'players_box', 'seed_box'}, 'exercise': {'exercise_choice'},
            'deal': {'game_choice', 'players_box', 'seed_box', 'deal_box'}, 'record': {'record_upload'}}
    for kind in ('exercise', 'deal', 'record', 'game'):
        page.kind_choice.value = kind
        assert {f for f in fields if getattr(page, f).layout.display != 'none'} == want[kind], kind
    assert [v for _, v in page.when_choice.options] == ['now', 'next-hand'] and 'next hand' in page.when_choice.options[1][0]

def test_set_the_work_asks_beside_the_button_before_a_match_under_way_ends():
    room, k, solos = a_class()
    t = _played(room, k, 6)
    page = TeacherPage(Console(room))
    page.kind_choice.value, page.exercise_choice.value, page.target_choice.value = 'exercise', 'kocka-two-letters', 'tables'
    before = list(t.match.actions)
    page.set_button.click()  # the first press: a question, beside the button; nothing changed
    said = page.work_line.value
    assert f"A match is under way: table {t.code} (Asha, Bo)" in said and 'replaces it now' in said and 'Yes, set the work now' in said
    assert t.match.actions == before and page.confirm_button.layout.display is None and page.cancel_button.layout.display is None
    page.cancel_button.click()
    assert t.match.actions == before and 'Nothing was set' in page.work_line.value and page.confirm_button.layout.display == 'none'
    page.set_button.click(); page.seed_box.value = '5'  # a change to the form drops the question
    assert page.confirm_button.layout.display == 'none' and 'press “Set the work” again' in page.work_line.value
    page.confirm_button.click(); assert t.match.actions == before and 'Nothing to confirm' in page.work_line.value
    page.set_button.click(); page.confirm_button.click()  # asked, and yes
    assert t.match.actions == [] and t.work['title'] == 'the exercise “Two letters each”'
    assert 'Set the exercise “Two letters each” for 2 tables.' in page.work_line.value and page.confirm_button.layout.display == 'none'

def test_matches_under_way_are_named_and_counted_in_the_question():
    "The question said 'A match is under way at Dee, after hand 1' of a student alone, and 'it' of several matches."
    room, k, solos = a_class()
    page = TeacherPage(Console(room))
    page.console.running = lambda to: ['table kq7m2x (Asha, Bo), in hand 2', 'Dee, after hand 1']
    page.kind_choice.value, page.exercise_choice.value = 'exercise', 'kocka-two-letters'
    page.set_button.click()
    said = page.work_line.value
    assert '2 matches are under way: table kq7m2x (Asha, Bo), in hand 2; Dee, after hand 1.' in said, said
    assert '. The exercise “' in said and 'replaces them now: their scores so far and any hand in play are lost' in said, said

def _until_new_work(t, tokens:dict, seed:int):
    "Play table `t` (students' seats `tokens` their first legal move, bots the others) until its match is the work of `seed`."
    for i in range(5000):
        if t.match.seed == seed: return
        if not t.bot_move(): assert t.act(tokens[t.match.to_act], t.match.legal_actions()[0], f"u{i}").ok
    raise AssertionError('the work never started')

def test_set_the_work_from_the_next_hand_switches_each_table_at_its_hands_end():
    room, k, solos = a_class()
    t = _played(room, k, 6)
    other = room.table(k['cy'].code)  # not started: no hand under way, it takes the work at once
    console = Console(room)
    page = TeacherPage(console)
    page.kind_choice.value, page.game_choice.value, page.seed_box.value, page.target_choice.value = 'game', 'kocka', '31', 'tables'
    page.when_choice.value = 'next-hand'
    page.set_button.click()
    assert 'starts there when the hand in play ends' in page.work_line.value and page.confirm_button.description == 'Yes, from their next hand'
    old = t.match.hands[0]
    page.confirm_button.click()
    assert 'Set Kočka, seed 31 for 2 tables (1 from the next hand).' in page.work_line.value
    assert t.match.hands[0] is old and t.next_work['title'] == 'Kočka, seed 31' and other.match.seed == 31
    assert 'from the next hand: Kočka, seed 31' in page.glance_box.value
    _until_new_work(t, {k['asha'].seat: k['asha'].token, k['bo'].seat: k['bo'].token}, 31)
    assert t.match.seed == 31 and t.match.actions == [] and t.work['text'] == 'Hand 1 is over. Your teacher set this work: Kočka, seed 31.'
    with pytest.raises(ValueError): console.set_work(make_work('game', game='kocka', seed=2), 'all', 'later')

def test_the_solo_work_from_the_next_hand_starts_once_the_student_has_read_the_hands_result():
    room, k, solos = a_class()
    s = solos[0].session
    s.run_bots(); assert s.act(s.match.legal_actions()[0])
    console = Console(room)
    done = dict((where, line) for where, _, line in console.set_work(make_work('game', game='kocka', seed=12), 'solo', 'next-hand'))
    assert done['solo Dee'] == 'Dee plays Kočka, seed 12 from their next hand.' and 'from your next hand' in s.message.text
    assert done['solo <b>Eli</b>'] == '<b>Eli</b> now plays Kočka, seed 12.'  # no move made: at once
    assert 'solo: Dee (here; from the next hand: Kočka, seed 12)' in glance_html(console.glance())
    _finish_solo(s, 1)
    assert console.due() == 0 and s.review == 0  # the finished hand on screen: the work waits
    s.next_hand()
    assert console.due() == 1 and s.match.seed == 12 and [a for a in s.match.actions if a[1] == s.seat] == [] and s.match.to_act == s.seat and console.pending == {}

def test_the_keeper_records_the_hand_that_ended_as_the_teachers_work_replaced_it():
    from cardgames_tutor.serve.teacher_server import ClassKeeper
    from cardgames_tutor.ui.seat import SeatSession
    results = Results(':memory:')
    room, k, solos = a_class()
    t = _played(room, k, 4)
    room.add_page(StudentPage('p-asha:table', 'b-asha', 'table', SeatSession(room.tables, k['asha'].token), 'Asha', t.code))
    console = Console(room, results)
    keeper = ClassKeeper(room, results, console)
    keeper.beat()
    assert t.set_work(make_work('game', game='kocka', seed=31).match, 'Kočka, seed 31', 'next-hand').ok
    _until_new_work(t, {k['asha'].seat: k['asha'].token, k['bo'].seat: k['bo'].token}, 31)  # the move that ends hand 1 starts the work
    assert keeper.beat() == 1 and results.mine('b-asha').hands() == 1  # the hand played before the switch, recorded
    row = as_dicts(results.csv_text('hands'))[0]
    assert (row['student'], row[HEADS['hand']], row[HEADS['seed']]) == ('Asha', '1', '3')  # from the match it was played in
    assert keeper.beat() == 0

def test_names_everywhere_and_results_per_student_and_rule_from_the_summary_export():
    from cardgames_tutor.serve.lobby import Lobby
    from cardgames_tutor.serve.teacher_server import ClassKeeper
    results = Results(':memory:')
    room, k, solos = a_class()
    solos[1].name = None  # a solo student who typed no name
    fay = Lobby(room, 'b-fay', '?drill=kocka')  # drilling: she types her name on her page
    fay.name_box.value = 'Fay'
    console = Console(room, results)
    ClassKeeper(room, results, console).beat()  # the name the teacher reads, kept beside her key
    for right in (True, False, True, True): results.answered('b-fay', 'kocka', 'kocka/follow', right)
    results.answered('b-solo1', 'kocka', 'kocka/follow', False)
    g = console.glance()
    assert {s['name'] for s in g['solo']} == {'Dee', None, 'Fay'} and g['tables'][0]['students'] == ['Asha', 'Bo']
    html = glance_html(g)
    assert 'solo: Fay (here)' in html and '(connected' not in html and 'solo: a student with no name' in html and 'solo: a student (' not in html
    summary = {r[HEADS['key']]: r for r in as_dicts(results.csv_text('summary'))}
    assert (summary['b-fay']['right'], summary['b-fay']['wrong']) == ('3', '1')
    assert console.summary() == ['Fay: Following the led suit (Kočka): 3 right, 1 wrong',
                                 'a student with no name (b-solo): Following the led suit (Kočka): 0 right, 1 wrong']
    page = TeacherPage(console)
    assert 'Fay: Following the led suit (Kočka): 3 right, 1 wrong' in page.results_box.value and ' of 1 missed' not in page.results_box.value
    fay.close()

def test_a_closed_page_is_away_within_seconds_and_a_blip_is_not():
    "The pacer's look at every page's connection (about once a second): lost for `away_after` s, away at the table and in the glance."
    from cardgames_tutor.serve.lobby import Lobby
    from cardgames_tutor.serve.room import TableOptions
    clock = Clock()
    room = Classroom(TableOptions(away_after=5), now=clock)
    host = Lobby(room, 'b-asha', '?table=')
    host.show('open'); host.game_choice.value = 'kocka'; host.name_box.value = 'Asha'; host.open_button.click()
    bo = Lobby(room, 'b-bo', f'?table={host.ticket.code}'); bo.name_box.value = 'Bo'; bo.join_button.click()
    solo = Lobby(room, 'b-cy', '')
    up = {'bo': True, 'cy': True}
    room.pages[f"{bo.page_id}:table"].alive = lambda: up['bo']
    room.pages[f"{solo.page_id}:solo"].alive = lambda: up['cy']
    console, t = Console(room), room.table(host.ticket.code)
    def beats(seconds):
        for _ in range(int(seconds * 20)): clock.t += 0.05; room.step()
    up['bo'] = up['cy'] = False  # both tabs closed (their websockets gone; Solara keeps the sessions for --cull)
    beats(2); up['bo'] = True; beats(2)  # Bo's came back within 5 s: a blip, nothing shown
    assert t.states()[1] == 'here' and [s['connected'] for s in console.glance()['solo']] == [True]
    up['bo'] = False; beats(7)
    assert t.states()[1] == 'away' and [s['connected'] for s in console.glance()['solo']] == [False]
    assert 'Bo (Seat 1, away)' in host.bar.value and 'solo: a student with no name (away)' in glance_html(console.glance())
    up['bo'] = True; beats(1.1)
    assert t.states()[1] == 'here'  # back: his seat at once
    bo.close(); assert t.states()[1] == 'away'  # the session closed later (culled): left once, not twice
    for p in (host, solo): p.close()

def test_a_teachers_page_loaded_again_says_which_table_is_on_the_projector():
    "The walk of issue 50: after a reload the console said “No table is on the projector page yet” while the projector showed one."
    room, k, _ = a_class()
    console = Console(room)
    first = TeacherPage(console)
    first.table_choice.value = k['asha'].code
    first.show_button.click()
    again = TeacherPage(console)  # the same teacher, the page loaded again
    assert f"Table <b>{k['asha'].code}</b> is on the" in again.shown_line.value and 'No table' not in again.shown_line.value
    assert not again.what_if_button.disabled
    room.close_table(k['asha'].code); again.refresh()
    assert 'No table is on the projector page yet' in again.shown_line.value


# ---------------------------------------------------------------- a class of four at a Kočka table, the CSVs in a spreadsheet

FOUR = ('Ana', 'Ben', 'Cleo', 'Dan')

def _kocka_four():
    "Four students at a Kočka table opened with no seed (the table's own, secret), each with a page: (room, table, tickets by name)."
    from cardgames_tutor.ui.seat import SeatSession
    room = Classroom()
    first = room.open_table('b-ana', 'kocka', 'Ana')
    tickets = {'Ana': first, **{n: room.join_table(f"b-{n.lower()}", first.code, n) for n in FOUR[1:]}}
    t = room.table(first.code)
    assert t.started  # every seat taken: it starts by itself
    for n, k in tickets.items():
        room.add_page(StudentPage(f"p-{n}:table", f"b-{n.lower()}", 'table', SeatSession(room.tables, k.token), n, t.code))
    return room, t, tickets

def _as_a_spreadsheet_keeps(cell:str) -> str:
    "What a spreadsheet shows of a CSV cell: a cell it reads as a number, as the number (a long one as 1.23E+27, rounded); text as it is."
    try: number = float(cell)
    except ValueError: return cell
    return str(int(number)) if number.is_integer() and abs(number) < 1e11 else f"{number:.2E}"

def test_a_tables_own_seed_survives_a_spreadsheet_and_deals_the_hand_again_and_the_result_names_the_students():
    """The walk of a teacher with a class of four at a Kočka table (findings 1 and 3): the hands CSV's seed was a 28-digit
    number, shown by a spreadsheet as 1.23E+27 and rounded, and its result named seats ('Seat 2 lost'). Now every seed
    cell reads back as written, and typed into the teacher's page as it reads (“a game and seed”) deals the same cards;
    the result names each student where the game's words name their seat."""
    from cardgames_tutor.serve.teacher_server import ClassKeeper
    results = Results(':memory:', now=lambda: AT)
    room, t, tickets = _kocka_four()
    seed, tokens = t.match.seed, {k.seat: k.token for k in tickets.values()}
    assert abs(seed) >= 10 ** 15  # a table's own seed: more digits than a spreadsheet keeps
    _finish(t, tokens, 1, 'h')
    first_deal, said = t.match.hands[0].deal, t.match.hands[0].result['text']
    assert ClassKeeper(room, results).beat() == 4
    head, *rows = read_csv(results.csv_text('hands'))
    hands = [dict(zip(head, r)) for r in rows]
    assert len(hands) == 4 and "“a game and seed”" in HEADS['seed']  # the header says what the seed is for, and how
    for h in hands:
        cell = h[HEADS['seed']]
        assert _as_a_spreadsheet_keeps(cell) == cell, cell  # neither rounded nor shown as 1.23E+27
        seats = {k.seat: n for n, k in tickets.items()}
        assert h['result'] == re.sub(r"\bSeat (\d)\b", lambda m: seats[int(m[1])], ' '.join(said.split())), (h['result'], said)
        assert not re.search(r"\bSeat \d", h['result']) and h['student'] in seats.values()
    assert any(n in hands[0]['result'] for n in FOUR)  # the game's words named a seat: now a student
    page = TeacherPage(Console(room, results))  # the teacher deals the hand again from the seed as the spreadsheet shows it
    page.kind_choice.value, page.game_choice.value, page.target_choice.value = 'game', 'kocka', 'tables'
    page.seed_box.value = hands[0][HEADS['seed']]
    page.set_button.click(); page.confirm_button.click()
    assert t.match.seed == seed and t.match.hands[0].deal == first_deal and t.match.actions == []
    assert f"Set Kočka, seed {seed} for table {t.code}." in page.work_line.value

def test_set_the_work_now_asks_between_two_hands_too_and_says_what_is_lost():
    """Finding 4: between two hands (hand 1 played out, no move yet in hand 2) “now” replaced the class's match without
    asking. It asks wherever a move was made in the match, says where each is and what is lost, and sets nothing until “Yes”."""
    room, t, tickets = _kocka_four()
    _finish(t, {k.seat: k.token for k in tickets.values()}, 1, 'n')
    assert len(t.match.hands) == 2 and not t.match.hand.history  # between hands: nobody has moved in hand 2
    page = TeacherPage(Console(room))
    page.kind_choice.value, page.exercise_choice.value, page.target_choice.value = 'exercise', 'kocka-two-letters', 'tables'
    before = list(t.match.actions)
    page.set_button.click()
    said = page.work_line.value
    assert f"A match is under way: table {t.code} ({', '.join(FOUR)}), after hand 1" in said, said
    assert 'replaces it now' in said and 'scores so far' in said and 'lost' in said and page.confirm_button.layout.display is None
    assert t.match.actions == before  # asked: nothing changed yet
    page.cancel_button.click(); assert t.match.actions == before
    page.when_choice.value = 'next-hand'; page.set_button.click()
    assert 'where a hand has just ended, at once' in page.work_line.value  # from the next hand: what happens here, said
    page.confirm_button.click()
    assert t.match.actions == [] and t.work['title'] == 'the exercise “Two letters each”'


# ---------------------------------------------------------------- what the console says is true and named (hB)

def _text(html:str) -> str: return re.sub(r'\s+', ' ', re.sub(r'<[^>]+>', ' ', html)).strip()

def test_the_shown_line_says_what_the_projector_shows_now_live_held_or_what_if():
    """The line under “Shown to the class” said 'It follows the table live; ◀ ▶ there hold it at a move.' while the projector
    was held at a moment or played a 'what if' copy, neither following the table. It says what the projector shows now:
    live, held at which moment, or a 'what if' copy from which moment, and that “Live again” follows the table again."""
    room, k, _ = a_class()
    t = _played(room, k, 6)
    page = TeacherPage(Console(room))
    page.table_choice.value = t.code
    page.show_button.click()
    assert 'It follows the table live; ◀ ▶ there hold it at a move.' in _text(page.shown_line.value)
    page.lesson.step_by('back'); page.refresh()  # ◀ pressed on the projector page: the console's page is drawn again
    said = _text(page.shown_line.value)
    assert 'It is held at move 5, not following the table' in said and 'press “Live again” below' in said and 'follows the table live;' not in said, said
    page.lesson.step(0); page.refresh()
    assert 'It is held at the start, not following the table' in _text(page.shown_line.value)
    page.lesson.step(3); page.what_if_button.click()
    said = _text(page.shown_line.value)
    assert 'It shows a “what if”: a copy played on from move 3, not the table' in said and 'follows the table live;' not in said, said
    page.refresh(); assert _text(page.shown_line.value) == said  # a page drawn again says the same
    page.refresh_button.click()
    assert 'It follows the table live; ◀ ▶ there hold it at a move.' in _text(page.shown_line.value)
    page.lesson.step(2); page.refresh()
    assert 'held at move 2' in _text(TeacherPage(page.console).shown_line.value)  # a page loaded again knows it too

def test_dehla_pakad_on_the_console_says_deal_never_hand():
    """Dehla Pakad calls a hand a deal, but the console said of its matches 'in hand 1', '1 hand played', 'from the next
    hand', 'any hand in play are lost', 'No action after the hand is over'. A Dehla Pakad table row and solo row (the rule
    last missed too), the drill answers' lines, the question before new work and what is said once it is set say 'deal'
    now; the student alone reads 'from your next deal'."""
    results, room = Results(':memory:'), Classroom()
    a = room.open_table('b-asha', 'dehla-pakad', 'Asha', seed=3); b = room.join_table('b-bo', a.code, 'Bo')
    eli = room.add_page(StudentPage('k1:solo', 'b-eli', 'solo', Session('dehla-pakad', seed=1), name='Eli'))
    t = room.table(a.code); t.start(a.token)
    tokens = {a.seat: a.token, b.seat: b.token}
    for i in range(3):
        if not t.bot_move(): assert t.act(tokens[t.match.to_act], t.match.legal_actions()[0], f"m{i}").ok
    s = eli.session
    s.run_bots(); s.act(s.match.legal_actions()[0]); s.run_bots()
    for who in ('b-eli', 'b-bo'): results.played(who, 'dehla-pakad', 1)
    results.seen('b-eli', 'Eli'); results.answered('b-eli', 'dehla-pakad', 'hand-over', False)  # a rule every game drills, in a hand's word
    console = Console(room, results)
    assert console.running() == [f"table {t.code} (Asha, Bo), in deal 1", 'Eli, in deal 1']
    page = TeacherPage(console)
    page.kind_choice.value, page.game_choice.value, page.when_choice.value = 'game', 'kocka', 'next-hand'
    page.set_button.click()
    said = _text(page.work_line.value)
    assert 'in deal 1' in said and 'when the deal in play ends' in said and not re.search(r'\bhands?\b', said), said
    page.confirm_button.click()
    assert '(2 from the next deal)' in _text(page.work_line.value) and 'from your next deal' in s.message.text, (page.work_line.value, s.message.text)
    page.refresh()
    rows = re.findall(r'<tr class="cgt-glance-(?:table|solo)">.*?</tr>', page.glance_box.value)
    assert len(rows) == 2 and '<th>deal</th>' in page.glance_box.value
    for row in map(_text, rows):
        assert 'from the next deal' in row and '1 deal played' in row and not re.search(r'\bhands?\b', row), row
    assert 'last missed: No action after the deal is over (Dehla Pakad)' in _text(rows[1]), rows[1]
    assert 'Eli: No action after the deal is over (Dehla Pakad): 0 right, 1 wrong' in _text(page.results_box.value), page.results_box.value
    page.when_choice.value = 'now'; page.set_button.click()
    assert 'any deal in play are lost' in _text(page.work_line.value)
    results.played('b-eli', 'kocka', 1)  # a student who played both: each counted in its game's word, the row's first
    assert next(r for r in console.glance()['solo'])['progress'].endswith('; 1 deal and 1 hand played')

@pytest.mark.parametrize('seat', [0, 1, 3])
def test_the_streak_exercise_speaks_to_the_student_alone_in_their_own_terms(seat):
    """A student alone read 'Your teacher set this work: ... Your side (Seats 0 and 2) has won six deals in a row': seat
    numbers for the student and their partner; and a student in another seat than 0 kept it, so 'your side' was the other
    side. The note says 'you (Seat 0) and your partner opposite, Seat 2', and a student in another seat plays Seat 0, told so."""
    room = Classroom()
    p = room.add_page(StudentPage('k:solo', 'b-dee', 'solo', Session('kocka', seat=seat, seed=2), name='Dee'))
    console = Console(room)
    console.set_work(make_work('exercise', name='dehla-pakad-streak'), 'solo')
    s, said = p.session, p.session.message.text
    assert said.startswith('Your teacher set this work: the exercise “Six deals in a row”.') and 'Seats 0 and 2' not in said, said
    assert 'Your side, you (Seat 0) and your partner opposite, Seat 2, has won six deals in a row' in said, said
    assert s.seat == 0 and s.match.standing['streak_team'] == s.seat % 2  # the side on the streak is the student's
    assert ('You play Seat 0, the seat this work is written for.' in said) == (seat != 0), said
    assert console.glance()['solo'][0]['seat'] == 0  # the glance says the student's turn at the seat they play


def test_solo_work_reaches_a_student_who_starts_playing_alone_later():
    """A teacher set work for "every solo student", then Bo opened the class page: he got a plain game, not the work, and
    the teacher had to set it again (w9). Work set for every solo student now reaches a student who starts playing alone
    later too (the console's beat, `due`), once; the teacher's page says so; a student who had it keeps their own game."""
    room = Classroom()
    asha = room.add_page(StudentPage('k1:solo', 'b-asha', 'solo', Session('kocka', seed=1), name='Asha'))
    console = Console(room)
    page = TeacherPage(console)
    page.kind_choice.value, page.game_choice.value, page.when_choice.value, page.target_choice.value = 'game', 'maghe-satra', 'now', 'solo'
    page.seed_box.value = '12'
    page.set_button.click()
    said = _text(page.work_line.value)
    assert 'for Asha, playing alone' in said and 'Students who start playing alone from now on get it too.' in said, said
    asha.session.act(asha.session.match.legal_actions()[0]); moves = len(asha.session.match.actions)
    bo = room.add_page(StudentPage('k2:solo', 'b-bo', 'solo', Session('kocka', seed=1), name='Bo'))
    assert console.due() == 1 and console.due() == 0  # Bo's page gets it, once
    assert bo.session.game.name == 'maghe-satra' and bo.session.match.seed == 12, bo.session.game
    assert 'Your teacher set this work' in bo.session.message.text, bo.session.message
    assert len(asha.session.match.actions) == moves  # Asha's game goes on as it was
    console.set_work(make_work('game', game='kocka', seed=3), 'tables')  # work for the tables only leaves the solo work as it was
    cy = room.add_page(StudentPage('k3:solo', 'b-cy', 'solo', Session('kocka', seed=1), name='Cy'))
    assert console.due() == 1 and cy.session.game.name == 'maghe-satra'
