"""Optimal play of a game of rounds with its ties broken (``--tie-break``): games played at
random follow it as the distribution does, one mechanism (each round state's round solved
with the tie-breaks, :func:`mdp.choices`). Generated: a safe end and a gamble of the same
mean in every round, the tie broken toward the gamble or away from it, whose chances of
each total are worked out here by hand (binomial)."""

import math
from fractions import Fraction
from math import comb
from types import SimpleNamespace

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
import mdp.program.cli


def safe_or_gamble(rounds, safe, swing, win):
    """Each of ``rounds`` rounds: bank ``safe`` points, or gamble, of the same mean: with
    chance ``win``, ``swing * (1 - win)`` more, else ``swing * win`` less (whole points
    with ``win = 1/2`` and an even ``swing``). Terminal column ``risk``: 1 after a gamble."""
    up, down = safe + swing * (1 - win), safe - swing * win

    @mdp.hookimpl
    def mdp_initial_state():
        return "choose"

    @mdp.hookimpl
    def mdp_actions(state):
        return ["bank", "gamble"] if state == "choose" else []

    @mdp.hookimpl
    def mdp_outcomes(state, action):
        if action == "bank":
            return [(1, "banked")]
        return [(win, "won"), (1 - win, "lost")]

    @mdp.hookimpl
    def mdp_terminal_value(state):
        return 0

    @mdp.hookimpl
    def mdp_round_start():
        return 0

    @mdp.hookimpl
    def mdp_round_rule(ends):
        worth = {"banked": safe, "won": up, "lost": down}
        points = np.array([int(worth[end]) for end in ends], dtype=np.int64)

        def rule(states):
            live = np.repeat(states[:, None] < rounds, len(ends), axis=1)
            return mdp.RoundEnds(np.where(live, states[:, None] + 1, -1).astype(np.int64),
                                 np.where(live, points, 0))

        return rule

    @mdp.hookimpl
    def mdp_objective():
        return mdp.Objective("expected points", "max")

    @mdp.hookimpl
    def mdp_state_columns(state):
        return {"risk": int(state in ("won", "lost"))}

    return mdp.load_game(SimpleNamespace(GAME_NAME="gamble", **{
        name: hook for name, hook in locals().items() if name.startswith("mdp_")}))


def by_hand(rounds, safe, swing, win, gamble):
    """The chance of each total: ``rounds * safe`` surely when banking, else the binomial
    number of rounds won."""
    if not gamble:
        return {rounds * safe: Fraction(1)}
    up, down = safe + swing * (1 - win), safe - swing * win
    return {int(k * up + (rounds - k) * down): comb(rounds, k) * win**k * (1 - win)**(rounds - k)
            for k in range(rounds + 1)}


games = st.tuples(st.integers(1, 3), st.integers(-3, 3), st.sampled_from([2, 4, 6]),
                  st.sampled_from(["max:risk", "min:risk", "risk"]))


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, st.booleans())
def test_games_played_at_random_follow_the_tie_break_as_the_distribution(rules, exact):
    rounds, safe, swing, tie_break = rules
    win = Fraction(1, 2)
    game = safe_or_gamble(rounds, safe, swing, win)
    solution = mdp.solve(mdp.compile(game), exact=exact)
    expected = by_hand(rounds, safe, swing, win, gamble=not tie_break.startswith("min"))
    frame = mdp.distribution(solution, game, tie_break=[tie_break])
    assert dict(zip(frame["points"], frame["probability"])) == \
        {t: float(p) for t, p in expected.items()}
    played = mdp.simulate(solution, game, games=4000, seed=7, tie_break=[tie_break])
    seen = dict(zip(played.outcomes["points"], played.outcomes["games"]))
    for total, p in expected.items():
        sd = math.sqrt(p * (1 - p) / 4000)
        assert abs(seen.pop(total, 0) / 4000 - p) <= 5 * sd + 1e-12, total
    assert not seen  # no total that the tie-broken play cannot make


def test_simulate_on_the_command_line_takes_the_tie_break(tmp_path, capsys):
    # Two rounds of a tie in each: both commands take the tie-break, and refuse alike a
    # column that the round's states do not have.
    example = tmp_path / "gamble.py"
    example.write_text(GAME)
    for command in (["distribution"], ["simulate", "--games", "2000", "--seed", "1"]):
        assert mdp.program.cli.main([*command, str(example), "--tie-break", "max:risk",
                                     "--json"]) == 0
        capsys.readouterr()
        assert mdp.program.cli.main([*command, str(example), "--tie-break", "max:nope"]) == 2
        err = capsys.readouterr().err
        assert "tie-break column 'nope'" in err and "Traceback" not in err, err


GAME = """
import numpy as np
import mdp

GAME_NAME = "gamble"

@mdp.hookimpl
def mdp_initial_state():
    return "choose"

@mdp.hookimpl
def mdp_actions(state):
    return ["bank", "gamble"] if state == "choose" else []

@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(1, "banked")] if action == "bank" else [(0.5, "won"), (0.5, "lost")]

@mdp.hookimpl
def mdp_terminal_value(state):
    return 0

@mdp.hookimpl
def mdp_round_start():
    return 0

@mdp.hookimpl
def mdp_round_rule(ends):
    points = np.array([{"banked": 1, "won": 2, "lost": 0}[end] for end in ends])
    def rule(states):
        live = np.repeat(states[:, None] < 2, len(ends), axis=1)
        return mdp.RoundEnds(np.where(live, states[:, None] + 1, -1), np.where(live, points, 0))
    return rule

@mdp.hookimpl
def mdp_state_columns(state):
    return {"risk": int(state in ("won", "lost"))}
"""
