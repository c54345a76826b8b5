"""The learner's pages speak to a learner (issue 55): a check over the built site.

The learner's pages are the start page, each game's tutorial, quick reference and rulebook, the glossary and the
home page (its part for programmers and teachers is a page of its own, `develop.html`). On them this test fails on:

- code: a code cell's source (`cell-code`, `sourceCode`), folded code (`<details>`), a code block in prose;
- a Python value: a call with arguments (`Move('trump S')`, `Odds(total=16, ...)`), a list or dict written as Python
  (`[10, 30, 30, 5]`, `['Player A ...']`, `{'hands': ...}`), `True`/`False`/`None` as values;
- a programmer's name: an identifier with an underscore (`fill_deal`), a dotted name (`core.sampling`), `TypedDict`,
  `total=False`, "For programmers", "notebook", a benchmark path (`bench/`);
- a rule id or a tactic tag: `[dehla-pakad/follow]`, `kocka/letter`, `[duck]`;
- seat arithmetic: `dealer + 1`, `s + 1`, `% 4`, `view(None)`;
- a link to a notebook (`.ipynb`), on the page or in its plain-text copy (`*.html.md`), and Python in that copy;
- a lead-in followed by nothing a reader sees (tests/test_site_says.py's `unkept_promises`), an example whose output the
  docs build left out (a Python value, marked `cgt-dropped`) included.

`ALLOWED` lists the few exceptions, each with its reason. The site is the one `make test` (or `tools/docs.py`) has just
built into `_docs/`; when it is missing or stale the site tests build it (tests/helpers.py).
"""
import html.parser, re, sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT/'tools')); sys.path.insert(0, str(ROOT/'tests'))
import docs  # noqa: E402
from test_site_says import site, unkept_promises  # noqa: E402,F401 (`site`: the built site, the fixture both files read)

GAMES = docs.GAMES


def learner_pages(site:Path) -> list[Path]:
    "Every learner's page of the built `site`."
    pages = [site/'index.html', site/'glossary.html', site/'tutorials'/'start.html']
    for g in GAMES: pages += [site/'tutorials'/f'{g}.html', site/'quickref'/f'{g}.html']
    pages += [site/docs.page_name(rel) for rel in docs.notebooks() if docs.is_rulebook(rel)]
    return pages


# ---------------------------------------------------------------- what a page shows

class Shown(html.parser.HTMLParser):
    """The main content of a page: its visible text (scripts, styles, the page navigation and the sidebar left out),
    and the code it shows (a `<pre>` outside a cell's output, a `<details>` fold, a cell's source)."""
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text, self.code, self.stack, self.in_main, self.skip, self.links = [], [], [], False, 0, []
        self.out = 0  # inside a cell's output
    def handle_starttag(self, tag, attrs):
        a = dict(attrs); cls = a.get('class') or ''
        if tag == 'main': self.in_main = True
        if not self.in_main: return
        if tag == 'a' and a.get('href'): self.links.append(a['href'])
        if tag in ('br', 'img', 'hr', 'input', 'meta', 'link', 'wbr', 'col'): return
        skip = tag in ('script', 'style') or (tag == 'nav' and 'page-navigation' in cls)
        out = 'cell-output' in cls
        self.stack.append((tag, skip, out))
        self.skip += skip; self.out += out
        if self.skip: return
        if tag == 'details': self.code.append('a folded block (<details>)')
        if 'cell-code' in cls or 'sourceCode' in cls: self.code.append("a code cell's source")
        if tag == 'pre' and not self.out: self.code.append('<pre>')
        if tag in ('p', 'li', 'td', 'th', 'div', 'pre', 'h1', 'h2', 'h3', 'h4', 'tr', 'summary'): self.text.append('\n')
    def handle_endtag(self, tag):
        if tag == 'main': self.in_main = False
        if not self.in_main: return
        while self.stack:
            t, skip, out = self.stack.pop()
            self.skip -= skip; self.out -= out
            if t == tag: break
    def handle_data(self, data):
        if self.in_main and not self.skip:
            if self.code and self.code[-1] == '<pre>': self.code[-1] = f"<pre>{data.strip()[:60]}"
            self.text.append(data)

def shown(html_text:str, stop_at:str|None=None) -> Shown:
    "What a page shows; `stop_at`: the id of the section where the learner's part ends (the home page's 'Two commands')."
    if stop_at and f'id="{stop_at}"' in html_text:
        at = html_text.index(f'id="{stop_at}"'); html_text = html_text[:html_text.rindex('<', 0, at)]
    p = Shown(); p.feed(html_text); p.close(); return p


