"""mdp.strategy_values(model, game, optimal=...) takes the caller's optimal solution only
where it is what mdp.solve makes of that model as exact and sense say (round 28: a solution
of Pig, or of another set of tiles, or in floats under exact=True, was printed as the
optimum, every regret measured against it)."""

import pytest

import mdp


@pytest.fixture(scope="module")
def tiles():
    game = mdp.load_game("shutbox", tiles="1-4")
    return game, mdp.compile(game)


def test_the_models_own_solution_gives_the_table_made_without_it(tiles):
    game, model = tiles
    for exact in (False, True):
        given = mdp.strategy_values(model, game, exact=exact, optimal=mdp.solve(model, exact=exact))
        assert given.equals(mdp.strategy_values(model, game, exact=exact))


@pytest.mark.parametrize(("make", "exact", "sense", "why"), [
    (lambda g, m: mdp.solve(mdp.compile(mdp.load_game("pig", goal=5)), exact=True), True, None,
     "a solution of another compiled model"),
    (lambda g, m: mdp.solve(mdp.compile(mdp.load_game("shutbox", tiles="1-4"))), False, None,
     "a solution of another compiled model"),
    (lambda g, m: mdp.solve(m), True, None, "solved in floats, but exact is True"),
    (lambda g, m: mdp.solve(m, exact=True), False, None, "solved exactly, but exact is False"),
    (lambda g, m: mdp.solve(m, sense="min"), False, "max", "solved to the minimum, but sense is 'max'"),
    (lambda g, m: mdp.evaluate(m, "random", game=g), False, None,
     "the play of the strategy random, not optimal play"),
])
def test_a_solution_of_other_than_the_model_as_asked_is_refused(tiles, make, exact, sense, why):
    game, model = tiles
    with pytest.raises(mdp.ParamError, match=f"^mdp.strategy_values: optimal is {why}; give "):
        mdp.strategy_values(model, game, exact=exact, sense=sense, optimal=make(game, model))


@pytest.mark.slow  # half a second or more of CPU
def test_a_game_of_rounds_too():
    game = mdp.load_game("yahtzee", card="yahtzee", boxes="ones,twos")
    other = mdp.load_game("yahtzee", card="yahtzee", boxes="ones,threes")
    with pytest.raises(mdp.ParamError, match="optimal is a solution of another compiled model"):
        mdp.strategy_values(mdp.compile(game), game, optimal=mdp.solve(mdp.compile(other)))
