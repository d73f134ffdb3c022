"""Faults of a batch game's mdp_columns that were tracebacks: an mdp.LazyColumn whose
function raises (anything: an exception, SystemExit, KeyboardInterrupt, a class of the game's
own) is one error naming the game, the hook and the column; columns that a state named
alone (its action None) is given but its rows with an action disagree with are refused by
mdp advise, where a table of no rows broke."""

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import Ladder

import mdp


class Own(BaseException):
    pass


# (A KeyboardInterrupt is the user's from Python, where mdp does not watch Ctrl-C.)
RAISED = st.sampled_from([ValueError, RuntimeError, SystemExit, GeneratorExit, Own,
                          StopIteration, MemoryError])


class Named(Ladder):
    """The ladder of 4 (by hand in tests/models.py: 9/16, jump) with columns: ``position``
    (n, or "bust") and ``move`` ("walk" or "jump"; ``alone`` where the action is None)."""

    def __init__(self, lazy=None, alone=None):
        super().__init__(4)
        self.lazy, self.alone = lazy, alone

    def make(self, keys):
        if self.lazy is not None:
            raise self.lazy("lazy boom")
        return ["bust" if k == self.BUST else str(k // 2) for k in keys]

    @mdp.hookimpl
    def mdp_columns(self, states, actions):
        keys = [int(k) for k in states]
        if actions is None:
            return {"position": mdp.LazyColumn(len(keys), self.make, (keys,))}
        return {"position": ["bust" if k == self.BUST else str(k // 2) for k in keys],
                "move": [self.alone if a is None else ("walk", "jump")[a] for a in actions]}


@settings(max_examples=20, deadline=None)
@given(kind=RAISED)
def test_a_lazy_column_that_raises_is_the_games_fault(kind):
    with pytest.raises(mdp.ModelError) as raised:  # made as the model is compiled (checked)
        mdp.compile(mdp.load_game(Named(lazy=kind))).terminals  # noqa: B018
    assert str(raised.value) == f"game ladder: mdp_columns' lazy column 'position' raised " \
        f"{kind.__name__}: lazy boom as it was made"


@settings(max_examples=20, deadline=None)
@given(alone=st.none() | st.sampled_from(["walk", "jump", "x", ""]))
def test_an_action_column_given_to_a_state_alone_is_refused_by_advise(alone):
    game = mdp.load_game(Named(alone=alone))
    solution = mdp.solve(mdp.compile(game), exact=True)
    if alone is None:  # as the hook says: the advice at 4, jump first (9/16 by hand)
        advice = mdp.advise(solution, game, position="4")
        assert advice.actions["move"].to_list() == ["jump", "walk"]
        assert advice.actions["value_exact"].to_list()[0] == "9/16"
        return
    with pytest.raises(mdp.ModelError) as raised:
        mdp.advise(solution, game, position="4", move=alone)
    message = str(raised.value)
    assert message.startswith(f"game ladder: mdp_columns gave move={alone!r} for the state "
                              "named alone (action None), but move="), message
    assert "an action's columns are None without one" in message and "\n" not in message


class Wide(Named):
    """The ladder whose column ``move`` is an array of more than one dimension."""

    def __init__(self, shape):
        super().__init__()
        self.shape = shape

    @mdp.hookimpl
    def mdp_columns(self, states, actions):
        import numpy as np

        return {"position": [str(int(k)) for k in states],
                "move": np.zeros((len(states), *self.shape))}


@settings(max_examples=10, deadline=None)
@given(shape=st.lists(st.integers(1, 3), min_size=1, max_size=2).map(tuple),
       table=st.sampled_from(["policy", "advise"]))
def test_a_column_of_more_dimensions_is_refused_by_every_table(shape, table):
    """mdp policy broke on it (a broadcast error where actions shown alike are sought)."""
    game = mdp.load_game(Wide(shape))
    with pytest.raises(mdp.ModelError, match=r"^game ladder: column 'move' is a \d-d numpy array"):
        solution = mdp.solve(mdp.compile(game), exact=True)  # its terminal states' columns
        if table == "policy":
            mdp.policy(solution, game)
        else:
            mdp.advise(solution, game, position="4")


class Impure(Named):
    """The ladder whose lazy column of positions is made ``how``: as it should (pure), with
    a count of the times it was made added, or by each row's place in its batch."""

    def __init__(self, how):
        super().__init__()
        self.how, self.calls = how, 0

    def make(self, keys):
        self.calls += 1
        if self.how == "counted":
            return [f"{k // 2}+{self.calls}" for k in keys]
        if self.how == "placed":
            return [str(i) for i in range(len(keys))]
        return super().make(keys)


@pytest.mark.parametrize("how", ["pure", "counted", "placed"])
def test_a_lazy_column_made_otherwise_than_asked_again_is_refused_as_a_table_makes_it(how):
    """The rows a lazy column's batch was asked again for are compared with it as a table makes
    it: a make that counts its calls labelled each table's outcomes otherwise, exit 0."""
    game = mdp.load_game(Impure(how))
    model = mdp.compile(game)  # nothing made: no table yet
    if how == "pure":
        assert sorted(model.terminals["position"].to_list()) == ["0", "bust"]
        return
    with pytest.raises(mdp.ModelError, match=r"^game ladder: asked again, mdp_columns gave position="):
        mdp.distribution(mdp.solve(model), game)


class Buffered(Ladder):
    """The ladder whose column of positions is a view of one array it fills again at each
    answer, as a game that spares its allocations would: each answer right when it is given."""

    def __init__(self):
        super().__init__(4)
        self.buffer = np.zeros(64, dtype=np.int64)

    @mdp.hookimpl
    def mdp_columns(self, states, actions):
        keys = np.asarray(states, dtype=np.int64)
        self.buffer[:len(keys)] = keys // 2
        moves = {} if actions is None else {"move": [None if a is None else ("walk", "jump")[a] for a in actions]}
        return {"position": self.buffer[:len(keys)], **moves}


def test_a_column_given_as_a_view_of_an_array_filled_again_is_kept_as_given():
    """Round 27: mdp kept the array a batch game handed, not a copy, and its next answer wrote
    over it: a Markdown policy labelled every state with the last batch's positions (two
    states alike, exit 0), and advise blamed the game for answering otherwise."""
    game = mdp.load_game(Buffered())
    table = mdp.policy(mdp.solve(mdp.compile(game)), game)
    # Keys: position n is 2n, a bust 1 (tests/models.py): the column is key // 2, by hand.
    assert sorted(set(table["position"].to_list())) == [1, 2, 3, 4]
    assert table.filter(pl.col("position") == 4)["move"].to_list() == ["walk", "jump"]

