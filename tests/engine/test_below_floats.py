"""An exact number not 0 that a float makes 0, or keeps fewer digits of (below about
2.2e-308, the least normal float), as a probability or a terminal value: a solve in floats is
refused in one line naming it, where it took it as 0 (a chance of 1e-400 shown 0.0000%, every
action optimal); the exact solve answers (round 17, F7 and R17-N1). By hand: flipping wins
with chance p (or is worth v at 1/2), staying loses: the value is p (or v/2)."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import Table

import mdp

TINY = st.builds(lambda top, digits: Fraction(top, 10**digits), st.integers(1, 99),
                 st.integers(310, 500))


def _game(chance: Fraction, prize: Fraction) -> mdp.Game:
    table = {"start": {"flip": [(chance, "won"), (1 - chance, "lost")], "stay": [(1, "lost")]}}
    return mdp.load_game(Table(table, {"won": prize, "lost": 0}, initial="start"))


@settings(max_examples=20, deadline=None)
@given(tiny=TINY, where=st.sampled_from(["probability", "value"]))
def test_a_number_below_floats_is_refused_in_floats_and_solved_exactly(tiny, where):
    chance, prize = (tiny, Fraction(1)) if where == "probability" else (Fraction(1, 2), tiny)
    model = mdp.compile(_game(chance, prize))
    with pytest.raises(mdp.ModelError, match=f"^game .*: the {where} .* is not 0, but below "
                                              r"what a float holds .*solve it exactly \(--exact\)$"):
        mdp.solve(model)
    assert mdp.solve(model, exact=True).value == chance * prize


def test_the_least_normal_float_is_solved_in_floats():
    least = Fraction(2.2250738585072014e-308)  # the least normal float, exactly
    assert mdp.solve(mdp.compile(_game(Fraction(1, 2), least))).value == float(least) / 2


@settings(max_examples=10, deadline=None)
@given(digits=st.integers(310, 450))
def test_round_points_below_floats_are_refused_in_floats_and_solved_exactly(digits):
    """Two boxes (tests/models.py, worth 37/4 by hand) with every point divided by
    10**digits: 37/4 / 10**digits exactly; in floats it solved to 0 (round 17, F7)."""
    import numpy as np
    from models import TWO_BOXES, two_boxes, two_boxes_ends

    @mdp.hookimpl
    def mdp_round_rule(ends):
        def rule(states):
            found = two_boxes_ends(ends, states)
            tiny = np.array([[Fraction(int(p), 10**digits) for p in row]
                             for row in np.asarray(found.points)], dtype=object)
            return mdp.RoundEnds(found.next, tiny)
        return rule

    model = mdp.compile(two_boxes(mdp_round_rule=mdp_round_rule))
    with pytest.raises(mdp.ModelError, match=r"^game two-boxes: mdp_round_rule gave points .* "
                                              r"below what a float holds .*\(--exact\)$"):
        mdp.solve(model)
    assert mdp.solve(model, exact=True).value == TWO_BOXES / 10**digits


class _Chance(Table):
    @mdp.hookimpl
    def mdp_objective(self):
        return mdp.Objective("chance of winning", probability=True)


@settings(max_examples=10, deadline=None)
@given(top=st.integers(1, 99), digits=st.integers(310, 500))
def test_an_exact_value_below_floats_is_shown_by_its_size_never_as_0(top, digits):
    """Solved exactly, a chance below floats: the value line says ``< 0.0001%`` and its size
    (three digits), where the float beside it said ``(0)``; the
    JSON's float ``value`` is ``null`` beside ``exact`` (round 17, F8)."""
    from mdp.outputs.readable import value_line

    tiny = Fraction(top, 10**digits)
    model = mdp.compile(mdp.load_game(_Chance(
        {"start": {"flip": [(tiny, "won"), (1 - tiny, "lost")]}}, {"won": 1, "lost": 0})))
    solution = mdp.solve(model, exact=True)
    places = len(str(top)) - 1  # top / 10**digits to three digits, by hand: 70 -> 7e-309
    size = f"{top / 10**places:g}e-{digits - places}"
    assert value_line(solution) == ("chance of winning: < 0.0001% (a fraction of "
                                    f"{len(str(tiny.numerator))} over {len(str(tiny.denominator))} digits, about {size})")
    summary = solution.summary()
    assert summary["value"] is None and summary["exact"] == f"{tiny.numerator}/{tiny.denominator}"


@settings(max_examples=8, deadline=None)
@given(tiny=TINY, exact=st.booleans())
def test_a_match_payoff_below_floats_is_refused(tiny, exact):
    """A match's winnings below what a float holds (round 18, P22: +0 for both players in
    floats, -0 exactly): refused in one line naming mdp_match_rules, as past 1.8e308. A die of
    three faces thrown once, the higher face winning ``tiny``."""
    from types import SimpleNamespace

    import numpy as np

    def payoff(results):
        won = np.sign(results[:, 1] - results[:, 0]).tolist()
        return np.array([[-w * tiny, w * tiny] for w in won], dtype=object)

    hooks = dict(
        mdp_initial_state=mdp.hookimpl(lambda: ("start", 0)),
        mdp_actions=mdp.hookimpl(lambda state: ["roll"] if state[0] == "start" else []),
        mdp_outcomes=mdp.hookimpl(lambda state, action: [(Fraction(1, 3), ("end", f)) for f in (1, 2, 3)]),
        mdp_terminal_value=mdp.hookimpl(lambda state: state[1]),
        mdp_state_columns=mdp.hookimpl(lambda state: {"kind": state[0], "face": state[1]}),
        mdp_match_rules=mdp.hookimpl(lambda: mdp.MatchRules("face", payoff)))
    game = mdp.load_game(SimpleNamespace(GAME_NAME="die", **hooks))
    with pytest.raises(mdp.ModelError, match=r"^game die: the payoff of mdp_match_rules gave "
                       r".*not 0 but below what a float holds"):
        mdp.match(mdp.compile(game), game, exact=exact)
