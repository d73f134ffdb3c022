"""A match compares the players' results by its rules alone: a parameter that only a game
alone reads (MatchRules.ignores: Shut the Box's scoring and payout) set otherwise than by its
default is refused, in mdp match and advise --after, before any work (round 18, R18-N13:
``match --vary scoring=win,score,digital`` gave three identical rows under headers naming
each scoring)."""

from fractions import Fraction

import pytest

import mdp
from mdp.program.cli import main


@pytest.mark.parametrize("scoring", ["score", "digital", "payout"])
@pytest.mark.parametrize("argv", [
    ["match", "shutbox", "--set", "tiles=1-4"],
    ["advise", "shutbox", "--set", "tiles=1-4", "open=1 2 3 4", "roll=7", "--after", "3"],
])
def test_a_scoring_the_match_does_not_read_is_refused(scoring, argv, capsys, monkeypatch):
    def compile(*args, **kwargs):
        raise AssertionError("compiled before the refusal")

    monkeypatch.setattr(mdp, "compile", compile)
    more = ["--set", "payout=0:100,1-3:5"] if scoring == "payout" else []
    assert main([*argv, "--set", f"scoring={scoring}", *more]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"scoring={scoring}: a match of game shutbox compares" in err


def test_the_default_scoring_plays_the_match():
    game = mdp.load_game("shutbox", tiles="1-4")
    assert mdp.match_rules(game).ignores == ("scoring", "payout")
    assert mdp.match(mdp.compile(game), game).values[0] != 0


def _reroll(match_only, described=True):
    """Reroll, matched (the higher face kept wins ``pay`` from the other), whose match rules
    name ``match_only`` as read by the match alone; ``rolls`` is the game's own (in its rules
    line where ``described``)."""
    import types
    from fractions import Fraction

    import numpy as np

    def payoff(results, pay):
        won = np.sign(results[:, 1] - results[:, 0]) * pay
        return np.stack([-won, won], axis=1)

    hooks = dict(
        mdp_params=lambda: [mdp.Param("rolls", 3, int, "rolls of the die"), mdp.Param("pay", 1, int, "a win")],
        mdp_describe=lambda params: f"reroll: up to {params['rolls'] if described else 'some'} rolls",
        mdp_initial_state=lambda params: (params["rolls"], None),
        mdp_actions=lambda params, state: ["roll"] if state[1] is None else ["keep", "roll"] if state[0] else [],
        mdp_outcomes=lambda params, state, action: [(1, (0, state[1]))] if action == "keep" else
        [(Fraction(1, 6), (state[0] - 1, face)) for face in range(1, 7)],
        mdp_terminal_value=lambda params, state: state[1],
        mdp_state_columns=lambda params, state: {"rolls_left": state[0], "face": state[1]},
        mdp_match_rules=lambda params: mdp.MatchRules("face", lambda results: payoff(results, params["pay"]),
                                                      params=match_only))
    for hook in hooks.values():
        mdp.hookimpl(hook)
    return types.SimpleNamespace(GAME_NAME="reroll", **hooks)


@pytest.mark.parametrize("described", [True, False])
def test_a_parameter_of_the_game_named_the_match_s_alone_is_refused(tmp_path, described):
    """Round 25: `rolls` named in MatchRules.params (read by the match alone) though the game
    reads it: `match --vary rolls=1,3` compiled once and gave rule set 3 the answer of 1. It
    was found by the rules line alone, and one that does not say it (round 31) was trusted:
    every rule set given one's figures, which one by the order of the values."""
    game = _reroll(("pay", "rolls"), described)
    with pytest.raises(mdp.ModelError, match=r"^game reroll: its hooks read rolls as its states are "
                       r"made, though mdp_match_rules names it among those the match alone reads"):
        mdp.match_table(game, {"rolls": [1, 3]}, exact=True)
    table = mdp.match_table(_reroll(("pay",)), {"rolls": [1, 3], "pay": [1, 2]}, exact=True)
    by = {(r["rolls"], r["pay"]): Fraction(r["player_1_exact"]) for r in table.to_dicts()}
    alone = {}
    for rolls in (1, 3):
        game = mdp.load_game(_reroll(("pay",)), rolls=rolls)
        alone[rolls] = mdp.match(mdp.compile(game), game, exact=True).values[0]
    # One roll each, no choice: a fair contest of faces, worth 0 (by hand). A win paying 2
    # doubles what the first player wins; each rule set as its match alone says.
    assert alone[1] == 0 and alone[3] != 0
    assert by == {(rolls, pay): pay * alone[rolls] for rolls in (1, 3) for pay in (1, 2)}


VARIANT = """import mdp

GAME = "shutbox"


@mdp.hookimpl
def mdp_variants():
    return [mdp.Variant("scored", {"scoring": "score", "tiles": "1-4"}, "scored by the tiles left")]
"""


def test_a_scoring_a_variant_sets_is_said_to_be_the_variant_s(tmp_path, capsys):
    # Round 36, A36P-10: the line said "leave it out" of a parameter the user never gave.
    plugin = tmp_path / "scored.py"
    plugin.write_text(VARIANT)
    assert main(["match", "shutbox", "-p", str(plugin), "--variant", "scored"]) == 2
    assert capsys.readouterr().err == (
        "mdp: error: scoring=score, which --variant scored sets: a match of game shutbox compares "
        "the players' open_sum and does not read scoring, which scores a game alone; set it back with "
        "--set scoring=win\n")
