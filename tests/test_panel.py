"""The tutor panel without a browser: every available game played through its widgets only.

Buttons are pressed with `button.click()` and values set with `.value`, as a learner would; the
tests compare what the widgets show with what the engine says (legal actions, explanations,
views, hidden cards). Tests of the session alone (no widgets) are in tests/test_session.py; the
hostile-visitor tests (uploads, downloads, closing, errors in callbacks) are at the end here.
"""
import base64, builtins, datetime, html, json, pathlib, re
import pytest
import ipywidgets
from ipywidgets.widgets import widget as widget_module
from cardgames_tutor.core.cards import Card
from cardgames_tutor.core.engine import rule_title, rule_name
from cardgames_tutor.core.options import BadOption
from cardgames_tutor.core.registry import games, get_game
from cardgames_tutor.core.actions import Move, action_text
from cardgames_tutor.core.match import Match, play_out
from cardgames_tutor.ui.panel import Tutor
from cardgames_tutor.ui.session_data import sort_actions
from cardgames_tutor.ui.table import seat_positions, direction_of, cards_text_words
from cardgames_tutor.core.words import hand_word, in_game_words
from cardgames_tutor.ui.drawing import move_label
from cardgames_tutor.core.contracts import seats_text
from cardgames_tutor.core import records
from cardgames_tutor.term.terminal import for_you
from helpers import cards_in, may_see, named_only, sign_in, sign_re

GAMES = list(games())

def _setups(every_size=False):
    "Each game at its default size and one other size it allows (or every size; from the registry)."
    out = []
    for name, info in games().items():
        out.append((name, None))
        others = [n for n in info.players if n != get_game(name).n_seats()]
        out += [(name, n) for n in (others if every_size else others[:1])]  # one other size is enough here
    return out

def make(name, players=None, **kw):
    "A panel at the learner's first turn (moved on from any hand the bots finished before it)."
    t = Tutor(name, **({'players': players} if players else {}), **kw)
    while t.session.review is not None and not t.match.over: t.move_button('next hand').click()
    return t

def lit(t):
    return [c for b, c in t._hand_pairs() if 'cgt-legal' in b._dom_classes]

def press_one(t, rng_pick=0):
    """Make the learner's move through the widgets: a lit card, or cards chosen then the verb, or a move button
    (or, when a finished hand is on screen, "next hand")."""
    if t.session.review is not None and not t.match.over:
        t.move_button('next hand').click()
        return 'next hand'
    legal = t.match.legal_actions()
    hand = list(t.match.view(t.seat).get('hand') or [])
    cards, plain, choose = sort_actions(legal, hand)
    if cards:
        card = cards[rng_pick % len(cards)]
        t.card_button(card).click()
        return card
    if choose:
        verb, moves = next(iter(choose.items()))
        move = moves[rng_pick % len(moves)]
        for c in move.cards: t.card_button(c).click()
        t.move_button(verb).click()
        return move
    move = plain[rng_pick % len(plain)]
    t.move_button(str(move)).click()
    return move

def check_controls(t):
    """The lit cards and the move buttons are exactly what the engine allows the learner now."""
    legal = t.match.legal_actions() if t.match.to_act == t.seat else []
    hand = list(t.match.view(t.seat).get('hand') or [])
    cards, plain, choose = sort_actions(legal, hand)
    shown = [c for _, c in t._hand_pairs()]
    assert set(hand) <= set(shown)
    if cards:
        assert set(lit(t)) == set(cards)
        for b, c in t._hand_pairs():
            assert ('cgt-legal' in b._dom_classes) == (c in cards)
    elif choose:
        assert set(lit(t)) == {c for ms in choose.values() for m in ms for c in m.cards}
    else:
        assert lit(t) == []
    labels = [b.description for b in t.move_box.children]
    for m in plain: assert move_label(m, t.game.pack) in labels
    for verb in choose: assert any(l.startswith(verb) for l in labels)


_CARD_SPAN = re.compile(r'<span class="cgt-mini" data-card="(\w+)"[^>]*>(?:[^<]|<span[^>]*>[^<]*</span>)*</span>')

def _result_line(scores_html, number):
    "The text of hand `number`'s line in the standing table (each drawn card as its code), or None."
    m = re.search(rf'<p class="cgt-last" data-hand="{number}">(.*?)</p>', scores_html, re.S)
    return m and html.unescape(re.sub(r'<[^>]+>', '', _CARD_SPAN.sub(lambda c: c.group(1), m.group(1))))

def _words_and_cards(text, pack):
    "The words of `text` with each card as '<card>', and the cards in order (signs, words and codes read alike)."
    many = sorted({c.symbol for c in pack if ' ' in c.symbol}, key=len, reverse=True)  # `6 Thief`: one card in two words
    if many: text = re.sub(r'(?<![\w])(' + '|'.join(map(re.escape, many)) + r')(?![\w])', lambda m: pack.parse(m.group(1)).code, text)
    words, cards = [], []
    for w in text.split():
        try: cards.append(pack.parse(w.strip('.,;:()[]!?'))); words.append('<card>')
        except ValueError: words.append(w)
    return words, cards


@pytest.mark.parametrize('name,players', _setups())
def test_full_hand_through_widgets(name, players):
    "A whole hand of every game, driven by clicks only; the controls always match the legal actions."
    t = make(name, players, seed=11)
    hands_at_start, steps = len(t.match.hands), 0
    while len(t.match.hands) == hands_at_start and not t.match.over:
        assert t.match.to_act == t.seat  # the bots have played up to the learner's turn
        check_controls(t)
        n = len(t.match.actions)
        press_one(t, steps)
        assert len(t.match.actions) > n, t.message.value
        steps += 1
        assert steps < 400
    first = t.match.hands[hands_at_start - 1]
    assert first.is_over and first.result is not None
    # the standing table's line for that hand is the result's text, word for word and card for card
    shown = _result_line(t.scores.value, hands_at_start)
    assert shown is not None, t.scores.value
    hand_no = in_game_words(f"Hand {hands_at_start}", t.game)  # the game's word for a hand (Dehla Pakad: Deal 1)
    assert _words_and_cards(shown, t.game.pack) == _words_and_cards(f"{hand_no}: {first.result['text']}", t.game.pack)
    # the standing table shows the game's tally, and the chart has been drawn (no event loop: at once)
    label, values = t.game.tally(t.match.standing)
    assert label in t.scores.value
    assert t.chart.value.startswith('<img class="cgt-chart" alt="Chart of') and t.chart.layout.display is None


@pytest.mark.usefixtures('chart_pixels_unread')
@pytest.mark.parametrize('name', GAMES)
def test_illegal_card_is_explained(name):
    "Clicking a dimmed card (or any card when the phase wants a move) shows the hand's own explanation; nothing changes."
    t = make(name, seed=3)
    for step in range(300):
        if t.match.over: break
        states = {c: b._dom_classes for b, c in t._hand_pairs()}
        pick = [c for c, cls in states.items() if 'cgt-illegal' in cls] or \
               [c for c, cls in states.items() if 'cgt-idle' in cls]
        if pick and t.match.to_act == t.seat and not t.choosing:
            card = pick[0]
            before = (len(t.match.actions), t.match.to_act, t.match.hand.phase)
            t.card_button(card).click()
            verdict = t.match.hand.explain(card, t.seat)
            assert not verdict.legal
            shown = html.unescape(re.sub(r'<[^>]+>', '', t.message.value))  # what the page shows
            assert f"(rule: {rule_name(verdict.rule, t.game)})" in shown and verdict.rule not in shown and 'cgt-refused' in t.message.value
            assert (len(t.match.actions), t.match.to_act, t.match.hand.phase) == before
            return
        press_one(t, step)
    pytest.fail(f"{name}: no dimmed card met in 300 moves with seed 3 (is every card lit?)")


