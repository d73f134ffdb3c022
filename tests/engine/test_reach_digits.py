"""A chance that floats cannot hold with its digits, in the sweep toward every total (round 24:
a gamble won 60 times at 1 in a million, 1e-360, came to 0 in floats with no word: the total
"out of reach", the one play that keeps it alive tied with one that gives it up). Floats
either answer every chance as exact numbers do, to their digits, or refuse in one line and
send to ``--exact``."""

import json
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import mdp

GAMBLES = '''
from fractions import Fraction
import numpy as np
import mdp

GAME_NAME = "gambles"


@mdp.hookimpl
def mdp_initial_state():
    return "choose"


@mdp.hookimpl
def mdp_actions(state):
    return ["safe", "gamble"] if state == "choose" else []


@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(1, "safe")] if action == "safe" else [(Fraction(1, ODDS), "won"), (1 - Fraction(1, ODDS), "lost")]


@mdp.hookimpl
def mdp_terminal_value(state):
    return 0


@mdp.hookimpl
def mdp_round_start():
    return 0


@mdp.hookimpl
def mdp_round_rule(ends):
    points = np.array([{"safe": 1, "won": 3, "lost": -2}[end] for end in ends])

    def rule(states):
        following = np.broadcast_to(np.where(states[:, None] < ROUNDS, states[:, None] + 1, -1),
                                    (len(states), len(ends)))
        return mdp.RoundEnds(following, np.broadcast_to(points, following.shape))
    return rule
'''
"""``ROUNDS`` rounds; each, 1 point for sure, or a gamble: 3 points at 1 in ``ODDS``, else -2.
At least ``3 * ROUNDS`` points needs every gamble won: ``ODDS**-ROUNDS``."""


def gambles(rounds, odds):
    """:data:`GAMBLES` of ``rounds`` rounds at 1 in ``odds``, loaded as a game."""
    hooks: dict = {}
    exec(GAMBLES.replace("ROUNDS", str(rounds)).replace("ODDS", str(odds)), hooks)  # noqa: S102
    return mdp.load_game(SimpleNamespace(**{name: hook for name, hook in hooks.items()
                                            if name.startswith(("mdp_", "GAME"))}))


@settings(max_examples=15, deadline=None)
@given(rounds=st.integers(1, 70), odds=st.sampled_from([2, 10, 1000, 10**6, 10**9]))
@example(rounds=59, odds=10**6).via("round 24: 1e-360 was 0, said nowhere")
@example(rounds=5, odds=10**6).via("1e-30: floats hold it")
@pytest.mark.slow  # half a second or more of CPU
def test_floats_give_every_chance_exact_numbers_give_or_send_to_exact(rounds, odds):
    model = mdp.compile(gambles(rounds, odds))
    low, exact = mdp.at_least(model, exact=True).curve()
    try:
        floats = mdp.at_least(model).curve()
    except mdp.ModelError as error:
        assert str(error).startswith("game gambles: a chance from round state ")
        assert str(error).endswith(", below what a float holds with its digits (about 2.2e-308), "
                                   "and smaller ones to 0; solve exactly (--exact)")
        # some chance of the sweep is not 0 and below that: the least one, won at every round
        assert Fraction(1, odds) ** rounds < Fraction(np.finfo(np.float64).tiny)
        return
    assert floats[0] == low and len(floats[1]) == len(exact)
    # (compared as fractions: float() of 1e-354 would be the float's 0 too)
    assert all(abs(Fraction(f) - c) <= c * Fraction(1, 10**9) for f, c in zip(floats[1].tolist(), exact))


GAME_FILE = GAMBLES.replace("ROUNDS", "60").replace("ODDS", str(10**6))


@pytest.mark.slow
def test_an_exact_chance_no_float_holds_is_said_by_its_size_and_null_in_json(tmp_path, capsys):
    # Sixty gambles won at 1 in a million: 1e-360, which the line called "(0)", and --json 0.0.
    from mdp.program.cli import main

    game = tmp_path / "gambles.py"
    game.write_text(GAME_FILE)
    assert main(["solve", str(game), "--at-least", "180", "--exact"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "best chance of at least 180 points: < 0.0001% (1e-360)"
    assert lines[2] == "exact: 1/1" + "0" * 360
    assert main(["solve", str(game), "--at-least", "180", "--exact", "--json"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert (said["value"], said["exact"]) == (None, "1/1" + "0" * 360)
    assert main(["solve", str(game), "--at-least", "180"]) == 2  # floats: refused, one line
    assert capsys.readouterr().err.endswith("solve exactly (--exact)\n")


@pytest.mark.slow  # half a second or more of CPU
def test_every_command_toward_the_total_says_such_a_chance_by_its_size(tmp_path, capsys):
    # targets --exact's rows read the float (0.0000%), distribution --at-least --exact's
    # --json gave 0.0 for value and chance.
    from mdp.program.cli import main

    game = tmp_path / "gambles.py"
    game.write_text(GAME_FILE)
    assert main(["targets", str(game), "--exact"]) == 0
    last = capsys.readouterr().out.splitlines()[-1].split()
    assert last[:4] == ["180", "<", "0.0001%", "0.0000%"]  # best-mean play never gambles: 0
    assert main(["distribution", str(game), "--at-least", "180", "--exact", "--json"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert (said["value"], said["chance"], said["chance_exact"]) == (None, None, "1/1" + "0" * 360)
