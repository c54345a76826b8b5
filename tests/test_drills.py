"""Drills: every rule the games can emit has a drill, every drill makes questions, and the engine's answers agree with
an independent computation (written here from the rulebooks, not from the games' code) over thousands of seeds."""
import collections, random, re
import pytest
from cardgames_tutor.core.cards import Card, in_order
from cardgames_tutor.core.registry import games, game_class
from cardgames_tutor.core.actions import Move
from cardgames_tutor.practice.drills import (DRILLS, MAX_HANDS, Question, BadDrill, positions, question, drills_for, drill_rules,
                                    drill_set, tries)

SEEDS = 1000  # seeds per independent check of a position in play
HEAVY = 240  # seeds per check of a finished hand (each needs whole hands played)


def asked(d, seed):
    "What `question(d, seed)` does, keeping the hand the question was asked at (for the independent checks)."
    rng = random.Random(seed)
    game = game_class(d.game)(**rng.choice(d.options))
    for _ in range(MAX_HANDS):
        for pos in positions(game, rng):
            if not pos.is_over and rng.random() < 0.7: continue
            fields = d.ask(pos, rng)
            if fields: return pos, Question(d.game, d.rule, d.level, seed=seed, **fields)
    raise AssertionError(f"no position for {d.rule}")

def right(q): return q.choices[q.answers[0]]


# ---------------------------------------------------------------- coverage

GAME_NAMES = list(games())
drills_for(GAME_NAMES[0])  # every game's drills registered now (they are on first use): a test that reads DRILLS may run first

