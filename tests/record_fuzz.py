"""Mutated hand records, for the fuzz tests (tests/test_fuzz_records.py) and the long run (bench/fuzz_records.py).

`base_records()` are real records (whole and part-played matches of every game and variant); `mutate` damages one
as a careless or hostile user would (in its values, its JSON text, or its bytes); `try_load` loads it and says how
that went: 'ok', 'refused' (a `RecordError`), or the class of any other exception (a failure)."""
import copy, json, random, time
from cardgames_tutor.core.registry import get_game
from cardgames_tutor.core.match import Match, random_choice
from cardgames_tutor.core.records import to_record, load, RecordError

# every game and variant, with targets that keep matches short
VARIANTS = [('begga-kaat', {'players': 3}), ('begga-kaat', {'players': 4}), ('dehla-pakad', {}),
            ('maghe-satra', {'players': 3, 'target': 3}), ('maghe-satra', {'players': 7, 'target': 2}),
            ('beggars-and-thieves', {'players': 5, 'target': 8}), ('beggars-and-thieves', {'players': 4, 'target': 8}),
            ('beggars-and-thieves', {'players': 3, 'target': 8, 'silent_alone_bonus': False}),
            ('beggars-and-thieves', {'players': 2, 'target': 80}),
            ('kocka', {'word': 'KO'}), ('kocka', {'word': 'KOČKA', 'early_end': False})]

def played(name, options, seed, n_actions=None) -> Match:
    "A match of the variant from `seed`, every seat choosing at random, stopped after `n_actions` (None: at the end)."
    m, rng = Match(get_game(name, **options), seed=seed), random.Random(seed)
    while not m.over and (n_actions is None or len(m.actions) < n_actions):
        m.apply(random_choice(m.view(m.to_act), rng))
    return m

_BASE = []
def base_records() -> list:
    "Valid records of every variant: part-played (one to two hands) and, for the short games, whole matches."
    if not _BASE:
        for i, (name, options) in enumerate(VARIANTS):
            for seed in range(3):
                _BASE.append(to_record(played(name, options, 100 * i + seed, n_actions=random.Random(seed).randrange(1, 80))))
            if name in ('maghe-satra', 'kocka'): _BASE.append(to_record(played(name, options, 100 * i + 7)))
    return _BASE

DEEP = 'x'
for _ in range(60): DEEP = [DEEP]
NASTY = [None, True, False, 0, -1, 7, 4.0, 1e308, -0.5, 10 ** 5000, -(10 ** 40), '', ' ', '9' * 5000, 'x' * 100_000,
         '٣', '³', '²', 'call ٣', 'call ³', 'T¹⁴', 'call 14', 'pass ٧H', '\ud800', '\x00', 'AS\nKS', '♠', 'A♠', '🍃',
         'AS KS QS JS', [], {}, [None], ['AS'], {'': None}, {'a': [1, 2]}, DEEP, [0] * 10_000, {'T14': [4]},
         {'T14': None}, {'T14': {'x': 1}}, {'T14': 4.5}, 'T14=4', 'begga-kaat', 'kocka', 'cardgames-tutor-record']

def _paths(x, path=()):
    yield path
    if isinstance(x, dict):
        for k, v in x.items(): yield from _paths(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x): yield from _paths(v, path + (i,))

def _at(x, path):
    for k in path: x = x[k]
    return x

ACTIONS = ['call ٣', 'call ³', 'call ¹⁴', 'call 14', 'call 99', 'call T14', 'call', 'pick', 'pass', 'beg', 'trump ♥',
           'trump', 'bury T¹ T²', 'pass ٧H ٨H ٩H', '１０H', 'ⅫS', '10♥', 'q♥', 'AS AS', 'AS,KS', 'x' * 2000, '9' * 1999]

def _action_spot(rec, rng):
    "A place holding an action, if the record still has one."
    spots = [(h['actions'], i) for h in rec.get('hands', []) if isinstance(h, dict) and isinstance(h.get('actions'), list)
             for i in range(len(h['actions']))] if isinstance(rec.get('hands'), list) else []
    if not spots: return None
    parent, key = rng.choice(spots)
    return None, parent, key, parent[key]