@pytest.mark.usefixtures('chart_pixels_unread')
@pytest.mark.parametrize('name', GAMES)
def test_step_back_forward_jump_undo(name):
    "Step back and forward through the match, jump to a trick, and undo the learner's last move."
    t = make(name, seed=5)
    for i in range(6):
        if t.match.over: break
        press_one(t, i)
    n = len(t.match.actions)
    live_table = t.table.value
    t.back.click()
    assert t.cursor == n - 1 and not t.forward.disabled and t.undo_button.disabled
    view = t.match.replayed(t.match.actions[:n - 1]).view(t.seat)
    assert t.status.value.count(f"move {n - 1} of {n}") == 1
    assert ('your turn' in t.status.value) == (view['to_act'] == t.seat)
    t.first.click(); assert t.cursor == 0 and t.back.disabled
    t.forward.click(); assert t.cursor == 1
    # while stepping, cards are not played
    if t.hand_box.children:
        t.hand_box.children[0].click(); assert len(t.match.actions) == n
    t.last.click(); assert t.cursor is None and t.table.value == live_table
    # jump to a trick, if the game has tricks and one is done
    labels = dict(t.jump.options)
    assert labels[in_game_words('hand 1 · start', t.game)] == 0  # Dehla Pakad: deal 1 · start
    tricks = [(label, k) for label, k in t.jump.options if 'trick' in label]
    if tricks:
        label, k = tricks[0]
        t.jump.value = k
        assert t.cursor == k and t.jump.value == k
        # the trick just finished is what the table shows: its cards, and its winner in the centre
        trick = [e for e in t.session.shown().hand.events if e.kind == 'trick'][-1]
        assert all(f'data-card="{c.code}"' in t.table.value for c in trick.data['cards'])
        assert f"Seat {trick.data['winner']} won trick {trick.data['number']}" in t.table.value
        t.last.click()
    # undo: back to the learner's turn before their last move, bots' replies included
    mine = max(i for i, (_, s, _a) in enumerate(t.match.actions) if s == t.seat)
    t.undo_button.click()
    assert len(t.match.actions) == mine and t.match.to_act == t.seat
    check_controls(t)


def test_widgets_that_look_alike_share_their_layout_and_style():
    "A class holds 30 panels: the card buttons share one layout and one style, and a ringed hint is a CSS class."
    t = Tutor('begga-kaat', seed=1)
    cards = [b for b, _ in t._hand_pairs()]
    assert len(cards) == 13 and len({id(b.layout) for b in cards}) == 1 and len({id(b.style) for b in cards}) == 1
    moves_and_steps = [t.first, t.back, t.undo_button, t.deal_button]
    assert len({id(b.layout) for b in moves_and_steps}) == 1
    assert len(t._all_widgets()) <= 110, len(t._all_widgets())  # 159 when each widget made its own
    card = t.lit_cards()[0]
    t.ring(card)
    assert [c for b, c in t._hand_pairs() if 'cgt-hint' in b._dom_classes] == [card]
    assert all(b.layout.border in (None, '') for b in cards)  # the shared layout is never changed for one card
    t.close()

def test_undo_with_nothing_to_undo():
    t = Tutor('begga-kaat', seed=1)
    assert not any(s == t.seat for h in t.match.hands for s, _ in h.history)  # a new panel: the learner has not moved
    n = len(t.match.actions)
    t.undo_button.click()
    assert "Nothing of yours" in t.message.value and len(t.match.actions) == n


def test_same_seed_same_deal_and_teaching_toggle():
    t = Tutor('begga-kaat', seed=42)
    deal = [list(h) for h in t.match.hands[0].deal['hands']]
    t.seed_box.value = '42'
    t.deal_button.click()
    assert [list(h) for h in t.match.hands[0].deal['hands']] == deal
    assert [list(h) for h in Tutor('begga-kaat', seed=42).match.hands[0].deal['hands']] == deal
    others = {c for s in range(1, 4) for c in t.match.hand.hands[s]}
    t.teach.value = True
    assert all(f'data-card="{c.code}"' in t.table.value for c in others)
    t.teach.value = False
    assert not any(f'data-card="{c.code}"' in t.table.value for c in others)


def test_deal_another_game_from_the_setup_row():
    t = Tutor('begga-kaat', seed=1)
    other = [g for g in GAMES if g != 'begga-kaat']
    assert other, GAMES  # the registry holds five games
    t.game_choice.value = other[0]
    t.seed_box.value = '9'
    t.deal_button.click()
    assert t.game.name == other[0] and t.match.seed == 9
    assert t.game.title in t.status.value


def test_players_and_seat_choice():
    t = Tutor('begga-kaat', seed=1)
    assert list(t.players_choice.options) == [3, 4]
    t.players_choice.value = 3
    t.seat_choice.value = 2
    t.deal_button.click()
    assert t.game.players == 3 and t.seat == 2 and t.match.to_act in (2, None)


def downloaded(t) -> bytes:
    "The bytes of the record the panel's download link holds (a data: address, nothing on the server)."
    t.save_button.click()
    m = re.search(r'href="data:application/json;base64,([A-Za-z0-9+/=]+)"', t.download.value)
    assert m, t.download.value
    return base64.b64decode(m.group(1))

def upload(t, content: bytes, name='r.json'):
    t.upload.value = ({'name': name, 'type': 'application/json', 'size': len(content), 'content': memoryview(content),
                       'last_modified': datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)},)

@pytest.mark.usefixtures('chart_pixels_unread')
def test_record_round_trip():
    "Download the panel's match as a record, upload it into another panel: same standing, steps from the first move."
    for name in GAMES:
        t = make(name, seed=8)
        for i in range(10):
            if t.match.over: break
            press_one(t, i)
        t.teach.value = True  # the teaching view: the record has the hand in progress too
        data = downloaded(t)
        assert json.loads(data) == records.to_record(t.match)
        u = Tutor('begga-kaat', seed=1)
        upload(u, data)
        assert u.game == t.game and u.cursor == 0, u.message.value
        assert [str(a[-1]) for a in u.match.actions] == [str(a[-1]) for a in t.match.actions]
        assert u.match.standing == t.match.standing and u.upload.value == ()
        u.last.click(); assert u.cursor is None


def test_download_link_only_on_request_and_gone_when_play_moves_on():
    "The record holds each of its hands' cards: the link is made only when asked, and cleared by the next move or a switch of view."
    t = Tutor('begga-kaat', seed=3, teach=True)
    assert t.download.value == ''
    downloaded(t)
    assert 'cgt-download' in t.download.value and 'ready' in t.message.value
    press_one(t)
    assert t.download.value == ''
    downloaded(t)
    t.teach.value = False  # made for the teaching view, it held the hand in progress: gone
    assert t.download.value == ''


def test_table_direction():
    assert seat_positions(4, 0, 'clockwise')[1][0] < 50      # the next seat on your left
    assert seat_positions(4, 0, 'counterclockwise')[1][0] > 50  # ... or on your right
    expected = {'begga-kaat': 'clockwise', 'kocka': 'clockwise', 'beggars-and-thieves': 'clockwise',
                'dehla-pakad': 'counterclockwise', 'maghe-satra': 'counterclockwise'}
    for name in GAMES:
        g = get_game(name)
        assert direction_of(g) == expected[name]
        t = Tutor(g, seed=1)
        assert f"play goes {expected[name]}" in t.table.value


