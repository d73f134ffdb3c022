"""Games whose states come back: strongly connected components solved by value iteration
(floats) or policy iteration (exact), each test against a value derived by hand or in
closed form."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import Table

import mdp

SIXTH = Fraction(1, 6)


def reroll(faces=6):
    """Roll a die; keep the face (worth the face) or roll again, for ever if you like.

    By hand: the value v of rolling is (1/f) * sum(max(face, v)); keeping only the top face
    gives v = f/f + (f-1)/f * v, so v = f: roll until the top face shows, worth f. Least:
    keep whatever shows, 1 (rolling again can never do better than the lowest face)."""
    p = Fraction(1, faces)
    transitions = {"start": {"roll": [(p, ("face", f)) for f in range(1, faces + 1)]}}
    for f in range(1, faces + 1):
        transitions[("face", f)] = {"keep": [(1, ("kept", f))], "again": [(1, "start")]}
    return Table(transitions, {("kept", f): f for f in range(1, faces + 1)})


def ruin(goal, start, p):
    """Gambler's ruin: bet one unit at a time, won with chance p, until 0 or ``goal``.

    Closed form: with r = (1 - p) / p, the chance of reaching the goal from i is
    (1 - r**i) / (1 - r**goal) (r != 1), and i / goal for a fair bet."""
    transitions = {i: {"bet": [(p, i + 1), (1 - p, i - 1)]} for i in range(1, goal)}
    return Table(transitions, {0: 0, goal: 1}, initial=start)


def ruin_chance(goal, start, p):
    r = (1 - p) / p
    return Fraction(start, goal) if r == 1 else (1 - r ** start) / (1 - r ** goal)


def test_roll_until_the_top_face_shows_is_worth_it():
    model = mdp.compile(game := mdp.load_game(reroll()))
    assert model.cyclic is not None and model.cyclic.any()
    assert mdp.solve(model, exact=True).value == 6
    # Value iteration stops at a change of 6e-12 (the residual times the largest terminal
    # value); the error left is that times about 1/(1 - 5/6) over the two sweeps of a cycle.
    assert mdp.solve(model).value == pytest.approx(6, abs=1e-9)
    assert mdp.solve(model, sense="min", exact=True).value == 1
    advice = mdp.policy(mdp.solve(model, exact=True), game)
    kept = advice.filter(advice["optimal"] & (advice["action"] == "keep"))
    assert kept["state"].to_list() == [str(("face", 6))]


@settings(max_examples=25, deadline=None)
@given(goal=st.integers(3, 9), data=st.data(),
       p=st.fractions(Fraction(1, 10), Fraction(9, 10), max_denominator=12))
def test_gamblers_ruin_against_its_closed_form(goal, data, p):
    start = data.draw(st.integers(1, goal - 1))
    model = mdp.compile(mdp.load_game(ruin(goal, start, p)))
    expected = ruin_chance(goal, start, p)
    assert mdp.solve(model, exact=True).value == expected
    solution = mdp.solve(model)
    assert solution.value == pytest.approx(float(expected), abs=1e-8)
    assert 0 <= solution.residual <= 1e-12


def test_the_residual_is_the_users(monkeypatch):
    monkeypatch.setattr("mdp.engine.rings.MOST_ELIMINATED", 0)  # the sweeps' (rings.py: exact)
    model = mdp.compile(mdp.load_game(ruin(9, 4, Fraction(2, 5))))
    rough = mdp.solve(model, residual=1e-3)
    assert 0 < rough.residual <= 1e-3
    assert abs(rough.value - float(ruin_chance(9, 4, Fraction(2, 5)))) > 1e-9
    assert rough.summary()["residual"] == rough.residual
    with pytest.raises(mdp.ParamError, match=r"residual=0: a number from 1e-15 \(float64 reaches no closer\) to 1"):
        mdp.solve(model, residual=0)


@pytest.mark.parametrize("residual", [1e-300, 9e-16])
def test_a_residual_float64_cannot_reach_is_refused_before_any_work(residual, capsys):
    """Float64 values of about 1 are stored to 1.1e-16: a residual below 1e-15 was taken,
    then the sweeps ran for seconds and blamed the game ("some play may never end")."""
    from mdp.program.cli import main

    model = mdp.compile(mdp.load_game(ruin(7, 3, Fraction(11, 20))))
    with pytest.raises(mdp.ParamError, match=rf"residual={residual!r}: a number from 1e-15"):
        mdp.solve(model, residual=residual)
    assert mdp.solve(model, residual=1e-15).residual <= 1e-15
    with pytest.raises(SystemExit) as exited:
        main(["solve", "pig", "--residual", str(residual)])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert f"residual={residual!r}: a number from 1e-15 (float64 reaches no closer) to 1" in err
    assert err.count("\n") == 1


def test_a_cycle_no_play_leaves_is_refused_naming_it():
    game = mdp.load_game(Table({"start": {"go": [(1, "a")], "stop": [(1, "end")]},
                                "a": {"go": [(1, "b")]}, "b": {"back": [(1, "a")]}},
                               {"end": 0}))
    with pytest.raises(mdp.CycleError, match=r"game table: the states form a cycle "
                                             r"\('a' -> 'b' -> 'a'\) that no play leaves"):
        mdp.compile(game)


@pytest.mark.parametrize("exact", [False, True])
def test_a_policy_that_never_ends_is_refused_in_floats_and_exactly(exact):
    model = mdp.compile(game := mdp.load_game(reroll(2)))
    labels = mdp.action_labels(model, game)
    again = mdp.Policy.of_weights(model, [int(a in ("roll", "again")) for a in labels],
                                  exact=True)
    with pytest.raises(mdp.ModelError, match="playing custom, the game never ends from state"):
        mdp.solve(model, exact=exact, policy=again)


def test_acyclic_games_take_the_one_pass():
    model = mdp.compile(mdp.load_game(ruin(2, 1, Fraction(1, 3))))  # no state comes back
    assert model.one_pass and model.cyclic is None
    assert mdp.solve(model).residual is None


def test_solve_many_refuses_a_game_with_cycles():
    model = mdp.compile(mdp.load_game(reroll()))
    with pytest.raises(mdp.ParamError, match="solve_many takes a game solved in one pass"):
        mdp.solve_many(model, np.ones((model.n_terminal, 2)))


def test_a_game_of_rounds_whose_round_has_cycles_is_refused():
    class Rounds(type(reroll())):
        @mdp.hookimpl
        def mdp_round_start(self):
            return 1

    table = reroll()
    game = mdp.load_game(Rounds(table.transitions, table.values))
    with pytest.raises(mdp.ModelError, match="whose round has states that come back, or two "
                                             "players, is not yet solved"):
        mdp.compile(game)


@settings(max_examples=15, deadline=None)
@given(goal=st.integers(3, 9), data=st.data(),
       p=st.fractions(Fraction(1, 10), Fraction(9, 10), max_denominator=12))
def test_the_chance_of_each_end_of_gamblers_ruin(goal, data, p):
    # The chance of ending at the goal is the closed form's; at 0, the rest.
    start = data.draw(st.integers(1, goal - 1))
    game = mdp.load_game(ruin(goal, start, p))
    frame = mdp.solve(mdp.compile(game)).chances(game)
    chance = dict(zip(frame["value"].to_list(), frame["probability"].to_list()))
    expected = float(ruin_chance(goal, start, p))
    assert chance[1] == pytest.approx(expected, abs=1e-9)
    assert chance[0] == pytest.approx(1 - expected, abs=1e-9)


def test_the_chance_of_each_end_when_rolling_until_the_top_face():
    game = mdp.load_game(reroll())
    model = mdp.compile(game)
    most = mdp.solve(model).chances(game)
    assert most["value"].to_list() == [6] and most["probability"].to_list() == [pytest.approx(1)]
    least = mdp.solve(model, sense="min").chances(game)
    assert least["value"].to_list() == [1] and least["probability"].to_list() == [pytest.approx(1)]
    exact = mdp.solve(model, exact=True).chances(game)  # by an exact linear solve
    assert exact["exact"].to_list() == ["1/1"]


def test_a_tie_break_is_refused_where_states_come_back():
    game = mdp.load_game(reroll())
    solution = mdp.solve(mdp.compile(game))
    with pytest.raises(mdp.ParamError, match="a tie-break is not yet worked out"):
        mdp.choices(solution, ["max:value"])
