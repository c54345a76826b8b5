"""No code on any screen (issue 56 item 3, issue 50 item 5): every text a learner reads names cards and actions in the
learner's notation, with the codes kept in records and `--json` outputs.

For every game and every number of players, seeded hands are played to their end, once through the terminal's own
loop (`cardgames-tutor play`, a scripted learner typing codes as a learner may) and once through the panel's session
(bots at the other seats): every event every seat sees, every legal action as the panel's buttons and the terminal
write it, a refusal in each phase, the coach's hint and its reasons (text and panel), the review of a hand, the
terminal's first line, `help`, its answers between hands. Each is searched for code: a card written as typed (`QS`,
`10H`, `T6`, `G7`, `QL`), a verb with a code (`trump C`, `call 7`), a move written as typed (`pass 9♥ A♥ 9🍃`), a tag
(`[duck]`), a rule id (`begga-kaat/follow`, `(rule notation)`), `Move(`, a dict, `None`, `True`, `False`, and the
known slips ("sampled deals", "Player A", "discards", "action 12", "stand on your total").

What a learner types is still shown where the terminal teaches typing: in double quotes ("trump S"; backquotes in a
text before the terminal prints it) and in the `help` table of every card (first column). Those are left out of the
search. The terminal itself prints no backquote, and names the learner's seat only in its first line ("You are
Seat 0"): everywhere else it says "you".
"""
import functools, random, re
import pytest
from cardgames_tutor.core.cards import Card
from cardgames_tutor.core.registry import games, get_game, game_class
from cardgames_tutor.core.actions import Move, action_text
from cardgames_tutor.core.match import Match
from cardgames_tutor.term import cli
from cardgames_tutor.term.terminal import you_may
from cardgames_tutor.ui.session import Session
from cardgames_tutor.ui.table import move_label, cards_text_words, table_html, direction_of
from cardgames_tutor.ui.access import heard
from cardgames_tutor.ui.coach_view import HintBox, ReviewList, hint_words
from cardgames_tutor.coach.search import hint, hint_text, review, review_text
from cardgames_tutor.practice.drills import drill_set
from cardgames_tutor.practice.exercises import EXERCISES, exercise
from cardgames_tutor.ui.practice_view import _feedback_html

BUDGET = 0.03  # seconds of the coach's search: its words, not its strength, are checked here

VARIANTS = [(name, {'players': p} if any(o.name == 'players' for o in info.cls.OPTIONS) else {})
            for name, info in games().items() for p in info.players]
IDS = [f"{n}-{o.get('players', 4)}" for n, o in VARIANTS]

GENERIC = [
    ('a verb with a code', re.compile(r"\btrump [SHDC]\b|\btrump [♠♥♦♣]|\bcall T?\d+\b(?! Thief)")),
    ('a tag', re.compile(r"\[[a-z][a-z0-9-]*(?:/[a-z0-9-]+)?(?:, [a-z]+)?\]")),
    ('a rule id', re.compile(r"\b(?:begga-kaat|kocka|dehla-pakad|maghe-satra|beggars-and-thieves|tricks|table)/[a-z]|\(rule [^)]*\)")),
    ('Python', re.compile(r"\bMove\(|\{'|\bNone\b|\bTrue\b|\bFalse\b")),
    ('a known slip', re.compile(r"\bsampled deals?\b|\bPlayer [A-G]\b|\bdiscards?\b|\baction \d+\b|\bstand on\b", re.I)),
]

def _alternatives(words) -> str: return '|'.join(map(re.escape, sorted(set(words), key=len, reverse=True)))

@functools.lru_cache(maxsize=None)  # by pack (one object per pack): made once, not again for every line searched
def patterns(pack) -> list:
    "The code patterns for a game's pack: its card codes as whole tokens, a move's cards written as typed, then the generic ones."
    codes = _alternatives(c.code for c in pack)
    shown = _alternatives(w for c in pack for w in (c.code, c.symbol, c.words))
    return [('a card code', re.compile(rf"(?<![\w♠♥♦♣🍃🌰🔔'-])(?:{codes})(?![\w'-])")),
            ('a move written as typed', re.compile(rf"(?<![Yy]ou )\b(?:pass|bury) (?:{shown})(?: (?:{shown}))+(?![\w])"))] + GENERIC

