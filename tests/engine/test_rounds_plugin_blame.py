"""A rule plugin that wraps a game of rounds' mdp_round_rule and makes its answer wrong is
named, by every command (the one place: mdp.game.plugins.layers, each implementation asked
with those before it alone, as for Shut the Box's hooks): before, a wrapper that raised, or
gave float or fractional points, was blamed on the game. The game's own rule, with a plugin
that leaves it as it is, is not blamed on the plugin. The game is docs/examples/two_boxes.py,
round states 0 | 1, 2 | 3."""

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
import mdp.analysis.targets

GAME = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "two_boxes.py")

WRAPPER = '''
from fractions import Fraction

import numpy as np

import mdp


@mdp.hookimpl(wrapper=True)
def mdp_round_rule(ends):
    inner = yield

    def rule(states):
        given = inner(states)
        following, points = np.array(given.next), np.array(given.points)
        if (states == {key}).any():
            {change}
        return mdp.RoundEnds(following, points)
    return rule
'''

# What the wrapper does to a batch with the round state in it, and what is then said (a
# pattern), by every command but those that take it: float points solved in floats for the
# mean, fractions solved for the mean.
RAISES = "raise KeyError('bonus table')"
MISTAKES = {
    RAISES: r"mdp_round_rule's function raised KeyError: 'bonus table'",
    "following = following[:, :-1]": r"mdp_round_rule gave next of shape",
    "points = np.full(points.shape, np.nan)": r"mdp_round_rule gave points nan from round state",
    "points = points * 2.5": r"mdp_round_rule gave (float points|points 2\.5 from round state \d; "
                             r".* is for whole points)",
    "points = points * Fraction(5, 2)": r"mdp_round_rule gave points 5/2 from round state \d; .* is "
                                        r"for whole points",
}


def _commands(game, exact):
    """Each command's work on the game, from its own compile."""
    yield "solve", lambda: mdp.solve(mdp.compile(game), exact=exact)
    yield "match", lambda: mdp.match(mdp.compile(game), game, exact=exact)
    yield "targets", lambda: mdp.analysis.targets.targets(mdp.compile(game), game, exact=exact)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(sorted(MISTAKES)), st.sampled_from([0, 1, 2]), st.booleans())
def test_a_wrapper_that_makes_the_rule_wrong_is_named_by_every_command(tmp_path, change, key, exact):
    if "2.5" in change or "5, 2" in change:
        key = "states"  # every round state alike: the rule stays a function of each
    path = tmp_path / "wrapper.py"
    path.write_text(WRAPPER.replace("{key}", str(key)).replace("{change}", change))
    game = mdp.load_game(GAME, plugins=[str(path)])
    for name, command in _commands(game, exact):
        try:
            command()
        except mdp.ModelError as error:
            assert str(error).startswith(f"game two-boxes: plugin {path}'s mdp_round_rule") or \
                f"but plugin {path}'s mdp_round_rule" in str(error), error
            assert re.search(MISTAKES[change], str(error)), error
        else:
            assert name == "solve" and ("2.5" in change and not exact or "5, 2" in change)


def test_a_wrapper_that_leaves_the_rule_as_it_is_is_not_blamed_for_the_game_s_mistake(tmp_path):
    path = tmp_path / "wrapper.py"
    path.write_text(WRAPPER.replace("{key}", "0").replace("{change}", "pass"))
    game = mdp.load_game(GAME, plugins=[str(path)])
    assert mdp.solve(mdp.compile(game), exact=True).value == mdp.solve(
        mdp.compile(mdp.load_game(GAME)), exact=True).value
    own = tmp_path / "own.py"  # the game's own rule raising, wrapped by a plugin that does not
    own.write_text(Path(GAME).read_text().replace("def mdp_round_rule(ends):", "def mdp_round_rule(ends):\n"
                                                  "    raise_for = 1", 1))
    source = own.read_text()
    assert "return mdp.RoundEnds(" in source
    own.write_text(source.replace("return mdp.RoundEnds(", "if (states == raise_for).any():\n"
                                  "            raise KeyError('own')\n        return mdp.RoundEnds(", 1))
    with pytest.raises(mdp.ModelError, match=r"^game two-boxes: mdp_round_rule's function raised "
                       r"KeyError: 'own'"):
        mdp.solve(mdp.compile(mdp.load_game(str(own), plugins=[str(path)])))
