"""Tables in every game (issue 33, deliverable 3): four students, each in a Chromium page of their own, play one whole
hand at one table of each of the five games, and at every step no page holds a card of another seat's hidden hand.

One classroom server for the file. Each game: a student opens the table from the start page, three follow its link and
join (one of them on a phone: a 390x844 touch screen, who joins and plays by tapping); the empty seats, if any, are
bots (Beggars and Thieves for five: four students and a bot). The students make every move of the hand through their
page: a lit card; cards chosen, then the verb (Kočka's pass, the bury); or a move button (a trump, pick or pass, the
partner, beg). A mirror match (same game, same seed, the bots' own stream `Random("bots SEED")` as `tables.table` has
it) is played alongside, so the test knows what each seat may see: the leak check's `may_see` (tests/helpers.py), from
the deal and the record, never the game's own word. Before each student's move the page's lit cards and move buttons
must be exactly what the engine allows that seat (so the mirror follows the server); after each move every page counts
it (or, a bot being due next, up to the bots' moves due: the server plays them 0.3 s on, whether or not the test has
looked at every page by then), and each page's DOM and every widget message it was sent hold no card that seat may not see.

Every wait is on the page's state, with generous timeouts for a loaded machine; nothing is timed.
"""
import contextlib, random, re
import pytest
from cardgames_tutor.core.cards import Card
from cardgames_tutor.core.registry import get_game, games
from cardgames_tutor.core.match import Match
from cardgames_tutor.core.actions import action_text
from cardgames_tutor.ui.session_data import sort_actions
from cardgames_tutor.ui.table import move_label
from helpers import POLL, SHOWN, cards_in, may_see, named_only, sign_in, wait_shown
from test_classroom_tables import (WAIT, Student, _WORD, _missing, _plain, _public, browser_test, chromium,
                                   classroom, hidden_from, join_from, open_from)
import test_classroom_tables as tables_file

# (game, players (None: the game has one size), seed, which joiner is on the phone (0, 1 or 2: Seat 1, 2 or 3))
TABLES = [('begga-kaat', 4, 12, 2), ('kocka', None, 7, 0), ('dehla-pakad', None, 12, 1), ('maghe-satra', 4, 7, 2),
          ('beggars-and-thieves', 5, 3, 1)]
NAMES = ['Asha', 'Bo', 'Chidi', 'Dana']
PHONE = {'viewport': {'width': 390, 'height': 844}, 'is_mobile': True, 'has_touch': True, 'device_scale_factor': 3}


class Phone:
    "A browser whose new contexts are a phone's (390x844, a touch screen): `Student(Phone(browser), ...)`."
    def __init__(self, browser): self.browser = browser
    def new_context(self, **options): return self.browser.new_context(**{**options, **PHONE})


def join_by_tap(s:Student, code, name) -> Student:
    "A student on a phone (`s`: a `Phone`'s page at the table's link) types a name and taps *Join the table*."
    assert s.page.input_value('.cgt-code input', timeout=WAIT) == code
    s.page.fill('.cgt-name input', name); s.mark(); s.page.tap('.cgt-join')
    return s.seated()


@pytest.fixture(scope='module')
def room():
    "One classroom server (bots at 0.3 s a move) and one Chromium for the whole file."
    if _missing(): pytest.skip(_missing())
    with classroom('--bot-pace', '0.3') as addr, chromium() as browser: yield addr, browser


@pytest.fixture(scope='module')
def class_pages(room):
    """The class's four browsers for the whole file (three desks and a phone): each one context (its own cookies: a student
    of its own) and one page, which goes to the next game's link when a game is over (its table's page closed, as a tab
    is). A page loaded again in the same page costs Chromium less than a new context's first page."""
    kept = {}
    yield kept
    for s in kept.values():
        with contextlib.suppress(Exception): s.close()

def student(kept, room, key, query, name) -> Student:
    "The page of the browser `key` ('desk0'-'desk2', 'phone') at `query`: made the first time, else sent there."
    addr, browser = room
    s = kept.get(key)
    if s is None: s = kept[key] = Student(Phone(browser) if key == 'phone' else browser, addr, query, name)
    else: s.visit(query, name)
    s.__dict__.pop('clean', None)  # `named_in_parts`' parts read clean: the last game's cards, not this one's
    return s

