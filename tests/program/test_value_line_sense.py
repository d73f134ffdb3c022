"""The value line says which way optimal play went, against another player's strategy too:
'(minimized)' with --minimize, as cli.rst promises for --maximize/--minimize; the two
numbers of one position never stand under one label."""

import pytest

from mdp.program.cli import main


@pytest.mark.parametrize("command", [["distribution"], ["simulate", "--games", "200", "--seed", "1"],
                                     ["lengths"]])
@pytest.mark.slow  # half a second or more of CPU
def test_minimized_play_against_a_strategy_says_so(command, capsys):
    argv = [command[0], "pig", "--set", "goal=20", *command[1:], "--against", "hold-at-20"]
    assert main([*argv, "--minimize"]) == 0
    played = "playing the fixed optimal policy, not a best reply, against hold-at-20"
    minimized = [line for line in capsys.readouterr().out.splitlines() if played in line]
    assert main(argv) == 0
    maximized = [line for line in capsys.readouterr().out.splitlines() if played in line]
    assert minimized and f"{played} (minimized):" in minimized[0]
    assert maximized and f"{played}:" in maximized[0]


@pytest.mark.slow
@pytest.mark.parametrize(("argv", "played"), [
    (["solve", "pig", "--set", "goal=30", "--strategy", "hold-at-20"],
     "playing hold-at-20 against the fixed optimal policy, not a best reply to hold-at-20:"),
    (["distribution", "pig", "--set", "goal=30", "--against", "hold-at-20"],
     "playing the fixed optimal policy, not a best reply, against hold-at-20:"),
    (["distribution", "pig", "--set", "goal=30", "--strategy", "hold-at-20", "--against",
      "hold-at-25"], "playing hold-at-20 against hold-at-25:"),
    (["solve", "shutbox", "--set", "tiles=1-4", "--strategy", "fewest-tiles"], "playing fewest-tiles:"),
])
def test_the_value_line_says_optimal_play_beside_a_strategy_is_no_best_reply(argv, played, capsys):
    # Before: "playing hold-at-20" and "playing optimal against hold-at-25", read as the best
    # a player can do against the strategy; it is the optimal policy, held as it is.
    assert main(argv) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if " playing " in line]
    assert len(lines) == 1 and played in lines[0], lines
