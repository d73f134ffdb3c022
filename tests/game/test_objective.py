"""What a game says of itself (mdp_objective, mdp_describe) is checked where it is read: a
name and a description are one line of text (a line break forged an output line: "value:
999" above the real value), ``probability`` is True or False ("no" was taken as true), and
a game whose values are probabilities has terminal values from 0 to 1 (a chance of 150% was
shown without a word)."""

from fractions import Fraction
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp

VALUES = st.lists(st.fractions(-2, 3), min_size=1, max_size=3)


def _game(values, objective=None, described=None):
    """From the start, one chance action to terminal states 0, 1, ... (equally likely),
    each worth its value."""

    def mdp_initial_state():
        return "start"

    def mdp_actions(state):
        return ["go"] if state == "start" else []

    def mdp_outcomes(state, action):
        return [(Fraction(1, len(values)), k) for k in range(len(values))]

    def mdp_terminal_value(state):
        return values[state]

    def mdp_objective():
        return objective() if callable(objective) else objective

    def mdp_describe():
        return described

    hooks = (mdp_initial_state, mdp_actions, mdp_outcomes, mdp_terminal_value, mdp_objective,
             mdp_describe)
    return mdp.load_game(SimpleNamespace(GAME_NAME="g", **{f.__name__: mdp.hookimpl(f) for f in hooks}))


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(VALUES, st.booleans())
def test_values_of_a_probability_are_from_0_to_1_or_the_game_is_refused(values, probability):
    game = _game(values, mdp.Objective("chance", "max", probability))
    if probability and not all(0 <= v <= 1 for v in values):
        first = next(v for v in values if not 0 <= v <= 1)
        with pytest.raises(mdp.ModelError, match=r"^game g: mdp_objective says the values are "
                           rf"probabilities, but terminal value {first} is not from 0 to 1 \(state "):
            mdp.compile(game)
    else:
        assert mdp.solve(mdp.compile(game), exact=True).value == sum(values) / len(values)


@settings(max_examples=100, deadline=None)
@given(st.one_of(st.text(max_size=4), st.integers(), st.none(), st.just("exact")),
       st.one_of(st.sampled_from(["max", "min"]), st.text(max_size=3), st.integers(0, 1)),
       st.one_of(st.booleans(), st.text(max_size=2), st.integers(0, 1)))
def test_an_objective_is_named_by_one_line_and_is_a_probability_or_not(name, sense, probability):
    # Checked as it is made, one line; in a game's hook, the game's fault, named.
    good_name = isinstance(name, str) and name not in ("", "exact") and name.isprintable()
    good = good_name and sense in ("max", "min") and isinstance(probability, bool)
    game = _game([Fraction(1, 2)], lambda: mdp.Objective(name, sense, probability))
    if good:
        assert game.objective == mdp.Objective(name, sense, probability)
        return
    wrong = "name" if not good_name else "sense" if sense not in ("max", "min") else "probability"
    with pytest.raises(ValueError) as made:
        mdp.Objective(name, sense, probability)
    assert str(made.value).startswith(f"mdp.Objective: {wrong} ") and "\n" not in str(made.value)
    with pytest.raises(mdp.ModelError) as error:
        game.objective  # noqa: B018
    assert str(error.value) == f"game g: mdp_objective raised ValueError: {made.value}"


def test_an_objective_named_exact_is_refused_for_the_line_it_would_pass_for():
    # mdp solve --exact printed "exact: 1.5" then "exact: 3/2": two values, one label.
    with pytest.raises(ValueError, match="^mdp.Objective: name 'exact' is the label of the "
                       "exact value's line"):
        mdp.Objective("exact")


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=6))
def test_a_description_is_one_line_or_refused(described):
    game = _game([1], described=described)
    if described.isprintable():
        assert game.describe() == (described or "g")
    else:
        with pytest.raises(mdp.ModelError, match=r"^game g: mdp_describe returned .*, not one line"):
            game.describe()


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 1500), st.sampled_from("ab é"))
def test_a_description_is_shown_whole_up_to_its_bound_and_cut_past_it_with_a_note(length, letter):
    described = ("x" + letter * length)[:length]
    shown = _game([1], described=described).describe()
    if length <= 500:  # the bound the hook's documentation gives
        assert shown == described
    else:
        assert shown == f"{described[:500]}... (cut: mdp_describe gave {length:,} characters)"


def test_a_huge_description_is_not_printed_whole(tmp_path, capsys):
    from mdp.program.cli import main

    game = tmp_path / "wordy.py"
    game.write_text("import mdp\n"
                    "@mdp.hookimpl\ndef mdp_initial_state(): return 0\n"
                    "@mdp.hookimpl\ndef mdp_actions(state): return []\n"
                    "@mdp.hookimpl\ndef mdp_terminal_value(state): return 1\n"
                    "@mdp.hookimpl\ndef mdp_describe(): return 'rules ' * 2_000_000\n")
    assert main(["solve", str(game)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == ("rules " * 100)[:500] + "... (cut: mdp_describe gave 12,000,000 characters)"
