"""The published schema of hand records (`core.records.record_schema`, issue 37): every shipped exercise, every
seeded record of every game and variant, and every damaged record the loader accepts validates against it; most of
those it refuses fail validation too (the rest need a replay to tell: an unknown card, an illegal action)."""
import copy, json, random
import pytest
from hypothesis import given, settings, HealthCheck, strategies as st
from jsonschema import Draft202012Validator
from cardgames_tutor.core.registry import games
from cardgames_tutor.core.records import record_schema, to_record, save, load, RecordError
from cardgames_tutor.practice.exercises import EXERCISES
from record_fuzz import VARIANTS, base_records, mutated, played, try_load
from test_fuzz_records import json_values

VALID = Draft202012Validator(record_schema())

def valid(data) -> bool:
    "Whether `data` is valid (a number too long for Python to write in the validator's message is invalid anyway)."
    try: return VALID.is_valid(data)
    except ValueError: return False

def json_of(source):
    "The JSON value of a damaged record as any JSON reader sees it (None: not JSON at all)."
    if isinstance(source, dict): return source
    try: return json.loads(source.decode('utf-8-sig') if isinstance(source, bytes) else source.lstrip('\ufeff'))
    except (ValueError, RecursionError): return None

def test_the_schema_is_a_draft_2020_12_schema_naming_every_game():
    schema = record_schema()
    Draft202012Validator.check_schema(schema)
    assert schema['$schema'] == 'https://json-schema.org/draft/2020-12/schema'
    assert schema['properties']['game']['enum'] == list(games())
    assert json.loads(json.dumps(schema)) == schema  # plain JSON, as published
    assert record_schema() is not schema and record_schema() == schema

@pytest.mark.parametrize('name', list(EXERCISES))
def test_every_shipped_exercise_is_valid(name):
    errors = [e.message for e in VALID.iter_errors(EXERCISES[name].record)]
    assert not errors, errors

@pytest.mark.parametrize('name, options', VARIANTS, ids=[f"{n}{o}" for n, o in VARIANTS])
def test_saved_records_of_every_variant_are_valid(name, options, tmp_path):
    for seed, n_actions in ((1, 5), (2, None)):
        match = played(name, options, seed, n_actions)
        data = json.loads(save(match, tmp_path / 'record.json').read_text(encoding='utf-8'))
        assert not [e.message for e in VALID.iter_errors(data)]
        assert VALID.is_valid(to_record(load(data)))  # and what a replay of it saves
        no_seed = copy.deepcopy(data) | {'seed': None}  # deals written out: no seed needed
        assert valid(no_seed) and to_record(load(no_seed))['hands'] == data['hands']

def test_the_schema_refuses_what_the_loader_refuses_for_its_shape():
    "One break of each rule of shape: the loader refuses it, and the schema too (so this test fails if either stops)."
    rec = to_record(played('kocka', {'word': 'KO'}, 3, 6))
    hand = rec['hands'][0]
    breaks = [{**rec, 'format': 'x'}, {**rec, 'version': 2}, {**rec, 'extra': 1}, {**rec, 'game': 'snap'},
              {**rec, 'options': {'word': 3}}, {**rec, 'options': {'colour': 'red'}}, {**rec, 'seed': 2.5},
              {**rec, 'seed': '7'}, {**rec, 'hands': []}, {**rec, 'hands': [hand | {'dealer': True}]},
              {**rec, 'hands': [hand | {'actions': ['call ³']}]}, {**rec, 'hands': [hand | {'actions': 'AS'}]},
              {**rec, 'hands': [hand | {'deal': {'hands': [[1]]}}]}, {**rec, 'hands': [hand | {'x': 1}]},
              {**rec, 'start': {'note': 4}}, {**rec, 'start': {'x': 1}}, {**rec, 'note': 'x' * 2001},
              {**rec, 'seed': None, 'hands': [{k: v for k, v in hand.items() if k != 'deal'}]},
              {**rec, 'seed': None, 'hands': [{k: v for k, v in hand.items() if k != 'dealer'}]}]
    for bad in breaks:
        with pytest.raises(RecordError): load(bad)
        assert not valid(bad), breaks.index(bad)
    assert valid(rec)

def agreement(n:int=2000, seed:int=16) -> dict:
    "How the loader and the schema judge `n` damaged records: (loader's outcome, valid) -> count; not JSON counts as refused."
    rng, table = random.Random(seed), {}
    for _ in range(n):
        kind, source = mutated(rng)
        outcome = try_load(source)[0]
        data = json_of(source)
        key = (outcome, data is not None and valid(data))
        table[key] = table.get(key, 0) + 1
    return table

def test_damaged_records_the_loader_accepts_are_valid_and_most_it_refuses_are_not():
    table = agreement()
    assert set(o for o, _ in table) <= {'ok', 'refused'}, table
    assert table.get(('ok', False), 0) == 0, table  # the schema is never stricter than the loader
    refused = table.get(('refused', True), 0) + table.get(('refused', False), 0)
    assert table.get(('ok', True), 0) > 100 and table.get(('refused', False), 0) > 0.45 * refused, table

@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10 ** 6), json_values, st.sampled_from(['anywhere', 'note', 'summary']))
def test_any_json_the_loader_accepts_is_valid(pick, value, where):
    "Any JSON value put anywhere in a real record, or as its note or summary (kept, not read): if the loader accepts it, so does the schema."
    rec = copy.deepcopy(base_records()[pick % len(base_records())])
    spots, stack = [(rec, where)], [rec]
    while stack and where == 'anywhere':
        x = stack.pop()
        for k, v in (x.items() if isinstance(x, dict) else enumerate(x) if isinstance(x, list) else ()):
            spots.append((x, k)); stack.append(v)
    parent, key = spots[pick % (len(spots) - 1) + 1] if where == 'anywhere' else spots[0]
    parent[key] = value
    if try_load(rec)[0] == 'ok': assert valid(rec), [e.message for e in VALID.iter_errors(rec)][:3]

def test_the_limits_are_the_loaders_to_the_edge():
    "Nesting, digits and text length: at the loader's limit both accept, one past it both refuse."
    from cardgames_tutor.core.records import MAX_DEPTH, MAX_DIGITS, MAX_TEXT
    rec = to_record(played('dehla-pakad', {}, 4, 3))
    deep = lambda n: 'x' if n == 0 else [deep(n - 1)]
    for fine, bad in [(deep(MAX_DEPTH - 1), deep(MAX_DEPTH)), (10 ** MAX_DIGITS - 1, 10 ** MAX_DIGITS),
                      (-(10 ** MAX_DIGITS - 1), -(10 ** MAX_DIGITS)), ('x' * MAX_TEXT, 'x' * (MAX_TEXT + 1))]:
        assert try_load(rec | {'note': fine})[0] == 'ok' and valid(rec | {'note': fine})
        assert try_load(rec | {'note': bad})[0] == 'refused' and not valid(rec | {'note': bad})
