"""Tables of students (the tables package: tables/seats.py, tables/table.py, tables/class_tables.py): seeded random property tests over whole matches in every game with joins,
leaves, backs, double submissions, other seats' tokens, bad request ids, hostile names, a full table, acting before
the start and after the end; every view and every callback scanned for hidden cards with the independent `may_see`;
and the registry's limits (a flood of joins, codes tried one after another)."""
import json, random, threading
import pytest
from cardgames_tutor.core.cards import Card
from cardgames_tutor.core.registry import games, get_game
from cardgames_tutor.core.actions import Move
from cardgames_tutor.core.match import Match
from cardgames_tutor.core.records import load
from cardgames_tutor.tables.seats import CODE_SIGNS, Reply, TableError, clean_name, new_table_code, read_code
from cardgames_tutor.tables.table import KEPT_REFUSALS, Table, doing
from cardgames_tutor.tables.class_tables import Tables
from cardgames_tutor.practice.exercises import EXERCISES
from helpers import cards_in, may_see

SETUPS = [(name, n) for name, info in games().items() for n in info.players]  # all five games, every variant

def options(name, n) -> dict: return {'players': n} if len(games()[name].players) > 1 else {}

class Clock:
    "A clock the test moves by hand."
    def __init__(self): self.t = 1000.0
    def __call__(self): return self.t

def one_line_under_200(text:str):
    assert text and '\n' not in text and len(text) < 200, repr(text)

def refusal(fn) -> str:
    "The one-line message of the `TableError` that `fn()` raises."
    with pytest.raises(TableError) as e: fn()
    one_line_under_200(str(e.value))
    return str(e.value)

def snapshot(t:Table) -> tuple:
    "Everything a refusal must leave as it was."
    return (len(t.match.actions), t.version, t.started, t.closed, t.host, dict(t.tokens),
            tuple((s.name, s.token, s.pages, s.away_since, len(s.listeners)) for s in t.seats))


# ---------------------------------------------------------------- the leak scan of a table's views

def assert_view_clean(t:Table, seat:int, view:dict):
    """`view` (a seat's view from the table) names no card `seat` may not see (`may_see`, from the deal and the public
    record), is that seat's own, and apart from `table` is the match's own view of that seat."""
    hand, pack = t.match.hand, t.match.game.pack
    assert view['seat'] == seat
    facts = view['table']
    assert [s['you'] for s in facts['seats']] == [i == seat for i in range(len(t.seats))]
    names = {s['name'] for s in facts['seats'] if s['name']}
    named = cards_in(sorted(names), pack)  # a student may call themself 'QH': that names no card of the deal
    assert cards_in({k: v for k, v in facts.items() if k != 'seats'}, pack) <= named
    rest = {k: v for k, v in view.items() if k != 'table'}
    assert len(rest['events']) == len([e for e in hand.events if e.seen_by(seat)])
    rest['events'] = [e.text for e in hand.events if e.seen_by(seat) and e.kind != 'dealer']  # the lot: a public shuffle
    called = cards_in([m for m in rest.get('legal') or () if isinstance(m, Move) and m.verb == 'call'], pack)
    leaked = cards_in(rest, pack) - may_see(hand, seat) - called - counted_at_the_end(hand)
    assert not leaked, f"Seat {seat}'s table view leaks {sorted(map(str, leaked))} in phase {hand.phase}"


def counted_at_the_end(hand) -> set:
    """Cards laid aside face down that the count at the end of the hand shows: Beggars and Thieves' buried cards ("any
    points buried will be included in his or her point total at the end of the hand", rules). `may_see` (tests/helpers.py)
    leaves them out: its scans never meet a finished hand, which a match replaces by the next deal at once; a table's
    views meet one, the last hand of a match that is over."""
    if hand.phase != 'over': return set()
    return {c for _, a in hand.history if isinstance(a, Move) and a.verb == 'bury' for c in a.cards}


def test_the_scan_catches_a_card_of_another_seat():
    "The scan is not blind: another seat's card planted in a view, or in the table's facts, is caught."
    t = Table('abcdef', 'begga-kaat', seed=1)
    me = t.join('Asha', seat=0)
    view = t.view(me.token)
    assert_view_clean(t, 0, view)
    other = t.match.hand.deal['hands'][1][0]
    with pytest.raises(AssertionError, match='leaks'): assert_view_clean(t, 0, {**view, 'planted': [other]})
    with pytest.raises(AssertionError): assert_view_clean(t, 0, {**view, 'table': {**view['table'], 'waiting': str(other)}})
    with pytest.raises(AssertionError): assert_view_clean(t, 0, t._view(1))  # another seat's view


# ---------------------------------------------------------------- the test's own account of the seats

class Seats:
    "Who holds each seat, how many pages they have open, since when they are away: kept by the test, not read from the table."
    def __init__(self, n, hold, clock):
        self.holder, self.hold, self.clock = [None] * n, hold, clock  # holder: dict(name, token, pages, away)
    def state(self, seat) -> str:
        h = self.holder[seat]
        if h is None: return 'bot'
        if h['pages']: return 'here'
        return 'away' if self.clock() - h['away'] < self.hold else 'bot'
    def label(self, seat) -> str:
        st, h = self.state(seat), self.holder[seat]
        return f"Seat {seat} (bot)" if st == 'bot' else f"{h['name']} (Seat {seat}{', away' if st == 'away' else ''})"
    def waiting(self, t:Table, seat) -> str:
        "The sentence the table must say to `seat` now: each kind from its own fact."
        if t.match.over: return "The match is over."
        if not t.started:
            if seat == t.host: return "Start the match when everyone is seated: empty seats are played by bots."
            if t.host is None or self.state(t.host) == 'bot': return "Waiting for every seat to be taken: then the match starts."
            return f"Waiting for {self.label(t.host)} to start the match."
        to = t.match.to_act
        if to == seat: return "Your turn."
        st = self.state(to)
        if st == 'here': return f"Waiting for {self.label(to)} {doing(t.match.hand.phase)}."  # Kočka's exchange: passing, not playing
        if st == 'away': return f"Waiting for {self.label(to)}: a bot plays for them if they are not back within {self.hold:g} s."
        return f"Seat {to} (bot) is playing."
    def open_page(self, seat):
        h = self.holder[seat]
        h['pages'] += 1
        h['away'] = None

