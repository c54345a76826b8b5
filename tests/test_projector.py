"""The projector page (serve/projector.py, `/teacher/show`): what the class sees of the table the teacher shows.

Without a browser: the drawing of a table of four named students (every hand face up, each seat by its student's
name, escaped; no seed, no "you", none of a player's panel controls); the page kept up through the registry's watch
as the server keeps it (a move at the table, new work set by the console, another table chosen); held at a move
while the table plays on, and "live again"; "what if" played on in a copy (the table's match, version and pages
untouched) and left for the table; the console's "Show to the class" choosing what every projector page shows; the
route and the gate (the teacher's cookie only).

In a browser (marked `browser`): the teacher shows a table where students play; the projector page, opened in
the console's tab at 1366x768, shows the next move without a reload; a student's browser asking for it is refused; at
each screen a classroom projector has (1024x768 to 3840x2160, and a laptop's 1280x720), four, five and three students'
tables each with a trick lie wholly in sight (every seat, the trick, the status line: no scrolling), their cards large.
Every wait is on the page's state, with one generous timeout."""
import asyncio, itertools, re
import pytest
from cardgames_tutor.core.cards import Card
from cardgames_tutor.serve.room import Classroom
from cardgames_tutor.serve.teacher import Console, make_work
from cardgames_tutor.serve.teacher_page import TeacherPage
from cardgames_tutor.serve.teacher_server import TEACHER_COOKIE, TeacherGate, forget
from cardgames_tutor.serve.projector import WHAT_IF, ProjectorPage, projector_for, projector_parts
from cardgames_tutor.ui.looks import widget_tree
from html import escape
from cardgames_tutor.ui.session_data import named_seats

SEED = 987654321987654  # the table's secret deal: never on the projector
NAMES = ['Asha', 'Bo', '<b>Chidi</b>', 'Dana']

class Clock:
    def __init__(self): self.t = 1000.0
    def __call__(self): return self.t

def a_table(game='begga-kaat', players=4, names=NAMES, seed=SEED, room=None):
    "A table of `game` where the students `names` sit (its match starts when every seat is taken); (room, table, tokens)."
    room = room or Classroom(now=Clock())
    first = room.open_table(f"b-{game}-{names[0]}", game, names[0], seed=seed, **({'players': players} if players else {}))
    tickets = [first] + [room.join_table(f"b-{n}", first.code, n) for n in names[1:]]
    return room, room.table(first.code), {k.seat: k.token for k in tickets}

_IDS = itertools.count()

def play(t, tokens, n=1):
    "The students whose turn it is play their first legal move, `n` times (each with a request id of its own)."
    for _ in range(n): assert t.act(tokens[t.match.to_act], t.match.legal_actions()[0], f"m{next(_IDS)}").ok

def beat(room):
    "One beat of the server's pacer a little later: the watchers hear of what changed (`Classroom.step`)."
    room.now.t += 0.2
    room.step()

def projector(room, console):
    "A projector page kept up with the class as the server keeps it (its watcher on the registry), for the teacher's cookie."
    gate = TeacherGate(None, 'abcd-efgh-jkmn', console)
    page = projector_for(gate, console, {TEACHER_COOKIE: gate.proof})
    assert isinstance(page, ProjectorPage) and page.watcher in room.watchers
    return page

def head(page) -> dict:
    "The head's data attributes: mode, moves, table."
    v = page.head.value
    return {k: v.split(f'data-{k}="', 1)[1].split('"', 1)[0] if f'data-{k}="' in v else None for k in ('mode', 'moves', 'table')}

def everything(page) -> str: return ''.join(getattr(w, 'value', '') or '' for w in widget_tree([page]) if isinstance(getattr(w, 'value', None), str))

# ---------------------------------------------------------------- the drawing

