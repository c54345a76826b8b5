"""A student's seat at a table as a session (ui/seat.py): in every game and variant, the seats' sessions play whole
hands through the session API only, as a panel presses (cards clicked, cards chosen for a pass or a bury, moves,
next hand), with double presses, presses out of turn, resent requests, a leave and a return; at every step each
session's view, log, message, status and record are scanned for cards its seat may not see (the independent
`may_see`), and the sessions agree on the public state."""
import inspect, json, random, re
import pytest
from cardgames_tutor.core.cards import Card
from cardgames_tutor.core.registry import games, get_game
from cardgames_tutor.core.actions import Move
from cardgames_tutor.core.records import to_record
from cardgames_tutor.tables.class_tables import Tables
from cardgames_tutor.tables.seats import TableError
from cardgames_tutor.ui.seat import SeatSession, TEACH_AT_TABLE, PAUSED_LINE, new_request_id
from cardgames_tutor.ui.session import Session
from helpers import cards_in, may_see

SETUPS = [(name, n) for name, info in games().items() for n in info.players]  # all five games, every variant
NAMES = ['Asha', 'Bo', '<b>Chidi</b>', 'Dana']

def options(name, n) -> dict: return {'players': n} if len(games()[name].players) > 1 else {}

class Clock:
    def __init__(self): self.t = 1000.0
    def __call__(self): return self.t

def at_end(hand) -> set:
    "Cards buried face down that the count at a finished hand's end shows (see tests/test_tables.py)."
    if hand.phase != 'over': return set()
    return {c for _, a in hand.history if isinstance(a, Move) and a.verb == 'bury' for c in a.cards}

def allowed(hand, seat) -> set: return may_see(hand, seat) | at_end(hand)

def called(view, pack) -> set: return cards_in([m for m in view.get('legal') or () if isinstance(m, Move) and m.verb == 'call'], pack)

def one_line(text):
    assert text and '\n' not in text and len(text) < 240, repr(text)


# ---------------------------------------------------------------- the scan of one session

def assert_session_clean(s:SeatSession):
    """Everything the session would hand a panel names no card its seat may not see: the view and controls of the
    moment shown (against that moment's hand), each log row (against its own hand), the message and the status line."""
    seat, pack, match = s.seat, s.game.pack, s._table.match  # the truth: the table's match (the page holds a `SeatMatch`)
    shown, i = s.shown()._match, s.shown_hand()
    hand = shown.hands[i]
    view = s.view(seat)
    assert view['seat'] == seat
    rest = {k: v for k, v in view.items() if k not in ('table', 'events')}
    rest['events'] = [e.text for e in hand.events if e.seen_by(seat) and e.kind != 'dealer']  # the lot: a public shuffle
    calls, seen = called(view, pack), allowed(hand, seat)  # worked out once for the whole scan: nothing changes during it
    leaked = cards_in(rest, pack) - seen - calls
    assert not leaked, f"Seat {seat}'s session view leaks {sorted(map(str, leaked))} ({hand.phase})"
    controls = s.controls()
    leaked = cards_in(list(controls), pack) - seen - calls
    assert not leaked, f"Seat {seat}'s controls leak {sorted(map(str, leaked))}"
    seen_in = {}  # what the seat may see in each hand of the table's match, by hand number (once for all its log rows)
    for h, e, _ in s.log(None):
        assert e.seen_by(seat), f"Seat {seat}'s log holds an event it may not see: {e.text}"
        if e.kind == 'dealer': continue
        if h not in seen_in: seen_in[h] = allowed(match.hands[h - 1], seat)
        leaked = event_cards(e, pack) - seen_in[h] - calls
        assert not leaked, f"Seat {seat}'s log row {e.text!r} leaks {sorted(map(str, leaked))}"
    names = cards_in(NAMES, pack)  # a name may read as a card: it names none of the deal
    recent = [match.hands[-1]] + ([match.hands[-2]] if len(match.hands) > 1 else [])  # the message: this hand or the one just over
    mine = set().union(*(allowed(h, seat) for h in recent)) | calls | names
    words = [re.sub(r'\bas\b', '', x) for x in (s.message.text, s.status().text)]  # the word 'as' ("as you left it"), not the ace of spades
    leaked = cards_in(words, pack) - mine
    assert not leaked, f"Seat {seat}'s message or status leaks {sorted(map(str, leaked))}: {s.message.text!r}"
    assert 'seed' not in s.status().text and 'seed' not in repr(s)


_EVENT_CARDS = {}  # id(event) -> (event, the cards of its pack its text and data name): an event is not changed once made

def event_cards(e, pack) -> set:
    "`cards_in([e.text, e.data], pack)`, worked out once for each event: every step's scan reads the whole log again."
    got = _EVENT_CARDS.get(id(e))
    if got is None or got[0] is not e: got = _EVENT_CARDS[id(e)] = (e, cards_in([e.text, e.data], pack))
    return got[1]


