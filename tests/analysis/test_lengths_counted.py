"""The chance of lasting longer than the lengths counted is said of the last length counted
(``up_to``), not of the last length some game lasts: ``mdp lengths --up-to 1`` of a game no
game of which ends in one move said "longer than 0 moves"."""

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp
import mdp.analysis.lengths as counting
from mdp.program.cli import main

GAME = '''
import mdp
from fractions import Fraction

GAME_NAME = "late"


@mdp.hookimpl
def mdp_initial_state():
    return "a"


@mdp.hookimpl
def mdp_actions(state):
    return {"a": ["go"], "b": ["flip"]}.get(state, [])


@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(1, "b")] if state == "a" else [(Fraction(1, 2), "end"), (Fraction(1, 2), "b")]


@mdp.hookimpl
def mdp_terminal_value(state):
    return 1
'''
"""A move to ``b``, then coins until heads: a game lasts k moves with chance 2**-(k - 1),
for k of 2 or more (never 1), so longer than n moves with chance 2**-(n - 1)."""


@settings(max_examples=12, deadline=None)
@given(st.integers(1, 12))
def test_the_chance_beyond_is_of_lasting_longer_than_up_to(tmp_path_factory, n):
    path = tmp_path_factory.mktemp("late") / "late.py"
    path.write_text(GAME)
    beyond = Fraction(1, 2 ** (n - 1))
    found = mdp.lengths(mdp.solve(mdp.compile(mdp.load_game(str(path))), exact=True), up_to=n)
    assert (found.counted, found.beyond) == (n, beyond)
    assert found.table["moves"].to_list() == list(range(2, n + 1))
    assert found.summary()["counted"] == n


def test_the_command_line_says_the_length_asked_for(tmp_path, capsys):
    path = tmp_path / "late.py"
    path.write_text(GAME)
    for n, line in ((1, "longer than 1 move: 1 = 1"), (2, "longer than 2 moves: 0.5 = 1/2"),
                    (3, "longer than 3 moves: 0.25 = 1/4")):
        assert main(["lengths", str(path), "--up-to", str(n), "--exact"]) == 0
        assert capsys.readouterr().out.splitlines()[-1] == line
    assert main(["lengths", str(path), "--up-to", "1", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert (shown["counted"], shown["beyond"], shown["lengths"]) == (1, 1, [])


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(st.integers(60, 2**63 - 1))
def test_in_floats_counting_stops_where_less_than_a_billionth_goes_on(up_to):
    # Pig to 10 has no longest game: in floats the count stops once less than one game in
    # a billion goes on, before a large --up-to, and counted says where it stopped (the
    # docs said counted is --up-to where it is given).
    game = mdp.load_game("pig", goal="10")
    found = mdp.lengths(mdp.solve(mdp.compile(game)), up_to=up_to)
    assert found.counted < up_to and found.counted == found.table["moves"].max()
    assert 0 < found.beyond <= 1e-9
    assert abs(found.table["probability"].sum() + found.beyond - 1) < 1e-12


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(st.integers(1, 40))
def test_lengths_counted_exactly_past_the_work_allowed_are_refused_up_front(steps):
    # Before: --up-to 10000 --exact on Pig to 10 ran for minutes, with no bound nor estimate.
    # The limit set to what counting `steps` lengths takes: one more is refused, in Python
    # and on the command line (exit code 3, before the solve), naming the work.
    game = mdp.load_game("pig", goal="10")
    outcomes = mdp.compile(game).n_outcomes
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(counting, "MOST_EXACT_LENGTH_WORK", outcomes * steps * steps)
        solution = mdp.solve(mdp.compile(game), exact=True)
        assert mdp.lengths(solution, up_to=steps).counted == steps
        with pytest.raises(mdp.TooLarge, match=rf"^game pig: counting lengths exactly up to {steps + 1:,} "):
            mdp.lengths(solution, up_to=steps + 1)
        patch.setattr(mdp, "solve", lambda *a, **k: (_ for _ in ()).throw(AssertionError("solved")))
        assert main(["lengths", "pig", "--set", "goal=10", "--exact", "--up-to", str(steps + 1)]) == 3
