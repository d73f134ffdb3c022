"""A plugin analysis's summary is printed under --json as the JSON it holds, or refused in
one line naming the plugin and the analysis (round 19, F6: a generator, an object, a complex
number were printed by their repr, exit 0; keys 1 and "1" gave one JSON object two keys
"1"; round 24: keys np.float64(0.5) and "0.5" alike, NumPy's whole keys refused, durations
taken as numbers by their unit). What is refused is judged here by Python's json itself: strict (no NaN), nothing
made text, and an object whose keys it writes alike."""

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]
NUMBER = itertools.count()
ATOMS = ["1", "-2.5", "10**30", "float('nan')", "float('inf')", "'x'", "None", "True", "object()", "1j",
         "{1}", "b'x'", "range(2)", "Fraction(1, 3)", "np.int64(3)", "np.float32(0.5)", "np.array([1, 2])",
         "np.bool_(False)", "(i for i in ())", "Decimal('0.1')", "np.timedelta64(5)",
         "np.array([1, 2], dtype='m8[ns]')", "np.int64", "np.datetime64(1, 's')"]
KEYS = ["1", "'1'", "True", "'true'", "False", "None", "'null'", "1.0", "'1.0'", "(1, 2)", "'a'",
        "float('inf')", "np.int64(1)", "np.float64(0.5)", "'0.5'", "np.timedelta64(1, 'ns')", "np.True_"]
SOURCES = st.recursive(st.sampled_from(ATOMS), lambda inner: st.one_of(
    st.lists(inner, max_size=3).map(lambda items: "[" + ", ".join(items) + "]"),
    st.lists(inner, max_size=2).map(lambda items: "(" + "".join(f"{i}, " for i in items) + ")"),
    st.lists(st.tuples(st.sampled_from(KEYS), inner), max_size=3).map(
        lambda pairs: "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}")), max_leaves=6)
REFUSED = object()
NAMES = {"np": np, "Fraction": __import__("fractions").Fraction, "Decimal": __import__("decimal").Decimal}


def _json(value):
    """What strict JSON writes of ``value`` (NumPy's as the Python numbers and lists they
    hold, an infinity as null, as mdp documents), or REFUSED where it has no form for it."""

    def plain(v):
        if isinstance(v, (np.generic, np.ndarray)):  # a duration or a time: no number
            v = v.tolist() if v.dtype.kind not in "mM" else object()
        if isinstance(v, float) and math.isinf(v):
            return None
        if isinstance(v, (list, tuple)):
            return [plain(i) for i in v]
        return {key(k): plain(i) for k, i in v.items()} if isinstance(v, dict) else v

    def key(k):  # NumPy's number as the one it holds; an infinite key is refused
        return k.item() if isinstance(k, np.generic) and k.dtype.kind not in "mM" else k

    try:
        text = json.dumps(plain(value), allow_nan=False)
    except (TypeError, ValueError):
        return REFUSED
    pairs = []
    json.loads(text, object_pairs_hook=lambda items: pairs.append(items) or dict(items))
    return REFUSED if any(len({k for k, _ in items}) < len(items) for items in pairs) else json.loads(text)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(source=SOURCES)
@example(source="{np.float64(0.5): 1, '0.5': 2}").via("round 24: two keys alike")
@example(source="{np.int64(1): [np.timedelta64(5)], np.True_: np.int64}").via("round 24")
def test_a_summary_is_its_json_or_refused_naming_the_plugin(tmp_path_factory, capsys, source):
    where = tmp_path_factory.mktemp("summary")
    plugin = where / f"summ{next(NUMBER)}.py"
    plugin.write_text("from decimal import Decimal\nfrom fractions import Fraction\n\nimport numpy as np\n"
                      "import polars as pl\nimport mdp\n\n\n@mdp.hookimpl\ndef mdp_analyses():\n"
                      "    return [mdp.Analysis('s', 'a summary', lambda solution, game: pl.DataFrame({'a': [1]}),\n"
                      f"                         summary=lambda answer, solved: {source})]\n")
    expected = _json(eval(source, dict(NAMES)))  # noqa: S307  (the test's own text)
    code = main(["-p", str(plugin), "s", str(ROOT / "docs" / "examples" / "reroll.py"), "--json"])
    out, err = capsys.readouterr()
    if expected is REFUSED:
        assert code == 2 and out == "" and err.count("\n") == 1, (out, err)
        assert err.startswith(f"mdp: error: plugin {plugin}'s analysis s: its summary "), err
    else:
        assert code == 0 and json.loads(out) == expected, (out, err)


@pytest.mark.parametrize(("key", "said"), [("float('inf')", "inf, a float not finite"),
                                           ("float('nan')", "nan, a float not finite"),
                                           ("(1, 2)", "(1, 2), a tuple")])
def test_a_key_json_cannot_write_is_said_for_what_it_is(tmp_path, capsys, key, said):
    """An infinite key was "a key inf, a float; a key is text or a number", which a float is."""
    plugin = tmp_path / "keyed.py"
    plugin.write_text("import mdp\nimport polars as pl\n\n@mdp.hookimpl\ndef mdp_analyses():\n"
                      "    return [mdp.Analysis('s', 'a summary', lambda solution, game: pl.DataFrame({'a': [1]}),\n"
                      f"                         summary=lambda answer, solved: {{{key}: 1}})]\n")
    assert main(["-p", str(plugin), "s", str(ROOT / "docs" / "examples" / "reroll.py"), "--json"]) == 2
    assert f"has a key {said}; a key is text or a finite number" in capsys.readouterr().err
