"""The line of mean, spread and percentiles beside a table of outcomes shows each value as
the table does: a percentile 0.30000000000000004 never as the table's 0.3 (it was), and an
exact total no float holds by its size (1e-400) by its size, never as 0 (it was "mean 0,
standard deviation 0; percentiles: 5% 0 ...")."""

import json
import re
from fractions import Fraction

import pytest

from mdp.program.cli import main

ALIKE = '''
from fractions import Fraction
import mdp
GAME_NAME = "alike"
@mdp.hookimpl
def mdp_initial_state():
    return ("start",)
@mdp.hookimpl
def mdp_actions(state):
    return ["go"] if state[0] == "start" else []
@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(Fraction(1, 4), ("end", A)), (Fraction(3, 4), ("end", B))]
@mdp.hookimpl
def mdp_terminal_value(state):
    return state[1]
@mdp.hookimpl
def mdp_state_columns(state):
    return {"x": state[1] if state[0] == "end" else None}
'''

TINY = '''
from fractions import Fraction
import numpy as np
import mdp
GAME_NAME = "tiny"
@mdp.hookimpl
def mdp_initial_state():
    return "throw"
@mdp.hookimpl
def mdp_actions(state):
    return ["throw"] if state == "throw" else []
@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(Fraction(1, 4), 1), (Fraction(3, 4), 3)]
@mdp.hookimpl
def mdp_terminal_value(state):
    return 0
@mdp.hookimpl
def mdp_round_start():
    return 0
@mdp.hookimpl
def mdp_round_rule(ends):
    scored = np.array([Fraction(face) * SCALE for face in ends], dtype=object)
    def rule(states):  # one round: from round state 0 to 1, where no end is allowed
        following = np.where(states[:, None] >= 1, -1, states[:, None] + 1)
        points = np.array([scored] * len(states), dtype=object)
        return mdp.RoundEnds(np.broadcast_to(following, points.shape), points)
    return rule
'''


def _line(out):
    return next(line for line in out.splitlines() if "percentiles: " in line)


@pytest.mark.parametrize(("a", "b"), [("0.3", "0.1 + 0.2"), ("0.1 + 0.2", "0.3"), ("1.0", "1 + 2**-52")])
def test_a_percentile_reads_as_its_row_of_the_table(tmp_path, capsys, a, b):
    game = tmp_path / "alike.py"
    game.write_text(ALIKE.replace("A)", f"{a})").replace("B)", f"{b})"))
    assert main(["simulate", str(game), "--games", "200", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = {line.split()[0] for line in lines[lines.index(next(
        line for line in lines if line.split()[:2] == ["value", "games"])) + 1:]}
    assert len(rows) == 2  # the table tells the two apart
    shown = re.findall(r"\d+% ([^,]+)", _line("\n".join(lines)))
    assert len(shown) == 5 and set(shown) <= rows, (shown, rows)


@pytest.mark.slow  # its cases take a second of CPU or more in all
@pytest.mark.parametrize("exponent", [-400, -320, 0, 200])  # (points past a float are refused)
def test_an_exact_spread_is_shown_by_its_size(tmp_path, capsys, exponent):
    game = tmp_path / "tiny.py"
    scale = Fraction(10) ** exponent
    game.write_text(TINY.replace("SCALE", repr(scale)))
    assert main(["distribution", str(game), "--exact"]) == 0
    # By hand: one round of 1 (1/4) or 3 (3/4) points, times the scale: mean 5/2, variance
    # (1/4) (3/2)**2 + (3/4) (1/2)**2 = 3/4, sd 0.866; percentiles 1, 1, 3, 3, 3.
    def size(x):
        return f"{float(x):.15g}" if abs(exponent) < 300 else f"{float(x * 10**-exponent):.3g}e{exponent}"
    said = re.fullmatch(r"mean (\S+), standard deviation (\S+); percentiles: 5% (\S+), 25% "
                        r"(\S+), 50% (\S+), 75% (\S+), 95% (\S+)", _line(capsys.readouterr().out))
    assert said is not None
    assert said.groups() == (size(Fraction(5, 2) * scale), f"8.66e{exponent - 1}"
                             if abs(exponent) >= 300 else f"{0.75 ** 0.5 * float(scale):.4g}",
                             *map(size, [scale, scale, 3 * scale, 3 * scale, 3 * scale]))
    assert main(["distribution", str(game), "--exact", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert Fraction(found["mean_exact"]) == Fraction(5, 2) * scale
    assert found["mean"] == (float(Fraction(5, 2) * scale) if abs(exponent) < 300 else None)


@pytest.mark.parametrize("scale", ["1", "10**20", "Fraction(1, 2)"])
def test_the_percentiles_of_json_are_of_one_kind_exact_or_not(tmp_path, capsys, scale):
    """A whole total is a JSON integer with --exact as without (it was 1.0 with, 1 without);
    a fraction or a total past 64 bits a float, its exact text beside."""
    game = tmp_path / "tiny.py"
    game.write_text(TINY.replace("SCALE", scale))
    said = []
    for exact in ([], ["--exact"]):
        assert main(["distribution", str(game), "--json", *exact]) == 0
        said.append(json.loads(capsys.readouterr().out)["percentiles"])
    whole = scale == "1"
    assert [type(v) for v in said[1].values()] == [int if whole else float] * 5
    if whole:
        assert said[0] == said[1] and [type(v) for v in said[0].values()] == [int] * 5