NAMES = ['Asha', 'Bo', 'Chidi', 'Dana', 'Émile', 'Farah', 'QH', '10S', 'Gus<script>alert(1)</script>',
         '<img src=x onerror=alert(1)>', 'Hana\x00\x1b[31m', '\u202eIvo', 'Ji  \t Woo', '  ', '', 'x' * 5000,
         'Seat 2', 'seat3 (bot)', 'Kai\u200b', '😀 Lu', 'M' * 24, 'N' * 25, 7, None, b'Bo']


def _play_table(name, players, seed, hold=60.0) -> dict:
    """A whole match at one table, driven at random: students join (hostile names among them), leave, come back, act
    in and out of turn, with other seats' tokens, made-up tokens, bad request ids and resent requests; bots play the
    other seats; the clock runs past holds. Checked at every step: refusals are one line and change nothing; every
    accepted action is applied once; every view and callback is its seat's own and leaks no card; the waiting sentence."""
    rng, clock = random.Random(seed), Clock()
    t = Table(new_table_code(), get_game(name, **options(name, players)), seed=seed, hold=hold, now=clock)
    n, seats = len(t.seats), Seats(len(t.seats), hold, clock)
    accepted, answers, counts = [], {}, {'callbacks': 0, 'refusals': 0, 'resends': 0, 'views': 0}
    gone_tokens = []

    def listener(seat):
        def heard(view):
            counts['callbacks'] += 1
            assert t.seat_of(seats.holder[seat]['token']) == seat
            if counts['callbacks'] % 3 == 0: assert_view_clean(t, seat, view)
        return heard

    def check_reply(reply, before):
        assert isinstance(reply, Reply)
        one_line_under_200(reply.text)
        if not reply.ok:
            counts['refusals'] += 1
            assert snapshot(t) == before, f"a refusal changed the table: {reply}"

    def join():
        name_, seat = rng.choice(NAMES), rng.choice([None, None, rng.randrange(n), -1, n, '1'])
        before = snapshot(t)
        try: ticket = t.join(name_, seat)
        except TableError as e:
            one_line_under_200(str(e)); assert snapshot(t) == before; counts['refusals'] += 1
            return
        assert isinstance(name_, str) and ticket.seat in range(n)
        assert seats.state(ticket.seat) == 'bot', "a join took a seat a student still holds"
        old = seats.holder[ticket.seat]
        if old: gone_tokens.append(old['token'])
        shown = t.facts()['seats'][ticket.seat]['name']
        assert shown == ' '.join(''.join(c for c in name_ if c.isprintable() or c.isspace()).split()).replace('\u202e', '').replace('\u200b', '')
        seats.holder[ticket.seat] = {'name': shown, 'token': ticket.token, 'pages': 1, 'away': None}
        t.subscribe(ticket.token, listener(ticket.seat))

    def held() -> list: return [i for i, h in enumerate(seats.holder) if h and t.seat_of(h['token']) == i]

    for step in range(20_000):
        if t.match.over and rng.random() < 0.2: break
        r = rng.random()
        if r < 0.10: join()
        elif r < 0.14 and held():  # a page closes
            seat = rng.choice(held()); h = seats.holder[seat]
            reply = t.left(h['token'])
            one_line_under_200(reply.text); assert reply.ok
            if h['pages']:
                h['pages'] -= 1
                if not h['pages']: h['away'] = clock()
        elif r < 0.18 and held():  # a page opens again
            seat = rng.choice(held()); h = seats.holder[seat]
            assert t.back(h['token']).ok
            if not h['pages']: seats.open_page(seat)
            else: h['pages'] += 1
            if h['pages'] == 1: t.subscribe(h['token'], listener(seat))
        elif r < 0.21: clock.t += rng.choice([1, 10, 30, hold + 1])
        elif r < 0.24 and held() and not t.started:  # a start, by the host or not
            seat = rng.choice(held()); before = snapshot(t)
            reply = t.start(seats.holder[seat]['token'])
            check_reply(reply, before)
            assert reply.ok == (seat == t.host)
        elif r < 0.27 and gone_tokens:  # a token whose seat another student took
            before = snapshot(t)
            for fn in (lambda k: t.act(k, 'QH', f"g{step}"), t.back, t.left, t.start):
                reply = fn(rng.choice(gone_tokens)); check_reply(reply, before); assert reply.rule == 'table/token'
            refusal(lambda: t.view(gone_tokens[0])); refusal(lambda: t.record(gone_tokens[0]))
        elif r < 0.30:  # made-up tokens and bad request ids
            before = snapshot(t)
            check_reply(t.act(rng.choice(['', 'x' * 32, None, 42, new_table_code()]), 'QH', f"f{step}"), before)
            if held():
                token = seats.holder[rng.choice(held())]['token']
                bad = rng.choice(['', 'a b', 'x' * 65, None, 3, '<img>', 'é', ['r1']])
                reply = t.act(token, 'QH', bad)
                check_reply(reply, before); assert reply.rule == 'table/request-id'
        elif r < 0.36 and answers:  # a click sent again (a double click, a resend after a reconnect)
            (token, rid), first = rng.choice(list(answers.items())[-100:])  # fewer refusals than a seat keeps
            before = snapshot(t)
            again = t.act(token, rng.choice(['QH', *t.match.legal_actions()[:1]]), rid)
            counts['resends'] += 1
            if t.seat_of(token) is not None:
                assert again == first and snapshot(t) == before, "a resent request was not answered as the first time"
        else:  # the seat to act plays: a student (perhaps out of turn, perhaps illegally) or a bot
            to = t.match.to_act
            students = held()
            if t.bot_due is not None and rng.random() < 0.7:
                before_n = len(t.match.actions)
                stale = rng.random() < 0.1
                played = t.bot_move(t.version - 1 if stale else (t.version if rng.random() < 0.5 else None))
                if stale: assert not played
                if played:
                    assert len(t.match.actions) == before_n + 1
                    accepted.append(t.match.actions[-1])
                continue
            if not students: join(); continue
            seat = to if (to in students and rng.random() < 0.8) else rng.choice(students)
            legal = t.match.legal_actions()
            if legal and rng.random() < 0.85: action = t.match.game.bot(t.match.view(seat, text=False), rng) if seat == to else legal[0]
            else: action = rng.choice(['QH', 'pass', 'zz', 'x' * 300, 12, Move('call', ('QH',)), str(rng.choice(t.match.game.deck()))])
            token, rid = seats.holder[seat]['token'], f"r{step}"
            before, n_before = snapshot(t), len(t.match.actions)
            reply = t.act(token, action, rid)
            check_reply(reply, before)
            answers[token, rid] = reply
            if reply.ok:
                assert (t.started, seat) == (True, to) and len(t.match.actions) == n_before + 1
                accepted.append(t.match.actions[-1])
                if not seats.holder[seat]['pages']: seats.open_page(seat); t.subscribe(token, listener(seat))
            elif not t.started: assert reply.rule == 'table/not-started'
            elif t.match.over: assert reply.rule == 'match-over'
            elif seat != to: assert reply.rule == 'table/turn' and seats.label(to) in reply.text
        # after every step: the table's account of the seats is the test's, and so is each sentence it says
        t.tick()
        assert [st if st != 'empty' and st != 'gone' else 'bot' for st in t.states()] == [seats.state(i) for i in range(n)]
        for seat in range(n): assert t.waiting_text(seat) == seats.waiting(t, seat), seat
        if step % 7 == 0:
            for seat in held():
                counts['views'] += 1
                assert_view_clean(t, seat, t.view(seats.holder[seat]['token']))
    assert t.match.over, f"{name} {players}: the match did not end"
    assert accepted == t.match.actions, "the match is not the actions the table accepted, each once"
    again = t.match.replayed(t.match.actions)
    assert [h.history for h in again.hands] == [h.history for h in t.match.hands] and again.standing == t.match.standing
    return {'table': t, 'seats': seats, 'counts': counts}


