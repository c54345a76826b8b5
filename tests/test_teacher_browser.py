"""The teacher's page in real browsers: a classroom server with a teacher code, four students at a table, two solo
students (one playing, one drilling), and the teacher, each in a Chromium context of their own (their own cookies).

The teacher sees every hand of the table on the projector page while no student page (its DOM, or the widget state it
was sent) holds a card of another seat; the teacher pauses the table (every seat is told, a banner fixed at the top of a
phone's screen however far it is scrolled, no card lit, a click answered with the pause's short line), holds the projector a
move back, resumes; sets an exercise for everyone, asked and confirmed beside the button (every table and solo page starts
it, told who set it); a drill answered by a solo student appears in the teacher's results under her name; a solo page
closed is away within seconds; a student's page reaches no teacher route. The console is at 1366x768, every button's label
whole; every page has its title. Every wait is on the page's state."""
import csv, io, re, time
import pytest
from cardgames_tutor.core.registry import get_game
from cardgames_tutor.core.match import Match
from cardgames_tutor.practice.exercises import EXERCISES
from cardgames_tutor.practice.results import HEADS
from cardgames_tutor.ui.seat import PAUSED_LINE
from cardgames_tutor.games.kocka import Kocka
from helpers import POLL, classroom_server, malloc_env
from test_classroom_tables import (WAIT, Student, browser_test, cards_named, chromium, hidden_from, join_pages,
                                   leaks, open_table, _public)

KOCKA_RULES = set(Kocka.RULES.values())  # a Kočka rule as the drill names it, in words (the CSV's `rule`)

TEACHER = 'kq7m-x2pd-9hte'
AWAY_WAIT = 30_000  # ms: seen away after --away-after (5 s) and a beat of the pacer; a loaded machine's page may lag, the cull is at 60 s

def teacher_page(browser, addr):
    context = browser.new_context(viewport={'width': 1366, 'height': 768})  # a classroom's laptop
    page = context.new_page()
    page.goto(f'http://{addr}/teacher', timeout=WAIT)
    assert "teacher's code" in page.inner_text('body')  # asked, and nothing else shown
    page.goto(f'http://{addr}/teacher?teacher={TEACHER}', timeout=WAIT)
    page.wait_for_selector('.cgt-glance-box table', timeout=WAIT)
    return page

def glance_has(page, *texts):
    page.wait_for_function("ts => { const e = document.querySelector('.cgt-glance-box'); return e && ts.every(t => e.innerText.includes(t)); }",
                           arg=list(texts), polling=POLL, timeout=WAIT)

def titled(page, title):
    "Wait until the page's title (the browser's tab, a screen reader's first words) is `title`."
    page.wait_for_function("t => document.title === t", arg=title, polling=POLL, timeout=WAIT)

def cut_buttons(page) -> list:
    "The teacher's buttons shown now whose label is cut (its text wider than the button)."
    return page.evaluate("""() => [...document.querySelectorAll('.cgt-teacher button')].filter(b => b.offsetParent !== null)
                                 .filter(b => b.scrollWidth > b.clientWidth).map(b => [b.innerText, b.scrollWidth, b.clientWidth])""")

def play_moves(students, mirror, n, shown=None):
    "The students whose turn it is click a lit card, `n` times; every page shows each move (and the projector page `shown`, live)."
    by_seat = {s.seat: s for s in students}
    for _ in range(n):
        to = mirror.to_act
        s = by_seat[to]
        s.wait_waiting('Your turn.')
        card = s.page.locator('button.cgt-card.cgt-legal').first
        played = next(c for c in mirror.legal_actions() if c.name == card.get_attribute('title'))
        card.click()
        mirror.apply(played, to)
        for t in students: t.wait_moves(len(mirror.actions))
        if shown is not None:  # the projector follows the table move by move
            shown.wait_for_function("n => document.querySelector('.cgt-proj-head')?.dataset.moves == n", arg=len(mirror.actions), polling=POLL, timeout=WAIT)

BOT = 'button:has-text("bot plays my move")'

def play_out_hand(students, shown) -> str:
    "Each student whose turn it is presses “bot plays my move” until the hand is over; the result line the pages show."
    for _ in range(200):
        over = [s for s in students if 'is over' in (s.page.inner_text('.cgt-message') if s.page.query_selector('.cgt-message') else '')]
        if over: return over[0].page.inner_text('.cgt-message')
        turn = next((s for s in students if 'Your turn' in (s.page.inner_text('.cgt-waiting') or '')), None)
        if turn is None: time.sleep(0.2); continue
        n = turn.moves()
        turn.page.locator(BOT).click()
        turn.wait_moves(n + 1, at_least=True)
        shown.wait_for_function("n => +document.querySelector('.cgt-proj-head')?.dataset.moves >= n", arg=n + 1, polling=POLL, timeout=WAIT)
    raise AssertionError('the hand did not end in 200 presses')

