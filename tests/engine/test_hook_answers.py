"""Whatever a hook returns, the engine either solves the game it describes, correctly, or says
in one mdp.ModelError which hook gave what it cannot take: never another exception, never a
silently wrong value. Each test substitutes generated bad answers (wrong types, shapes and
dtypes, NaN and infinities, huge integers, None, strings, dicts, object arrays) for one
hook's answer in an otherwise good small game.

The reference values are an independent recursion over the same hooks (per state), or over
the substituted answer and the good game's own rule (batch)."""

from __future__ import annotations

import sys
import types
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import mdp
from mdp.game.names import typable

HALF = Fraction(1, 2)

# The bad answers: anything a plugin might return by mistake.
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 5), st.just(10**400), st.just(-(10**400)),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=3), st.just(b"x"),
    st.fractions(max_denominator=4), st.just(HALF),
)
ARRAYS = st.one_of(
    st.lists(st.integers(-2, 4), max_size=5).map(np.array),
    st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=5).map(np.array),
    st.lists(st.integers(0, 3), min_size=1, max_size=6).map(lambda v: np.array(v).reshape(-1, 1)),
    st.lists(st.integers(0, 3), max_size=4).map(lambda v: np.array(v, dtype=np.uint64)),
    st.lists(st.booleans(), max_size=4).map(np.array),
    st.lists(st.one_of(st.text(max_size=2), st.none(), st.just(10**400), st.integers(0, 3)),
             max_size=4).map(lambda v: np.array(v + [None], dtype=object)[:len(v)]),
    st.just(np.array(2**63 + 5, dtype=np.uint64)),
    st.just(np.array([2**63 + 5], dtype=np.uint64)),
)
ANSWERS = st.recursive(
    st.one_of(SCALARS, ARRAYS),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.tuples(inner, inner),
                            st.dictionaries(st.integers(0, 3), inner, max_size=3),
                            st.frozensets(st.integers(0, 3), max_size=3)),
    max_leaves=6,
)


def _names_the_hook(error: mdp.ModelError, hooks: tuple[str, ...]) -> None:
    message = str(error)
    assert "\n" not in message
    if isinstance(error, mdp.CycleError):  # a substituted next state may lead back: refused so
        return
    assert any(hook in message for hook in hooks), message


# A small per-state game: every hook answers any state and action (an unknown state is
# terminal, worth 0; an unknown action ends the game), so that whatever is substituted
# describes a game.

TREE = {
    0: {"a": [(HALF, 1), (HALF, 2)], "b": [(1, 2)]},
    1: {"c": [(Fraction(1, 3), 3), (Fraction(2, 3), 4)], "d": [(1, 4)]},
    2: {"e": [(1, 3)]},
}
VALUES = {3: 6, 4: 3}


def _per_state(hook: str, bad):
    def initial_state():
        return bad if hook == "mdp_initial_state" else 0

    def actions(state):
        return bad if hook == "mdp_actions" and state == 0 else list(TREE.get(state, {}))

    def outcomes(state, action):
        if hook == "mdp_outcomes" and state == 0 and action == "a":
            return bad
        return TREE.get(state, {}).get(action, [(1, "end")])

    def terminal_value(state):
        return bad if hook == "mdp_terminal_value" and state == 3 else VALUES.get(state, 0)

    def estimate_states():
        return bad if hook == "mdp_estimate_states" else None

    hooks = dict(mdp_initial_state=initial_state, mdp_actions=actions, mdp_outcomes=outcomes,
                 mdp_terminal_value=terminal_value, mdp_estimate_states=estimate_states)
    for function in hooks.values():
        mdp.hookimpl(function)
    return hooks


