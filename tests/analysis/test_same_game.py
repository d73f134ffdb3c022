"""A model, solution or policy analysed with a game: the game must be the one it was compiled
from (mdp.checks.same_game, reached through every public function's argument check). A game
loaded with other rules is refused in one line naming the parameter that differs, rather
than labelling one rule set's numbers with another's (or blaming the game for it); the
parameters only a match reads change no state and are allowed."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp

ROOT = Path(__file__).resolve().parents[2]
RULES = [{"tiles": "1-4", "one_die": "never"}, {"tiles": "1-4", "one_die": "always"},
         {"tiles": "1-4", "one_die": "max6"}, {"tiles": "1-5", "one_die": "max6"}]
SOLVED = {i: mdp.solve(mdp.compile(mdp.load_game("shutbox", **rules))) for i, rules in enumerate(RULES)}


def _analyses(solution, game):
    """Every public analysis that takes a model, solution or policy and a game."""
    return {
        "match": lambda: mdp.match(solution.model, game),
        "advise": lambda: mdp.advise(solution, game, open="1 2 3 4", roll=3),
        "policy": lambda: mdp.policy(solution, game),
        "distribution": lambda: mdp.distribution(solution, game),
        "simulate": lambda: mdp.simulate(solution, game, games=10, seed=1),
        "strategy_values": lambda: mdp.strategy_values(solution.model, game),
    }


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(range(len(RULES))), st.sampled_from(range(len(RULES))))
def test_a_game_of_other_rules_is_refused_by_every_analysis(compiled, loaded):
    game = mdp.load_game("shutbox", **RULES[loaded])
    differ = sorted(k for k in RULES[0] if RULES[compiled][k] != RULES[loaded][k])  # the first named
    for name, call in _analyses(SOLVED[compiled], game).items():
        if not differ:
            call()  # the same rules: no refusal
            continue
        with pytest.raises(mdp.ParamError) as raised:
            call()
        message = str(raised.value)
        assert message.startswith(f"mdp.{name}: game is shutbox with {differ[0]}=")
        assert f"was compiled with {differ[0]}={RULES[compiled][differ[0]]!r}" in message
        assert message.endswith("give the game it was compiled from (or compile this one)")


def test_another_game_is_refused_and_match_only_parameters_are_not():
    boxes = mdp.compile(mdp.load_game(ROOT / "docs" / "examples" / "two_boxes.py"))
    with pytest.raises(mdp.ParamError, match=r"^mdp\.match: game is shutbox, but the Rounds is of "
                       "game two-boxes; give the game"):
        mdp.match(boxes, mdp.load_game("shutbox"))
    # What a winner is paid changes no state: a model compiled once plays every payout.
    model = mdp.compile(mdp.load_game("shutbox", tiles="1-4"))
    paid = mdp.match(model, mdp.load_game("shutbox", tiles="1-4", shut_pays=2), exact=True)
    assert paid.values == mdp.match(mdp.compile(mdp.load_game("shutbox", tiles="1-4", shut_pays=2)),
                                    mdp.load_game("shutbox", tiles="1-4", shut_pays=2), exact=True).values