@pytest.mark.parametrize('name,players', SETUPS)
def test_a_whole_match_at_a_table(name, players):
    "Whole matches at one table in every game and variant, under every kind of request a hostile or hurried page sends."
    for seed in (1, 2, 3):
        out = _play_table(name, players, seed)
        t, counts = out['table'], out['counts']
        assert counts['callbacks'] > 0 and counts['refusals'] > 0 and counts['resends'] > 0
        holder = next(h for h in out['seats'].holder if h and t.seat_of(h['token']) is not None)
        record = t.record(holder['token'])  # the match is over: every hand is finished and in the record
        m = load(json.loads(json.dumps(record)))
        assert [h.history for h in m.hands[:len(t.match.hands)]] == [h.history for h in t.match.hands]
        assert 'seed' not in record


# ---------------------------------------------------------------- joining, names, a full table

def test_a_full_table_refuses_in_one_line_and_changes_nothing():
    t = Table('abcdef', 'kocka', seed=2)
    tickets = [t.join(n) for n in ('Asha', 'Bo', 'Chidi', 'Dana')]
    assert [k.seat for k in tickets] == [0, 1, 2, 3] and t.started  # every seat taken: the match starts
    before = snapshot(t)
    assert 'table abcdef is full: all 4 seats are taken' in refusal(lambda: t.join('Eve'))
    assert 'is full' in refusal(lambda: t.join('Eve', seat=2))
    assert snapshot(t) == before


def test_names_are_plain_text_and_kept_as_typed():
    t = Table('abcdef', 'kocka', seed=2)
    k = t.join('<b onclick=x>Asha</b>\n')
    assert t.facts()['seats'][k.seat]['name'] == '<b onclick=x>Asha</b>'  # not HTML: front ends escape it
    assert clean_name('\u202eBo\u200d\u2028b ') == 'Bo b'
    for bad, says in [('x' * 5000, 'this one has 5,000'), ('\x00\x07\u200b', 'this one has 0'), ('y' * 25, 'this one has 25'),
                      (None, 'not NoneType'), (['Bo'], 'not list'), ('Seat 3', "look like a seat's label")]:
        before = snapshot(t)
        assert says in refusal(lambda: t.join(bad))
        assert snapshot(t) == before
    assert "already at this table" in refusal(lambda: t.join(' <B ONCLICK=x>asha</b> '))


def test_the_seat_asked_for_or_the_next():
    t = Table('abcdef', 'begga-kaat', seed=2, players=3)
    assert t.join('Asha', seat=1).seat == 1 and t.join('Bo').seat == 0
    assert 'Seat 1 is taken by Asha (Seat 1): the free seats are 2' in refusal(lambda: t.join('Cy', seat=1))
    for seat in (3, -1, '2', 2.0, True): assert 'a seat is a number from 0 to 2' in refusal(lambda: t.join('Cy', seat=seat))


# ---------------------------------------------------------------- starting and acting

def _table(game='begga-kaat', seed=3, **kw):
    clock = Clock()
    t = Table('abcdef', game, seed=seed, hold=60, now=clock, **kw)
    return t, clock

def _play_to(t, seat, tokens):
    "Let the bots (and the students, with the bot's choice) play until `seat` is to act."
    for i in range(1000):
        if t.match.to_act == seat: return
        if t.bot_due is not None: assert t.bot_move(); continue
        to = t.match.to_act
        assert t.act(tokens[to], t.match.game.bot(t.match.view(to), random.Random(i)), f"p{i}").ok

def test_nobody_acts_before_the_start_and_only_the_host_starts():
    t, _ = _table()
    host, bo = t.join('Asha'), t.join('Bo')
    to = t.match.to_act
    for k in (host, bo):
        reply = t.act(k.token, t.match.legal_actions()[0], 'r1')
        assert (reply.ok, reply.rule) == (False, 'table/not-started')
    assert t.bot_due is None and not t.bot_move() and t.view(host.token)['legal'] == []
    assert t.start(bo.token).rule == 'table/host' and not t.started
    assert t.start(host.token).ok and t.started
    assert t.act(host.token, t.match.legal_actions()[0], 'r1').rule == 'table/not-started'  # its first answer, kept
    assert to == t.match.to_act