# ---------------------------------------------------------------- what a learner's text may not hold

GAME_IDS = r'(?:begga-kaat|kocka|dehla-pakad|maghe-satra|beggars-and-thieves|snear|[a-z]+-[a-z]+)'
KINDS = {
    'a Python value': re.compile(
        r"\b[A-Z]\w*\((?:'|\"|\w+=)|"                      # Move('trump S'), Odds(total=16
        r"\[\s*(?:-?\d+\s*,\s*)+-?\d+\s*\]|"                # [10, 30, 30, 5]
        r"\[\s*'[^']*'\s*,|\{\s*'\w+'\s*:|"                 # ['Player A draws', ...], {'hands': ...}
        r"\[(?:\s*[0-9AKQJTGBR]{1,2}[SHDCLBAG♠♥♦♣]?\s*,){2,}|"  # [4S, JS, JH, ...]
        r"(?<![\w.])(?:True|False)(?![\w])|[=(\[,]\s*None\b|\bNone\s*[,)\]]"),
    "a programmer's name": re.compile(
        r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b|"                   # fill_deal, total_tricks
        r"\b(?:core|games|coach|practice|ui|term|serve|cardgames_tutor|self|h|g|m)\.[a-z_]\w*\b|"  # core.sampling, h.apply
        r"\bTypedDicts?\b|\btotal=False\b|\bFor programmers\b|\bnotebooks?\b|\bbench/|\bimport\b|\bdef\b|\.py\b"),
    'a rule id or tactic tag': re.compile(
        rf"\b(?:begga-kaat|kocka|dehla-pakad|maghe-satra|beggars-and-thieves|snear)/[a-z-]+|"
        r"\[[a-z]+(?:-[a-z]+)*\](?!\()"),                   # [duck], [stand-odds] (not a Markdown link)
    'seat arithmetic': re.compile(r"\b(?:dealer|seat|s|leader|picker|n|i)\s*[+-]\s*\d\b|%\s*\d\b|\bview\(|\bmod \d\b"),
}

# The allowed exceptions: (page, kind, a piece of the line or block it may hold, the reason).
ALLOWED = [
    ('index.html', "a programmer's name", 'cardgames_tutor',
     "the project's name, the home page's title (the name of the package a learner installs)"),
]

def _allowed(page:str, kind:str, where:str) -> bool:
    return any(p == page and k in (kind, '*') and piece in where for p, k, piece, _ in ALLOWED)

def problems(page:Path, site:Path) -> list[str]:
    "Everything on learner's page `page` (of the built `site`) a learner should not meet, each named with its kind."
    rel = str(page.relative_to(site))
    s = shown(page.read_text(encoding='utf-8', errors='replace'), stop_at='two-commands' if rel == 'index.html' else None)
    bad = [f"{rel}: code: {c}" for c in s.code if not _allowed(rel, 'code', c)]
    text = ''.join(s.text)
    for kind, pat in KINDS.items():
        for m in pat.finditer(text):
            start, end = text.rfind('\n', 0, m.start()) + 1, text.find('\n', m.end())
            line = ' '.join(text[start:end if end >= 0 else len(text)].split())
            if not _allowed(rel, kind, line): bad.append(f"{rel}: {kind}: {m.group(0)!r} in {line[:140]!r}")
    bad += [f"{rel}: a link to a notebook: {h}" for h in s.links if '.ipynb' in h.split('#')[0]]
    bad += [f"{rel}: a lead-in followed by nothing: {b}" for b in unkept_promises(page)]
    twin = page.with_name(page.name + '.md')
    if twin.exists():
        md = twin.read_text(encoding='utf-8')
        bad += [f"{rel}.md: a link to a notebook: {m.group(0)}" for m in re.finditer(r'\]\([^)\s]*\.ipynb[^)]*\)', md)]
        bad += [f"{rel}.md: Python: {m.group(0)[:60]!r}" for m in re.finditer(r'```python\n.*?```|#\| \w+', md, re.S)]
    return bad


# ---------------------------------------------------------------- the checker itself

def _page(tmp_path, body, name='page.html'):
    p = tmp_path/name
    p.write_text(f"<html><body><nav id='quarto-sidebar'><p>core.engine fill_deal</p></nav><main>{body}</main></body></html>")
    return p

