"""The value line says which way optimal play went, against another player's strategy too:
'(minimized)' with --minimize, as cli.rst promises for --maximize/--minimize; the two
numbers of one position never stand under one label."""

import pytest

from mdp.program.cli import main


@pytest.mark.parametrize("command", [["distribution"], ["simulate", "--games", "200", "--seed", "1"],
                                     ["lengths"]])
def test_minimized_play_against_a_strategy_says_so(command, capsys):
    argv = [command[0], "pig", "--set", "goal=20", *command[1:], "--against", "hold-at-20"]
    assert main([*argv, "--minimize"]) == 0
    minimized = [line for line in capsys.readouterr().out.splitlines() if "playing optimal" in line]
    assert main(argv) == 0
    maximized = [line for line in capsys.readouterr().out.splitlines() if "playing optimal" in line]
    assert minimized and "playing optimal against hold-at-20 (minimized):" in minimized[0]
    assert maximized and "playing optimal against hold-at-20:" in maximized[0]