def test_a_seat_out_of_turn_is_told_whose_turn_it_is():
    t, _ = _table()
    tokens = {k.seat: k.token for k in (t.join('Asha'), t.join('Bo'))}
    t.start(tokens[0])
    _play_to(t, 1, tokens)
    before = snapshot(t)
    reply = t.act(tokens[0], t.match.legal_actions()[0], 'x1')
    assert (reply.ok, reply.rule, reply.text) == (False, 'table/turn', 'Not your turn: Bo (Seat 1) is to play.')
    assert snapshot(t) == before
    assert t.waiting_text(0) == 'Waiting for Bo (Seat 1) to play.' and t.waiting_text(1) == 'Your turn.'

def test_in_kockas_exchange_the_table_waits_for_cards_passed_not_played():
    "Kočka's exchange: the others read that the table waits for the seat to pass three cards (it said 'to play')."
    t = Table('kq7m2x', 'kocka', seed=1)
    tokens = [t.join(n).token for n in ('Ana', 'Ben', 'Chloé', 'Dev')]
    seen = []
    while t.match.hand.phase == 'pass':
        to = t.match.to_act
        others = {t.waiting_text(s) for s in range(4) if s != to}
        assert others == {f"Waiting for {t.label(to)} to pass three cards."} and t.waiting_text(to) == 'Your turn.'
        seen.append(to)
        assert t.act(tokens[to], t.match.legal_actions()[0], f'p{len(seen)}').ok
    assert len(seen) == 4 and t.match.hand.phase == 'play'
    to = t.match.to_act
    assert t.waiting_text((to + 1) % 4) == f"Waiting for {t.label(to)} to play."  # the tricks: to play

def test_a_move_is_answered_in_the_learners_words():
    """The answer to a move says it as the learner does, its cards by their symbols: 'You picked up the blind.',
    'You played 7 Thief.', never the move as typed ('You played pick', 'call T8') nor a card the seat may not see."""
    from cardgames_tutor.core.actions import action_text
    from test_no_code_on_screen import problems
    for seed in range(6):
        t, _ = _table('beggars-and-thieves', seed=seed, players=5)
        me = t.join('Asha'); t.start(me.token)
        for i in range(40):
            if t.match.over or len(t.match.hands) > 1: break
            if t.match.to_act != 0: assert t.bot_move(); continue
            hand = t.match.hand
            action = t.match.game.bot(t.match.view(0), random.Random(i))
            reply = t.act(me.token, action, f"m{seed}-{i}")
            assert reply.ok and reply.text == f"You {action_text(action, t.match.game, 'done')}.", reply.text
            assert not problems('reply', reply.text, t.match.game.pack), reply.text
            assert not reply.text.startswith('You played ') or isinstance(action, Card), reply.text  # a move has its own verb
            assert cards_in(reply.text, t.match.game.pack) <= may_see(hand, 0), reply.text

def test_an_illegal_move_is_refused_with_the_engines_rule():
    t, _ = _table()
    me = t.join('Asha'); t.start(me.token)
    _play_to(t, 0, {0: me.token})
    action = next((c for c in t.match.view(0).get('hand') or () if c not in t.match.legal_actions()), 'ZZ')
    verdict = t.match.explain(action, 0)
    before = snapshot(t)
    reply = t.act(me.token, action, 'bad-1')
    assert (reply.ok, reply.rule) == (False, verdict.rule) and reply.text == verdict.text[:199]
    assert snapshot(t) == before
    for junk in (12, ['QH'], {'card': 'QH'}, 'Q' * 500, Move('play', (1, 2))):
        reply = t.act(me.token, junk, f"j{len(str(junk))}{type(junk).__name__}")
        assert not reply.ok and reply.rule == 'notation'; one_line_under_200(reply.text)

def test_a_double_click_is_applied_once_even_from_threads():
    "Twelve threads send the same click, and twelve others fresh clicks of the same card: one move is made."
    t, _ = _table('kocka', seed=5)
    me = t.join('Asha'); t.start(me.token)
    _play_to(t, 0, {0: me.token})
    action, n = t.match.legal_actions()[0], len(t.match.actions)
    replies, go = [], threading.Barrier(24)
    def send(rid):
        go.wait()
        replies.append((rid, t.act(me.token, action, rid)))
    threads = [threading.Thread(target=send, args=('same' if i < 12 else f"fresh{i}",)) for i in range(24)]
    for th in threads: th.start()
    for th in threads: th.join()
    assert len(t.match.actions) == n + 1
    assert sum(r.ok for _, r in replies) == 1
    same = {r for rid, r in replies if rid == 'same'}
    assert len(same) == 1  # every copy of the click got the first answer

def test_a_refused_click_sent_again_is_not_applied_later():
    t, _ = _table()
    tokens = {k.seat: k.token for k in (t.join('Asha'), t.join('Bo'))}
    t.start(tokens[0]); _play_to(t, 1, tokens)
    card = t.match.legal_actions()[0]
    early = t.act(tokens[0], card, 'early')  # Asha clicks before her turn
    assert early.rule == 'table/turn'
    _play_to(t, 0, tokens)
    assert t.act(tokens[0], t.match.legal_actions()[0], 'early') == early  # the resend: the first answer, nothing applied
    assert t.match.to_act == 0
    for i in range(KEPT_REFUSALS + 5): t.act(tokens[1], card, f"n{i}")  # refusals kept: the last 256
    assert 'n0' not in t.seats[1].answers and f"n{KEPT_REFUSALS + 4}" in t.seats[1].answers

