"""The coach's lean playouts change nothing: over thousands of random positions of every game and variant, the house bot
chooses the same action, drawing the same random numbers, from `bot_view` and by `bot_move` as from the full view; each key of `bot_view`
holds what `view` holds there; a playout from either ends in the same hand; and a hint is the same with either."""
import random
import pytest
from cardgames_tutor.core.engine import deal_cards
from cardgames_tutor.core.registry import games, get_game
from cardgames_tutor.core.tricks import TrickHand
from cardgames_tutor.coach import search as coach

VARIANTS = [(name, {'players': n}) if len(info.players) > 1 else (name, {})
            for name, info in games().items() for n in info.players]
POSITIONS = 2500  # per variant


def view_playout(hand, rng):
    "The playout as it was before `bot_view`: the full view (events aside) for every bot move."
    while not hand.is_over: hand.apply(hand.game.bot(hand.view(hand.to_act, text=False), rng))
    return hand


def same_value(key, lean, full) -> bool:
    "A `bot_view` value is the view's: a dict may hold only some of its keys; the hand may be in another order (for a bot that counts it)."
    if isinstance(lean, dict): return isinstance(full, dict) and all(lean[k] == full[k] for k in lean)
    if key == 'hand': return sorted(lean, key=str) == sorted(full, key=str)
    return lean == full


def positions(game, n, seed=0):
    "About `n` positions with a seat to act, from hands played by bots and by random choices mixed (varied positions, bot-like ones too)."
    rng, seen = random.Random(seed), 0
    while seen < n:
        hand = game.new_hand(deal_cards(game, rng), rng.randrange(game.n_seats()))
        wild = rng.random()  # how often a random action replaces the bot's
        while not hand.is_over and seen < n:
            yield hand
            seen += 1
            legal = hand.legal_actions()
            hand.apply(rng.choice(legal) if rng.random() < wild else game.bot(hand.view(hand.to_act, text=False), rng))


@pytest.mark.parametrize('name,opts', VARIANTS, ids=[f"{n}-{o.get('players', '')}" for n, o in VARIANTS])
def test_bot_view_same_move(name, opts):
    game, checked = get_game(name, **opts), 0
    for hand in positions(game, POSITIONS):
        seat = hand.to_act
        full, lean = hand.view(seat, text=False), hand.bot_view(seat)  # (a game with its own `bot_move` may keep the default)
        extra = set(lean) - set(full)
        assert not extra, f"{name}: bot_view has keys the view has not: {extra}"
        for k in lean: assert same_value(k, lean[k], full[k]), f"{name}: bot_view[{k!r}] differs from the view's"
        r1, r2 = random.Random(checked), random.Random(checked)
        a, b = game.bot(full, r1), game.bot(lean, r2)
        assert a == b, f"{name}: the bot chose {a} from the view but {b} from bot_view ({hand.phase})"
        assert r1.getstate() == r2.getstate(), f"{name}: the bot drew other random numbers from bot_view"
        assert a in hand.legal_actions()
        if not game.bot_draws: assert game.bot(full, None) == a  # a bot said to draw nothing needs no generator
        r3 = random.Random(checked)
        c = hand.bot_move(r3)  # the playout's entry: the same action, the same random numbers
        assert c == a and r3.getstate() == r1.getstate(), f"{name}: bot_move chose {c}, the bot {a} ({hand.phase})"
        checked += 1
    assert checked == POSITIONS


@pytest.mark.parametrize('name,opts', VARIANTS, ids=[f"{n}-{o.get('players', '')}" for n, o in VARIANTS])
def test_playout_same_hand(name, opts):
    "From the same position and seed, the coach's playout and the full-view playout end in the same hand, move for move."
    game = get_game(name, **opts)
    for i, hand in enumerate(positions(game, 60, seed=1)):
        if i % 6: continue
        a, b = coach.fork(hand), coach.fork(hand)
        coach.PLAYOUT(a, random.Random(i)); view_playout(b, random.Random(i))
        assert a.history == b.history and a.result == b.result


