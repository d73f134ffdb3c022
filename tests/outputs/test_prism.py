"""PRISM export (mdp/prism.py, ``mdp export``): the text itself, and Storm's optimal value of
the exported model against mdp's, exactly, in Storm's exact mode (stormpy)."""

import importlib.util
import os
import subprocess
import sys
import types
from fractions import Fraction
from pathlib import Path

import pytest

import mdp
from mdp.outputs.prism import to_prism, write_prism

ROOT = Path(__file__).resolve().parents[2]
REROLL = ROOT / "docs" / "examples" / "reroll.py"


def storm():
    """stormpy, or a skip saying why: its wheels are for Linux only (pip install -e
    '.[storm]'). With MDP_REQUIRE_STORM set (CI sets it) a failure, never a silent skip."""
    if importlib.util.find_spec("stormpy") is None:
        why = "stormpy is not installed (pip install -e '.[storm]'; its wheels are for Linux)"
        if os.environ.get("MDP_REQUIRE_STORM"):
            pytest.fail(f"MDP_REQUIRE_STORM is set but {why}")
        pytest.skip(why)
    import stormpy

    return stormpy


def storm_value(path):
    """Storm's value of the property in ``path.props`` on the PRISM model ``path``, exactly."""
    stormpy = storm()
    program = stormpy.parse_prism_program(str(path))
    properties = stormpy.parse_properties(Path(f"{path}.props").read_text(), program)
    model = stormpy.build_model[stormpy.Rational](program, properties)
    result = stormpy.model_checking(model, properties[0], only_initial_states=True,
                                    environment=stormpy.environments.exact())
    return Fraction(str(result.get_value(model.initial_states[0]))), model.nr_states


def _start_is_over():
    """A game over before it starts: its one state is terminal, worth 7/2."""
    hooks = dict(mdp_initial_state=lambda: "over", mdp_actions=lambda state: [],
                 mdp_terminal_value=lambda state: Fraction(7, 2))
    return mdp.load_game(types.SimpleNamespace(
        GAME_NAME="over", **{k: mdp.hookimpl(v) for k, v in hooks.items()}))


GAMES = {
    "yahtzee": lambda: mdp.load_game("yahtzee"),
    "yahtzee-large-straight-two-rolls": lambda: mdp.load_game(
        "yahtzee", target="large-straight", rolls="2"),
    "yahtzee-chance-score": lambda: mdp.load_game("yahtzee", variant="chance-score"),
    "yahtzee-loaded-four-dice": lambda: mdp.load_game(
        "yahtzee", dice="4", faces="4", weights="1/2,1/4,1/8,1/8"),
    "shutbox": lambda: mdp.load_game("shutbox"),
    "shutbox-fiddler": lambda: mdp.load_game("shutbox", variant="fiddler"),
    # A minimizing game: the expected sum of the tiles left open (Rmin).
    "shutbox-score-min": lambda: mdp.load_game("shutbox", tiles="1-6", scoring="score"),
    "reroll": lambda: mdp.load_game(REROLL),
    "start-is-over": _start_is_over,
}


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.slow  # half a second or more of CPU
def test_storm_finds_our_exact_value(name, tmp_path):
    game = GAMES[name]()
    solution = mdp.solve(mdp.compile(game), exact=True)
    path = tmp_path / "model.prism"
    write_prism(solution.model, str(path))
    value, states = storm_value(path)
    assert value == solution.value
    assert states == solution.model.n_states + (solution.model.initial < solution.model.n_terminal)


def test_the_minimizing_game_asks_for_rmin():
    model = mdp.compile(mdp.load_game("shutbox", tiles="1-4", scoring="score"))
    assert model.info.objective.sense == "min"
    assert to_prism(model).properties == 'Rmin=? [ F "done" ]\n'
    assert to_prism(model, sense="max").properties == 'Rmax=? [ F "done" ]\n'


def test_the_text_states_the_rules_labels_the_terminal_states_and_pays_on_entry():
    # Reroll with one roll: from the start, one roll of a die ends the game; by hand the
    # one action pays the mean face 7/2 and reaches six terminal states, each with p 1/6.
    model = mdp.compile(mdp.load_game(REROLL, rolls="1"))
    text = to_prism(model).model
    assert text.startswith("// game reroll\n// Reroll: up to 1 rolls of a die, keep the last\n")
    assert "// parameters: rolls=1\n" in text
    assert "\nmdp\n" in text
    assert f'label "done" = s<{model.n_terminal};' in text
    assert f"  s : [0..6] init {model.initial};" in text
    (command,) = [line for line in text.splitlines() if line.startswith(f"  [a0] s={model.initial} ->")]
    assert command.count("1/6:(s'=") == 6
    rewards = text[text.index('rewards "value"'):].splitlines()
    assert rewards == ['rewards "value"', f"  [a0] s={model.initial} : 7/2;", "endrewards"]


def test_mdp_export_writes_the_model_and_its_property(tmp_path):
    out = tmp_path / "yahtzee.prism"
    done = subprocess.run([sys.executable, "-m", "mdp", "export", "yahtzee", "--set", "rolls=1",
                           "--format", "prism", "--out", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    model = mdp.compile(mdp.load_game("yahtzee", rolls="1"))
    assert out.read_text() == to_prism(model).model
    assert Path(f"{out}.props").read_text() == 'Rmax=? [ F "done" ]\n'
    assert done.stderr == f"the model of {model.n_states:,} states exported to {out}, the property to {out}.props\n"


def test_mdp_export_refuses_a_bad_target_before_any_work(tmp_path):
    out = tmp_path / "nowhere" / "model.prism"
    done = subprocess.run([sys.executable, "-m", "mdp", "export", "yahtzee", "--out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr == f"mdp: error: {out}: folder {out.parent} does not exist\n"
    assert not any(tmp_path.iterdir())


def test_a_game_with_float_probabilities_is_written_in_decimals(tmp_path):
    # Reroll with 1/6 given as a float: solvable in floats only, and written so.
    reroll = mdp.load_game(REROLL).plugins.get_plugin("reroll")
    hooks = {name: getattr(reroll, name) for name in dir(reroll) if name.startswith("mdp_")}

    def outcomes(state, action):
        if action == "keep":
            return [(1, (0, state[1]))]
        return [(1 / 6, (state[0] - 1, face)) for face in range(1, 7)]

    hooks["mdp_outcomes"] = mdp.hookimpl(outcomes)
    model = mdp.compile(mdp.load_game(types.SimpleNamespace(GAME_NAME="reroll", **hooks)))
    text = to_prism(model).model
    assert "0.16666666666666666:(s'=" in text and "1/6" not in text
    stormpy = storm()
    path = tmp_path / "model.prism"
    write_prism(model, str(path))
    program = stormpy.parse_prism_program(str(path))
    properties = stormpy.parse_properties(Path(f"{path}.props").read_text(), program)
    built = stormpy.build_model(program, properties)
    result = stormpy.model_checking(built, properties[0], only_initial_states=True)
    # Storm's default precision is 1e-6 relative; the value is 14/3 (docs' derivation).
    assert result.get_value(built.initial_states[0]) == pytest.approx(14 / 3, rel=1e-6)
    assert mdp.solve(model).value == pytest.approx(14 / 3, rel=1e-15)