def test_acting_after_the_match_is_over():
    t, _ = _table('dehla-pakad', seed=4)
    me = t.join('Asha'); t.start(me.token)
    for i in range(2000):
        if t.match.over: break
        if not t.bot_move(): assert t.act(me.token, t.match.game.bot(t.match.view(0), random.Random(i)), f"m{i}").ok
    assert t.match.over
    before = snapshot(t)
    reply = t.act(me.token, 'QH', 'after')
    assert (reply.ok, reply.rule) == (False, 'match-over') and snapshot(t) == before
    assert t.waiting_text(0) == 'The match is over.' and t.bot_due is None


# ---------------------------------------------------------------- bots, leaving, coming back

def test_bots_play_from_their_own_view_only(monkeypatch):
    t, _ = _table('kocka', seed=6)
    me = t.join('Asha'); t.start(me.token)
    seen, bot = [], t.match.game.bot
    monkeypatch.setattr(t.match.game, 'bot', lambda view, rng: seen.append((view['seat'], t.match.to_act)) or bot(view, rng), raising=False)
    _play_to(t, 0, {0: me.token})
    t.match.apply(t.match.legal_actions()[0], 0)
    t.run_bots()
    assert seen and all(s == to for s, to in seen) and 0 not in {s for s, _ in seen}

def test_the_bots_draw_from_a_stream_of_their_own():
    "What a bot plays must tell nothing of the shuffle: its random stream is not the deals' stream (the same seed)."
    t, _ = _table('kocka', seed=11)
    deals = random.Random(t.match.seed)
    assert [t.rng.random() for _ in range(5)] != [deals.random() for _ in range(5)]
    assert [Table('abcdef', 'kocka', seed=11).rng.random() for _ in range(2)] == [Table('abcdef', 'kocka', seed=11).rng.random() for _ in range(2)]

def test_a_seed_must_be_a_whole_number():
    for bad in (2.5, '7', True, 10 ** 40):
        assert 'a seed is a whole number of at most 30 digits' in refusal(lambda: Table('abcdef', 'kocka', seed=bad))

def test_the_sentences_on_leaving_and_coming_back_are_true():
    t, _ = _table()
    a = t.join('Asha')
    assert t.back(a.token).text == 'Asha is at Seat 0.'  # a second page
    assert t.left(a.token).text == 'Asha still has a page open at Seat 0.' and t.states()[0] == 'here'
    assert t.left(a.token).text == 'Seat 0 is kept for Asha for 60 s.' and t.states()[0] == 'away'
    assert t.left(a.token).text == 'Asha is away already.'
    assert t.back(a.token).text == 'Welcome back, Asha: your seat is as you left it.' and t.states()[0] == 'here'

def test_away_then_back_is_as_it_was_and_a_bot_plays_after_the_hold():
    t, clock = _table('kocka', seed=7)
    a, b = t.join('Asha'), t.join('Bo')
    tokens = {0: a.token, 1: b.token}
    t.start(a.token); _play_to(t, 1, tokens)
    before = {k: v for k, v in t.view(b.token).items() if k != 'table'}
    t.left(b.token)
    assert t.facts(0)['seats'][1] == {'seat': 1, 'name': 'Bo', 'state': 'away', 'you': False}
    assert t.bot_due is None and t.waiting_text(0).startswith('Waiting for Bo (Seat 1, away): a bot plays for them')
    clock.t += 59
    assert t.bot_due is None
    assert t.back(b.token).ok
    assert {k: v for k, v in t.view(b.token).items() if k != 'table'} == before  # everything as it was
    t.left(b.token); clock.t += 60
    assert t.bot_due == 1 and t.facts(0)['seats'][1]['state'] == 'bot' and t.waiting_text(0) == 'Seat 1 (bot) is playing.'
    assert t.bot_move() and len(t.match.actions) and t.match.actions[-1][1] == 1
    c = t.join('Chidi', seat=1)  # a new student takes the gone seat: Bo's token holds nothing now
    for fn in (t.back, t.left, t.start, lambda k: t.act(k, 'QH', 'z')): assert fn(b.token).rule == 'table/token'
    assert 'holds no seat' in refusal(lambda: t.view(b.token))
    assert t.view(c.token)['seat'] == 1

def test_a_reload_keeps_the_seat_while_the_old_page_closes():
    t, clock = _table()
    a = t.join('Asha')
    t.back(a.token)  # the reloaded page opens
    t.left(a.token)  # then the old page is seen to close
    clock.t += 1000
    assert t.states()[0] == 'here' and t.bot_due is None

def test_a_gone_student_who_comes_back_to_a_seat_nobody_took_has_it_again():
    t, clock = _table()
    a = t.join('Asha'); t.left(a.token); clock.t += 61
    assert t.tick() and t.states()[0] == 'gone'
    assert t.back(a.token).ok and t.states()[0] == 'here'


# ---------------------------------------------------------------- views and listeners

@pytest.mark.parametrize('name,players', SETUPS)
def test_each_page_hears_its_own_view_only(name, players):
    t = Table('abcdef', name, seed=3, **options(name, players))
    tickets = [t.join(f"S{i}") for i in range(players)]
    heard = {k.seat: [] for k in tickets}
    for k in tickets: t.subscribe(k.token, heard[k.seat].append)
    steps = 0
    while not t.match.over and steps < 150:
        to = t.match.to_act
        assert t.act(tickets[to].token, t.match.game.bot(t.match.view(to), random.Random(steps)), f"r{steps}").ok
        for k in tickets:
            v = heard[k.seat][-1]
            assert_view_clean(t, k.seat, v)
            assert {x: y for x, y in v.items() if x != 'table'} == t.match.view(k.seat)
        steps += 1
    assert all(len(h) == steps for h in heard.values())

def test_the_view_is_the_matchs_view_plus_public_facts():
    t = Table('abcdef', 'begga-kaat')  # a secret seed
    a = t.join('Asha'); t.start(a.token)
    v = t.view(a.token)
    assert {k: x for k, x in v.items() if k != 'table'} == t.match.view(0)
    assert set(v['table']) == {'code', 'seats', 'host', 'started', 'closed', 'waiting', 'finished_hands', 'paused', 'paused_text',
                               'work', 'next_work', 'version'}
    assert str(t.match.seed) not in json.dumps(v, default=str)  # the seed would tell every deal


