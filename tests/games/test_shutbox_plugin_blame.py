"""A rule plugin's wrong answer is blamed on the plugin and its hook, wherever it is read
(mdp.Game.answer for Shut the Box's hooks, the collecting hooks' one check for names): never
on the game's mdp_expand or mdp_objective that read it later, and never left unnamed. Each
class of mistake is tried, each way it can be wrong: every one refused so, in one line."""

import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp

ROLLS = '''
import mdp
from fractions import Fraction

@mdp.hookimpl(wrapper=True)
def shutbox_rolls(dice):
    rolls = yield
    return {change}
'''

# What a wrapper does to the game's rolls ((probability, total, kind) each), all wrong.
ROLL_MISTAKES = [
    "[(p * Fraction(5, 6), t, k) for p, t, k in rolls]",          # adds up to 5/6
    "[(-p if i == 0 else p + 2 * rolls[0][0], t, k) for i, (p, t, k) in enumerate(rolls)]",
    "[]",
    "[(p, t, ['x']) for p, t, k in rolls]",                         # a kind that is no word
    "[(p, t, 5) for p, t, k in rolls]",
    "[(p, t, 'a\\nb') for p, t, k in rolls]",
    "[(p, t, '') for p, t, k in rolls]",
    "[(p, t + 100, k) for p, t, k in rolls]",
    "[(p, t) for p, t, k in rolls]",
    "[(float('nan'), t, k) for p, t, k in rolls]",
    "[(True, t, k) for p, t, k in rolls]",
    "None",
]

OPTIONS = '''
import mdp
import numpy as np

@mdp.hookimpl(wrapper=True)
def shutbox_dice_options(box, masks):
    o = yield
    n = len(masks)
    return {change}
'''

OPTION_MISTAKES = [
    "np.column_stack([np.zeros(n, dtype=np.int64), o])",   # a 0 first: no usual number
    "np.column_stack([o, np.zeros(n, dtype=np.int64), o])",  # a number after a 0
    "np.column_stack([o, o])", "o + 5", "o * 0", "o[:, 0]", "o.astype(float)", "None",
    "o.tolist()[:-1] if n else [[1]]",
]

SCORING = '''
import mdp
import numpy as np
from mdp_games.shutbox.scoring import ScoringRule

def values(box, masks):
    c = np.array([bin(int(m)).count("1") for m in masks], dtype=np.int64)
    return {change}

@mdp.hookimpl
def shutbox_scoring_rules():
    return [ScoringRule("count", "tiles open", {sense!r}, values)]
'''

VALUE_MISTAKES = ["np.where(c == 2, np.nan, c.astype(float))", "c > 1", "[str(x) for x in c]",
                  "c.astype(complex)", "c[:, None]", "(int(x) for x in c)", "c[:-1]",
                  "[None] * len(c)", "np.where(c == 1, np.inf, c.astype(float))"]


def _refused(path, **params):
    with pytest.raises(mdp.ModelError) as error:
        mdp.compile(mdp.load_game("shutbox", plugins=[str(path)], tiles="1-4", **params))
    text = str(error.value)
    assert "\n" not in text and "mdp_expand" not in text and "mdp_objective" not in text, text
    return text


@pytest.mark.parametrize("change", ROLL_MISTAKES)
def test_a_plugins_wrong_rolls_are_blamed_on_it(tmp_path, change):
    path = tmp_path / "rolls.py"
    path.write_text(ROLLS.format(change=change))
    assert f"plugin {path}'s shutbox_rolls " in _refused(path)


@pytest.mark.parametrize("change", OPTION_MISTAKES)
@pytest.mark.slow
def test_a_plugins_wrong_dice_are_blamed_on_it(tmp_path, change):
    path = tmp_path / "dice.py"
    path.write_text(OPTIONS.format(change=change))
    assert f"plugin {path}'s shutbox_dice_options " in _refused(path)


@pytest.mark.parametrize("change", VALUE_MISTAKES)
def test_a_plugins_wrong_scores_are_blamed_on_it(tmp_path, change):
    path = tmp_path / "score.py"
    path.write_text(SCORING.format(change=change, sense="max"))
    assert f"scoring rule count of plugin {path} " in _refused(path, scoring="count")


