"""Faults of games of rounds fixed at their root: what the round rule gives is checked where
it enters (only -1 marks an end not allowed), points of any size or type the docs allow
are carried exactly, an end not allowed is never shown, endless round states are refused,
and a game of rounds has a policy table. The values are worked out by hand (two boxes:
tests/test_rounds.py, docs/examples/two_boxes.py) or counted here."""

import re
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import TWO_BOXES, two_boxes, two_boxes_ends

import mdp
import mdp.engine.rounds.model
import mdp.program.cli
from mdp.engine.numeric import quoted
from mdp.engine.rounds.model import _Seen

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "docs" / "examples" / "two_boxes.py")


def rule_of(answer):
    """A round rule hook from ``answer(states, ends)``."""
    hook = mdp.hookimpl(lambda ends: lambda states: answer(states, ends))
    hook.__name__ = "mdp_round_rule"
    return hook


def boxes_rule(points_of, boxes="AB"):
    """The rule of two boxes with the points ``points_of(box, face)`` (any number type)."""
    def answer(states, ends):
        box = np.array([boxes.index(end[1]) for end in ends])
        filled = states[:, None]
        open_ = (filled >> box) & 1 == 0
        points = np.empty((len(states), len(ends)), dtype=object)
        points[:] = [points_of(end[1], end[2]) for end in ends]
        return mdp.RoundEnds(np.where(open_, filled | (1 << box), -1), points)
    return rule_of(answer)


def test_both_kinds_of_solution_answer_the_one_protocol():
    game = mdp.load_game(EXAMPLE)
    rounds = mdp.solve(mdp.compile(game))
    one = mdp.solve(mdp.compile(mdp.load_game(str(ROOT / "docs" / "examples" / "reroll.py"))))
    assert isinstance(rounds, mdp.Solved) and isinstance(one, mdp.Solved)
    assert one.at() is one and one.single("x") is one
    assert rounds.at().value == pytest.approx(rounds.value, rel=1e-15)
    assert rounds.value == pytest.approx(571 / 48, rel=1e-15)
    with pytest.raises(mdp.ParamError, match="game two-boxes is played in rounds, and x reads"):
        rounds.single("x")


def test_advice_under_exact_never_lists_an_end_the_round_state_does_not_allow(capsys):
    # FACE filled: with one throw left and a 4, EVEN scores 8 and a throw again is worth
    # E[2f, f even] = 4; FACE is not allowed, and is not listed (it was, at -1, on main).
    game = mdp.load_game(EXAMPLE)
    for exact in (True, False):
        advice = mdp.advise(mdp.solve(mdp.compile(game), exact=exact), game, filled="FACE",
                            throws_left=1, face=4)
        assert advice.actions.select("action", "value").rows() == [("EVEN", 8.0), ("again", 4.0)]
    assert mdp.program.cli.main(["advise", EXAMPLE, "filled=FACE", "throws_left=1", "face=4",
                                 "--exact"]) == 0
    assert "FACE" not in capsys.readouterr().out.split("state:")[1].split("\n", 1)[1]


@pytest.mark.slow
def test_fraction_points_are_carried_exactly_by_distribution_simulate_and_report(tmp_path):
    # Every point halved: the value and every total are half those of two boxes.
    game = two_boxes(mdp_round_rule=boxes_rule(
        lambda box, face: Fraction(face if box == "A" else 2 * face * (face % 2 == 0), 2)))
    solution = mdp.solve(mdp.compile(game), exact=True)
    assert solution.value == TWO_BOXES / 2
    frame = mdp.distribution(solution, game)
    chances = {Fraction(t): Fraction(p) for t, p in zip(frame["points"], frame["exact"])}
    assert sum(chances.values()) == 1 and sum(t * p for t, p in chances.items()) == TWO_BOXES / 2
    played = mdp.simulate(solution, game, games=2000, seed=1)
    assert played.low <= float(TWO_BOXES / 2) <= played.high
    assert "<html" in mdp.report(mdp.solve(mdp.compile(game)), game)


