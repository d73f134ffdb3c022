"""An analysis's checks (``check``, ``check_game``, ``check_model``) read the command's
arguments and refuse what they cannot mean; what they change is not acted on. Round 26: a
``check_game`` that set ``args.out`` had "1 row written to o.csv" said with no o.csv (the
table elsewhere), and a ``check`` that did so had the table written where the plugin liked."""

import pytest

from mdp.program.cli import main

PLUGIN = '''
import mdp

def moved(*given):
    args = given[-1]
    args.out = ELSEWHERE
    args.params.append("tiles=1-2")
    args.json = True

def run(solution, game):
    return mdp.policy(solution, game).head(1)

@mdp.hookimpl
def mdp_analyses():
    return [mdp.Analysis("firstrow", "the first row of the policy", run, [], CHECK=moved)]
'''


@pytest.mark.slow
@pytest.mark.parametrize("check", ["check", "check_game", "check_model"])
def test_what_a_check_changes_in_the_arguments_is_not_acted_on(tmp_path, capsys, monkeypatch, check):
    elsewhere = tmp_path / "elsewhere.csv"
    (tmp_path / "rowplugin.py").write_text(PLUGIN.replace("ELSEWHERE", repr(str(elsewhere)))
                                           .replace("CHECK", check))
    monkeypatch.chdir(tmp_path)
    assert main(["firstrow", "shutbox", "--set", "tiles=1-3", "-p", "rowplugin.py", "--out", "o.csv"]) == 0
    assert capsys.readouterr().err == "1 row written to o.csv\n"
    assert (tmp_path / "o.csv").read_text().startswith("open,")  # Shut the Box's policy, tiles 1-3
    assert not elsewhere.exists()
