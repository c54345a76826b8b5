"""Drills that tell the truth (issue 38): every question comes from a position the rules can produce, its prompt shows
only what the asking seat may see, and its answer is the same on every deal consistent with what the prompt shows.

The harness (the first part of this file) is general, for every game: `asked_at` makes a question as `drill_set` does
and keeps the position and the random state it was asked with; `viewer` is the seat a question is asked of;
`leaked_in_question` scans the prompt, the cards shown and the choices against `helpers.may_see` (what the seat may
know from the deal and the public record, not the game's own word); `answer_elsewhere` re-deals the hidden cards
consistently with the seat's view (the game's own `resample`), asks again with the same random state, and gives the
right answers there when the same question is asked. The rest checks Begga Kaat and Kočka with it, and the standings of
their questions against independent predicates written from the rulebooks (`bk_reachable`, `kk_reachable`)."""
import itertools, random, re
import pytest
from cardgames_tutor.core.cards import Card, in_order
from cardgames_tutor.core.registry import game_class
from cardgames_tutor.core.actions import Move
from cardgames_tutor.practice.drills import DRILLS, MAX_HANDS, Question, asked, positions, drills_for, drill_set
from helpers import may_see, cards_in

for _game in ('begga-kaat', 'kocka'): drills_for(_game)  # the drills modules loaded: DRILLS holds every game's drills

# ---------------------------------------------------------------- the harness (every game)

def asked_at(d, seed):
    "What `question(d, seed)` does: (the position, the random state `d.ask` was called with, the question)."
    pos, state, fields = asked(d, seed)
    return pos, state, Question(d.game, d.rule, d.level, seed=seed, **fields)

def viewer(q):
    "The seat a question is asked of (its facts say), or None: a question about what the whole table sees."
    return (q.facts or {}).get('seat')

def right_answers(q) -> list: return [str(q.choices[i]) for i in q.answers]

def asked_about(q, pack) -> set:
    "The cards a question may name without placing them: the card or move asked about ('May Seat 1 play K♥?')."
    return cards_in((q.facts or {}).get('action'), pack)

def public_cards(pos) -> set:
    "What every seat may see at `pos` (a question asked of nobody in particular may show only these)."
    return set.intersection(*(may_see(pos, s) for s in range(pos.n)))

def leaked_in_question(pos, q) -> set:
    """The cards the question shows (prompt, the cards shown with it, the choices) that its seat may not see at `pos`:
    always empty in a true drill. A finished trick a question shows is public (its cards in `facts['cards']`)."""
    pack, seat = pos.game.pack, viewer(q)
    shown = cards_in([q.prompt, list(q.cards), [c for c in q.choices if isinstance(c, (Card, str))]], pack)
    allowed = (may_see(pos, seat) if seat is not None else public_cards(pos)) | asked_about(q, pack)
    allowed |= set((q.facts or {}).get('cards', ()))
    return shown - allowed

def answer_elsewhere(d, pos, state, q, rng):
    """At a deal consistent with what the question's seat sees (the others' hidden cards re-dealt by the game's own
    `resample`), the right answers if the same question is asked there, else None (another question came up)."""
    seat = viewer(q) if viewer(q) is not None else pos.to_act
    if seat is None or pos.is_over: return None  # a finished hand: nothing the answer turns on is hidden
    other = pos.game.resample(pos.view(seat), rng)
    again = random.Random(); again.setstate(state)
    fields = d.ask(other, again)
    if not fields or fields['prompt'] != q.prompt or tuple(map(str, fields['choices'])) != tuple(map(str, q.choices)): return None
    return [str(fields['choices'][i]) for i in fields['answers']]

