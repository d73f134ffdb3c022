"""A number a game gives is taken by its exact value, whatever its class says of itself.

An ``int``, ``float`` or ``Fraction`` subclass (an ``IntEnum``, or one whose ``__float__``
lies) is read by its base class's own methods, at every door a game's numbers come in by:
per-state and batch hooks, a round rule's points, ``terminal=``. So a float solve and an
exact one of the same game give the same answer, the one the plain numbers give.
"""

from __future__ import annotations

import enum
import re
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from models import TWO_BOXES, two_boxes, two_boxes_ends

import mdp
from mdp.engine.numeric import fault, plain

LIES = ("__float__", "__int__", "__index__", "__eq__", "__ne__", "__hash__", "__lt__", "__le__",
        "__gt__", "__ge__", "__abs__", "__neg__", "__bool__", "__trunc__", "__round__",
        "numerator", "denominator", "as_integer_ratio", "item")
"""What a subclass may make say another number."""

_LIE: dict[str, object] = {
    "__float__": lambda self: 100.0, "__int__": lambda self: 100, "__index__": lambda self: 100,
    "__eq__": lambda self, other: True, "__ne__": lambda self, other: False,
    "__hash__": lambda self: 100, "__lt__": lambda self, other: False,
    "__le__": lambda self, other: False, "__gt__": lambda self, other: True,
    "__ge__": lambda self, other: True, "__abs__": lambda self: 100, "__neg__": lambda self: 100,
    "__bool__": lambda self: True, "__trunc__": lambda self: 100,
    "__round__": lambda self, digits=None: 100, "numerator": property(lambda self: 100),
    "denominator": property(lambda self: 1), "as_integer_ratio": lambda self: (100, 1),
    "item": lambda self: 100,
}


def lying(value, lies):
    """``value`` (an int, a Fraction or a float) as an instance of a subclass of its type
    whose ``lies`` give 100 (or True) whatever the value."""
    base = type(value)
    liar = type(f"Lying{base.__name__}", (base,), {name: _LIE[name] for name in lies})
    if base is Fraction:
        return liar(value.numerator, value.denominator)
    return liar(value)


INTS = st.integers(-10**30, 10**30)
FRACTIONS = st.fractions(max_denominator=10**6)
FLOATS = st.floats(allow_nan=False, allow_infinity=False, width=64)
NUMBERS = st.one_of(INTS, FRACTIONS, FLOATS)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(value=NUMBERS, lies=st.sets(st.sampled_from(LIES)))
def test_a_subclass_is_taken_by_its_exact_value(value, lies):
    liar = lying(value, lies)
    taken = plain(liar)
    assert type(taken) is type(plain(value))  # an int, a Fraction of ints, or a float
    assert taken == value and fault(liar) is None
    if isinstance(taken, Fraction):
        assert (type(taken.numerator), type(taken.denominator)) == (int, int)


def test_numpy_numbers_and_enums_are_their_values():
    class Three(enum.IntEnum):
        THREE = 3

    class Mine(np.int64):
        def item(self):
            return 100

    assert [plain(v) for v in (Three.THREE, np.int8(-3), np.float32(0.5), Mine(7))] == [3, -3, 0.5, 7]
    assert [type(plain(v)) for v in (Three.THREE, Mine(7))] == [int, int]
    assert fault(True) == fault(np.bool_(True)) == fault("1") == "is not a number"


# Every kind of NumPy scalar: a number is one of its integers or floats that holds a number;
# a duration (np.timedelta64, one of NumPy's integers) or a time holds none, whatever its
# unit (round 24: timedelta64(3) of no unit, of "ns" or "Y" was taken as 3, one of "s" refused).
SCALARS = sorted({t for t in np.sctypeDict.values() if issubclass(t, np.generic)} - {np.object_}, key=str)
UNITS = ["", "ns", "s", "D", "Y"]


