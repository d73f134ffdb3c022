"""A game's readable columns reach every table exactly or not at all: each value a game
gives (Python or numpy scalars of any integer type, mixed) is kept as it was given, or as
its exact text, or the column is refused with one line naming the game; Polars never makes
a given value null without a word (np.int64 beside np.uint64 did)."""

from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp
from mdp.game.cells import to_frame

INTS = st.integers(-(2**63), 2**64 - 1)
NUMPY_INTS = st.one_of(*(st.integers(int(np.iinfo(t).min), int(np.iinfo(t).max)).map(t)
                         for t in (np.int8, np.uint8, np.int32, np.uint32, np.int64, np.uint64)))
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(2**130), 2**130), NUMPY_INTS,
                    st.floats(allow_nan=False), st.text(max_size=5), st.fractions())
REFUSED = st.one_of(st.binary(max_size=3), st.complex_numbers(allow_nan=False),
                    st.tuples(st.integers()), st.just(np.array(5)), st.builds(object))


def _kept(out, given):
    """The table's ``out`` is ``given``, or its exact text."""
    given = given.item() if isinstance(given, np.generic) else given
    if given is None:
        return out is None
    if isinstance(out, str) and not isinstance(given, str):
        if isinstance(given, bool):
            return out.lower() == str(given).lower()
        if isinstance(given, float):  # text as Python writes the float, read back the same
            return float(out) == given
        return Fraction(out) == Fraction(given)
    if isinstance(given, Fraction):  # a fraction is its exact text, a whole one its int
        return Fraction(out) == given
    return out == given and (isinstance(given, bool) or not isinstance(out, bool))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(SCALARS, min_size=1, max_size=6))
def test_every_value_given_is_kept_or_the_column_refused(values):
    try:
        frame = to_frame({"c": values}, "game g")
    except mdp.ModelError as error:
        assert str(error).startswith("game g: column 'c'")
        return
    assert all(_kept(out, v) for out, v in zip(frame["c"].to_list(), values, strict=True)), \
        (values, frame["c"].to_list())


@settings(max_examples=100, deadline=None)
@given(st.lists(SCALARS, max_size=4), REFUSED, st.lists(SCALARS, max_size=4))
def test_a_value_no_table_holds_is_refused(before, value, after):
    with pytest.raises(mdp.ModelError, match=r"^game g: column 'c' holds .* at row "):
        to_frame({"c": [*before, value, *after]}, "game g")


def test_an_array_of_two_dimensions_or_of_bytes_is_refused():
    for values in (np.zeros((2, 2)), np.array([b"a", b"b"])):
        with pytest.raises(mdp.ModelError, match=r"^game g: column 'c' is a .*numpy array"):
            to_frame({"c": values}, "game g")


def _coin(codes):
    """A start state that ends at 'H', 'T' or 'M', each code in ``codes`` (by state) its
    column 'code'."""
    def mdp_initial_state():
        return "S"

    def mdp_actions(state):
        return ["flip"] if state == "S" else []

    def mdp_outcomes(state, action):
        return [(Fraction(1, 3), end) for end in "HTM"]

    def mdp_terminal_value(state):
        return "HTM".index(state)

    def mdp_state_columns(state):
        return {"code": codes[state]}

    def mdp_outcome_columns():
        return ["code"]

    hooks = (mdp_initial_state, mdp_actions, mdp_outcomes, mdp_terminal_value,
             mdp_state_columns, mdp_outcome_columns)
    return mdp.load_game(SimpleNamespace(
        GAME_NAME="coin", **{f.__name__: mdp.hookimpl(f) for f in hooks}))