def sit(kept, room, k, name, players, seed, phone_at) -> list:
    """The host opens the table, three students join (the `phone_at`-th on a phone); with seats left, the host starts.
    The `k`-th game's host is desk k mod 3 (a browser hosts two tables at most: `--max-hosted`), the other desks join."""
    title = games()[name].title
    desks = [f'desk{(k + j) % 3}' for j in range(3)]
    # the host's page comes from a link with an empty table code (the join form, no solo game): a solo game's panel goes on
    # sending its own deal's cards for a while after the page switches to the open form, which the scan would count
    host = open_from(student(kept, room, desks[0], '?table=', NAMES[0]), NAMES[0], game=title, players=players, seed=seed)
    assert host.seat == 0 and 'Start the match' in host.waiting()
    assert host.page.is_visible('.cgt-start')  # the host may start with bots in the empty seats
    students, others = [host], iter(desks[1:])
    for i, who in enumerate(NAMES[1:]):
        s = student(kept, room, 'phone' if i == phone_at else next(others), f'?table={host.code}', who)
        students += [join_by_tap(s, host.code, who) if i == phone_at else join_from(s, host.code, who)]
        students[-1].phone = i == phone_at
    host.phone = False
    assert [s.seat for s in students] == [0, 1, 2, 3]
    if players is not None and players > 4:  # seats are left for bots: the host starts the match
        host.wait_waiting('Start the match'); host.page.click('.cgt-start')
    host.page.wait_for_function(f"sel => !({SHOWN})(sel)", arg='.cgt-start', polling=POLL, timeout=WAIT)  # hidden (a look every POLL ms)
    assert 'Start the match' not in host.waiting()  # every seat taken (or the host started): the match is on
    for s in students:
        seats = s.page.inner_text('.cgt-seats')
        assert all(f"{n} (Seat {i}" in seats for i, n in enumerate(NAMES)), seats
    for s in students: s.scanned = 0  # how many of the page's widget messages have been scanned
    return students


def hidden(mirror:Match, seat:int) -> set:
    """The cards `seat` may not see now (from the deal and the record: `may_see`) that its own view does not name either
    (a view may name a card without placing it, e.g. `call 7 Thief`; the seat's own moves are its own)."""
    hand, pack = mirror.hand, mirror.game.pack
    own = [str(a) for s, a in hand.history if s == seat]
    return set(pack) - may_see(hand, seat) - cards_in([hand.view(seat), own], pack)

def cards_named(text:str, cards) -> set:
    """The cards of `cards` written in `text`: by code ('QH'), sign ('Q♥') or name ('queen of hearts'), each a whole word
    ('2 of Thieves' is not in '12 of Thieves'); not a card a rule names ("whoever holds the 6 Thief": `named_only`)."""
    text = named_only(text)
    words = set(_WORD.findall(text))
    return {c for c in cards if c.code in words or sign_in(c.symbol, words, text)
            or (c.name in text and re.search(r'(?<![\w])' + re.escape(c.name) + r'(?![\w])', text))}

_DATA_VALUE = re.compile(r' data-value="[^"]*"')  # a dropdown option's text percent-encoded (its text is read): "·" is %C2%B7, not card B7

def dom(s:Student, whole:str|None=None) -> str:
    "The page's DOM as the scan reads it: without the first-dealer lot (a public shuffle) and the options' encoded copies."
    return _DATA_VALUE.sub('', _public(s.page.content()) if whole is None else whole)

_PART = re.compile(r'(?=<div[\s>])')  # a page's HTML cut before each <div>: no card's name, code or sign, and no sentence of a rule's card, crosses a cut

def named_in_parts(s:Student, page:str, cards:set, named=cards_named) -> set:
    """`named(page, cards)`, the page read part by part (`_PART`: the same cards, as nothing named crosses a cut), each part
    read again only for cards it has not been read clean of: between two moves most of a page stays as it was."""
    clean, found = s.__dict__.setdefault('clean', {}).setdefault(named, {}), set()
    for part in _PART.split(page):
        was = clean.get(part)
        if was is not None and cards <= was: continue
        seen = named(part, cards)
        if seen: found |= seen
        else: clean[part] = frozenset(cards) if was is None else was | cards
    return found

def scan(s:Student, cards:set, held:set|None=None):
    """No card of `cards` in the page's DOM, nor in any widget message it was sent since it sat (each message read once).
    `held`: the cards in the other seats' hands now (a plain trick game: `hidden_from`), none of which the page's DOM (its
    options' copies too) nor those messages may name either, as `tests/test_classroom_tables.py`'s `leaks` reads them."""
    whole = _public(s.page.content())
    page = dom(s, whole)
    shown = named_in_parts(s, page, cards)
    new, s.scanned = s.frames[s.scanned:], len(s.frames)  # the hidden cards only ever shrink: earlier messages were read for more
    text = '\n'.join(map(_plain, new))
    state = cards_named(text, cards)
    assert not shown and not state, (f"Seat {s.seat}'s page holds cards of another seat: DOM {shown}, widget state {state}: "
                                     f"{where(page if shown else text, min(shown or state, key=str))}")
    if held is not None:
        found = {'dom': named_in_parts(s, whole, held, tables_file.cards_named), 'state': tables_file.cards_named(text, held)}
        assert not found['dom'] and not found['state'], f"Seat {s.seat}'s page holds another seat's cards: {found}"

