"""Structure once, values many times: one compiled model re-solved with other terminal values."""

from fractions import Fraction

import brute_shutbox
import numpy as np
import polars as pl
import pytest
from models import coin, gamble

import mdp

SHUTBOX = "games/shutbox"


@pytest.mark.slow
def test_one_model_46_terminal_vectors_each_against_the_brute_force():
    # The second player of a match who must beat a first player's score t: win below t, tie
    # (worth 1/2) at t. One vector per possible score 0..45, one model, 46 solves.
    model = mdp.compile(mdp.load_game(SHUTBOX, one_die="never"))
    # The sum of the open tiles, from the game's column, checked against its open tiles.
    scores = model.terminals["open_sum"].to_numpy()
    assert scores.tolist() == [sum(map(int, text.split())) for text in model.terminals["open"]]
    for t in range(46):
        terminal = [Fraction(1) if s < t else Fraction(1, 2) if s == t else Fraction(0) for s in scores]
        payout = {s: Fraction(1) for s in range(t)} | {t: Fraction(1, 2)}
        expected = brute_shutbox.solve(range(1, 10), one_die="never", scoring="payout", payout=payout)
        assert mdp.solve(model, terminal=terminal, exact=True).value == expected, t


def test_terminal_values_from_a_polars_expression():
    model = mdp.compile(mdp.load_game(SHUTBOX))
    shut = model.terminals.select(pl.col("open") == "").to_series()   # booleans count as 0 and 1
    assert mdp.solve(model, terminal=shut, exact=True).value == Fraction(956177159, 9795520512)
    # The least expected score, from the same model: terminal value = the open sum, minimized.
    score = mdp.solve(model, terminal=model.terminals["open_sum"], exact=True, sense="min").value
    assert score == brute_shutbox.solve(range(1, 10), scoring="score")


def test_terminals_frame_follows_the_order_solve_expects():
    model = mdp.compile(mdp.load_game(coin()))
    # tests/models.py: the coin's terminal states are worth 1 (won), 0 (lost) and 1/3 (walked).
    frame = model.terminals
    assert frame.columns == ["state", "value", "value_exact"]
    assert dict(zip(frame["state"], frame["value_exact"])) == {"won": "1", "lost": "0", "walked": "1/3"}
    # Paying 5 for "walked" and nothing else: walking becomes best, worth 5.
    terminal = [5 if state == "walked" else 0 for state in frame["state"]]
    assert mdp.solve(model, terminal=terminal, exact=True).value == 5


@pytest.mark.parametrize(
    ("terminal", "exact", "message"),
    [
        ([1, 0], False, "terminal= has 2 values; the model has 3 terminal states"),
        ([1, float("nan"), 0], False, "terminal= value nan at row 1 is not finite"),
        # A missing value of a Polars Series was said as "value nan" (what to_numpy made of it).
        (pl.Series([1, None, 0]), False, "terminal= value at row 1 is missing (null)"),
        (pl.Series([1.0, 2.0, None]), True, "terminal= value at row 2 is missing (null)"),
        (np.array([1.0, np.inf, 0.0]), False, "terminal= value inf at row 1 is not finite"),
        ([1, "x", 0], False, "terminal= value 'x' at row 1 is not a number"),
        ([1, 0.5, 0], True, "terminal= value 0.5 at row 1 is a float; exact solving needs int or fractions.Fraction values"),
        (np.ones((3, 1)), False, "terminal= must be one-dimensional, not of shape (3, 1)"),
    ],
)
def test_terminal_values_are_checked_where_they_enter(terminal, exact, message):
    model = mdp.compile(mdp.load_game(coin()))
    with pytest.raises(mdp.ParamError) as error:
        mdp.solve(model, terminal=terminal, exact=exact)
    assert str(error.value).startswith(message)


def test_solve_takes_a_compiled_model_not_a_game():
    # The flow runs one way: compiling is the caller's one line, the solve never explores.
    game = mdp.load_game(gamble())
    with pytest.raises(mdp.ParamError, match=r"^mdp.solve: model is a Game; expected a compiled model: "
                       r"mdp.compile\(game\)$"):
        mdp.solve(game)


def test_float_terminal_values_of_the_game_refuse_exact_solving_with_one_error():
    game = mdp.load_game(_FloatEnd())
    with pytest.raises(mdp.ModelError, match=r"game floatend: exact solving needs rational numbers, "
                       r"but the game gave a float: value 0.5 \(state 'end'\)"):
        mdp.solve(mdp.compile(game), exact=True)
    assert mdp.solve(mdp.compile(game)).value == 0.5


