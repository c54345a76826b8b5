"""Smoke test of an installed cardgames_tutor (run by tools/wheel_matrix.py inside a fresh venv, outside the checkout).

Plays a seeded match of every game with bots, saves its record, loads and replays it, reviews it, asks a drill's
questions and builds a panel; fails (exit 1) on the first thing wrong, with what it was.
"""
import pathlib, sys, tempfile

import cardgames_tutor
from cardgames_tutor.core.registry import games, game_class
from cardgames_tutor.core.match import Match, play_out
from cardgames_tutor.core.records import save, load, to_record
from cardgames_tutor.coach.search import review_text
from cardgames_tutor.practice.drills import drill_set
from cardgames_tutor.ui.panel import Tutor
from cardgames_tutor.serve.pages import start_words

def check(ok, what):
    if not ok: sys.exit(f'FAILED: {what}')

def main():
    where = pathlib.Path(cardgames_tutor.__file__).resolve()
    check('site-packages' in where.parts, f'cardgames_tutor imported from {where}, not from an installed wheel')
    check(len(games()) == 5, f'five games registered, found {sorted(games())}')
    with tempfile.TemporaryDirectory() as tmp:
        for name in games():
            match = Match(game_class(name)(), seed=7)
            play_out(match)
            check(match.over and match.hands, f'{name}: the seeded match was not played out')
            path = save(match, pathlib.Path(tmp) / f'{name}.json')
            again = load(path)
            check(to_record(again) == to_record(match), f'{name}: the saved record does not replay to the same match')
            check(review_text(path, 0, budget=0.05).strip(), f'{name}: the review is empty')
            questions = drill_set(name, count=2, seed=1)
            check(len(questions) == 2 and all(q.grade(q.choices[q.answers[0]]).right for q in questions), f'{name}: the drill did not ask and grade')
    panel = Tutor('kocka', seed=3)
    check(panel.children, 'the panel has no widgets')
    check(len(start_words()) > 1, "the classroom's start page is not in the package")
    print(f'ok: cardgames_tutor {cardgames_tutor.__version__} on Python {sys.version.split()[0]}: '
          f'{len(games())} games played, saved, replayed and reviewed; drills; a panel; the start page')

if __name__ == '__main__': main()
