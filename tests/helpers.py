"""Shared test helpers: the leak check at a match's current hand, and seeded random matches."""
import random
from cardgames_tutor.cards import Card
from cardgames_tutor.engine import Match, play_out, random_choice, leaked_cards

_TEXT_CACHE = {}

def _text_cards(text, pack) -> frozenset:
    "The cards of `pack` written in `text` (notation or signs), cached: views repeat their event texts."
    key = (text, pack.name)
    if key not in _TEXT_CACHE:
        found = set()
        for token in text.replace(',', ' ').replace('(', ' ').replace(')', ' ').replace(':', ' ').replace(';', ' ').split():
            try: found.add(pack.parse(token.strip('.!?[]\'"')))
            except ValueError: pass
        _TEXT_CACHE[key] = frozenset(found)
    return _TEXT_CACHE[key]

def cards_in(obj, pack) -> set:
    "Every card of `pack` anywhere in `obj` (a view): Card objects, and cards written in texts."
    found = set()
    def walk(x):
        if isinstance(x, Card): found.add(x)
        elif isinstance(x, dict):
            for k, v in x.items(): walk(k); walk(v)
        elif isinstance(x, (list, tuple, set, frozenset)):
            for v in x: walk(v)
        elif isinstance(x, str): found.update(_text_cards(x, pack))
    walk(obj)
    return found

def assert_no_leak(match: Match, seat: int):
    "The view of `seat` shows no card that `seat` may not see now (the engine's `leaked_cards`)."
    assert len(match.view(seat)['events']) == len([e for e in match.hand.events if e.seen_by(seat)])
    leaked = leaked_cards(match.hand, seat)
    assert not leaked, f"Seat {seat}'s view leaks {[str(c) for c in leaked]} in phase {match.hand.phase}"

def random_match(game, seed, chooser=random_choice) -> Match:
    "A whole match of `game` from `seed`, every seat choosing with `chooser`."
    return play_out(Match(game, seed=seed), chooser, random.Random(seed))