TYPED = re.compile(r'`[^`\n]*`|"[^"\n]*"')  # what a learner types, where the terminal teaches it (printed in double quotes)
TABLE_ROW = re.compile(r"^\S+ {2,}\S")  # a row of `help`'s table of every card: the code to type, then the card

def problems(where:str, text:str, pack, typed:bool=False) -> list:
    "Each code in `text` (`typed`: a terminal text, where backquoted typing and the card table are allowed) as 'where: what: match in line'."
    out = []
    for line in str(text).splitlines():
        if typed:
            if TABLE_ROW.match(line): continue
            line = TYPED.sub('', line)
        for what, pat in patterns(pack):
            m = pat.search(line)
            if m: out.append(f"{where}: {what}: {m.group(0)!r} in {line.strip()[:200]!r}")
    return out

def html_text(html:str) -> str:
    "The text a page shows of `html` (tags dropped; a mini card's face is its words)."
    return re.sub(r'\s+', ' ', re.sub(r'<[^>]+>', ' ', html)).replace('&#x27;', "'").replace('&quot;', '"').replace('&amp;', '&')

def make(name, options):
    return get_game(name, **options)

def illegal(match, seat) -> list:
    "Actions `seat` may not take now, as the panel sends them (objects): a card not playable, a move of another phase, another seat's turn."
    legal, game = match.legal_actions(), match.game
    out = [c for c in game.deck() if c not in legal][:2]
    moves = [a for a in legal if isinstance(a, Move)]
    if moves: out.append(moves[0]._replace(cards=moves[0].cards[:-1]) if moves[0].cards else Move(moves[0].verb, (), 'X'))
    verbs = {v for v in getattr(game, 'VERB_WORDS', {}) if v not in {m.verb for m in moves}}
    out += [Move(v) for v in sorted(verbs)][:2]
    return out


# ---------- the terminal ----------

class Learner:
    "Types at each prompt as a learner may: in each new phase help, hint, two refusals (a bad card, nonsense), then a legal action typed as code."
    def __init__(self, match, seed):
        self.match, self.rng, self.out, self.seen, self.todo, self.hands = match, random.Random(seed), [], set(), [], 2
    def output(self, text=''): self.out.append(str(text))
    def input(self, prompt):
        m = self.match
        self.out.append(prompt)
        if prompt != '> ':  # between hands: one word it does not know, then on
            if not getattr(self, 'asked', False): self.asked = True; return 'what now'
            self.asked = False
            return 'quit' if len(m.hands) > self.hands else ''
        phase = m.hand.phase
        if phase not in self.seen:
            self.seen.add(phase)
            bad = [str(a) for a in illegal(m, 0) if isinstance(a, Card)][:1]
            self.todo = ['help', 'hint', 'ZZ'] + bad
        if self.todo: return self.todo.pop(0)
        return str(self.rng.choice(m.legal_actions()))

def terminal_transcript(name, options, seed, monkeypatch) -> tuple:
    monkeypatch.setattr(cli, '_hint', lambda match, seat: hint_text(match.view(seat), match.game, seed=match.seed, budget=BUDGET))
    match = Match(make(name, options), seed=seed)
    learner = Learner(match, seed)
    cli.play(match, input=learner.input, output=learner.output)
    return match, learner.out

