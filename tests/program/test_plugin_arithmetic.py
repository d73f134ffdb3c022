"""A float gone wrong in a plugin's own code (its analysis or command: numpy's overflow, which
mdp makes an error) is the plugin's fault, named; mdp's own arithmetic gone wrong is said
as the numbers', with advice to solve exactly. Round 26: a plugin analysis's overflow was
"a number went past what a float holds ...; solve exactly (--exact)", no plugin named."""

import pytest

from mdp.program.cli import main

PLUGIN = '''
import numpy as np
import polars as pl
import mdp

def run(solution, game, where):
    if where == "run":
        np.float64(1e308) * 10
    return pl.DataFrame({"where": [where]})

def summary(answer, solution):
    if answer["where"][0] == "summary":
        np.float64(1e308) * 10
    return {"ok": 1}

def show(answer, solution, game):
    if answer["where"][0] == "show":
        np.float64(1e308) * 10

def command(args):
    np.float64(1e308) * 10
    return 0

@mdp.hookimpl
def mdp_analyses():
    return [mdp.Analysis("ov", "overflow", run, [mdp.Param("where", "none", str, "where")],
                         summary=summary, show=show)]

@mdp.hookimpl
def mdp_commands():
    return [mdp.Command("ovc", "overflow", command)]
'''


@pytest.mark.parametrize("argv", [["ov", "shutbox", "--where", "run"], ["ov", "shutbox", "--where", "summary", "--json"],
                                  ["ov", "shutbox", "--where", "show"], ["ovc"]])
def test_a_plugins_own_float_gone_wrong_is_its_fault(tmp_path, capsys, monkeypatch, argv):
    (tmp_path / "ovfa.py").write_text(PLUGIN)
    monkeypatch.chdir(tmp_path)
    assert main([*argv, "-p", "ovfa.py", *(["--set", "tiles=1-2"] if argv[0] == "ov" else [])]) == 2
    kind = "analysis ov" if argv[0] == "ov" else "command ovc"
    assert capsys.readouterr().err == (f"mdp: error: plugin ovfa.py's {kind} raised RuntimeWarning: "
                                       "overflow encountered in scalar multiply\n")