# A rule that writes into the masks it is handed (read-only, as writing-a-game.rst says of
# every array the engine hands a hook), each way numpy writes; or that raises anything.
MASK_WRITES = ["(masks.fill(0), c)[1]", "(masks.__setitem__(0, 1), c)[1]",
               "(np.copyto(masks, 0), c)[1]", "(masks.__iadd__(1), c)[1]",
               "(masks.sort(), c)[1]"]
RAISES = {"(_ for _ in ()).throw(GeneratorExit())": "GeneratorExit",
          "(_ for _ in ()).throw(type('Own', (BaseException,), {})('own'))": "Own: own",
          "(_ for _ in ()).throw(SystemExit(3))": "SystemExit: 3"}


@pytest.mark.parametrize("change", MASK_WRITES)
def test_a_scoring_rule_that_writes_into_its_masks_is_refused(tmp_path, change):
    path = tmp_path / "score.py"
    path.write_text(SCORING.format(change=change, sense="max"))
    assert f"scoring rule count of plugin {path} raised ValueError: " in \
        (text := _refused(path, scoring="count")) and "read-only" in text, text


@pytest.mark.parametrize("change", list(RAISES))
def test_a_scoring_rule_that_raises_anything_is_blamed_on_it(tmp_path, change):
    path = tmp_path / "score.py"
    path.write_text(SCORING.format(change=change, sense="max"))
    assert f"scoring rule count of plugin {path} raised {RAISES[change]}" in \
        _refused(path, scoring="count")


@pytest.mark.parametrize("sense", ["up", None, "MAX"])
def test_a_plugins_scoring_rule_of_a_sense_neither_max_nor_min_is_blamed_on_it(tmp_path, sense):
    path = tmp_path / "score.py"
    path.write_text(SCORING.format(change="c", sense=sense))
    assert f"plugin {path}'s shutbox_scoring_rules offers a scoring rule named 'count', with " \
        f"sense {sense!r}" in _refused(path, scoring="count")


PARAMS = '''
import mdp

@mdp.hookimpl
def mdp_params():
    return [{param}]
'''

PARAM_MISTAKES = {
    "mdp.Param('tiles', '1-3', str, 'my tiles')": "named 'tiles', as another is",
    "mdp.Param('a=b', '1', int, 'x')": "named 'a=b'; a name is a word",
    "mdp.Param('a,b', '1', int, 'x')": "named 'a,b'; a name is a word",
    "mdp.Param('zz', '1', lambda s: None, 'x')": "the parser of parameter zz returned None",
    "mdp.Param('zz', 'abc', int, 'x')": "is refused by its own parser",
    "mdp.Param('zz', '1', int, 'line\\nvalue: 9')": "whose help is 'line\\nvalue: 9', not one line",
}


@pytest.mark.parametrize("param", list(PARAM_MISTAKES))
def test_a_plugins_wrong_parameter_is_blamed_on_it(tmp_path, param):
    path = tmp_path / "params.py"
    path.write_text(PARAMS.format(param=param))
    with pytest.raises(mdp.ModelError) as error:
        mdp.load_game("shutbox", plugins=[str(path)])
    text = str(error.value)
    assert text.startswith(f"game shutbox: plugin {path}'s mdp_params ")
    assert PARAM_MISTAKES[param] in text, text


# Rolls right in floats, but not exact: each way a float can enter.
FLOAT_ROLLS = ["[(float(p), t, k) for p, t, k in rolls]",
               "[(__import__('numpy').float64(p), t, k) for p, t, k in rolls]",
               "[(float(p) if i == len(rolls) - 1 else p, t, k) for i, (p, t, k) in enumerate(rolls)]"]


@pytest.mark.parametrize("change", FLOAT_ROLLS)
def test_a_plugins_float_rolls_under_exact_are_blamed_on_it(tmp_path, change):
    # Before: "game shutbox: exact solving needs rational numbers, but the game gave a float".
    path = tmp_path / "floats.py"
    path.write_text(ROLLS.format(change=change))
    game = mdp.load_game("shutbox", plugins=[str(path)], tiles="1-4")
    model = mdp.compile(game)
    assert float(mdp.solve(model).value) == pytest.approx(float(mdp.solve(
        mdp.compile(mdp.load_game("shutbox", tiles="1-4")), exact=True).value), abs=1e-12)
    with pytest.raises(mdp.ModelError) as error:
        mdp.solve(model, exact=True)
    assert str(error.value).startswith("game shutbox: exact solving needs rational numbers, but "
                                       f"plugin {path}'s shutbox_rolls gave a float: probability "), error.value


