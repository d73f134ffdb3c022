"""The Python API does not need the command line: analysing a game and writing a table
import nothing of ``mdp.program``."""

import subprocess
import sys

import polars as pl
import pytest


def _fresh(tmp_path, script: str) -> str:
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
def test_analyse_and_write_table_import_nothing_of_the_program(tmp_path):
    script = (
        "import sys, mdp\n"
        "game = mdp.load_game('shutbox', tiles='1-4')\n"
        "solution = mdp.solve(mdp.compile(game))\n"
        "for name in ('policy', 'distribution', 'advise', 'strategies'):\n"
        "    options = {'state': {'open': '1 2 3 4', 'roll': 5}} if name == 'advise' else {}\n"
        "    table = mdp.analyse(solution, name, game, **options)\n"
        "    mdp.write_table(table, f'{name}.csv')\n"
        "table = mdp.analyse(solution, 'simulate', game, games=100, seed=1)\n"
        "mdp.write_table(table, 'simulate.parquet')\n"
        "print(sorted(mdp.formats()), sorted(mdp.exports()), sorted(mdp.analyses()))\n"
        "print(sorted(m for m in sys.modules if m == 'mdp.program' or m.startswith('mdp.program.')))\n")
    lines = _fresh(tmp_path, script).splitlines()
    assert lines[-1] == "[]"
    assert "'policy'" in lines[-2] and "'csv'" in lines[-2] and "'prism'" in lines[-2]
    # What was written is the table: the policy of four tiles read back.
    policy = pl.read_csv(tmp_path / "policy.csv")
    assert policy.height > 0 and "optimal" in policy.columns
    assert pl.read_parquet(tmp_path / "simulate.parquet")["games"].sum() == 100


def test_the_program_adds_its_commands_to_the_same_plugins(tmp_path):
    # The commands are the program's: listed once it is imported, beside every analysis.
    script = ("import mdp\nprint(sorted(mdp.analyses()))\nprint(sorted(mdp.commands()))\n")
    analyses, commands = _fresh(tmp_path, script).splitlines()
    assert "'distribution'" in analyses and "'solve'" in commands and "'report'" in commands
