"""Every name a game gives a table's column is one no other column of that table has: a
round column named as a column the tables of rounds add (``round``, ``points``) or as a
column of the round's states and actions, and an outcome column named ``player`` in a game
two players take in turns, are refused in one line naming the game, the hook and the name.
mdp policy printed mdp's ``round`` in place of the game's, so that two round states were two
rows nothing told apart; ``--within all`` raised Polars' DuplicateError; mdp distribution
dropped the game's ``player`` for its own."""

from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp

ADDED = {"value", "value_exact", "optimal", "regret", "regret_exact", "probability", "exact", "games",
         "frequency"}
"""What every table adds beside the game's columns (the policy's value, regret and optimal;
a distribution's probability and exact; a simulation's games and frequency)."""

NAMES = st.one_of(st.sampled_from(sorted(ADDED | {"round", "points", "player", "stage", "face",
                                                   "box", "filled", "round_state", "state",
                                                   # mdp's own names beside a game's columns
                                                   # (a column "group" made a traceback, and
                                                   # a round column "_key" was unknown)
                                                   "row", "group", "_row", "_group", "_key",
                                                   "__key"})),
                  st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=6))


def _two_boxes(name):
    """Two boxes (tests/models.py) whose round states have the one column ``name`` (the key
    times 10), whose states have ``stage`` and ``face`` and whose actions ``box``."""
    from models import two_boxes

    @mdp.hookimpl
    def mdp_round_columns(states):
        return {name: [10 * s for s in states.tolist()]}

    @mdp.hookimpl
    def mdp_state_columns(state):
        return {"stage": state[0], "face": state[-1] if state[0] != "throw" else None}

    @mdp.hookimpl
    def mdp_action_columns(state, action):
        return {"box": action}

    return two_boxes(mdp_round_columns=mdp_round_columns, mdp_state_columns=mdp_state_columns,
                     mdp_action_columns=mdp_action_columns)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(NAMES)
def test_a_round_column_is_refused_exactly_where_a_table_has_its_name(name):
    game = _two_boxes(name)
    solution = mdp.solve(mdp.compile(game), exact=True)
    # The policy of round states adds round and value (and value_exact); within the round,
    # the round's state and action columns stand beside the round columns; a simulation
    # adds points, games and frequency.
    clash = name in ADDED | {"round", "points", "stage", "face", "box"}
    tables = (lambda: mdp.policy(solution, game), lambda: mdp.policy(solution, game, within="all"),
              lambda: mdp.simulate(solution, game, games=50, seed=1).outcomes,
              lambda: mdp.advise(solution, game, **{name: 0, "stage": "throw"}).actions)
    for table in tables:
        if clash:
            with pytest.raises(mdp.ModelError) as error:
                table()
            assert str(error.value).startswith(
                f"game two-boxes: mdp_round_columns names a column {name!r}, which "), error.value
            assert "\n" not in str(error.value)
            continue
        frame = table()
        assert len(set(frame.columns)) == len(frame.columns)
    if not clash:  # the game's column, as it gave it: the key times 10, a row per round state
        values = mdp.policy(solution, game)
        assert sorted(values[name].to_list()) == [0, 10, 20, 30]
        assert values["round"].to_list() == [1, 2, 2, None]  # none played from the last


def _duel(name):
    """Two players in turns: the first flips a coin; heads, the first wins; tails, the turn
    passes to the second, who flips: heads, the second wins, tails, a draw worth 1/2. The
    terminal states' column ``name`` (the outcome) is "h1", "h2" or "t"."""
    ends = {"h1": 1, "h2": 1, "t": Fraction(1, 2)}

    def mdp_initial_state():
        return "first"

    def mdp_actions(state):
        return ["flip"] if state in ("first", "second") else []

    def mdp_outcomes(state, action):
        return ([(Fraction(1, 2), "h1"), (Fraction(1, 2), "second")] if state == "first"
                else [(Fraction(1, 2), "h2"), (Fraction(1, 2), "t")])

    def mdp_terminal_value(state):
        return ends[state]

    def mdp_state_columns(state):
        return {name: state if state in ends else None}

    def mdp_outcome_columns():
        return [name]

    def mdp_turns():
        return mdp.Turns(lambda states, nexts: [n == "second" for n in nexts], total=1)

    hooks = {f.__name__: mdp.hookimpl(f) for f in (
        mdp_initial_state, mdp_actions, mdp_outcomes, mdp_terminal_value, mdp_state_columns,
        mdp_outcome_columns, mdp_turns)}
    return mdp.load_game(SimpleNamespace(GAME_NAME="duel", **hooks))


@settings(max_examples=40, deadline=None)
@given(NAMES)
def test_an_outcome_column_of_a_game_of_two_players_is_refused_where_named_player(name):
    try:
        game = _duel(name)
        solution = mdp.solve(mdp.compile(game), exact=True)
        frame = mdp.distribution(solution, game)
    except mdp.ModelError as error:
        assert name in ADDED | {"player"}, error
        assert str(error).startswith("game duel: mdp_") and f"a column {name!r}, which" in str(error)
        return
    assert name not in ADDED | {"player"}
    # By hand: the first player wins at once half the time; else the second is to move at the
    # end, winning at h2 or drawing at t, a quarter each.
    chances = {(row[name], row["player"]): Fraction(row["exact"]) for row in frame.iter_rows(named=True)}
    assert chances == {("h1", "first"): Fraction(1, 2), ("h2", "second"): Fraction(1, 4),
                       ("t", "second"): Fraction(1, 4)}
    assert np.isclose(sum(frame["probability"]), 1)


def test_a_state_column_named_as_the_key_of_a_round_state_is_refused():
    """Without mdp_round_columns, the tables name a round state by its key, ``round_state``:
    a column of the round's states of that name is refused, as a round column would be."""
    from models import two_boxes

    @mdp.hookimpl
    def mdp_state_columns(state):
        return {"round_state": state[0]}

    game = two_boxes(mdp_state_columns=mdp_state_columns)
    solution = mdp.solve(mdp.compile(game))
    with pytest.raises(mdp.ModelError, match=r"^game two-boxes: a state or action of the round "
                       r"has a column 'round_state', which the tables of a game of rounds add"):
        mdp.policy(solution, game, within="all")
    fine = two_boxes()  # the key, beside the round's state and action
    assert mdp.policy(mdp.solve(mdp.compile(fine)), fine, within="all").columns[:3] == \
        ["round_state", "state", "action"]
