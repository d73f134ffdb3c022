"""Games of rounds where a chance action reaches an end directly (a throw that busts) while
another end, a choice, is not allowed in some round states: an end not allowed is worth
-inf in floats, and every analysis over the rounds (the value, the chance of each total,
the best chance of at least a total, games played at random, the strategies in floats and
exact, the match, the report) answers, with no numpy warning, the value of an independent
brute force written here. Generated: faces, throws again, rounds, points, and the round
states where passing is not allowed."""

import math
import warnings
from fractions import Fraction
from functools import cache
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
import mdp.program.cli

NOT_ALLOWED = float("-inf")


def push_your_luck(faces, again, rounds, bust, passed, barred, named=None):
    """Each round, throw a die of ``faces`` faces, up to ``again`` times more: a 1 busts (an
    end reached by chance, worth ``bust``), another face adds to the total held, which the
    player banks (worth it) or passes (worth ``passed``), or throws again. Round state
    ``2 * r + b``: round ``r``, ``b`` whether the last round bust; passing is not allowed in
    the round states of ``barred``; round state ``2 * rounds`` (or one past) ends the game.
    ``named`` (round states -> columns), if given, is the game's mdp_round_columns."""

    @mdp.hookimpl
    def mdp_initial_state():
        return ("throw", again)

    @mdp.hookimpl
    def mdp_actions(state):
        if state[0] == "throw":
            return ["throw"]
        if state[0] == "hold":
            return ["bank", "pass"] + (["throw"] if state[2] else [])
        return []

    @mdp.hookimpl
    def mdp_outcomes(state, action):
        if action == "throw":
            held, left = (0, again) if state[0] == "throw" else (state[1], state[2] - 1)
            return [(Fraction(1, faces), ("bust",) if f == 1 else ("hold", held + f, left))
                    for f in range(1, faces + 1)]
        return [(1, ("bank", state[1]) if action == "bank" else ("pass",))]

    @mdp.hookimpl
    def mdp_terminal_value(state):
        return 0

    @mdp.hookimpl
    def mdp_round_start():
        return 0

    @mdp.hookimpl
    def mdp_round_rule(ends):
        ends = list(ends)

        def rule(states):
            following = np.full((len(states), len(ends)), -1, dtype=np.int64)
            points = np.zeros((len(states), len(ends)), dtype=np.int64)
            for i, k in enumerate(states.tolist()):
                for j, end in enumerate(ends):
                    if k // 2 < rounds and not (end[0] == "pass" and k in barred):
                        following[i, j] = 2 * (k // 2 + 1) + (end[0] == "bust")
                        points[i, j] = worth(end)
            return mdp.RoundEnds(following, points)

        return rule

    @mdp.hookimpl
    def mdp_objective():
        return mdp.Objective("expected points", "max")

    if named is not None:
        mdp_round_columns = mdp.hookimpl(lambda states: named(states))  # noqa: F841 (a hook)

    def worth(end):
        return {"bust": bust, "pass": passed}.get(end[0]) or (end[1] if end[0] == "bank" else 0)

    return mdp.load_game(SimpleNamespace(GAME_NAME="luck", **{
        name: hook for name, hook in locals().items() if name.startswith("mdp_")}))


def brute_force(faces, again, rounds, bust, passed, barred):
    """The best mean total, and the best chance of at least each total, by recursion over
    the round states and the throws, in fractions."""
    third = Fraction(1, faces)

    def round_value(k, later):
        """The best worth of round state ``k``'s round, an end worth its points and
        ``later(next round state, points)``; None for no end allowed (never here)."""
        def end(kind, points):
            if kind == "pass" and k in barred:
                return None
            return later(2 * (k // 2 + 1) + (kind == "bust"), points)

        def throw(held, left):
            return sum(third * (end("bust", bust) if f == 1 else hold(held + f, left))
                       for f in range(1, faces + 1))

        def hold(held, left):
            options = [end("bank", held), end("pass", passed)]
            if left:
                options.append(throw(held, left - 1))
            return max(o for o in options if o is not None)

        return throw(0, again)

    @cache
    def mean(k):
        return 0 if k // 2 >= rounds else round_value(k, lambda n, p: p + mean(n))

    @cache
    def at_least(k, total):
        if k // 2 >= rounds:
            return Fraction(int(total <= 0))
        return round_value(k, lambda n, p: at_least(n, total - p))

    return mean(0), at_least


games = st.tuples(
    st.integers(2, 4), st.integers(0, 2), st.integers(1, 3), st.integers(-2, 0),
    st.integers(-1, 2), st.sets(st.integers(0, 5)))

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow
@SETTINGS
@given(games)
def test_every_analysis_answers_the_brute_force_without_a_warning(rules):
    best, at_least = brute_force(*rules)
    game = push_your_luck(*rules)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # as the command line: a warning is an error
        model = mdp.compile(game)
        exact, floats = mdp.solve(model, exact=True), mdp.solve(model)
        assert exact.value == best
        assert floats.value == pytest.approx(float(best), rel=1e-12, abs=1e-12)
        for solution in (exact, floats):
            frame = mdp.distribution(solution, game)
            assert math.fsum(frame["probability"]) == pytest.approx(1, rel=1e-12)
            assert math.fsum(frame["points"] * frame["probability"]) == pytest.approx(
                float(best), rel=1e-12, abs=1e-12)
        shown = mdp.distribution(exact, game)
        assert sum(Fraction(p) * t for t, p in zip(shown["points"], shown["exact"])) == best
        reach, reach_floats = mdp.at_least(model, exact=True), mdp.at_least(model)
        for total in range(-2 * 3 - 1, 12 * 3 + 2):
            assert reach.chance(total) == at_least(0, total), total
            assert reach_floats.chance(total) == pytest.approx(float(at_least(0, total)),
                                                               rel=1e-12, abs=1e-12)
        played = mdp.simulate(floats, game, games=200, seed=1)
        assert set(played.outcomes["points"].to_list()) <= set(shown["points"].to_list())
        for exactly in (True, False):
            table = mdp.strategy_values(model, game, exact=exactly)
            assert table.filter(table["strategy"] == "optimal")["value"].item() == \
                pytest.approx(float(best), rel=1e-12, abs=1e-12)
        duel, duel_floats = mdp.match(model, game, exact=True), mdp.match(model, game)
        assert sum(duel.wins) == 1
        assert duel_floats.values == pytest.approx([float(v) for v in duel.values], abs=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("argv", [
    ["solve"], ["solve", "--exact"], ["distribution"], ["distribution", "--exact"],
    ["targets"], ["solve", "--at-least", "3"], ["simulate", "--games", "100"],
    ["strategies"], ["strategies", "--exact"], ["match"], ["report", "--out", "luck.html"],
    ["policy"], ["advise", "round_state=0", "state=heads"],
])
def test_every_command_answers_such_a_game(argv, tmp_path, monkeypatch, capsys):
    # The game of the first finding: two rounds of a coin, passing not allowed in the second.
    game = tmp_path / "mini.py"
    game.write_text(MINI)
    monkeypatch.chdir(tmp_path)
    assert mdp.program.cli.main([argv[0], str(game), *argv[1:]]) == 0, capsys.readouterr().err
    assert "warning" not in capsys.readouterr().err.lower()


MINI = '''
from fractions import Fraction
import numpy as np
import mdp

GAME_NAME = "mini"

@mdp.hookimpl
def mdp_initial_state():
    return "start"

@mdp.hookimpl
def mdp_actions(state):
    return {"start": ["throw"], "heads": ["bank", "pass"]}.get(state, [])

@mdp.hookimpl
def mdp_outcomes(state, action):
    if action == "throw":
        return [(Fraction(1, 2), "end-tails"), (Fraction(1, 2), "heads")]
    return [(1, "end-" + action)]

@mdp.hookimpl
def mdp_terminal_value(state):
    return 0

@mdp.hookimpl
def mdp_round_start():
    return 0

@mdp.hookimpl
def mdp_round_rule(ends):
    ends = list(ends)
    def rule(states):
        following = np.full((len(states), len(ends)), -1, dtype=np.int64)
        points = np.zeros((len(states), len(ends)), dtype=np.int64)
        for i, k in enumerate(states.tolist()):
            for j, end in enumerate(ends):
                if k < 2 and not (end == "end-pass" and k == 1):
                    following[i, j] = k + 1
                    points[i, j] = end == "end-bank"
        return mdp.RoundEnds(following, points)
    return rule

@mdp.hookimpl
def mdp_objective():
    return mdp.Objective("expected points", "max")
'''