def assert_record_clean(s:SeatSession):
    "The record offered holds exactly the finished hands of the match, without the seed; None before one is finished."
    done = sum(h.is_over for h in s.match.hands)
    text = s.record_json(every_hand=True)
    if not done: assert text is None; return
    record, whole = json.loads(text), json.loads(json.dumps(to_record(s._table.match), default=str))
    assert 'seed' not in record and len(record['hands']) == done
    assert record['hands'] == whole['hands'][:done]


PUBLIC = ('to_act', 'phase', 'dealer', 'trick', 'trick_no', 'hand_sizes', 'standing', 'hand_no', 'match_over', 'players')

def assert_agree(sessions, away=None):
    "The live sessions with a page open agree on the public state: the table's facts (but whom each is told it waits for) and the view's public parts."
    live = [s for s in sessions if s.live and s.review is None and s is not away]
    facts = [{k: v for k, v in s.latest['table'].items() if k not in ('waiting', 'seats')} for s in live]
    for f, s in zip(facts, live): f['seats'] = [{k: v for k, v in x.items() if k != 'you'} for x in s.latest['table']['seats']]
    assert all(f == facts[0] for f in facts), [repr(f) for f in facts]
    public = [{k: repr(s.view(s.seat).get(k)) for k in PUBLIC} for s in live]
    assert all(p == public[0] for p in public), public


def test_the_scan_catches_a_leak():
    "The scan is not blind: another seat's card in the message, or another seat's view, is caught."
    tables = Tables()
    a = tables.open('begga-kaat', 'Asha', seed=3)
    s = SeatSession(tables, a.token)
    assert_session_clean(s)
    other = s._table.match.hand.deal['hands'][1][0]
    s.say('info', f"Seat 1 holds {other}.")
    with pytest.raises(AssertionError, match='leaks'): assert_session_clean(s)
    s.say('info', '')
    s.latest = tables.find(a.code)._view(1) | {'seat': 0}  # another seat's cards in the view
    with pytest.raises(AssertionError, match='leaks'): assert_session_clean(s)


# ---------------------------------------------------------------- whole hands, pressed as a panel presses

def press(s:SeatSession, rng) -> bool:
    "One press of the student at `s`, as the panel would: next hand, a card, cards chosen then their verb, or a move."
    if s.review is not None: return s.next_hand()
    c = s.controls()
    if c.choose:
        verb = rng.choice(sorted(c.choose))
        move = rng.choice(c.choose[verb])
        for card in list(s.selected): s.click_card(card)  # put back what was chosen before
        for card in move.cards: assert s.click_card(card)
        assert set(s.selected) == set(move.cards)
        return s.choose(verb)
    options_ = c.cards + c.plain
    if not options_: return False
    item = rng.choice(options_)
    return s.click_card(item) if isinstance(item, Card) else s.act(item)


