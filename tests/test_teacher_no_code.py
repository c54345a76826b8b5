"""No code on a teacher's screen (issue 50, item 5): the teacher's page, the projector page and the CSV exports of a
class that has played a hand of every game, with mistakes, name rules and cards in words.

The class: a table of every game (every seat a named student, each playing at random: mistakes the review finds),
a solo student per game, drill answers on every rule each game drills (wrong and right, the rules every game shares
too), a seat's hand at each table reviewed. Then everything the teacher reads is searched with
tests/test_no_code_on_screen.py's patterns (a rule id `game/rule`, a bare card code, `trump C`, a tag, a Python value)
and a few more for Python values (`[]`, `['`, `()`, an object's repr):
- the teacher's page: every text of every widget (the class at a glance, the results, what each button said, the
  labels, tooltips and choices), after pausing a table, showing each table and playing "what if";
- the projector page: each table at every move of its hand, live, held and in "what if" (Dehla Pakad's hand a deal);
- the four CSV exports: every cell but the key columns (`student_key`, `tactic_id`: named for programs), each row
  searched with its game's pack.
"""
import csv, io, random, re
import pytest
from cardgames_tutor.core.engine import ENGINE_RULES
from cardgames_tutor.core.registry import games, get_game
from cardgames_tutor.practice.drills import drill_set
from cardgames_tutor.practice.results import HEADS, Results
from cardgames_tutor.serve.projector import ProjectorPage, projector_parts
from cardgames_tutor.serve.room import Classroom, StudentPage
from cardgames_tutor.serve.teacher import Console
from cardgames_tutor.serve.teacher_page import TeacherPage
from cardgames_tutor.serve.teacher_server import ClassKeeper
from cardgames_tutor.coach.search import review
from cardgames_tutor.ui.looks import widget_tree
from cardgames_tutor.ui.seat import SeatSession
from cardgames_tutor.ui.session import Session
from test_no_code_on_screen import problems, html_text

PYTHON = re.compile(r"\[\]|\['|\[\d+(?:\.\d+)?(?:, \d+(?:\.\d+)?)+\]|\(\)|<[\w.]+ object at|\bnan\b|\bTraceback\b|Error\b")
KEYS = (HEADS['key'],)  # the student's code, its header saying what it is for: not read as words

def found_in(where:str, text:str, pack) -> list:
    "The code in `text` (`problems`), and a Python value the generic patterns leave out."
    out = problems(where, text, pack)
    for line in str(text).splitlines():
        m = PYTHON.search(line)
        if m: out.append(f"{where}: a Python value: {m.group(0)!r} in {line.strip()[:200]!r}")
    return out

def widget_texts(root) -> list:
    "Every text a widget tree shows: values (HTML as its text), labels, tooltips, placeholders and the names of its choices."
    out = []
    for w in widget_tree([root]):
        for attr in ('value', 'description', 'tooltip', 'placeholder'):
            v = getattr(w, attr, None)
            if isinstance(v, str) and v: out.append((f"{type(w).__name__}.{attr}", html_text(v)))
        for o in getattr(w, 'options', None) or ():
            out.append((f"{type(w).__name__} choice", str(o[0] if isinstance(o, tuple) else o)))
    return out

def a_class():
    "(console, tables, solo pages): a table of every game played through its first hand at random, drills and reviews kept."
    results, room = Results(':memory:'), Classroom()
    keeper, tables, solos = ClassKeeper(room, results), [], []
    for gi, name in enumerate(sorted(games())):
        game, rng = get_game(name), random.Random(gi)
        names = [f"{name.split('-')[0].title()} {i}" for i in range(game.n_seats())]
        first = room.open_table(f"b-{name}-0", name, names[0], seed=gi + 11)
        tickets = [first] + [room.join_table(f"b-{name}-{i}", first.code, n) for i, n in enumerate(names[1:], 1)]
        t, tokens = room.table(first.code), {k.seat: k.token for k in tickets}
        for i, k in enumerate(tickets):
            room.add_page(StudentPage(f"p-{name}-{i}:table", f"b-{name}-{i}", 'table', SeatSession(room.tables, k.token), names[i], t.code))
        for i in range(3000):
            if t.match.hands[0].is_over: break
            assert t.act(tokens[t.match.to_act], rng.choice(t.match.legal_actions()), f"m{gi}-{i}").ok
        solo = room.add_page(StudentPage(f"s-{name}:solo", f"b-solo-{name}", 'solo', Session(name, seed=gi), name=f"Solo {gi}"))
        keeper.beat()
        rules = sorted({q.rule for q in drill_set(name, None, 40, gi)})
        assert set(ENGINE_RULES) & set(rules), name  # the rules every game shares are drilled too
        for j, rule in enumerate(rules):
            results.mine(f"b-{name}-{j % 2}").answered(name, rule, j % 3 == 0)
        results.mine(solo.browser).answered(name, rules[-1], False)
        seat, items = next((seat, x) for seat in range(game.n_seats()) if (x := review(t.match, seat=seat, hand_no=1, budget=0.02, top=3)))
        results.mine(f"b-{name}-{seat}").reviewed(name, items)
        tables.append(t); solos.append(solo)
    keeper.beat()
    return Console(room, results), tables, solos