def test_every_hand_face_up_each_seat_by_name_and_no_seed_no_you_no_panel_controls():
    room, t, tokens = a_table()
    play(t, tokens, 3)
    console = Console(room)
    console.show(t.code)
    page = projector(room, console)
    html = everything(page)
    assert all(f'data-card="{c.code}"' in page.table.value for h in t.match.hand.hands for c in h)  # every hand's every card
    for seat, name in enumerate(['Asha', 'Bo', '&lt;b&gt;Chidi&lt;/b&gt;', 'Dana']):  # by name as the students' pages say it; who sits where in the head
        assert f"<b>{name}</b>" in page.table.value and f"{name} (Seat {seat})" in page.head.value
    assert '(Seat ' not in page.table.value and '(Seat ' not in page.head.value.split('cgt-proj-scores')[1].split('</div>')[0]  # table and scores: 'Bo', not 'Bo (Seat 1)'
    assert '<b>Chidi' not in html  # a student's name is text, never markup
    assert str(SEED) not in html and 'seed' not in html.lower() and '(you)' not in html and 'you are' not in html.lower()
    words = {getattr(w, 'description', '') for w in widget_tree([page])} | {getattr(w, 'tooltip', '') or '' for w in widget_tree([page])}
    assert not any(x in ' '.join(words).lower() for x in ('undo', 'deal', 'setup', 'show every hand', 'pause', 'set the work'))
    assert head(page) == {'mode': 'live', 'moves': '3', 'table': t.code} and 'Begga Kaat' in page.head.value and 'hand 1' in page.head.value
    log = page.log_box.value
    assert log.count('<li') == 5 and 'Seat ' not in log and any(n in log for n in ('Asha', 'Bo', 'Dana'))  # the table's last lines, each seat by name
    forget(console, page); page.close()

def test_the_drawing_of_a_bot_and_an_away_student_says_so():
    room, t, tokens = a_table(names=['Asha', 'Bo'])
    t.start(tokens[0])
    t.left(tokens[1])
    console = Console(room)
    parts = projector_parts(console.show(t.code))
    assert 'Bo (Seat 1, away)' in parts['head'] and 'Seat 2 (bot)' in parts['head'] and 'Seat 3 (bot)' in parts['head']  # who sits where
    assert '<b>Bo</b>' in parts['table'] and '<b>Seat 2</b>' in parts['table'] and '(Seat' not in parts['table']  # the table as the pages draw it

# ---------------------------------------------------------------- live: it follows the table

def test_it_follows_each_move_at_the_table_and_new_work_through_the_registrys_watch():
    room, t, tokens = a_table()
    console = Console(room)
    console.show(t.code)
    page = projector(room, console)
    for n in range(1, 4):
        play(t, tokens)
        beat(room)
        assert head(page)['moves'] == str(n) and page.table.value.count('data-card=') >= 52 - n
    console.set_work(make_work('game', game='kocka', seed=424242), 'tables')
    beat(room)
    assert head(page) == {'mode': 'live', 'moves': '0', 'table': t.code} and 'Kočka' in page.head.value
    assert '424242' not in everything(page) and 'seed' not in everything(page).lower()  # the work's own seed is not shown either
    play(t, tokens, 2); beat(room)
    assert head(page)['moves'] == '2'
    forget(console, page); page.close()

def test_a_finished_hand_stays_on_the_projector_until_the_next_move():
    room, t, tokens = a_table()
    console = Console(room)
    console.show(t.code)
    page = projector(room, console)
    while not t.match.hands[0].is_over: play(t, tokens)
    beat(room)
    assert 'hand 1' in page.head.value and 'data-kind="score"' in page.log_box.value  # the hand's result, with its cards
    play(t, tokens); beat(room)
    assert 'hand 2' in page.head.value
    forget(console, page); page.close()

# ---------------------------------------------------------------- held, and live again

