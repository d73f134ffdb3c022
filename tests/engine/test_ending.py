"""Optimal play of a game whose states come back must end; a way of playing that never ends
is refused by name, before any work, in floats and exactly alike (mdp.engine.cycles_ending).

The expected values: derived by hand for the small games, and, for the generated ones, by
an independent brute force over every deterministic way of playing that ends."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from models import HALF, HandedOver, Table

import mdp


def loop(first="loop", end=5):
    """One state: ``loop`` comes back to it, ``exit`` ends worth ``end``: both worth ``end``,
    and only ``exit`` ever ends."""
    actions = {"loop": [(1, "start")], "exit": [(1, "end")]}
    order = [first, *(a for a in actions if a != first)]
    return Table({"start": {a: actions[a] for a in order}}, {"end": end})


class Passing(HandedOver):
    """Two players: ``pass`` hands the same state to the other, ``gamble`` wins (1) or loses
    (0) with chance ``win``. At 1/2 both are worth 1/2 (v = max(1 - v, 1/2)); only
    ``gamble`` ends. At 1/3, passing is strictly best (v = 1/2 > 1/3): no optimal play ends."""

    GAME_NAME = "passing"

    def __init__(self, win=HALF):
        super().__init__({"s": {"pass": [(1, "s")], "gamble": [(win, "won"), (1 - win, "lost")]}},
                         {"won": 1, "lost": 0}, initial="s")


def optimal_actions(solution, game):
    table = mdp.policy(solution, game)
    return table.filter(table["optimal"])["action"].to_list()


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize("first", ["loop", "exit"])
def test_a_loop_that_ties_with_ending_is_not_optimal_play(exact, first):
    game = mdp.load_game(loop(first))
    solution = mdp.solve(mdp.compile(game), exact=exact)
    assert solution.value == 5
    assert optimal_actions(solution, game) == ["exit"]
    played = mdp.simulate(solution, game, games=20, seed=1)
    assert played.mean == 5 and played.outcomes["games"].to_list() == [20]


@pytest.mark.parametrize("exact", [False, True])
def test_two_players_passing_for_ever_is_not_optimal_play(exact):
    game = mdp.load_game(Passing())
    solution = mdp.solve(mdp.compile(game), exact=exact)
    assert solution.value == HALF
    assert optimal_actions(solution, game) == ["gamble"]
    assert mdp.simulate(solution, game, games=10, seed=1).outcomes["games"].sum() == 10


@pytest.mark.slow
@pytest.mark.parametrize("exact", [False, True])
def test_where_only_a_play_that_never_ends_is_best_it_is_refused_naming_the_state(exact):
    model = mdp.compile(mdp.load_game(Passing(Fraction(1, 3))))
    with pytest.raises(mdp.ModelError, match="game passing: the value of state 's' still changes"):
        mdp.solve(model, exact=exact)


class Strategies(Table):
    GAME_NAME = "strategies"

    def __init__(self):
        table = loop("exit")
        super().__init__(table.transitions, table.values)

    @mdp.hookimpl
    def mdp_strategies(self):
        return [mdp.Strategy.per_state("loop", "always loop", lambda s, a: [0, 1]),
                mdp.Strategy.per_state("half", "either", lambda s, a: [1, 1])]


@pytest.mark.parametrize("exact", [False, True])
def test_a_strategy_that_never_ends_is_not_evaluated_on_its_own_row(exact):
    game = mdp.load_game(Strategies())
    model = mdp.compile(game)
    table = mdp.strategy_values(model, game, exact=exact)
    assert table["value"].to_list() == [5.0, None, 5.0]
    assert table["problem"][1] == ("game strategies: playing loop, the game never ends from state "
                                   "'start': every action it takes there, and after, only goes "
                                   "round among states that come back")
    with pytest.raises(mdp.ModelError, match="playing loop, the game never ends from state 'start'"):
        mdp.evaluate(model, "loop", game=game, exact=exact)
    looping = mdp.strategy_policy(model, "loop", game=game)
    with pytest.raises(mdp.ModelError, match="playing loop, the game never ends"):  # not a hang
        mdp.simulate(looping, game, games=5, seed=1)


# An independent brute force: every deterministic way of playing, evaluated exactly by
# Gaussian elimination here; those that end from every state kept; the best of them.

def _values(transitions, values, states, choice):
    """Exact values of every state under ``choice`` (an action per state), or None where
    the play does not end from every state."""
    index = {s: i for i, s in enumerate(states)}
    n = len(states)
    matrix = [[Fraction(int(i == j)) for j in range(n)] + [Fraction(0)] for i in range(n)]
    for i, s in enumerate(states):
        for p, nxt in transitions[s][choice[i]]:
            if nxt in index:
                matrix[i][index[nxt]] -= p
            else:
                matrix[i][n] += p * values[nxt]
    for c in range(n):  # I - P is singular exactly where some states never end
        pivot = next((r for r in range(c, n) if matrix[r][c] != 0), None)
        if pivot is None:
            return None
        matrix[c], matrix[pivot] = matrix[pivot], matrix[c]
        for r in range(n):
            if r != c and matrix[r][c] != 0:
                f = matrix[r][c] / matrix[c][c]
                matrix[r] = [a - f * b for a, b in zip(matrix[r], matrix[c])]
    solved = [matrix[i][n] / matrix[i][i] for i in range(n)]
    return solved if _ends(transitions, states, choice) else None


def _ends(transitions, states, choice):
    ending = set()
    changed = True
    while changed:
        changed = False
        for i, s in enumerate(states):
            if s not in ending and any(n not in transitions or n in ending
                                       for _, n in transitions[s][choice[i]]):
                ending.add(s)
                changed = True
    return len(ending) == len(states)


SLOW = Fraction(10**12, 10**12 + 1)
"""A chance that keeps a loop going a trillion steps: a tie of one step (1e-12) lost at each."""


@st.composite
def cyclic_games(draw):
    n = draw(st.integers(1, 3))
    ends = {("end", k): draw(st.integers(-2, 2)) for k in range(2)}
    targets = st.sampled_from(list(range(n)) + list(ends))
    transitions = {}
    for s in range(n):
        actions = {}
        for a in range(draw(st.integers(1, 3))):
            if draw(st.booleans()):
                actions[f"a{a}"] = [(1, draw(targets))]
            else:
                p = draw(st.sampled_from([HALF, Fraction(1, 3), SLOW]))
                actions[f"a{a}"] = [(p, draw(targets)), (1 - p, draw(targets))]
        transitions[s] = actions
    return transitions, ends


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(cyclic_games(), st.sampled_from(["max", "min"]))
# Going on is worth 1 - 1e-12 (back to the start, else 0), stopping 1: in floats a tie of one
# step, and its play, repeated, ended at 0 while the value said 1.
@example(({0: {"a0": [(SLOW, 0), (1 - SLOW, ("end", 0))], "a1": [(1, ("end", 1))]}},
          {("end", 0): 0, ("end", 1): 1}), "max")
def test_optimal_play_ends_and_is_the_best_play_that_ends(drawn, sense):
    transitions, ends = drawn
    states, seen = [], [0]  # those reachable from the start, as the engine walks them
    while seen:
        if (s := seen.pop()) not in states:
            states.append(s)
            seen += [n for outcomes in transitions[s].values() for _, n in outcomes if n in transitions]
    states.sort()
    proper = [v for choice in itertools.product(*(list(transitions[s]) for s in states))
              if (v := _values(transitions, ends, states, choice)) is not None]
    game = mdp.load_game(Table(transitions, ends, initial=0))
    try:
        model = mdp.compile(game)
    except mdp.CycleError:  # a cycle no play leaves: no way of playing ends
        assert not proper
        return
    pick = max if sense == "max" else min
    best = [pick(v[i] for v in proper) for i in range(len(states))]
    exact = mdp.solve(model, exact=True, sense=sense)
    floats = mdp.solve(model, sense=sense)
    assert [exact.value_of(s) for s in states] == best
    assert [floats.value_of(s) for s in states] == pytest.approx([float(v) for v in best], abs=1e-9)
    for solution in (exact, floats):  # its play is one that ends, worth the best
        played = mdp.solve(model, exact=solution.exact, policy=solution.as_policy())
        assert played.value == pytest.approx(exact.value, abs=1e-9)
        if all(p != SLOW for actions in transitions.values() for outcomes in actions.values()
               for p, _ in outcomes):  # (a game of a trillion steps is not played out)
            assert np.asarray(mdp.simulate(solution, game, games=50, seed=0).outcomes["games"]).sum() == 50


@pytest.mark.parametrize("exact", [False, True])
def test_two_ways_of_playing_are_checked_together(exact):
    # Passing against optimal play (which gambles) ends, worth 1/2 to the passer: the other
    # gambles and wins half the time. Passing against passing never ends: refused.
    game = mdp.load_game(Passing())
    model = mdp.compile(game)
    labels = mdp.action_labels(model, game)
    passer = mdp.Policy.of_weights(model, [int(a == "pass") for a in labels], exact=True,
                                   name="passer")
    assert mdp.solve(model, policy=passer, exact=exact).value == HALF
    with pytest.raises(mdp.ModelError, match="game passing: playing passer against passer, the "
                                             "game never ends from state 's'"):
        mdp.solve(model, policy=passer, against=passer, exact=exact)
    with pytest.raises(mdp.ModelError, match="playing passer, the game never ends"):
        mdp.simulate(passer, game, games=5, seed=1)