def test_hint_unchanged(monkeypatch):
    "A hint searched with the lean playout ranks every action with the same values as one searched through full views."
    for name, opts in [('begga-kaat', {}), ('kocka', {}), ('dehla-pakad', {}), ('maghe-satra', {}),
                       ('beggars-and-thieves', {'players': 5}), ('beggars-and-thieves', {'players': 2})]:
        game = get_game(name, **opts)
        for i, hand in enumerate(positions(game, 40, seed=2)):
            if i % 13 or len(hand.legal_actions()) < 2: continue
            view = hand.view(hand.to_act)
            coach._hints.clear()
            fast = coach.searched(view, game, 0, 0.05, coach.candidates(view, game))
            monkeypatch.setattr(coach, 'PLAYOUT', view_playout)
            slow = coach.searched(view, game, 0, 0.05, coach.candidates(view, game))
            monkeypatch.undo()
            assert [(r.action, r.value) for r in fast.ranked] == [(r.action, r.value) for r in slow.ranked], name
            assert fast.deals == slow.deals


NARRATION = {'events', 'story', 'quiet', '_result'}  # what a quiet hand leaves out (Dehla Pakad's story of the centre too); the result is compared read


@pytest.mark.parametrize('name,opts', VARIANTS, ids=[f"{n}-{o.get('players', '')}" for n, o in VARIANTS])
def test_quiet_hand_plays_the_same(name, opts):
    """A quiet hand (the coach's playouts) is played by the same rules: from the same position, the bots choose the same
    actions with the same legal actions at every turn, and the hand ends the same in every attribute but its narration;
    a trick game's quiet hand keeps no event (Maghe Satra writes its own)."""
    game = get_game(name, **opts)
    for i, hand in enumerate(positions(game, 400, seed=3)):
        if i % 8: continue
        told, quiet = coach.fork(hand), coach.fork(hand)
        quiet.quiet = True
        r1, r2 = random.Random(i), random.Random(i)
        while not told.is_over:
            a, b = told.bot_move(r1), quiet.bot_move(r2)
            assert a == b and told.legal_actions() == quiet.legal_actions(), f"{name}: a quiet hand played {b}, a told one {a}"
            told.take(a); quiet.take(b)
        assert quiet.is_over and quiet.result == told.result
        assert quiet.events == [] if isinstance(told, TrickHand) else len(quiet.events) <= len(told.events)
        same = lambda h: {k: v for k, v in vars(h).items() if k not in NARRATION}
        assert same(quiet) == same(told), f"{name}: a quiet hand ended otherwise"


CACHE = {'_legal', '_legal_at'}  # the legal actions kept for a position: a cache, not the hand


@pytest.mark.parametrize('name,opts', VARIANTS, ids=[f"{n}-{o.get('players', '')}" for n, o in VARIANTS])
def test_lean_playout_plays_the_same(name, opts):
    """The coach's playout (`coach.PLAYOUT`; a trick game's `TrickHand.lean_playout`, issue 50) plays a quiet hand as
    `take(bot_move(rng))` at every turn plays it: the same actions in the same order, the same random draws after it,
    the hand ends the same in every attribute (events aside: a quiet hand keeps none)."""
    game = get_game(name, **opts)
    for i, hand in enumerate(positions(game, 600, seed=5)):
        if i % 6: continue
        lean, told = coach.fork(hand), coach.fork(hand)
        lean.quiet = told.quiet = True
        r1, r2 = random.Random(i), random.Random(i)
        coach.PLAYOUT(lean, r1)
        while not told.is_over: told.take(told.bot_move(r2))
        assert lean.history == told.history, f"{name}: the lean playout played {lean.history[len(hand.history):]}, bot_move {told.history[len(hand.history):]}"
        assert r1.random() == r2.random(), f"{name}: the lean playout drew other random numbers"
        same = lambda h: {k: v for k, v in vars(h).items() if k not in NARRATION | CACHE}
        assert lean.result == told.result and same(lean) == same(told), f"{name}: a lean playout ended otherwise"