def where(text:str, card) -> str:
    "The words around the first place `text` names `card`."
    at = min((i for i in (text.find(card.name), *(m.start() for t in (card.code, card.symbol)
                                                  for m in re.finditer(r'(?<![\w])' + re.escape(t) + r'(?![\w])', text))) if i >= 0), default=0)
    return repr(text[max(0, at - 200):at + 200])


def expected(mirror:Match, seat:int):
    "(the titles of the cards the page must light, the move buttons it must show) for `seat` now."
    legal, hand = mirror.legal_actions(), list(mirror.view(seat).get('hand') or [])
    cards, plain, choose = sort_actions(legal, hand)
    lit = {c.name for c in cards} | {c.name for ms in choose.values() for m in ms for c in m.cards}
    buttons = [move_label(m, mirror.game.pack) for m in plain] + [f"{verb}: choose" for verb in choose]
    return sorted(lit), buttons, (cards, plain, choose)

_SHOWN = """() => ({lit: [...document.querySelectorAll('.cgt-tutor button.cgt-card.cgt-legal')].map(b => b.title).sort(),
                   moves: [...document.querySelectorAll('.cgt-tutor .cgt-moves button')].map(b => b.innerText.trim())})"""

def wait_controls(s:Student, lit, buttons):
    "Wait until the page lights exactly `lit` and shows the move buttons `buttons` (a verb's: its text's start)."
    js = """([lit, buttons]) => { const now = (%s)();
      return JSON.stringify(now.lit) === JSON.stringify(lit) && now.moves.length === buttons.length
             && buttons.every((b, i) => now.moves[i] === b || (b.endsWith(': choose') && now.moves[i].startsWith(b))); }""" % _SHOWN
    try: s.page.wait_for_function(js, arg=[lit, buttons], polling=POLL, timeout=WAIT)
    except Exception:
        raise AssertionError(f"Seat {s.seat}'s page does not show the moves the engine allows: it shows "
                             f"{s.page.evaluate(_SHOWN)}, the engine allows lit {lit}, buttons {buttons}") from None

def press(s:Student, action, choose, pack):
    "Make `action` through the page, as its student would: tap on the phone, click elsewhere."
    do = (lambda loc: loc.tap(timeout=WAIT)) if s.phone else (lambda loc: loc.click(timeout=WAIT))
    card = lambda c, state: s.page.locator(f'.cgt-tutor button.cgt-card.{state}[title="{c.name}"]')
    if isinstance(action, Card): return do(card(action, 'cgt-legal'))
    if action.verb in choose and action in choose[action.verb]:
        for c in action.cards:
            do(card(c, 'cgt-legal'))
            card(c, 'cgt-chosen').wait_for(timeout=WAIT)
        words = ' '.join(c.words for c in action.cards)
        return do(move_button(s, f"{action.verb} {words}"))
    do(move_button(s, move_label(action, pack)))

def move_button(s:Student, label:str):
    "The page's move button reading `label`, once it is shown (one clear line if it is there but hidden)."
    button = s.page.locator('.cgt-tutor .cgt-moves button', has_text=re.compile('^' + re.escape(label) + '$'))
    try: button.wait_for(state='visible', timeout=WAIT)
    except Exception:
        raise AssertionError(f"Seat {s.seat}'s page has no visible move button {label!r} "
                             f"({button.count()} on the page, hidden: its display is none)") from None
    return button


def bots_ahead(mirror:Match, rng, by_seat) -> Match:
    "A copy of `mirror` after the bots' moves due now (played from a copy of their stream `rng`), within the first hand."
    ahead, peek = mirror.replayed(mirror.actions), random.Random()
    peek.setstate(rng.getstate())
    while not ahead.hands[0].is_over and ahead.to_act not in by_seat:
        seat = ahead.to_act
        ahead.apply(ahead.game.bot(ahead.view(seat, text=False), peek), seat)
    return ahead

def mirror_says(mirror:Match, by_seat) -> str:
    "The mirror's side of a page that does not count its moves: its count, whom it waits for, its last moves (whose: a student or a bot)."
    last = ', '.join(f"Seat {s} ({'student' if s in by_seat else 'bot'}) {action_text(a, mirror.game, 'done')}"
                     for _, s, a in mirror.actions[-6:])
    to = 'nobody (the hand is over)' if mirror.hands[0].is_over else f"Seat {mirror.to_act}"
    return f"the mirror counts {len(mirror.actions)} moves, waits for {to}; its last moves: {last}"