@settings(max_examples=20, deadline=None)
@given(st.sets(st.sampled_from([0, 1, 2, 3]), min_size=1), st.booleans())
def test_a_round_rule_that_raises_names_the_round_states_it_was_asked_about(bad, exact):
    # Before: "game two-boxes: mdp_round_rule's function raised ValueError: no rule", no
    # round state named. The rule raises on a batch holding one of ``bad``; the line names
    # that batch's round states (the first three of it), whichever batch it was.
    batches = []

    def answer(states, ends):
        batches.append(states.tolist())
        if bad & set(states.tolist()):
            raise ValueError("no rule")
        return two_boxes_ends(ends, states)

    with pytest.raises(mdp.ModelError) as error:
        mdp.solve(mdp.compile(two_boxes(mdp_round_rule=rule_of(answer))), exact=exact)
    asked = batches[-1]
    assert bad & set(asked)
    more = f" and {len(asked) - 3} more" if len(asked) > 3 else ""
    named = f"round state{'s' * (len(asked) > 1)} {', '.join(map(str, asked[:3]))}{more}"
    assert str(error.value) == ("game two-boxes: mdp_round_rule's function raised ValueError: "
                                f"no rule (asked about {named})")


@settings(max_examples=20, deadline=None)
@given(st.sets(st.sampled_from([0, 1, 2])))
def test_float_points_under_exact_are_blamed_on_a_round_state_where_they_count(over):
    # Before: blamed on round state 3, where both boxes are filled and every end is -1 (its
    # points never used). Points all floats; the round states of ``over`` end the game too.
    # Found with the round states, from the start: 0, then 1 and 2, then 3; the first of
    # them with an end allowed is named (none: the game is over at once, worth 0).
    def answer(states, ends):
        ends = two_boxes_ends(ends, states)
        gone = np.isin(states, list(over))[:, None]
        return mdp.RoundEnds(np.where(gone, -1, ends.next),
                             np.asarray(ends.points, dtype=np.float64))

    model = mdp.compile(two_boxes(mdp_round_rule=rule_of(answer)))
    if 0 in over:
        assert mdp.solve(model, exact=True).value == 0
        return
    with pytest.raises(mdp.ModelError) as error:
        mdp.solve(model, exact=True)
    assert str(error.value) == ("game two-boxes: exact solving needs rational numbers, but "
                                "mdp_round_rule gave float points (round state 0)")


@pytest.mark.parametrize("bad", [-2, -7])
def test_a_next_round_state_below_minus_one_is_refused_naming_the_hook_state_and_end(bad):
    def answer(states, ends):
        box = np.array([0 if end[1] == "A" else 1 for end in ends])
        filled = states[:, None]
        following = np.where((filled >> box) & 1 == 0, filled | (1 << box), bad)
        return mdp.RoundEnds(following, np.ones(following.shape, dtype=np.int64))

    with pytest.raises(mdp.ModelError, match=rf"game two-boxes: mdp_round_rule gave next {bad} "
                       r"from round state 1 at the end \('end', 'A', 1\): a round state is a key "
                       "of at least 0, and -1 .only. says the end is not allowed"):
        mdp.compile(two_boxes(mdp_round_rule=rule_of(answer)))


SUBCLASSES = {"matrix": np.asmatrix, "masked": lambda a: np.ma.masked_array(a, mask=a < 0),
              "masked none": np.ma.masked_array, "record": lambda a: a.view(np.recarray)}


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # np.matrix: made on purpose
@pytest.mark.parametrize("kind", sorted(SUBCLASSES))
@pytest.mark.parametrize("field", ["next", "points"])
def test_an_array_of_a_subclass_of_numpys_is_read_as_a_plain_one_or_refused(kind, field):
    # A matrix (rows of two dimensions) or a masked array as next or points was a traceback
    # deep in the sweep (IndexError, MaskError, a broadcast); a masked array's hidden numbers
    # would be used unseen, so it is refused, naming the hook; the others read as plain ones.
    def answer(states, ends):
        plain = two_boxes_ends(ends, states)
        arrays = {"next": plain.next, "points": np.asarray(plain.points)}
        arrays[field] = SUBCLASSES[kind](np.array(arrays[field]))
        return mdp.RoundEnds(arrays["next"], arrays["points"])

    game = two_boxes(mdp_round_rule=rule_of(answer))
    if kind.startswith("masked"):
        with pytest.raises(mdp.ModelError, match=r"^game two-boxes: mdp_round_rule gave next or "
                           r"points that are no array of numbers: a masked array"):
            mdp.compile(game)
        return
    assert mdp.solve(mdp.compile(game), exact=True).value == TWO_BOXES


