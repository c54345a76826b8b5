"""A student playing alone who reloads the class page (or whose phone drops the tab and opens it again) gets their game
back: the same match (the teacher's work, the moves so far, the seat), the name filled in, one row on the teacher's
glance under that name, and a line saying it is their game from before. Only in the same browser (another browser's key
never reaches it), only for a page opened without a link, and only for the hold (`seat_hold`); a second tab takes the
game over and the first says so. Pages are `Lobby` objects on a `Classroom`, as the server makes them (no browser)."""
from cardgames_tutor.serve.lobby import Lobby
from cardgames_tutor.serve.room import Classroom, TableOptions
from cardgames_tutor.serve.teacher import Console, make_work
from cardgames_tutor.serve.teacher_page import glance_html

class Clock:
    def __init__(self): self.t = 1000.0
    def __call__(self): return self.t

def a_student_at_work(hold=120.0):
    "A class with a clock; Cy plays alone, named, the teacher set her a Kočka match (seed 31), and she made a move."
    clock = Clock()
    room = Classroom(TableOptions(seat_hold=hold), now=clock)
    cy = Lobby(room, 'b-cy', '')
    cy.name_box.value = 'Cy'
    console = Console(room)
    assert [ok for _, ok, _ in console.set_work(make_work('game', game='kocka', seed=31), 'solo')] == [True]
    s = cy.solo.session
    assert s.match.to_act == s.seat and s.act(s.match.legal_actions()[0])  # her own move (the bots before her played at once)
    s.run_bots()  # and the bots' after it, as her page plays them
    return clock, room, console, cy

def test_a_reload_gives_the_student_her_game_her_name_and_one_row():
    clock, room, console, cy = a_student_at_work()
    before, seat, pid = list(cy.solo.session.match.actions), cy.solo.session.seat, cy.solo_page.id
    cy.close()  # the tab reloaded: its page's session closes
    assert [(s['name'], s['connected']) for s in console.glance()['solo']] == [('Cy', False)]  # kept, away meanwhile
    clock.t += 60
    again = Lobby(room, 'b-cy', '')  # the same browser opens the class page again
    s = again.solo.session
    assert (again.mode, s.game.name, s.match.actions, s.seat) == ('solo', 'kocka', before, seat)  # her match, as she left it
    assert again.name_box.value == 'Cy' and 'your game from before' in again.guide.value
    assert 'Your teacher set this work:' in again.guide.value, again.guide.value  # the work, told again (it was lost on a reload)
    rows = console.glance()['solo']
    assert [(r['id'], r['name'], r['connected']) for r in rows] == [(pid, 'Cy', True)]  # one row, under her name, here again
    assert 'solo: Cy (here)' in glance_html(console.glance())
    assert s.match.to_act != s.seat or s.act(s.match.legal_actions()[0])  # and she plays on
    again.close()

def test_another_browser_never_gets_it():
    "The leak test: a page of another browser (another key) gets a game of its own, and the kept one stays Cy's."
    clock, room, console, cy = a_student_at_work()
    kept = cy.solo.session
    cy.close()
    lee = Lobby(room, 'b-lee', '')
    assert lee.solo.session is not kept and lee.name_box.value == '' and not lee.again and 'from before' not in lee.guide.value
    assert lee.solo.session.match.actions != kept.match.actions
    assert sorted((r['name'] or '', r['connected']) for r in console.glance()['solo']) == [('', True), ('Cy', False)]
    back = Lobby(room, 'b-cy', '')
    assert back.solo.session is kept
    for p in (lee, back): p.close()

def test_after_the_hold_the_page_is_fresh():
    clock, room, console, cy = a_student_at_work(hold=30)
    kept = cy.solo.session
    cy.close()
    clock.t += 29.9; room.step()
    assert [r['name'] for r in console.glance()['solo']] == ['Cy']
    clock.t += 1.1; room.step()  # the hold is over: forgotten at the next look (the pacer looks once a second)
    assert console.glance()['solo'] == []
    fresh = Lobby(room, 'b-cy', '')
    assert fresh.solo.session is not kept and fresh.name_box.value == '' and 'from before' not in fresh.guide.value
    fresh.close()