def test_bad_input_is_one_line():
    with pytest.raises(ValueError, match="seat must be from 0 to 3"): Tutor('begga-kaat', seat=9)
    with pytest.raises(BadOption, match="unknown game"): Tutor('bridge')
    t = Tutor.from_query('game=bridge&seat=x&seed=7', pace=0)
    assert 'Link ignored' in t.message.value and t.game.name == 'begga-kaat' and t.seed == 7
    t = Tutor('begga-kaat', seed=1)
    t.move_box.children = ()
    with pytest.raises(ValueError, match="no move 'zzz' now"): t.move_button('zzz')


def test_constructor_displays_nothing(capsys):
    import IPython.display as d
    calls = []
    orig = d.display
    d.display = lambda *a, **k: calls.append(a)
    try: Tutor('begga-kaat', seed=1)
    finally: d.display = orig
    assert calls == [] and capsys.readouterr().out == ''


# --- nothing leaks -------------------------------------------------------------------------------

def _tokens(card: Card) -> list:
    return [card.code, card.symbol]

_WORD = re.compile(r'[\w♠♥♦♣🍃🌰🔔]+')

def _hidden_beyond_view(t) -> set:
    """The cards the learner's seat may not see at the moment the panel shows (from the deal and the record:
    `may_see`, not the game's own `hidden_cards`), that its own view does not name either.

    The panel must send nothing beyond the seat's view; a card the view itself names (e.g. Beggars and
    Thieves offers `call T7`, naming a card the picker does not hold, not where it is) is the game's
    business, checked by the game's own tests. So are the seat's own moves of this hand (the panel
    says "You played call T7"): its view offered them. The hand shown is the hand in play, or a finished
    hand kept on screen (whose successor, already dealt, must not show at all)."""
    shown, i = t.session.shown(), t.session.shown_hand()
    shown = getattr(shown, '_match', shown)  # at a table the page holds a `SeatMatch`: the truth is the match behind it
    hand = shown.hands[i]
    own = [str(a) for s, a in hand.history if s == t.seat]
    return set(t.game.pack) - may_see(hand, t.seat) - cards_in([hand.view(t.seat), own], t.game.pack)

def _leaks(states_text: str, hidden) -> list:
    "The cards of `hidden` written anywhere in `states_text` (by code or sign), each with where it was found; a card a rule names is no card seen (`named_only`)."
    states_text = named_only(states_text)
    words, out = _words(states_text), []
    for card in hidden:
        for tok in _tokens(card):
            if sign_in(tok, words, states_text):  # (a code is one word; a sign may be two: '6 Thief')
                at = sign_re(tok).search(states_text)
                out.append((card, states_text[max(0, at.start() - 160):at.end() + 20] if at else tok)); break
    return out

_LINE_WORDS = {}  # a line of widget state -> its words: most lines are the same from one step to the next

def _words(text: str) -> set:
    "`set(_WORD.findall(text))`, each line's words found once (a word never spans a line: `_WORD` has no line break in it)."
    words = set()
    for line in text.split('\n'):
        got = _LINE_WORDS.get(line)
        if got is None:
            if len(_LINE_WORDS) > 20_000: _LINE_WORDS.clear()
            got = _LINE_WORDS[line] = frozenset(_WORD.findall(line))
        words |= got
    return words

_PAST = re.compile(r'<(div|p) class="cgt-(?:event|last)[^"]*" data-hand="(\d+)"(?: data-kind="([\w-]+)")?.*?</\1>', re.S)

_DATA = re.compile(r'data:application/json;base64,([A-Za-z0-9+/=]+)')
_PICTURE = re.compile(r'data:image/png;base64,[A-Za-z0-9+/=]+')  # a chart's pixels: its words (alt) are what it says

def _all_state(ids_before, hand_no=None, record_from=None) -> str:
    """Every synced trait value of every widget alive now that was made after `ids_before`, with the hand record a
    download link holds decoded (base64 hides nothing from a visitor).

    Log lines and results of hands before `hand_no` are left out: their cards were played in the open
    then, and a new deal may have given them to another seat since. So is the first-dealer lot (kind
    'dealer'), whose cards come from a separate, public shuffle (as in tests/helpers.py). So are a downloaded
    record's hands before `record_from` (0-based; by default the hand `hand_no`). A widget is read again only when
    one of its traits has changed since it was last read (traitlets tells every change: it is what is synced)."""
    parts, skip = [], record_from if record_from is not None else max((hand_no or 1) - 1, 0)
    alive = _made_after(ids_before)
    for mid in [m for m, (w, _) in _SCANNED.items() if alive.get(m) is not w]: del _SCANNED[mid]  # closed since (or an earlier test's)
    for mid, w in alive.items():
        if mid in ids_before: continue
        if mid not in _SCANNED:  # a widget seen for the first time: watch every trait of it from now on
            _SCANNED[mid] = (w, {})
            w.observe(lambda _change, mid=mid, w=w: _SCANNED.__setitem__(mid, (w, {})))
        kept = _SCANNED[mid][1]
        if (hand_no, skip) not in kept: kept[(hand_no, skip)] = _state_parts(w, hand_no, skip)
        parts += kept[(hand_no, skip)]
    return '\n'.join(parts)

def _made_after(ids_before) -> dict:
    """The widgets alive now that were not alive at `ids_before` (model ids), in the order they were made, without reading
    every widget of the earlier tests: `_instances` holds them in the order they were opened, so they come after the last
    one of `ids_before` still alive."""
    instances, made = widget_module._instances, []
    for mid in reversed(instances):
        if mid in ids_before: break
        made.append(mid)
    return {mid: instances[mid] for mid in reversed(made)}

_SCANNED = {}  # model id -> (widget, {(hand_no, skip): its parts}), emptied whenever a trait of the widget changes

def _state_parts(w, hand_no, skip) -> list:
    "One widget's part of `_all_state`: each synced trait as `name=value`."
    parts = []
    for k, v in w.get_state().items():
        if isinstance(v, (bytes, memoryview)): continue  # a picture's pixels (public tallies)
        if isinstance(v, str):
            v = _PICTURE.sub('data:image/png', v)
            parts += [f"record={json.dumps(json.loads(base64.b64decode(d))['hands'][skip:], ensure_ascii=False)}" for d in _DATA.findall(v)]
            v = _DATA.sub('data:', v)
        if isinstance(v, str) and hand_no:
            v = _PAST.sub(lambda m: '' if int(m.group(2)) < hand_no or m.group(3) == 'dealer' else m.group(0), v)
        parts.append(f"{k}={v!r}" if not isinstance(v, str) else f"{k}={v}")
    return parts


@pytest.mark.usefixtures('chart_pixels_unread')
@pytest.mark.parametrize('name,players', _setups(every_size=True))
def test_nothing_leaks_to_the_browser(name, players):
    "With the teaching toggle off, no widget state holds a card the learner's seat may not see."
    before = set(widget_module._instances)
    t = make(name, players, seed=21)
    checked = 0
    for step in range(60 if players is None else 30):
        if t.match.over: break
        leaks = _leaks(_all_state(before, t.session.shown_hand() + 1), _hidden_beyond_view(t))
        assert not leaks, f"{name}: hidden cards sent to the browser: {leaks}"
        checked += 1
        press_one(t, step)
        if step % 7 == 3:  # stepping back shows an older state: still nothing hidden
            t.back.click()
            assert not _leaks(_all_state(before, t.session.shown_hand() + 1), _hidden_beyond_view(t))
            t.last.click()
    assert checked > 3
    # and the teaching toggle does show them (so the check above can see a leak)
    t.teach.value = True
    hidden = set(t.game.pack) - may_see(t.match.hand, t.seat)
    if hidden and not t.match.over:
        assert _leaks(_all_state(before, len(t.match.hands)), hidden)


