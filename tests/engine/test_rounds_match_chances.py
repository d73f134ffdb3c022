"""The chances of winning a match of a game of rounds (mdp/analysis/targets.py rounds_match):
the payoffs of winning and of a tie evaluated backward under each player's play
(mdp/engine/rounds/under.py evaluate_under), against a brute force written here, a plain
recursion over the dice of small cards in exact rationals that plays, at every choice, the
first of the best options in the game's order ("again" first, then the open boxes in
order), and carries what that play is worth to each payoff beside its value; and a game of
more round states than a forward following of the play would take, by hand."""

import math
from fractions import Fraction
from functools import cache

import pytest
import test_rounds_properties
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_rounds_properties import card_game

import mdp
from mdp.analysis.targets import rounds_match
from mdp.engine.rounds.payoff import AT_LEAST, Payoff, beating
from mdp.engine.rounds.reach import solve_reach
from mdp.engine.rounds.under import evaluate_under


def brute_played(points, faces, throws, end, over=()):
    """``(value, *companions)`` at the start: ``end(total)`` gives a tuple, its first the
    payoff played for (best, the first best option at a tie), the rest evaluated under that
    play; the game ends early with the boxes of ``over`` filled."""
    boxes = len(points)
    full = (1 << boxes) - 1

    @cache
    def best(filled, earned):
        if filled == full or filled in over:
            return tuple(Fraction(v) for v in end(earned))

        @cache
        def at(face, left):  # a face thrown, ``left`` throws left
            options = [thrown(left - 1)] if left else []
            options += [best(filled | 1 << b, earned + points[b][face - 1])
                        for b in range(boxes) if not filled >> b & 1]
            top = max(option[0] for option in options)
            return next(option for option in options if option[0] == top)

        def thrown(left):
            each = [at(f, left) for f in range(1, faces + 1)]
            return tuple(sum(Fraction(1, faces) * e[i] for e in each) for i in range(len(each[0])))

        return thrown(throws - 1)

    return best(0, 0)


def brute_chances(points, faces, throws, sense="max", over=()):
    """The first player's winnings and the chance that the first wins, that the second
    does, and of a tie: the second playing for money against each total of the first's, the
    first for minus the second's winnings, each as :func:`brute_played` plays."""
    sign = 1 if sense == "max" else -1

    @cache
    def second(total):  # (winnings, the chance of winning, of a tie)
        def end(mine):
            won = sign * ((mine > total) - (mine < total))
            return won, int(won == 1), int(won == 0)

        return brute_played(points, faces, throws, end, over)

    def first_end(total):
        value, wins, ties = second(total)
        return -value, 1 - wins - ties, ties

    value, first_wins, tie = brute_played(points, faces, throws, first_end, over)
    return value, (first_wins, 1 - first_wins - tie, tie)


cards = st.integers(1, 3).flatmap(lambda n: st.integers(2, 3).flatmap(lambda faces: st.tuples(
    st.lists(st.lists(st.integers(-4, 9), min_size=faces, max_size=faces), min_size=n, max_size=n),
    st.just(faces), st.integers(1, 2))))


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cards, st.sampled_from(["max", "min"]), st.sets(st.integers(1, 6), max_size=2))
def test_the_chances_of_winning_against_a_brute_force(card, sense, over):
    points, faces, throws = card
    over = {o for o in over if o < (1 << len(points)) - 1}
    game = card_game(points, faces, throws, over=over)
    if sense == "min":
        @mdp.hookimpl
        def mdp_objective():
            return mdp.Objective("expected total", "min")

        game.plugins.register(type("Least", (), {"mdp_objective": staticmethod(mdp_objective)}))
    model = mdp.compile(game).of_rounds("a match")
    value, wins = brute_chances(points, faces, throws, sense, over)
    assert rounds_match(model, exact=True) == (value, wins)
    floats, chances = rounds_match(model)
    assert floats == pytest.approx(float(value), abs=1e-12)
    assert chances == pytest.approx([float(w) for w in wins], abs=1e-12)


@pytest.mark.slow
def test_payoffs_under_the_play_of_the_chance_of_a_total_against_a_brute_force():
    # The main payoff itself, evaluated under its own play, is its own value (exactly; in
    # floats, summed in another order); and any step payoff of the same steps, under the
    # play best for another, is what the brute force's play gives it.
    points, faces, throws = [[1, 4, 0], [3, 0, 2], [2, 2, 5]], 3, 2
    model = mdp.compile(card_game(points, faces, throws)).of_rounds("a total")
    for exact in (True, False):
        main = solve_reach(model, exact=exact, payoff=Payoff(0, (1, 0)))
        under = evaluate_under(main, [Payoff(0, (1, 0))])
        expected = [main.chance(t) for t in range(-2, 14)]
        assert [under[0].chance(t) for t in range(-2, 14)] == \
            (expected if exact else pytest.approx(expected, abs=1e-15))
    step = Payoff(-4, (0, 1, 0, 2, 3))  # worth by the points still needed at the end
    main = solve_reach(model, exact=True, payoff=Payoff(-4, (5, 4, 3, 2, 1)))
    (other,) = evaluate_under(main, [step])
    for total in range(0, 16):
        def end(mine, total=total):
            left = min(max(total - mine, -4), 0)  # points still needed, past the steps held
            return 1 - left, {-4: 0, -3: 1, -2: 0, -1: 2, 0: 3}[left]

        assert other.chance(total) == brute_played(points, faces, throws, end)[1], total


def test_a_payoff_of_other_steps_is_refused():
    model = mdp.compile(card_game([[1, 2]], 2, 1)).of_rounds("a total")
    main = solve_reach(model, payoff=beating("max"))
    with pytest.raises(mdp.ParamError, match="has its steps: from -1 to 1 points still needed, "
                       "not 0 to 1"):
        evaluate_under(main, [AT_LEAST])
    with pytest.raises(mdp.ParamError, match="solve it without start_only"):
        evaluate_under(solve_reach(model, start_only=True), [AT_LEAST])


@pytest.mark.slow
def test_a_game_of_more_round_states_than_a_following_takes(monkeypatch):
    # Thirteen boxes (8,192 round states, past the 5,000 a forward following took), each
    # scoring 1 for the second face of a two-faced die thrown once: no choice changes the
    # total, a sum of 13 fair coins for each player. A tie is C(26, 13) / 4**13
    # (Vandermonde: sum over k of C(13, k)**2), and each wins half of the rest.
    monkeypatch.setattr(test_rounds_properties, "BOX_NAMES", "ABCDEFGHIJKLM")
    game = card_game([[0, 1]] * 13, 2, 1)
    model = mdp.compile(game)
    assert model.n_round_states == 8192
    result = mdp.match(model, game)
    tie = math.comb(26, 13) / 4 ** 13
    assert result.wins == pytest.approx(((1 - tie) / 2, (1 - tie) / 2, tie), abs=1e-12)
    assert result.values == (0.0, 0.0)