def _best(hooks, state):
    """The value of ``state`` by value iteration over the states the hooks reach from it (the
    game is tiny, but a substituted answer may lead back to a state met before, so the plain
    recursion would never end): from 0, each state's best over its actions until no value moves.
    A game with no rewards on the way, played forever, earns 0, which is where the iteration
    starts."""
    moves, seen, todo = {}, {state}, [state]
    while todo:
        here = todo.pop()
        moves[here] = [list(hooks["mdp_outcomes"](here, a)) for a in hooks["mdp_actions"](here)]
        for outcomes in moves[here]:
            for _, nxt in outcomes:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
    ends = {s: hooks["mdp_terminal_value"](s) for s, acts in moves.items() if not acts}
    values = dict.fromkeys(moves, 0.0)
    for _ in range(100_000):
        new = {s: float(ends[s]) if s in ends else
               max(sum(float(p) * values[n] for p, n in outcomes) for outcomes in moves[s])
               for s in moves}
        if all(abs(new[s] - values[s]) <= 1e-15 for s in moves):
            break
        values = new
    return values[state]


PER_STATE_HOOKS = ["mdp_initial_state", "mdp_actions", "mdp_outcomes", "mdp_terminal_value",
                   "mdp_estimate_states"]


@pytest.mark.slow
@pytest.mark.parametrize("hook", PER_STATE_HOOKS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bad=ANSWERS)
@example(bad=[{1: frozenset({1}), 0: 0}])  # a dict unpacks into a pair (its keys)
@example(bad=[(1, 0)])  # back to the start: a cycle, solved
def test_a_per_state_hook_answer_is_solved_right_or_refused_naming_the_hook(hook, bad):
    hooks = _per_state(hook, bad)
    game = mdp.load_game(types.SimpleNamespace(GAME_NAME="tree", **hooks))
    try:
        value = mdp.solve(mdp.compile(game, max_states=1000)).value
    except mdp.ModelError as error:
        _names_the_hook(error, (hook,))
        return
    except mdp.TooLarge:  # the game says it has more states than the limit: refused so
        assert hook == "mdp_estimate_states" and bad > 1000
        return
    expected = _best(hooks, hooks["mdp_initial_state"]())
    assert value == pytest.approx(float(expected), rel=1e-12)


@pytest.mark.parametrize("pair", [{HALF: 1, 1: 2}, frozenset({HALF, 1}), "p1", b"p1"])
def test_an_outcome_that_only_unpacks_into_two_is_refused_as_no_pair(pair):
    hooks = _per_state("mdp_outcomes", [pair, (HALF, 2)])
    game = mdp.load_game(types.SimpleNamespace(GAME_NAME="tree", **hooks))
    with pytest.raises(mdp.ModelError, match=r"mdp_outcomes gave .*not a \(probability"):
        mdp.compile(game)


@settings(max_examples=40, deadline=None)
@given(hook=st.sampled_from(["mdp_actions", "mdp_outcomes"]), unordered=st.sampled_from([set, frozenset]),
       actions=st.sets(st.sampled_from("abcxyz"), min_size=1))
def test_a_set_where_a_list_is_asked_is_refused_as_having_no_order(hook, unordered, actions):
    # A set of actions was taken as a list: tied actions were then chosen by hash order,
    # which changes from run to run (PYTHONHASHSEED). A set (or frozenset) has no order, as a
    # dict has none that a game means, and is refused like one; the same items in a list
    # are a game that solves.
    given_items = actions if hook == "mdp_actions" else {(HALF, 1), (HALF, 2)}
    hooks = _per_state(hook, unordered(given_items))
    game = mdp.load_game(types.SimpleNamespace(GAME_NAME="tree", **hooks))
    with pytest.raises(mdp.ModelError, match=rf"game tree: {hook} returned .*, not a list "
                       r"\(a set has no order\) \(state 0"):
        mdp.compile(game)
    listed = _per_state(hook, sorted(given_items))
    value = mdp.solve(mdp.compile(mdp.load_game(types.SimpleNamespace(GAME_NAME="tree", **listed)))).value
    assert value == pytest.approx(float(_best(listed, 0)), rel=1e-12)