def test_paced_bots_in_an_event_loop():
    "With a pace, bots play one move at a time from the event loop (as in Jupyter and Voilà), not inside the click."
    import asyncio
    async def run():
        t = Tutor('begga-kaat', seed=2, pace=0.02)
        await asyncio.sleep(0.5)  # the bots before the learner's first turn
        assert t.match.to_act == t.seat
        n = len(t.match.actions)
        t.card_button(t.lit_cards()[0]).click()
        assert len(t.match.actions) == n + 1  # the click returns at once, before the bots
        for _ in range(200):
            if t.match.to_act == t.seat: break
            await asyncio.sleep(0.01)
        assert t.match.to_act == t.seat and len(t.match.actions) > n + 1
        # a stale paced move is dropped after an undo
        t.card_button(t.lit_cards()[0]).click()
        t.undo_button.click()
        m = len(t.match.actions)
        await asyncio.sleep(0.2)
        assert len(t.match.actions) == m and t.match.to_act == t.seat
    asyncio.run(run())


# --- a panel that lives long and meets a hostile visitor -----------------------------------------

def test_close_leaves_no_live_widgets():
    "40 panels made and closed leave no widget alive (buttons' layouts and styles included); one panel's leftover fails it."
    import warnings
    warnings.simplefilter('ignore', DeprecationWarning)
    before = len(ipywidgets.Widget.widgets)
    for i in range(40):
        t = Tutor('begga-kaat', seed=i)
        if i % 4 == 0: press_one(t, i)  # a played panel too: pools grown, chart drawn
        t.close()
    assert len(ipywidgets.Widget.widgets) == before
    t.card_slots[0].click()  # a late click on a closed panel does nothing, and raises nothing


def test_callback_error_becomes_a_message_and_the_panel_stays_usable(monkeypatch, caplog):
    t = Tutor('begga-kaat', seed=4)
    n = len(t.match.actions)
    def broken(card): raise KeyError('boom')
    monkeypatch.setattr(t.session, 'click_card', broken)
    t.card_button(t.lit_cards()[0]).click()
    assert 'Something went wrong' in t.message.value and 'cgt-error' in t.message.value
    assert 'KeyError' not in t.message.value and 'boom' not in t.message.value  # the page never shows the exception
    note = t.session.message.text.split('(note ')[1].split(')')[0]
    assert 'tutor panel callback failed' in caplog.text and note in caplog.text and 'KeyError' in caplog.text  # the server's log has it, by its note
    assert len(t.match.actions) == n
    monkeypatch.undo()
    t.card_button(t.lit_cards()[0]).click()  # the same panel plays on
    assert len(t.match.actions) > n and 'Something went wrong' not in t.message.value


def record_text(players=3, seed=4) -> str:
    return json.dumps(records.to_record(play_out(Match(get_game('begga-kaat', players=players), seed=seed))))

@pytest.mark.parametrize('content', [
    record_text().replace('"players": 3', '"players": 3.0').encode(),   # a float where an int belongs
    b'[' * 200_000 + b']' * 200_000,                                      # deep JSON
    b'{"a":' * 50_000 + b'1' + b'}' * 50_000,
    ('{"format": "cardgames-tutor-record", "version": 1, "game": "begga-kaat", "seed": ' + '9' * 5000 + '}').encode(),
    b'\xff\xfe\x00\x01garbage', b'', b'null', b'{}',
])
def test_bad_uploads_give_one_line(content):
    t = Tutor('begga-kaat', seed=1)
    before = (t.game, list(t.match.actions))
    upload(t, content)
    text = re.sub(r'<[^>]+>', '', t.message.value)
    assert 'Cannot open that record' in text and len(text) < 300 and '\n' not in text.strip(), text
    assert (t.game, list(t.match.actions)) == before and t.upload.value == ()
    t.card_button(t.lit_cards()[0]).click()  # still playable
    assert len(t.match.actions) > len(before[1])


def test_upload_is_never_read_as_a_server_path(tmp_path, monkeypatch):
    "An upload whose text is a path (of a real record on the server) is refused as content; no file is opened."
    path = tmp_path / 'secret.json'
    path.write_text(record_text(), encoding='utf-8')
    opened = []
    real_open, real_read = builtins.open, pathlib.Path.read_text
    monkeypatch.setattr(builtins, 'open', lambda f, *a, **k: opened.append(f) or real_open(f, *a, **k))
    monkeypatch.setattr(pathlib.Path, 'read_text', lambda self, *a, **k: opened.append(self) or real_read(self, *a, **k))
    t = Tutor('begga-kaat', seed=1)
    for content in (str(path), f"  {path}", f"file://{path}", '../' * 40 + 'etc/passwd', 'x' * 5000):
        upload(t, content.encode())
        assert 'Cannot open that record' in t.message.value and t.game.players == 4
    assert not [f for f in opened if str(path) in str(f) or 'passwd' in str(f)], opened


def test_no_widget_takes_a_server_path(tmp_path, monkeypatch):
    "No text box for a file name (the seed box's text is read as a seed, nothing else); saving writes nothing on the server (the record goes to the browser)."
    t = Tutor('begga-kaat', seed=2)
    from cardgames_tutor.ui.looks import widget_tree
    kinds = {type(w).__name__ for w in widget_tree([t]) if w is not t.seed_box}
    assert not kinds & {'Text', 'Textarea', 'Combobox', 'Password'}, kinds
    t.seed_box.value = str(tmp_path / 'x.json'); t.deal_button.click()
    assert t.match.seed == 2 and 'A seed is a whole number' in t.message.value  # a path typed there is no seed
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(records, 'save', lambda *a, **k: pytest.fail("the panel wrote a record on the server"))
    t.teach.value = True  # (in the first hand, only the teaching view's record has anything in it)
    assert json.loads(downloaded(t))['seed'] == 2
    assert list(tmp_path.iterdir()) == []
    # the download's file name is made of the game's name and numbers only
    name = re.search(r'download="([^"]+)"', t.download.value).group(1)
    assert re.fullmatch(r'begga-kaat-seed2-\d+moves\.json', name)


def test_link_with_hostile_values():
    for query in ('seed=' + '9' * 5000, 'pace=nan', 'pace=1e308', 'players=4.0', 'game=' + 'x' * 10_000, 'seat=-1'):
        t = Tutor.from_query(query, pace=0)
        text = re.sub(r'<[^>]+>', '', t.message.value)
        assert len(text) < 300 and t.match.to_act is not None, (query, text)
        assert 0 <= t.pace.value <= 2


# --- what a class sees ---------------------------------------------------------------------------

def _codes(pack) -> re.Pattern:
    words = sorted({w for c in pack for w in (c.code, c.symbol)}, key=len, reverse=True)
    return re.compile(r'(?<![\w/-])(' + '|'.join(map(re.escape, words)) + r')(?![\w/-])')

def _read_text(html: str) -> str:
    "What a learner reads of `html`: the text outside tags, with each drawn card (a mini or big card) taken out whole."
    html = re.sub(r'<span class="cgt-(?:mini|card)"[^>]*>.*?</span>(?:</span>)?', ' ', html)
    return re.sub(r'<[^>]+>', ' ', html)