def test_back_and_forward_hold_it_while_the_table_plays_on_and_live_again_follows():
    room, t, tokens = a_table()
    play(t, tokens, 6)
    console = Console(room)
    console.show(t.code)
    page = projector(room, console)
    assert page.forward.layout.display == 'none' and page.live_button.layout.display == 'none'  # live: nothing to go forward to
    page.back.click(); page.back.click()
    assert head(page)['mode'] == 'held' and 'Held at move 4 of 6' in page.head.value
    play(t, tokens, 2); beat(room)
    assert head(page)['moves'] == '4' and 'Held at move 4 of 8' in page.head.value  # held while the table plays on
    page.forward.click()
    assert 'Held at move 5 of 8' in page.head.value and page.live_button.layout.display is None
    assert sum(b.layout.display != 'none' for b in (page.back, page.forward, page.live_button, page.what_if_button, page.leave_button)) == 4
    page.live_button.click()
    assert head(page) == {'mode': 'live', 'moves': '8', 'table': t.code}
    play(t, tokens); beat(room)
    assert head(page)['moves'] == '9'
    forget(console, page); page.close()

def test_at_the_start_the_head_says_the_start_not_move_0():
    "Stepped back to before the first move, the head said 'Held at move 0 of 2' and then 'What if, from move 0'."
    room, t, tokens = a_table()
    play(t, tokens, 2)
    console = Console(room)
    console.show(t.code)
    page = projector(room, console)
    page.back.click(); page.back.click()
    assert 'Held at the start, before move 1 of 2' in page.head.value and 'move 0' not in page.head.value
    page.what_if_button.click()
    assert 'What if, from the start' in page.head.value and 'move 0' not in page.head.value
    page.leave_button.click()
    forget(console, page); page.close()

def test_a_partnership_match_over_is_said_by_side_and_who_won():
    """At a Dehla Pakad table the head listed each student's own score ('Asha 1 · Bo 1 · Chen 1 · Dev 1') and, the match
    over, said only 'The match is over.': it looked like a tie and never said who won. It lists a score per side, by the
    students' names, and says how the match ended."""
    room, t, tokens = a_table('dehla-pakad', None, names=('Asha', 'Bo', 'Chen', 'Dev'))
    console = Console(room)
    console.show(t.code)
    page = projector(room, console)
    for _ in range(3000):
        if t.match.over: break
        if not t.bot_move(): play(t, tokens)
    beat(room)
    assert t.match.over
    head = page.head.value
    assert 'Asha and Chen' in head and 'Bo and Dev' in head and 'Asha 1' not in head, head  # a score each side
    ended = [e.text for e in t.match.events() if e.kind == 'match'][-1]
    assert named_seats(escape(ended), ('Asha', 'Bo', 'Chen', 'Dev')) in head and 'Seats' not in head, head  # who won, by name
    forget(console, page); page.close()