@settings(max_examples=30, deadline=None)
@given(st.tuples(NUMPY_INTS, NUMPY_INTS, NUMPY_INTS, NUMPY_INTS))
def test_numpy_integers_of_any_types_reach_terminals_and_outcomes_exactly(codes):
    """np.int64(-1) beside np.uint64(2**64 - 1) was null in model.terminals, and the
    chance of each outcome was lost with it."""
    game = _coin(dict(zip("SHTM", codes, strict=True)))
    model = mdp.compile(game)
    terminals = dict(zip(model.terminals["value"].to_list(), model.terminals["code"].to_list()))
    assert {v: int(c) for v, c in terminals.items()} == {0: int(codes[1]), 1: int(codes[2]),
                                                         2: int(codes[3])}
    chances = mdp.solve(model, exact=True).chances(game)
    expected: dict[int, Fraction] = {}
    for code in codes[1:]:
        expected[int(code)] = expected.get(int(code), Fraction(0)) + Fraction(1, 3)
    assert {int(c): Fraction(e) for c, e in zip(chances["code"].to_list(),
                                                chances["exact"].to_list(), strict=True)} == expected


CONTAINERS = st.sampled_from(["list", "tuple", "array", "generator", "str", "dict", "set"])


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(["a", "b"]), st.tuples(CONTAINERS, st.integers(0, 4)),
                       max_size=2), st.integers(0, 4))
def test_a_game_s_columns_are_lists_of_one_value_per_row_or_refused(given_columns, rows):
    """What mdp_columns or mdp_round_columns returns is a non-empty dict of lists or arrays,
    one value a row: no columns at all, a generator, a set (no order), a str or a column of another length is
    one line naming the game and its hook (a generator was a TypeError traceback, no columns
    a Polars one)."""
    from mdp.game.columns import _checked

    def made(kind, n):
        values = list(range(n))
        return {"list": values, "tuple": tuple(values), "array": np.array(values, dtype=np.int64),
                "generator": (v for v in values), "str": "x" * n, "dict": dict.fromkeys(values),
                "set": set(values)}[kind]

    columns = {name: made(*how) for name, how in given_columns.items()}
    sized = all(kind in ("list", "tuple", "array") for kind, _ in given_columns.values())
    fine = given_columns and sized and all(n == rows for _, n in given_columns.values())
    game = SimpleNamespace(name="g")
    if fine:  # (copied as they are read: the same values, not the same objects)
        got = _checked(game, columns, rows, hook="mdp_round_columns")
        assert {k: list(v) for k, v in got.items()} == {k: list(v) for k, v in columns.items()}
    else:
        with pytest.raises(mdp.ModelError, match=r"^game g: mdp_round_columns (returned no columns|"
                           r"gave column '\w' as \w+; a column is a list|gave \d+ values in column)"):
            _checked(game, columns, rows, hook="mdp_round_columns")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from([0, 1, "a", None, float("nan")]), min_size=4, max_size=4),
       st.lists(st.sampled_from([0, 1]), min_size=4, max_size=4))
def test_round_columns_name_each_round_state_or_are_refused(first, second):
    """The columns of a round state name it (tables show them, mdp advise reads them back):
    two round states of the same columns (NaN the same as NaN, as printed) are refused,
    naming both; mdp advise answered "several round states have filled='same'; name one
    by its columns filled (e.g. the first: filled=same)", the very input it refused."""
    from models import two_boxes

    from mdp.game.columns import round_columns

    @mdp.hookimpl
    def mdp_round_columns(states):
        return {"x": [first[k] for k in states.tolist()], "y": [second[k] for k in states.tolist()]}

    game = two_boxes(mdp_round_columns=mdp_round_columns)
    keys = np.arange(4)
    rows = [repr((a, b)) for a, b in zip(first, second, strict=True)]
    if "a" in first and any(isinstance(v, (int, float)) for v in first):  # text beside numbers
        with pytest.raises(mdp.ModelError, match=r"^game two-boxes: column 'x' holds (text|numbers)"):
            round_columns(game, keys, [])
    elif len(set(rows)) == 4:
        assert round_columns(game, keys, []) == {"x": first, "y": second}
    else:
        twice = next(r for r in rows if rows.count(r) > 1)
        a, b = [k for k, r in enumerate(rows) if r == twice][:2]
        with pytest.raises(mdp.ModelError, match=rf"^game two-boxes: mdp_round_columns gives round "
                           rf"states {a} and {b} the same columns \(x="):
            round_columns(game, keys, [])