BAD = {
    'code': '<div class="cell"><details class="code-fold"><summary>Show the code</summary><pre class="sourceCode python cell-code"><code>h.apply("QS")</code></pre></details></div>',
    'a Python value': '<div class="cell-output"><pre><code>trump 0 [4S, JS, JH, KD, QC] [Move(\'trump S\'), ...]</code></pre></div>',
    'value2': '<p>Totals [10, 30, 30, 5]</p>',
    'value3': '<p><code>Odds(total=16, unseen=49)</code></p>',
    "a programmer's name": '<p>To write a deal by hand, <code>fill_deal</code> gives each seat its cards.</p>',
    'name2': '<p>The coach asks every game what it knows (see <code>core.sampling</code>).</p>',
    'name3': '<p>as TypedDicts on top of the shared ones.</p>',
    'a rule id or tactic tag': '<div class="cell-output"><pre>Not allowed [dehla-pakad/follow]: Seat 1 must follow.</pre></div>',
    'tag2': '<p>The coach says [duck] here.</p>',
    'seat arithmetic': '<p>beginning with the player on the dealer\'s right (Seat dealer + 1).</p>',
    'arith2': '<p>Each seat s passes to seat s + 1.</p>',
    'a link to a notebook': '<p>See <a href="../games/11_kocka.ipynb">the rulebook</a>.</p>',
    'a lead-in followed by nothing': '<p>The refusals:</p><h2>Scoring</h2>',
    'lead2': '<p>The next dealer, one case each:</p><div class="cgt-dropped" hidden></div><div class="cell-output"><pre>Seat 2 deals.</pre></div>',
}

def test_a_dropped_output_leaves_its_mark():
    "The docs build marks where it leaves out an example's output (a Python value), so the check sees a lead-in followed by nothing."
    from fastcore.basics import AttrDict
    lead = AttrDict(cell_type='markdown', metadata={}, source='The next dealer, one case each:')
    value = AttrDict(cell_type='code', metadata={}, source='print(totals)', outputs=[{'output_type': 'stream', 'name': 'stdout', 'text': '[10, 30, 30, 5]\n'}])
    said = AttrDict(cell_type='code', metadata={}, source='print(x)', outputs=[{'output_type': 'stream', 'name': 'stdout', 'text': 'Seat 2 deals next.\n'}])
    cells = docs.learner_cells([lead, value, said])
    assert [c.cell_type for c in cells] == ['markdown', 'markdown', 'code'] and cells[1]['source'] == docs.DROPPED

def test_the_checker_fails_on_each_kind(tmp_path):
    for kind, body in BAD.items():
        found = problems(_page(tmp_path, body), tmp_path)
        assert found, f"the checker misses {kind}: {body}"
    clean = ('<p>Seat 0 leads the queen of hearts; Seat 1 must follow with a heart.</p><p>The scores:</p>'
             '<table><tr><td>Seat 0</td><td>10</td></tr></table><div class="cell-output"><pre>Seat 2 takes the trick with A♥.</pre></div>'
             '<p>Type QH for the queen of hearts.</p>')
    assert problems(_page(tmp_path, clean), tmp_path) == []
    twin = _page(tmp_path, clean, 'twin.html')
    twin.with_name('twin.html.md').write_text("See [the rulebook](../games/11_kocka.ipynb).\n\n```python\n#| echo: false\nshow()\n```\n")
    assert len(problems(twin, tmp_path)) == 2
    home = _page(tmp_path, '<p>Learn a game.</p><h2 id="two-commands">Two commands</h2><p><code>fill_deal</code></p>', 'index.html')
    assert problems(home, tmp_path) == []  # past the learner's part of the home page


# ---------------------------------------------------------------- the built site

def test_the_learner_pages_speak_to_a_learner(site):
    pages = learner_pages(site)
    assert len(pages) >= 20 and all(p.exists() for p in pages), [str(p) for p in pages if not p.exists()]
    bad = [b for p in pages for b in problems(p, site)]
    assert not bad, f"{len(bad)} things a learner should not meet on the learner's pages:\n" + '\n'.join(bad)