def test_the_good_per_state_game_is_worth_what_the_recursion_says():
    # By hand: state 1 is worth max(6/3 + 3 * 2/3, 3) = 4, state 2 is worth 6, so state 0
    # is worth max(4/2 + 6/2, 6) = 6.
    hooks = _per_state("none", None)
    game = mdp.load_game(types.SimpleNamespace(GAME_NAME="tree", **hooks))
    assert mdp.solve(mdp.compile(game), exact=True).value == _best(hooks, 0) == 6


# A small batch game: from key k (stage k), "step" to k - 1 or "jump" to k - 1 or k - 2 at
# even odds; key 0 ends worth 4, key 1 worth 1 (a key below 0, a bad start, ends worth 0). The
# first expansion (of the initial key) or the first answer of mdp_stage is substituted.

START = 4
ENDS = {0: 4, 1: 1}


def _good_expansion(keys, back=False):
    """With ``back``, "jump" goes to k - 1 or back to k (states come back: every state is
    expanded twice, its answers compared); the game is worth 1 either way."""
    keys = np.asarray(keys, dtype=np.int64)
    counts = np.where(keys >= 2, 2, 0)
    nexts, ocounts = [], []
    for k in keys.tolist():
        if k >= 2:
            nexts += [k - 1, k - 1, k if back else k - 2]
            ocounts += [1, 2]
    return mdp.Expansion(counts, None, np.array(ocounts, dtype=np.int64),
                         np.array(nexts, dtype=np.int64),
                         np.array([0 if n == 1 else 1 for n in ocounts for _ in range(n)], dtype=np.int64),
                         (1, HALF), [ENDS.get(k, 0) for k in keys.tolist() if k < 2])


FIELDS = ["action_counts", "actions", "outcome_counts", "next_states", "probabilities",
          "probability_table", "terminal_values"]


def _batch(hook: str, field: str | None, bad, back=False, call=1):
    calls = {"mdp_expand": 0, "mdp_stage": 0}

    def initial_state():
        return bad if hook == "mdp_initial_state" else START

    def stage(states):
        calls["mdp_stage"] += 1
        if hook == "mdp_stage" and calls["mdp_stage"] == 1:
            return bad
        return np.asarray(states, dtype=np.int64)

    def expand(states, labels):
        calls["mdp_expand"] += 1
        expansion = _good_expansion(states, back)
        if hook == "mdp_expand" and calls["mdp_expand"] == call:
            if field is None:
                return bad
            return expansion.__class__(**{**{f: getattr(expansion, f) for f in FIELDS}, field: bad})
        return expansion

    hooks = dict(mdp_initial_state=initial_state, mdp_stage=stage, mdp_expand=expand)
    for function in hooks.values():
        mdp.hookimpl(function)
    return hooks


def _batch_value(expansion, key):
    """The value of ``key`` from its expansion (arrays as the engine should read them), the
    others from the good game, by recursion."""
    if expansion is None:
        expansion = _good_expansion([key])
    counts = [int(c) for c in np.asarray(expansion.action_counts).tolist()]
    if counts[0] == 0:
        return list(expansion.terminal_values)[0]
    nexts = [int(n) for n in np.asarray(expansion.next_states).tolist()]
    if expansion.outcome_counts is None:
        return max(_batch_value(None, n) for n in nexts)
    table, ids = tuple(expansion.probability_table), np.asarray(expansion.probabilities).tolist()
    best, o = None, 0
    for n in np.asarray(expansion.outcome_counts).tolist():
        value = sum(table[ids[j]] * _batch_value(None, nexts[j]) for j in range(o, o + n))
        best = value if best is None else max(best, value)
        o += n
    return best


@pytest.mark.slow
@pytest.mark.parametrize("field", [None, *FIELDS])
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bad=ANSWERS)
@example(bad=[Fraction(1, 2), Fraction(1, 2), -10**400])  # a large negative one, unused
def test_a_batch_answer_is_solved_right_or_refused_naming_the_hook(field, bad):
    value = _solved_or_refused(_batch("mdp_expand", field, bad))
    if value is None:
        return
    expected = _batch_value(_batch("mdp_expand", field, bad)["mdp_expand"]([START], False), START)
    assert value == pytest.approx(float(expected), rel=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("field", [None, *FIELDS])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bad=ANSWERS, call=st.integers(1, 5))