@pytest.mark.parametrize("kind", SCALARS, ids=str)
def test_a_numpy_scalar_is_a_number_when_it_holds_one(kind):
    made = [kind(3, unit) if unit else kind(3) for unit in UNITS if unit or kind is np.timedelta64] \
        if issubclass(kind, (np.timedelta64, np.datetime64)) else [kind(1)]
    number = issubclass(kind, (np.integer, np.floating)) and not issubclass(kind, np.timedelta64)
    for value in made:
        assert (fault(value) is None) == number, value
        assert (plain(value) == value.item()) if number else plain(value) is value


@pytest.mark.parametrize("where", ["terminal", "probability", "batch terminal",
                                   "batch probability", "round points"])
@pytest.mark.parametrize("unit", UNITS)
def test_a_duration_a_game_gives_for_a_number_is_refused_by_what_it_is(where, unit):
    """At every door a game's numbers come in by (round 25: a round rule's points held one
    and the check of points past a float compared it with one, a traceback), one line that
    shows it as NumPy's (it was "terminal value 3 is not a number")."""
    duration = np.timedelta64(1, unit) if unit else np.timedelta64(1)
    said = repr(duration).replace("numpy.", "np.")
    if where == "round points":
        def ends_of(ends, states):
            given = two_boxes_ends(ends, states)
            points = np.array(given.points, dtype=object)
            points[:, 1] = duration
            return mdp.RoundEnds(given.next, points)

        game = two_boxes(mdp_round_rule=mdp.hookimpl(lambda ends: lambda states: ends_of(ends, states)))
        with pytest.raises(mdp.ModelError, match=f"gave points {re.escape(said)} from round state"):
            mdp.compile(game)
        return
    number = where.rsplit(" ", 1)[-1]
    numbers = (duration if number == "probability" else Fraction(1, 2), Fraction(1, 2),
               duration if number == "terminal" else 3, 0, 1)
    hooks = _per_state(numbers) if where == number else _batch(numbers, as_array=True)
    with pytest.raises(mdp.ModelError, match=f"{number} value {re.escape(said)} is not a number"
                       if number == "terminal" else f"probability {re.escape(said)} is not a number"):
        mdp.compile(mdp.load_game(_hooked(hooks)))


# A game: flip for ``high`` or ``low`` at ``chance`` and ``1 - chance``, or stay for
# ``stay``. By hand, it is worth max(chance * high + (1 - chance) * low, stay).

# Values a game may give (a float holds them: past 1.8e308, a game's own value is refused).
WORTHS = st.fractions(-10**30, 10**30, max_denominator=10**6) | INTS
GAME = st.tuples(st.fractions(0, 1, max_denominator=64), WORTHS, WORTHS, WORTHS)
WRAPS = st.lists(st.sets(st.sampled_from(LIES)), min_size=5, max_size=5)


def _worth(chance, high, low, stay):
    return max(chance * high + (1 - chance) * low, Fraction(stay))


def _per_state(numbers):
    chance, other, high, low, stay = numbers
    values = {"H": high, "T": low, "S": stay}
    return SimpleNamespace(
        GAME_NAME="flip", mdp_initial_state=lambda: "start",
        mdp_actions=lambda state: ["flip", "stay"] if state == "start" else [],
        mdp_outcomes=lambda state, action: [(chance, "H"), (other, "T")] if action == "flip"
        else [(1, "S")],
        mdp_terminal_value=lambda state: values[state])


def _batch(numbers, as_array, lies=frozenset()):
    """The game in batches; with ``lies``, its counts, next states and probability ids too
    are lists of ints that lie so."""
    chance, other, high, low, stay = numbers
    values = {1: high, 2: low, 3: stay}

    def ints(items):
        return [lying(i, lies) for i in items] if lies else np.array(items, dtype=np.int64)

    def expand(states, labels):
        keys = states.tolist()
        counts = [2 if k == 0 else 0 for k in keys]
        ends = [values[k] for k in keys if k]
        return mdp.Expansion(ints(counts), None, ints([2, 1] * counts.count(2)),
                             ints([1, 2, 3] * counts.count(2)),
                             ints([0, 1, 2] * counts.count(2)), (chance, other, 1),
                             np.array(ends + [None], dtype=object)[:-1] if as_array else ends)

    return SimpleNamespace(GAME_NAME="flip", mdp_initial_state=lambda: 0,
                           mdp_stage=lambda states: np.where(states == 0, 1, 0),
                           mdp_expand=expand)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(game=GAME, lies=WRAPS, batch=st.sampled_from([None, "list", "array"]),
       keys=st.sets(st.sampled_from(LIES)))
