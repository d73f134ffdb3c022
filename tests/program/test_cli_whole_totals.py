"""Every command that follows totals (solve --at-least, targets, advise, simulate and
distribution --at-least, match) refuses points that are not whole or are 2**49 or more in
size in the one line of the rule (docs/concepts.rst), before any bound of size or memory,
and never by a table's row limit, advice to ask for one total, or to simulate."""

import re
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from models import COIN_ROUNDS

from mdp.program.cli import main

COMMANDS = [["solve", "{game}", "--at-least", "1"], ["targets", "{game}"],
            ["advise", "{game}", "round_state=0", "state=start", "--at-least", "1"],
            ["simulate", "{game}", "--at-least", "1", "--games", "5"],
            ["distribution", "{game}", "--at-least", "1"], ["match", "{game}"]]

points = st.one_of(
    st.integers(1, 40),  # whole: followed
    st.integers(49, 400).flatmap(lambda bits: st.integers(2 ** 49, 2 ** bits)),  # too large
    st.builds(Fraction, st.integers(1, 99), st.integers(2, 9)).filter(lambda f: f.denominator > 1))


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(up=points, command=st.sampled_from(COMMANDS), exact=st.booleans())
def test_commands_following_totals_refuse_by_the_rule_of_whole_points(up, command, exact,
                                                                       tmp_path, capsys):
    _refused_by_the_rule(up, command, exact, tmp_path, capsys)


@pytest.mark.parametrize(("up", "command"), [(2 ** 50, COMMANDS[0]), (Fraction(7, 2), COMMANDS[1])])
def test_solve_at_least_and_targets_say_the_rule(up, command, tmp_path, capsys):
    # Before: solve --at-least T was told to ask for one total, targets to use mdp simulate.
    _refused_by_the_rule(up, command, False, tmp_path, capsys)


def _refused_by_the_rule(up, command, exact, tmp_path, capsys):
    game = tmp_path / "coin.py"
    game.write_text(COIN_ROUNDS.format(up=up, down=0, heads="1/2", rounds=2))
    argv = [word.format(game=game) for word in command] + (["--exact"] * exact)
    if exact and command[0] == "simulate":
        return  # simulate plays in floats
    code = main(argv)
    out, err = capsys.readouterr()
    whole = Fraction(up).denominator == 1 and abs(up) < 2 ** 49
    if whole:
        assert code == 0, err
        return
    assert code == 2, err
    assert re.fullmatch(r"mdp: error: game coin: mdp_round_rule gave points .+; "
                        r".* is for whole points \(less than 2\*\*49 in size\)\n", err), err
    assert "Traceback" not in err


@pytest.mark.parametrize(("count", "said"), [(0, "0"), (999_999, "999,999"),
                                             (10 ** 15 - 1, "999,999,999,999,999"),
                                             (10 ** 15, "about 10^15"), (10 ** 200, "about 10^200"),
                                             (10 ** 200 - 1, "about 10^199")])
def test_a_count_past_a_quadrillion_is_said_by_its_power_of_ten(count, said):
    from mdp.engine.numeric import counted

    assert counted(count) == said