def test_points_past_64_bits_give_the_right_value_and_totals_never_wrap():
    big = 2**62  # every end earns 2**62 (main gave a total of -2**63)
    game = two_boxes(mdp_round_rule=boxes_rule(lambda box, face: big))
    exact = mdp.solve(mdp.compile(game), exact=True)
    assert exact.value == 2 * big
    assert mdp.solve(mdp.compile(game)).value == pytest.approx(float(2 * big), rel=1e-15)
    frame = mdp.distribution(exact, game)
    assert frame["points"].to_list() == [float(2 * big)] and frame["exact"].to_list() == ["1/1"]
    floats = mdp.distribution(mdp.solve(mdp.compile(game)), game)
    assert floats["points"].to_list() == [float(2 * big)]
    huger = 2**70 + 1  # no float holds a total of twice it: the total itself beside
    game = two_boxes(mdp_round_rule=boxes_rule(lambda box, face: huger))
    exact = mdp.solve(mdp.compile(game), exact=True)
    assert exact.value == 2 * huger
    frame = mdp.distribution(exact, game)
    assert frame["points_exact"].to_list() == [str(2 * huger)] and frame["exact"].to_list() == ["1/1"]


@pytest.mark.slow
def test_round_states_that_never_stop_coming_are_refused_in_seconds(capsys, tmp_path, monkeypatch):
    path = tmp_path / "endless_rounds.py"
    path.write_text(EXAMPLE_ENDLESS, encoding="utf-8")
    began = time.perf_counter()
    with pytest.raises(mdp.TooLarge, match="round states still come after 10,000 rounds"):
        mdp.compile(mdp.load_game(str(path)))
    assert mdp.program.cli.main(["solve", str(path)]) == 3
    assert time.perf_counter() - began < 30
    err = capsys.readouterr().err
    assert "round states still come" in err and "Traceback" not in err
    doubling = two_boxes(mdp_round_rule=rule_of(lambda states, ends: mdp.RoundEnds(
        states[:, None] * len(ends) + np.arange(1, len(ends) + 1), np.zeros((len(states), len(ends)), int))))
    with pytest.raises(mdp.TooLarge, match="more than 1,000 round states after 3 rounds"):
        mdp.compile(doubling, max_states=1000)
    monkeypatch.setattr(mdp.engine.rounds.model, "BYTES_PER_ROUND_STATE", 1 << 20)
    with pytest.raises(mdp.TooLarge, match="157 round states after 2 rounds would take more "
                       "than the budget of"):
        mdp.compile(doubling, max_memory=100 << 20)


@pytest.mark.parametrize("rounds", [1, 49, 50, 51, 52])
def test_a_game_of_as_many_rounds_as_the_most_is_solved(monkeypatch, rounds):
    """A game of exactly MAX_ROUNDS rounds was refused as going on past them: the round
    states its last round ends in (which end the game) were counted as a round to play."""
    monkeypatch.setattr(mdp.engine.rounds.model, "MAX_ROUNDS", 50)
    counting = two_boxes(mdp_round_rule=rule_of(lambda states, ends: mdp.RoundEnds(
        np.where(states[:, None] >= rounds, -1, states[:, None] + 1) * np.ones(len(ends), int),
        np.ones((len(states), len(ends)), int))))
    if rounds > 50:
        with pytest.raises(mdp.TooLarge, match="round states still come after 50 rounds"):
            mdp.compile(counting)
        return
    model = mdp.compile(counting)
    assert model.n_rounds == rounds and mdp.solve(model, exact=True).value == rounds


EXAMPLE_ENDLESS = '''
import numpy as np
import mdp

@mdp.hookimpl
def mdp_initial_state():
    return "throw"

@mdp.hookimpl
def mdp_actions(state):
    return ["throw"] if state == "throw" else []

@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(1, "end")]

@mdp.hookimpl
def mdp_terminal_value(state):
    return 1

@mdp.hookimpl
def mdp_round_start():
    return 0

@mdp.hookimpl
def mdp_round_rule(ends):
    return lambda states: mdp.RoundEnds(states[:, None] + 1, np.ones((len(states), 1), int))
'''


def test_a_large_round_state_seen_in_two_rounds_is_found():
    seen = _Seen()
    keys = np.arange(1 << 30, (1 << 30) + 10, dtype=np.int64)
    assert seen.repeated(keys) is None and seen.repeated(keys[3:5] + 100) is None
    assert seen.repeated(np.array([5, 6]), last=True) is None
    assert seen.repeated(np.array([6])) == (6, True)  # small: at once
    assert seen.repeated(keys[[4]], last=True) == (int(keys[4]), False)  # large: when sorted