def play(name, players, seed, hands=2):
    rng, clock = random.Random(seed), Clock()
    tables = Tables(hold=30, now=clock)
    n = get_game(name, **options(name, players)).n_seats()
    students = min(n, 4)
    host = tables.open(name, NAMES[0], seed=seed, **options(name, players))
    tickets = [host] + [tables.join(host.code, NAMES[k]) for k in range(1, students)]
    table = tables.find(host.code)
    sessions = [SeatSession(tables, t.token) for t in tickets]
    told = [0] * students
    for k, s in enumerate(sessions): s.on_change(lambda _, k=k: told.__setitem__(k, told[k] + 1))
    if not table.started:
        assert not sessions[1].act(sessions[1].controls().hand[0]) and sessions[1].message.rule == 'table/not-started'
        assert table.start(host.token).ok
    counts = {'double': 0, 'out_of_turn': 0, 'resent': 0, 'away': 0, 'stepped': 0}
    away = None
    for step in range(5000):
        if table.match.over or (sum(h.is_over for h in table.match.hands) >= hands and step >= 40): break  # short hands: play on
        table.run_bots()  # the server plays the seats without a student
        for s in sessions:
            if s is not away: assert_session_clean(s)  # a closed page: nothing is drawn
        assert_agree(sessions, away)
        if step % 7 == 0:
            for s in sessions: assert_record_clean(s)
        to = table.match.to_act
        waiting = [s for s in sessions if s.seat != to and s.review is None and s.controls().hand]
        before = len(table.match.actions)
        r = rng.random()
        if r < 0.1 and waiting:  # a press out of turn: refused in one line, naming whom the table waits for
            s = rng.choice(waiting)
            assert not s.click_card(rng.choice(s.controls().hand))
            one_line(s.message.text)
            assert s.message.kind == 'refused' and s.message.rule in ('table/turn', 'match-over'), s.message
            if table.bot_due is None and to < students: assert f"Seat {to}" in s.message.text and 'to play' in s.message.text
            assert len(table.match.actions) == before
            counts['out_of_turn'] += 1
            continue
        if r < 0.14 and away is None and to < students and sessions[to].review is None:  # the student to act leaves
            away = sessions[to]
            assert away.leave()
            assert all(x.latest['table']['seats'][to]['state'] == 'away' for x in sessions if x is not away)
            if rng.random() < 0.5: clock.t += 31  # the hold runs out: a bot plays the seat
            counts['away'] += 1
            continue
        if away is not None and rng.random() < 0.3:  # ... and comes back: the seat is theirs, the session up to date
            assert away.back() and away.latest['table']['seats'][away.seat]['state'] == 'here'
            assert away.latest == table.view(away.token)
            away = None
            continue
        if r < 0.2:  # looking back one move, then back to play: a press while looking back is refused
            s = rng.choice(sessions)
            if s is not away and s.review is None and table.match.actions:
                s.step_by('back')
                assert not s.live and not s.click_card((s.controls().hand or [None])[0])
                assert s.message.text.startswith('You are looking back')
                assert_session_clean(s)
                s.step_by('last')
                counts['stepped'] += 1
            continue
        if to >= students or sessions[to] is away: continue
        s = sessions[to]
        if s.review is not None: s.next_hand(); continue
        if r < 0.3:  # a resent request: applied once
            c = s.controls()
            action = rng.choice(c.cards + c.plain + [m for ms in c.choose.values() for m in ms])
            rid = new_request_id()
            assert s.act(action, rid)
            s.act(action, rid)
            assert len(table.match.actions) == before + 1
            counts['resent'] += 1
            continue
        done = press(s, rng)
        assert done, s.message
        assert len(table.match.actions) == before + 1 and table.match.actions[-1][1] == s.seat
        if rng.random() < 0.3 and table.match.actions and isinstance(table.match.actions[-1][2], Card):
            again = table.match.actions[-1][2]  # a double click on the card just played
            n_now = len(table.match.actions)
            if s.review is None and not s.controls().choose:  # (a finished hand on screen, or a pass to choose: the click does something else)
                assert not s.click_card(again) and s.message.kind == 'refused', s.message  # played already: refused, by the rules or the turn
                one_line(s.message.text)
                assert len(table.match.actions) == n_now
                counts['double'] += 1
    else: pytest.fail("the hands did not finish")
    if away is not None: assert away.back()  # a closed page is drawn again only once it is back
    for s in sessions: assert_session_clean(s); assert_record_clean(s)
    assert all(told), "a session was never told of a change"
    assert sum(h.is_over for h in table.match.hands) >= min(hands, len(table.match.hands))
    return counts


@pytest.mark.parametrize('name,players', SETUPS)
def test_seats_play_whole_hands_through_their_sessions(name, players):
    total = {}
    for seed in (1, 2, 3):
        for k, v in play(name, players, seed).items(): total[k] = total.get(k, 0) + v
    assert total['away'] and total['out_of_turn'] + total['stepped'] >= 2, total  # the seeds reach the odd presses
    assert total['double'] or name == 'maghe-satra', total  # Maghe Satra plays no card to a trick


# ---------------------------------------------------------------- what a seat cannot do

def test_a_session_acts_for_its_own_seat_only():
    "No press names a seat or a token: the session's token is its seat; a made-up or taken-over token holds nothing."
    for fn in (SeatSession.act, SeatSession.click_card, SeatSession.choose, SeatSession.play_for_me):
        assert not {'seat', 'token'} & set(inspect.signature(fn).parameters)
    clock = Clock()
    tables = Tables(hold=5, now=clock)
    a = tables.open('kocka', 'Asha', seed=4)
    with pytest.raises(TableError, match='join the table again'): SeatSession(tables, 'x' * 32)
    with pytest.raises(TableError): SeatSession(tables, None)
    b = tables.join(a.code, 'Bo')
    sb = SeatSession(tables, b.token)
    assert sb.leave()
    clock.t += 6  # Bo's hold runs out; Chidi takes the seat
    c = tables.join(a.code, 'Chidi', seat=b.seat)
    table = tables.find(a.code)
    table.start(a.token)
    n = len(table.match.actions)
    assert not sb.act('pass 2H 3H 4H') and sb.message.rule == 'table/token'
    assert not sb.back() and sb.message.rule == 'table/token'
    assert len(table.match.actions) == n and table.seat_of(c.token) == b.seat