def test_a_plugin_that_passes_on_anothers_float_rolls_is_not_blamed(tmp_path):
    # A plugin that passes float rolls on unchanged is not at fault: the one that made them is.
    first, second = tmp_path / "floats.py", tmp_path / "same.py"
    first.write_text(ROLLS.format(change=FLOAT_ROLLS[0]))
    second.write_text(ROLLS.format(change="rolls"))
    model = mdp.compile(mdp.load_game("shutbox", plugins=[str(first), str(second)], tiles="1-3"))
    with pytest.raises(mdp.ModelError, match=f"but plugin {first}'s shutbox_rolls gave a float"):
        mdp.solve(model, exact=True)


CHANCES = '''
import mdp
import numpy as np
from fractions import Fraction
from mdp_games.shutbox.scoring import ScoringRule

VALUES = {values}  # by the number of tiles open

def values(box, masks):
    return [Fraction(VALUES[bin(int(m)).count("1")]) for m in masks]

@mdp.hookimpl
def shutbox_scoring_rules():
    return [ScoringRule("house", "my chance", "max", values, probability=True)]
'''


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(st.lists(st.fractions(-1, 2, max_denominator=3), min_size=4, max_size=4))
def test_a_plugins_chance_outside_0_to_1_is_blamed_on_it_at_its_position(tmp_path_factory, values):
    # Before: "game shutbox: mdp_objective says the values are probabilities, but terminal
    # value 2 is not from 0 to 1 (open )". Tiles 1-3: a final position has 0 to 3 tiles open.
    path = tmp_path_factory.mktemp("plugin") / "chances.py"
    path.write_text(CHANCES.format(values=[str(v) for v in values]))
    game = mdp.load_game("shutbox", plugins=[str(path)], tiles="1-3", scoring="house")
    if all(0 <= v <= 1 for v in values):
        assert 0 <= mdp.solve(mdp.compile(game), exact=True).value <= 1
        return
    with pytest.raises(mdp.ModelError) as error:
        mdp.compile(game)
    text = str(error.value)
    assert text.startswith(f"game shutbox: scoring rule house of plugin {path} gave the value "
                           ), text
    assert "not from 0 to 1 though the rule says its values are probabilities" in text
    bad = Fraction(re.search(r"gave the value (-?[\d/]+), ", text)[1])
    assert not 0 <= bad <= 1
    position = re.search(r"\((every tile shut|open [\d ]+)\)$", text)[1]  # the one at fault
    open_tiles = 0 if position == "every tile shut" else len(position.split()) - 1
    assert values[open_tiles] == bad


FLOAT_SCORING = '''
from fractions import Fraction
import numpy as np
import mdp
from mdp_games.shutbox.scoring import ScoringRule

def values(box, masks):
    counts = [bin(int(m)).count("1") for m in masks]
    return {made}

@mdp.hookimpl
def shutbox_scoring_rules():
    return [ScoringRule("{name}", "open tiles", "min", values)]
'''

# A scoring rule's values, each way a float can enter: all of them, or one among exact ones.
FLOAT_VALUES = ["np.array(counts, dtype=float) / 3",
                "[c / 3 for c in counts]",
                "[np.float64(c) if c == 2 else Fraction(c, 3) for c in counts]",
                "np.array([Fraction(c, 3) if c != 1 else 0.5 for c in counts], dtype=object)"]


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(FLOAT_VALUES), st.sampled_from(["thirds", "half", "f"]))
def test_a_plugins_float_scoring_rule_under_exact_is_blamed_on_it(tmp_path_factory, made, name):
    # Before: "game shutbox: exact solving needs rational numbers, but the game gave a float"
    # where shutbox_rolls' floats named the plugin and the hook (round ten).
    path = tmp_path_factory.mktemp("scoring") / "float_scoring.py"
    path.write_text(FLOAT_SCORING.format(made=made, name=name))
    game = mdp.load_game("shutbox", plugins=[str(path)], tiles="1-4", scoring=name)
    model = mdp.compile(game)
    with pytest.raises(mdp.ModelError) as error:
        mdp.solve(model, exact=True)
    assert str(error.value).startswith("game shutbox: exact solving needs rational numbers, but "
                                       f"plugin {path}'s scoring rule {name} gave a float: value "), error.value