def csv_rows(page, kind) -> list:
    "The teacher's CSV export `kind`, fetched as the browser downloads it: its rows, the byte-order mark checked."
    raw = page.evaluate("k => fetch('/teacher/results.csv?kind=' + k).then(r => r.arrayBuffer()).then(b => Array.from(new Uint8Array(b)))", kind)
    text = bytes(raw).decode('utf-8')
    assert text.startswith('\ufeff'), text[:40]  # UTF-8 with its byte-order mark: a spreadsheet reads ♥ and any name as typed
    rows = list(csv.reader(io.StringIO(text[1:], newline='')))
    again = io.StringIO(); csv.writer(again, lineterminator='\n', quoting=csv.QUOTE_ALL).writerows(rows)
    assert again.getvalue() == text[1:]  # every field quoted
    return rows

ISO = re.compile(r'\d{4}-\d\d-\d\d \d\d:\d\d:\d\d')


@browser_test
def test_the_teacher_watches_pauses_steps_back_sets_the_work_and_reads_the_results(tmp_path):
    with classroom_server('--teacher-code', TEACHER, '--results', str(tmp_path/'class.sqlite'), '--bot-pace', '0.2',
                          env=malloc_env()) as (addr, _), \
            chromium() as browser:
        # the host comes from a link with an empty table code (the join form, no solo game): a solo game's panel would go on
        # sending its own deal's cards for a while after the page switches to the open form, which the scan would count
        host = open_table(browser, addr, 'Asha', game='Begga Kaat', players=4, seed=12, query='?table=')
        students = [host] + join_pages(browser, addr, host.code, ['Bo', 'Chidi'])
        phone = Student(browser, addr, f'?table={host.code}', 'Dana', viewport=(390, 844))  # Dana plays on a phone
        phone.page.fill('.cgt-name input', 'Dana'); phone.mark(); phone.page.click('.cgt-join')
        students.append(phone.seated())
        solo = Student(browser, addr, '?game=kocka&seed=3', 'Eli')
        drill = Student(browser, addr, '?drill=kocka&seed=2', 'Fay')
        for s in (solo, drill): s.page.fill('.cgt-name input', s.name)  # playing alone: the name the teacher reads
        mirror = Match(get_game('begga-kaat', players=4), seed=12)
        titled(host.page, f"Table {host.code} · Card games tutor"); titled(solo.page, 'Card games tutor')
        assert phone.page.inner_text('.cgt-share') == f'http://{addr}/?table={host.code}'  # a whole address, to open from a message

        # a student's page reaches no teacher route
        for s in (host, solo):
            for path in ('/teacher', '/teacher/', '/teacher/results.csv', '/teacher/glance.json', f'/teacher?teacher=not-{TEACHER}'):
                assert s.page.evaluate("p => fetch(p).then(r => r.status)", path) == 401, path
            assert s.page.query_selector('.cgt-teacher') is None

        teacher = teacher_page(browser, addr)
        titled(teacher, "Teacher's console · Card games tutor")
        glance_has(teacher, f"table {host.code}", 'Asha', 'Dana', 'solo: Eli', 'solo: Fay')
        assert cut_buttons(teacher) == []  # at 1366x768 every label whole

        # the teacher sees every hand; no student page holds another seat's cards
        teacher.wait_for_function("c => document.querySelector('.cgt-table-choice select')?.selectedOptions[0]?.text.startsWith(c)",
                                  arg=host.code, polling=POLL, timeout=WAIT)  # the only table: chosen already
        teacher.click('.cgt-show')
        teacher.wait_for_selector('.cgt-projector-link', timeout=WAIT)
        shown = teacher.context.new_page()  # the projector page (`/teacher/show`), beside the console: the teacher's cookie
        shown.goto(f'http://{addr}/teacher/show', timeout=WAIT)
        titled(shown, 'Projector · Card games tutor')
        deck = set(mirror.game.deck())
        shown.wait_for_function("n => document.querySelectorAll('.cgt-proj-table [data-card]').length >= n", arg=len(deck), polling=POLL, timeout=WAIT)
        assert cards_named(_public(shown.content()), deck) == deck  # every card of every hand
        on_table = shown.inner_text('.cgt-proj-table')
        assert all(s.name in on_table for s in students) and '(Seat ' not in on_table, on_table  # every student by name, as their pages name them
        assert '12' not in shown.inner_text('.cgt-proj-head') and 'seed' not in shown.inner_text('body').lower()  # no seed
        play_moves(students, mirror, 2, shown)
        for s in students:
            found = leaks(s, hidden_from(mirror, s.seat))
            assert not found['dom'] and not found['state'], f"Seat {s.seat}'s page holds another seat's cards: {found}"

        # pause: every seat is told (a phone at the top of its screen, scrolled down to its cards); no card lit, a click
        # answered with the pause's short line (the teacher's message stays in the banner alone); step back in the teaching view; resume
        teacher.fill('.cgt-reason input', 'look at the first trick')
        teacher.click('.cgt-pause')
        said = 'Your teacher paused the table: look at the first trick.'
        for s in students: s.wait_waiting(said)
        p = phone.page
        p.wait_for_selector('.cgt-pause-banner[role=alert]', timeout=WAIT)
        p.evaluate("() => { for (const e of [document.scrollingElement, ...document.querySelectorAll('main.solara-content-main > div')]) e.scrollTop = e.scrollHeight; }")
        p.wait_for_function("() => document.querySelector('.cgt-table-info').getBoundingClientRect().bottom < 0", polling=POLL, timeout=WAIT)  # scrolled past the bar
        box = p.locator('.cgt-pause-banner').bounding_box()
        assert box and box['y'] >= 0 and box['y'] + box['height'] <= 844 and box['width'] >= 380, box  # in view, across the phone
        assert said in p.inner_text('.cgt-pause-banner') and p.is_visible('.cgt-pause-banner')
        turn = next(s for s in students if s.seat == mirror.to_act)
        assert turn.page.locator('button.cgt-card.cgt-legal').count() == 0  # nothing lit
        for s in students: assert s.page.locator(BOT).is_disabled(), s.name  # no page may have the bot move for it
        turn.page.locator('button.cgt-card').first.click()
        turn.page.wait_for_function("t => document.querySelector('.cgt-message.cgt-info')?.innerText.includes(t)", arg=PAUSED_LINE, polling=POLL, timeout=WAIT)
        assert 'rule' not in turn.page.inner_text('.cgt-message') and turn.moves() == 2
        assert said not in turn.page.inner_text('.cgt-message') and said in turn.page.inner_text('.cgt-pause-banner')  # the message once: in the banner
        shown.click('.cgt-proj-back')  # the projector held one move back (from the table's moment)
        shown.wait_for_function("() => document.querySelector('.cgt-proj-head')?.innerText.includes('Held at move 1 of 2')", polling=POLL, timeout=WAIT)
        teacher.click('.cgt-resume')
        for s in students: s.page.wait_for_function("() => !document.querySelector('.cgt-waiting')?.innerText.includes('paused')", polling=POLL, timeout=WAIT)
        p.wait_for_selector('.cgt-pause-banner', state='detached', timeout=WAIT)  # gone with the resume
        play_moves(students, mirror, 1)  # the projector held where it was (its page told of the new move: one more behind it)
        shown.wait_for_function("() => document.querySelector('.cgt-proj-head')?.innerText.includes('Held at move 1 of 3')", polling=POLL, timeout=WAIT)
        shown.click('.cgt-proj-live')
        shown.wait_for_function("() => document.querySelector('.cgt-proj-head')?.dataset.moves == '3'", polling=POLL, timeout=WAIT)

        # set an exercise for everyone: a match is under way, so the console asks beside the button first
        teacher.select_option('.cgt-kind select', label='a prepared exercise')
        teacher.select_option('.cgt-exercise select', label=f"Begga Kaat: {EXERCISES['begga-kaat-95'].title}")  # each after its game's name
        teacher.click('.cgt-set-work')
        teacher.wait_for_selector('.cgt-confirm-work', state='visible', timeout=WAIT)
        asked = teacher.inner_text('.cgt-work-line')
        assert f'3 matches are under way: table {host.code}' in asked and '. The exercise “' in asked and 'replaces them now' in asked, asked  # the table and two students alone
        assert all(s.moves() == 3 for s in students)  # asked, not set
        button, line = teacher.locator('.cgt-confirm-work').bounding_box(), teacher.locator('.cgt-work-line').bounding_box()
        assert 0 <= line['y'] and line['y'] + line['height'] <= 768 and abs(line['y'] - button['y']) < 80, (line, button)  # in view, beside the button
        assert cut_buttons(teacher) == []  # “Yes, set the work now” whole too
        teacher.click('.cgt-confirm-work')
        teacher.wait_for_function("() => document.querySelector('.cgt-work-line')?.innerText.startsWith('Set the exercise')", polling=POLL, timeout=WAIT)
        for s in students: s.wait_moves(0)
        solo.page.wait_for_function("() => document.querySelector('.cgt-message')?.innerText.includes('Your teacher set this work')", polling=POLL, timeout=WAIT)
        glance_has(teacher, 'work: the exercise')
        teacher.select_option('.cgt-kind select', label='an uploaded hand record')
        teacher.wait_for_selector('.cgt-record', state='visible', timeout=WAIT)
        assert not teacher.is_visible('.cgt-exercise') and cut_buttons(teacher) == []  # the record's fields only, whole

        # a drill answered appears in the teacher's results, by the name the student typed, right and wrong counted
        drill.page.wait_for_selector('.cgt-drill button', timeout=WAIT)
        drill.page.locator('.cgt-drill .widget-hbox button').first.click()
        teacher.wait_for_function("() => /Fay: .* \\(Kočka\\): \\d right, \\d wrong/.test(document.querySelector('.cgt-results')?.innerText)", polling=POLL, timeout=WAIT)
        head, *rows = csv_rows(teacher, 'answers')
        assert head == ['student', HEADS['at'], 'game', 'rule', 'right', 'wrong', HEADS['key']], head
        assert any(r[0] == 'Fay' and r[2] == 'Kočka' and r[3] in KOCKA_RULES and '/' not in r[3] and ISO.fullmatch(r[1]) and r[-1] for r in rows), rows

        # a short game for the table (Maghe Satra, seed 5), played out by the students' “bot plays my move”, the projector
        # following; the hands export has a row per student: their name, an ISO date, the hand's number, a number per seat
        # (the same in every row), the seed, and the result the pages showed
        teacher.select_option('.cgt-kind select', label='a game and seed')
        teacher.select_option('.cgt-game select', label='Maghe Satra')
        teacher.select_option('.cgt-players select', label='4 (usual)'); teacher.fill('.cgt-seed input', '5')
        teacher.select_option('.cgt-target select', label='every table')
        teacher.click('.cgt-set-work')
        teacher.wait_for_function("() => document.querySelector('.cgt-work-line')?.innerText.startsWith('Set Maghe Satra, seed 5')", polling=POLL, timeout=WAIT)
        for s in students:
            s.wait_moves(0); s.page.wait_for_function("() => document.querySelector('.cgt-message')?.innerText.includes('Maghe Satra, seed 5')", polling=POLL, timeout=WAIT)
        result = play_out_hand(students, shown)
        for _ in range(100):  # the server records a finished hand at its next beat (about a second)
            hands = [dict(zip(h, r)) for h, *rows in [csv_rows(teacher, 'hands')] for r in rows]
            mine = [r for r in hands if r['game'] == 'Maghe Satra' and r[HEADS['place']] == host.code]
            if len(mine) >= len(students): break
            time.sleep(0.2)
        assert sorted(r['student'] for r in mine) == sorted(s.name for s in students), mine  # every student, by name, once
        assert all(ISO.fullmatch(r[HEADS['at']]) and r[HEADS['hand']] == '1' and r[HEADS['seed']] == '5' for r in mine), mine
        assert all(r['seat'] == str(s.seat) for s in students for r in mine if r['student'] == s.name)
        points = {tuple(r[HEADS['every']].split(' · ')) for r in mine}
        assert len(points) == 1 and sorted(next(iter(points))) == ['0', '0', '0', '1'], points  # one game point, to the hand's winner
        assert all(r[HEADS['own']] == next(iter(points))[int(r['seat'])] for r in mine)  # each student's own, on their row
        assert all(r['result'] and r['result'] in result for r in mine), (result, mine)  # the result the pages showed, the students by name

        # a solo page closed (no goodbye sent: its websocket simply gone) is away within seconds, not after --cull (60 s)
        solo.close()
        closed = time.monotonic()
        teacher.wait_for_function("() => document.querySelector('.cgt-glance-box')?.innerText.includes('solo: Eli (away)')", polling=POLL, timeout=AWAY_WAIT)
        assert time.monotonic() - closed < AWAY_WAIT / 1000