def test_undo_deal_teach_and_bots_are_refused_in_one_line():
    tables = Tables()
    a = tables.open('begga-kaat', 'Asha', seed=5)
    s = SeatSession(tables, a.token)
    table = tables.find(a.code)
    table.start(a.token)
    table.run_bots()
    state = (len(table.match.actions), table.version)
    for fn, rule in ((s.undo, 'table/undo'), (lambda: s.deal(9), 'table/deal'), (lambda: s.load_record('{}'), 'table/record')):
        assert fn() is False and s.message.rule == rule and s.message.kind == 'refused'
        one_line(s.message.text)
    assert s.view(None)['seat'] == 0 and s.message.text == TEACH_AT_TABLE  # the teaching view: the seat's own all the same
    assert s.log(None) == s.log(0) and all(e.seen_by(0) for _, e, _ in s.log(1))
    assert (s.bot_due, s.run_bots(), s.bot_step(s.generation)) == (False, 0, False)
    assert (len(table.match.actions), table.version) == state


def test_the_status_names_the_table_and_the_students_never_the_seed():
    tables = Tables()
    a = tables.open('kocka', '<b>Asha</b>', seed=123456789)
    b = tables.join(a.code, 'Bo')
    sa, sb = SeatSession(tables, a.token), SeatSession(tables, b.token)
    assert 'Waiting for' not in sa.status().turn and 'Start the match' in sa.status().turn
    assert sb.status().turn == 'Waiting for <b>Asha</b> (Seat 0) to start the match.'
    tables.find(a.code).start(a.token)
    st = sa.status()
    assert f"table {a.code}" in st.facts and 'you are <b>Asha</b> (Seat 0)' in st.facts
    assert '<b>Asha</b> (Seat 0, you), Bo (Seat 1), Seat 2 (bot), Seat 3 (bot)' in st.notes
    to = tables.find(a.code).match.to_act
    assert sb.status().turn == {0: 'Waiting for <b>Asha</b> (Seat 0) to play.', 1: 'Your turn.'}.get(to, f"Seat {to} (bot) is playing.")
    assert all('123456789' not in x for x in (st.text, sb.status().text, repr(sa), sa.record_name()))
    assert sa.seed is None


def test_a_change_at_the_table_reaches_every_session():
    "Another student's move, a join, away and back: each session keeps the latest view and tells its listeners."
    tables = Tables()
    a = tables.open('begga-kaat', 'Asha', seed=8, players=3)
    sa = SeatSession(tables, a.token)
    seen = []
    sa.on_change(lambda s: seen.append(s.latest['table']['version']))
    b = tables.join(a.code, 'Bo')
    assert seen[-1] == tables.find(a.code).version and sa.latest['table']['seats'][1]['name'] == 'Bo'
    sb = SeatSession(tables, b.token)
    sb.leave()
    assert sa.latest['table']['seats'][1]['state'] == 'away'
    sb.back()
    assert sa.latest['table']['seats'][1]['state'] == 'here'
    sa.on_change(lambda s: 1 / 0)  # a listener that fails is dropped, the others still told
    tables.join(a.code, 'Chidi')
    assert len(sa.listeners) == 1 and seen[-1] == tables.find(a.code).version
    assert sa.latest == tables.find(a.code).view(a.token)


def test_a_solo_session_is_unchanged():
    "The solo session keeps its bots, undo and seed: the seat session overrides, it does not change `Session`."
    s = Session('begga-kaat', seed=3)
    assert s.solo and not SeatSession.solo and s.seed == 3
    assert s.run_bots() == len(s.match.actions) and s.match.to_act == s.seat
    assert s.act(s.controls().cards[0] if s.controls().cards else s.controls().plain[0])
    assert s.undo() and 'seed 3' in s.status().text


# ---------------------------------------------------------------- four panels at one table

def page(tables, ticket):
    "A tutor panel drawing the seat's session, redrawn at every change of the table (the server's part: here, in the same thread)."
    from cardgames_tutor.ui.panel import Tutor
    t = Tutor(session=SeatSession(tables, ticket.token))
    assert (t.teach, t.undo_button, t.seed_box, t.deal_button, t.upload) == (None,) * 5  # never made at a table
    t.session.on_change(lambda s: t.update())  # as serve.lobby draws a seat's page: the coach hears of each new moment
    t.render()
    return t

def page_state(t, hand_no) -> str:
    """Every synced trait of every widget of the page `t`, past hands' log rows left out (as tests/test_panel.py does).
    A widget is read again only when one of its traits has changed since it was last read (`_READ`, as test_panel's
    `_all_state`: traitlets tells every change, and a change is what is synced); its parts are the same either way."""
    from cardgames_tutor.ui.looks import widget_tree
    parts = []
    for w in widget_tree([t, *t.card_slots, *t.move_slots]): parts += _widget_parts(w, hand_no)
    return '\n'.join(parts)

_READ = {}  # id(widget) -> (widget, {hand_no: its parts}), emptied whenever a trait of the widget changes

