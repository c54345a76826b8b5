"""The tutorials read without Python and leave the learner's hand to the learner.

For each game's tutorial (and the start page): no code is shown on the site (every code cell is `#| hide`,
`#| echo: false` or `#| include: false`, and the built page has no code block (the site `make test` has just built, else built here));
the first code cell makes the live panel; after Run All the live panel is still at the learner's first move (the worked
example plays a tutor of its own); the visible text (prose and outputs) fits ten minutes of reading (1,500 words at
200 a minute); no line of output appears twice; the start page links every tutorial, rulebook and quick reference,
and each link resolves. `python tests/test_tutorials.py` prints each tutorial's word count.
"""
import html.parser, json, re, sys
from pathlib import Path
import pytest
from helpers import fresh_site_or_fail

ROOT = Path(__file__).resolve().parents[1]
TUTORIALS = ROOT/'nbs'/'tutorials'
GAMES = ('begga_kaat', 'kocka', 'dehla_pakad', 'maghe_satra', 'beggars_and_thieves')
MOST_WORDS = 1500  # under ten minutes of reading (issue 55: about 1,500 words at most)
LINK = re.compile(r'\[([^\]]*)\]\(([^)\s]+)\)')
PROBE = '@@tutorial-probe@@'


# ---------------------------------------------------------------- what a reader of the site sees

def _src(cell) -> str: return ''.join(cell['source']) if isinstance(cell['source'], list) else cell['source']

def directives(src:str) -> dict:
    "The `#|` options at the top of a cell: `#| echo: false` -> {'echo': 'false'}, `#| hide` -> {'hide': ''}."
    out = {}
    for line in src.splitlines():
        if not line.startswith('#|'): break
        key, _, value = line[2:].strip().partition(':')
        out[key.strip()] = value.strip().lower()
    return out

def shows_code(cell) -> bool:
    "Whether the site shows this code cell's code (nbdev drops `hide` cells; Quarto and smalldocs honour `echo`, `include`)."
    d = directives(_src(cell))
    return cell['cell_type'] == 'code' and 'hide' not in d and d.get('echo') != 'false' and d.get('include') != 'false'

def shows_output(cell) -> bool:
    d = directives(_src(cell))
    return 'hide' not in d and d.get('include') != 'false' and d.get('output') != 'false'

class _Text(html.parser.HTMLParser):
    "The text of some HTML, and its lines: the text of each innermost block (a log row, a message, a paragraph)."
    BLOCK = {'div', 'p', 'li', 'pre', 'tr', 'h1', 'h2', 'h3', 'h4', 'table', 'ul', 'ol', 'br', 'details', 'summary'}
    FRAME = ('cgt-seat', 'cgt-centre', 'cgt-facts')  # a picture's seat boxes, table centre and facts: the drawing's labels
    def __init__(self):
        super().__init__(); self.words, self.lines, self.skip, self.stack, self.line = [], [], 0, [], []
    def _flush(self):
        text = ' '.join(' '.join(self.line).split())
        if text and not any(f in c for c in self.stack for f in self.FRAME): self.lines.append(text)
        self.line = []
    def handle_starttag(self, tag, attrs):
        if tag in ('style', 'script'): self.skip += 1
        if tag in self.BLOCK:
            self._flush()
            if tag != 'br': self.stack.append(dict(attrs).get('class') or '')
    def handle_endtag(self, tag):
        if tag in ('style', 'script'): self.skip -= 1
        if tag in self.BLOCK and tag != 'br':
            self._flush()
            if self.stack: self.stack.pop()
    def handle_data(self, data):
        if not self.skip: self.words.append(data); self.line.append(data)

def html_text(markup:str) -> tuple:
    "(the text, its lines) of `markup`."
    p = _Text(); p.feed(markup); p.close(); p._flush()
    return ' '.join(p.words), p.lines

def output_text(out) -> tuple:
    "(text, lines) of one output as the page shows it: HTML if there is some, else Markdown or plain text."
    if out.get('output_type') == 'stream':
        text = _src({'source': out.get('text', '')}); return text, text.splitlines()
    data = out.get('data') or {}
    pick = lambda k: _src({'source': data[k]})
    if 'text/html' in data: return html_text(pick('text/html'))
    for k in ('text/markdown', 'text/plain'):
        if k in data: text = pick(k); return text, text.splitlines()
    return '', []

def markdown_text(md:str) -> str:
    "Markdown as read: link targets, markup and HTML comments left out."
    md = re.sub(r'<!--.*?-->', ' ', md, flags=re.S)
    md = LINK.sub(r'\1', md)
    return re.sub(r'[*_`#>|]', ' ', md)

