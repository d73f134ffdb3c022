"""Every value put in the report page's JSON goes through one conversion
(:func:`mdp.outputs.explorer.json_ready`): a float that is not finite is written as text, as
the page's other odd values are, wherever it sits. A game of rounds whose round ends held
inf or nan made ``mdp report`` fail with "Out of range float values are not JSON
compliant"."""

import json
import math
import re
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp
from mdp.outputs.explorer import json_ready

SCALARS = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-10**20, 10**20),
                    st.none(), st.booleans(), st.text(max_size=3), st.fractions(),
                    st.floats(allow_nan=True, allow_infinity=True).map(np.float64),
                    st.sampled_from([math.inf, -math.inf, math.nan, np.float32("nan")]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3).map(tuple)
                      | st.dictionaries(st.text(max_size=2), inner, max_size=3), max_leaves=8)


def strict(text):
    """JSON read as the page's ``JSON.parse`` reads it: no NaN or Infinity."""
    def refused(name):
        raise ValueError(f"{name} is not JSON")
    return json.loads(text, parse_constant=refused)


def expected(value):
    """The value as the page should hold it, written here on its own."""
    if isinstance(value, dict):
        return {k: expected(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [expected(v) for v in value]
    if isinstance(value, (float, np.floating)):
        return float(value) if math.isfinite(value) else str(float(value))
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return str(value)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(VALUES)
def test_every_value_is_json_the_page_reads(value):
    held = strict(json.dumps(json_ready(value), allow_nan=False))
    want = expected(value)
    assert json.dumps(held, sort_keys=True) == json.dumps(want, sort_keys=True)


def tagged(tags):
    """Two rounds of a coin flip; the end of heads or tails holds ``tags[0]`` or
    ``tags[1]``, as the game writes it, and earns 1 or 0 points."""

    @mdp.hookimpl
    def mdp_initial_state():
        return "flip"

    @mdp.hookimpl
    def mdp_actions(state):
        return ["flip"] if state == "flip" else []

    @mdp.hookimpl
    def mdp_outcomes(state, action):
        return [(Fraction(1, 2), ("end", 1, tags[1])), (Fraction(1, 2), ("end", 0, tags[0]))]

    @mdp.hookimpl
    def mdp_terminal_value(state):
        return 0

    @mdp.hookimpl
    def mdp_round_start():
        return 0

    @mdp.hookimpl
    def mdp_round_rule(ends):
        heads = np.array([end[1] for end in ends])

        def rule(states):
            nxt = np.where(states[:, None] >= 2, -1, states[:, None] + 1) + 0 * heads
            return mdp.RoundEnds(nxt, np.broadcast_to(heads, nxt.shape))
        return rule

    @mdp.hookimpl
    def mdp_round_ends_script():
        return ("function (s, ends) { return {next: ends.map(function (e) { return s >= 2 ? -1 : s + 1; }),"
                " points: ends.map(function (e) { return e[1]; })}; }")

    return mdp.load_game(SimpleNamespace(
        GAME_NAME="tagged", mdp_initial_state=mdp_initial_state, mdp_actions=mdp_actions,
        mdp_outcomes=mdp_outcomes, mdp_terminal_value=mdp_terminal_value,
        mdp_round_start=mdp_round_start, mdp_round_rule=mdp_round_rule,
        mdp_round_ends_script=mdp_round_ends_script))


TAGS = st.one_of(st.sampled_from([math.inf, -math.inf, math.nan]),
                 st.floats(allow_nan=True, allow_infinity=True),
                 st.tuples(st.floats(allow_nan=True, allow_infinity=True), st.integers(0, 9)))


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(TAGS, TAGS)
def test_a_page_is_made_whatever_floats_the_round_ends_hold(tails, heads):
    """Infinities, and every float: a NaN is no part of a state, which must be equal to a copy
    of itself (refused in one line, tests/engine/test_lost_states.py)."""
    game = tagged([tails, heads])
    if any(math.isnan(part) for tag in (tails, heads) for part in (tag if isinstance(tag, tuple) else (tag,))):
        with pytest.raises(mdp.ModelError, match=r"holds a part that is not \(a NaN\)"):
            mdp.compile(game)
        return
    page = mdp.report(mdp.solve(mdp.compile(game)), game, strategies=False)
    data = strict(re.search(r'<script type="application/json" id="mdp-data">(.*?)</script>', page,
                            re.S)[1])
    ends = data["explorer"]["rounds"]["ends"]
    assert sorted(map(json.dumps, ends)) == sorted(json.dumps(expected(("end", h, tag)))
                                                   for h, tag in ((0, tails), (1, heads)))