# ---------------------------------------------------------------- records

def test_the_record_holds_the_finished_hands_only_and_no_seed():
    t, _ = _table('kocka', seed=9)
    a = t.join('Asha'); t.start(a.token)
    assert 'no hand is finished yet' in refusal(lambda: t.record(a.token))
    while len(t.match.hands) < 3:
        if not t.bot_move(): t.act(a.token, t.match.legal_actions()[0], f"r{len(t.match.actions)}")
    record = t.record(a.token)
    assert len(record['hands']) == 2 and 'seed' not in record
    playing = t.match.hand.deal['hands']
    assert all(h['deal']['hands'] != [[str(c) for c in p] for p in playing] for h in record['hands'])
    m = load(json.dumps(record))
    assert [h.history for h in m.hands[:2]] == [h.history for h in t.match.hands[:2]] and m.standing == t.match.standing
    assert 'holds no seat' in refusal(lambda: t.record('forged'))

def test_a_table_from_a_prepared_exercise():
    x = next(iter(EXERCISES.values()))
    t = Table('abcdef', record=x.record)
    assert t.match.note == x.note and t.match.game.name == x.game
    assert 'not valid JSON' in refusal(lambda: Table('abcdef', record='{nope'))


# ---------------------------------------------------------------- the registry: codes, limits, a flood of joins

def test_codes_come_from_secrets_not_from_the_random_module():
    random.seed(1); a = [new_table_code() for _ in range(5)]
    random.seed(1); b = [new_table_code() for _ in range(5)]
    assert a != b
    codes = [new_table_code() for _ in range(3000)]
    assert len(set(codes)) == 3000
    counts = {s: sum(c.count(s) for c in codes) for s in CODE_SIGNS}
    assert min(counts.values()) > 450 and max(counts.values()) < 730  # 580 each on average

def test_codes_are_read_as_people_type_them():
    assert read_code('KQ7-M2X') == read_code(' kq7 m2x ') == 'kq7m2x'
    for bad in ('kq7m2', 'kq7m2xx', 'kq7m2o', 'kq7m21', 7, None, 'k' * 5000):
        assert 'a table code is 6 letters and digits' in refusal(lambda: read_code(bad))

def test_a_flood_of_joins_is_stopped_and_wrong_codes_count():
    clock = Clock()
    tables = Tables(max_joins=5, window=60, now=clock)
    host = tables.open('kocka', 'Asha', client='pc1')
    wrong = 'zzzzzz' if host.code != 'zzzzzz' else 'yyyyyy'
    for i in range(4): assert 'no open table has the code' in refusal(lambda: tables.join(wrong, f"B{i}", client='pc2'))
    tables.join(host.code, 'Bo', client='pc2')
    says = refusal(lambda: tables.join(host.code, 'Cy', client='pc2'))
    assert 'too many joins from your device: at most 5 in 60 s' in says
    assert tables.join(host.code, 'Cy', client='pc3').seat == 2  # another device is not held up
    clock.t += 61
    assert tables.join(host.code, 'Dana', client='pc2').seat == 3

def test_limits_on_open_tables():
    tables = Tables(max_tables=3, max_hosted=2, now=Clock())
    tables.open('kocka', 'A', client='pc1'); tables.open('kocka', 'B', client='pc1')
    assert 'you have opened 2 tables already' in refusal(lambda: tables.open('kocka', 'C', client='pc1'))
    for bad, says in [(('chess', 'D'), 'unknown game'), (('kocka', 'x' * 5000), 'this one has 5,000')]:
        assert says in refusal(lambda: tables.open(*bad, client='pc4'))
        assert len(tables.tables) == 2
    tables.open('kocka', 'C', client='pc2')
    assert 'this class has 3 tables open already' in refusal(lambda: tables.open('kocka', 'D', client='pc3'))
    assert len(tables.tables) == 3

def test_tokens_find_their_table_and_sweep_closes_empty_tables():
    clock = Clock()
    tables = Tables(hold=60, now=clock)
    a = tables.open('kocka', 'Asha', client='pc1')
    b = tables.open('begga-kaat', 'Bo', client='pc2', players=3)
    assert tables.table_of(a.token).code == a.code and tables.table_of(b.token).code == b.code
    assert tables.table_of(a.token) is not tables.table_of(b.token) and tables.table_of('x' * 32) is None
    t = tables.find(a.code)
    assert t.act(b.token, 'QH', 'r1').rule == 'table/token'  # another table's token acts for nothing here
    t.left(a.token); clock.t += 61
    assert tables.sweep() == [a.code] and t.closed
    assert 'no open table has the code' in refusal(lambda: tables.join(a.code, 'Cy', client='pc3'))
    assert tables.close(b.code) and not tables.close(b.code)


# ---------------------------------------------------------------- the teacher: pause, resume, set the work

def _seated(game='kocka', seed=4, students=(0, 2), **kw):
    "A started table with students at `students` and a listener on each page: (table, tickets by seat, heard by seat)."
    t = Table('tttttt', game, seed=seed, **kw)
    tickets = {s: t.join(f"Student {chr(65 + s)}", seat=s) for s in students}
    heard = {s: [] for s in students}
    for s, k in tickets.items(): t.subscribe(k.token, heard[s].append)
    t.start(tickets[students[0]].token)
    return t, tickets, heard