@pytest.mark.parametrize('name, options', VARIANTS, ids=IDS)
def test_the_terminal_shows_no_code(name, options, monkeypatch):
    found = []
    for seed in (1, 2):
        match, out = terminal_transcript(name, options, seed, monkeypatch)
        found += problems(f"terminal, seed {seed}", '\n'.join(out), match.game.pack, typed=True)
        first = out[0]
        found += [f"terminal, seed {seed}: a backquote: {l.strip()[:200]!r}" for l in '\n'.join(out).splitlines() if '`' in l]
        found += [f"terminal, seed {seed}: the learner's seat by number, not 'you': {l.strip()[:200]!r}"
                  for l in '\n'.join(out[1:]).splitlines() if re.search(r"\bSeats? 0\b|\bSeats \d+ and 0\b", l)]
        if getattr(match.game, 'LEARNER_WORDS', {}).get('hand', 'hand') != 'hand':  # the game's own word for a hand (Dehla Pakad: deal)
            found += [f"terminal, seed {seed}: 'hand' for the game's {match.game.LEARNER_WORDS['hand']!r}: {l.strip()[:200]!r}"
                      for l in '\n'.join(out).splitlines() if re.search(r"\b[Hh]and \d|\bthe hand is over", l)]
        if re.search(r"\bseed \d", first): found.append(f"first line: a seed: {first!r}")  # the game, not a number to copy
        if not any(isinstance(a, Card) for *_, a in match.actions):  # a game where no card is ever typed (Maghe Satra)
            if 'type a card' in first or 'card or an action' in first: found.append(f"first line: typing a card: {first!r}")
            if 'Every card: type it' in '\n'.join(out): found.append("help: a table of cards to type")
    assert not found, '\n'.join(found[:25])


# ---------- the panel, the hint and the review ----------

def panel_texts(name, options, seed) -> tuple:
    "Every text the panel shows the learner at Seat 0 while two hands are played (bots elsewhere), and the finished match."
    s = Session(name, seat=0, seed=seed, **options)
    texts, seen, pack = [], set(), s.game.pack
    box = HintBox(lambda: s.match.view(0), s.game, seed=seed, budget=BUDGET)
    while not s.match.over and len(s.match.hands) <= 2:
        if s.review is not None:
            texts.append(('result', s.message.text))
            s.next_hand(); texts.append(('message', s.message.text)); continue
        s.run_bots()
        if s.review is not None or s.match.to_act != 0: continue
        m, phase = s.match, s.match.hand.phase
        texts += [('button', label) for label, _ in s.move_notes()] + [('move note', note) for _, note in s.move_notes()]
        texts += [('button', move_label(a, pack)) for a in m.legal_actions()]
        if phase not in seen:
            seen.add(phase)
            for a in illegal(m, 0):
                verdict = m.explain(a, 0)
                if verdict.legal: continue
                s.act(a)
                texts += [('refusal', s.message.text), ('refusal read out', heard(s.message, [], pack))]
            s.say('refused', m.explain(m.legal_actions()[0], 1).text, m.explain(m.legal_actions()[0], 1).rule)  # out of turn
            texts.append(('refusal read out', heard(s.message, [], pack)))
            box.show()
            texts += [('hint box', html_text(box.text.value))]
            h = hint(m.view(0), s.game, seed=seed, budget=BUDGET)
            texts += [('hint reason', r.text) for r in h.reasons] + [('chart words', hint_words(h, pack))]
        s.act(s.game.bot(m.view(0), s.rng))
        texts.append(('message', s.message.text))
    for seat in range(s.game.n_seats()):
        texts += [(f"event seen by Seat {seat}", e.text) for e in s.match.events(seat)]
    again = s.match.replayed([])  # every seat's decisions (naming trump is Seat 0's only in some deals): each move as shown
    for _, seat, action in s.match.actions:
        moves = [a for a in again.legal_actions() if isinstance(a, Move)]
        texts += [('button', move_label(a, s.game)) for a in moves] + [('move note', again.explain(a).text) for a in moves]
        texts += [('message', f"You {action_text(action, s.game, 'done')}."), ('terminal', you_may(again, seat))]
        again.apply(action)
    return s.match, texts