class _FloatEnd:
    GAME_NAME = "floatend"

    @mdp.hookimpl
    def mdp_initial_state(self):
        return "start"

    @mdp.hookimpl
    def mdp_actions(self, state):
        return ["go"] if state == "start" else []

    @mdp.hookimpl
    def mdp_outcomes(self):
        return [(1, "end")]

    @mdp.hookimpl
    def mdp_terminal_value(self):
        return 0.5


def test_summary_is_what_solve_json_prints():
    solution = mdp.solve(mdp.compile(mdp.load_game(SHUTBOX, tiles="1-6", dice=1)), exact=True)
    summary = solution.summary()
    assert summary["exact"] == "145/1944"
    assert summary["value"] == 145 / 1944
    assert summary["params"]["tiles"] == "1-6"
    assert summary["states"] == solution.model.n_states


def test_least_expected_score_on_the_quick_start_page():
    # docs/quickstart.rst: always two dice, the open sum minimized, from the compiled model.
    model = mdp.compile(mdp.load_game(SHUTBOX, one_die="never"))
    value = mdp.solve(model, terminal=model.terminals["open_sum"], sense="min", exact=True).value
    assert value == Fraction(27323400707, 2448880128)
    assert value == brute_shutbox.solve(range(1, 10), one_die="never", scoring="score")


@pytest.mark.slow
@pytest.mark.parametrize("scale", [1, 2**40, 2**70])
def test_exact_values_across_the_64_bit_boundary(scale):
    # Exact solving does the layers whose numerators fit in 64 bits in numpy integers and the
    # rest in Python integers. Terminal values times `scale` must give values times `scale`,
    # exactly: with 1 every layer fits (the largest numerator of the standard box is 36**9,
    # about 2**47), with 2**40 the lower layers do and the upper do not, with 2**70 none do.
    model = mdp.compile(mdp.load_game(SHUTBOX))
    shut = (model.terminals["open_sum"] == 0).to_numpy()
    win = Fraction(956177159, 9795520512)   # the shutting chance (brute force: test_shutbox)
    assert mdp.solve(model, terminal=[scale * int(s) for s in shut], exact=True).value == scale * win
    # Negative values too: a loss of `scale` per point left open, the least expected score.
    score = brute_shutbox.solve(range(1, 10), scoring="score")
    penalty = [-scale * int(s) for s in model.terminals["open_sum"].to_numpy()]
    assert mdp.solve(model, terminal=penalty, exact=True).value == -scale * score
    # Many columns at once, mixed in size.
    both = mdp.solve_many(model, [[int(s) for s in shut], penalty], exact=True)
    assert both.value == [win, -scale * score]
    # Action values are made from the same numbers: the initial state's best is its value.
    actions = both.column(1).action_values()
    first = [v for v, state in zip(actions.exact, actions.state) if state == model.initial]
    assert max(first) == -scale * score


@pytest.mark.slow
@pytest.mark.parametrize("threads", ["1", "3"])
@pytest.mark.parametrize("at_a_time", [5, 37])
def test_a_layer_backed_up_a_piece_at_a_time(monkeypatch, at_a_time, threads):
    # A layer's actions, and its chance outcomes, are backed up about a million at a time,
    # the pieces side by side on threads. Pieces smaller than one state's actions or one
    # action's outcomes (the standard box rolls 11 totals), or a few states' worth, on one
    # thread or three, give the same values: exactly the brute force's, and the floats bit
    # for bit.
    import importlib

    model = mdp.compile(mdp.load_game(SHUTBOX))
    whole = mdp.solve(model)
    monkeypatch.setenv("MDP_THREADS", threads)
    monkeypatch.setattr(importlib.import_module("mdp.engine.operations"), "OUTCOMES_AT_A_TIME", at_a_time)
    monkeypatch.setattr(importlib.import_module("mdp.engine.sweep"), "PIECE", at_a_time)
    pieces = mdp.solve(model)
    assert [pieces.value_of_id(i) for i in range(model.n_states)] == \
        [whole.value_of_id(i) for i in range(model.n_states)]
    win = Fraction(956177159, 9795520512)  # the shutting chance (brute force: test_shutbox)
    assert mdp.solve(model, exact=True).value == win
    scores = model.terminals["open_sum"].to_numpy()
    both = mdp.solve_many(model, [[int(s == 0) for s in scores], [-int(s) for s in scores]], exact=True)
    assert both.value == [win, -brute_shutbox.solve(range(1, 10), scoring="score")]
