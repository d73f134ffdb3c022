"""Named strategies against a brute force written here, over the tiles, sharing no code with
the game or the engine: every value compared exactly."""

from fractions import Fraction
from functools import cache
from itertools import combinations

import numpy as np
import pytest

import mdp

TWO_DICE = {t: Fraction(6 - abs(t - 7), 36) for t in range(2, 13)}
ONE_DIE = {t: Fraction(1, 6) for t in range(1, 7)}


def _uniform(items):
    return [(Fraction(1, len(items)), item) for item in items]


def _fewest_tiles(moves):
    return [(1, min(moves, key=lambda m: (len(m), sorted(-t for t in m))))]


def _by_count(pick):
    return lambda moves: _uniform([m for m in moves if len(m) == pick(len(m) for m in moves)])


# name -> (dice: the options [two dice, one die?] -> probabilities, shut: moves -> (p, move))
STRATEGIES = {
    "random": (lambda options: [Fraction(1, len(options))] * len(options), _uniform),
    "fewest-tiles": (lambda options: [0, 1] if len(options) == 2 else [1], _fewest_tiles),
    "shortest": (lambda options: [1] + [0] * (len(options) - 1), _by_count(min)),
    "longest": (lambda options: [1] + [0] * (len(options) - 1), _by_count(max)),
}


def brute_value(name, tiles=tuple(range(1, 10)), score=False):
    """The chance of shutting the box (or the expected sum left open) under the riddler rules
    (two dice; one die may be chosen once every open tile is 6 or less)."""
    dice, shut = STRATEGIES[name]

    @cache
    def value(open_tiles):
        end = sum(open_tiles) if score else int(not open_tiles)
        if not open_tiles:
            return Fraction(end)
        options = [TWO_DICE] + ([ONE_DIE] if max(open_tiles) <= 6 else [])
        total = Fraction(0)
        for chance, rolls in zip(dice(options), options):
            for roll, p in rolls.items():
                moves = [c for r in range(1, len(open_tiles) + 1)
                         for c in combinations(open_tiles, r) if sum(c) == roll]
                if not moves:
                    total += chance * p * end
                    continue
                for q, move in shut(moves):
                    total += chance * p * q * value(tuple(t for t in open_tiles if t not in move))
        return total

    return value(tiles)


@pytest.fixture(scope="module")
def box():
    game = mdp.load_game("games/shutbox")
    return game, mdp.compile(game)


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_strategy_value_matches_the_brute_force(box, name):
    game, model = box
    assert mdp.evaluate(model, name, game=game, exact=True).value == brute_value(name)


@pytest.mark.parametrize("name", ["random", "fewest-tiles"])
def test_strategy_value_with_the_pub_score(name):
    game = mdp.load_game("games/shutbox", tiles="1-6", scoring="score")
    solution = mdp.evaluate(mdp.compile(game), name, game=game, exact=True)
    assert solution.value == brute_value(name, tuple(range(1, 7)), score=True)


def test_strategies_are_listed_with_the_game_first(box):
    game, _ = box
    assert list(mdp.strategies(game)) == ["random", "fewest-tiles", "shortest", "longest"]


def test_optimal_play_as_a_strategy_has_the_optimal_value(box):
    game, model = box
    solution = mdp.evaluate(model, "optimal", game=game, exact=True)
    assert solution.value == mdp.solve(model, exact=True).value == Fraction(956177159, 9795520512)
    assert solution.policy.name == "optimal"


def test_weights_are_checked(box):
    game, model = box
    with pytest.raises(mdp.ModelError, match="weights for"):
        mdp.evaluate(model, np.ones(3))
    with pytest.raises(mdp.ModelError, match="float weights"):
        mdp.evaluate(model, np.ones(model.n_actions), exact=True)
    with pytest.raises(mdp.ModelError, match="no action has weight"):
        mdp.evaluate(model, np.zeros(model.n_actions, dtype=int))
    with pytest.raises(mdp.ParamError, match="did you mean random"):
        mdp.evaluate(model, "randm", game=game)


def test_floats_agree_with_exact(box):
    game, model = box
    exact = mdp.evaluate(model, "random", game=game, exact=True).value
    assert mdp.evaluate(model, "random", game=game).value == pytest.approx(float(exact), rel=1e-12)


def test_action_values_under_a_strategy_measure_against_the_best_action(box):
    game, model = box
    solution = mdp.evaluate(model, "random", game=game, exact=True)
    per_action = solution.action_values()
    assert (per_action.regret >= 0).all()
    # Every state where the player acts has a best action under the strategy's continuation.
    assert len(np.unique(per_action.state[per_action.optimal])) == model.n_states - model.n_terminal