def check_drills(game, seeds, draws=2, each=None):
    """Every drill of `game` over `seeds`: no leak, and the same answers at every consistent deal tried; the counts.
    `each(drill, position, question)`, if given, checks every question further (another test's check, on the same questions)."""
    asked = compared = 0
    for d in DRILLS[game]:
        for seed in range(seeds):
            pos, state, q = asked_at(d, seed)
            if each is not None: each(d, pos, q)
            leaked = leaked_in_question(pos, q)
            assert not leaked, f"{d.rule}: the prompt shows {sorted(map(str, leaked))} to Seat {viewer(q)}: {q.prompt}"
            rng = random.Random(seed)
            for _ in range(draws):
                there = answer_elsewhere(d, pos, state, q, rng)
                if there is None: continue
                assert there == right_answers(q), f"{d.rule}: {q.prompt} is {right_answers(q)} here, {there} at another deal"
                compared += 1
            asked += 1
    return asked, compared

# ---------------------------------------------------------------- the harness catches what it should

def test_the_leak_scan_catches_another_seats_card():
    d = drills_for('begga-kaat', 'follow')[0]
    pos, state, q = next(x for x in (asked_at(d, s) for s in range(50)) if viewer(x[2]) is not None and x[0].phase == 'play')
    other = next(c for s, h in enumerate(pos.hands) if s != viewer(q) for c in h)
    assert leaked_in_question(pos, q) == set()
    assert leaked_in_question(pos, q._replace(prompt=q.prompt + f" Seat 9 holds {other.symbol}.")) == {other}

def test_a_prompt_that_hides_what_the_answer_needs_is_caught():
    "A question whose answer turns on cards the seat cannot see ('does the next seat hold more spades than you?') differs at some deal."
    from cardgames_tutor.practice.drills import Drill, situation, YES_NO
    def ask(hand, rng):
        if hand.phase != 'play': return None
        seat, nxt = hand.to_act, (hand.to_act + 1) % hand.n
        spades = lambda s: sum(c.suit == 'S' for c in hand.hands[s])
        return dict(prompt=f"{situation(hand, seat)} Does Seat {nxt} hold more spades than you?", choices=YES_NO,
                    answers=(0 if spades(nxt) > spades(seat) else 1,), explanation='.', facts={'seat': seat})
    d = Drill('begga-kaat', 'begga-kaat/follow', 'easy', ask)
    differ = 0
    for seed in range(60):
        pos, state, q = asked_at(d, seed)
        assert not leaked_in_question(pos, q)  # it shows nothing hidden: it only needs what is hidden
        there = [answer_elsewhere(d, pos, state, q, random.Random(k)) for k in range(4)]
        differ += any(t is not None and t != right_answers(q) for t in there)
    assert differ >= 20, differ  # the other seats' spades are dealt again: the answer changes at many positions


# ---------------------------------------------------------------- no leak, the same answer everywhere

SWEEPS = {}  # game -> what its 2000 questions were found to say: each asked once, read by the two tests that check them

