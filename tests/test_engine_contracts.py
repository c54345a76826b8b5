"""Contracts: every view, result and standing of every game matches its TypedDict; views are copies; lazy event
text reads the same whenever it is read; playouts with and without text are the same; hands hold no reference cycles."""
import copy, gc, random
import pytest
from cardgames_tutor.core.cards import Card
from cardgames_tutor.core.contracts import check, MatchView
from cardgames_tutor.core.engine import deal_cards, Goal
from cardgames_tutor.core.options import BadOption
from cardgames_tutor.core.registry import games, get_game
from cardgames_tutor.core.match import Match, play_out, random_choice
from cardgames_tutor.core.records import to_record

VARIANTS = [(name, {'players': n}) if len(info.players) > 1 else (name, {})
            for name, info in games().items() for n in info.players]
IDS = [f"{n}-{o.get('players', '')}" for n, o in VARIANTS]


@pytest.mark.parametrize('name,options', VARIANTS, ids=IDS)
def test_views_results_standings_and_tallies_match_their_contracts(name, options):
    game = get_game(name, **options)
    c = game.contract
    match_view = type('MatchView', (c.view, MatchView), {})
    for seed in range(12):
        m, rng = Match(game, seed=seed), random.Random(seed)
        while not m.over and len(m.hands) <= 3:
            for seat in [None, *range(game.n_seats())]:
                v = m.view(seat)
                assert check(v, match_view) == [], (seat, m.hand.phase, check(v, match_view))
                assert isinstance(v['goal'], Goal) and v['goal'] == game.goal
                fast = m.view(seat, text=False)
                assert 'events' not in fast and {**fast, 'events': v['events']} == v
            m.apply(rng.choice(m.legal_actions()))
        for h in m.hands:
            if h.result: assert check(h.result, c.result) == [], check(h.result, c.result)
        assert check(m.standing, c.standing) == [], check(m.standing, c.standing)
        label, values = game.tally(m.standing)
        assert label == c.tally.label and len(values) == game.n_seats() and all(isinstance(x, c.tally.value) for x in values)


def _scribble(x, depth=0):
    "Change everything that can be changed in `x`, all the way down."
    if depth > 6: return
    if isinstance(x, dict):
        for k in list(x):
            _scribble(x[k], depth + 1)
            x[k] = 'scribbled'
        x['new key'] = 1
    elif isinstance(x, list):
        for v in x: _scribble(v, depth + 1)
        x.append('scribbled'); x.reverse()
    elif isinstance(x, set): x.add('scribbled')


@pytest.mark.parametrize('name,options', VARIANTS, ids=IDS)
def test_writing_into_a_view_changes_nothing(name, options):
    for seed in range(6):
        m, rng = Match(get_game(name, **options), seed=seed), random.Random(seed)
        while not m.over and len(m.hands) <= 2:
            before = ([m.view(s) for s in [None, *range(m.game.n_seats())]], copy.deepcopy(m.standing),
                      to_record(m), [copy.deepcopy(h.result) for h in m.hands], m.legal_actions())
            for s in [None, *range(m.game.n_seats())]:
                _scribble(m.view(s)); _scribble(m.view(s, text=False))
            after = ([m.view(s) for s in [None, *range(m.game.n_seats())]], copy.deepcopy(m.standing),
                     to_record(m), [copy.deepcopy(h.result) for h in m.hands], m.legal_actions())
            assert after == before
            m.apply(rng.choice(m.legal_actions()))


@pytest.mark.parametrize('name,options', VARIANTS, ids=IDS)
def test_event_text_reads_the_same_at_once_and_later(name, options):
    "Lazy event text must use only values fixed when the event was logged."
    game = get_game(name, **options)
    for seed in range(8):
        eager, lazy = Match(game, seed=seed), Match(game, seed=seed)
        rng, said = random.Random(seed), []
        while not eager.over and len(eager.hands) <= 3:
            a = rng.choice(eager.legal_actions())
            eager.apply(a); lazy.apply(a)
            said = [e.text for e in eager.events()]  # read now, each time
        assert [e.text for e in lazy.events()] == said  # read only at the end
        assert [e.rule for e in lazy.events()] == [e.rule for e in eager.events()]


@pytest.mark.parametrize('name,options', VARIANTS, ids=IDS)
def test_playouts_with_and_without_text_are_the_same(name, options):
    game = get_game(name, **options)
    for seed in range(5):
        with_text = play_out(Match(game, seed=seed), rng=random.Random(seed))
        without = play_out(Match(game, seed=seed), rng=random.Random(seed), text=False)
        assert with_text.actions == without.actions and with_text.standing == without.standing
        assert [h.result for h in with_text.hands] == [h.result for h in without.hands]


@pytest.mark.parametrize('name,options', VARIANTS, ids=IDS)
def test_finished_hands_are_freed_without_the_garbage_collector(name, options):
    "No reference cycles in a hand (lazy texts keep no link to it): bots' playouts stay cheap."
    game, rng = get_game(name, **options), random.Random(4)
    gc.collect(); gc.disable()
    try:
        for k in range(10):
            hand = game.new_hand(deal_cards(game, rng), k % game.n_seats())
            while not hand.is_over: hand.apply(rng.choice(hand.legal_actions()))
            [e.text for e in hand.events]
        del hand
        assert gc.collect() == 0
    finally: gc.enable()


def test_registry():
    info = games()
    assert list(info) == ['begga-kaat', 'beggars-and-thieves', 'dehla-pakad', 'kocka', 'maghe-satra']
    for name, gi in info.items():
        assert gi.cls.name == name and gi.title and gi.direction in ('clockwise', 'counterclockwise')
        for n in range(1, 9):  # the listed player counts are exactly those the game accepts
            try: g = gi.cls(players=n) if 'players' in {o.name for o in gi.cls.OPTIONS} else gi.cls()
            except BadOption: assert n not in gi.players; continue
            assert g.n_seats() in gi.players
    with pytest.raises(BadOption, match="unknown game 'chess': the games are begga-kaat, beggars-and-thieves"):
        get_game('chess')


@pytest.mark.parametrize('name,option,value,words', [
    ('begga-kaat', 'target', 1001, 'from 100 to 1000'), ('beggars-and-thieves', 'target', 10 ** 5000, 'from 1 to 1000'),
    ('maghe-satra', 'target', 1001, 'from 1 to 1000'), ('kocka', 'word', 'K' * 21, '1 to 20 letters')], ids=['begga', 'thieves-huge', 'maghe', 'kocka'])
def test_options_have_upper_bounds_said_in_one_line(name, option, value, words):
    with pytest.raises(BadOption) as e: get_game(name, **{option: value})
    text = str(e.value)
    assert words in text and len(text) < 300 and '\n' not in text


@pytest.mark.parametrize('name,options', VARIANTS, ids=IDS)
def test_every_game_states_what_the_layers_above_ask(name, options):
    "A game (each variant) says its own contract, the keys a start may set, its quick reference and the rows of `help`."
    from cardgames_tutor.core.contracts import Contract, Row, start_standing
    game = get_game(name, **options)
    c = game.contract
    assert isinstance(c, Contract) and c.start and set(c.start) <= set(game.new_standing()), c
    assert check(game.new_standing(), c.standing) == []
    assert start_standing(game, {}) == game.new_standing()  # an empty start is the usual one
    rows = game.quickref_rows()
    assert rows and all(isinstance(r, Row) for r in rows) and game.help_rows({'phase': 'play'})
    assert set(game.help_rows({'phase': 'play'})) <= set(rows)