def test_every_allowed_exception_is_still_needed(site):
    "An exception the site no longer needs is taken out of ALLOWED."
    used = set()
    for page in learner_pages(site):
        rel = str(page.relative_to(site))
        s = shown(page.read_text(encoding='utf-8'), stop_at='two-commands' if rel == 'index.html' else None)
        blob = ' '.join(''.join(s.text).split()) + ' '.join(s.code)
        used |= {piece for p, _, piece, _ in ALLOWED if p == rel and piece in blob}
    assert not [a for a in ALLOWED if a[2] not in used], f"exceptions no longer needed: {[a for a in ALLOWED if a[2] not in used]}"


if __name__ == '__main__':  # python tests/test_learner_pages.py: the problems of the site in _docs/, counted by page and kind
    from collections import Counter
    site_ = ROOT/'_docs'
    allp = [b for p in learner_pages(site_) for b in problems(p, site_)]
    print('\n'.join(allp) if '-v' in sys.argv else '')
    print(Counter(b.split(': ')[0] + ': ' + b.split(': ')[1] for b in allp).most_common())
    print(len(allp), 'in all')


# ---------------------------------------------------------------- the sentences issue 55 found false, held to the engine

import json, random  # noqa: E402
NBS = ROOT/'nbs'

def _prose(rel:str) -> str:
    "The Markdown of notebook `rel`, each run of white space made one space."
    cells = json.loads((NBS/rel).read_text(encoding='utf-8'))['cells']
    return ' '.join(' '.join(''.join(c['source']).split()) for c in cells if c['cell_type'] == 'markdown')

def test_dehla_pakad_says_who_wins_a_deal_at_two_each():
    "The rulebook's opening: three or four tens win a deal, and at two each the side that did not deal wins it."
    from cardgames_tutor.games.dehla_pakad import deal_winner
    text = _prose('games/12_dehla_pakad.ipynb')
    assert 'at least three of them' not in text
    assert 'ending up with three or four of them (at two each, the side that did not deal wins it)' in text
    for dealing in (0, 1):
        assert deal_winner([2, 2], dealing_team=dealing)[0] == 1 - dealing
        assert deal_winner([3, 1], dealing_team=dealing)[0] == 0 and deal_winner([1, 3], dealing_team=dealing)[0] == 1

def test_kocka_received_cards_are_seen_then_joined_as_both_pages_say():
    "Rulebook and tutorial agree with the engine: a seat looks at its 3 cards once it and its giver have passed; they join its hand when all four have."
    from cardgames_tutor.core.engine import deal_cards
    from cardgames_tutor.games.kocka import Kocka
    for rel in ('games/11_kocka.ipynb', 'tutorials/kocka.ipynb'):
        text = _prose(rel)
        assert 'look at' in text and 'join your hand when all four have passed' in text, rel
        assert 'join your hand once' not in text, rel
    g = Kocka()
    h = g.new_hand(deal_cards(g, random.Random(3)), dealer=3)
    order = [h.to_act]
    while h.phase == 'pass':
        seat = h.to_act
        h.apply(h.legal_actions()[0])
        if h.phase != 'pass': break
        got = h.received((seat + 1) % 4)  # the seat after: its giver has just passed; it has not yet
        assert got is None
        mine = h.received(seat)
        if h.has_passed((seat - 1) % 4):  # the giver passed before: the seat may look, the cards are not in its hand yet
            assert mine and not set(mine) & set(h.hands[seat]), seat
        order.append(h.to_act)
    for s in range(4): assert set(h.passed[(s - 1) % 4]) <= set(h.hands[s])  # all four passed: the cards are in the hands

def test_the_glossary_trick_fits_dehla_pakad():
    text = _prose('glossary.ipynb')
    assert 'taken by one of them' not in text and 'in Dehla Pakad they go face down into the centre' in text

def test_kocka_tutorial_names_the_cards_its_loser_took(site):
    "The sentence after the tutorial's example is the engine's: the hearts it names are those the hand's score lists."
    text = ' '.join(''.join(shown((site/'tutorials'/'kocka.html').read_text(encoding='utf-8')).text).split())
    said = re.search(r"Seat (\d) takes the Hejma and (\w+) hearts? \(([^)]*)\): after trick (\d) it has (\d+) penalty points", text)
    assert said, "the tutorial's sentence about the end of its example is missing"
    seat, count, hearts, trick, points = said.groups()
    score = re.search(rf"Hand over after trick {trick} \(decided early\)\. Penalty points: .*?Seat {seat}: {points} \(Hejma 10, ([^)]*)\)", text)
    assert score, f"the log under the picture does not give Seat {seat} {points} points after trick {trick}"
    listed = [p.rsplit(' ', 1)[0] for p in score.group(1).split(', ')]
    assert sorted(hearts.split()) == sorted(listed), (hearts, listed)
    assert count == 'no one two three four five six seven eight'.split()[len(listed)]

