"""The options of play toward a total, checked as the docs say: refusals come before the work
they would waste (the exact chances of every total that cannot be worked out refused before
the solve), --points and --after only what the game can have, one number parser refuses blanks, and mdp simulate
refuses --exact, which it would take and ignore."""

import json
from pathlib import Path

import pytest

import mdp
from mdp.program.cli import main

EXAMPLE = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "two_boxes.py")
STATE = ["filled=FACE", "throws_left=1", "face=4"]


def _code(argv):
    try:
        return main(argv)
    except SystemExit as ended:  # argparse's own refusal
        return ended.code


@pytest.mark.parametrize("argv", [["distribution", EXAMPLE, "--at-least", "9", "--exact"],
                                  ["advise", EXAMPLE, *STATE, "--at-least", "9", "--exact"]])
def test_exact_chances_past_the_limit_are_refused_before_the_solve(argv, capsys, monkeypatch):
    monkeypatch.setattr("mdp.engine.rounds.reach.MOST_EXACT_COLUMNS", 10)

    def solve(*args, **kwargs):
        raise AssertionError("solved before the refusal")

    monkeypatch.setattr(mdp, "solve", solve)
    assert _code(argv) == 3
    err = capsys.readouterr().err
    assert "round states and totals to solve, too many in exact numbers (at most 10)" in err
    assert "Traceback" not in err


def test_points_so_far_count_toward_the_total(capsys):
    # FACE filled (1 to 6 points earned: its face), 1 point so far, at least 9 wanted: 8 more.
    # EVEN takes the 4 thrown for 8 points, surely enough (chance 1); throwing again needs a
    # 4 or a 6, 1/3.
    assert main(["advise", EXAMPLE, *STATE, "--at-least", "9", "--points", "1", "--exact",
                 "--json"]) == 0
    actions = {a["action"]: a for a in json.loads(capsys.readouterr().out)["actions"]}
    assert actions["EVEN"]["value_exact"] == "1" and actions["again"]["value_exact"] == "1/3"


@pytest.mark.parametrize("argv, said", [
    (["solve", EXAMPLE, "--at-least", " 5"], "--at-least  5: expected a whole number, without "
     "blanks around it"),
    (["distribution", EXAMPLE, "--at-least", "5 "], "without blanks around it"),
    (["simulate", EXAMPLE, "--games", " 10"], "without blanks around it"),
    (["simulate", EXAMPLE, "--games", "10", "--exact"], "unrecognized arguments: --exact"),
])
def test_refused_in_one_line_before_any_work(argv, said, capsys, monkeypatch):
    def compile(*args, **kwargs):
        raise AssertionError("compiled before the refusal")

    monkeypatch.setattr(mdp, "compile", compile)
    assert _code(argv) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def _earned():
    """By hand from the rules of docs/examples/two_boxes.py: FACE scores the face, EVEN twice
    an even face (else 0). The points a round state is reached with, and the totals a game
    ends with (both boxes filled), each as the set of every play's."""
    face, even = set(range(1, 7)), {0, 4, 8, 12}
    return {"": {0}, "FACE": face, "EVEN": even,
            "FACE EVEN": {a + b for a in face for b in even}}


@pytest.mark.slow
@pytest.mark.parametrize("filled", ["", "FACE", "EVEN"])
@pytest.mark.parametrize("given", range(-2, 21))
def test_points_and_totals_the_game_cannot_have_are_refused_before_the_solve(
        filled, given, capsys, monkeypatch):
    """--points P at a round state, and --after T, are refused where outside the least and
    most the game can have there (round 17, R17-N3: --after 99, --points 20 with FACE alone
    answered); inside, they are taken (a gap between, as 1 with EVEN filled, is not refused)."""
    class Solved(Exception):
        pass

    def solve(*args, **kwargs):
        raise Solved

    earned = _earned()
    monkeypatch.setattr(mdp, "solve", solve)
    monkeypatch.setattr("mdp.engine.rounds.reach.solve_reach", solve)
    state = [f"filled={filled}", "throws_left=2"]
    for option, within in (("--points", earned[filled]), ("--after", earned["FACE EVEN"])):
        more = ["--at-least", "9"] if option == "--points" else \
            ["--points", str(min(earned[filled]))]  # the player advised: points they can have
        try:
            code = _code(["advise", EXAMPLE, *state, option, str(given), *more])
        except Solved:  # past the checks, into the solve
            code = None
        err = capsys.readouterr().err
        if min(within) <= given <= max(within):
            assert code is None, err
        else:
            assert code == 2 and err.count("\n") == 1 and f"never {given}" in err, err


@pytest.fixture(scope="module")
def two_boxes():
    game = mdp.load_game(EXAMPLE)
    return game, mdp.solve(mdp.compile(game))


@pytest.mark.parametrize("filled", ["", "FACE", "EVEN"])
def test_python_refuses_what_the_command_line_does(filled, two_boxes):
    """mdp.analyse's advice refuses the points and totals the game cannot have, as the
    command line does before the solve (round 36, U36-4: points=10**6 at the start answered
    1, and points=-5 said "this Reach was solved toward one total" of the engine's)."""
    game, solution = two_boxes
    earned = _earned()
    state = {"filled": filled, "throws_left": 2}
    for given in (-5, *range(-1, 22, 3), 10**6):
        for option, within, more in (("points", earned[filled], {"at_least": 9}),
                                     ("after", earned["FACE EVEN"],
                                      {"points": min(earned[filled])})):
            asked = {option: (given,) if option == "after" else given, **more}
            if min(within) <= given <= max(within):
                assert mdp.analyse(solution, "advise", game, state=state, **asked).height
            else:
                with pytest.raises(mdp.ParamError, match=rf"^{option}={given} .*never {given}$"
                                   if option == "points" else rf"^{option}={given}: .*never {given}$"):
                    mdp.analyse(solution, "advise", game, state=state, **asked)


@pytest.mark.parametrize("after, said", [((5, 7), "a match of a game of rounds is of 2 players"),
                                         ((5.5,), "a whole number of points, not 5.5"),
                                         (("x",), "a whole number of points, not 'x'")])
def test_python_names_after_as_python_s(after, said, two_boxes):
    """Said as the command line's --after (round 37)."""
    game, solution = two_boxes
    with pytest.raises(mdp.ParamError, match=rf"^after: .*{said}"):
        mdp.analyse(solution, "advise", game, state={"filled": "", "throws_left": 2}, after=after)