def test_a_game_of_lying_numbers_is_worth_what_its_values_say(game, lies, batch, keys):
    chance, high, low, stay = game
    numbers = (chance, 1 - chance, high, low, stay)
    told = [lying(n, lie) for n, lie in zip(numbers, lies)]
    hooks = _per_state(told) if batch is None else _batch(told, batch == "array", keys)
    model = mdp.compile(mdp.load_game(_hooked(hooks)))
    plain_hooks = _per_state(numbers) if batch is None else _batch(numbers, batch == "array")
    floats = mdp.solve(mdp.compile(mdp.load_game(_hooked(plain_hooks)))).value
    assert mdp.solve(model, exact=True).value == _worth(chance, high, low, stay)
    assert mdp.solve(model).value == floats  # the plain numbers' float solve, to the bit


def test_the_attack_liar_gives_three_halves_in_floats():
    """An int whose ``__float__`` says 100 as the value of staying (worth 1): flipping is
    worth 3/2, in floats as exactly."""

    class Liar(int):
        def __float__(self):
            return 100.0

    numbers = (Fraction(1, 2), Fraction(1, 2), 3, 0, Liar(1))
    model = mdp.compile(mdp.load_game(_hooked(_per_state(numbers))))
    assert (mdp.solve(model).value, mdp.solve(model, exact=True).value) == (1.5, Fraction(3, 2))


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(lies=st.sets(st.sampled_from(LIES), min_size=1), whole=st.booleans())
def test_round_points_are_taken_by_their_values(lies, whole):
    """The points of two_boxes, each a lying int (or a lying Fraction of it), and its next
    round states lying ints: still 37/4."""

    def ends_of(ends, states):
        given = two_boxes_ends(ends, states)
        points = np.empty(given.points.shape, dtype=object)
        points.ravel()[:] = [lying(int(p) if whole else Fraction(int(p)), lies)
                             for p in np.asarray(given.points).ravel().tolist()]
        following = [[lying(int(k), lies) for k in row] for row in given.next.tolist()]
        return mdp.RoundEnds(following, points)  # next states lying ints too, in lists

    game = two_boxes(mdp_round_rule=mdp.hookimpl(lambda ends: lambda states: ends_of(ends, states)))
    model = mdp.compile(game)
    assert mdp.solve(model, exact=True).value == TWO_BOXES
    assert mdp.solve(model).value == float(TWO_BOXES)


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(lies=st.sets(st.sampled_from(LIES), min_size=1))
def test_terminal_values_given_to_a_solve_are_taken_by_their_values(lies):
    """``terminal=`` of lying numbers: the game of :func:`_per_state` with those values."""
    model = mdp.compile(mdp.load_game(_hooked(_per_state((Fraction(1, 2),) * 2 + (3, 0, 1)))))
    worth = {"H": Fraction(5), "T": Fraction(1), "S": Fraction(2)}  # flip: 3 > 2
    terminal: list = [None] * model.n_terminal
    for state, value in worth.items():
        terminal[model.state_id(state)] = lying(value, lies)
    assert mdp.solve(model, terminal=terminal, exact=True).value == 3
    assert mdp.solve(model, terminal=terminal).value == 3.0


def _hooked(hooks):
    for name in dir(hooks):
        if name.startswith("mdp_"):
            mdp.hookimpl(getattr(hooks, name))
    return hooks