@pytest.mark.usefixtures('chart_pixels_unread')
@pytest.mark.parametrize('name,players', _setups())
def test_cards_drawn_as_cards_and_plain_words(name, players):
    "Messages, log, table and scores never write a card as notation, a raw Python value, or '1 cards'."
    t = make(name, players, seed=31)
    codes, seen = _codes(t.game.pack), 0
    worded = [c.symbol for c in t.game.pack if ' ' in c.symbol]  # a pack whose cards are words ('6 Thief'): a sentence may name one
    named = re.compile(r'\bthe (' + '|'.join(map(re.escape, worded)) + r')\b') if worded else None
    for step in range(80):
        if t.match.over: break
        for w in (t.message, *t.log_parts, t.table, t.scores, t.status):
            text = _read_text(w.value)
            if named: text = named.sub(' ', text)  # 'partner card: the 6 Thief' names the card in words, as the rules do
            assert not codes.search(text), (name, codes.search(text).group(0), text[:300])
            assert not re.search(r'\b(True|False|None)\b|\b1 cards\b|\bnote\b|[{}]', text), text[:300]
        for b in (*t.hand_box.children, *t.move_box.children):
            assert not re.search(r'\b[TGBR]\d', b.description) or t.game.pack.suit_first is False, b.description
        seen += 1
        press_one(t, step)
    assert seen > 10


@pytest.mark.usefixtures('chart_pixels_unread')
@pytest.mark.parametrize('name', GAMES)
def test_finished_hand_stays_until_the_learner_moves_on(name):
    "The last trick and the result stay on the table; the bots wait; the result says who did best."
    t = make(name, seed=13)
    while t.session.review is None and not t.match.over: press_one(t)
    i = t.session.review
    n, status = len(t.match.actions), t.status.value
    assert re.search(rf"(hand|deal) {i + 1} is over", status) or 'match is over' in status
    assert any(w in t.message.value for w in ('Best this hand', 'wins the deal', 'win the deal', 'a kot', 'Nobody did better', 'Everyone else added nothing'))  # Dehla Pakad: the deal's result names the side that won it
    last = [e for e in t.match.hands[i].events if e.kind == 'trick']
    if last: assert f"won trick {last[-1].data['number']}" in t.table.value  # the last trick is still on the table
    if not t.match.over:
        t.hand_box.children and t.hand_box.children[0].click()
        assert len(t.match.actions) == n and f'next {hand_word(t.game)}' in t.message.value
        t.move_button('next hand').click()
        assert t.session.review is None and re.search(rf"(hand|deal) {len(t.match.hands)} ", t.status.value)


@pytest.mark.usefixtures('chart_pixels_unread')
def test_played_cards_never_cover_seats_or_caption():
    "Dehla Pakad, five-player Beggars and Thieves, teaching view: seats and trick sit in separate grid cells."
    for name, players in (('dehla-pakad', None), ('beggars-and-thieves', 5), ('maghe-satra', 7)):
        t = make(name, players, seed=3, teach=True)
        for _ in range(12): press_one(t)
        html = t.table.value
        assert 'position:absolute' not in html and 'display:grid' in html
        middle = html[html.index('class="cgt-middle"'):]
        assert 'cgt-seat' not in middle and 'cgt-centre' in middle  # the trick shares its cell only with the caption


def test_late_click_keeps_its_card():
    "A click that arrives after the update still means the card the learner saw, never its neighbour."
    t = Tutor('begga-kaat', seed=6)
    pairs = t._hand_pairs()
    button, card = next((b, c) for b, c in pairs if c in t.lit_cards())
    others = {b: c for b, c in pairs}
    button.click()
    assert card not in [c for _, c in t._hand_pairs()]
    n = len(t.match.actions)
    button.click()  # the late second click of a double click
    assert len(t.match.actions) == n and 'already been played' in t.message.value
    for b, c in t._hand_pairs(): assert others[b] is c  # every other card kept its button


def test_one_update_per_click():
    "A click's changes reach the browser together: every widget's messages are held until the redraw ends."
    t = Tutor('begga-kaat', seed=8)
    sent = []
    from cardgames_tutor.ui.looks import widget_tree
    widgets_now = widget_tree([t, *t.card_slots, *t.move_slots])
    for w in widgets_now:
        w._send = (lambda w: lambda msg, buffers=None: sent.append((w, msg)))(w)
    held = []
    orig = t.render
    def render():
        orig()
        held.append(len(sent))
    t.render = render
    t.card_button(t.lit_cards()[0]).click()
    assert sent and held and held[-1] == len(sent)  # nothing sent after the redraw
    assert len({id(w) for w, _ in sent}) == len(sent)  # each widget sent once: one update per widget


@pytest.mark.usefixtures('chart_pixels_unread')
@pytest.mark.parametrize('name,players', _setups())
def test_the_download_holds_only_what_the_seat_has_seen(name, players):
    """Issue 39, deliverable 4: the download link carried every hand's cards mid-hand (a leak once students share a
    table). At every step of seeded matches, with the teaching view off, "save record" offers the finished hands
    only: nothing of the hand in progress is in the link (the whole widget state, the link decoded, is scanned with
    `may_see`), the panel says so in one line, and the record loads and replays the finished hands; once a hand
    ends, the next download has it, whole."""
    from cardgames_tutor.ui.panel import IN_PROGRESS
    before = set(widget_module._instances)
    t = make(name, players, seed=5)
    finished_seen = 0
    for step in range(70):
        t.save_button.click()
        done = sum(h.is_over for h in t.match.hands)
        assert t.message.value.count(IN_PROGRESS.format(hand=hand_word(t.game))) == (not t.match.over), t.message.value
        if not done:
            assert t.download.value == ''
        else:
            rec = json.loads(downloaded(t))
            assert rec['hands'] == records.to_record(t.match)['hands'][:done]  # the finished hands, whole
            assert records.load(rec).actions == [a for a in t.match.actions if a[0] < done]  # loads and replays
            finished_seen = max(finished_seen, done)
        leaks = _leaks(_all_state(before, t.session.shown_hand() + 1, record_from=done), _hidden_beyond_view(t))
        assert not leaks, f"{name}: hidden cards of the hand in progress in the panel: {leaks}"
        if t.match.over: break
        press_one(t, step)
    assert finished_seen >= 1  # a hand ended on the way, and its record was offered


def test_snear_face_up_row_stays_and_is_ringed_after_a_jump():
    "Snear: at a moment gone back to (the review's “go to this moment” steps the panel there), the face-up row is still drawn and the coach's ring lands on a face-up card."
    t = Tutor('beggars-and-thieves', seed=3, players=2, coach=False)
    for _ in range(4): t.play_for_me()
    mine = [k for k, (_, seat, _a) in enumerate(t.match.actions) if seat == t.seat]
    t.step(mine[-1])  # just before the learner's last card, as the review's jump does
    m = t.session.shown()
    up = [c for c in m.hand.playable(t.seat) if c not in m.hand.hands[t.seat]]
    assert up and set(up) <= {c for _, c in t._hand_pairs()}
    t.ring(up[0])
    assert 'cgt-hint' in t.card_button(up[0])._dom_classes
    assert [c for b, c in t._hand_pairs() if 'cgt-hint' in b._dom_classes] == [up[0]]


@pytest.mark.usefixtures('chart_pixels_unread')
def test_the_leaster_is_explained_under_the_pass_button():
    "Beggars and Thieves: the line under the move buttons says what each does; the last pass says it makes a Leaster."
    for seed in range(60):
        t = make('beggars-and-thieves', players=4, seed=seed, coach=False)
        if t.match.hand.phase == 'blind' and len(t.match.hand.passed) == 3: break
    notes = html.unescape(re.sub(r'<[^>]+>', '', t.move_notes.value))
    assert 'pass (leave the blind): Everyone has passed: the hand is a Leaster.' in notes and 'pick up the blind: ' in notes
    assert 'Leaster' in t.move_button('pass').tooltip
    t.move_button('pass').click()
    assert t.match.hands[0].leaster and 'Leaster' in html.unescape(re.sub(r'<[^>]+>', '', t.message.value))
    assert t.move_notes.value == '' or 'Leaster' not in t.move_notes.value  # the choice is made: no stale note