def _widget_parts(w, hand_no) -> list:
    "One widget's part of `page_state`: each synced trait as `name=value`, kept until a trait of it changes."
    from test_panel import _DATA, _PAST, _PICTURE
    key = id(w)
    if _READ.get(key, (None,))[0] is not w:  # a widget seen for the first time: watch every trait of it from now on
        _READ[key] = (w, {})
        w.observe(lambda _change, key=key, w=w: _READ.__setitem__(key, (w, {})))
    kept = _READ[key][1]
    if hand_no not in kept:
        parts = []
        for k, v in w.get_state().items():
            if isinstance(v, (bytes, memoryview)): continue
            if isinstance(v, str):
                v = _PAST.sub(lambda m: '' if int(m.group(2)) < hand_no or m.group(3) == 'dealer' else m.group(0), _DATA.sub('data:', _PICTURE.sub('data:image/png', v)))
            parts.append(f"{k}={v}")
        kept[hand_no] = parts
    return kept[hand_no]

def panel_press(t, rng) -> bool:
    "The student's press through the page's widgets: next hand, a lit card, cards chosen then the verb, or a move button."
    s, before = t.session, len(t.session.match.actions)
    if s.review is not None: t.move_button('next hand').click(); return False
    c = s.controls()
    if c.choose:
        verb = sorted(c.choose)[0]
        for card in rng.choice(c.choose[verb]).cards: t.card_button(card).click()
        t.move_button(verb).click()
    elif c.cards: t.card_button(rng.choice(c.cards)).click()
    elif c.plain: t.move_button(str(rng.choice(c.plain))).click()
    return len(s.match.actions) == before + 1


@pytest.mark.parametrize('name,players', [('begga-kaat', 4), ('beggars-and-thieves', 3), ('beggars-and-thieves', 5),
                                          ('dehla-pakad', 4), ('kocka', 4), ('maghe-satra', 4)])
@pytest.mark.usefixtures('chart_pixels_unread')  # the scores chart's words (scanned) without its pixels (never read)
def test_four_pages_at_one_table_hold_only_their_own_seat(name, players):
    "Each page's widget state names no card its seat may not see, at every step of whole hands pressed through the widgets."
    from test_panel import _leaks, _hidden_beyond_view
    _READ.clear()  # (the last test's widgets: let go)
    rng = random.Random(11)
    tables = Tables()
    host = tables.open(name, 'Asha', seed=11, **options(name, players))
    tickets = [host] + [tables.join(host.code, x) for x in ('Bo', 'Chidi', 'Dana')[:min(players, 4) - 1]]
    table = tables.find(host.code)
    if not table.started: table.start(host.token)
    pages = [page(tables, k) for k in tickets]
    moves = 0
    for step in range(400):
        if table.match.over or (sum(h.is_over for h in table.match.hands) >= 1 and step >= 30): break
        table.run_bots()
        for t in pages:
            leaks = _leaks(page_state(t, t.session.shown_hand() + 1), _hidden_beyond_view(t))
            assert not leaks, f"{name}: Seat {t.seat}'s page holds {leaks}"
            assert 'seed' not in t.status.value and host.code in t.status.value
        mover = [t for t in pages if t.session.review is not None or t.session.latest['to_act'] == t.seat]
        others = [t for t in pages if t not in mover and t.session.controls().hand]
        if others and step % 5 == 0:  # a click out of turn: refused on that page, in one line
            t = rng.choice(others)
            t.card_button(rng.choice(t.session.controls().hand)).click()
            assert t.session.message.rule == 'table/turn' and 'cgt-refused' in t.message.value
        if mover: moves += panel_press(rng.choice(mover), rng)
    assert moves >= 5 and sum(h.is_over for h in table.match.hands) >= 1
    t = pages[0]
    t.session.view(None)  # the teaching view asked of a seat: refused, the page still shows only its seat
    assert t.session.message.rule == 'table/teach'
    with pytest.raises(TableError, match='only its own seat'): t.session.shown().view((t.seat + 1) % t.game.n_seats())
    assert not _leaks(page_state(t, t.session.shown_hand() + 1), _hidden_beyond_view(t))


# ---------------------------------------------------------------- by construction: a seat's page cannot reach the match