def play_hand(students, mirror:Match, seed, held:bool=False) -> dict:
    """The first hand to its end, every student's move made on their page; the bots' moves as the server's bots make
    them (the same stream). `held`: each page is scanned for the cards in the other seats' hands too (a plain trick
    game). Returns what was made, by kind: {'card': n, 'chosen': n, 'button': n, 'bot': n}."""
    by_seat, rng, made = {s.seat: s for s in students}, random.Random(f"bots {seed}"), dict.fromkeys(('card', 'chosen', 'button', 'bot'), 0)
    for s in students:  # the scan is not blind: it finds the page's own cards on it, and in the widget messages it was sent
        own = set(mirror.view(s.seat).get('hand') or ())
        whole = _public(s.page.content())
        found = cards_named(dom(s, whole), own)
        assert own and found == own, f"the scan does not see Seat {s.seat}'s own cards on its page: {found} of {own}"
        sent = tables_file.cards_named('\n'.join(map(_plain, s.frames)), own)
        assert sent == own, f"the scan does not see Seat {s.seat}'s own cards in its widget messages: {sent} of {own}"
        if held: assert tables_file.cards_named(whole, own) == own, f"the scan does not see Seat {s.seat}'s own cards on its page"
    while not mirror.hands[0].is_over:
        to = mirror.to_act
        if to in by_seat:
            s = by_seat[to]
            s.wait_waiting('Your turn.')
            lit, buttons, (cards, plain, choose) = expected(mirror, to)
            wait_controls(s, lit, buttons)
            action = cards[0] if cards else next(iter(choose.values()))[0] if choose else plain[0]
            press(s, action, choose, mirror.game.pack)
            made['card' if cards else 'chosen' if choose else 'button'] += 1
            mirror.apply(action, to)
        else:  # a bot's seat: its moves (one or more in a row) as the server's bot makes them
            while not mirror.hands[0].is_over and mirror.to_act not in by_seat:
                seat = mirror.to_act
                mirror.apply(mirror.game.bot(mirror.view(seat, text=False), rng), seat); made['bot'] += 1
        # a bot due now may play before a page is looked at (0.3 s on, however slow the test): a page counts up to its
        # moves too; the hand over (or ended by the bots), the next may start at once (bots playing on): a page counts more
        over = mirror.hands[0].is_over
        ahead = None if over else bots_ahead(mirror, rng, by_seat)
        most = None if over or ahead.hands[0].is_over else len(ahead.actions)
        for t in students: t.wait_moves(len(mirror.actions), at_least=most is None, most=most, why=mirror_says(mirror, by_seat))
        if not over:  # a bot due now may play while the page is scanned: its card is public then
            for t in students: scan(t, hidden(ahead, t.seat), hidden_from(ahead, t.seat) if held else None)
    for s in students:  # the hand is over on every page, with its result
        wait_shown(s.page, '.cgt-message.cgt-result', WAIT)
        assert re.search(r'(Hand|Deal) 1 is over', s.page.inner_text('.cgt-message'))  # Dehla Pakad says deal
    return made


@browser_test
@pytest.mark.parametrize('name, players, seed, phone_at', TABLES, ids=[t[0] for t in TABLES])
def test_four_students_play_a_whole_hand_each_page_holding_only_its_own_seat(room, class_pages, name, players, seed, phone_at):
    students = sit(class_pages, room, [t[0] for t in TABLES].index(name), name, players, seed, phone_at)
    game = get_game(name, **({'players': players} if players else {}))
    assert game.n_seats() == (players or 4)
    mirror = Match(game, seed=seed)
    made = play_hand(students, mirror, seed, held=name == 'begga-kaat')  # a plain trick game: no card of another hand at all
    if name == 'begga-kaat':  # the hand of tests/test_classroom_tables.py's four students, played here once: all 52 cards
        assert len(mirror.hands[0].history) == 52 and all('Hand 1 is over' in s.page.inner_text('.cgt-message') for s in students)
    assert made['card'] + made['chosen'] + made['button'] > 0 and (made['bot'] == 0 if game.n_seats() == 4 else made['bot'] > 0)
    if name == 'kocka': assert made['chosen'] == 4  # every seat passed three cards, chosen on its page
    if name == 'beggars-and-thieves': assert made['chosen'] == 1 and made['button'] >= 2  # pick, bury, partner
    if name in ('dehla-pakad', 'maghe-satra'): assert made['button'] >= 1  # the trump named; begged or passed
    phone = next(s for s in students if s.phone)
    assert phone.page.viewport_size == {'width': 390, 'height': 844} and phone.page.evaluate('matchMedia("(pointer: coarse)").matches')
    # the hand over, its result, the scores and the chart shown: nothing is wider than the phone's screen (the chart's
    # fixed width once grew the page to 528 px and cut off the right edge of every line)
    phone.page.wait_for_function("() => { const i = document.querySelector('img.cgt-chart'); return i && i.complete; }", polling=POLL, timeout=WAIT)
    assert phone.page.evaluate('document.documentElement.scrollWidth') <= 390