def _visible(h):
    return html.unescape(re.sub(r'<[^>]+>', ' ', re.sub(r'<(style|script)[^>]*>.*?</\1>', '', h, flags=re.S)))

def _code_shapes(pack):
    "A card's code (where it is not the card's sign) or a bare suit letter after a verb: what a learner must never read."
    codes = sorted({c.code for c in pack if pack.suit_first or c.code != c.symbol}, key=len, reverse=True)
    return re.compile(r'(?<![\w/#&;-])(' + '|'.join(map(re.escape, codes)) + r'|(?:trump|call|calls|names|suit)\s+[A-Z])(?![\w/-])')


@pytest.mark.usefixtures('chart_pixels_unread')
@pytest.mark.parametrize('name,players', _setups(every_size=True))
def test_one_notation_in_everything_the_learner_reads(name, players):
    "Every message, log line, button, status, table, score line and live-region text of a seeded match writes cards as signs and words, never as codes."
    t = Tutor(name, seed=2, coach=False, **({'players': players} if players else {}))
    pattern, said, found = _code_shapes(t.game.pack), [], []
    t.access.observe(lambda change: said.append(change['new']), 'said')
    for step in range(120):
        texts = {'status': t.status.value, 'message': t.message.value, 'log': ''.join(p.value for p in t.log_parts),
                 'table': t.table.value, 'scores': t.scores.value, 'notes': getattr(t, 'move_notes', t.css).value}
        texts = {k: _visible(v) for k, v in texts.items()}
        texts['buttons'] = ' | '.join(b.description + ' ' + b.tooltip for b in [*t.move_box.children, *t.hand_box.children])
        texts['heard'] = ' | '.join(said)
        said.clear()
        found += [(step, k, v[max(0, m.start() - 30):m.end() + 10]) for k, v in texts.items() for m in pattern.finditer(v)]
        if t.match.over or not t.play_for_me(): break
    assert step > 10 and not found, found[:5]


@pytest.mark.usefixtures('chart_pixels_unread')
@pytest.mark.parametrize('name', GAMES)
def test_the_bot_button_never_skips_a_hands_end(name):
    """"bot plays my move" pressed to the end of a hand: the finished hand stays on screen (its result, the scores, the
    review) and the button is off, its tooltip saying why, until the learner presses "next hand"; a press made anyway
    (a click that left before the button was drawn off) plays nothing and deals nothing."""
    t = Tutor(name, seed=4)
    for _ in range(300):
        if t.session.review is not None or t.match.over: break
        t.bot_button.click()
    assert t.session.review is not None, "no hand ended"
    ended, moves, hands, said = t.session.review, len(t.match.actions), len(t.match.hands), t.message.value
    word, nexts = hand_word(t.game), [b.description for b in t.move_box.children]  # the button to press, in the game's word
    assert t.bot_button.disabled and t.bot_button.tooltip == f"the {word} is over: read how it ended, then press “next {word}” to play on"
    assert nexts == [f"next {word} ▶"] or t.match.over, nexts
    t.bot_button.click()
    assert (t.session.review, len(t.match.actions), len(t.match.hands), t.message.value) == (ended, moves, hands, said)
    assert t.session.shown_hand() == ended and f'data-hand="{ended + 1}"' in t.scores.value  # the finished hand's result, still shown
    if t.match.over: return
    while t.session.review is not None: t.move_button('next hand').click()
    assert not t.bot_button.disabled and 'next' not in t.bot_button.tooltip
    t.bot_button.click()
    assert len(t.match.actions) > moves  # now it plays on
    t.close()


def _score_table(t):
    "The scores' table as rows of cell texts (heading first)."
    rows = re.findall(r'<tr>(.*?)</tr>', t.scores.value, re.S)
    return [[html.unescape(re.sub(r'<[^>]+>', '', c)) for c in re.findall(r'<t[hd][^>]*>(.*?)</t[hd]>', r, re.S)] for r in rows]


@pytest.mark.usefixtures('chart_pixels_unread')
@pytest.mark.parametrize('seat', [0, 1])
def test_dehla_pakad_scores_are_per_side(seat):
    "Dehla Pakad's deals are won by partnerships: the scores have a column per side, named as the terminal names it, each with the side's deals won."
    t = Tutor('dehla-pakad', seed=3, seat=seat, coach=False)
    for deals in (1, 2):
        while len(t.match.tallies) < deals: t.play_for_me()
        head, *rows = _score_table(t)
        teams = t.match.standing['teams']
        assert head[1:] == [seats_text(team, seat) for team in teams] and f"you and Seat {(seat + 2) % 4}" in head
        assert [r[0] for r in rows] == [f"after deal {k}" for k in range(1, deals + 1)] + ['now']
        assert rows[-1][1:] == [str(n) for n in t.match.standing['deals_won']] and all(len(r) == 3 for r in rows)
        assert f"Deal {deals}:" in t.scores.value
    t.close()
    k = Tutor('kocka', seed=3, coach=False)  # a game without sides: a column per seat, as before
    assert _score_table(k)[0][1:] == ['Seat 0 (you)', 'Seat 1', 'Seat 2', 'Seat 3']
    k.close()


def _alt(img_html):
    "The words of a chart's picture, as a screen reader reads them."
    return html.unescape(re.search(r'alt="([^"]*)"', img_html).group(1))


@pytest.mark.parametrize('seat', [0, 1])
def test_dehla_pakad_chart_is_per_side(seat):
    "Dehla Pakad's scores chart beside the table: a line per side (not one per seat, each partner's on the other's), named as the scores table names the sides, counted in deals, the game's word."
    from cardgames_tutor.ui.charts import tally_chart
    t = Tutor('dehla-pakad', seed=3, seat=seat, coach=False)
    while len(t.match.tallies) < 2: t.play_for_me()
    head, *_ = _score_table(t)
    teams, won = t.match.standing['teams'], t.match.standing['deals_won']
    ax = tally_chart(t.match, me=seat).axes[0]  # drawn for this seat: the legend is the table's headings
    assert [l.get_label() for l in ax.lines] == head[1:]
    assert [list(l.get_ydata()) for l in ax.lines] == [[0] + [row[side[0]] for row in t.match.tallies] for side in teams]
    assert [l.get_ydata()[-1] for l in ax.lines] == won
    said = in_game_words('hand 1', t.game).split()[0]  # 'deal'
    assert ax.get_xlabel() == f"{said}s played" and f"after each {said}" in ax.get_title() and 'hand' not in ax.get_title()
    words = _alt(t.chart.value)  # the panel's picture (one for the table's four pages) in words: each side, its deals
    assert f"After {said} 2:" in words and 'hand' not in words
    assert all(f"{n} for {seats_text(side)}" in words for side, n in zip(teams, won)) and 'Seat 3,' not in words
    t.close()
    k = Tutor('kocka', seed=3, coach=False)  # a game without sides: a line per seat, as before
    assert [l.get_label() for l in tally_chart(k.match).axes[0].lines][:4] == [f"Seat {s}" for s in range(4)]
    k.close()