@pytest.mark.parametrize('name, options', VARIANTS, ids=IDS)
@pytest.mark.usefixtures('hint_pixels_unread')
def test_the_panel_hint_and_review_show_no_code(name, options):
    found = []
    for seed in (1, 2):
        match, texts = panel_texts(name, options, seed)
        pack = match.game.pack
        word = getattr(match.game, 'LEARNER_WORDS', {}).get('hand', 'hand')  # the game's own word for a hand (Dehla Pakad: deal)
        for where, text in texts:
            found += problems(f"{where}, seed {seed}", text, pack, typed=where == 'terminal')
            if word != 'hand' and where in ('result', 'message') and re.search(r"\b[Hh]and \d|\bthis hand\b", text):
                found.append(f"{where}, seed {seed}: 'hand' for the game's {word!r}: {text[:200]!r}")
            if where != 'terminal': found += problems(f"{where} (read out), seed {seed}", cards_text_words(text, pack), pack)
        items = review(match, 0, hand_no=1, budget=BUDGET, top=3)
        found += problems(f"review, seed {seed}", review_text(match, 0, hand_no=1, budget=BUDGET, top=3), pack)
        rows = ReviewList()
        rows.pack = pack
        found += [p for k, x in enumerate(items, 1) for p in problems(f"review row, seed {seed}", html_text(rows._row(k, x).children[0].value), pack)]
    assert not found, '\n'.join(found[:25])


# ---------- the table's info line and seat boxes: facts in words, not the view's keys ----------

def table_lines(html:str) -> list:
    "Each fact the table shows under it (the info line, split at ' · ') and in each seat's box (a line each, its name left out)."
    facts = [x for m in re.findall(r'class="cgt-facts"[^>]*>(.*?)</div>', html) for x in html_text(m).split(' · ')]
    boxes = [html_text(x) for m in re.findall(r'class="cgt-seat"[^>]*>(.*?)</div>', html) for x in m.split('<br>')[1:]]
    return [x.strip() for x in facts + boxes]

def view_keys(lines, view, game) -> list:
    "Each line that is a `key: value` of a view key: a word with an underscore, or a key of the view or its contract, as a label."
    keys = set(view) | set(getattr(game.contract.view, '__annotations__', {})) | {k for c in game.contract.view.__mro__ for k in getattr(c, '__annotations__', {})}
    labels = _alternatives(k.replace('_', ' ') for k in keys)
    said = re.compile(rf"^(?:{labels}):|\b[a-z]+_[a-z_]+\b", re.I)
    return [line for line in lines if said.search(line)]

@pytest.mark.parametrize('name, options', VARIANTS, ids=IDS)
def test_the_table_says_its_facts_in_words(name, options):
    "A hand played through the panel's session: at every step the table (the learner's seat and the teaching view) says no view key."
    found = set()
    for seed in (1, 2):
        s = Session(name, seat=0, seed=seed, **options)
        for _ in range(300):
            for viewer in (0, None):
                view = s.match.view(viewer)
                html = table_html(view, 0, direction_of(s.game), s.game.title, s.game)
                found |= {f"{name}, seed {seed}, {'teaching view' if viewer is None else 'Seat 0'}: {line!r}" for line in view_keys(table_lines(html), view, s.game)}
            if s.match.over or len(s.match.hands) > 2: break
            if s.review is not None: s.next_hand()
            elif s.bot_due: s.bot_move()
            elif not s.play_for_me(1, bots=False): break
    assert not found, '\n'.join(sorted(found)[:25])

def test_the_view_key_search_catches_what_it_should():
    game = get_game('beggars-and-thieves', players=5)
    view = {'variant': 'five', 'blind_size': 2, 'blind_offer': [None] * 5}
    caught = view_keys(['variant: five', 'blind size: 2', 'blind offer: pass', 'partner_thief', 'revealed: yes'], view, game)
    test_eq = lambda a, b: (a == b) or pytest.fail(f"{a!r} != {b!r}")
    test_eq(caught, ['variant: five', 'blind size: 2', 'blind offer: pass', 'partner_thief', 'revealed: yes'])
    test_eq(view_keys(['five players', 'blind of 2 cards', 'passed', 'partner card: the 7 Thief', 'Seat 2 picked up the blind'], view, game), [])