def test_kocka_quick_reference_says_who_deals_and_leads_as_the_engine_does():
    "Issue 55, item 4: the quick reference says who leads next; the engine deals and leads so after a lost and a replayed hand."
    from cardgames_tutor.core.match import Match
    from cardgames_tutor.games.kocka import Kocka
    text = _prose('quickref/kocka.ipynb')
    assert '**the loser of the last hand deals** and **the player on their left (the next seat) leads**' in text
    assert 'a tie that is replayed, the same dealer deals again and the same player leads' in text
    seen = set()
    for seed in range(30):
        m = Match(Kocka(), seed=seed)
        while len(m.hands) == 1 and not m.over: m.apply(m.legal_actions()[0])
        first, second = m.hands
        loser = first.decided['loser'] if first.decided else (m.standing['losers'][0] if m.standing['losers'] else None)
        if loser is None:  # a replayed tie
            assert (second.dealer, second.leader) == (first.dealer, first.leader), seed; seen.add('replay')
        else:
            assert (second.dealer, second.leader) == (loser, (loser + 1) % 4), seed; seen.add('lost')
    assert 'lost' in seen

def test_beggars_and_thieves_quick_reference_has_the_card_points(site):
    "Issue 55, item 4: every number a player needs at the table; the card points, as the game counts them."
    from cardgames_tutor.games.beggars_and_thieves import BeggarsAndThieves
    text = ' '.join(''.join(shown((site/'quickref'/'beggars_and_thieves.html').read_text(encoding='utf-8')).text).split())
    pts = {c.code: p for c, p in BeggarsAndThieves().points_of.items()}
    assert f"6 Thief {pts['T6']}" in text and f"5 Thief {pts['T5']}" in text and f"14 Thief {pts['T14']}" in text
    for rank in (8, 7, 6, 5):
        assert pts[f'G{rank}'] == pts[f'B{rank}'] == pts[f'R{rank}'] and f"{rank} green, {rank} blue, {rank} red {pts[f'G{rank}']} each" in text
    assert f"{sum(pts.values())} in all" in text


# ---------------------------------------------------------------- one word for each thing (issue 55, item 2)
# Each game's rulebook notebook exports its word list: `LEARNER_WORDS` (the thing -> the one word), `NOT_SAID` (a word its
# learner's pages do not use -> the word they use) and `PRINTED_RULES` (what "the printed rules" are). The check reads
# the prose a learner meets on the game's tutorial, quick reference and rulebook pages. A word may still be *mentioned*
# (in italics, in quotes of the printed rules, as a typed form in `code`) and defined in a table (the key).
# The built pages and the engine's own sentences (the panel's, the terminal's, the coach's) are checked further down.

def _game(game:str):
    from cardgames_tutor.core.registry import get_game
    return type(get_game(game.replace('_', '-')))

def _learner_prose(rel:Path) -> str:
    "The Markdown a learner reads of notebook `rel` (a rulebook as tools/docs.py makes its page)."
    from fastcore.basics import AttrDict
    cells = [AttrDict(c) for c in json.loads((NBS/rel).read_text(encoding='utf-8'))['cells']]
    if docs.is_rulebook(rel): cells = docs.learner_cells(cells)
    return '\n\n'.join(c['source'] if isinstance(c['source'], str) else ''.join(c['source']) for c in cells if c.cell_type == 'markdown')

def used_words(md:str) -> str:
    "Prose with what only mentions a word left out: table rows (the key), `code`, *italics* and quotations."
    md = '\n'.join(l for l in md.splitlines() if not l.lstrip().startswith('|'))
    md = re.sub(r'`[^`]*`', '', md)
    md = re.sub(r'(?<![*\w])\*(?!\*)[^*\n]+\*(?!\*)', '', md)
    return re.sub(r'"[^"\n]*"|“[^”]*”', '', md)

def game_pages(game:str) -> list[Path]:
    return [*(r for r in docs.notebooks() if docs.is_rulebook(r) and docs.game_of(str(r)) == game),
            Path('tutorials')/f'{game}.ipynb', Path('quickref')/f'{game}.ipynb']