def count_words(text:str) -> int: return sum(1 for w in text.split() if re.search(r'\w', w))

def visible(nb:dict) -> tuple:
    "(words, output lines) a reader of the site meets in executed notebook `nb`."
    words, lines = 0, []
    for c in nb['cells']:
        if c['cell_type'] == 'markdown': words += count_words(markdown_text(_src(c)))
        elif c['cell_type'] == 'code' and shows_output(c):
            if shows_code(c): words += count_words(_src(c))
            for o in c.get('outputs', []):
                text, ls = output_text(o)
                words += count_words(text); lines += [' '.join(l.split()) for l in ls]
    return words, lines

def repeated(lines:list, least:int=6) -> list:
    "The output lines of at least `least` words that appear more than once."
    seen, twice = set(), []
    for l in lines:
        if count_words(l) < least: continue
        if l in seen and l not in twice: twice.append(l)
        seen.add(l)
    return twice


# ---------------------------------------------------------------- running a tutorial as Run All does

def panel_name(nb:dict) -> str|None:
    "The name the first code cell gives its live panel (`tutor = Tutor(...)`), or None if the first code cell makes none."
    first = next((_src(c) for c in nb['cells'] if c['cell_type'] == 'code'), '')
    m = re.search(r'^(\w+)\s*=\s*Tutor(?:\.from_query)?\(', first, re.M)
    return m.group(1) if m else None

def probe_source(name:str) -> str:
    "A cell that reports the live panel's state after Run All."
    return (f"import json as _json\nprint({PROBE!r} + _json.dumps({{'seat': {name}.seat, 'to_act': {name}.match.to_act, "
            f"'hands': len({name}.match.hands), 'cursor': {name}.cursor, "
            f"'mine': [str(a) for _, s, a in {name}.match.actions if s == {name}.seat]}}))")

def run(path:Path, probe:str|None=None) -> tuple:
    "Execute the notebook at `path` in its folder (Run All); (the executed notebook, the probe's report or None)."
    import nbformat
    from nbclient import NotebookClient
    nb = nbformat.read(path, as_version=4)
    if probe: nb.cells.append(nbformat.v4.new_code_cell(probe))
    NotebookClient(nb, timeout=900, kernel_name='python3', resources={'metadata': {'path': str(path.parent)}}).execute()
    report = None
    if probe:
        cell = nb.cells.pop()
        said = ''.join(o.get('text', '') for o in cell.outputs if o.get('output_type') == 'stream')
        report = json.loads(said.split(PROBE, 1)[1]) if PROBE in said else None
    return json.loads(nbformat.writes(nb)), report

_RAN = {}
def ran(name:str) -> tuple:
    "The tutorial `name` run once per test session: (its notebook as written, as executed, the live panel's state)."
    if name not in _RAN:
        path = TUTORIALS/f'{name}.ipynb'
        src = json.loads(path.read_text(encoding='utf-8'))
        panel = panel_name(src)
        done, report = run(path, probe_source(panel) if panel else None)
        _RAN[name] = (src, done, report)
    return _RAN[name]


# ---------------------------------------------------------------- the checks, on a made-up notebook first

def _nb(*cells):
    made = []
    for kind, src, *outs in cells:
        c = {'cell_type': kind, 'metadata': {}, 'source': src}
        if kind == 'code': c.update(outputs=outs, execution_count=None)
        made.append(c)
    return {'cells': made}

def _html_out(h): return {'output_type': 'display_data', 'data': {'text/html': h, 'text/plain': '<HTML>'}, 'metadata': {}}

def test_the_checks_see_a_bad_tutorial():
    "Shown code, repeated result lines and the words of prose and outputs are all seen (so the real checks can fail)."
    log = '<div class="cgt-event">Seat 3 wins chaal 1 with the ace of spades and takes 11 points.</div>'
    nb = _nb(('markdown', '# Title\n> A [rulebook](../games/10_begga_kaat.ipynb) link, **bold** words.'),
             ('code', "tutor = Tutor('begga-kaat', seed=1)\ntutor", _html_out('<div class="cgt-seat"><b>Seat 1</b> has 13 cards in hand now, dealer</div>')),
             ('code', '#| hide\nimport re'),
             ('code', '#| echo: false\npicture(example)', _html_out(f'<div>{log}<p>Hand 1 is over.</p></div>')),
             ('code', '#| echo: false\npicture(example)', _html_out(log)),
             ('code', "print('x')", {'output_type': 'stream', 'name': 'stdout', 'text': 'Seat 3 wins chaal 1 with the ace.\n'}))
    assert [shows_code(c) for c in nb['cells'] if c['cell_type'] == 'code'] == [True, False, False, False, True]
    assert panel_name(nb) == 'tutor' and panel_name(_nb(('code', '#| hide\nimport os'))) is None
    words, lines = visible(nb)
    assert repeated(lines) == ['Seat 3 wins chaal 1 with the ace of spades and takes 11 points.']
    assert 'Seat 1 has 13 cards in hand now, dealer' not in lines  # a seat box is the drawing's label
    # 6 words of prose (no link target); the panel cell's 4 words of code (not `=`) and 9 of output; 14 + 4; 14; 1 + 8
    assert words == 6 + 4 + 9 + 18 + 14 + 9, words


