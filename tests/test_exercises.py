"""Prepared exercises through the session, the panel's link and upload, and records that start from a standing."""
import json, random
import pytest
from cardgames_tutor.core.registry import get_game
from cardgames_tutor.core.match import Match, play_out, random_choice
from cardgames_tutor.practice.exercises import EXERCISES, exercise, exercises
from cardgames_tutor.core.records import RecordError, load, to_record
from cardgames_tutor.ui.session import Session
from cardgames_tutor.ui.panel import Tutor
from cardgames_tutor.games.dehla_pakad import deal_winner, team


def test_upload_of_a_record_with_start_through_the_session():
    m = exercise('dehla-pakad-centre-three')
    data = json.dumps(to_record(m)).encode('utf-8')  # what the panel's upload hands over
    s = Session('begga-kaat', seed=1)
    assert s.load_record(data), s.message.text
    assert s.game.name == 'dehla-pakad' and EXERCISES['dehla-pakad-centre-three'].note in s.message.text
    assert s.shown().view(0)['centre']['tricks'] == 0  # stepping starts at the record's first move
    s.step(None)
    assert s.match.view(0)['centre']['tricks'] == 3 and s.match.to_act == 0
    again = json.loads(s.record_json())
    assert again['start'] == to_record(m)['start'] and again['hands'] == to_record(m)['hands']


def test_session_on_a_standing_plays_on_and_counts_from_it():
    s = Session(match=exercise('begga-kaat-95'))
    assert s.shown().standing['totals'] == [95, 40, 20, 57]
    rng = random.Random(2)
    while len(s.match.hands) == 1 and not s.match.over: s.match.apply(random_choice(s.match.view(s.match.to_act), rng))
    gains = [a - b for a, b in zip(s.match.tallies[0], [95, 40, 20, 57])]
    assert gains == s.match.hands[0].result['points']  # the hand's points, not the totals
    assert f"{gains[0]:g} by Seat 0" in s.best_words(0) or len(set(gains)) == 1  # each count before its seat


def test_tutor_upload_and_link():
    t = Tutor('kocka', seed=1, pace=0)
    t._on_upload({'new': [{'content': json.dumps(to_record(exercise('kocka-last-letter'))).encode()}]})
    assert t.game.name == 'kocka' and t.match.standing['letters'] == [4, 1, 2, 3]
    t = Tutor.from_query('exercise=thieves-picked-with-six', pace=0)
    assert t.game.name == 'beggars-and-thieves' and t.match.view(0)['phase'] == 'bury' and t.seat == 0
    assert 'Exercise: You picked with the six.' in t.message.value and 'Link ignored' not in t.session.message.text
    t = Tutor.from_query('exercise=nope&seed=4', pace=0)
    assert "unknown exercise 'nope': the exercises are begga-kaat-95" in t.session.message.text
    assert t.game.name == 'begga-kaat' and t.seed == 4 and t.match.given_standing is None  # the default deal
    t = Tutor.from_query('exercise=maghe-satra-one-point&game=kocka', pace=0)
    assert t.game.name == 'maghe-satra' and t.match.standing['totals'][0] == 9


@pytest.mark.parametrize('name', list(EXERCISES))
def test_each_exercise_replays_exactly_and_ends(name):
    m = exercise(name)
    for k in range(20):
        if m.over: break
        m.apply(random_choice(m.view(m.to_act), random.Random(k)))
    saved = to_record(m)
    assert to_record(load(json.dumps(saved))) == saved  # save, load, continue: the same
    n = len(m.actions) - len(exercise(name).actions)
    m.undo(n)
    assert m.standing == exercise(name).standing and to_record(m) == to_record(exercise(name))
    assert play_out(m, random_choice, random.Random(1)).over


def test_exercises_are_copies_and_old_records_load():
    x = exercises()['begga-kaat-95']
    x.record['start']['standing']['totals'][0] = 0
    assert exercise('begga-kaat-95').standing['totals'][0] == 95
    old = to_record(play_out(Match(get_game('kocka'), seed=4), random_choice, random.Random(4)))
    assert 'start' not in old and load(old).over


def test_a_standing_never_shared_with_the_caller():
    given = {'totals': [95, 40, 20, 57]}
    m = Match(get_game('begga-kaat'), seed=3, standing=given)
    m.standing['totals'][0] = 0
    given['totals'][1] = 0
    assert m.replayed([]).standing['totals'] == [95, 40, 20, 57]


@pytest.mark.parametrize('standing, words', [
    ({'totals': [95, 40, 20, 60]}, "unknown key 'totals': a start may set letters"),
    ({'letters': [5, 0, 0, 0]}, "already ends the match: Seat 0 has 5 (reach 5 letters (KOČKA) and you lose)"),
    ({'letters': [1, 2, 3]}, "'letters' must be a list of 4 whole numbers from 0 to 10,000"),
    ({'letters': [-1, 0, 0, 0]}, "whole numbers from 0"),
    ({'replays': 'x'}, "'replays' is kept by the match itself"),
    ([1, 2], "must be an object such as {'letters': ...}, not list"),
])
def test_bad_standings_are_one_line_in_the_record(standing, words):
    rec = {'format': 'cardgames-tutor-record', 'version': 1, 'game': 'kocka', 'seed': 1,
           'start': {'standing': standing}, 'hands': [{'dealer': 0}]}
    with pytest.raises(RecordError) as e: load(rec)
    text = str(e.value)
    assert words in text and text.startswith('start.standing: bad standing for Kočka') and '\n' not in text and len(text) < 300


# ---------------------------------------------------------------- every exercise starts where a real match could be