def _reachable_secrets(root) -> list:
    """Every `Match`, `HandState`, `Table` or `Tables` that the page `root` reaches through public attributes of the
    package's own objects, of widgets (their children) and of containers: the paths a page's handlers and drawing follow.
    Private attributes (`_table`, `_match`) are the seat's own business, read only by the seat's methods."""
    from cardgames_tutor.core.engine import HandState
    from cardgames_tutor.core.match import Match
    from cardgames_tutor.tables.table import Table
    import ipywidgets as widgets
    found, seen, todo = [], set(), [('page', root)]
    while todo:
        path, o = todo.pop()
        if id(o) in seen or isinstance(o, (str, bytes, int, float, bool, type(None), type)) or callable(o) and not hasattr(o, '__dict__'): continue
        seen.add(id(o))
        if isinstance(o, (Match, HandState, Table, Tables)): found.append(path); continue
        if isinstance(o, dict): todo += [(f"{path}[{k!r}]", v) for k, v in o.items()]
        elif isinstance(o, (list, tuple, set, frozenset)): todo += [(f"{path}[{i}]", v) for i, v in enumerate(o)]
        elif isinstance(o, widgets.Widget): todo += [(f"{path}.children[{i}]", v) for i, v in enumerate(getattr(o, 'children', ()))] + \
                                           [(f"{path}.{k}", v) for k, v in vars(o).items() if not k.startswith('_') and type(o).__module__.startswith('cardgames_tutor')]
        elif type(o).__module__.startswith('cardgames_tutor'):
            attrs = vars(o) if hasattr(o, '__dict__') else {k: getattr(o, k) for k in getattr(type(o), '__slots__', ())}
            todo += [(f"{path}.{k}", v) for k, v in attrs.items() if not k.startswith('_')]
            for k in ('match', 'hands', 'hand', 'actions'):  # what a session's or a seat's match gives when asked
                if not k.startswith('_') and hasattr(type(o), k) and isinstance(getattr(type(o), k), property):
                    try: todo.append((f"{path}.{k}", getattr(o, k)))
                    except Exception: pass
    return found


@pytest.mark.parametrize('name,players', [('kocka', None), ('beggars-and-thieves', 5), ('maghe-satra', 4)])
def test_a_seats_page_holds_no_way_to_the_match(name, players):
    "From a seated panel (and its coach) no public attribute leads to the table's match, a hand's state or the table itself."
    from cardgames_tutor.ui.panel import Tutor
    tables = Tables()
    host = tables.open(name, 'Asha', seed=4, **({'players': players} if players else {}))
    table = tables.find(host.code)
    table.start(host.token); table.run_bots()
    t = Tutor(session=SeatSession(tables, host.token))
    t.session.step(0); t.session.shown()  # a replay made for stepping back is the seat's too
    assert _reachable_secrets(t) == []
    solo = Tutor(name, **({'players': players} if players else {}), coach=False)  # the check is not blind: a solo panel holds its match
    assert _reachable_secrets(solo)
    t.close(); solo.close()


def test_under_a_pause_the_bot_button_is_off_and_a_press_moves_nothing():
    "A paused table: its students may look, not act; 'bot plays my move' is off, and a press made up anyway is no error."
    from cardgames_tutor.ui.panel import Tutor
    tables = Tables()
    a = tables.open('begga-kaat', 'Asha', seed=5)
    t = tables.find(a.code)
    t.start(a.token); t.run_bots()
    assert t.match.to_act == 0
    p = Tutor(session=SeatSession(tables, a.token), coach=False)
    p.session.on_change(lambda s: p.render())
    assert p.session.may_play_for_me and not p.bot_button.disabled
    assert t.pause('eyes up').ok
    n = len(t.match.actions)
    assert not p.session.may_play_for_me and p.bot_button.disabled
    p.bot_button.click()
    assert len(t.match.actions) == n and p.session.message.kind != 'error', p.session.message
    assert 'wrong' not in p.message.value
    assert t.resume().ok and p.session.may_play_for_me and not p.bot_button.disabled
    p.close()


PAUSED = "Your teacher paused the table: look at the last trick. Wait until they resume it."

@pytest.mark.parametrize('name,players', [('kocka', 4), ('beggars-and-thieves', 3), ('dehla-pakad', 4)])
def test_under_a_pause_a_seats_page_may_look_back_and_nothing_more(name, players):
    """Paused, a seat's panel lights no card and offers no move (nor 'next hand'); a click anyway is told the pause's short
    line (news, not a rule broken) and moves nothing; the step buttons still look back; resumed, the panel is as it was."""
    tables = Tables()
    a = tables.open(name, 'Asha', seed=5, **options(name, players))
    t = tables.find(a.code)
    t.start(a.token); t.run_bots()
    p = page(tables, a)
    rng, step = random.Random(5), 0
    while not (p.lit_cards() or p.move_box.children) or p.session.review is not None:  # the student's turn, something to press
        panel_press(p, rng) if p.session.latest['to_act'] == 0 or p.session.review is not None else t.run_bots()
        step += 1; assert step < 200
    lit, moves, n = p.lit_cards(), [b.description for b in p.move_box.children], len(t.match.actions)
    assert t.pause('look at the last trick').ok
    assert (p.lit_cards(), p.move_box.children, p.session.paused) == ([], (), PAUSED)
    assert all('cgt-legal' not in b._dom_classes for b in p.hand_box.children)
    p.hand_box.children[0].click()
    assert p.session.message == (('info', PAUSED_LINE, '')) and 'cgt-refused' not in p.message.value and 'rule' not in p.message.value
    assert len(t.match.actions) == n and p.session.selected == []
    if n:  # looking back at what happened: as ever
        p.step_by('back'); assert not p.session.live and p.session.cursor == n - 1
        p.step_by('last'); assert p.session.live
    assert t.resume().ok and p.session.paused is None
    assert (p.lit_cards(), [b.description for b in p.move_box.children]) == (lit, moves)
    p.close()