# ---------------------------------------------------------------- each tutorial

@pytest.mark.parametrize('name', GAMES)
def test_a_tutorial_shows_no_code(name):
    "A reader of the site sees prose and pictures: every code cell is hidden or has its code folded away (echo: false)."
    cells = json.loads((TUTORIALS/f'{name}.ipynb').read_text(encoding='utf-8'))['cells']
    shown = [_src(c)[:80] for c in cells if c['cell_type'] == 'code' and shows_code(c)]
    assert not shown, f"{name}: code shown on the site: {shown}"

@pytest.mark.parametrize('name', GAMES + ('start',))
def test_the_built_page_shows_no_code(name):
    "The built page has no code block (the site `make test` has just built, or built here when it is stale)."
    out = fresh_site_or_fail()  # the site `make test` has just built, else built here
    page = (out/'tutorials'/f'{name}.html').read_text(encoding='utf-8')
    main = page[page.find('<main'):page.find('</main>')]
    assert 'cell-code' not in main and 'class="sourceCode' not in main, f"{name}: a code block on the built page"
    assert 'cell-output' in main or name == 'start'

@pytest.mark.parametrize('name', GAMES)
def test_the_live_panel_comes_first_and_stays_at_the_first_move(name):
    "The first code cell makes the learner's panel; Run All leaves it at the learner's first move, untouched."
    src, _, report = ran(name)
    assert panel_name(src), f"{name}: the first code cell makes no Tutor"
    assert report is not None, f"{name}: the live panel could not be read after Run All"
    assert report['mine'] == [], f"{name}: Run All played the learner's moves: {report['mine']}"
    assert report['to_act'] == report['seat'] and report['hands'] == 1 and report['cursor'] is None, report

@pytest.mark.parametrize('name', GAMES)
def test_a_tutorial_fits_a_sitting_and_repeats_no_output(name):
    "At most 1,500 words of prose and outputs (under ten minutes, issue 55); no line of output printed twice."
    _, done, _ = ran(name)
    words, lines = visible(done)
    print(f"{name}: {words} words")
    assert words <= MOST_WORDS, f"{name}: {words} words to read, more than {MOST_WORDS}"
    from cardgames_tutor.core.cards import PACKS
    bare = lambda text: ''.join(re.sub(r'<[^>]+>', '', text).split())  # spaces and marks aside
    keys = {bare(p.face_key) for p in PACKS.values()}  # a key to the cards' letters (Kočka's O and U) under every hand drawn, as a chart's legend is
    lines = [l for l in lines if bare(l) not in keys]
    assert not repeated(lines), f"{name}: output repeated: {repeated(lines)}"

@pytest.mark.parametrize('name', GAMES)
def test_a_tutorial_links_its_rulebook_and_the_start_page(name):
    md = '\n'.join(_src(c) for c in json.loads((TUTORIALS/f'{name}.ipynb').read_text(encoding='utf-8'))['cells'] if c['cell_type'] == 'markdown')
    targets = [t.split('#')[0] for _, t in LINK.findall(md)]
    assert any(re.fullmatch(rf'\.\./games/1\d_{name}\.ipynb', t) for t in targets), f"{name}: no link to its rulebook"
    assert 'start.ipynb' in targets, f"{name}: no link to the start page (the coach and the controls are told there)"
    for t in targets:
        if not re.match(r'[a-z]+:', t) and t: assert (TUTORIALS/t).resolve().exists(), f"{name}: broken link {t}"


# ---------------------------------------------------------------- the start page

def start_links() -> list:
    cells = json.loads((TUTORIALS/'start.ipynb').read_text(encoding='utf-8'))['cells']
    return [t for c in cells if c['cell_type'] == 'markdown' for _, t in LINK.findall(_src(c))]

