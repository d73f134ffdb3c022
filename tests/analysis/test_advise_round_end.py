"""A state with no actions is said for what it is: in a game of rounds, an end of the round
(play goes on from the round state it leads to); in a game of one model, the game's end.
Before, an end of the first round of Two boxes was said to end the game."""

from pathlib import Path

import pytest

from mdp.program.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


@pytest.mark.parametrize(("argv", "line"), [
    ([str(EXAMPLES / "two_boxes.py"), "filled=", "face=4", "scored_in=FACE"], "no actions: the round ends here"),
    ([str(EXAMPLES / "reroll.py"), "rolls_left=0", "face=3"], "no actions: the game is over"),
])
def test_a_state_without_actions_is_said_for_what_it_is(capsys, argv, line):
    assert main(["advise", *argv]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == line


# Every state of Two boxes' round, by its columns: (throws_left, face, scored_in).
ROUND_STATES = [{"throws_left": "2"}] + [{"throws_left": str(t), "face": str(f)} for t in (0, 1)
                                           for f in range(1, 7)] + \
    [{"throws_left": str(t), "face": str(f), "scored_in": box} for t in (0, 1) for f in range(1, 7)
     for box in ("FACE", "EVEN")]


@pytest.mark.slow
@pytest.mark.parametrize("rest", ROUND_STATES)
def test_at_a_round_state_that_ends_the_game_only_the_round_state_is_named(capsys, rest):
    # Before: filled="FACE EVEN" throws_left=1 face=3 answered "no actions: the round ends
    # here", exit 0, though with both boxes filled no round is played and that state is
    # never reached. Only the round's first state (throws_left=2), or none, names it.
    import mdp

    example = str(EXAMPLES / "two_boxes.py")
    argv = ["advise", example, "filled=FACE EVEN", *(f"{c}={v}" for c, v in rest.items())]
    game = mdp.load_game(example)
    solution = mdp.solve(mdp.compile(game))
    if rest == {"throws_left": "2"}:
        for named in (argv, argv[:3]):  # the round state alone, or with its round's first state
            assert main(named) == 0
            assert capsys.readouterr().out.splitlines()[-1] == "no actions: the game is over here"
        assert mdp.advise(solution, game, filled="FACE EVEN").over
        return
    # Where the round is played (one box filled), is the state one of the round?
    played = main(["advise", example, "filled=FACE", *argv[3:]])
    capsys.readouterr()
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    said = "the game is over at that round state, and no round is played from it"
    if played == 0:  # a state of the round, but not its first: refused for that
        assert captured.err.startswith(f"mdp: error: {said}: "), captured.err
        with pytest.raises(mdp.ParamError, match=said):
            mdp.advise(solution, game, filled="FACE EVEN", **rest)
    else:  # no state of the round: refused as anywhere
        assert played == 2 and captured.err.startswith("mdp: error: no reachable state has ")


def test_the_states_of_the_round_above_are_most_of_them():
    # The test above is not empty: most of its states are states of the round (12 thrown
    # faces with one throw left or none, and the ends scored in a box after them).
    import mdp

    game = mdp.load_game(str(EXAMPLES / "two_boxes.py"))
    solution = mdp.solve(mdp.compile(game))
    named = 0
    for rest in ROUND_STATES:
        try:
            mdp.advise(solution, game, filled="FACE", **rest)
            named += 1
        except mdp.ParamError:
            pass
    assert named >= 13
