"""A hook, or a function a hook gives (the round rule's, a lazy column's), that raises one of
mdp's own exceptions in its own code is at fault like one that raises any other: one line,
exit 2, naming the game and the hook, never taken for mdp's own word (``TooLarge``'s exit 3
and advice to raise a limit, ``ParamError`` blamed on the user's parameters, ``ModelError``
naming no game). Before: ``raise mdp.TooLarge("...")`` in ``mdp_actions`` was exit 3, the line
the game's alone. Passed on as they are: ``mdp_check``'s ParamError (how it refuses), and a
ModelError that names the game (a game's word on its own rule plugins)."""

from pathlib import Path

import pytest

from mdp.program.cli import main

EXAMPLE = (Path(__file__).parents[2] / "docs" / "examples" / "two_boxes.py").read_text()

# Where the raise goes: the first line of each hook's body, or of the functions a hook gives.
PLACES = {
    "mdp_initial_state": "def mdp_initial_state():\n",
    "mdp_actions": "def mdp_actions(state):\n",
    "mdp_outcomes": "def mdp_outcomes(state, action):\n",
    "mdp_terminal_value": "def mdp_terminal_value(state):\n",
    "mdp_round_start": "def mdp_round_start():\n",
    "mdp_round_rule": "def mdp_round_rule(ends):\n",
    "mdp_round_rule's function": "    def rule(states):  # many round states at once\n",
    "mdp_state_columns": "def mdp_state_columns(state):\n",
    "mdp_round_columns": "def mdp_round_columns(states):\n",
}
RAISED = ["MdpError", "ParamError", "ModelError", "TooLarge", "CycleError", "GameNotFound"]


def _game(tmp_path: Path, place: str, raised: str) -> str:
    line = PLACES[place]
    indent = " " * (len(line) - len(line.lstrip()) + 4)
    source = EXAMPLE.replace(line, f"{line}{indent}raise mdp.errors.{raised}('words of the game')\n", 1)
    assert source != EXAMPLE
    (tmp_path / "two_boxes.py").write_text(source)
    return str(tmp_path / "two_boxes.py")


@pytest.mark.slow
@pytest.mark.parametrize("raised", RAISED)
@pytest.mark.parametrize("place", PLACES)
def test_mdps_own_exception_raised_by_a_hook_is_the_hooks_fault(tmp_path, capsys, place, raised):
    command = "policy" if "columns" in place else "solve"
    code = main([command, _game(tmp_path, place, raised)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "", err
    assert err.startswith("mdp: error: game two-boxes: ") and err.count("\n") == 1, err
    hook = place.partition("'")[0]
    assert f"{hook}" in err and f"raised {raised}: words of the game" in err, err


def test_a_model_error_naming_the_game_is_its_own_word(tmp_path, capsys):
    game = _game(tmp_path, "mdp_actions", "ModelError")
    Path(game).write_text(Path(game).read_text().replace("'words of the game'",
                                                         "'game two-boxes: a rule plugin erred'"))
    assert main(["solve", game]) == 2
    assert capsys.readouterr().err == "mdp: error: game two-boxes: a rule plugin erred\n"


def test_mdp_check_refuses_with_a_param_error_as_the_users(tmp_path, capsys):
    game = tmp_path / "checked.py"
    game.write_text(EXAMPLE + "\n\n@mdp.hookimpl\ndef mdp_check():\n"
                    "    raise mdp.ParamError('parameters: none allowed today')\n")
    assert main(["solve", str(game)]) == 2
    assert capsys.readouterr().err == "mdp: error: parameters: none allowed today\n"