def at_a_hands_end(game:str, seed:int):
    "A table of `game` with one student (seat 0, a page drawn as the server draws it) and bots, played to its first hand's end: (table, page)."
    tables = Tables()
    a = tables.open(game, 'Asha', seed=seed)
    t = tables.find(a.code)
    t.start(a.token)
    p, rng = page(tables, a), random.Random(seed)
    while p.session.review is None:
        if t.match.to_act == 0: panel_press(p, rng)
        else: t.run_bots()
    return t, p

def test_under_a_pause_a_finished_hand_stays_on_screen_and_next_hand_waits():
    t, p = at_a_hands_end('kocka', 3)
    assert [b.description for b in p.move_box.children] == ['next hand ▶']
    t.pause('look at the last trick')
    assert p.move_box.children == () and not p.session.next_hand() and p.session.review == 0
    assert p.session.message.text == PAUSED_LINE
    t.resume()
    assert [b.description for b in p.move_box.children] == ['next hand ▶'] and p.session.next_hand()
    p.close()


# ---------------------------------------------------------------- the teacher's work from the next hand

@pytest.mark.parametrize('over', [False, True])
def test_work_from_the_next_hand_shows_the_finished_hands_end_first(over):
    """A teacher set work “from the next hand” at a Kočka table: the move that ended the hand replaced it at once, so
    the students never saw who lost, the end of the hand or their review; the new work just appeared. Now each page
    shows that hand's end (its result, “next hand”, the review of the hand) first, and “next hand” starts the work.
    `over`: the same when the hand was the match's last (the table's match over)."""
    from cardgames_tutor.core.match import Match
    tables = Tables()
    host = tables.open('kocka', 'Ana', seed=4)
    table = tables.find(host.code)
    tickets = [host] + [tables.join(host.code, n) for n in ('Ben', 'Chloé')]
    pages, rng = [page(tables, k) for k in tickets], random.Random(4)
    table.start(host.token); table.run_bots()
    if over: table.match.__dict__.update(Match(get_game('kocka', word='K'), seed=4).__dict__)  # one letter ends the match
    def play_on():
        if table.match.to_act < len(pages) and not pages[table.match.to_act].session.review: panel_press(pages[table.match.to_act], rng)
        elif not table.bot_move(): pages[table.match.to_act].session.next_hand()
    while not table.in_hand(): play_on()
    assert table.set_work(Match(get_game('begga-kaat', players=4), seed=3), 'Begga Kaat, seed 3', 'next-hand').rule == 'table/work-next'
    while table.match.game.name == 'kocka': play_on()
    for p in pages:
        s = p.session
        assert (s.match.game.name, s.review) == ('kocka', 0) and s.status().turn.lower().startswith('hand 1 is over'), s.status()
        assert 'loses the hand' in s.message.text and 'Begga Kaat, seed 3' in s.message.text, s.message
        assert ('The match is over.' in s.message.text) == over
        assert 'loses the hand' in p.message.value and s.message.kind == 'result'  # the end of the hand, on the page
        assert [b.description for b in p.move_box.children] == ['next hand ▶'] and p.lit_cards() == []
        assert p.coach.finished_hand() == 1 and not p.coach.review_button.disabled  # the review of the hand may be asked for
    pages[1].move_button('next hand').click()
    s = pages[1].session
    assert (s.match.game.name, s.review, len(s.match.hands)) == ('begga-kaat', None, 1)
    assert s.message.text == "Your teacher's new work begins: Begga Kaat, seed 3." and 'Begga Kaat' in pages[1].status.value
    assert pages[0].session.match.game.name == 'kocka'  # Ana's page is still on the hand just over
    for p in pages: p.close()


def test_a_dehla_pakad_tables_pages_say_deal_as_its_button_does():
    """At a Dehla Pakad table the button reads 'next deal ▶' (the game's word), but the pages' lines said 'Press “next
    hand” when you are ready.' and the status said 'hand 1 ... · the deal is over' beside 'deal 1 is over' (twice). Every
    line of a page at a deal's end now says 'deal', names the button as it reads, and says the deal is over once."""
    t, p = at_a_hands_end('dehla-pakad', 7)  # a deal that does not end the match (a kot would)
    s = p.session
    assert [b.description for b in p.move_box.children] == ['next deal ▶']
    st = s.status()
    said = ' · '.join([s.waiting(), s._not_now() or '', s.message.text, st.facts, st.turn])
    assert 'next hand' not in said and 'hand 1' not in said.lower() and '“next deal”' in said, said
    assert st.turn == 'deal 1 is over' and 'over' not in st.facts, st
    p.close()


