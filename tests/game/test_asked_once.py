"""A hook that takes no argument, or the game's parameters alone, is asked once per loaded
game and its answer kept (round 19, F23 and F24): ``mdp --help`` asked a program plugin's
``mdp_commands`` 17 times, and ``mdp solve --strategy s`` read ``mdp_strategies`` twice,
valuing one answer's strategy under the name another answer gave; ``mdp variants`` wrote the
parameters of one answer with the rules of another. Here every such hook counts its calls
and answers otherwise each time: no command asks one twice of one loaded game, and what a
command says is of one answer."""

import json

import pytest

from mdp.program.cli import main

GAME = '''
import os
import mdp
CALLS = {}
def _asked(hook, game=None):
    CALLS[hook] = CALLS.get(hook, 0) + 1
    with open(os.environ["ASKED_LOG"], "a") as log:
        log.write(f"{hook} {getattr(game.plugins, 'load', '-') if game is not None else '-'}\\n")
    return CALLS[hook]
LOADS = [0]
@mdp.hookimpl
def mdp_configure(plugins):
    LOADS[0] += 1
    plugins.load = LOADS[0]
    _asked("mdp_configure")
@mdp.hookimpl
def mdp_params():
    return [mdp.Param("x", _asked("mdp_params"), int, "x")]
@mdp.hookimpl
def mdp_variants():
    n = _asked("mdp_variants")
    return [mdp.Variant("v", {"x": 100 + n}, f"variant v, answer {n}")]
@mdp.hookimpl
def mdp_describe(params, game):
    return f"coin, answer {_asked('mdp_describe', game)}"
@mdp.hookimpl
def mdp_objective(params, game):
    n = _asked("mdp_objective", game)
    return mdp.Objective(f"aim, answer {n}", "max" if n == 1 else "min")
@mdp.hookimpl
def mdp_estimate_states(params, game):
    _asked("mdp_estimate_states", game)
    return 3
@mdp.hookimpl
def mdp_initial_state(params, game):
    _asked("mdp_initial_state", game)
    return "start"
@mdp.hookimpl
def mdp_actions(params, state):
    return ["flip", "pass"] if state == "start" else []
@mdp.hookimpl
def mdp_outcomes(params, state, action):
    return [(0.5, "won"), (0.5, "lost")] if action == "flip" else [(1, "lost")]
@mdp.hookimpl
def mdp_terminal_value(params, state):
    return 1 if state == "won" else 0
@mdp.hookimpl
def mdp_strategies(params, game):
    n = _asked("mdp_strategies", game)
    flip = [1, 0] if n == 1 else [0, 1]  # the first answer flips, a later one passes
    return [mdp.Strategy.per_state("s", f"s, answer {n}", lambda state, actions: flip)]
'''

PROGRAM = '''
import os
import mdp
def _asked(hook):
    with open(os.environ["ASKED_LOG"], "a") as log:
        log.write(f"{hook} -\\n")
    return []
@mdp.hookimpl
def mdp_commands():
    return _asked("mdp_commands")
@mdp.hookimpl
def mdp_analyses():
    return _asked("mdp_analyses")
@mdp.hookimpl
def mdp_formats():
    return _asked("mdp_formats")
@mdp.hookimpl
def mdp_exports():
    return _asked("mdp_exports")
'''

COMMANDS = [["--help"], [], ["formats"], ["completion", "bash"], ["solve", "GAME", "--json"],
            ["solve", "GAME", "--strategy", "s", "--json"], ["strategies", "GAME"],
            ["variants", "GAME", "--json"], ["export", "--help"], ["policy", "GAME", "--format", "csv"]]


@pytest.mark.slow  # its cases take a second of CPU or more in all
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_each_hook_is_asked_once_per_loaded_game(tmp_path, monkeypatch, capsys, command):
    game, program, log = tmp_path / "coin.py", tmp_path / "prog.py", tmp_path / "asked.log"
    game.write_text(GAME)
    program.write_text(PROGRAM)
    monkeypatch.setenv("ASKED_LOG", str(log))
    words = [str(game) if word == "GAME" else word for word in command]
    try:
        code = main(["-p", str(program), *words])
    except SystemExit as stop:  # --help
        code = stop.code
    assert code == 0, capsys.readouterr().err
    asked = log.read_text().split("\n")[:-1]
    loads = asked.count("mdp_configure -")
    # A hook of the parameters alone: once per loaded game; one of no argument: once per load.
    for line in set(asked) - {"mdp_configure -"}:
        hook, load = line.split()
        assert asked.count(line) <= (loads if load == "-" and hook in ("mdp_params", "mdp_variants") else 1), \
            (line, asked)
    out = capsys.readouterr().out
    if "--json" in command:
        said = json.loads(out)
        for row in said if isinstance(said, list) else [said]:
            # the first answer of mdp_objective says max, a later one min: the value under one
            assert (row["objective"], row["sense"]) == ("aim, answer 1", "max")
            # strategy s of the first answer flips (1/2); a later one passes (0)
            assert row["value"] == 0.5
            if row.get("variant") == "v":  # the parameters and the rules of one answer
                assert row["rules"] == f"variant v, answer {row['params']['x'] - 100}"
