"""The compiled model as a value, and its operations: backup, push, sample, edges."""

from fractions import Fraction

import attrs
import numpy as np
import pluggy
import polars as pl
import pytest
from models import HALF, Ladder, gamble

import mdp


def test_the_model_holds_no_game():
    model = mdp.compile(mdp.load_game("games/shutbox"))
    for field in attrs.fields(type(model)):
        value = getattr(model, field.name)
        assert not isinstance(value, (mdp.Game, pluggy.PluginManager)), field.name
    assert model.info.game == "shutbox"
    assert model.info.objective.name == "chance of shutting the box"


def test_a_certain_outcome_costs_one_successor_id():
    # Shut the Box at tiles 1-4, one die: every move after a roll is a choice with one
    # certain outcome; only the rolls (one action per state before a roll) are chance actions.
    model = mdp.compile(mdp.load_game("games/shutbox", tiles="1-4", dice=1))
    chance = model.action_next < 0
    assert len(model.chance_start) - 1 == int(chance.sum())
    # Six outcomes per roll of one die: the outcome arrays hold the chance actions' only.
    assert len(model.outcome_next) == 6 * int(chance.sum())
    assert int((~chance).sum()) > 0


def reach(model, solution, exact):
    """Push the probability of the initial state down the optimal actions (first optimal
    action of each state), layer by layer; return the probability of reaching each state."""
    per_action = solution.action_values()
    first_best = np.zeros(model.n_actions, dtype=bool)
    taken = set()
    for a in np.flatnonzero(per_action.optimal).tolist():
        state = per_action.state[a]
        if state not in taken:
            taken.add(state)
            first_best[a] = True
    dtype = object if exact else np.float64
    probabilities = np.array([Fraction(p) if exact else float(p) for p in model.probabilities], dtype=dtype)
    reached = np.zeros(model.n_states, dtype=dtype)
    reached[model.initial] = Fraction(1) if exact else 1.0
    for layer in range(model.n_layers - 1, 0, -1):
        a0, a1 = model.layer_actions(layer)
        mass = np.where(first_best[a0:a1], reached[per_action.state[a0:a1]], 0)
        model.push(layer, mass.astype(dtype), reached, probabilities)
    return reached


def test_push_reaches_the_end_with_probability_one_and_wins_with_the_value():
    model = mdp.compile(mdp.load_game("games/shutbox", tiles="1-6"))
    solution = mdp.solve(model, exact=True)
    reached = reach(model, solution, exact=True)
    ends = reached[: model.n_terminal]
    assert sum(ends) == 1
    won = [p for p, value in zip(ends, model.terminal_values) if value == 1]
    assert sum(won) == solution.value


def test_sample_follows_the_probabilities():
    # The Ladder of tests/models.py: from position 4, "walk" reaches 3 with 5/6 and busts with 1/6.
    model = mdp.compile(mdp.load_game(Ladder(4)))
    walk = model.action_start[model.initial]  # the first action: walk
    rng = np.random.default_rng(7)
    nexts = model.sample(np.full(60_000, walk), rng)
    bust = model.state_id(Ladder.BUST)
    frequency = np.mean(nexts == bust)
    # 60,000 draws of a 1/6 event: the standard deviation is 0.0015; allow five of them.
    assert abs(frequency - 1 / 6) < 0.0076
    assert set(nexts.tolist()) == {bust, model.state_id(6)}


def test_edges_list_every_transition_once():
    model = mdp.compile(mdp.load_game(gamble()))
    action, successor, probability = model.edges()
    # tests/models.py: risky (1/3 win, 2/3 again), safe (1), flip (1/2, 1/2), settle (1).
    assert len(action) == 6 == model.n_outcomes
    table = [Fraction(1) if p < 0 else Fraction(model.probabilities[p]) for p in probability]
    totals = {}
    for a, p in zip(action.tolist(), table):
        totals[a] = totals.get(a, 0) + p
    assert set(totals.values()) == {1}
    assert sorted(table) == sorted([Fraction(1, 3), Fraction(2, 3), Fraction(1), HALF, HALF, Fraction(1)])


@pytest.mark.parametrize("batch", [True, False])
def test_action_labels_are_asked_of_the_game(batch):
    # The model keeps no labels; both ways of discovery give the game's own, in action order.
    ladder = Ladder(5)
    game = mdp.load_game(ladder)
    model = mdp.compile(game, batch=batch)
    expected = [code for s in range(model.n_terminal, model.n_states)
                for code, _ in ladder.moves(int(model.states[s]))]
    assert list(mdp.action_labels(model, game)) == expected
    some = [model.n_terminal, model.initial]  # one state of the lowest layer, and the top
    assert list(mdp.action_labels(model, game, some)) == \
        [code for s in some for code, _ in ladder.moves(int(model.states[s]))]