def test_the_word_check_sees_a_second_word():
    assert re.search(r'\bsix of Thieves\b', used_words("The **six of Thieves** is the partner card."))
    assert not re.search(r'\bsix of Thieves\b', used_words("| partner card | the six of Thieves |\nThe *six of Thieves*; \"the six of Thieves\""))

@pytest.mark.parametrize('game', GAMES)
def test_each_game_says_one_word_for_each_thing(game):
    cls = _game(game)
    assert cls.LEARNER_WORDS and set(cls.NOT_SAID).isdisjoint(cls.LEARNER_WORDS.values()), game
    bad = []
    for rel in game_pages(game):
        text = used_words(_learner_prose(rel))
        for word, instead in cls.NOT_SAID.items():
            bad += [f"{rel}: '{m.group(0)}' (say '{instead}'): ...{text[max(0, m.start() - 60):m.end() + 40]!r}"
                    for m in re.finditer(rf'(?<![\w-]){re.escape(word)}(?![\w-])', text, re.I)]
    assert not bad, "a second word for one thing:\n" + '\n'.join(bad)

@pytest.mark.parametrize('game', GAMES)
def test_the_printed_rules_are_named_once_on_the_rulebook(game):
    cls = _game(game)
    rulebook = next(r for r in game_pages(game) if docs.is_rulebook(r) and re.match(r'1\d_', r.name))
    text = ' '.join(_learner_prose(rulebook).split())
    named = f"*The printed rules*, wherever this page says so, are {cls.PRINTED_RULES}."
    assert text.count(named) == 1, f"{rulebook}: the printed rules are not named (once) as {cls.PRINTED_RULES!r}"
    first = re.search(r'printed rules', text, re.I)
    assert first and first.start() == text.index(named) + len('*The '), f"{rulebook}: 'the printed rules' is used before it is named"

@pytest.mark.parametrize('game', GAMES)
def test_the_word_lists_are_the_engines_words(game):
    "The word the pages use for a trick (and Begga Kaat's for a suit) is the word the engine's sentences use."
    from cardgames_tutor.core.engine import deal_cards
    from cardgames_tutor.core.registry import get_game
    g = get_game(game.replace('_', '-'))
    hand = g.new_hand(deal_cards(g, random.Random(1)), 0)
    words = type(g).LEARNER_WORDS
    if not hasattr(hand, 'WORDS'): assert 'trick' not in words; return  # no tricks (Maghe Satra)
    assert words['trick'] == hand.WORDS['trick'], (game, words['trick'], hand.WORDS['trick'])
    if 'a suit' in words: assert words['a suit'] == hand.WORDS['suit']

@pytest.mark.parametrize('game', GAMES)
def test_each_quick_reference_has_the_key_to_the_cards(game, site):
    "Issue 55, item 2: cards drawn one way, with the typed form in a key on the page a player keeps open (the engine's own notation)."
    from cardgames_tutor.core.registry import get_game
    page = (site/'quickref'/f'{game}.html').read_text(encoding='utf-8')
    text = ' '.join(''.join(shown(page).text).split())
    assert 'Key to the cards.' in text and 'class="cgt-card"' in page[page.index('Key to the cards.'):][:3000], game
    if game != 'maghe_satra': assert ' '.join(get_game(game.replace('_', '-')).pack.notation_help().replace('`', '').split()) in text and '`' not in text, game  # what is typed drawn as typed text, no backquote
    else: assert 'you type beg or pass' in text

def test_kocka_tutorial_says_what_its_pass_did(site):
    "Issue 55, item 3: the sentence after the pass is the engine's: the cards passed, received and led are the log's, and the refusal's e.g. is told apart."
    text = ' '.join(''.join(shown((site/'tutorials'/'kocka.html').read_text(encoding='utf-8')).text).split())
    said = re.search(r"the example passes (.+?)\. The log shows the three cards that came from Seat (\d), (.+?), and the first trick: Seat (\d) leads (\S+)\.", text)
    assert said, "the tutorial's sentence about its pass is missing"
    passed = [re.sub(r' \(\d+ points?\)', '', c) for c in re.split(r', | and ', said.group(1))]
    giver, received, leader, led = said.group(2, 3, 4, 5)
    assert f"cards passed: {', '.join(passed)} · cards received: {', '.join(received.split())}" in text  # the picture's own facts (small cards listed apart)
    assert f"Seat 0 looks at the cards from Seat {giver}: {received}." in text and f"Seat {leader} leads {led}." in text
    eg = re.search(r"e\.g\. pass (.+?)\.", text).group(1)
    if set(re.split(r', | and ', eg)) != set(passed): assert re.search(rf"The refusal.s e\.g\. \({re.escape(eg)}\) only shows how a pass is written", text)

