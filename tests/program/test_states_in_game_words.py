"""A state the engine names in an error (it has no game: ``state 939302``, a batch game's key)
is named by the command line in the game's words, its columns, wherever the engine raises it
(a value that settles short of the residual, a play that never ends, a strategy's weights);
and only for the game it belongs to: a varied game's state is another game's."""

import re

import pytest
from models import Table

import mdp
from mdp.analysis.labels import worded
from mdp.program.cli import main


@pytest.mark.slow  # half a second or more of CPU
def test_a_value_short_of_the_residual_names_its_state_by_the_games_columns(capsys):
    assert main(["solve", "pig", "--set", "goal=10", "--residual", "1e-15"]) == 2
    err = capsys.readouterr().err
    assert re.search(r"the value of state \(me \d+, opponent \d+, turn \d+\) still changes", err), err
    assert "(--exact)" in err


class Looping(Table):
    """'start' loops or exits; its states' columns given for many at once (mdp_columns), as
    a batch game gives them."""

    GAME_NAME = "looping"

    def __init__(self):
        super().__init__({"start": {"loop": [(1, "start")], "exit": [(1, "end")]}}, {"end": 5})

    @mdp.hookimpl
    def mdp_strategies(self):
        return [mdp.Strategy.per_state("loop", "always loop", lambda s, a: [int(x == "loop") for x in a])]

    @mdp.hookimpl
    def mdp_columns(self, states, actions):
        return {"place": [f"at {state}" for state in states]}


def test_words_are_the_games_own_and_only_for_its_rules():
    game = mdp.load_game(Looping())
    model = mdp.compile(game)
    policy = mdp.strategy_policy(model, "loop", game=game)
    with pytest.raises(mdp.ModelError) as raised:
        mdp.solve(model, policy=policy)  # no game: the engine's words
    error = raised.value
    assert "from state 'start'" in str(error) and error.state == "start"
    assert "from state (place at start)" in str(worded(error, game))
    # another game: left as the engine said it
    assert str(worded(error, mdp.load_game("shutbox", tiles="1-3"))) == str(error)
    with pytest.raises(mdp.ModelError, match=re.escape("from state (place at start)")):
        mdp.evaluate(model, "loop", game=game)  # a game given: its words
    table = mdp.strategy_values(model, game)
    assert "from state (place at start)" in table["problem"][1]


def test_an_error_naming_no_state_is_left_alone():
    error = mdp.ModelError("game shutbox: something")
    assert worded(error, mdp.load_game("shutbox")) is error
