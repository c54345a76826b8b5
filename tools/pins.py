"""What a user sees, written out (issue 48, item 5): seeded deals, legal actions, verdicts on tries, events, views,
drill sets, first-move hints, the terminal's legend, typing and header, `cardgames-tutor play/replay/drill` output and the
panel's values, for every registered game and size. Run it on the commit before a refactor and after it, then diff:
    python tools/pins.py > after.txt   (in a checkout of the older commit: before.txt)   diff before.txt after.txt
Deterministic: the same commit writes the same text every time (hints are budgeted in work, not seconds)."""
import json, os, random, subprocess, sys, tempfile
from cardgames_tutor.core.engine import deal_cards
from cardgames_tutor.core.registry import games, get_game
from cardgames_tutor.core.match import Match
from cardgames_tutor.practice.drills import drill_set, drill_rules, tries
from cardgames_tutor.coach.search import hint_text
from cardgames_tutor.term import terminal
out, SAVES = [], tempfile.mkdtemp()
w = out.append
CASES = [(n, {'players': p} if len(info.players) > 1 else {}) for n, info in games().items() for p in info.players]
for name, opts in CASES:
    g = get_game(name, **opts)
    for s in range(3):
        rng = random.Random(s)
        deal = deal_cards(g, rng)
        w(f"== {name} {opts} seed {s} deal {sorted((k, str(v)) for k, v in deal.items())}")
        hand = g.new_hand(deal, s % g.n_seats())
        while not hand.is_over:
            legal = hand.legal_actions()
            w(f"legal {[str(a) for a in legal]} help {hand.action_help()}")
            w(f"tries {[ (x, str(a), str(hand.explain(a, x))) for x, a in tries(hand, random.Random(len(hand.history)))][:60]}")
            hand.apply(g.bot(hand.view(hand.to_act), rng))
        w('events ' + json.dumps([e.text for e in hand.events], ensure_ascii=False))
        w('view0 ' + json.dumps(hand.view(0), default=str, ensure_ascii=False))
for name in games():
    w(f"== drills {name} {drill_rules(name)}")
    for q in drill_set(name, count=12, seed=3): w(repr(q))
# hints on the first positions (budget counted as work)
for name, opts in CASES:
    g = get_game(name, **opts); m = Match(g, seed=5)
    h = m.hand
    w(f"== hint {name} {opts}\n" + hint_text(h.view(h.to_act), g, seed=1, budget=0.05))
# terminal helpers
for name in games():
    g = get_game(name)
    w(f"== term {name}\n{terminal.legend_text(g.pack)}\n{terminal.typing_text(g)}\n{terminal.header_text(g, 3, 0)}\n{terminal.notation_table(g.pack, cards=g.deck())}")
    said = getattr(terminal, 'in_card_words', None) or terminal.read_cards  # (its name before issue 48)
    w(said(f"play {' '.join(c.code for c in g.deck()[:5])} and 10H QS", g.pack))
# CLI
def cli(*args, stdin=''):
    r = subprocess.run([sys.executable, '-m', 'cardgames_tutor.term.cli', *args], input=stdin, capture_output=True, text=True, timeout=300)
    return f"$ {' '.join(args)} -> {r.returncode}\n{r.stdout}\n{r.stderr}".replace(SAVES, '<saves>')  # the same text wherever it runs
for name, opts in CASES:
    sv = os.path.join(SAVES, f"{name}_{opts.get('players')}.json")
    w(cli('play', name, *(['--players', str(opts['players'])] if opts else []), '--seed', '4', '--bots', 'all', '--save', sv, stdin='\n' * 200))
    w(cli('replay', sv))
w(cli('play', 'begga-kaat', '--seed', '2', stdin='help\n11H\nxx\n2C\nquit\n'))
w(cli('play', 'kocka', '--seed', '2', stdin='help\npass QS 6H 11L\nquit\n'))
w(cli('drill', 'kocka', '--count', '3', '--seed', '1', stdin='1\n2\n1\n'))
w(cli('drill', 'nope'))
w(cli('play', 'nope'))
# panel values
from cardgames_tutor.ui.panel import Tutor
for name in games():
    t = Tutor(name, seed=3)
    vals = []
    for k, v in sorted(vars(t).items()):
        if hasattr(v, 'value') and isinstance(getattr(v, 'value'), (str, int, float)): vals.append((k, v.value))
    w(f"== panel {name} {vals}")
t = Tutor(); w(f"== panel default {t.session.game.name}")
sys.stdout.write('\n'.join(map(str, out)))