def emitted_rules(name, hands=60):
    "The rule ids the game's own verdicts give, over seeded hands: every card, legal action, word and out-of-turn try."
    found, rng = set(), random.Random(1)
    for options in {tuple(sorted(o.items())) for d in DRILLS[name] for o in d.options}:
        game = game_class(name)(**dict(options))
        for _ in range(hands // 4):
            for hand in positions(game, rng):
                found.update(hand.explain(a, s).rule for s, a in tries(hand, rng))
    return found - {'hand-over', 'notation'}  # no position of a hand in play gives these

@pytest.mark.parametrize('name', GAME_NAMES)
def test_every_rule_the_game_emits_has_a_drill(name):
    cls = game_class(name)
    missing = sorted(set(cls.RULES) - set(drill_rules(name)))
    assert not missing, f"{name}: rules without a drill: {missing}"
    assert emitted_rules(name) <= set(cls.RULES)  # what the verdicts say is what RULES lists (the engine's test too)

SCORING = {  # the scoring and standing rules of each rulebook: each must have a drill (most are in RULES too)
    'begga-kaat': ['trick', 'score', 'next-dealer', 'target'],
    'kocka': ['trick', 'score', 'letter', 'replay', 'decided', 'word'],
    'dehla-pakad': ['trick', 'centre', 'score', 'next-dealer', 'kot'],
    'maghe-satra': ['beg', 'seventeen', 'over', 'odds', 'show', 'next-dealer', 'match'],
    'beggars-and-thieves': ['trick', 'partner', 'score', 'leaster', 'snear', 'tie', 'next-dealer', 'match']}

@pytest.mark.parametrize('name', GAME_NAMES)
def test_every_scoring_rule_has_a_drill_and_both_levels_exist(name):
    assert not [r for r in SCORING[name] if f"{name}/{r}" not in drill_rules(name)]
    assert {d.level for d in DRILLS[name]} == {'easy', 'hard'}

@pytest.mark.parametrize('name', GAME_NAMES)
def test_every_drill_asks_gradable_questions(name):
    for d in DRILLS[name]:
        for seed in range(3):
            q = question(d, seed)
            assert q.answers and all(0 <= i < len(q.choices) for i in q.answers), d.rule
            assert len(set(map(str, q.choices))) == len(q.choices), (d.rule, q.choices)
            assert q.grade(q.answers[0]).right and q.explanation and q.prompt.endswith('?'), d.rule
            wrong = [i for i in range(len(q.choices)) if i not in q.answers]
            assert wrong and not q.grade(wrong[0]).right, d.rule
            for text in (q.prompt, q.explanation):  # learner-facing: no raw Python values
                assert not re.search(r"\bNone\b|\bTrue\b|\bFalse\b|\{'|\b1 points\b", text), text

def test_a_given_position_is_asked_as_it_is():
    d = drills_for('kocka', 'pass-hold')[0]  # a position given: the hand as it is
    pos, q = asked(d, 3)
    assert question(d, 3, pos).rule == 'kocka/pass-hold' and question(d, 3, pos).facts['seat'] == q.facts['seat']
    done = next(h for h in positions(game_class('kocka')(), random.Random(0)) if h.is_over)
    with pytest.raises(ValueError, match="nothing to ask about kocka/pass-hold"): question(d, 0, done)


# ---------------------------------------------------------------- the same seed, the same drills

def test_same_seed_same_drill_set_different_seed_different():
    a = [q.prompt for q in drill_set('dehla-pakad', count=6, seed=42)]
    assert a == [q.prompt for q in drill_set('dehla-pakad', count=6, seed=42)]
    assert a != [q.prompt for q in drill_set('dehla-pakad', count=6, seed=43)]
    rules = [q.rule for q in drill_set('maghe-satra', count=len(DRILLS['maghe-satra']), seed=1)]
    assert len(set(rules)) == len(set(d.rule for d in DRILLS['maghe-satra']))  # each drill once before any twice

def test_bad_requests_one_line():
    for call, words in ((lambda: drill_set('kocka', 'hejma'), "no drill for the rule 'hejma' in kocka: the rules are "),
                        (lambda: drill_set('bridge'), "unknown game 'bridge'"),
                        (lambda: drill_set('kocka', count=-3), "from 1 to 100, not -3"),
                        (lambda: drill_set('kocka', count='5'), "whole number"),
                        (lambda: drill_set('kocka', level='medium'), "easy or hard")):
        with pytest.raises(BadDrill) as e: call()
        assert words in str(e.value) and len(str(e.value)) < 300 and '\n' not in str(e.value)
    assert drill_set('kocka', 'kocka/follow', count=1)[0].rule == drill_set('kocka', 'follow', count=1)[0].rule


# ---------------------------------------------------------------- independent checks

def may_play(hand, seat, card) -> bool:
    "Follow suit, from the rulebooks: a card you can play, of the led suit if you hold one."
    if seat != hand.to_act or hand.phase != 'play': return False
    own = hand.playable(seat)
    if card not in own: return False
    if not hand.trick: return True
    led = hand.trick[0].suit
    return card.suit == led or not any(c.suit == led for c in own)

def winner_of(cards, trump) -> int:
    "The position of the winning card: the highest trump, else the highest card of the suit led."
    trumps = [c for c in cards if c.suit == trump]
    pool = trumps or [c for c in cards if c.suit == cards[0].suit]
    return cards.index(max(pool, key=lambda c: c.rank))

BK_POINTS = lambda c: (11 if c.code == 'QH' else 10) if c.rank == 12 else (1 if c.suit == 'H' else 0)
KK_POINTS = lambda c: {'QL': 10, 'AH': 5, 'KH': 4, 'QH': 3, 'JH': 2}.get(c.code, 1 if c.suit == 'H' else 0)
BT_TABLE = {'T14': 4, 'T13': 3, 'T12': 3, 'T11': 3, 'T10': 2, 'T9': 2, 'T8': 2, 'T7': 2, 'T6': 11, 'T5': 10,
            **{f"{s}{n}": p for s in 'GBR' for n, p in ((8, 11), (7, 10), (6, 4), (5, 1))}}
POINTS = {'begga-kaat': BK_POINTS, 'kocka': KK_POINTS, 'beggars-and-thieves': lambda c: BT_TABLE.get(c.code, 0)}

TRICK_GAMES = ('begga-kaat', 'kocka', 'dehla-pakad', 'beggars-and-thieves')

@pytest.mark.parametrize('name', TRICK_GAMES)
def test_may_this_card_be_played_agrees_with_follow_suit(name):
    checked = collections.Counter()
    for d in DRILLS[name]:
        if not d.rule.endswith(('/follow', '/void', '/lead', '/hold')) and d.rule != 'turn': continue
        for seed in range(SEEDS // 4):
            pos, q = asked(d, seed)
            seat, action = q.facts['seat'], q.facts.get('action')
            if action is None:  # click a card: the right cards are exactly the playable ones
                assert [c for i, c in enumerate(q.choices) if i in q.answers] == \
                       [c for c in q.choices if may_play(pos, seat, c)], q.prompt
            elif isinstance(action, Card) and pos.phase == 'play':
                assert (right(q) == 'Yes') == may_play(pos, seat, action), q.prompt
            checked[d.rule] += 1
    assert sum(checked.values()) >= SEEDS

@pytest.mark.parametrize('name', TRICK_GAMES)
def test_who_wins_the_trick_and_its_points(name):
    n = 0
    for d in DRILLS[name]:
        if not d.rule.endswith(('/trick', '/score', '/card-points')) or not d.ask.__qualname__.startswith(('trick_drill', 'points_drill')):
            continue
        for seed in range(SEEDS // 4):
            q = question(d, seed)
            f = q.facts
            w = winner_of(list(f['cards']), f['trump'])
            seat = (f['leader'] + w) % len(f['cards'])
            if q.choices == f['cards']: assert q.answers == (w,), q.prompt
            if name in POINTS and d.rule != f"{name}/trick" or d.level == 'hard':
                points = sum(map(POINTS[name], f['cards'])) + (5 if name == 'kocka' and f['number'] == 8 else 0)
                assert right(q) in (str(points), f"Seat {seat}, {points}"), q.prompt
            n += 1
    assert n >= SEEDS // 4

def test_dehla_pakad_centre():
    "Two tricks in a row by the same player collect the centre; trick 13 takes what is left; otherwise it stays."
    for d in drills_for('dehla-pakad', 'centre'):
        for seed in range(HEAVY):
            pos, q = asked(d, seed)
            w = (q.facts['leader'] + winner_of(list(q.facts['cards']), q.facts['trump'])) % 4
            takes = q.facts['number'] == 13 or pos.on_one == w
            assert right(q) == (f"Seat {w} takes the centre" if takes else "The trick stays in the centre"), q.prompt

def test_dehla_pakad_deal_next_dealer_and_kot():
    for seed in range(HEAVY):
        pos, q = asked(drills_for('dehla-pakad', 'score')[0], seed)
        tens = [sum(c.rank == 10 for c in cap) for cap in pos.captures]
        team = 0 if tens[0] >= 3 else 1 if tens[1] >= 3 else 1 - pos.dealer % 2
        assert right(q) == f"Seats {team} and {team + 2}", q.prompt
    for seed in range(HEAVY):
        for rule in ('next-dealer', 'kot'):
            pos, q = asked(drills_for('dehla-pakad', rule)[0], seed)
            tens = [sum(c.rank == 10 for c in cap) for cap in pos.captures]
            team = 0 if tens[0] >= 3 else 1 if tens[1] >= 3 else 1 - pos.dealer % 2
            st = q.facts['standing']
            streak = st['streak'] + 1 if st['streak_team'] == team else 1
            if rule == 'next-dealer': assert right(q) == f"Seat {(pos.dealer + 1) % 4 if team == pos.dealer % 2 else pos.dealer}"
            elif 4 in tens or streak >= 7:
                assert right(q).startswith(f"Yes: kot! Seats {team} and {team + 2}"), q.prompt
                assert ('four tens' in right(q)) == (4 in tens)
            else: assert right(q).startswith('No'), q.prompt

def test_begga_kaat_next_dealer_and_target():
    for seed in range(HEAVY):
        for rule in ('next-dealer', 'target'):
            pos, q = asked(drills_for('begga-kaat', rule)[0], seed)
            totals = [t + p for t, p in zip(q.facts['standing']['totals'], pos.points)]
            losers = [s for s, t in enumerate(totals) if t >= 100]
            if rule == 'target':
                assert right(q).startswith('No') == (not losers), q.prompt
                assert all(f"Seat {s}" in right(q) for s in losers)
            else:
                top = max(totals)
                dealer = next(s for s in ((pos.dealer + k) % pos.n for k in range(1, pos.n + 1)) if totals[s] == top)
                assert right(q) == f"Seat {dealer}", q.prompt

def test_kocka_loser_tie_and_early_end():
    for d, seeds in ((drills_for('kocka', 'letter')[0], HEAVY), (drills_for('kocka', 'replay')[0], 100)):
        for seed in range(seeds):
            pos, q = asked(d, seed)
            top = max(pos.points)
            tied = [s for s, p in enumerate(pos.points) if p == top]
            loser = tied[0] if len(tied) == 1 else pos.hejma_taker if pos.hejma_taker in tied else None
            assert right(q) == (f"Seat {loser}" if loser is not None else "Nobody: the hand is replayed"), q.prompt
    for seed in range(HEAVY):
        pos, q = asked(drills_for('kocka', 'decided')[0], seed)
        points, trick = list(pos.points), list(q.facts['cards'])
        w = (q.facts['leader'] + winner_of(trick, None)) % 4
        points[w] += sum(map(KK_POINTS, trick))
        hejma = w if any(c.code == 'QL' for c in trick) else pos.hejma_taker
        left = 33 - sum(points)
        def certain(p):
            return all(points[o] + left < points[p] or (p == hejma and points[o] + left == points[p]) for o in range(4) if o != p)
        sure = [p for p in range(4) if certain(p)]
        assert right(q) == (f"Yes: Seat {sure[0]} is certain to lose" if sure else "No: nobody is certain to lose yet"), q.prompt

def _value(c): return 1 if c.rank == 14 else c.rank

def test_maghe_satra_beg_outcome_show_and_odds():
    for d in [d for d in DRILLS['maghe-satra'] if d.ask.__qualname__.startswith('_ms_beg')]:
        for seed in range(SEEDS // 4):
            pos, q = asked(d, seed)
            s = pos.to_act
            total = sum(map(_value, [pos.down[s], *pos.up[s], pos.stock[pos.dealt]]))
            assert q.answers == ((0 if total < 17 else 1 if total == 17 else 2),), q.prompt
    for d in drills_for('maghe-satra', 'show'):
        for seed in range(HEAVY // 2):
            pos, q = asked(d, seed)
            entries = [(sum(map(_value, [pos.down[s], *pos.up[s]])), 1 + len(pos.up[s]), turn, s)
                       for turn, s in enumerate(pos.order)]
            alive = [e for e in entries if e[0] <= 17]
            w = max(alive)[3] if alive else None
            assert right(q) == (f"Seat {w}" if w is not None else "Nobody: everyone is over 17"), q.prompt
    for seed in range(SEEDS // 4):
        pos, q = asked(drills_for('maghe-satra', 'odds')[0], seed)
        s = pos.to_act
        seen = {pos.down[s], *(c for up in pos.up for c in up)}
        total = sum(map(_value, [pos.down[s], *pos.up[s]]))
        unseen = [c for c in pos.game.deck() if c not in seen]
        bust = sum(total + _value(c) > 17 for c in unseen)
        assert right(q) == ('Beg' if 2 * bust < len(unseen) else 'Pass'), q.prompt

def test_beggars_and_thieves_score_leaster_and_call():
    for seed in range(HEAVY):
        pos, q = asked([d for d in drills_for('beggars-and-thieves', 'score') if d.ask.__qualname__ == '_bt_score'][0], seed)
        r = pos.result
        side = [r['picker']] + ([r['partner']] if r['partner'] is not None else [])
        taken = sum(BT_TABLE.get(c.code, 0) for t in pos.tricks if t.winner in side for c in t.cards)
        taken += sum(BT_TABLE.get(c.code, 0) for c in pos.buried)
        won = taken > 60
        pts = taken if won else 120 - taken
        each = (6 if pts >= 120 else 4 if pts >= 91 else 2) + (2 if pos.n >= 4 and len(side) == 1 else 0)
        who = ('The picker' if len(side) == 1 else "The picker's side") if won else 'The opponents'
        assert right(q) == f"{who}: {each} each", q.prompt
    for seed in range(HEAVY // 2):
        pos, q = asked(drills_for('beggars-and-thieves', 'leaster')[0], seed)
        points = [sum(BT_TABLE.get(c.code, 0) for t in pos.tricks if t.winner == s for c in t.cards) for s in range(pos.n)]
        won = [s for s in range(pos.n) if any(t.winner == s for t in pos.tricks)]
        fewest = min(points[s] for s in won)
        assert [q.choices[i] for i in q.answers] == [f"Seat {s}" for s in won if points[s] == fewest], q.prompt
    for seed in range(SEEDS // 4):
        pos, q = asked([d for d in drills_for('beggars-and-thieves', 'partner') if d.level == 'hard'][0], seed)
        holds = {c.code for c in pos.hands[pos.picker] + pos.buried}
        assert str(right(q)) == f"T{next(k for k in range(7, 15) if f'T{k}' not in holds)}", q.prompt  # the Thief to call, a card

@pytest.mark.parametrize('name', ('kocka', 'maghe-satra', 'beggars-and-thieves'))
def test_next_dealer(name):
    for seed in range(HEAVY // 2):
        d = [d for d in DRILLS[name] if d.ask.__qualname__.startswith('next_dealer_drill')][0]
        pos, q = asked(d, seed)
        if name == 'kocka': nxt = pos.result['loser'] if pos.result['loser'] is not None else pos.dealer
        else: nxt = (pos.dealer + 1) % pos.n
        assert right(q) == f"Seat {nxt}", q.prompt

def test_verdicts_agree_with_the_legal_actions():
    "A 'may this be done?' answer agrees with the game's list of legal actions (a separate code path from its verdicts)."
    def same(a, b):
        if isinstance(a, Move) and isinstance(b, Move): return (a.verb, set(a.cards), a.arg) == (b.verb, set(b.cards), b.arg)
        return a is b
    n = 0
    for name in GAME_NAMES:
        for d in DRILLS[name]:
            if d.level != 'easy' or not d.ask.__qualname__.startswith('verdict_drill'): continue
            for seed in range(40):
                pos, q = asked(d, seed)
                if not q.facts or 'action' not in q.facts: continue
                seat, action = q.facts['seat'], q.facts['action']
                legal = seat == pos.to_act and any(same(action, a) for a in pos.legal_actions())
                assert (right(q) == 'Yes') == legal, q.prompt
                n += 1
    assert n > 1500

def test_beggars_and_thieves_tie_and_snear():
    for seed in range(HEAVY // 2):
        pos, q = asked(drills_for('beggars-and-thieves', 'tie')[0], seed)
        totals = [t + s for t, s in zip(q.facts['standing']['totals'], pos.result['scores'])]
        top = max(totals)
        leaders = [s for s, t in enumerate(totals) if t == top]
        assert len(leaders) > 1 and top >= 20 and right(q).startswith('No'), q.prompt
        pos, q = asked(drills_for('beggars-and-thieves', 'snear')[0], seed)
        seat = int(re.search(r"does Seat (\d) score", q.prompt).group(1))
        taken = sum(BT_TABLE.get(c.code, 0) for t in pos.tricks if t.winner == seat for c in t.cards)
        assert right(q) == str(taken), q.prompt

def test_registering_drills_again_adds_none():
    "A drills module run again (a notebook re-run, a reload) replaces its drills in place: drill sets stay the same."
    import importlib, sys
    from cardgames_tutor.practice.drills import drills_for, drill_set
    before = {g: (len(drills_for(g)), [q.prompt for q in drill_set(g, count=3, seed=5)]) for g in games()}
    modules = [m for name, m in sys.modules.items() if name.startswith('cardgames_tutor.practice.game_drills.')]
    assert len(modules) == len(games())  # one module of drills a game, every one found
    for m in modules: importlib.reload(m)
    assert {g: (len(drills_for(g)), [q.prompt for q in drill_set(g, count=3, seed=5)]) for g in games()} == before


# ---------------------------------------------------------------- the tests' data stays out of the user's folder

def test_the_tests_keep_their_data_out_of_the_users_data_folder():
    """A drill's progress and a class's results go to the tests' own temporary folder (tests/conftest.py), in this
    process and in a command or server started the way the tests start them (this process's environment): before,
    `make test` left its students ("Asha", "Bo", ...) in the user's own `~/.local/share/cardgames_tutor/classroom.sqlite`."""
    import os, pwd, subprocess, sys
    from pathlib import Path
    from cardgames_tutor.practice.progress import data_dir
    home = Path(pwd.getpwuid(os.getuid()).pw_dir).resolve()
    users = (Path(os.environ.get('XDG_DATA_HOME') or home/'.local'/'share')/'cardgames_tutor').resolve()
    ours = Path(os.environ.get('CARDGAMES_TUTOR_DATA') or data_dir()).resolve()
    assert ours.is_dir() and ours != users and home not in ours.parents, f"the tests' data folder is {ours}"
    assert data_dir().resolve() == ours
    before = {p: p.stat().st_mtime_ns for p in users.glob('*')} if users.is_dir() else {}
    drill = subprocess.run([sys.executable, '-m', 'cardgames_tutor.term.cli', 'drill', 'kocka', '--seed', '3'], input='q\n',
                           capture_output=True, text=True, timeout=120, env={**os.environ})
    assert drill.returncode == 0, drill.stderr[-400:]
    script = "from cardgames_tutor.practice.results import Results; r = Results(); r.answered('s-asha', 'kocka', 'kocka/follow', False); print(r.path)"
    results = subprocess.run([sys.executable, '-c', script], capture_output=True, text=True, timeout=120, env={**os.environ})
    assert results.returncode == 0, results.stderr[-400:]
    assert Path(results.stdout.strip()).resolve() == ours/'classroom.sqlite' and (ours/'progress.sqlite').is_file()
    after = {p: p.stat().st_mtime_ns for p in users.glob('*')} if users.is_dir() else {}
    assert after == before, "the user's own data folder changed"

def test_make_tests_docs_build_keeps_its_data_out_of_the_users_folder(tmp_path):
    "`make test`'s docs build (`tests/shards.py --site`) and shares run with a data folder in the run's temporary folder."
    import os
    import shards
    env = shards.environment(str(tmp_path))
    assert env['CARDGAMES_TUTOR_DATA'] == str(tmp_path/'data') and (tmp_path/'data').is_dir()
    assert {k: v for k, v in env.items() if k != 'CARDGAMES_TUTOR_DATA'} == {k: v for k, v in os.environ.items() if k != 'CARDGAMES_TUTOR_DATA'}


# ---------------------------------------------------------------- questions about typing: answerable from what they show

@pytest.mark.parametrize('name', GAME_NAMES)
def test_a_question_asks_only_what_a_learner_can_do_and_shows_how_it_is_typed(name):
    """No question asks about a program's value ("May Seat 3 say '7'?", read as a seven and answered No for a reason
    never given); a question about what is typed shows how cards (or words) are typed, and its answer says why."""
    for d in DRILLS[name]:
        for seed in range(3):
            q = question(d, seed)
            action = q.facts.get('action') if isinstance(q.facts, dict) else None
            assert action is None or isinstance(action, (Card, Move, str)), (d.rule, q.prompt)
            assert "say '" not in q.prompt and '`' not in q.prompt + q.explanation, (d.rule, q.prompt, q.explanation)
            if isinstance(action, str):
                assert 'In the terminal, ' in q.prompt and q.prompt.endswith(f"type '{action}'?"), q.prompt
                key = q.prompt.split('In the terminal, ', 1)[1].split(' May Seat ')[0]
                shown = set(re.findall(r'\b[A-Za-z0-9]+\b', key))  # the ranks, suits or words the key gives
                assert not q.grade(q.answers[0]).right or q.answers == (1,) or action in shown, q.prompt
                assert q.explanation.startswith(('No:', 'Unknown card', f"'{action}'")), q.explanation

def test_kocka_play_is_asked_in_the_learners_words():
    d = next(d for d in DRILLS['kocka'] if d.rule == 'kocka/play')
    for seed in range(3):
        q = question(d, seed)
        assert q.choices[q.answers[0]] == 'Play one card to the trick' and 'What does Seat' in q.prompt, q.prompt


# ---------------------------------------------------------------- a card asked about is one the seat holds, or the question says it is not

MAY = re.compile(r"May Seat (\d+) (?:play|lead|pass|bury) (.+)\?$")
NOT_HELD = re.compile(r", (?:a card it does not hold|a card it has neither in hand nor face up|though it does not hold [^?]+)$")

def shown_as_the_seats(q, seat, pack) -> set:
    "The cards the question shows as `seat`'s: those shown with it, and those its prompt says the seat holds (in hand, face up, face down)."
    from helpers import cards_in
    said = re.findall(rf"Seat {seat} holds[^.]*\.|Seat {seat}'s face-up cards:[^.]*\.|Seat {seat}(?: \(dealer\))?: face down[^;.]*", q.prompt)
    return set(q.cards) | cards_in(said, pack)

@pytest.mark.parametrize('name', GAME_NAMES)
def test_a_may_question_names_a_card_the_seat_holds_or_says_it_does_not(name):
    """A learner was asked "May Seat 2 lead 2♥?" of a seat without 2♥, and the answer gave only the trump rule: they thought
    they had misread the hand. Every 'may Seat s play/lead/pass/bury ...' question names only cards the question shows as
    the seat's, or it says the seat does not hold the card, and its answer says that first."""
    from helpers import cards_in
    asked_n = unheld_n = 0
    for d in DRILLS[name]:
        for seed in range(40 if d.ask.__qualname__.startswith(('verdict_drill', 'match_over_drill')) else 4):
            pos, q = asked(d, seed)
            m = MAY.search(q.prompt)
            if not m: continue
            seat, pack = int(m[1]), pos.game.pack
            named = cards_in(m[2], pack)
            if not named: continue
            asked_n += 1
            missing = named - shown_as_the_seats(q, seat, pack)
            if not missing: continue
            unheld_n += 1
            first = q.explanation.split(':')[0]
            assert NOT_HELD.search(m[2]), f"{d.rule}: {q.prompt}"
            assert first.startswith((f"Seat {seat} does not hold", f"Seat {seat} cannot play")), f"{d.rule}: {q.prompt} -> {q.explanation}"
            assert missing <= cards_in(first, pack), f"{d.rule}: {q.prompt} -> {q.explanation}"
    assert asked_n >= 30 and (unheld_n > 10 or name == 'maghe-satra'), (asked_n, unheld_n)


# ---------------------------------------------------------------- how many play

SIZES = {2: 'Two', 3: 'Three', 4: 'Four', 5: 'Five', 6: 'Six', 7: 'Seven'}

@pytest.mark.parametrize('name', GAME_NAMES)
def test_every_question_says_how_many_play_where_that_may_vary(name):
    """Begga Kaat (three or four), Maghe Satra (three to seven), Beggars and Thieves (two to five): a question from a
    table of three did not say how many play, and a learner counted as if four did (who plays last, who deals next).
    Every question of such a game, at every size each drill deals (each of its variants), says first how many play and
    their seats; a question of a game always played by four says nothing of it."""
    several = len(games()[name].players) > 1
    sizes = set()
    for d in drills_for(name):
        for options in d.options:
            one = d._replace(options=(options,))  # this variant only
            for seed in range(3):
                pos, q = asked(one, seed)
                n = pos.n
                said = [w for k, w in SIZES.items() if re.search(rf"\b{w} play\b", q.prompt, re.I)]
                if not several:
                    assert not said and ' play, Seats 0 ' not in q.prompt, q.prompt
                    continue
                sizes.add(n)
                assert said == [SIZES[n]], f"{d.rule} ({options}): {q.prompt}"
                assert q.prompt.startswith(f"{SIZES[n]} play, Seats 0 {'and' if n == 2 else 'to'} {n - 1}. ") or 'Cutthroat: three play' in q.prompt, q.prompt
                assert question(d, seed).prompt == asked(d, seed)[1].prompt  # the question a drill set asks says it too
    assert sizes == set(games()[name].players) or not several, sizes


# ---------------------------------------------------------------- the dots say what their note says

def _dots(html, rule_words):
    "The dots of the row whose rule reads `rule_words`, from the progress table."
    return re.search(rf"<td>{re.escape(rule_words)}</td><td[^>]*>([●○]+)</td>", html).group(1)

def test_the_dots_do_what_their_note_says(tmp_path):
    """A learner read 'a right answer fills one more dot... a wrong answer sends the rule back to one dot', yet one right
    answer and one wrong answer looked the same (●○○○○ each). Over random answers, each answer does to a rule's dots what
    the note under them says: right, one more dot (five at most); wrong, none; and one right and one wrong differ."""
    from cardgames_tutor.practice.progress import Progress, rule_title
    from cardgames_tutor.ui.practice_view import progress_html, DOTS
    assert 'a right answer fills one more dot (5 at most)' in DOTS and 'a wrong answer empties its dots' in DOTS
    p, rng = Progress(tmp_path/'p.sqlite'), random.Random(5)
    rules = ['kocka/follow', 'kocka/void']
    p.record('kocka', rules[0], True); p.record('kocka', rules[1], False)
    shown = progress_html(p, 'kocka', rules)
    assert _dots(shown, rule_title('kocka', rules[0])) == '●○○○○' and _dots(shown, rule_title('kocka', rules[1])) == '○○○○○'
    for _ in range(200):
        rule = rng.choice(rules)
        before = _dots(progress_html(p, 'kocka', rules), rule_title('kocka', rule)).count('●')
        right = rng.random() < 0.7
        p.record('kocka', rule, right)
        after = _dots(progress_html(p, 'kocka', rules), rule_title('kocka', rule)).count('●')
        assert after == (min(before + 1, 5) if right else 0), (before, right, after)
    assert 'No dot filled: not asked yet, or answered wrongly last.' in DOTS


# ---------------------------------------------------------------- rule titles, moves in words, headings that fit

@pytest.mark.parametrize('name', GAME_NAMES)
def test_every_drill_rule_has_a_title_in_words(name):
    """'Maghe Satra: odds (easy)', 'Right. odds: Beg: ...' and 'next dealer': a rule without a title showed its key, in
    lower case, unlike every other rule. Every rule a game's drills ask about has a title of its own, capitalised, in
    the practice view's words (progress) and the terminal's (the engine's), the same in both, in a fresh process too."""
    import subprocess, sys
    from cardgames_tutor.core import engine
    from cardgames_tutor.practice.progress import rule_title
    for rule in drill_rules(name):
        title = rule_title(name, rule)
        assert title[:1].isupper() and title != rule.split('/')[-1].replace('-', ' '), (rule, title)
        assert engine.rule_title(rule, game_class(name)) == title, rule
    code = ("from cardgames_tutor.practice.progress import rule_title; "  # the results' titles, with no drill asked yet
            f"print('|'.join(rule_title({name!r}, r) for r in {drill_rules(name)!r}))")
    got = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True).stdout.strip()
    assert got.split('|') == [rule_title(name, r) for r in drill_rules(name)], got

@pytest.mark.parametrize('name', GAME_NAMES)
def test_no_feedback_quotes_a_move_as_typed(name):
    """"Now Seat 1 plays a card to the trick (e.g. 7 green), not 'bury 4 Thief'." quoted the move as it is typed. Over the
    drills, no sentence of a question quotes a move it tries: the move is said in words ('not to bury 4 Thief'); only
    what a learner types is quoted as typed."""
    said = 0
    for d in drills_for(name):
        for seed in range(40 if d.ask.__qualname__.startswith('verdict_drill') else 2):
            q = question(d, seed)
            action = (q.facts or {}).get('action')
            for text in (q.explanation, *q.feedback):
                quoted = re.findall(r"\bnot '([^']*)'", text)
                assert not quoted or isinstance(action, str), (d.rule, q.prompt, text)
                said += isinstance(action, Move) and ' not to ' in text
    assert said or name in ('maghe-satra', 'kocka')  # (their moves' refusals quote none)

def test_beggars_and_thieves_trick_points_are_headed_as_trick_points():
    """'Scoring by card points: winners score 2, 4 or 6' headed 'How many card points does Seat 1 take with it?' (one
    trick's points). A question about one trick's card points is headed by a rule about a trick's card points; the
    hand's score keeps its own heading."""
    from cardgames_tutor.practice.progress import rule_title
    name, seen = 'beggars-and-thieves', set()
    for d in drills_for(name):
        for seed in range(3):
            q = question(d, seed)
            title = rule_title(name, q.rule)
            if re.search(r"How many card points does Seat \d take with it\?|Who takes this trick, and how many card points\?", q.prompt):
                titles = [rule_title(name, r) for r in (q.rules if d.level == 'hard' else (q.rule,))]  # hard: several rules
                assert any("card points" in t and 'trick' in t and 'score' not in t for t in titles), (titles, q.prompt)
                seen.add(d.level)
            if title.startswith('Scoring by card points'): assert 'trick' not in q.prompt.split('.')[-1], q.prompt
    assert seen == {'easy', 'hard'}

def test_maghe_satra_odds_speak_of_the_seat_asked_about():
    """'Should Seat 1 beg or pass?' was answered '28 of the 46 cards you cannot see': one person throughout. The odds'
    answer speaks of the seat the question asks about, never of 'you'."""
    for d in drills_for('maghe-satra', 'odds'):
        for seed in range(60):
            pos, q = asked(d, seed)
            s = pos.to_act
            assert f"Should Seat {s} beg or pass?" in q.prompt and not re.search(r"\byou", q.explanation, re.I), q.explanation
            assert f"Seat {s}" in q.explanation, q.explanation

def test_snear_pictures_only_the_cards_the_text_says_are_in_hand():
    """Snear: the picture showed all of a seat's cards in one row (its face-up cards among them), while the text told
    the cards in hand apart from the face-up rows. The picture shows what the text says the seat holds in hand."""
    seen = 0
    for d in drills_for('beggars-and-thieves'):
        for options in d.options:
            if options.get('players') != 2: continue
            for seed in range(12):
                pos, q = asked(d._replace(options=(options,)), seed)
                seat = (q.facts or {}).get('seat')
                if not q.cards or seat is None: continue
                in_hand = pos.hands[seat]
                face_up = set(pos.drill_cards(seat)) - set(in_hand)
                assert set(q.cards) == set(in_hand) and not face_up & set(q.cards), (q.prompt, q.cards)
                said = re.search(rf"Seat {seat} holds in hand (.+?)\.", q.prompt)
                assert said and [c.symbol for c in q.cards] == [c.symbol for c in in_order(in_hand)], q.prompt
                seen += bool(face_up)
    assert seen > 10