def test_the_home_page_is_a_learners_page(site):
    "Issue 55: the home page leads with the games and says how to play a hand in a learner's words; the programmers' and teachers' part is a page of its own, linked once at the bottom."
    html = (site/'index.html').read_text(encoding='utf-8')
    s = shown(html)
    text = ' '.join(''.join(s.text).split())
    for gone in ('Python 3.10', 'pyproject.toml', "Practice(", 'make test', 'Two commands', 'git', 'Layout', 'make classroom'):
        assert not re.search(rf'(?<![\w-]){re.escape(gone)}(?![\w-])', text), gone
    assert text.index('The five games') < text.index('Playing a hand') and 'ask whoever set it up' in text and 'type make tutor and press Enter' in text
    faded = text[text.index('are faded'):][:400]  # the browser's faded cards and Hint button are not the terminal's: each said where it is
    assert 'In the browser' in text[text.index('are faded') - 120:text.index('are faded')] and 'In the terminal' in faded and 'You may play:' in faded
    assert [h for h in s.links if 'develop.html' in h] == ['develop.html']  # once, at the bottom (after the last section)
    assert html.index('href="develop.html"') > html.index('id="dealt-from-a-seed"')
    dev = ' '.join(''.join(shown((site/'develop.html').read_text(encoding='utf-8')).text).split())
    for kept in ('Python 3.10', 'pyproject.toml', "Practice('kocka')", 'make classroom', 'Two commands'): assert kept in dev, kept


# ---------------------------------------------------------------- one word for each thing, on every text the tutor makes (issue 55, item 2)

class Said(Shown):
    "What a page says in its own words: its shown text without what only mentions a word (tables, the key; code; italics)."
    def handle_starttag(self, tag, attrs):
        super().handle_starttag(tag, attrs)
        if self.in_main and self.stack and self.stack[-1][0] == tag and tag in ('table', 'code', 'em', 'i', 'kbd'):
            t, skip, out = self.stack[-1]; self.stack[-1] = (t, True, out); self.skip += 1

def said_on(page:Path) -> str:
    p = Said(); p.feed(page.read_text(encoding='utf-8')); p.close()
    return re.sub(r'"[^"\n]*"|“[^”]*”', '', ' '.join(''.join(p.text).split()))

# Second words the engine's own sentences still use, each with its reason; the tests fail once one is gone (take it out then).
PENDING = {}  # none left: Beggars and Thieves' sentences say '6 Thief' (the leak check tells a card a rule names from a card seen: helpers.named_only)

def second_words(cls, text:str, where:str) -> list:
    "Each word of `cls.NOT_SAID` in `text`; a gloss in brackets right after the one word ('the Hejma (upper jack of leaves)') only explains it."
    for instead in cls.NOT_SAID.values():
        core = re.escape(instead.removeprefix('the '))
        text = re.sub(rf'(?<![\w-])({core})\s*\([^)]*\)', r'\1', text, flags=re.I)
    return [f"{where}: '{m.group(0)}' (say '{instead}'): ...{text[max(0, m.start() - 60):m.end() + 40]!r}"
            for word, instead in cls.NOT_SAID.items() for m in re.finditer(rf'(?<![\w-]){re.escape(word)}(?![\w-])', text, re.I)]

def _pending(game:str, bad:list) -> list:
    "`bad` without the second words PENDING names for `game` (which must still be found: else take it out of PENDING)."
    for g, word in PENDING:
        if g == game: assert any(f"'{word}'" in b.lower() or f"'{word.lower()}'" in b.lower() for b in bad), f"fixed: take {word!r} out of PENDING"
    return [b for b in bad if not any(g == game and f"'{w.lower()}'" in b.lower() for g, w in PENDING)]

def test_the_site_word_check_sees_a_second_word(tmp_path):
    page = tmp_path/'p.html'
    page.write_text("<main><p>Lead the upper jack of leaves.</p><table><tr><td>upper jack of leaves</td></tr></table><p><em>green upper jack</em></p></main>")
    assert len(second_words(_game('kocka'), said_on(page), 'p')) == 1
    assert second_words(_game('kocka'), 'Hejma (upper jack of leaves, Q🍃) 10', 'p') == []  # a gloss explains the one word

