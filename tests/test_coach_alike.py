"""The coach's groups of cards that play out alike (`Search.same`): every card of each group, played out on the same
sampled deals with the same seeds, gives the same stats (seeded positions from house-bot hands, every variant of each
game that groups with `core.sampling.alike_cards`)."""
import random
import pytest
from cardgames_tutor.core.engine import deal_cards
from cardgames_tutor.core.registry import get_game
from cardgames_tutor.coach import search as coach
from cardgames_tutor.coach.worlds import sample_hand

GROUPING = [('begga-kaat', {}), ('begga-kaat', {'players': 3})]  # the games whose coach_search groups by alike_cards

def groups_checked(game, hands, same=None, deals=3):
    "(groups of two or more cards formed, groups whose cards gave different stats on some deal) over `hands` seeded hands."
    formed, differ, same = 0, [], same or game.coach_search.same
    for i in range(hands):
        rng = random.Random(i)
        hand = game.new_hand(deal_cards(game, rng), rng.randrange(game.n_seats()))
        while not hand.is_over:
            view = hand.view(hand.to_act)
            if len(view['legal']) > 1:
                for group in same(view, view['legal']):
                    if len(group) < 2: continue
                    formed += 1
                    r = random.Random(1000 * i + len(hand.history))
                    for _ in range(deals):
                        base, seed = sample_hand(view, game, random.Random(r.getrandbits(64))), r.getrandbits(64)
                        stats = []
                        for card in group:
                            h = coach.fork(base); h.apply(card); coach.PLAYOUT(h, random.Random(seed))
                            stats.append(game.coach_measure.stats(h, view['seat']))
                        if any(s != stats[0] for s in stats): differ.append((i, len(hand.history), group, stats)); break
            hand.apply(game.bot(hand.view(hand.to_act, text=False), rng))
    return formed, differ

@pytest.mark.parametrize('name,opts', GROUPING)
def test_groups_play_out_alike(name, opts):
    game = get_game(name, **opts)
    formed, differ = groups_checked(game, 40)
    assert formed >= 200, f"only {formed} groups formed: the test would prove little"
    assert not differ, differ[:3]

def test_a_loose_grouping_is_caught():
    "The check itself can fail: grouping cards across an unseen card (here: every pair of one suit) gives different stats."
    game = get_game('begga-kaat')
    loose = lambda view, actions: [[a for a in actions if a.suit == s] for s in dict.fromkeys(a.suit for a in actions)]
    assert groups_checked(game, 5, loose)[1]