def test_a_batch_answer_of_states_that_come_back_is_the_same_or_refused_naming_the_hook(field, bad, call):
    """Every state of a game whose states come back is expanded twice (round 25: an answer of
    sizes that disagree, met the second time, was a traceback before any check): a bad
    answer in any call is refused, or it read as the good one (worth 1)."""
    value = _solved_or_refused(_batch("mdp_expand", field, bad, back=True, call=call))
    assert value is None or value == pytest.approx(1.0, rel=1e-12)


def _solved_or_refused(hooks):
    """The value of the batch game of ``hooks``, or None where it is refused in a line
    naming mdp_expand."""
    game = mdp.load_game(types.SimpleNamespace(GAME_NAME="steps", **hooks))
    try:
        return mdp.solve(mdp.compile(game, max_states=1000)).value
    except mdp.ModelError as error:
        _names_the_hook(error, ("mdp_expand",))
        return None


@pytest.mark.slow
@pytest.mark.parametrize("hook", ["mdp_stage", "mdp_initial_state"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bad=ANSWERS)
def test_a_batch_stage_or_start_is_taken_right_or_refused_naming_the_hook(hook, bad):
    hooks = _batch(hook, None, bad)
    game = mdp.load_game(types.SimpleNamespace(GAME_NAME="steps", **hooks))
    try:
        model = mdp.compile(game, max_states=1000)
    except mdp.ModelError as error:
        _names_the_hook(error, (hook,))
        return
    initial = hooks["mdp_initial_state"]()
    assert mdp.solve(model).value == pytest.approx(float(_batch_value(None, int(initial))))


LABELS = st.one_of(  # labels a plugin might give: too few or many, twice, unhashable, numbers
    st.lists(st.sampled_from(["step", "jump", "hop"]), max_size=4),
    st.lists(st.one_of(st.integers(0, 2), st.lists(st.integers(0, 1), max_size=1)), max_size=3),
    st.lists(st.integers(0, 3), max_size=3).map(np.array),
    st.permutations(["step", "jump"]),
    ANSWERS,
)


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bad=LABELS, when=st.integers(1, 2))
def test_batch_labels_are_taken_as_given_or_refused_naming_the_hook(bad, when):
    # Before: labels given twice, unhashable or in another order each time were taken (the
    # policy named the wrong action), and one short ended in a Polars ShapeError.
    calls = {"labels": 0}

    @mdp.hookimpl
    def mdp_expand(states, labels):
        e = _good_expansion(states)
        if not labels:
            return e
        calls["labels"] += 1
        given = bad if calls["labels"] == when else ["step", "jump"] * int(np.count_nonzero(e.action_counts))
        return e.__class__(**{**{f: getattr(e, f) for f in FIELDS}, "actions": given})

    hooks = _batch("none", None, None)
    hooks["mdp_expand"] = mdp_expand
    game = mdp.load_game(types.SimpleNamespace(GAME_NAME="steps", **hooks))
    model = mdp.compile(game)
    try:
        labels = list(mdp.action_labels(model, game))
    except mdp.ModelError as error:
        _names_the_hook(error, ("mdp_expand",))
        return
    # Taken: only the good labels, or a pair of distinct hashable labels given every time
    # (the lowest state, 2, is asked first, and asked twice).
    assert labels[2:] == ["step", "jump"] * 2
    given = list(bad) if when == 1 else ["step", "jump"]
    assert labels[:2] == given and len(set(given)) == 2