def test_a_dehla_pakad_table_is_said_in_deals_never_hands_live_held_and_in_what_if():
    """Dehla Pakad calls a hand a deal (its rulebook: 'deal 3', '7 deals won in a row'). The projector says 'deal' of it
    everywhere the class reads (head, log, the line said, the table): live across the end of a deal, held at every moment,
    and in "what if"; never 'hand' ('right-hand neighbour' is a place, not a hand)."""
    room, t, tokens = a_table('dehla-pakad', None, names=('Asha', 'Bo'), seed=6)
    t.start(tokens[0])  # two students, two bots
    console = Console(room)
    lesson = console.show(t.code)
    HAND = re.compile(r'(?<![-\w])[Hh]ands?\b')
    found, said = [], []
    def look(where):
        for k, v in projector_parts(lesson).items():
            text = re.sub(r'<[^>]+>', ' ', v)
            said.append(text)
            found.extend(f"{where}, {k}: {m.string[max(0, m.start() - 60):m.end() + 60]!r}" for m in HAND.finditer(text))
    for _ in range(3000):
        if len(t.match.hands) >= 3 or t.match.over: break
        if not t.bot_move(): play(t, tokens)
        lesson.sync(); look(f"live, move {len(t.match.actions)}")
    assert len(t.match.hands) >= 3, 'the table played three deals'
    for at in range(len(t.match.actions) + 1):
        lesson.step(at); look(f"held at move {at}")
    lesson.step(len(t.match.actions) // 2)
    assert lesson.what_if()
    for i in range(40):
        s = lesson.session
        if s.review is not None or s.match.over or s.match.to_act != s.seat: break
        lesson.press(s.match.legal_actions()[-1]); look(f"what if {i}")
    assert not found, '\n'.join(found[:20])
    assert any('deal 2' in x for x in said) and any('Deal 1 is over' in x for x in said)

# ---------------------------------------------------------------- what if

def test_what_if_plays_on_in_a_copy_the_table_untouched_and_back_to_the_table_is_live():
    room, t, tokens = a_table()
    play(t, tokens, 6)
    heard = []
    t.subscribe(tokens[0], heard.append)
    before, version = list(t.match.actions), t.version
    console = Console(room)
    console.show(t.code)
    page = projector(room, console)
    page.back.click(); page.back.click(); page.what_if_button.click()
    assert head(page)['mode'] == 'what-if' and WHAT_IF in page.banner.value and 'What if, from move 4' in page.head.value
    assert [b.layout.display for b in (page.back, page.forward, page.live_button, page.what_if_button, page.leave_button)] == ['none'] * 4 + [None]
    lesson = console.on_projector()
    to_act = lesson.session.seat
    assert f"The teacher plays {['Asha', 'Bo', '&lt;b&gt;Chidi&lt;/b&gt;', 'Dana'][to_act]}; bots play" in page.head.value
    lit = [b for b in page.cards_row.children if not b.disabled]
    assert lit and len(page.cards_row.children) == len(lesson.session.match.hand.hands[to_act])
    chosen = lit[-1].tooltip
    lit[-1].click()
    copy = lesson.session.match
    assert copy.actions[:4] == before[:4] and copy.actions[4][2].name == chosen and len(copy.actions) > 5  # the bots answered
    assert f"Seat {to_act} played" not in page.said.value and 'played' in page.said.value  # by name, on the page
    assert t.match.actions == before and t.version == version and heard == []  # nothing reached the table or its students
    play(t, tokens); beat(room)
    assert head(page)['mode'] == 'what-if' and lesson.session.match is copy  # the table's move does not end the 'what if'
    page.leave_button.click()
    assert head(page) == {'mode': 'live', 'moves': '7', 'table': t.code} and page.banner.value == '' and page.cards_row.children == ()
    assert 'played' not in page.said.value  # nothing of the copy's left on the table's view
    forget(console, page); page.close()

def test_a_press_outside_what_if_moves_nothing():
    room, t, tokens = a_table()
    play(t, tokens, 2)
    console = Console(room)
    lesson = console.show(t.code)
    assert not lesson.press(t.match.legal_actions()[0]) and lesson.session.match.actions == t.match.actions
    page = projector(room, console)
    assert "only in 'what if'" in page.said.value.replace('&#x27;', "'") and page.cards_row.children == ()
    forget(console, page); page.close()

# ---------------------------------------------------------------- the console chooses

def test_the_consoles_show_chooses_what_every_projector_page_shows():
    room, a, a_tokens = a_table()
    _, b, _ = a_table('kocka', None, ['Eli', 'Fay'], 5, room)
    console = Console(room)
    pages = [projector(room, console) for _ in range(2)]
    assert all('No table is on the projector yet' in p.head.value and p.table.value == '' for p in pages)
    teacher = TeacherPage(console, root_path='/class7')
    teacher.table_choice.value = a.code; teacher.show_button.click()
    assert f"Table {a.code} is on the projector page." in teacher.said.value
    assert 'href="/class7/teacher/show"' in teacher.shown_line.value and a.code in teacher.shown_line.value
    beat(room)
    assert [head(p)['table'] for p in pages] == [a.code, a.code]
    pages[0].back.click(); beat(room)
    assert [head(p)['mode'] for p in pages] == ['held', 'held']  # one state, shared by every projector page
    teacher.table_choice.value = b.code; teacher.show_button.click(); beat(room)
    assert [head(p)['table'] for p in pages] == [b.code, b.code] and all('Kočka' in p.head.value and '<b>Eli</b>' in p.table.value for p in pages)
    teacher.what_if_button.click(); beat(room)
    assert all(WHAT_IF in p.banner.value for p in pages)
    teacher.refresh_button.click(); beat(room)
    assert [head(p)['mode'] for p in pages] == ['live', 'live'] and 'live again' in teacher.said.value
    room.close_table(b.code); beat(room)
    assert all(f"Table {b.code} is closed" in p.head.value for p in pages)
    for p in pages: forget(console, p); p.close()
    assert all(p.watcher not in room.watchers for p in pages)

# ---------------------------------------------------------------- the teacher's only

async def _app(scope, receive, send):
    body = f"app:{scope['path']}".encode()
    await send({'type': 'http.response.start', 'status': 200, 'headers': []})
    await send({'type': 'http.response.body', 'body': body})

def call(gate, path, cookies=''):
    sent = []
    async def send(m): sent.append(m)
    async def receive(): return {'type': 'http.request'}
    scope = {'type': 'http', 'path': path, 'query_string': b'', 'client': ('10.1.1.1', 5000),
             'headers': [(b'cookie', cookies.encode())] if cookies else []}
    asyncio.run(gate(scope, receive, send))
    return sent[0]['status'], b''.join(m.get('body', b'') for m in sent[1:])

def test_only_the_teachers_cookie_opens_the_projector_page():
    room, t, _ = a_table()
    console = Console(room)
    console.show(t.code)
    gate = TeacherGate(_app, 'kq7m-x2pd-9hte', console)
    for cookies in ('', 'cgt-class=anything', f"cgt-class={gate.proof}", f"{TEACHER_COOKIE}={gate.proof[:-1]}"):
        status, body = call(gate, '/teacher/show', cookies)
        assert status == 401 and b'Asha' not in body and t.code.encode() not in body
        page = projector_for(gate, console, dict(c.split('=', 1) for c in [cookies] if c))
        assert not isinstance(page, ProjectorPage) and 'Asha' not in page.value
    assert room.watchers == []
    assert call(gate, '/teacher/show', f"{TEACHER_COOKIE}={gate.proof}") == (200, b'app:/teacher/show')

def test_the_classroom_routes_teacher_show_to_the_projector_page():
    from cardgames_tutor.serve import pages
    if pages.solara is None: pytest.skip("Solara is not installed (pip install -e '.[classroom]')")
    teacher = next(r for r in pages.routes if r.path == 'teacher')
    assert {r.path: r.component for r in teacher.children} == {'/': pages.TeacherRoute, 'show': pages.ProjectorRoute}
    assert "no teacher's page" in pages._projector_page().value  # no teacher gate on this process: nothing to show


# ---------------------------------------------------------------- in a browser

from helpers import POLL, classroom_server, free_port, malloc_env, served, wait_shown
from test_classroom_tables import WAIT, browser, browser_test, cards_named, join_pages, one_chromium, open_table, _public  # noqa: F401 (fixtures)
# one Chromium for the file's three browser tests (`one_chromium`), each test's contexts closed after it (`browser`): it
# was launched again for each test (its browser, GPU and network processes, and Playwright's driver, started three times)

TEACHER = 'kq7m-x2pd-9hte'

def moves(page) -> int: return int(page.get_attribute('.cgt-proj-head', 'data-moves'))

@browser_test
def test_the_projector_page_follows_the_table_without_a_reload_and_is_the_teachers_only(browser):
    from cardgames_tutor.core.registry import get_game
    from cardgames_tutor.core.match import Match
    with classroom_server('--teacher-code', TEACHER, '--bot-pace', '0.3', env=malloc_env()) as (addr, _):
        host = open_table(browser, addr, 'Asha', game='Begga Kaat', players=4, seed=12, query='?table=')
        bo = join_pages(browser, addr, host.code, ['Bo'])[0]

        # a student's browser (the class's cookie, not the teacher's) is refused the projector page
        assert bo.page.evaluate("p => fetch(p).then(r => r.status)", '/teacher/show') == 401
        asked = bo.context.new_page()
        asked.goto(f'http://{addr}/teacher/show', timeout=WAIT)
        assert "teacher's code" in asked.inner_text('body') and asked.query_selector('.cgt-projector') is None
        asked.close()

        # the teacher shows the table; the projector page opens beside the console
        teacher = browser.new_context(viewport={'width': 1300, 'height': 1000}).new_page()
        teacher.goto(f'http://{addr}/teacher?teacher={TEACHER}', timeout=WAIT)
        wait_shown(teacher, '.cgt-glance-box table', WAIT)
        teacher.select_option('.cgt-table-choice select', label=f"{host.code} · Begga Kaat")
        teacher.click('.cgt-show')
        wait_shown(teacher, '.cgt-shown-line a.cgt-projector-link', WAIT)
        assert f"Table {host.code} is on the projector page" in teacher.inner_text('.cgt-teacher-said')
        assert teacher.get_attribute('.cgt-projector-link', 'href') == '/teacher/show'
        # the projector page in the console's tab (the teacher's cookie; the console has done its part here, and
        # test_teacher_browser keeps a console beside the projector page): the page loaded again in the same tab costs
        # Chromium ~2.5 CPU-s where a new one cost ~4
        projector = teacher
        projector.set_viewport_size({'width': 1366, 'height': 768})
        projector.goto(f'http://{addr}/teacher/show', timeout=WAIT)
        wait_shown(projector, f'.cgt-proj-head[data-mode="live"][data-table="{host.code}"]', WAIT)
        text = projector.inner_text('.cgt-projector')
        assert 'Asha (Seat 0)' in text and 'Bo (Seat 1)' in text and 'Seat 2 (bot)' in text
        assert 'seed' not in text.lower() and '(you)' not in text
        deck = set(Match(get_game('begga-kaat', players=4), seed=12).game.deck())
        assert cards_named(_public(projector.content()), deck) == deck  # every hand face up
        projector.evaluate("() => { window.cgtSamePage = true; }")  # gone if the page were loaded again

        # the match starts; the bots play up to Asha's turn, then Asha plays: the projector shows that move, live
        host.page.click('.cgt-start')
        host.wait_waiting('Your turn.')
        n = host.moves()
        projector.wait_for_function("n => +document.querySelector('.cgt-proj-head')?.dataset.moves === n", arg=n, polling=POLL, timeout=WAIT)
        card = host.page.locator('button.cgt-card.cgt-legal').first
        name = card.get_attribute('title')
        card.click()
        projector.wait_for_function("n => +document.querySelector('.cgt-proj-head')?.dataset.moves === n", arg=n + 1, polling=POLL, timeout=WAIT)
        played = next(c for c in deck if c.name == name)
        projector.wait_for_function("([who, card]) => { const li = [...document.querySelectorAll('.cgt-proj-log li')].pop();"
                                    " return !!li && li.innerText.includes(who) && !!li.querySelector(`[data-card='${card}']`); }",
                                    arg=['Asha', played.code], polling=POLL, timeout=WAIT)  # its log's last line: Asha's card
        assert projector.evaluate("() => window.cgtSamePage === true")  # no reload
        assert projector.get_attribute('.cgt-proj-head', 'data-mode') == 'live'

        # on the class's screen (1920x1080) the table fills most of the width and its cards are large: read from the back
        projector.set_viewport_size({'width': 1920, 'height': 1080})
        size = projector.evaluate("() => { const w = document.querySelector('.cgt-proj-table .cgt-table-wrap').getBoundingClientRect();"
                                  " const c = document.querySelector('.cgt-proj-table .cgt-played .cgt-card').getBoundingClientRect();"
                                  " return {table: w.width, card: c.width, cardHigh: c.height}; }")
        assert size['table'] >= 0.55 * 1920 and size['cardHigh'] >= 100, size  # a trick card was about 55 px high here before


# ---------------------------------------------------------------- on the room's screen: it fits, its cards large

SCREENS = ((1024, 768), (1280, 720), (1280, 800), (1366, 768), (1600, 900), (1920, 1080), (3840, 2160))  # a classroom projector's, a laptop's
FITTED = [('kocka', None, ['Asha', 'Bo', 'Chloé', 'Dana']), ('beggars-and-thieves', 5, ['Asha', 'Bo', 'Chloé', 'Dana', 'Eli']),
          ('begga-kaat', 3, ['Asha', 'Bo', 'Chloé'])]  # four seats, five, three: every seat a student's
SERVED = r'''
import json, sys, threading
import uvicorn
from cardgames_tutor.serve.classroom import make_app
from cardgames_tutor.serve.room import classroom
from cardgames_tutor.serve.teacher_server import teacher_gate
port, results, tables = int(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])
app = make_app(None, '60s', '', {'127.0.0.1'}, teacher_code='kq7m-x2pd-9hte', results=results)
room, codes = classroom(), []
for game, players, names in tables:  # every student seated; each plays their first legal move until two cards lie in a trick
    first = room.open_table(f"b-{game}-{names[0]}", game, names[0], seed=12, **({'players': players} if players else {}))
    tokens = {k.seat: k.token for k in [first] + [room.join_table(f"b-{game}-{n}", first.code, n) for n in names[1:]]}
    t = room.table(first.code)
    if not t.started: t.start(tokens[0])
    while len(t.match.view(None).get('trick') or []) < 2:
        assert t.act(tokens[t.match.to_act], t.match.legal_actions()[0], f"m{len(t.match.actions)}").ok
    codes.append(first.code)
gate = teacher_gate()
print(json.dumps({'codes': codes, 'proof': gate.proof}), flush=True)
def show():  # a table's code on stdin: the console shows that table to the class
    for line in sys.stdin: gate.console.show(line.strip())
threading.Thread(target=show, daemon=True).start()
uvicorn.run(app, host='127.0.0.1', port=port, log_level='warning')
'''
FIT = """() => { const W = innerWidth, H = innerHeight, all = s => [...document.querySelectorAll(s)];
  const box = e => e.getBoundingClientRect(), inside = b => b.left >= 0 && b.top >= 0 && b.right <= W && b.bottom <= H;
  const parts = [...all('.cgt-proj-table .cgt-seat').map(e => ['seat ' + e.dataset.seat, e]), ...all('.cgt-proj-table .cgt-trick').map(e => ['trick', e]),
                 ...all('.cgt-proj-now').map(e => ['status line', e])];
  return {seats: all('.cgt-proj-table .cgt-seat').length, outside: parts.filter(([, e]) => !inside(box(e))).map(([what]) => what),
          trick: Math.min(...all('.cgt-proj-table .cgt-played .cgt-card').map(e => box(e).height)),
          hand: Math.min(...all('.cgt-proj-table .cgt-seat .cgt-mini').map(e => box(e).height)),
          table: box(document.querySelector('.cgt-proj-table .cgt-table-wrap')).width}; }"""

@browser_test
def test_the_projector_fits_each_classroom_screen_with_its_cards_as_large_as_fit(browser):
    "Four, five and three students at their tables, a trick on each: at each screen every seat, the trick and the status line are in sight."
    import json, subprocess, sys, tempfile
    port, measured, wrong = free_port(), {}, []
    with tempfile.TemporaryDirectory() as tmp, served([sys.executable, '-c', SERVED, str(port), f'{tmp}/results.sqlite', json.dumps(FITTED)], port,
                                                      'the classroom server', wait=120, env=malloc_env(), stdin=subprocess.PIPE,
                                                      stdout=subprocess.PIPE, text=True) as proc:
        got = json.loads(next(line for line in proc.stdout if line.startswith('{"codes"')))
        context = browser.new_context(viewport={'width': 1920, 'height': 1080})
        context.add_cookies([{'name': TEACHER_COOKIE, 'value': got['proof'], 'url': f'http://127.0.0.1:{port}'}])
        page = context.new_page()
        for n, ((game, _, names), code) in enumerate(zip(FITTED, got['codes'])):
            proc.stdin.write(code + '\n'); proc.stdin.flush()
            if n == 0: page.goto(f'http://127.0.0.1:{port}/teacher/show', timeout=WAIT)
            wait_shown(page, f'.cgt-proj-head[data-table="{code}"]', WAIT)
            page.wait_for_function("() => document.querySelectorAll('.cgt-proj-table .cgt-played').length >= 2", polling=POLL, timeout=WAIT)
            for w, h in SCREENS:
                page.set_viewport_size({'width': w, 'height': h})
                m = measured[game, w, h] = page.evaluate(FIT)
                if m['seats'] != len(names) or m['outside']: wrong.append((game, w, h, 'out of sight:', m['outside']))  # no scrolling
                if m['trick'] < 0.065 * h or m['hand'] < 0.02 * h: wrong.append((game, w, h, 'small:', m))  # five hands: 51 px at 720, 78 at 1080
            m = measured[game, 1920, 1080]  # the class's usual screen, four hands or fewer: the table most of the width, a trick card 100 px or more
            if len(names) <= 4 and (m['table'] < 0.55 * 1920 or m['trick'] < 100): wrong.append((game, 1920, 1080, 'small:', m))
    print({k: (round(m['trick']), round(m['hand'])) for k, m in measured.items()})  # the figures: the trick's cards, the hands' cards (px)
    assert wrong == [], wrong

@browser_test
def test_the_tables_height_is_reckoned_on_the_high_side_at_every_table_size(browser):
    "`fit_height` (what the zoom is chosen from) is never below the height the table is drawn at, all along each game's first hands."
    from cardgames_tutor.serve.projector import PROJECTOR_CSS, fit_height
    low, high = [], []
    page = browser.new_page(viewport={'width': 1920, 'height': 1080})
    for game, players in (('kocka', None), ('begga-kaat', 3), ('begga-kaat', 4), ('beggars-and-thieves', 2), ('beggars-and-thieves', 3),
                          ('beggars-and-thieves', 4), ('beggars-and-thieves', 5), ('maghe-satra', 3), ('maghe-satra', 5), ('maghe-satra', 7),
                          ('dehla-pakad', None)):
        room, t, tokens = a_table(game, players, ['Asha', 'Bo', 'Chloé', 'Dana', 'Eli', 'Fay', 'Gus'][:players or 4], seed=3)
        if not t.started: t.start(tokens[0])
        for k in range(100):
            if t.match.over or t.match.to_act is None: break
            if k % 8 == 0:
                table = projector_parts(Console(room).show(t.code))['table']
                page.set_content(f'<style>{PROJECTOR_CSS}</style><div class="cgt-projector"><div class="cgt-proj-table" style="width:2000px;height:3000px">'
                                 f'{table}</div></div>')  # room enough: the table at its own size (zoom 1)
                drawn = page.evaluate("() => { const w = document.querySelector('.cgt-table-wrap'); w.style.zoom = 1; return w.getBoundingClientRect().height; }")
                reckoned = int(table.split('--cgt-high:', 1)[1].split('"', 1)[0])
                assert reckoned == fit_height(table.split('">', 1)[1].rsplit('</div>', 1)[0])
                (low if reckoned < drawn else high).append((game, players, k, reckoned, round(drawn)))
            play(t, tokens)
    assert low == [] and len(high) > 50, low  # never below (the table would not fit); a few percent above (its cards that much smaller)
    assert max(r / d for *_, r, d in high) < 1.4, high