def test_the_games_own_scoring_rules_solve_exactly():
    for rule in ("win", "score"):  # integers: no float to blame, the exact values
        game = mdp.load_game("shutbox", tiles="1-3", scoring=rule)
        assert isinstance(mdp.solve(mdp.compile(game), exact=True).value, Fraction)


RULES = '''
import mdp
import numpy as np
from mdp_games.shutbox.scoring import ScoringRule

@mdp.hookimpl
def shutbox_scoring_rules():
    return [{rule}]
'''

# A plugin's scoring rule that is no ScoringRule, or whose objective is not one line (or
# none): each blamed on the plugin and its hook, never on the game's mdp_check or
# mdp_objective, which read them later.
RULE_MISTAKES = {
    "'house'": "shutbox_scoring_rules offers 'house', not a ScoringRule",
    "ScoringRule('house', 'v\\nx', 'max', lambda b, m: m == 0)":
        "shutbox_scoring_rules offers a scoring rule named 'house', whose objective is 'v\\nx'",
    "ScoringRule('house', 'v\\x1b[31m', 'max', lambda b, m: m == 0)":
        "shutbox_scoring_rules offers a scoring rule named 'house', whose objective is",
    "ScoringRule('house', '', 'max', lambda b, m: m == 0)":
        "shutbox_scoring_rules offers a scoring rule named 'house', with no objective",
}


@pytest.mark.parametrize("rule", list(RULE_MISTAKES))
def test_a_plugins_scoring_rule_of_no_kind_is_blamed_on_it(tmp_path, rule):
    path = tmp_path / "rules.py"
    path.write_text(RULES.format(rule=rule))
    text = _refused(path)
    assert text.startswith(f"game shutbox: plugin {path}'s {RULE_MISTAKES[rule]}"), text
    assert "mdp_check" not in text


def test_a_wrapper_that_yields_twice_is_blamed_on_its_plugin(tmp_path):
    # pluggy's own error names the wrapper only in its text: the plugin is found by asking
    # the hook's implementations one at a time, the first that raises.
    path = tmp_path / "twice.py"
    path.write_text("import mdp\n\n@mdp.hookimpl(wrapper=True)\ndef shutbox_moves(total):\n"
                    "    moves = yield\n    again = yield\n    return moves\n")
    assert _refused(path).startswith(f"game shutbox: plugin {path}'s shutbox_moves raised "
                                     "RuntimeError: ")


COUNTED = '''
import mdp
from mdp_games.shutbox.scoring import ScoringRule

def values(box, masks):
    return BODY

@mdp.hookimpl
def shutbox_scoring_rules():
    return [ScoringRule("house", "my score", "max", values)]
'''


@pytest.mark.parametrize("body, said", [
    ("[len(bin(int(m))) for m in masks] + [0]",
     r"gave 1 value for no final position \(asked first about none, to check its answer\)$"),
    ("[len(bin(int(m))) for m in masks][:-1]", r"gave (\d+) values? for (\d+) final positions? "),
])
def test_a_rule_answering_too_many_or_few_says_for_how_many_positions(tmp_path, body, said):
    # Round 24: a rule that answered mdp's probe about no position with a value was "gave 1
    # value", nothing more: its author could not tell what was asked.
    path = tmp_path / "counted.py"
    path.write_text(COUNTED.replace("BODY", body))
    with pytest.raises(mdp.ModelError) as error:
        mdp.compile(mdp.load_game("shutbox", plugins=[str(path)], tiles="1-3", scoring="house"))
    found = re.search(f"scoring rule house of plugin {re.escape(str(path))} {said}", str(error.value))
    assert found, str(error.value)
    if found.groups():  # one short of the positions asked about
        assert int(found[1]) == int(found[2]) - 1