def test_the_good_batch_game_is_worth_what_the_recursion_says():
    # By hand: key 2 is worth max(1, (1 + 4) / 2) = 5/2, key 3 max(5/2, (5/2 + 1) / 2) = 5/2,
    # key 4 max(5/2, (5/2 + 5/2) / 2) = 5/2.
    game = mdp.load_game(types.SimpleNamespace(GAME_NAME="steps", **_batch("none", None, None)))
    assert mdp.solve(mdp.compile(game), exact=True).value == _batch_value(None, START) == Fraction(5, 2)


# The match rules of a one-player game: a coin that pays 2 or 0 at even odds, or 1 for sure;
# a player's result is the column "points".


def _coin(bad, part: str):
    def initial_state():
        return "start"

    def actions(state):
        return ["risk", "safe"] if state == "start" else []

    def outcomes(state, action):
        return [(HALF, 2), (HALF, 0)] if action == "risk" else [(1, 1)]

    def terminal_value(state):
        return state

    def state_columns(state):
        return {"points": state if state != "start" else -1}

    def payoff(results):
        if part == "payoff":
            return bad
        if part == "by rows":  # bad: what each of the nine pairs of results (0 to 2) pays
            return bad[results[:, 0] * 3 + results[:, 1]]
        first, second = results[:, 0], results[:, 1]
        won = np.sign(first - second)
        return np.stack([won, -won], axis=1)

    def match_rules():
        if part == "rules":
            return bad
        if part == "outcome":
            return mdp.MatchRules(bad, payoff)
        if part in ("params", "ignores"):  # the coin has no parameter to name
            return mdp.MatchRules("points", payoff, **{part: bad})
        return mdp.MatchRules("points", payoff)

    hooks = dict(mdp_initial_state=initial_state, mdp_actions=actions, mdp_outcomes=outcomes,
                 mdp_terminal_value=terminal_value, mdp_state_columns=state_columns,
                 mdp_match_rules=match_rules)
    for function in hooks.values():
        mdp.hookimpl(function)
    return mdp.load_game(types.SimpleNamespace(GAME_NAME="coin", **hooks))


@pytest.mark.slow
@pytest.mark.parametrize("part", ["rules", "outcome", "payoff", "params", "ignores"])
@pytest.mark.parametrize("exact", [False, True])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bad=ANSWERS | st.lists(st.sampled_from(["points", "pay", "", "start"]), max_size=3).map(tuple)
       | st.sampled_from(["", "st", "pay"]))
def test_match_rules_are_taken_right_or_refused_naming_the_hook(part, exact, bad):
    """(Round 25: params naming no parameter of the game were a KeyError after the match.
    Round 26: one text, ``params="st"``, was read letter by letter, as ``s`` and ``t``.)"""
    game = _coin(bad, part)
    try:
        result = mdp.match(mdp.compile(game), game, exact=exact)
    except mdp.ModelError as error:
        _names_the_hook(error, ("mdp_match_rules",))
        if part in ("params", "ignores") and isinstance(bad, str):
            assert "one text; expected a tuple of names" in str(error), error
        return
    if part in ("params", "ignores"):  # taken: no name, where the coin has no parameter
        assert not isinstance(bad, str) and len(tuple(bad)) == 0 and len(result.values) == 2
        return
    # Taken: only a payoff of numbers in the shape asked for (four matches of two) can be.
    paid = np.asarray(bad, dtype=object).reshape(3, 3, 2) if part == "payoff" else None
    assert part == "payoff" and all(isinstance(v, (int, float, Fraction, np.number))
                                    for v in paid.ravel())
    assert len(result.values) == 2
    assert len(result.summary()["players"]) == 2  # shown in floats, exact or not


def test_the_good_match_is_worth_what_a_brute_force_says():
    # By hand: the second player, knowing the first's result, wins if they can. After a 2 the
    # second must risk (a draw at best, 1/2 a loss): -1/2 for them; after a 1, risk: +1/2 - 1/2
    # = 0 against safe's draw, both 0; after a 0, safe wins for sure: +1. The first player
    # risking gets (1/2)(1/2) + (1/2)(-1) = -1/4, playing safe gets 0: they play safe, 0.
    game = _coin(None, "none")
    assert mdp.match(mdp.compile(game), game, exact=True).values == (0, 0)