def test_dehla_pakad_says_deal_between_deals_in_the_panel():
    "Dehla Pakad's word for a hand is 'deal' (its LEARNER_WORDS): the panel's lines between deals say it too."
    s = Session('dehla-pakad', seed=3)
    while s.review is None:
        assert not s.match.over
        s.act(s.match.legal_actions()[0]) if s.match.to_act == s.seat else s.bot_move()
    said = [s.message.text, s._not_now()]
    s.next_hand(); said.append(s.message.text)
    assert said[0].startswith('Deal 1 is over.') and said[1].startswith('Deal 1 is over: press') and said[2] == 'Deal 2 is dealt.', said
    assert not any(re.search(r"\b[Hh]and \d|\bthis hand\b", x) for x in said), said


# ---------- drills and exercises ----------

@pytest.mark.parametrize('name', sorted(games()))
def test_drills_and_exercises_show_no_code(name):
    "Every drill's question, choices and feedback, as the terminal asks it and the panel grades it; each exercise's note."
    cls, found = game_class(name), []
    for seed in range(2):
        for q in drill_set(name, None, 40, seed):
            said = []
            cli._ask(q, 1, 1, lambda _: str(q.answers[0] + 1), said.append)  # the terminal's drill, answered right
            found += problems(f"drill {q.rule}, terminal", '\n'.join(said), cls.pack, typed=True)
            for i in range(len(q.choices)):  # each answer's feedback, as the panel shows it
                found += problems(f"drill {q.rule}, panel", html_text(_feedback_html(name, q.grade(i))), cls.pack, typed=True)
    for key, ex in EXERCISES.items():
        m = exercise(key)
        if m.game.name == name: found += problems(f"exercise {key}", f"{ex.title}. {m.note}", m.game.pack)
    assert not found, '\n'.join(sorted(set(found))[:25])


def test_the_patterns_catch_what_they_should():
    "The search itself: codes, moves as typed, tags and ids are caught; words, signs and seat numbers are not."
    french, marias, beggars = (get_game(n).pack for n in ('begga-kaat', 'kocka', 'beggars-and-thieves'))
    bad = [(french, 'You played QS.'), (french, 'play 10H'), (beggars, 'Seat 1 plays T6.'), (beggars, 'bury G7 R1'),
           (marias, 'the Hejma (QL)'), (french, 'Hint: trump C'), (french, 'You played trump ♣ clubs'),
           (marias, 'e.g. pass 9♥ A♥ 9🍃'), (beggars, 'call 7'), (french, 'Not allowed [duck]'),
           (french, '(rule begga-kaat/follow)'), (french, 'Refused: that [notation]'), (french, "{'a': 1}"),
           (french, 'over 8 sampled deals'), (french, 'The cut: Player A draws 2♥'), (french, 'Seat 3 discards 10♦.'),
           (french, 'None'), (french, 'Move(')]
    good = [(french, 'You played Q♠.'), (beggars, 'Seat 1 plays 6 Thief.'), (beggars, 'bury 7 green and 1 red'),
            (marias, 'the Hejma (Q🍃)'), (french, 'Hint: name clubs trumps'), (marias, 'pass 9♥, A♥ and 9🍃'), (marias, 'You pass 9♥ 9🍃 K🌰 to Seat 1.'),
            (beggars, 'call the 7 Thief as the partner card'), (french, 'Seat 2 wins trick 7 (rule: following the led suit).'),
            (french, 'AS'.lower()), (french, 'Seats 1 and 3')]
    for pack, text in bad: assert problems('x', text, pack), text
    for pack, text in good: assert not problems('x', text, pack), (text, problems('x', text, pack))
    assert not problems('x', 'Type `QS` for Q♠; `trump S` names spades trumps.', french, typed=True)
    assert not problems('x', 'Type "QS" for Q♠; "trump S" names spades trumps.', french, typed=True)
    assert not problems('x', 'QS    Q♠     queen of spades', french, typed=True)