@pytest.mark.parametrize('name,players', SETUPS)
def test_a_paused_table_refuses_every_act_moves_no_bot_and_plays_on_as_it_was(name, players):
    t, tickets, heard = _seated(name, seed=11, students=(0, 1), **options(name, players))
    twin, twin_tickets, _ = _seated(name, seed=11, students=(0, 1), **options(name, players))
    for _ in range(3): t.bot_move(); twin.bot_move()
    assert t.pause('Look at the board').ok
    before = snapshot(t)
    for seat, k in tickets.items():
        for i, action in enumerate(t.match.legal_actions()[:3] or ['QH']):
            r = t.act(k.token, action, f"p{seat}-{i}")
            assert (r.ok, r.rule) == (False, 'table/paused') and 'teacher paused the table' in r.text, r
            one_line_under_200(r.text)
        last = heard[seat][-1]
        assert last['legal'] == [] and last['table']['paused'] == 'Look at the board'
        assert last['table']['waiting'] == "Your teacher paused the table: Look at the board. Wait until they resume it."
        assert t.waiting_text(seat) == last['table']['waiting']
    assert (t.bot_due, t.bot_move(), t.run_bots()) == (None, False, 0)
    assert snapshot(t) == before  # nothing moved while paused
    assert t.resume().ok and t.paused is None
    assert all(h[-1]['table']['paused'] is None for h in heard.values())
    for step in range(40):  # from here the paused table plays exactly as its twin that was never paused
        if t.match.over: break
        to = t.match.to_act
        if to in tickets:
            action = t.match.legal_actions()[0]
            assert t.act(tickets[to].token, action, f"a{step}").ok and twin.act(twin_tickets[to].token, action, f"a{step}").ok
        else: assert t.bot_move() and twin.bot_move()
    assert t.match.actions == twin.match.actions

def test_a_pause_before_the_start_refuses_the_start_and_a_bad_reason_changes_nothing():
    t = Table('tttttt', 'begga-kaat', seed=2)
    a = t.join('Asha')
    assert t.pause().ok and t.paused == ''
    r = t.start(a.token)
    assert (r.ok, r.rule, t.started) == (False, 'table/paused', False)
    assert t.waiting_text(0) == "Your teacher paused the table. Wait until they resume it."
    before = snapshot(t)
    for bad in ('x' * 121, 7, None, 'y' * 10_000):
        r = t.pause(bad)
        assert (r.ok, r.rule) == (False, 'table/reason'), r
        one_line_under_200(r.text)
    assert snapshot(t) == before and t.paused == ''
    assert t.pause('<b>Wait</b>\x1b[31m\u202e now').ok and t.paused == '<b>Wait</b>[31m now'  # plain text, kept as typed
    assert t.resume().ok and t.start(a.token).ok
    assert t.close() and t.pause('late').rule == 'table/closed'

def _works():
    "Work of every kind a teacher sets: (match, title)."
    record = EXERCISES['dehla-pakad-centre-three'].record
    played = Match(get_game('kocka'), seed=21)
    for _ in range(9): played.apply(played.legal_actions()[0])
    from cardgames_tutor.core.records import to_record
    deal = Match(get_game('begga-kaat'), seed=1).hand.deal
    return [(Match(get_game('kocka'), seed=42), 'Kočka, seed 42'),
            (load(json.loads(json.dumps(record))), 'the exercise: the centre holds three tricks'),
            (load(to_record(played)), 'a hand record'),
            (Match(get_game('begga-kaat'), seed=3, deals=[{'hands': [[str(c) for c in p] for p in deal['hands']]}]),
             'a deal your teacher wrote')]

@pytest.mark.parametrize('i', range(4))
def test_the_work_the_teacher_sets_is_a_copy_from_its_start_told_to_every_seat(i):
    match, title = _works()[i]
    t, tickets, heard = _seated('kocka', seed=3)
    for _ in range(5): t.bot_move()
    kept = {s: k.token for s, k in tickets.items()}
    assert t.set_work(match, title).ok
    assert t.match is not match and t.match.actions == match.actions and t.match.game == match.game
    assert [h.deal for h in t.match.hands] == [h.deal for h in match.hands]
    assert {s: t.seats[s].token for s in tickets} == kept  # the students keep their seats
    for seat, k in tickets.items():
        v = heard[seat][-1]
        assert v['table']['work'] == {'title': title, 'note': match.note or '', 'text': f"Your teacher set this work: {title}."}
        assert v == t.view(k.token)
        assert_view_clean(t, seat, v)
    if not t.match.over and t.match.legal_actions():  # the teacher's own match is not the table's
        n = len(t.match.actions)
        match.apply(match.legal_actions()[0])
        assert len(t.match.actions) == n

def test_work_for_more_players_adds_bots_and_for_fewer_is_refused_where_a_student_sits():
    t, tickets, heard = _seated('begga-kaat', seed=3, students=(0, 1), players=3)
    assert t.set_work(Match(get_game('begga-kaat', players=4), seed=1), 'Begga Kaat for four').ok
    assert len(t.seats) == 4 and t.states() == ['here', 'here', 'empty', 'empty'] and t.host == 0
    assert t.set_work(Match(get_game('kocka'), seed=1), 'Kočka').ok and len(t.seats) == 4
    t2, _, _ = _seated('begga-kaat', seed=3, students=(3,))
    before, work = snapshot(t2), t2.work
    r = t2.set_work(Match(get_game('begga-kaat', players=3), seed=1), 'Begga Kaat for three')
    assert (r.ok, r.rule) == (False, 'table/work-seats') and 'Seat 3' in r.text and 'for 3 players' in r.text, r
    assert snapshot(t2) == before and t2.work is work and t2.match.game.n_seats() == 4
    t3 = Table('uuuuuu', 'begga-kaat', seed=3)
    a = t3.join('Asha', seat=1)
    assert t3.set_work(Match(get_game('begga-kaat', players=3), seed=1), 'three').ok and t3.host == 1
    assert t3.seat_of(a.token) == 1

def test_bad_work_is_refused_in_one_line_and_a_paused_table_stays_paused():
    t, tickets, heard = _seated('kocka', seed=3)
    t.pause('wait')
    before = snapshot(t)
    for match, title in [('kocka', 'x'), (None, 'x'), (Match(get_game('kocka'), seed=1), ''),
                         (Match(get_game('kocka'), seed=1), 'y' * 121), (Match(get_game('kocka'), seed=1), 3)]:
        r = t.set_work(match, title)
        assert not r.ok and r.rule == 'table/work', r
        one_line_under_200(r.text)
    assert snapshot(t) == before
    assert t.set_work(Match(get_game('kocka'), seed=1), 'new deal').ok and t.paused == 'wait'
    assert t.act(tickets[0].token, 'pass QL', 'z').rule == 'table/paused'

