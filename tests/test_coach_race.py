"""The coach's race: an action clearly behind stops being played out, the work it would have cost is saved (the
budget buys the deals it would buy with every candidate played), the search ends once one action is left, an
action out of the race never ranks above one still in it, and a hint changes nothing in the view it reads."""
import copy, random
import pytest
from cardgames_tutor.core.engine import deal_cards
from cardgames_tutor.core.registry import games, get_game
from cardgames_tutor.coach import search as coach

VARIANTS = [(name, {'players': n}) if len(info.players) > 1 else (name, {})
            for name, info in games().items() for n in info.players]
IDS = [f"{n}-{o.get('players', '')}" for n, o in VARIANTS]
B = 0.15


def views(game, n, seed=0):
    "About `n` views of the seat to act with a choice, early and late in hands played by the house bots."
    rng, out = random.Random(seed), []
    while len(out) < n:
        hand = game.new_hand(deal_cards(game, rng), rng.randrange(game.n_seats()))
        while not hand.is_over:
            if len(hand.legal_actions()) > 1 and rng.random() < 0.3: out.append(hand.view(hand.to_act))
            hand.apply(game.bot(hand.view(hand.to_act, text=False), rng))
    return out[:n]


def searched(view, game, race=True):
    "The hint searched afresh, with the race or none, and the playout actions it took."
    play, count = coach.PLAYOUT, [0]
    def counted(hand, rng):
        start = len(hand.history)
        play(hand, rng); count[0] += len(hand.history) - start
        return hand
    coach.PLAYOUT = counted
    try:
        coach._hints.clear()
        return coach.hint(view, game, seed=3, budget=B, race=None if race else False), count[0]
    finally: coach.PLAYOUT = play


@pytest.mark.parametrize('name,opts', VARIANTS, ids=IDS)
def test_the_race_saves_work_and_ranks_an_action_out_of_it_last(name, opts):
    game = get_game(name, **opts)
    raced_work = full_work = agree = n = 0
    for view in views(game, 24):
        before = copy.deepcopy(view)
        raced, w1 = searched(view, game)
        assert view == before, f"{name}: a hint changed the view it read"  # (the last action plays on the sampled hand itself)
        full, w2 = searched(view, game, race=False)
        raced_work, full_work, n = raced_work + w1, full_work + w2, n + 1
        # no race: every candidate on every deal, the deals the budget buys
        assert all(r.deals == full.deals for r in full.ranked), f"{name}: with no race an action missed a deal"
        # an action out of the race is counted at its playouts' mean length so far, so the deals agree but for that estimate
        assert raced.deals <= 1.1 * full.deals + 1, f"{name}: the race bought more deals than the budget ({raced.deals} > {full.deals})"
        kept = [r.deals == raced.deals for r in raced.ranked]
        assert kept == sorted(kept, reverse=True), f"{name}: an action out of the race ranks above one still in it"
        agree += raced.best == full.best
    assert raced_work < full_work, f"{name}: the race saved no work ({raced_work} actions against {full_work})"
    assert agree >= 0.8 * n, f"{name}: the race changed the choice in {n - agree} of {n} positions"


def test_a_race_won_early_stops_the_search():
    "Maghe Satra's first decision: one of two actions is soon clearly behind, and the search ends there."
    game = get_game('maghe-satra')
    stopped = [searched(v, game)[0].deals < searched(v, game, race=False)[0].deals for v in views(game, 20, seed=1)]
    assert sum(stopped) >= 5, f"the race ended early in only {sum(stopped)} of 20 positions"