def _mutate_value(rec, rng):
    "Damage one place in the record (a value replaced, removed or added, a list reordered, a text or number changed)."
    paths = list(_paths(rec))[1:]
    if not paths: return rec
    path = rng.choice(paths)
    parent, key, value = _at(rec, path[:-1]), path[-1], _at(rec, path)
    op = rng.randrange(9)
    if op == 8: path, parent, key, value = _action_spot(rec, rng) or (path, parent, key, value)
    if op == 0: parent[key] = copy.deepcopy(rng.choice(NASTY))
    elif op == 1: del parent[key]
    elif op == 2 and isinstance(value, dict): value[rng.choice(['extra', 'deal', 'dealer', 'actions', 'seed', 'x' * 300])] = copy.deepcopy(rng.choice(NASTY))
    elif op == 3 and isinstance(value, list) and value:
        i, j = rng.randrange(len(value)), rng.randrange(len(value))
        rng.choice([lambda: value.__setitem__(i, value[j]), lambda: value.insert(i, value[j]), lambda: value.reverse(),
                    lambda: value.__delitem__(slice(i, None))])()
    elif op == 4 and isinstance(value, str):
        i = rng.randrange(len(value) + 1)
        parent[key] = value[:i] + rng.choice(['٣', '³', '0', '1', '14', ' ', 'x', '\n', '♥', '=', ',', '', '-']) + value[i + 1:]
    elif op == 5 and isinstance(value, int) and not isinstance(value, bool):
        parent[key] = rng.choice([value + 1, value - 1, -value, value * 1000, float(value), str(value), bool(value)])
    elif op == 6 and isinstance(parent, dict):
        parent[key] = rng.choice([[value], {'v': value}, str(value), None])
    elif op == 8: parent[key] = rng.choice(ACTIONS)
    else:  # a record a teacher shortened
        hand = rng.choice(rec['hands']) if isinstance(rec.get('hands'), list) and rec['hands'] else None
        if isinstance(hand, dict): hand.pop(rng.choice(['deal', 'dealer', 'actions']), None)
    return rec

_TEXT_NASTY = ['[' * 100_000, '{"a":' * 50_000, '9' * 5000, '-' + '9' * 5000, '1e999', '1.5', 'NaN', '-Infinity', 'true',
               'null', '"', '\\', '\\u00', '\ufeff', '\ud800', ']]]]', '}', ',', '"x": 1,', '0' * 31]

def _mutate_text(text, rng):
    "Damage the record's JSON text: cut it, splice text in, or put a long number or deep brackets in it."
    i = rng.randrange(len(text) + 1)
    op = rng.randrange(5)
    if op == 0: return text[:i]
    if op == 1: return text[:i] + text[i + rng.randrange(1, 50):]
    if op == 2: return text[:i] + rng.choice(_TEXT_NASTY) + text[i:]
    if op == 3:  # a number swapped for a huge one
        spots = [j for j in range(1, len(text)) if text[j].isdigit() and not text[j - 1].isalnum() and text[j - 1] != '"']
        j = rng.choice(spots) if spots else i
        return text[:j] + '9' * rng.choice([31, 500, 5000, 100_000]) + text[j:]
    return '\ufeff' + text if rng.random() < 0.5 else '[' * rng.choice([9, 1000, 100_000]) + text + ']' * rng.choice([0, 9, 1000])

def _mutate_bytes(data, rng):
    "Damage the record's bytes: bytes that are not UTF-8, a byte-order mark, or a cut in the middle of a character."
    i = rng.randrange(len(data) + 1)
    return rng.choice([data[:i] + bytes([rng.randrange(128, 256)]) + data[i:], b'\xef\xbb\xbf' + data,
                       data[:i] + 'é'.encode()[:1] + data[i:], data.decode().encode('utf-16'), data[:i]])

def mutated(rng):
    "One damaged record: a dict, a JSON text or bytes (an upload), and what kind of damage it has."
    rec = copy.deepcopy(rng.choice(base_records()))
    kind = rng.choices(['value', 'values', 'text', 'bytes'], [5, 2, 3, 1])[0]
    if kind == 'value': return kind, _mutate_value(rec, rng)
    if kind == 'values':
        for _ in range(rng.randrange(2, 6)): rec = _mutate_value(rec, rng)
        return kind, rec
    text = json.dumps(rec, ensure_ascii=False, indent=rng.choice([None, 1]))
    if kind == 'text': return kind, _mutate_text(text, rng)
    return kind, _mutate_bytes(text.encode(), rng)

def try_load(source) -> tuple:
    "Load `source`: (outcome, message, seconds); outcome 'ok', 'refused' (one-line `RecordError`), or a failure's class name."
    before = copy.deepcopy(source) if isinstance(source, dict) else None
    start = time.perf_counter()
    try: load(source); outcome, message = 'ok', ''
    except RecordError as e: outcome, message = 'refused', str(e)
    except Exception as e: outcome, message = type(e).__name__, str(e)[:200]
    seconds = time.perf_counter() - start
    if outcome == 'refused' and ('\n' in message or len(message) >= 300 or not message): outcome = 'bad message'
    if before is not None and source != before: outcome = 'changed the dict'
    return outcome, message, seconds