def test_kockas_small_o_and_u_are_keyed_under_the_hand():
    """Kočka's drawn cards carry a small O and U (the upper and lower jack: Ober and Unter), which only a tooltip named, and
    a phone shows none: the panel says what they are in a line under the hand, live and in its static picture; a game
    whose cards carry no letters has no such line."""
    t = Tutor('kocka', seed=3)
    kids = list(t.children)
    assert kids[kids.index(t.hand_box) + 1] is t.key_line
    said = html.unescape(re.sub(r'<[^>]+>', '', t.key_line.value))
    assert 'Q = upper jack (Ober), J = lower jack (Unter)' in said and 'small O and a small U' in said, said
    assert not any(re.search(r'<sub>', b.description or '') for b in t.hand_box.children)  # the hand's buttons carry no letter: the key says so (a walker looked for the O)
    picture = t.snapshot_html()
    assert t.key_line.value in picture and re.search(r'<sub>[OU]</sub>', picture)  # the letters it keys are drawn there
    for name in GAMES:
        t.deal(seed=1, game=name)
        assert bool(t.key_line.value) == (name == 'kocka') and (t.key_line.value in t.snapshot_html()), name
    t.close()


DEAL_AS_HAND = re.compile(r"\b[Hh]and \d|\bnext hand\b|\bfinished hands?\b|\bthis hand\b|\bhand in progress\b|\bthe hand is over\b|\bafter (each )?hand\b")

@pytest.mark.usefixtures('chart_pixels_unread')
def test_dehla_pakads_panel_says_deal_where_the_game_does():
    """Dehla Pakad's pages say "deal" for one hand of the match (its LEARNER_WORDS); its panel said "hand": "next hand ▶",
    "press “next hand”", "hand 1 · start" in the jump menu, "the hand in progress is not in the record", "No finished
    hand is waiting". Played through its widgets over three deals, no button, tooltip, menu entry or line of the panel
    (the coach's row aside: coach_view) says "hand" for a deal; "next deal ▶" is the button pressed between deals."""
    t, seen, pressed = Tutor('dehla-pakad', seed=12, coach=False), [], 0  # its match goes on after deal 1
    def read():
        ws = [t.status, t.message, t.move_notes, t.scores, t.key_line, t.download]
        seen.extend(w.value for w in ws)
        seen.extend(f"{b.description} {b.tooltip}" for b in [*t.move_box.children, *t.steps_row.children] if hasattr(b, 'tooltip'))
        seen.extend(label for label, _ in t.jump.options)
        seen.extend(w.titles[0] for w in t.children if isinstance(w, ipywidgets.Accordion))  # the setup's fold
    for _ in range(400):
        if t.match.over or pressed == 3: break
        read()
        if t.session.review is not None:
            t.save_button.click(); read()
            t.move_box.children[0].click(); pressed += 1
            t.next_hand(); read()  # once more, with no finished deal on screen: the message says so
        else: t.bot_button.click()
    read()
    assert pressed or t.match.over
    said = [html.unescape(re.sub(r'<[^>]+>', ' ', x)) for x in seen]
    wrong = sorted({m[0] for x in said for m in DEAL_AS_HAND.finditer(x)})
    assert not wrong, wrong
    assert any('next deal ▶' in x for x in said) and any('deal 1 · start' in x for x in said), said[:5]
    t.close()


def _heard_rows(t, hand:int=1) -> list:
    """(words the row is said as, the learner's own move it tells or None) for each row of hand `hand`'s log the learner
    sees, in order: a hand's result row as the panel's result message holds it (without 'Hand over.'), and the row of
    each of the learner's moves (the first of the move's events the learner sees, about the learner's seat) with the move;
    alone, the learner's seat as 'you'; at a table, each seat a student holds by the student's name, as the page says it."""
    from cardgames_tutor.ui.session_data import seat_names, named_seats
    s, pack, names = t.session, t.game.pack, seat_names(t.session, escaped=False)
    events = [e for h in s.match.hands for e in h.events]
    own = {}
    for k, (_, seat, action) in enumerate(s.match.actions):
        if seat == t.seat:
            mine = [e for e in events[s.marks[k]:s.marks[k + 1]] if e.seat == t.seat and e.seen_by(t.seat)]
            if mine: own[id(mine[0])] = action
    out = []
    for h, e, _ in s.log(t.seat):
        if h != hand: continue
        text = e.text
        for prefix in ('Hand over.', 'Deal over.'): text = text.removeprefix(prefix).strip()
        out.append((named_seats(cards_text_words(for_you(text, t.seat if s.solo else None), pack), names), own.get(id(e))))  # alone, the learner's seat: 'you'
    return out

def _named(text:str, pack) -> set:
    "The cards of `pack` that `text` (in words) names."
    return {c for c in pack if re.search(rf"(?<!\w){re.escape(c.words)}(?!\w)", text)}

def assert_each_row_heard_once(t, said:list, hand:int=1):
    """Every row of hand `hand`'s log that the page `t`'s seat sees is in `said` (the live region's words, in order)
    once, in the log's order; each of the learner's own moves once: as the message ("You played 9♦: ...") or as its
    row, the row after the message too where it names a card the move does not (the card a beg is dealt)."""
    joined, at, rows, pack = ' '.join(said), 0, _heard_rows(t, hand), t.game.pack
    for words, action in rows:
        you = action is not None and cards_text_words(f"You {action_text(action, t.game, 'done')}", pack)
        if you and you in joined:  # the learner's move, said as the message: its row is said too only if it tells more
            news = _named(words, pack) - set([action] if isinstance(action, Card) else getattr(action, 'cards', ()))
            assert joined.count(you) == 1 and joined.count(words) == bool(news), (you, words, said)
            if news: at = joined.find(you, at) + len(you)
            else: words = you
        else: assert joined.count(words) == [w for w, _ in rows].count(words), (words, said)  # once (Seat 1 passes.: as often as the log has it)
        found = joined.find(words, at)
        assert found >= 0, f"{words!r} not said after {joined[max(0, at - 80):at]!r}; said: {said}"
        at = found + len(words)

@pytest.mark.usefixtures('chart_pixels_unread')
@pytest.mark.parametrize('name,players', _setups())
def test_the_screen_reader_hears_each_move_once_in_order(name, players):
    """The panel's live region (ui/access.py) over the match's first hand, played through the widgets: every row of the
    hand's log the learner sees is said once, in the order it happened (the hand's opening as the panel opens, the bots'
    moves after the learner's), the learner's own move once: as "You played 9♦: ..." (the message, with its reason)
    or as its row, never both; the hand's result once, after the moves that made it. Before, the learner's move was said
    twice ("You played 9♦: ... Seat 0 plays 9♦."), the opening only after the learner's first move, the result before
    the last trick, and a drawing of more than eight lines lost its first ones (Maghe Satra: the others' turns)."""
    t = Tutor(name, seed=11, **({'players': players} if players else {}))
    said = [t.access.said] if t.access.told else []  # the opening, said as the panel is made (read when the page draws it)
    t.access.observe(lambda change: said.append(t.access.said), 'told')
    for step in range(400):
        if t.session.review is not None or t.match.over: break
        press_one(t, step)
    assert t.match.hands[0].is_over and t.session.review == 0
    assert_each_row_heard_once(t, said)

@pytest.mark.usefixtures('chart_pixels_unread')
def test_stepping_back_and_back_to_play_says_no_move_again():
    "Back two moves, forward one, then ▶| (back to play): the moves heard live are not said again (before, ▶| said them all again)."
    t = Tutor('begga-kaat', seed=11)
    for step in range(3): press_one(t, step)
    said = []
    t.access.observe(lambda change: said.append(t.access.said), 'told')
    t.back.click(); t.back.click(); t.forward.click()
    assert said and said[-1].startswith(f"Move {t.cursor} of")  # stepping says where the learner is
    n = len(said)
    t.last.click()
    rows = [w for w, _ in _heard_rows(t)]
    assert not [x for x in said[n:] if any(w in x for w in rows)], said[n:]