def test_the_policy_table_of_a_game_of_rounds_gives_every_round_state_and_its_round(tmp_path):
    game = mdp.load_game(EXAMPLE)
    solution = mdp.solve(mdp.compile(game), exact=True)
    values = mdp.policy(solution, game)
    # By hand (docs/writing-a-game.rst): 571/48 from the start, 6 with EVEN left, 17/4 with
    # FACE left, 0 with both filled.
    assert values.select("filled", "round", "value_exact").rows() == [
        ("", 1, "571/48"), ("FACE", 2, "6"), ("EVEN", 2, "17/4"), ("FACE EVEN", None, "0")]
    within = mdp.policy(solution, game, within={"filled": "FACE"})
    assert set(within["filled"]) == {"FACE"} and "FACE" not in set(within["action"])
    assert within.filter(pl.col("throws_left") == 1, pl.col("face") == 4).select(
        "action", "value").sort("action").rows() == [("EVEN", 8.0), ("again", 4.0)]
    every = mdp.policy(solution, game, within="all")
    assert set(every["filled"]) == {"", "FACE", "EVEN"}
    with pytest.raises(mdp.ParamError, match="no reachable round state has filled='NONE'"):
        mdp.policy(solution, game, within={"filled": "NONE"})
    out = tmp_path / "t.parquet"
    assert mdp.program.cli.main(["policy", EXAMPLE, "--out", str(out)]) == 0
    assert pl.read_parquet(out)["value"][0] == pytest.approx(571 / 48, rel=1e-15)
    assert mdp.program.cli.main(["policy", EXAMPLE, "--within", "filled=EVEN",
                                 "--out", str(tmp_path / "w.parquet")]) == 0
    assert set(pl.read_parquet(tmp_path / "w.parquet")["filled"]) == {"EVEN"}


def test_a_policy_of_a_game_of_one_model_takes_no_within():
    game = mdp.load_game(str(ROOT / "docs" / "examples" / "reroll.py"))
    with pytest.raises(mdp.ParamError, match="is of one model: its policy table has every state"):
        mdp.policy(mdp.solve(mdp.compile(game)), game, within="all")


def test_an_exact_policy_evaluates_in_floats():
    game = mdp.load_game(str(ROOT / "docs" / "examples" / "reroll.py"))
    model = mdp.compile(game)
    exact = mdp.solve(model, exact=True)
    floats = mdp.solve(model, policy=exact.as_policy(), exact=False)
    assert floats.value == pytest.approx(float(exact.value), rel=1e-15)


@pytest.mark.slow
def test_the_policy_table_of_full_yahtzee_is_every_score_card(tmp_path, yahtzee_full):
    # As mdp policy yahtzee --variant full --out y.parquet writes it (the command itself is
    # run on two boxes above), of the game solved once a session.
    out = tmp_path / "y.parquet"
    mdp.write_table(mdp.analyse(yahtzee_full.solution, "policy", yahtzee_full.game), out)
    table = pl.read_parquet(out)
    assert table.height == 359_616  # the round states, as mdp solve counts them
    # Verhoeff's 254.5877 for the official card (tests/test_yahtzee_card.py), as mdp solve.
    assert table["value"][0] == pytest.approx(254.587728734496, rel=1e-12)


@mdp.hookimpl
def _probability():
    return mdp.Objective("chance of winning", "max", probability=True)


_probability.__name__ = "mdp_objective"
SHARES = st.fractions(min_value=Fraction(-1, 2), max_value=1, max_denominator=12)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.lists(SHARES, min_size=12, max_size=12))
def test_a_probability_of_rounds_is_refused_where_a_total_leaves_0_to_1(shares):
    """Two boxes whose objective is a probability, each end (box, face) earning a share: the
    totals are the share of A's face plus B's, any faces (either box first). The game is
    refused at compile exactly when one of them (counted here) is outside 0 to 1 (main
    printed a chance of 450%)."""
    earned = {(box, face): shares[i * 6 + face - 1] for i, box in enumerate("AB") for face in range(1, 7)}
    totals = [earned["A", a] + earned["B", b] for a in range(1, 7) for b in range(1, 7)]
    game = two_boxes(mdp_round_rule=boxes_rule(lambda box, face: earned[box, face]),
                     mdp_objective=_probability)
    if all(0 <= t <= 1 for t in totals):
        assert min(totals) <= mdp.solve(mdp.compile(game), exact=True).value <= max(totals)
    else:
        side = "most" if max(totals) > 1 else "least"
        worst = max(totals) if side == "most" else min(totals)
        with pytest.raises(mdp.ModelError, match=rf"^game two-boxes: mdp_objective says the values are "
                           rf"probabilities, but the points of mdp_round_rule add up to "
                           rf"{re.escape(quoted(worst))} at the {side} "):
            mdp.compile(game)