def test_a_dehla_pakad_tables_pages_name_the_sides_by_their_students():
    """At a table of four students the pages said 'Seats 0 and 2 win deal 1', 'tens taken: Seats 0 and 2 together', a
    chart of 'Seats 0 and 2' and 'Seats 1 and 3', and on the trump maker's page 'Seat 0 ... names trump': seat numbers
    where every other line names the students. Each side is now said by its students' names, on every page."""
    rng, tables = random.Random(5), Tables()
    host = tables.open('dehla-pakad', 'Asha', seed=5)
    tickets = [host] + [tables.join(host.code, x) for x in ('Bo', 'Chidi', 'Dana')]
    table = tables.find(host.code)
    if not table.started: table.start(host.token)
    pages, notes = [page(tables, k) for k in tickets], ''
    for _ in range(400):
        if any(t.session.review is not None for t in pages): break
        mover = next(t for t in pages if t.session.latest['to_act'] == t.seat)
        if mover.session.latest['phase'] == 'trump': notes = mover.move_notes.value
        panel_press(mover, rng)
    maker = table.match.hands[0].trump_maker
    assert ('Asha', 'Bo', 'Chidi', 'Dana')[maker] in notes and f'Seat {maker}' not in notes, notes  # 'Chidi ... names trump'
    for t in pages:
        t.update()
        said = ' '.join([t.status.value, *(p.value for p in t.log_parts), t.scores.value, t.message.value, t.chart.value])
        assert 'Seats 0 and 2' not in said and 'Seats 1 and 3' not in said, (t.seat, said[:300])
        assert re.search(r'Asha and Chidi|Bo and Dana', said), said[:300]
    for t in pages: t.close()


@pytest.mark.usefixtures('chart_pixels_unread')
def test_each_page_at_a_table_hears_each_move_once():
    """A table of three students and a bot, each page's live region (ui/access.py) over the first hand: every row of the
    hand's log the seat sees said once, in order, by the students' names; a student's own move once. Before, the table's
    news of the move ('Asha plays 9♦.') was said, then the page's message 'You played 9♦.' said it again."""
    from test_panel import assert_each_row_heard_once
    rng, tables = random.Random(3), Tables()
    host = tables.open('begga-kaat', 'Asha', seed=3)
    tickets = [host] + [tables.join(host.code, x) for x in ('Bo', 'Chidi')]
    table = tables.find(host.code)
    pages = [page(tables, k) for k in tickets]  # open before the match starts, as in class: the opening is news to each
    said = {t.seat: [t.access.said] if t.access.told else [] for t in pages}
    for t in pages: t.access.observe(lambda change, t=t: said[t.seat].append(t.access.said), 'told')
    if not table.started: table.start(host.token)
    for _ in range(400):
        table.run_bots()
        if all(t.session.review is not None for t in pages): break
        panel_press(next(t for t in pages if t.session.latest['to_act'] == t.seat), rng)
    assert table.match.hands[0].is_over
    for t in pages:
        assert 'Asha' in ' '.join(said[t.seat])
        assert_each_row_heard_once(t, said[t.seat])
    for t in pages: t.close()


def test_a_move_buttons_tooltip_names_the_students_as_the_page_does():
    """At a Dehla Pakad table of four students the trump maker's page read 'Dana, the dealer's right-hand neighbour,
    names trump' under the buttons, but each button's tooltip said 'Seat 3, the dealer's right-hand neighbour, names
    spades trump': a seat number where the page names the student. The tooltips now name the students as the page does."""
    rng, tables = random.Random(5), Tables()
    host = tables.open('dehla-pakad', 'Asha', seed=5)
    tickets = [host] + [tables.join(host.code, x) for x in ('Bo', 'Chidi', 'Dana <3')]
    table = tables.find(host.code)
    if not table.started: table.start(host.token)
    pages = [page(tables, k) for k in tickets]
    for _ in range(400):
        mover = next(t for t in pages if t.session.latest['to_act'] == t.seat)
        if mover.session.latest['phase'] == 'trump': break
        panel_press(mover, rng)
    name = ('Asha', 'Bo', 'Chidi', 'Dana <3')[mover.seat]
    tips = [b.tooltip for b in mover.move_box.children]
    assert len(tips) == 4 and all(tip.startswith(f"{name}, the dealer's right-hand neighbour, names ") for tip in tips), tips
    assert not any(re.search(r'\bSeats? \d', tip) for tip in tips), tips
    assert 'Dana &lt;3' in mover.move_notes.value or name != 'Dana <3'  # the line under them: the name written for a page
    for t in pages: t.close()
