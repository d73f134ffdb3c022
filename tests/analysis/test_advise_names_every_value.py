"""A state is named by the text of its columns (``COLUMN=VALUE``), whatever the values: the
text ``mdp advise`` shows of a state, and the one its error suggests, name that state. A
float column NaN could not be named (``x=nan``: "no reachable state", suggesting
``x=nan``), nor a float Python writes otherwise than the table does (``1e-05``). Text holding a NUL
character, which no command line carries, is said to be named from Python alone."""

import math
import re
import subprocess
from types import SimpleNamespace

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import mdp

FLOATS = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(
    [math.nan, -0.0, 0.0, 1e-05, 2.5e-8, 1e20, 1e16, 0.1, 123456789012345680.0])
KINDS = st.one_of(st.lists(FLOATS, min_size=1, max_size=5),
                  st.lists(st.integers(-10**6, 10**6), min_size=1, max_size=5),
                  st.lists(st.text(max_size=4).filter(lambda t: '"' not in t and t.strip() == t),
                           min_size=1, max_size=5),
                  st.lists(st.booleans(), min_size=1, max_size=5))


def chain(values):
    """States 0 to len(values): state ``i`` (below the last) moves to ``i + 1``; its
    columns ``i`` and ``v`` (``values[i]``)."""

    @mdp.hookimpl
    def mdp_initial_state():
        return 0

    @mdp.hookimpl
    def mdp_actions(state):
        return ["on"] if state < len(values) else []

    @mdp.hookimpl
    def mdp_outcomes(state, action):
        return [(1, state + 1)]

    @mdp.hookimpl
    def mdp_terminal_value(state):
        return 0

    @mdp.hookimpl
    def mdp_state_columns(state):
        return {"i": state, "v": values[state] if state < len(values) else values[0]}

    return mdp.load_game(SimpleNamespace(
        GAME_NAME="chain", mdp_initial_state=mdp_initial_state, mdp_actions=mdp_actions,
        mdp_outcomes=mdp_outcomes, mdp_terminal_value=mdp_terminal_value,
        mdp_state_columns=mdp_state_columns))


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(KINDS)
@example(["a\0", "b"])  # a NUL, which no command line carries
def test_every_state_is_named_by_the_text_of_its_columns(values):
    game = chain(values)
    solution = mdp.solve(mdp.compile(game))
    for i, value in enumerate(values):
        advice = mdp.advise(solution, game, i=str(i), v=str(value))
        assert advice.state["i"] == i
    # The suggestion of an error names the initial state, given back as a shell gives it.
    with pytest.raises(mdp.ParamError) as refused:
        mdp.advise(solution, game, i="-1")
    if "\0" in str(values[0]):  # no command line carries a NUL: said so, not suggested as typed
        assert str(refused.value).endswith("cannot be given on a command line, only from Python)")
        return
    suggested = re.search(r"e\.g\. the initial state: (.*)\)$", str(refused.value))[1]
    words = subprocess.run(["bash", "-c", 'printf "%s\\0" ' + suggested], capture_output=True,
                           check=True, env={"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"},
                           ).stdout.decode().split("\0")[:-1]  # as a shell reads it
    named = dict(word.split("=", 1) for word in words)
    assert mdp.advise(solution, game, **named).state["i"] == 0
