"""Duel: a sixth game, made outside the package in this one module (issue 48, item 2: a game is a plug-in).

Two players, twelve cards each from a pack of 24 (the 9s to the aces); the leader plays any card, the other must follow
the led suit if they can; the highest card of the led suit takes the trick, and each trick scores 1. The first to reach
the target (20 tricks, over several hands) with more tricks than the other wins the match. Importing this module
registers the game, its drills and its bot; no file of the package names it. A separate process loads it by naming it
in CARDGAMES_TUTOR_GAMES (with this folder on PYTHONPATH)."""
from cardgames_tutor.core.cards import FRENCH, Hand, in_order
from cardgames_tutor.core.engine import Game, Event, Goal, ENGINE_RULES
from cardgames_tutor.core.options import Option
from cardgames_tutor.core.registry import register_game
from cardgames_tutor.core.tricks import TrickHand, trick_rules
from cardgames_tutor.core.contracts import TrickView, Result, Contract, Tally, Row, PLAY
from cardgames_tutor.core.sampling import Measure, played_cards, trick_actions, replay, deal_hands
from cardgames_tutor.practice.drills import verdict_drill, trick_drill

NAME = 'duel'
DECK = tuple(c for c in FRENCH if c.rank >= 9)


@register_game
class Duel(Game):
    "Duel for two players: follow suit, the highest card of the led suit takes the trick."
    name, title, pack, PLAYERS = NAME, 'Duel', FRENCH, (2,)
    players = 2
    OPTIONS = (Option('target', 20, lambda v: type(v) is int and 1 <= v <= 100, 'a whole number from 1 to 100',
                      'the tricks that win the match'),)
    RULES = {**ENGINE_RULES, **trick_rules(NAME), f'{NAME}/score': 'Each trick won scores 1',
             f'{NAME}/match': 'Reach the target with more tricks than the other and you win'}
    QUICKREF = [Row('Deal', "the 9s to the aces, 24 cards: 12 each"),
                Row('Lead', "the dealer's opponent leads first; the winner of a trick leads the next", PLAY),
                Row('Follow', "follow the led suit if you can; if not, play any card", PLAY),
                Row('Win', "the highest card of the led suit takes the trick; it scores 1", PLAY),
                Row('End', "reach the target with more tricks than the other and you win the match", PLAY)]

    def setup(self): self.goal = Goal(self.target, 'win', 'tricks')
    def deck(self): return list(DECK)
    def deal_shape(self): return {'hands': (2, 12)}
    def new_hand(self, deal, dealer, match=None): return DuelHand(self, deal, dealer)

    def settle(self, hand, match):
        totals = match.standing['totals']
        for s, p in enumerate(hand.outcome['points']): totals[s] += p
        events = [Event('standing', f"Tricks in the match: Seat 0 {totals[0]}, Seat 1 {totals[1]}.")]
        top = max(range(2), key=totals.__getitem__)
        if totals[top] >= self.target and totals[top] > totals[1 - top]:
            return events + [Event('match', f"Seat {top} reaches {self.target} tricks and wins the match.", top, rule=f'{NAME}/match')], hand.dealer, True
        return events, 1 - hand.dealer, False

    @property
    def coach_measure(self) -> Measure:
        return Measure(lambda hand, seat: {'tricks': hand.outcome['points'][seat]}, lambda st: st['tricks'], 'tricks', 'expected tricks')

    def resample(self, view, rng):
        played, hands = played_cards(view), deal_hands(view, self, rng)
        return replay(self, {'hands': [hands[s] + played[s] for s in range(2)]}, view['dealer'], trick_actions(view))


class DuelHand(TrickHand):
    "One hand of Duel."
    RULE = NAME
    def __init__(self, game, deal, dealer):
        super().__init__(game, deal, dealer, deal['hands'], leader=1 - dealer)
        for seat, cards in enumerate(self.hands):
            self.log('deal', f"Seat {seat} is dealt {Hand(in_order(cards))}.", seat, to=(seat,))

    def hand_done(self):
        self.phase, self.to_act = 'over', None
        points = [sum(t.winner == s for t in self.tricks) for s in range(2)]
        text = f"Hand over. Tricks: Seat 0 {points[0]}, Seat 1 {points[1]}."
        self.result = {'points': points, 'text': text}
        self.log('score', text, rule=f'{NAME}/score')


Duel.CONTRACT = Contract(TrickView, Result, dict, Tally('tricks', int), ('totals',))


def bot(view:dict, rng):
    "The house bot: the lowest card that takes the trick, else the lowest card."
    legal, trick = view['legal'], [c for _, c in view['trick']]
    winners = [c for c in legal if trick and c.suit == trick[0].suit and c.rank > max(x.rank for x in trick if x.suit == trick[0].suit)]
    return min(winners or legal, key=lambda c: c.rank)


for _rule in ('lead', 'follow', 'void', 'hold', 'play'): verdict_drill(NAME, f'{NAME}/{_rule}')
for _rule in ('turn', 'notation', 'hand-over'): verdict_drill(NAME, _rule)
trick_drill(NAME, f'{NAME}/trick')