def test_the_start_page_links_every_tutorial_rulebook_and_quick_reference():
    targets = {t.split('#')[0] for t in start_links()}
    games = sorted((ROOT/'nbs'/'games').glob('1[0-4]_*.ipynb'))
    assert len(games) == 5
    want = {f'{g}.ipynb' for g in GAMES} | {f'../games/{p.name}' for p in games} | {f'../quickref/{g}.ipynb' for g in GAMES}
    assert not want - targets, f"the start page does not link {sorted(want - targets)}"

def test_every_start_page_link_resolves():
    "From the start notebook's folder (as JupyterLab and the site resolve them), every relative link names a file."
    links = [t.split('#')[0] for t in start_links() if not re.match(r'[a-z]+:', t) and not t.startswith('#')]
    broken = [t for t in links if not (TUTORIALS/t).resolve().is_file()]
    assert links and not broken, broken

def test_the_start_page_shows_no_code():
    cells = json.loads((TUTORIALS/'start.ipynb').read_text(encoding='utf-8'))['cells']
    assert not [c for c in cells if c['cell_type'] == 'code' and shows_code(c)]

RUN_ALL = '(*Run ▸ Run All Cells*)'  # JupyterLab's menu, as the learner reads it

@pytest.mark.parametrize('name', ('start',) + GAMES)
def test_a_learner_page_says_how_to_run_it_in_jupyter(name):
    """The start page and each tutorial say, before its panel, how to make the panel live in JupyterLab (Run All
    Cells: tests/test_tutor_links.py does it in JupyterLab and the panel comes up); the learner's copy collapses the
    code (tools/learner_copy.py), so the words are all a learner has."""
    cells = json.loads((TUTORIALS/f'{name}.ipynb').read_text(encoding='utf-8'))['cells']
    panel = next(i for i, c in enumerate(cells) if c['cell_type'] == 'code' and 'Tutor' in _src(c) and not _src(c).startswith('#| hide'))
    said = [i for i, c in enumerate(cells) if c['cell_type'] == 'markdown' and RUN_ALL in _src(c) and 'Jupyter' in _src(c)]
    assert said and said[0] < panel, f"{name}: no '{RUN_ALL}' for Jupyter before the panel"

def test_the_review_numbers_a_decision_as_the_start_page_says():
    """The start page: the review names the hand and the move, as the panel writes it ("Hand 1: you played Q♥; the coach
    would rather play Q♦"), no action number; "move 18" counts every seat's moves in the match from the first deal, and
    *go to this moment* replays the 17 before it. So move number index + 1 of the match is the decision reviewed."""
    from cardgames_tutor.coach.search import review
    from cardgames_tutor.ui.panel import Tutor
    text = '\n'.join(_src(c) for c in json.loads((TUTORIALS/'start.ipynb').read_text(encoding='utf-8'))['cells'] if c['cell_type'] == 'markdown')
    assert 'Hand 1: you played Q♥; the coach would rather play Q♦' in text and 'move 18 of the match' in text and 'replays the 17 moves before it' in text
    assert not re.search(r'\baction \d', text)  # a learner counts moves
    t = Tutor('begga-kaat', seed=1)
    while len(t.match.hands) == 1: t.play_for_me()
    found = review(t.match, seat=0, hand_no=1, seed=1)
    assert found
    from cardgames_tutor.ui.coach_view import ReviewList
    rows = ReviewList(); rows.pack = t.game.pack; rows.show(found)
    first = html.unescape(re.sub(r'<[^>]+>', '', rows.children[1].children[0].value))
    assert first.startswith(f"1. Hand 1: you played {found[0].played.symbol}; the coach would rather play "), first  # as the page says it
    for x in found:
        assert t.match.actions[x.index] == (x.hand_no - 1, 0, x.played), x  # the move made after `index` moves
        again = t.match.replayed(t.match.actions[:x.index])
        assert again.to_act == 0 and x.played in again.legal_actions()  # going there: the decision is Seat 0's to make


if __name__ == '__main__':
    for name in sys.argv[1:] or GAMES:
        src, done, report = ran(name)
        words, lines = visible(done)
        print(f"{name}: {words} words, repeated: {repeated(lines)}, live panel: {report}")


# ---------------------------------------------------------------- the buttons a tutorial names are the panel's

def _buttons(widget, out:set) -> set:
    "The labels of the buttons in a widget tree (an arrow or play sign at either end dropped: 'next deal ▶' -> 'next deal')."
    import ipywidgets as W
    if isinstance(widget, W.Button): out.add(widget.description.strip(' ▶◀|'))
    for kid in getattr(widget, 'children', ()): _buttons(kid, out)
    return out