def test_a_link_still_opens_what_it_asks_for():
    "A tutorial link (a game, a seed) or a table's link opens what it asks for; the game kept waits for a page without one."
    clock, room, console, cy = a_student_at_work()
    kept = cy.solo.session
    cy.close()
    linked = Lobby(room, 'b-cy', '?game=begga-kaat&seed=3')
    assert (linked.solo.session.game.name, linked.name_box.value, linked.again) == ('begga-kaat', '', False)
    joined = Lobby(room, 'b-cy', '?table=kq7m2x')
    assert (joined.mode, joined.solo) == ('join', None)
    back = Lobby(room, 'b-cy', '')
    assert back.solo.session is kept
    for p in (linked, joined, back): p.close()

def test_a_second_tab_takes_the_game_over_and_the_first_says_so():
    "Table rule: the page opened since takes the game; the first tab's panel closes and says where it went; one row."
    clock, room, console, cy = a_student_at_work()
    kept = cy.solo.session
    tab = Lobby(room, 'b-cy', '')  # the first tab still open
    assert tab.solo.session is kept and tab.name_box.value == 'Cy'
    assert (cy.solo, cy.body.children) == (None, ()) and 'went on in a page of this browser' in cy.guide.value
    assert [r['name'] for r in console.glance()['solo']] == ['Cy']
    cy.close()  # the first tab closed later: the game stays the second tab's
    assert [(r['name'], r['connected']) for r in console.glance()['solo']] == [('Cy', True)]
    cy2 = Lobby(room, 'b-cy', '')  # and a third page, the second being open still, takes it in turn
    assert cy2.solo.session is kept and tab.solo is None
    for p in (tab, cy2): p.close()

def test_a_reload_before_the_old_page_closes_takes_the_lost_page_first():
    "A reload: the old page's connection is lost but Solara keeps its session (--cull); the new page takes that game, not another tab's."
    clock, room, console, cy = a_student_at_work()
    kept = cy.solo.session
    room.pages[cy.solo_page.id].alive = lambda: False  # its websocket gone
    other_tab = Lobby(room, 'b-cy', '?game=kocka&seed=4')  # a tutorial link in another tab: not a game to take back
    again = Lobby(room, 'b-cy', '')
    assert again.solo.session is kept and other_tab.solo is not None
    assert sorted(r['name'] or '' for r in console.glance()['solo']) == ['', 'Cy']
    for p in (cy, other_tab, again): p.close()

def test_work_set_while_the_page_was_closed_is_there_on_return():
    clock, room, console, cy = a_student_at_work()
    cy.close()
    console.set_work(make_work('game', game='begga-kaat', seed=7, players=3), 'solo')
    back = Lobby(room, 'b-cy', '')
    assert back.solo.session.game.name == 'begga-kaat' and 'Your teacher set this work' in back.solo.session.message.text
    back.close()

def test_the_hands_played_before_a_reload_are_recorded_once():
    "The game taken back keeps its page's id: the keeper of results sees the same match and records its finished hand once."
    from cardgames_tutor.practice.results import Results
    from cardgames_tutor.serve.teacher_server import ClassKeeper
    clock, room, console, cy = a_student_at_work()
    results = Results(':memory:')
    keeper = ClassKeeper(room, results, console)
    s = cy.solo.session
    while not s.match.hands[0].is_over:
        if s.match.to_act == s.seat: assert s.act(s.match.legal_actions()[0])
        else: s.run_bots()
    assert keeper.beat() == 1
    cy.close()
    assert keeper.beat() == 0  # kept: the same page, the same match
    back = Lobby(room, 'b-cy', '')
    assert back.solo.session is s and keeper.beat() == 0 and results.mine('b-cy').hands() == 1
    back.close()


def test_enter_in_the_name_box_alone_takes_the_name_and_refuses_nothing():
    """Playing alone, pressing Enter in "Your name" tried to join a table: the page said "a table code is 6 letters and
    digits ..." under the game. Alone, Enter takes the name as typed, and says nothing."""
    room = Classroom()
    cy = Lobby(room, 'b-cy', '')
    cy.name_box.value = 'Cy'
    cy.name_box._submission_callbacks(cy.name_box)  # Enter
    assert cy.said.value == '' and cy.mode == 'solo' and cy.solo_page.name == 'Cy', cy.said.value
    cy.close()
