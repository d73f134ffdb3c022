"""The batch column hooks (``mdp_columns``, ``mdp_round_columns``) are held to what the
per-state ones are: a state's columns the same each time they are asked, whatever other
states are asked with them. Asked again for the first, middle and last row of each batch,
alone, and for the batch with each row one place later, a hook that counts its calls, remembers what it was asked, or reads the batch (its size, its
first state) is refused in one line naming the game and the hook; before, it filled the
tables with values that changed from table to table. And a column whose values are numbers
in one piece of a table and text in another names the hook that gave it."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import chain, two_boxes

import mdp

# What a column's value may be made of besides the state itself, where ``change`` is set:
# without it, the hook is pure (the control).
KINDS = {
    "calls": lambda states, asked: asked[0],
    "seen": lambda states, asked: asked[1],
    "number": lambda states, asked: len(states),
    "first": lambda states, asked: str(states[0]),
}


def _value(kind, change, states, asked):
    """The values of a column: a state's text, and (``change``) the kind."""
    asked[0] += 1
    values = []
    for state in states:
        extra = KINDS[kind]([*states], [asked[0], str(state) in asked[2]])
        asked[2].add(str(state))
        values.append(f"{state}:{extra}" if change else str(state))
    return values


def _game(hook, kind, change):
    asked = [0, False, set()]

    @mdp.hookimpl
    def mdp_columns(states, actions):
        columns = {"where": _value(kind, change, states, asked)}
        if actions is not None:
            columns["action"] = [None if a is None else str(a) for a in actions]
        return columns

    @mdp.hookimpl
    def mdp_round_columns(states):
        return {"filled": _value(kind, change, states.tolist(), asked)}

    return two_boxes(**{hook: {"mdp_columns": mdp_columns,
                               "mdp_round_columns": mdp_round_columns}[hook]})


def _tables(game):
    solution = mdp.solve(mdp.compile(game), exact=True)
    mdp.policy(solution, game)
    mdp.policy(solution, game, within="all")


@settings(max_examples=16, deadline=None)
@given(st.sampled_from(["mdp_columns", "mdp_round_columns"]), st.sampled_from(sorted(KINDS)))
def test_a_batch_column_hook_that_answers_otherwise_when_asked_again_is_refused(hook, kind):
    with pytest.raises(mdp.ModelError, match=rf"^game two-boxes: asked again, {hook} gave "
                       r"(where|filled)=.* for (round )?state .*, not .* as in a batch of "
                       r"[\d,]+; a game must give the same columns each time it is asked"):
        _tables(_game(hook, kind, True))


@pytest.mark.parametrize("hook", ["mdp_columns", "mdp_round_columns"])
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_same_hook_with_no_change_is_accepted(hook, kind):
    _tables(_game(hook, kind, False))


def test_a_column_of_numbers_in_one_piece_and_text_in_another_names_its_hook():
    # Three states in three layers (three pieces of the policy table): 3 and 1 give numbers,
    # 2 gives text.
    class Mixed(type(chain(3))):
        @mdp.hookimpl
        def mdp_state_columns(self, params, state):
            return {"n": state if state % 2 else f"s{state}"}

    plain = chain(3)
    game = mdp.load_game(Mixed(plain.transitions, plain.values, plain.initial))
    # Read state by state as the game is walked: refused before any command's own work.
    with pytest.raises(mdp.ModelError, match=r"^game table: mdp_state_columns: column 'n' holds "
                       r"(numbers|text) \(.* at state \d\) and (numbers|text) \(.* at state \d\); "
                       r"a column holds one kind of value"):
        mdp.compile(game)


@settings(max_examples=20, deadline=None)
@given(hook=st.sampled_from(["mdp_columns", "mdp_round_columns"]),
       places=st.lists(st.integers(0, 6), min_size=2, max_size=2, unique=True))
@pytest.mark.slow
def test_two_states_named_each_as_the_other_in_a_batch_are_refused(hook, places):
    """Round 25: ``mdp_columns`` that gave the 2nd and 4th states of a batch of five each
    other's names passed the first and last asked alone, and ``mdp policy`` advised at one
    state what ``mdp advise`` advised at the other. Named each as the other wherever they
    stand in a batch long enough, the hook is refused whenever a table asks such a batch."""
    longest = [0]

    def swapped(values):
        longest[0] = max(longest[0], len(values))
        if len(values) > max(places):
            values[places[0]], values[places[1]] = values[places[1]], values[places[0]]
        return values

    @mdp.hookimpl
    def mdp_columns(states, actions):
        columns = {"where": swapped([str(s) for s in states])}
        if actions is not None:
            columns["action"] = [None if a is None else str(a) for a in actions]
        return columns

    @mdp.hookimpl
    def mdp_round_columns(states):
        return {"filled": swapped([str(s) for s in states.tolist()])}

    game = two_boxes(**{hook: {"mdp_columns": mdp_columns, "mdp_round_columns": mdp_round_columns}[hook]})
    try:
        _tables(game)
    except mdp.ModelError as error:
        assert str(error).startswith(f"game two-boxes: asked again, {hook} gave ")
        return
    assert longest[0] <= max(places)  # no batch long enough to swap in: nothing to refuse
