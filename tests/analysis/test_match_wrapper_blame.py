"""A rule plugin's wrapper of mdp_match_rules whose payoff (or decided) is wrong is named, never
the game whose own rules were right (round 34, P34-10: "game mt: the payoff of
mdp_match_rules gave [1, 1] ...", the game blamed for the plugin's payoff). The same fault
in the game's own rules names the game alone."""

import pytest

from mdp.program.cli import main

# One player chooses a sure 1, a fair coin of 2 or 0, or a third's chance of 3: a match pays
# the better result one from the other (by hand: the second player's best reply to any first
# evens it, 0 and 0 exactly).
GAME = '''from fractions import Fraction as F
import numpy as np
import mdp

GAME_NAME = "mt"


def payoff(results):
    won = np.sign(results[:, 1] - results[:, 0])
    return np.stack([-won, won], axis=1)


def decided(given):
    return None


@mdp.hookimpl
def mdp_initial_state():
    return "start"


@mdp.hookimpl
def mdp_actions(state):
    return ["safe", "risky", "super"] if state == "start" else []


@mdp.hookimpl
def mdp_outcomes(state, action):
    return {"safe": [(1, 1)], "risky": [(F(1, 2), 2), (F(1, 2), 0)],
            "super": [(F(1, 3), 3), (F(2, 3), 0)]}[action]


@mdp.hookimpl
def mdp_terminal_value(state):
    return state


@mdp.hookimpl
def mdp_state_columns(state):
    return {"score": state if state != "start" else None}


@mdp.hookimpl
def mdp_match_rules():
    return mdp.MatchRules("score", OWN_PAYOFF, decided=OWN_DECIDED)
'''
PLUGIN = '''import numpy as np
import mdp

GAME = "mt"


@mdp.hookimpl(wrapper=True)
def mdp_match_rules():
    rules = yield
    payoff, decided = rules.payoff, rules.decided
    return mdp.MatchRules(rules.outcome, PAYOFF, decided=DECIDED)
'''
# Each fault of a payoff (of one called ``payoff``) or of a decided, the command that finds
# it, and the words of the line that says it.
FAULTS = [
    ("lambda results: payoff(results) + 1", "decided", ["match"], "the payoff of", "adding up to 2"),
    ("lambda results: payoff(results)[:1]", "decided", ["match"], "the payoff of", "of shape"),
    ("lambda results: payoff(results) * np.nan", "decided", ["match"], "the payoff of", "finite"),
    ("lambda results: 1 // 0", "decided", ["match"], "the payoff of", "ZeroDivisionError"),
    ("payoff", "lambda given: 5", ["advise", "--after", "2"], "the decided of", "gave 5"),
]


@pytest.mark.parametrize("payoff, decided, argv, part, said", FAULTS)
def test_a_wrapper_that_makes_the_match_rules_wrong_is_named(tmp_path, capsys, payoff, decided, argv, part, said):
    (tmp_path / "mt.py").write_text(GAME.replace("OWN_PAYOFF", "payoff").replace("OWN_DECIDED", "decided"))
    (tmp_path / "wrap.py").write_text(PLUGIN.replace("PAYOFF", payoff).replace("DECIDED", decided))
    assert main([argv[0], str(tmp_path / "mt.py"), "-p", str(tmp_path / "wrap.py"), *argv[1:]]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mdp: error: game mt: {part} plugin {tmp_path / 'wrap.py'}'s mdp_match_rules "), err
    assert said in err and err.count("\n") == 1, err


@pytest.mark.parametrize("payoff, decided, argv, part, said", FAULTS)
def test_the_same_fault_in_the_game_s_own_rules_names_the_game(tmp_path, capsys, payoff, decided, argv, part, said):
    (tmp_path / "mt.py").write_text(GAME.replace("OWN_PAYOFF", payoff).replace("OWN_DECIDED", decided))
    (tmp_path / "innocent.py").write_text(PLUGIN.replace("PAYOFF", "payoff").replace("DECIDED", "decided"))
    assert main([argv[0], str(tmp_path / "mt.py"), "-p", str(tmp_path / "innocent.py"), *argv[1:]]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mdp: error: game mt: {part} mdp_match_rules ") and said in err, err


def test_the_game_s_own_match_is_even_by_hand(tmp_path, capsys):
    (tmp_path / "mt.py").write_text(GAME.replace("OWN_PAYOFF", "payoff").replace("OWN_DECIDED", "decided"))
    assert main(["match", str(tmp_path / "mt.py"), "--exact", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"exact": "0/1"' in out and out.count('"exact": "0/1"') == 2, out


def test_a_decided_a_wrapper_adds_to_rules_without_one_is_the_wrapper_s(tmp_path, capsys):
    (tmp_path / "mt.py").write_text(GAME.replace("OWN_PAYOFF", "payoff").replace("OWN_DECIDED", "None"))
    (tmp_path / "wrap.py").write_text(PLUGIN.replace("PAYOFF", "payoff").replace("DECIDED", "lambda given: 5"))
    assert main(["advise", str(tmp_path / "mt.py"), "-p", str(tmp_path / "wrap.py"), "--after", "2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mdp: error: game mt: the decided of plugin {tmp_path / 'wrap.py'}'s "
                          "mdp_match_rules gave 5"), err