def test_a_game_that_changes_its_actions_is_named():
    class Fickle(Ladder):
        changed = False  # after the compile: no jump from the start any more

        def moves(self, key):
            moves = super().moves(key)
            return moves[:1] if self.changed and key == 2 * self.start else moves

    fickle = Fickle(5)
    game = mdp.load_game(fickle)
    model = mdp.compile(game, batch=False)
    fickle.changed = True
    with pytest.raises(mdp.ModelError, match="asked again, it gave 1 actions where it gave 2"):
        mdp.action_labels(model, game)


def test_the_successors_of_any_actions_are_their_edges():
    # Against model.edges, which lists every outcome of every action in one pass: the
    # actions of the whole model, of one layer, and some in no order, choices and throws.
    model = mdp.compile(mdp.load_game("games/shutbox", tiles="1-6"))
    action, successor, _ = model.edges()
    of = [successor[action == a].tolist() for a in range(model.n_actions)]
    assert {len(s) for s in of} > {1}  # throws of many outcomes, and choices
    first, last = model.layer_actions(2)
    some = np.random.default_rng(7).permutation(model.n_actions)[:60]
    for actions in (np.arange(model.n_actions), np.arange(first, last), some):
        counts, ids = model.successors(actions)
        assert counts.tolist() == [len(of[a]) for a in actions]
        assert ids.tolist() == [s for a in actions for s in of[a]]


@pytest.mark.parametrize("batch", [False, True])
def test_a_game_that_reorders_its_actions_is_named(batch):
    # Asked again for its labels, the game gives its two actions at the start in the other
    # order: before, each label landed on the other action's value (walk on jump's), silently.
    class Reordering(Ladder):
        reordered = False  # after the compile

        def moves(self, key):
            moves = super().moves(key)
            return moves[::-1] if self.reordered and key == 2 * self.start else moves

    reordering = Reordering(5)
    game = mdp.load_game(reordering)
    model = mdp.compile(game, batch=batch)
    assert mdp.policy(mdp.solve(model), game).height == 9  # the labels, as compiled
    reordering.reordered = True
    hook = "mdp_expand gave an action other outcomes than before (state 10, action 1)" if batch \
        else "mdp_actions gave [1, 0]: other actions than before, or the same in another order (state 10)"
    message = f"game ladder: asked again{' for labels' if batch else ''}, {hook}; a game must give " \
        "the same actions in the same order each time"
    with pytest.raises(mdp.ModelError) as raised:
        mdp.policy(mdp.solve(model), game)
    assert str(raised.value) == message
    with pytest.raises(mdp.ModelError):  # the start alone
        mdp.action_labels(model, game, [model.initial])
    assert len(mdp.action_labels(model, game, [model.initial - 1])) == 2  # another state: as before


def test_terminal_text_is_made_when_the_table_is():
    # Shut the Box keeps its terminal states' text lazy: the model holds a function of the
    # tiles and masks, and model.terminals makes the same text the game writes for a table.
    game = mdp.load_game("games/shutbox", tiles="1-5")
    model = mdp.compile(game)
    assert isinstance(model.terminal_columns["open"], mdp.LazyColumn)
    shown = mdp.game.columns.table_state_columns(game, model.states[:model.n_terminal])
    assert model.terminals["open"].to_list() == list(shown["open"])
    assert model.terminals["roll"].to_list() == list(shown["roll"])
    assert model.terminals["open"].null_count() == 0
    assert "" in model.terminals["open"].to_list()  # the shut box


@pytest.mark.parametrize("change", [
    lambda t: t.replace_column(t.columns.index("value"), pl.Series("value", [100.0] * t.height)),
    lambda t: t.drop_in_place("value"),
    lambda t: t.insert_column(0, pl.Series("x", [1] * t.height)),
    lambda t: setattr(t, "columns", [f"c{i}" for i in range(t.width)]),
])
def test_the_terminals_a_reader_changes_in_place_are_its_own(change):
    """Round 26: a strategy's weights that rewrote model.terminals in place (replace_column)
    had mdp distribution show outcomes no game has, beside the right value."""
    model = mdp.compile(mdp.load_game("shutbox", tiles="1-3"))
    before = model.terminals.clone()  # (as it was, whatever is done to the frame handed out)
    change(model.terminals)
    assert model.terminals.equals(before)


def test_the_models_parameters_are_read_only_and_travel_with_it():
    """Round 27: a strategy's weights that wrote into model.info.params had --json record
    other rules than those solved, exit 0. Read-only, and still pickled with the model."""
    import pickle

    model = mdp.compile(mdp.load_game("shutbox", tiles="1-3"))
    for change in (lambda p: p.__setitem__("tiles", "1-2"), lambda p: p.update(tiles="1-2"),
                   lambda p: p.pop("tiles"), lambda p: p.clear()):
        with pytest.raises(TypeError, match="read-only"):
            change(model.info.params)
    assert model.info.params["tiles"] == "1-3"
    assert pickle.loads(pickle.dumps(model.info)).params == model.info.params