def panel_buttons(name:str) -> set:
    "Every button label the panel of game `name` shows over its first hand, played by the bot to that hand's end (its coach's too)."
    from cardgames_tutor.ui.panel import Tutor
    t, seen = Tutor(name.replace('_', '-'), seed=3), set()  # the coach asks nothing unless pressed
    while not t.match.hands[0].is_over:
        _buttons(t, seen); t.play_for_me()
    _buttons(t, seen); t.close()
    return seen

def test_every_button_a_tutorial_names_is_on_its_panel():
    """A tutorial's **bold** words that are a button of some game's panel are a button of its own game's panel: Dehla Pakad's
    panel says 'next deal' where the others say 'next hand' (and 'review this deal' for 'review this hand'), and its tutorial
    said 'press **next hand**' and '**review this hand** once a hand is over' (false there)."""
    shown = {g: panel_buttons(g) for g in GAMES}
    any_panel = set().union(*shown.values())
    for g in GAMES:
        cells = json.loads((TUTORIALS / f'{g}.ipynb').read_text(encoding='utf-8'))['cells']
        bold = {b for c in cells if c['cell_type'] == 'markdown' for b in re.findall(r'\*\*([^*]+)\*\*', _src(c))}
        wrong = {b for b in bold if b in any_panel and b not in shown[g]}
        assert not wrong, f"{g}: the tutorial names buttons its panel does not have: {sorted(wrong)}"
    assert any('next deal' in b for b in shown['dehla_pakad']) and 'next hand' in any_panel  # the words this test is about
    assert 'review this deal' in shown['dehla_pakad'] and 'review this hand' in any_panel - shown['dehla_pakad']


# ---------------------------------------------------------------- the Begga Kaat tutorial teaches what the coach says

def test_begga_kaat_tutorial_ducks_as_the_coach_hints():
    """'Following the colour' teaches ducking with the highest card below the winner and plays Q♠ under A♠ (seed 1).
    It said 2♠ before, while the panel's Hint at that moment said Q♠ and the hand's review marked 2♠ a mistake: the
    page, its example and the coach (the panel's seed and budget) now name the same card."""
    from cardgames_tutor.coach.search import hint
    from cardgames_tutor.ui.panel import Tutor
    cells = json.loads((TUTORIALS/'begga_kaat.ipynb').read_text(encoding='utf-8'))['cells']
    text = ' '.join('\n'.join(_src(c) for c in cells if c['cell_type'] == 'markdown').split())
    assert 'Duck with your **highest** card below that best card: here that is Q♠, under the ace.' in text
    assert "The coach's **Hint** says Q♠ here too. The example plays Q♠ under the ace" in text
    t = Tutor('begga-kaat', seed=1)
    assert [c.code for c in t.match.hand.trick] == ['4S', 'AS'] and t.match.to_act == 0  # the moment the page shows
    box = t.coach.hint_box  # the panel's own Hint: its view, seed and budget
    h = hint(box.get_view(), t.game, box.seed, box.budget)
    assert h.best.code == 'QS', h.best
    best = max(c.rank for c in t.match.hand.trick if c.suit == 'S')
    assert max((c for c in t.lit_cards() if c.rank < best), key=lambda c: c.rank).code == 'QS'  # the card the example clicks

def test_begga_kaat_tutorial_kaat_picture_reads_in_order():
    """The kaat picture showed the panel's message ('For you, the bot played Q♥ ...') under the log's chaal 6 lines,
    as if Q♥ went into chaal 6: the message answers the learner's move and stays while the bots play on. The picture
    now shows the log alone, so its lines run in the order the cards fell."""
    cells = json.loads((TUTORIALS/'begga_kaat.ipynb').read_text(encoding='utf-8'))['cells']
    kaat = next(i for i, c in enumerate(cells) if _src(c).startswith('## The kaat'))
    pic = _src(cells[kaat + 1])
    assert 'picture(example' in pic and 'message=True' not in pic, pic

def test_begga_kaat_tutorial_says_its_words_plainly():
    "'the best card takes them all, and a suit a colour' was garbled; the subtitle used 'chaal' before saying what it is."
    cells = json.loads((TUTORIALS/'begga_kaat.ipynb').read_text(encoding='utf-8'))['cells']
    text = ' '.join('\n'.join(_src(c) for c in cells if c['cell_type'] == 'markdown').split())
    assert 'and a suit a' not in text and 'A suit is called a **colour**.' in text
    first = text.lower().index('chaal')
    assert re.match(r"chaals? \(\*?tricks?\*?\)", text[first:]), text[first:first + 40]