@pytest.mark.parametrize('typed', ['12 3456 7890', '12\u20093456\u20097890', '12\u00a03456\u00a07890', ' 12\u202f3456 7890 ', '1234567890'])
def test_the_seed_box_takes_a_seed_as_the_hands_export_writes_it(typed):
    """The hands export writes a long seed in groups of four ('12 3456 7890', `core.words.seed_cell`). The seed
    box was a number box: pasted with its spaces the page refused it and kept the old seed, typed the digits ran
    together ('1234567890'), and a table's 29 digits came back rounded. It takes it now, with spaces of any kind (thin,
    no-break), deals that seed, and writes it back, and says it, as the export does."""
    from cardgames_tutor.core.words import seed_cell
    t = Tutor('begga-kaat', seed=1, coach=False)
    t.seed_box.value = typed
    t.deal_button.click()
    assert t.match.seed == 1234567890 and t.seed_box.value == seed_cell(1234567890) == '12 3456 7890'
    assert 'with seed 12 3456 7890.' in _visible(t.message.value), t.message.value

def test_the_seed_box_takes_a_tables_long_seed_and_refuses_what_is_not_a_seed():
    "A seed of 29 digits, as the export writes it, deals exactly that seed; anything else is refused in one line that says what a seed is."
    from cardgames_tutor.core.words import seed_cell
    t = Tutor('kocka', seed=1, coach=False)
    long = 12345678901234567890123456789
    t.seed_box.value = seed_cell(long)
    t.deal_button.click()
    assert t.match.seed == long and t.seed_box.value == seed_cell(long)
    for typed in ('twelve', '1.5', '12 34x', '', '1' * 31):
        t.seed_box.value = typed
        t.deal_button.click()
        said = _visible(t.message.value).strip()
        assert t.match.seed == long and said.startswith('⚠ A seed is a whole number') and '12 3456 7890' in said and '\n' not in said, said


def test_the_status_lists_small_cards_apart():
    "The panel's status read 'the buried cards: 8 blue5 red' (small cards with nothing between them, as a screen reader and a copy read it)."
    import random
    from cardgames_tutor.ui.table import facts_html
    m, rng = Match(get_game('beggars-and-thieves'), seed=0), random.Random(0)
    while not (m.hand.phase == 'play' and m.view(m.to_act).get('buried') and m.to_act == m.hand.picker): m.apply(m.game.bot(m.view(m.to_act), rng))
    text = html.unescape(re.sub(r'<[^>]+>', '', facts_html(m.view(m.to_act), pack=m.game)))
    assert re.search(r'the buried cards: \d+ (?:Thief|green|blue|red), \d+ (?:Thief|green|blue|red)\b', text), text

def _region(t) -> list:
    "Every text the panel's live region is given from now on (a list that grows)."
    said = []
    t.access.observe(lambda change: said.append(t.access.said), 'told')
    return said

@pytest.mark.parametrize('name,verb', [('maghe-satra', 'beg'), ('kocka', 'pass'), ('beggars-and-thieves', 'pick'), ('dehla-pakad', 'trump')])
def test_the_screen_reader_hears_every_card_the_learners_move_shows(name, verb):
    """A move of the learner's that shows the learner cards (a beg's card, Kočka's cards received, the blind picked up,
    Dehla Pakad's last eight cards): the live region says each of them. Before, a beg whose hand went on was said as
    "You begged for one more card: The card comes face up; ..." and the card dealt never was (the log had it)."""
    for seed in range(1, 60):
        t = Tutor(name, seed=seed, coach=False)
        while t.session.review is not None and not t.match.over: t.move_button(f"next {hand_word(t.game)}").click()
        moves = [a for a in t.match.legal_actions() if t.match.to_act == t.seat and getattr(a, 'verb', None) == verb]
        if not moves: continue
        said, n = _region(t), len(t.match.actions)
        if verb == 'beg': t.move_button(move_label(moves[0], t.game)).click()  # pressed as a learner does
        else: t.session.act(moves[0]); t._bots()
        if t.session.review is None: break  # the hand goes on (a move that ends it is said with the result, cards and all)
    else: pytest.fail(f"no seed where the learner may {verb} and the hand goes on")
    events = [e for h in t.match.hands for e in h.events][t.session.marks[n]:t.session.marks[n + 1]]
    shown = set().union(*(_named(cards_text_words(e.text, t.game.pack), t.game.pack) for e in events if e.seen_by(t.seat)))
    assert shown, [e.text for e in events]
    heard_now = ' '.join(said)
    assert shown <= _named(heard_now, t.game.pack), (sorted(c.words for c in shown - _named(heard_now, t.game.pack)), said)


@pytest.mark.usefixtures('chart_pixels_unread')
@pytest.mark.parametrize('name,seat', [(n, s) for n in GAMES for s in (0, 1)])
def test_the_screen_reader_hears_the_learner_as_you(name, seat):
    """Over a whole hand, the live region says the learner's seat as "you" ("Your turn", "You pass", "you 0, Seat 1 2"),
    as the terminal does, never "Seat 0": before, it said "Seat 0's turn: ...", "Seat 0 passes" and mixed the two ("You
    named clubs trump: Seat 2, the dealer's right-hand neighbour, names clubs trump")."""
    t = Tutor(name, seed=11, seat=seat, coach=False)
    said = [t.access.said] + _region(t)
    for step in range(400):
        if t.session.review is not None or t.match.over: break
        press_one(t, step)
    assert t.session.review is not None
    assert not [x for x in said if re.search(rf"\bSeats? {seat}\b|\bSeats \d+ and {seat}\b", x)], said
    assert any(re.search(r"\b[Yy]ou(r)?\b", x) for x in said)


@pytest.mark.usefixtures('chart_pixels_unread')
@pytest.mark.parametrize('name', GAMES)
def test_the_screen_reader_hears_the_hands_points_once(name):
    """A hand's end, heard: its result, who did best, then the log's own lines of the points (the totals, the letter, the
    deal won) and last what to press. Before, it gave the points twice, "Added to the game points: 1 by Seat 0 (you),
    0 by Seat 1... (more is better). Press “next hand” to play on. Game points: Seat 0 1, Seat 1 0...", the press between them."""
    t = Tutor(name, seed=11, coach=False)
    said = _region(t)
    for step in range(400):
        if t.session.review is not None or t.match.over: break
        press_one(t, step)
    end = said[-1]
    assert 'is over.' in end and 'Added to the' not in end and ' added to the ' not in end and 'adds ' not in end, end
    assert end.endswith(f"Press “next {hand_word(t.game)}” to play on.") or end.endswith('The match is over.'), end
    assert t.session.message.text.count('Added to the') + t.session.message.text.count(' added to the ') + t.session.message.text.count('adds ') == 1  # the page's message keeps it


def test_the_open_record_button_says_what_it_opens():
    """The setup's upload button read "open record (0)", no tooltip: the (0) is the widget's count of files, always 0 as
    the panel reads a file and empties it. It says "open a hand record" (its count hidden by the panel's style: the
    browser test reads the page), with a tooltip saying what a hand record is."""
    from cardgames_tutor.ui.panel import UPLOAD_WORDS
    t = Tutor('kocka', seed=1, coach=False)
    assert t.upload.description == UPLOAD_WORDS and 'save record' in t.upload.tooltip and '.json' in t.upload.tooltip
    assert 'cgt-upload' in t.upload._dom_classes and '.cgt-upload{font-size:0' in t.css.value and UPLOAD_WORDS in t.css.value