@pytest.mark.parametrize('name,players', SETUPS)
def test_pauses_and_new_work_in_the_middle_of_play_keep_every_view_clean(name, players):
    "Random play with the teacher pausing, resuming and setting new work (a constrained deal too): every view heard is clean."
    from cardgames_tutor.core.deals import constrained_deal
    rng = random.Random(f"teacher {name} {players}")
    t, tickets, heard = _seated(name, seed=rng.randrange(1000), students=(0, 1), **options(name, players))
    game = t.match.game
    seen = {seat: 0 for seat in heard}
    for step in range(120):
        r = rng.random()
        if r < 0.05: t.pause(rng.choice(['', 'look', 'Seat 2 played well']))
        elif r < 0.10: t.resume()
        elif r < 0.13:
            card = rng.choice(game.deck())
            work = constrained_deal(game, f"seat 1 holds {card.code}", seed=step).match
            assert t.set_work(work, f"a prepared deal of {game.title}").ok
            assert card in {c for k, v in t.match.hands[0].deal.items() if not isinstance(game.deal_shape()[k], int) for c in v[1]}
        elif t.match.over: break
        else:
            to = t.match.to_act
            if to in tickets:
                reply = t.act(tickets[to].token, rng.choice(t.match.legal_actions()), f"s{step}")
                assert reply.ok == (t.paused is None), reply
            else: assert t.bot_move() == (t.paused is None)
        for seat, views in heard.items():
            if len(views) > seen[seat]: assert_view_clean(t, seat, views[-1])  # the view of the table as it is now
            seen[seat] = len(views)
    assert all(len(v) for v in heard.values())


# ---------------------------------------------------------------- the teacher: the pause's line, work from the next hand

def test_a_paused_tables_facts_carry_the_pauses_own_line_for_every_page():
    t, tickets, heard = _seated('kocka', seed=3)
    assert heard[0][-1]['table']['paused_text'] is None
    t.pause('eyes on the board')
    for seat in tickets: assert heard[seat][-1]['table']['paused_text'] == t.waiting_text(seat) == \
        'Your teacher paused the table: eyes on the board. Wait until they resume it.'
    t.resume()
    assert all(h[-1]['table']['paused_text'] is None for h in heard.values())

@pytest.mark.parametrize('name,players', [('kocka', 4), ('begga-kaat', 3), ('dehla-pakad', 4)])
def test_work_from_the_next_hand_starts_at_the_move_that_ends_the_hand_in_play(name, players):
    "Set from the next hand: the hand under way is played to its end (by students and bots); the move that ends it starts the work."
    t, tickets, heard = _seated(name, seed=5, students=(0, 1), **options(name, players))
    for _ in range(3): t.bot_move() or t.act(tickets[t.match.to_act].token, t.match.legal_actions()[0], f"w{len(t.match.actions)}")
    assert t.in_hand()
    old, work = t.match.hands[0], Match(get_game('kocka'), seed=42)
    r = t.set_work(work, 'Kočka, seed 42', 'next-hand')
    assert (r.ok, r.rule) == (True, 'table/work-next') and 'from its next hand' in r.text, r
    assert t.match.hands[0] is old and t.work is None  # nothing changed yet but the word to every seat
    assert all(h[-1]['table']['next_work'] == 'Kočka, seed 42' for h in heard.values())
    step = 0
    while t.match.hands[0] is old:  # the hand under way, played to its end
        to = t.match.to_act
        if to in tickets: assert t.act(tickets[to].token, t.match.legal_actions()[0], f"n{step}").ok
        else: assert t.bot_move()
        step += 1
    assert old.is_over and t.match.game.name == 'kocka' and t.match.actions == [] and t.next_work is None
    assert len(t.seats) == 4 and t.states()[:2] == ['here', 'here']  # fitted when it started: the students keep their seats
    for seat, k in tickets.items():
        v = heard[seat][-1]
        assert v == t.view(k.token) and v['table']['next_work'] is None
        assert v['table']['work']['text'] == "Hand 1 is over. Your teacher set this work: Kočka, seed 42."  # no card in a table's facts
        assert_view_clean(t, seat, v)

def test_work_from_the_next_hand_with_no_hand_under_way_starts_at_once_and_now_replaces_it():
    t, tickets, heard = _seated('kocka', seed=3)
    assert not t.in_hand()  # started, no move made yet: no hand under way
    assert t.set_work(Match(get_game('kocka'), seed=7), 'seed 7', 'next-hand').rule == 'table/work'
    t.bot_move() or t.act(tickets[t.match.to_act].token, t.match.legal_actions()[0], 'a')
    assert t.set_work(Match(get_game('kocka'), seed=8), 'seed 8', 'next-hand').rule == 'table/work-next'
    assert t.set_work(Match(get_game('kocka'), seed=9), 'seed 9').rule == 'table/work'  # now: the work waiting is dropped too
    assert (t.match.seed, t.next_work, heard[0][-1]['table']['next_work']) == (9, None, None)
    r = t.set_work(Match(get_game('kocka'), seed=1), 'x', 'tomorrow')
    assert (r.ok, r.rule) == (False, 'table/work') and 'next hand' in r.text

def test_work_from_the_next_hand_is_dropped_if_a_student_sat_beyond_its_seats_meanwhile():
    t, tickets, heard = _seated('begga-kaat', seed=3, students=(0,), players=4)
    t.bot_move() or t.act(tickets[t.match.to_act].token, t.match.legal_actions()[0], 'a')
    assert t.set_work(Match(get_game('begga-kaat', players=3), seed=1), 'three', 'next-hand').ok
    t.join('Dee', seat=3)  # a student takes the fourth seat while the hand is played
    old, step = t.match.hands[0], 0
    while not old.is_over:
        to = t.match.to_act
        if t.seats[to].token is None: t.bot_move()
        else: assert t.act(t.seats[to].token, t.match.legal_actions()[0], f"d{step}").ok
        step += 1
    assert (t.match.game.n_seats(), t.next_work, t.work, len(t.match.hands)) == (4, None, None, 2)  # played on with its match