@pytest.mark.parametrize('game', GAMES)
def test_each_game_says_one_word_on_its_built_pages(game, site):
    "The built tutorial, quick reference and rulebook pages (the engine's pictures and sentences on them included) use the game's one word."
    cls = _game(game)
    pages = [site/'tutorials'/f'{game}.html', site/'quickref'/f'{game}.html'] + sorted((site/'games').glob(f'{game}*.html'))
    bad = [b for p in pages for b in second_words(cls, said_on(p), str(p.relative_to(site)))]
    bad = _pending(game, bad) if any(g == game for g, _ in PENDING) and bad else bad
    assert not bad, "a second word for one thing:\n" + '\n'.join(bad)

@pytest.mark.parametrize('game', GAMES)
def test_each_game_says_one_word_in_the_panel_and_the_terminal(game, monkeypatch):
    "Every text of a played hand (tests/test_no_code_on_screen.py's: the terminal's transcript, the panel's, the hint's and the review's) uses the game's one word."
    from test_no_code_on_screen import terminal_transcript, panel_texts, TABLE_ROW
    name, cls = game.replace('_', '-'), _game(game)
    _, out = terminal_transcript(name, {}, 1, monkeypatch)
    _, texts = panel_texts(name, {}, 1)
    bad = second_words(cls, '\n'.join(l for l in out if not TABLE_ROW.match(l)), 'terminal')  # `help`'s table of cards is the key
    bad += [b for where, t in texts for b in second_words(cls, t, f"panel ({where})")]
    bad = _pending(game, bad) if any(g == game for g, _ in PENDING) else bad
    assert not bad, "a second word for one thing:\n" + '\n'.join(sorted(set(bad))[:20])

# Words a reader stopped at (issue 55): where a learner's page first uses one, it says what it means right there.
EXPLAINED = {'seed': r"\bnumber\b|same seed gives", 'table option': r"\bagree|\bchoose|\bchange", 'default': r"when nobody chooses|unless"}

def unexplained(text:str, where:str) -> list:
    "Each word of EXPLAINED whose first use in `text` is not explained within the 250 characters after it."
    out = []
    for word, says in EXPLAINED.items():
        m = re.search(rf'\b{word}s?\b', text, re.I)
        if m and not re.search(says, text[m.start():m.end() + 250], re.I):
            out.append(f"{where}: '{word}' first used unexplained: ...{text[max(0, m.start() - 40):m.end() + 120]!r}")
    return out

def test_the_explained_word_check_sees_a_bare_word():
    assert unexplained("Seat 0 · seed 1 · phase: play", 'p') and not unexplained("the seed, a number the cards are shuffled from", 'p')
    assert unexplained("Which two goes is a table option.", 'p') and unexplained("2♣ (default)", 'p')

def test_seed_table_option_and_default_are_said_in_words(site):
    bad = []
    for page in learner_pages(site):
        bad += unexplained(' '.join(''.join(shown(page.read_text(encoding='utf-8')).text).split()), str(page.relative_to(site)))
    assert not bad, '\n'.join(bad)


def test_no_picture_draws_an_empty_box(site):
    "Issue 55: a tutorial's first picture (the panel as a picture) showed its log as a tall empty white box above a few lines."
    bad = [str(p.relative_to(site)) for p in learner_pages(site) if re.search(r'class="cgt-log" style="height:\d+px', p.read_text(encoding='utf-8'))]
    assert not bad, f"a picture's log drawn at a fixed height (empty above a short log): {bad}"


def test_the_quick_references_say_the_pack_and_the_players_as_the_tutorials_do(site):
    "Issue 55: 'Pack: French 52' beside the tutorial's 'ordinary 52-card pack'; an example's players A-D (A also an ace) never introduced; 'void'."
    bad = []
    for game in GAMES:
        text = ' '.join(''.join(shown((site/'quickref'/f'{game}.html').read_text(encoding='utf-8')).text).split())
        bad += [f"quickref/{game}: {m.group(0)!r}" for m in re.finditer(r"French 52|\b[A-D] (?:leads|wins|plays)\b|\b[A-D]'s side\b|\bvoid\b", text)]
    assert not bad, '\n'.join(bad)