def sweep(game):
    """The 2000 questions of `game` (every drill, the same seeds), each asked once and checked as `check_drills` does and by
    `false_sentences`: (asked, compared, the check that failed first or None, the false sentences, the kinds said)."""
    if game not in SWEEPS:
        false, kinds = [], set()
        def each(d, pos, q):
            wrong, said = false_sentences(pos, q)
            if wrong: false.append(f"{d.rule}: {wrong} in {q.prompt} / {q.explanation}")
            kinds.update(said)
        try: asked, compared, failed = *check_drills(game, 2000 // len(DRILLS[game]) + 1, each=each), None
        except AssertionError as e: asked, compared, failed = 0, 0, str(e)
        SWEEPS[game] = asked, compared, failed, false, kinds
    return SWEEPS[game]

@pytest.mark.parametrize('game', ['begga-kaat', 'kocka'])
def test_2000_prompts_show_only_what_the_seat_sees_and_answers_hold_at_every_consistent_deal(game):
    asked, compared, failed, _, _ = sweep(game)
    assert failed is None, failed
    assert asked >= 2000 and compared >= asked // 3, (asked, compared)

def test_drill_sets_of_every_rule_and_level_leak_nothing():
    n = 0
    for game in ('begga-kaat', 'kocka'):
        for rule in {d.rule for d in DRILLS[game]}:
            for level in ('easy', 'hard'):
                for q in drill_set(game, rule, count=5, seed=11, level=level):
                    # the drill that asks it, asked again here (once: its position is kept for the leak scan)
                    pos, state, again = next(x for d in drills_for(game, rule, level) if (x := asked_at(d, q.seed))[2].prompt == q.prompt)
                    assert again == q and not leaked_in_question(pos, q), q.prompt
                    n += 1
    assert n >= 150


# ---------------------------------------------------------------- reachable standings (independent predicates)

BK_HAND = (53, 1, 3, 12)  # points in a hand; the queen of hearts (11) once, three other queens (10), twelve other hearts (1)

def bk_reachable(totals:list, target:int=100) -> bool:
    """Can Begga Kaat totals be reached by whole hands before the match ends? Each hand gives every penalty card to some
    seat: so after k hands a seat's total is 11a + 10b + c, the a's summing to k, the b's to 3k, the c's to 12k."""
    if any(t < 0 for t in totals) or max(totals) >= target or sum(totals) % 53: return False
    k, n = sum(totals) // 53, len(totals)
    def split(seat, a_left, b_left):
        if seat == n - 1:
            c = totals[seat] - 11 * a_left - 10 * b_left
            return c >= 0
        for a in range(min(a_left, totals[seat] // 11) + 1):
            for b in range(min(b_left, (totals[seat] - 11 * a) // 10) + 1):
                if split(seat + 1, a_left - a, b_left - b): return True
        return False
    return split(0, k, 3 * k)

def bk_dealer_ok(totals:list, hands:list, dealer:int) -> bool:
    """The seat that deals after `hands` (summing to `totals`) is `dealer`, by the rules: the highest total deals; a tie
    for the highest, by the table rule, goes to the first tied seat after the last dealer. Some first dealer must fit."""
    n = len(totals)
    if [sum(h[s] for h in hands) for s in range(n)] != list(totals): return False
    if not all(sum(h) == 53 and bk_reachable(h, 54) for h in hands): return False  # each hand one that can be played
    for first in range(n):
        d, run = first, [0] * n
        for h in hands:
            run = [r + p for r, p in zip(run, h)]
            d = next(s for s in ((d + k) % n for k in range(1, n + 1)) if run[s] == max(run))
        if d == dealer: return True
    return False

def test_the_begga_kaat_predicates():
    assert bk_reachable([53, 0, 0, 0]) and bk_reachable([11, 10, 10, 22]) and bk_reachable([1, 2, 50])
    assert not bk_reachable([95, 40, 20, 60])  # 215 is no number of whole hands (53 each): the old exercise
    assert not bk_reachable([5, 5, 5, 38])  # a queen's 10 cannot be split
    assert not bk_reachable([100, 6, 0, 0])  # the match was over
    assert bk_dealer_ok([30, 23, 0, 0], [[30, 23, 0, 0]], 0) and not bk_dealer_ok([30, 23, 0, 0], [[30, 23, 0, 0]], 1)
    assert bk_dealer_ok([20, 20, 13, 0], [[20, 20, 13, 0]], 1)  # tied: after a first dealer 0, Seat 1 is first of the tied
    assert not bk_dealer_ok([20, 20, 13, 0], [[20, 20, 13, 0]], 2)

def kk_reachable(letters:list, losers:list, dealer:int, word:str) -> bool:
    """Kočka letters, by the rules: one letter per hand lost (a replayed tie gives none), nobody has spelled the word
    yet, and the dealer is the last hand's loser (after a replay the same dealer; before any loss, anyone)."""
    if [sum(s == seat for s in losers) for seat in range(4)] != list(letters) or max(letters) >= len(word): return False
    lost = [s for s in losers if s is not None]
    return not lost or lost[-1] == dealer

STANDING_RULES = {'begga-kaat': ('next-dealer', 'target', 'match-over'), 'kocka': ('letter', 'word', 'match-over')}

@pytest.mark.parametrize('game', ['begga-kaat', 'kocka'])
def test_2000_standings_are_ones_the_rules_produce(game):
    n, seen = 0, set()
    for d in DRILLS[game]:
        if d.rule.removeprefix(f"{game}/") not in STANDING_RULES[game] or not (d.ask.__qualname__.startswith(
                ('next_dealer_drill', 'match_end_drill', 'match_over_drill'))): continue
        for seed in range(1000):
            pos, _, q = asked_at(d, seed)
            st = q.facts['standing']
            if game == 'begga-kaat':
                assert bk_reachable(st['totals'], pos.game.target), q.prompt
                assert bk_dealer_ok(st['totals'], st['hands'], pos.dealer), q.prompt
                assert f"Seat {pos.dealer} dealt it (the highest total)" in q.prompt or \
                       f"Seat {pos.dealer} dealt it (tied for the highest total)" in q.prompt, q.prompt
                after = [t + p for t, p in zip(st['totals'], pos.result['points'])]
                if after.count(max(after)) > 1 and max(after) < pos.game.target:  # the answer rests on the table rule
                    assert 'table rule' in q.prompt and 'tie' in q.prompt, q.prompt
            else:
                assert kk_reachable(st['letters'], st['losers'], pos.dealer, pos.game.letters), q.prompt
                if any(st['letters']): assert st['letters'][pos.dealer] >= 1, q.prompt  # the dealer lost a hand
            seen.add(d.rule); n += 1
    assert n >= 3000 and len(seen) == 3


# ---------------------------------------------------------------- true explanations

def legal_listed(text, pack):
    "The cards a 'You must follow ...: play X, Y, not Z' explanation lists as allowed, in its order."
    m = re.search(r": play (.+), not ", text)
    return [pack.parse(w) for w in m.group(1).split(', ')] if m else None

@pytest.mark.parametrize('game', ['begga-kaat', 'kocka'])
def test_follow_suit_explanations_list_the_legal_cards_in_pack_order(game):
    n = 0
    for d in drills_for(game, 'follow'):
        for seed in range(300):
            pos, _, q = asked_at(d, seed)
            for text in (q.explanation, *q.feedback):
                listed = legal_listed(text, pos.game.pack)
                if listed is None: continue
                assert listed == in_order(listed) == in_order(pos.legal_actions()), text
                n += 1
    assert n >= 100

def test_no_count_of_one_in_the_plural():
    for game in ('begga-kaat', 'kocka'):
        for q in drill_set(game, count=100, seed=3):
            for text in (q.prompt, q.explanation, *q.feedback):
                assert not re.search(r"\b1 (points|deals|letters|tricks|chaals|cards)\b|\blast 1 \w+ in a row", text), text


# ---------------------------------------------------------------- answerable from the prompt alone

KK_POINTS = lambda c: {'QL': 10, 'AH': 5, 'KH': 4, 'QH': 3, 'JH': 2}.get(c.code, 1 if c.suit == 'H' else 0)

def kk_decided_from_prompt(prompt, pack):
    "The answer to Kočka's 'is the hand decided?' worked out from the prompt's words alone (the rulebook's arithmetic)."
    points = [int(p) for p in re.search(r"Penalty points so far: (.+?)\. ", prompt).group(1).split(', ') for p in [p.split()[-1]]]
    took = re.search(r"Seat (\d) took the Hejma", prompt)
    hejma = int(took.group(1)) if took else None
    m = re.search(r"Trick \d: (.+)\. After this trick", prompt)
    plays = [(int(s), pack.parse(c)) for s, c in re.findall(r"Seat (\d) (?:led|played) ([^,\s]+)", m.group(1))]
    led = plays[0][1].suit
    w = max((p for p in plays if p[1].suit == led), key=lambda p: p[1].rank)[0]
    points[w] += sum(KK_POINTS(c) for _, c in plays)
    if any(c.code == 'QL' for _, c in plays): hejma = w
    left = 33 - sum(points)
    sure = [p for p in range(4) if all(points[o] + left < points[p] or (p == hejma and points[o] + left == points[p])
                                       for o in range(4) if o != p)]
    return f"Yes: Seat {sure[0]} is certain to lose" if sure else "No: nobody is certain to lose yet"

def test_2000_kocka_decided_questions_are_answerable_from_the_prompt_alone():
    "Whoever took the Hejma in an earlier trick can decide it (a tie at the top): the prompt must say, and it is enough."
    d, ties = drills_for('kocka', 'decided')[0], 0
    for seed in range(2000):
        pos, _, q = asked_at(d, seed)
        assert right_answers(q) == [kk_decided_from_prompt(q.prompt, pos.game.pack)], q.prompt
        ties += pos.hejma_taker is not None and 'took the Hejma' in q.prompt
    assert ties >= 70


# ---------------------------------------------------------------- every explanation sentence true in its position

BK_POINTS = lambda c: (11 if c.code == 'QH' else 10) if c.rank == 12 else (1 if c.suit == 'H' else 0)
TRICK_POINTS = {'begga-kaat': BK_POINTS, 'kocka': KK_POINTS}

def _suit(pack, suit): return pack.suits[suit][0]

def _cards(text, pack): return [pack.parse(w.split()[0]) for w in text.split(', ')]

def _seats(text): return [int(s) for s in re.findall(r"Seat (\d)", text)]

def _trick(ctx):
    "The trick a sentence is about: (cards, leader, winner, points, number), by the rulebook (no trump in these games)."
    t = ctx.get('trick')
    if not t: return None
    cards, leader, n = list(t['cards']), t['leader'], len(t['cards'])
    w = max((i for i in range(n) if cards[i].suit == cards[0].suit), key=lambda i: cards[i].rank)
    game = ctx['pos'].game.name
    points = sum(map(TRICK_POINTS[game], cards)) + (5 if game == 'kocka' and t['number'] == 8 else 0)
    return cards, leader, (leader + w) % n, points, t['number']

def _after_trick(ctx):
    "Each seat's points in the hand once the trick is taken."
    cards, leader, w, points, _ = _trick(ctx)
    after = list(ctx['pos'].points)
    after[w] += points
    return after

def _totals_after(ctx):
    st = ctx.get('standing')
    return None if st is None or 'totals' not in st else [t + p for t, p in zip(st['totals'], ctx['pos'].result['points'])]

def _led(ctx):
    pos = ctx['pos']
    return pos.trick[0].suit if pos.phase == 'play' and pos.trick else None

def _own(ctx): return [c for c in ctx['pos'].hands[ctx['seat']]]

SENTENCES = [  # (kind, pattern, is it true? (match, context) -> bool, or None where the context does not say)
    ('must follow', r"You must follow the led (?:colour|suit) \((\w+)\) while you hold any: play (.+), not (\S+)\.",
     lambda m, c: _led(c) is not None and m[1] == _suit(c['pos'].game.pack, _led(c)) and
                  set(_cards(m[2], c['pos'].game.pack)) == {x for x in _own(c) if x.suit == _led(c)} != set() and
                  c['pos'].game.pack.parse(m[3]).suit != _led(c)),
    ('follows', r"It follows the led (?:colour|suit) \((\w+)\)\.",
     lambda m, c: _led(c) is not None and m[1] == _suit(c['pos'].game.pack, _led(c)) and c['card'].suit == _led(c)),
    ('void', r"You hold no (\w+), so you may play any card",
     lambda m, c: _led(c) is not None and m[1] == _suit(c['pos'].game.pack, _led(c)) and
                  not any(x.suit == _led(c) for x in _own(c))),
    ('lead', r"The leader may lead any card\.", lambda m, c: not c['pos'].trick and c['seat'] == c['pos'].to_act),
    ('not held', r"Seat (\d) does not hold (\S+): ",
     lambda m, c: c['pos'].game.pack.parse(m[2]) not in c['pos'].hands[int(m[1])]),
    ('turn', r"It is Seat (\d)'s turn, not Seat (\d)'s\.",
     lambda m, c: int(m[1]) == c['pos'].to_act != int(m[2]) == c['seat']),
    ('hand over', r"The hand is over: no more actions\.", lambda m, c: c['pos'].is_over),
    ('wins', r"Seat (\d) wins (?:chaal|trick) (\d+): (\S+) is the highest card of the led (?:colour|suit) \((\w+)\)",
     lambda m, c: None if not _trick(c) else (int(m[1]), int(m[2])) == (_trick(c)[2], _trick(c)[4]) and
                  c['pos'].game.pack.parse(m[3]) == _trick(c)[0][(_trick(c)[2] - _trick(c)[1]) % c['pos'].n]),
    ('takes', r"Seat (\d) takes (\d+) penalty points? \(",
     lambda m, c: None if not _trick(c) else (int(m[1]), int(m[2])) == (_trick(c)[2], _trick(c)[3]) and _trick(c)[3] > 0),
    ('no points', r"No penalty points in it\.", lambda m, c: None if not _trick(c) else _trick(c)[3] == 0),
    ('still to take', r"Points still to be taken: (\d+)\.", lambda m, c: int(m[1]) == 33 - sum(_after_trick(c))),
    ('decided', r"The hand is decided: Seat (\d) has (\d+) penalty points; no other seat has more than (\d+), and only (\d+)",
     lambda m, c: (lambda a, s: a[s] == int(m[2]) and max(a[:s] + a[s + 1:]) == int(m[3]) and 33 - sum(a) == int(m[4])
                   and a[s] > max(a[:s] + a[s + 1:]) + 33 - sum(a) - 1)(_after_trick(c), int(m[1]))),
    ('running totals', r"Running totals: (.+?)\.(?: |$)",
     lambda m, c: None if _totals_after(c) is None else [int(x.split()[-1]) for x in m[1].split(', ')] == _totals_after(c)),
    ('deals next', r"Seat (\d) has the highest total( \(tied[^)]*\))? and deals the next hand\.",
     lambda m, c: None if _totals_after(c) is None else _totals_after(c)[int(m[1])] == max(_totals_after(c)) and
                  bool(m[2]) == (_totals_after(c).count(max(_totals_after(c))) > 1)),
    ('game over', r"Game over: (.+?) reached the target of (\d+) and (?:loses|lose together)\.",
     lambda m, c: None if _totals_after(c) is None else
                  sorted(_seats(m[1])) == [s for s, t in enumerate(_totals_after(c)) if t >= int(m[2])]),
    ('letter', r"Seat (\d) takes a letter: (\S+)\.",
     lambda m, c: int(m[1]) == c['pos'].result['loser'] and
                  m[2] == c['pos'].game.letters[:c['standing']['letters'][int(m[1])] + 1]),
    ('loser deals', r"Seat (\d) lost the hand and deals the next; Seat (\d) leads\.",
     lambda m, c: int(m[1]) == c['pos'].result['loser'] and int(m[2]) == (int(m[1]) + 1) % 4),
    ('most loses', r"Seat (\d) has the most and loses the hand\.",
     lambda m, c: (lambda p, s: p[s] == max(p) and p.count(max(p)) == 1)(c['pos'].result['points'], int(m[1]))),
    ('hejma tie', r"(Seat \d(?: and Seat \d)+) tie with (\d+); Seat (\d) took the Hejma and loses the hand\.",
     lambda m, c: (lambda p: sorted(_seats(m[1])) == [s for s in range(4) if p[s] == max(p)] == sorted(_seats(m[1]))
                   and int(m[2]) == max(p) and int(m[3]) == c['pos'].result['hejma'] in _seats(m[1]))(c['pos'].result['points'])),
]

def false_sentences(pos, q) -> tuple:
    "(the explanation sentences of `q` false at `pos`, the kinds checked): the sentence kinds above, each by its predicate."
    facts = q.facts or {}
    base = {'pos': pos, 'seat': facts.get('seat'), 'card': facts.get('action'), 'standing': facts.get('standing'),
            'trick': facts if 'cards' in facts else None}
    said = [(q.explanation, base)]
    if q.feedback:  # a card to click: each choice's sentence is about that card (the explanation is one of them)
        said = [(text, {**base, 'seat': pos.to_act, 'card': choice}) for text, choice in zip(q.feedback, q.choices)]
    wrong, kinds = [], set()
    for text, ctx in said:
        for kind, pattern, true in SENTENCES:
            for m in re.finditer(pattern, text):
                if ctx['seat'] is None and kind in ('must follow', 'follows', 'void', 'lead', 'turn'): continue
                verdict = true(m, ctx)
                if verdict is None: continue
                kinds.add(kind)
                if not verdict: wrong.append((kind, m[0]))
    return wrong, kinds

@pytest.mark.parametrize('game', ['begga-kaat', 'kocka'])
def test_2000_explanation_sentences_are_true_where_they_are_said(game):
    n, _, failed, false, kinds = sweep(game)  # the questions the 2000-prompts test asked, checked there once
    assert failed is None, f"the questions could not all be asked and checked: {failed}"
    assert not false, false[:3]
    assert n >= 2000
    expected = {k for k, _, _ in SENTENCES} - ({'still to take', 'decided', 'letter', 'loser deals', 'most loses', 'hejma tie'}
                                               if game == 'begga-kaat' else {'running totals', 'deals next', 'game over'})
    assert kinds == expected, sorted(expected - kinds)

def test_the_sentence_check_catches_a_false_sentence():
    "Each kind is checked for real: a sentence changed to say another seat, or the wrong case, is found false."
    def first(rule, keep):
        for d in drills_for('begga-kaat', rule):
            for seed in range(200):
                pos, _, q = asked_at(d, seed)
                if keep(q): return pos, q
        raise AssertionError(rule)
    pos, q = first('next-dealer', lambda q: 'has the highest total and' in q.explanation)
    seat = int(re.search(r"Seat (\d) has the highest total", q.explanation)[1])
    assert not false_sentences(pos, q)[0]
    wrong = q.explanation.replace(f"Seat {seat} has the highest", f"Seat {(seat + 1) % pos.n} has the highest")
    assert [k for k, _ in false_sentences(pos, q._replace(explanation=wrong))[0]] == ['deals next']
    pos, q = first('trick', lambda q: True)
    w = int(re.search(r"Seat (\d) wins chaal", q.explanation)[1])
    wrong = q.explanation.replace(f"Seat {w} wins", f"Seat {(w + 1) % pos.n} wins")
    assert 'wins' in [k for k, _ in false_sentences(pos, q._replace(explanation=wrong))[0]]
    pos, q = first('follow', lambda q: 'It follows the led' in q.explanation and 'action' in q.facts)
    led = re.search(r"It follows the led colour \((\w+)\)", q.explanation)[1]
    wrong = f"You hold no {led}, so you may play any card."
    assert [k for k, _ in false_sentences(pos, q._replace(explanation=wrong))[0]] == ['void']


def test_cards_in_finds_only_cards_written_as_cards():
    "The pack reads any case (a learner may type `as`), so the scan once found A♠ in 'as good as': only cards written as cards count."
    from cardgames_tutor.core.cards import FRENCH, MARIAS
    P = FRENCH.parse
    assert cards_in("It is as good as any: Ah, so kd and 10h are words here.", FRENCH) == set()
    assert cards_in(["Seat 1 led A♠ (10♥ next); type AS or TH", P('KD')], FRENCH) == {P('AS'), P('10H'), P('KD')}
    assert cards_in("Q🍃, the Hejma; type QL", MARIAS) == {MARIAS.parse('QL')}
