"""Ties in floats (mdp/engine/policy.py tie_margin): an action ties with the best when it is
within FLOAT_TIE of the best *relative to its size*, so values scaled by any factor choose the
same actions. An absolute margin (main: 1e-12 times the best, at least 1) took every action
worth less than 1e-12 for the best: the worse one was played by the distribution, the policy,
advice, play toward a total and a game of rounds' strategies."""

from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import Table, two_boxes, two_boxes_ends

import mdp
from mdp.engine.rounds.toward import toward_distribution

SCALES = st.integers(-30, 30)


def tickets(values):
    """One choice among actions, each leading to its own end worth ``values[i]``."""
    return Table({"start": {f"a{i}": [(1, f"end{i}")] for i in range(len(values))}},
                 {f"end{i}": v for i, v in enumerate(values)})


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-50, 50), min_size=2, max_size=5), SCALES, st.sampled_from(["max", "min"]))
@pytest.mark.slow
def test_values_scaled_by_any_factor_choose_the_same_actions(values, k, sense):
    """The optimal actions in floats are those whose exact value is the best (whole numbers
    apart by at least 1: relatively far past 1e-12), whatever power of ten scales them."""
    scale = Fraction(10) ** k
    game = mdp.load_game(tickets([v * scale for v in values]))
    model = mdp.compile(game)
    best = max(values) if sense == "max" else min(values)
    expected = [v == best for v in values]
    floats = mdp.solve(model, sense=sense)
    assert floats.action_values().optimal.tolist() == expected
    first = expected.index(True)
    assert floats.as_policy().probabilities.tolist() == [float(i == first) for i in range(len(values))]
    shares = mdp.distribution(floats)
    assert shares["value"].to_list() == [float(best * scale)]


def test_a_rare_win_is_chosen_over_a_rarer_one():
    """Ticket A wins with chance 1e-13, ticket B with 3e-13: B is the only optimal action,
    and the distribution in floats follows it, as in exact numbers."""
    game = mdp.load_game(Table({"start": {
        "A": [(Fraction(1, 10**13), "won"), (1 - Fraction(1, 10**13), "lost")],
        "B": [(Fraction(3, 10**13), "won"), (1 - Fraction(3, 10**13), "lost")]}},
        {"won": 1, "lost": 0}))
    model = mdp.compile(game)
    floats = mdp.solve(model)
    values = floats.action_values()
    assert values.optimal.tolist() == [False, True]
    assert values.regret[0] == pytest.approx(2e-13, rel=1e-9, abs=0)
    won = mdp.distribution(floats).filter(value=1.0)["probability"].to_list()
    assert won == [pytest.approx(3e-13, rel=1e-9, abs=0)]


def _scaled_boxes(scale):
    @mdp.hookimpl
    def mdp_round_rule(ends):
        def rule(states):
            plain = two_boxes_ends(ends, states)
            return mdp.RoundEnds(plain.next, np.asarray(plain.points, dtype=object) * scale)
        return rule
    return two_boxes(mdp_round_rule=mdp_round_rule)


@settings(max_examples=12, deadline=None)
@given(SCALES)
def test_a_game_of_rounds_plays_alike_at_every_scale(k):
    """Two boxes with every end's points times 10**k: optimal play (37/4 by hand, times the
    scale) is played alike in floats and exact numbers, and greedy aims times any factor
    play as greedy does."""
    scale = Fraction(10) ** k
    game = _scaled_boxes(scale)
    model = mdp.compile(game)
    exact = mdp.solve(model, exact=True)
    floats = mdp.solve(model)
    assert exact.value == Fraction(37, 4) * scale
    for keys in ([0], [1, 2]):  # the round states of each round: boxes filled (bits)
        assert np.array_equal(floats.chosen(np.array(keys)), exact.chosen(np.array(keys)))

    @mdp.hookimpl
    def mdp_strategies():
        return [mdp.RoundsStrategy("tiny", "greedy times a scale",
                                   lambda game, model, keys, ends: ends.points * float(scale))]

    plain = two_boxes(mdp_strategies=mdp_strategies)
    greedy = mdp.evaluate(mdp.compile(plain), "greedy", game=plain, exact=True).value
    assert mdp.evaluate(mdp.compile(plain), "tiny", game=plain).value == pytest.approx(greedy, rel=1e-12, abs=0)


def safe_or_risky(rounds):
    """``rounds`` rounds; each, 1 point safe, or 3 or 0 on a fair coin. The round state is
    the rounds played; at ``rounds``, no end is allowed (-1): the game is over."""
    hooks = dict(
        mdp_initial_state=lambda: ("choose",),
        mdp_actions=lambda state: ["safe", "risky"] if state[0] == "choose" else [],
        mdp_outcomes=lambda state, action: [(1, ("end", 1))] if action == "safe" else
        [(Fraction(1, 2), ("end", 3)), (Fraction(1, 2), ("end", 0))],
        mdp_terminal_value=lambda state: 0,
        mdp_round_start=lambda: 0,
        mdp_round_rule=lambda ends: lambda states: mdp.RoundEnds(
            np.where(states[:, None] < rounds, states[:, None] + 1, -1) + np.zeros(
                (1, len(ends)), dtype=np.int64), np.array([[e[1] for e in ends]] * len(states))
            .reshape(len(states), len(ends))))
    return mdp.load_game(SimpleNamespace(GAME_NAME="safe-or-risky",
                                         **{k: mdp.hookimpl(v) for k, v in hooks.items()}))


@pytest.mark.parametrize("rounds", [2, 20, pytest.param(45, marks=pytest.mark.slow)])
def test_play_toward_a_total_reaches_it_with_the_best_chance_however_small(rounds):
    """At least 3R - 2 in R rounds: one safe round and every risky one won, chance 2**-(R-1)
    (all risky needs R wins: half that). The play followed toward it in floats reaches it
    with that chance (main, R = 45: safe every round, never reaching it)."""
    model = mdp.compile(safe_or_risky(rounds))
    target = 3 * rounds - 2
    for exact in (False, True):
        reach = mdp.at_least(model, exact=exact)
        assert reach.chance(target) == pytest.approx(Fraction(1, 2 ** (rounds - 1)), rel=1e-12, abs=0)
        shares = toward_distribution(reach, target)
        reached = sum(p for t, p in zip(shares["points"], shares["probability"]) if t >= target)
        assert reached == pytest.approx(2.0 ** -(rounds - 1), rel=1e-9, abs=0)