def _coin_match(paid):
    """Two players each risk (2 or 0 points at 1/2) or play safe (1 point); the payoff of
    the results is ``paid`` (who scores more wins from the other)."""
    hooks = SimpleNamespace(
        GAME_NAME="coin", mdp_initial_state=lambda: "start",
        mdp_actions=lambda state: ["risk", "safe"] if state == "start" else [],
        mdp_outcomes=lambda state, action: [(Fraction(1, 2), 2), (Fraction(1, 2), 0)]
        if action == "risk" else [(1, 1)],
        mdp_terminal_value=lambda state: state,
        mdp_state_columns=lambda state: {"points": state if state != "start" else -1},
        mdp_match_rules=lambda: mdp.MatchRules("points", lambda results: paid(results)))
    return mdp.load_game(_hooked(hooks))


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(lies=st.sets(st.sampled_from(LIES), min_size=1))
def test_a_match_pays_what_its_winnings_are(lies):
    """Winnings of 3/2 as lying fractions. By hand: after the first player's 2 the second
    risks (a draw or a loss), after a 1 either, after a 0 plays safe and wins; the first
    risking gets 1/2 * 1/2 * 3/2 - 1/2 * 3/2 = -3/8, playing safe 0: both play safe, a draw,
    (0, 0). A winner's 3/2 read as 100 would make risking pay."""

    def paid(results):
        won = np.sign(results[:, 0] - results[:, 1]).tolist()
        rows = [[lying(Fraction(3 * w, 2), lies), lying(Fraction(-3 * w, 2), lies)] for w in won]
        out = np.empty((len(rows), 2), dtype=object)
        out[:] = rows
        return out

    game = _coin_match(paid)
    model = mdp.compile(game)
    assert mdp.match(model, game, exact=True).values == (0, 0)
    assert mdp.match(model, game).values == (0.0, 0.0)


@settings(max_examples=20, deadline=None)
@given(weights=st.tuples(st.integers(0, 5), st.integers(1, 5)),
       lies=st.lists(st.sets(st.sampled_from(LIES)), min_size=2, max_size=2),
       exact=st.booleans(), listed=st.booleans())
@example(weights=(0, 1), lies=[{"__int__", "__index__"}] * 2, exact=False, listed=True)
def test_a_strategy_is_weighted_by_its_weights_values(weights, lies, exact, listed):
    """The flip game of :func:`_per_state` (flip 3 or 0 at 1/2, stay 1) played at random,
    flip and stay weighted ``weights``: worth (w_flip * 3/2 + w_stay * 1) / (w_flip + w_stay)."""
    model = mdp.compile(mdp.load_game(_hooked(_per_state((Fraction(1, 2),) * 2 + (3, 0, 1)))))
    start = model.state_id("start")
    first, last = model.actions_of(start)
    assert last - first == 2
    given = [0] * model.n_actions
    given[first], given[first + 1] = (lying(w, lie) for w, lie in zip(weights, lies))
    policy = mdp.Policy.of_weights(model, given if listed else np.array(given, dtype=object),
                                   exact=exact)
    flip, stay = weights  # the game's actions in the order it gives them: flip, stay
    expected = Fraction(flip * 3, 2 * (flip + stay)) + Fraction(stay, flip + stay)
    value = mdp.solve(model, policy=policy, exact=exact).value
    assert value == expected if exact else abs(value - float(expected)) < 1e-12


@pytest.mark.parametrize("size", [Fraction(1, 10**400), Fraction(-3, 10**320)])
def test_a_terminal_value_below_a_float_is_solved_exactly_alone(size):
    """Round 27: terminal= values below what a float holds were solved in floats as 0, exit 0,
    where values past a float's top are refused: refused too, and solved exactly."""
    game = mdp.load_game("shutbox", tiles="1-3")
    model = mdp.compile(game)
    with pytest.raises(mdp.ParamError, match=r"is not 0, but below what a float holds .*exact=True"):
        mdp.solve(model, terminal=[size] * model.n_terminal)
    assert mdp.solve(model, terminal=[size] * model.n_terminal, exact=True).value == size  # every end pays it