from test_drill_truth import bk_reachable

def _start(name):
    m = exercise(name)
    return m, m.standing, m.hand.dealer

def _reachable(name) -> str:
    "Why the exercise's start is not one the rules can produce ('' when it is), from the rulebooks (../shared/rules)."
    m, st, dealer = _start(name)
    game = m.game.name
    if game == 'begga-kaat':  # whole hands of 53 penalty points, nobody at the target, the highest total deals
        if not bk_reachable(st['totals'], m.game.target): return f"totals {st['totals']} are no sum of whole hands"
        if st['totals'][dealer] != max(st['totals']): return f"Seat {dealer} deals without the highest total"
        if st['totals'].count(max(st['totals'])) > 1 and any(st['totals']): return "a tie for the highest: say the table rule"
    if game == 'kocka':  # one letter per lost hand, nobody has the word, the last hand's loser deals (so has a letter)
        if max(st['letters']) >= len(m.game.letters): return "someone has spelled the word"
        if any(st['letters']) and st['letters'][dealer] == 0: return f"the dealer, Seat {dealer}, never lost a hand"
    if game == 'dehla-pakad':  # the side that won the last deal does not deal the next (the deal passes, or stays with the losers)
        if st['streak'] and st['streak'] > st['deals_won'][st['streak_team']]: return "a streak longer than the deals won"
        if st['streak'] and dealer % 2 == st['streak_team']: return f"Seat {dealer} deals for the side that won the last deal"
    if game == 'maghe-satra':  # one game point per hand won, nobody at the target
        if max(st['totals']) >= m.game.goal.value: return "someone has reached the target"
    if game == 'beggars-and-thieves' and 'totals' in (m.given_standing or {}):  # hand scores are 2, 4 or 6 (+2 alone) each
        if any(t % 2 for t in st['totals']): return f"an odd total in {st['totals']}"
    return ''

CLAIMS = {  # what each exercise's note says of its start: (words of the note, the check of that claim)
    'begga-kaat-95': [("You (Seat 0) are on 95 penalty points", lambda m: m.standing['totals'][0] == 95),
                      ("the others on 40, 20 and 57", lambda m: m.standing['totals'][1:] == [40, 20, 57]),
                      ("with the highest total you deal", lambda m: m.hand.dealer == 0),
                      ("Take five more and you lose", lambda m: m.game.target - m.standing['totals'][0] == 5)],
    'begga-kaat-leader': [("You (Seat 0) have only 10 penalty points", lambda m: m.standing['totals'][0] == 10),
                          ("Seats 1, 2 and 3 are on 90, 85 and 80", lambda m: m.standing['totals'][1:] == [90, 85, 80]),
                          ("Seat 1, the highest, deals", lambda m: m.hand.dealer == 1),
                          ("when anyone reaches 100", lambda m: m.game.target == 100)],
    'kocka-two-letters': [("Everyone has KO", lambda m: m.game.tally(m.standing)[1] == ['KO'] * 4),
                          ("Three more lost hands", lambda m: len(m.game.letters) - 2 == 3)],
    'kocka-last-letter': [("You (Seat 0) have KOČK", lambda m: m.game.tally(m.standing)[1][0] == 'KOČK'),
                          ("lose this hand and you have spelled KOČKA", lambda m: m.standing['letters'][0] == len(m.game.letters) - 1)],
    'dehla-pakad-centre-three': [("Three tricks lie in the centre", lambda m: m.view(0)['centre']['tricks'] == 3),
                                 ("with the ten of spades among them", lambda m: [c.code for c in m.view(0)['centre']['tens']] == ['10S']),
                                 ("you (Seat 0) won the last trick", lambda m: m.view(0)['on_one'] == 0 and m.to_act == 0)],
    'dehla-pakad-streak': [("Your side, you (Seat 0) and your partner opposite, Seat 2,", lambda m: m.standing["streak_team"] == team(0) == team(2)),
                           ("has won six deals in a row", lambda m: (m.standing['streak_team'], m.standing['streak']) == (0, 6)),
                           ("seven in a row", lambda m: m.standing['streak'] + 1 == 7),
                           ("Seat 1 dealt, so two of the four tens are enough", lambda m: m.hand.dealer == 1 and deal_winner([2, 2], team(1)) == (team(0), 'split'))],
    'maghe-satra-one-point': [("You (Seat 0) have 9 game points", lambda m: m.standing['totals'][0] == 9),
                              ("you reach 10 and win the match", lambda m: m.game.goal.value == 10),
                              ("Seat 2 is on 8", lambda m: m.standing['totals'][2] == 8)],
    'thieves-picked-with-six': [("You (Seat 0) picked up the blind", lambda m: m.view(0)['picker'] == 0),
                                ("you hold the 6 Thief yourself (and the 7 Thief)",
                                 lambda m: {'T6', 'T7'} <= {c.code for c in m.view(0)['hand']})],
    'thieves-tie-at-target': [("You (Seat 0) and Seat 1 both have 20, the target",
                               lambda m: m.standing['totals'][:2] == [20, 20] == [m.game.goal.value] * 2)],
}

@pytest.mark.parametrize('name', list(EXERCISES))
def test_each_exercise_starts_where_the_rules_can_and_its_note_is_true(name):
    assert not _reachable(name), f"{name}: {_reachable(name)}"
    assert name in CLAIMS, f"{name}: say what its note claims, in CLAIMS"
    m = exercise(name)
    for words, holds in CLAIMS[name]:
        assert words in m.note, f"{name}: the note no longer says {words!r}"
        assert holds(m), f"{name}: the note says {words!r}, but the start does not"