@pytest.fixture(scope='module')
def played():
    return a_class()

def test_the_teachers_page_shows_no_code(played):
    console, tables, _ = played
    page = TeacherPage(console)
    found = []
    def look(when):
        packs = [t.match.game.pack for t in tables]
        for where, text in widget_texts(page):
            found.extend(p for pack in packs for p in found_in(f"teacher's page ({when}), {where}", text, pack))
    look('as opened')
    for t in tables:
        page.table_choice.value, page.reason_box.value = t.code, 'look at the last trick'
        page.pause_button.click(); page.show_button.click(); page.what_if_button.click()
        look(f"{t.match.game.title} paused, shown and in what if")
        page.refresh_button.click(); page.resume_button.click()
    page.kind_choice.value, page.target_choice.value = 'game', 'all'
    page.set_button.click()
    look('asked about the work')
    page.cancel_button.click()
    assert 'last missed' in page.glance_box.value and 'right' in page.results_box.value  # the texts searched are there
    assert not found, '\n'.join(sorted(set(found))[:30])

def hand_word(where:str, parts:dict, game) -> list:
    "A hand called 'hand' on the projector in a game with a word of its own for it (Dehla Pakad: deal)."
    word = getattr(game, 'LEARNER_WORDS', {}).get('hand', 'hand')
    if word == 'hand': return []
    return [f"{where}, {k}: 'hand' for {word!r}: {html_text(v)[:160]!r}" for k, v in parts.items() if k in ('head', 'said') and re.search(r"\b[Hh]and \d", html_text(v))]

def test_the_projector_page_shows_no_code(played):
    console, tables, _ = played
    found = []
    for t in tables:
        lesson, pack = console.show(t.code), t.match.game.pack
        n = len(t.match.actions)
        for at in range(n + 1):
            lesson.step(at)
            parts = projector_parts(lesson)
            found += [p for k, v in parts.items() for p in found_in(f"projector, {t.match.game.title}, move {at}, {k}", html_text(v), pack)]
            found += hand_word(f"projector, {t.match.game.title}, move {at}", parts, t.match.game)
        lesson.step(max(0, n // 2))
        assert lesson.what_if()
        for i in range(40):  # the teacher plays on in the copy: the seat's moves said to the class
            s = lesson.session
            if s.review is not None or s.match.over: break
            lesson.press(s.match.legal_actions()[-1])
            parts = projector_parts(lesson)
            found += [p for k, v in parts.items() for p in found_in(f"projector, {t.match.game.title}, what if {i}, {k}", html_text(v), pack)]
            found += hand_word(f"projector, {t.match.game.title}, what if {i}", parts, t.match.game)
        page = ProjectorPage(console)
        found += [p for where, text in widget_texts(page) for p in found_in(f"projector page, {t.match.game.title}, {where}", text, pack)]
        page.close(); lesson.live()
    assert not found, '\n'.join(sorted(set(found))[:30])

@pytest.mark.parametrize('kind', ['summary', 'answers', 'hands', 'decisions'])
def test_the_csv_exports_show_no_code(played, kind):
    console, tables, _ = played
    head, *rows = list(csv.reader(io.StringIO(console.csv_text(kind).lstrip('\ufeff'), newline='')))
    assert rows and set(h for h in head if h in KEYS) <= set(head[-1:])  # the key last, after what the teacher reads
    found = [p for h in head for p in found_in(f"{kind} header", h, tables[0].match.game.pack)]
    for row in rows:
        r = dict(zip(head, row))
        pack = next(get_game(n) for n, g in games().items() if g.title == r['game']).pack  # the game by its name
        found += [p for h, v in r.items() if h not in KEYS for p in found_in(f"{kind}, {h}", v, pack)]
    assert not found, '\n'.join(sorted(set(found))[:30])

def test_the_search_catches_code_in_a_teachers_text():
    "The search itself: what the teacher's texts once said is caught; the words that replaced it are not."
    kocka, beggars = get_game('kocka').pack, get_game('beggars-and-thieves').pack
    for pack, text in [(kocka, 'Seat 1: Bo (here), 0 of 3 drill answers right; last missed kocka/follow'), (kocka, 'Bo: kocka/letter (The loser): 0 right'),
                       (beggars, 'played: T6'), (kocka, 'hands: []'), (kocka, "cards: ['QL']"), (kocka, 'points [0, 3, 21, 2]'),
                       (kocka, 'Hint: trump C'), (kocka, 'None')]:
        assert found_in('x', text, pack), text
    for pack, text in [(kocka, 'last missed: Following the led suit (Kočka)'), (beggars, 'played: 6 Thief'), (kocka, 'Kočka: 0 · 3 · 21 · 2')]:
        assert not found_in('x', text, pack), text