@settings(max_examples=30, deadline=None)
@given(factor=st.one_of(st.integers(1, 10**20), st.integers(10**300, 10**400)), exact=st.booleans())
def test_winnings_past_what_a_float_holds_are_refused_exact_or_not(factor, exact):
    # Before: exact, a payoff of 10**400 was an OverflowError traceback as it was shown. The
    # payoff: who scores more (0, 1 or 2) wins the factor from the other.
    won = np.sign(np.subtract.outer(np.arange(3), np.arange(3)))
    paid = np.stack([won, -won], axis=-1).astype(object).reshape(9, 2) * factor
    game = _coin(paid, "by rows")
    try:
        result = mdp.match(mdp.compile(game), game, exact=exact)
    except mdp.ModelError as error:
        assert factor > sys.float_info.max and "past what a float holds" in str(error), error
        return
    assert factor <= sys.float_info.max
    # By hand (test_the_good_match_...): both play safe, a draw: nothing won.
    assert result.values == (0, 0) and [p["value"] for p in result.summary()["players"]] == [0.0, 0.0]


class Odd:
    """A state whose repr raises, or runs to a million characters."""

    def __init__(self, name, shown):
        self.name, self.shown = name, shown

    def __hash__(self):
        return hash(self.name)

    def __eq__(self, other):
        return isinstance(other, Odd) and other.name == self.name

    def __repr__(self):
        if self.shown is None:
            raise RuntimeError("no repr here")
        return self.shown


def _odd_game(shown, broken=None, key=None):
    """A start and an end, both Odd states shown as ``shown``; the hook ``broken`` raises, and
    ``key`` names the one column of mdp_state_columns."""

    def fault(*args):
        raise KeyError("the fault")

    hooks = {
        "mdp_initial_state": lambda: Odd("start", shown),
        "mdp_actions": lambda state: ["go"] if state.name == "start" else [],
        "mdp_outcomes": lambda state, action: [(1, Odd("end", shown))],
        "mdp_terminal_value": lambda state: 1,
        "mdp_state_columns": lambda state: {key: 1},
    }
    if broken:
        hooks[broken] = fault
    if key is None:
        del hooks["mdp_state_columns"]
    return mdp.load_game(types.SimpleNamespace(GAME_NAME="odd", **{
        name: mdp.hookimpl(specname=name)(hook) for name, hook in hooks.items()}))


@settings(max_examples=40, deadline=None)
@given(shown=st.one_of(st.none(), st.just("x" * 10**6), st.text(max_size=5), st.just("a\nb")),
       hook=st.sampled_from(["mdp_actions", "mdp_outcomes", "mdp_terminal_value"]),
       key=st.one_of(st.integers(), st.tuples(st.integers()), st.binary(max_size=2), st.text(max_size=2)))
def test_a_fault_is_one_short_line_whatever_the_states_repr(shown, hook, key):
    # Before: a state whose repr raised hid the fault (a RuntimeError traceback), one of a
    # million characters made a message of a megabyte, a column named 1 was a Polars TypeError.
    with pytest.raises(mdp.ModelError) as error:
        mdp.solve(mdp.compile(_odd_game(shown, broken=hook)))
    message = str(error.value)
    assert "\n" not in message and len(message) < 500 and f"{hook} raised KeyError" in message, message
    game = _odd_game(shown, key=key)
    try:
        table = mdp.policy(mdp.solve(mdp.compile(game)), game)
    except mdp.ModelError as refused:
        assert str(refused).startswith("game odd: mdp_state_columns names a column ") and (
            str(refused).endswith("not a str; a column's name is text") and not isinstance(key, str)
            or "which no one can type" in str(refused) and isinstance(key, str) and
            not typable(key, word=False))  # a name COLUMN=VALUE cannot carry: "", "=", "\n"
        return
    assert typable(key, word=False) and table[key].to_list() == [1]
