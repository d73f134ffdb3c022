"""What a game says of itself (mdp_objective, mdp_describe) is checked where it is read: a
name and a description are one line of text (a line break forged an output line: "value:
999" above the real value), ``probability`` is True or False ("no" was taken as true), and
a game whose values are probabilities has terminal values from 0 to 1 (a chance of 150% was
shown without a word)."""

import re
from fractions import Fraction
from types import SimpleNamespace

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import mdp
from mdp.engine.numeric import written

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
@example([Fraction(10**401 + 7, 10**400)], True)  # said by its size (a CI run drew one)
def test_values_of_a_probability_are_from_0_to_1_or_the_game_is_refused(values, probability):
    game = _game(values, mdp.Objective("chance", "max", probability))
    if probability and not all(0 <= v <= 1 for v in values):
        first = next(v for v in values if not 0 <= v <= 1)
        # (a fraction of many digits said by its size, as every number is: numeric.written)
        with pytest.raises(mdp.ModelError, match=rf"^game g: mdp_terminal_value: terminal value "
                           rf"{re.escape(written(first))} is not from 0 to 1, though mdp_objective "
                           rf"says the values are probabilities \(state {values.index(first)}\)$"):
            mdp.compile(game)
    else:
        assert mdp.solve(mdp.compile(game), exact=True).value == sum(values) / len(values)


GAME = """
import mdp
from fractions import Fraction

GAME_NAME = "g"
VALUES = [Fraction(v) for v in {values}]

@mdp.hookimpl
def mdp_initial_state():
    return "start"

@mdp.hookimpl
def mdp_actions(state):
    return ["go"] if state == "start" else []

@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(Fraction(1, len(VALUES)), k) for k in range(len(VALUES))]

@mdp.hookimpl
def mdp_terminal_value(state):
    return VALUES[state]

@mdp.hookimpl
def mdp_objective():
    return mdp.Objective("chance", "max", True)
"""

WRAPPER = """
import mdp
from fractions import Fraction

@mdp.hookimpl(wrapper=True)
def mdp_terminal_value(state):
    value = yield
    return {change}
"""


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(VALUES, st.fractions(-2, 3))
def test_a_rule_plugins_value_outside_0_to_1_is_blamed_on_it_at_its_state(tmp_path_factory, values, set_to):
    # Before: "game g: mdp_objective says the values are probabilities, but terminal value 2
    # is not from 0 to 1", whoever gave it. A plugin setting the value of the last state.
    folder = tmp_path_factory.mktemp("plugin")
    path, game_file = folder / "last.py", folder / "g.py"
    last = len(values) - 1
    path.write_text(WRAPPER.format(change=f"Fraction({str(set_to)!r}) if state == {last} else value"))
    game_file.write_text(GAME.format(values=[str(v) for v in values]))
    game = mdp.load_game(str(game_file), plugins=[str(path)])
    given_values = [*values[:-1], set_to]
    if all(0 <= v <= 1 for v in given_values):
        assert mdp.solve(mdp.compile(game), exact=True).value == sum(given_values) / len(values)
        return
    first = next(i for i, v in enumerate(given_values) if not 0 <= v <= 1)
    whose = f"plugin {path}'s mdp_terminal_value" if first == last and 0 <= values[-1] <= 1 \
        else "mdp_terminal_value"
    with pytest.raises(mdp.ModelError) as error:
        mdp.compile(game)
    assert str(error.value) == (f"game g: {whose}: terminal value {given_values[first]} is not "
                                "from 0 to 1, though mdp_objective says the values are "
                                f"probabilities (state {first})")


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
