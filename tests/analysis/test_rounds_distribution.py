"""The chance of every total of a game of rounds (mdp.distribution of a RoundsSolution): in
floats a round at a time (mdp/analysis/totals.py) against each round state followed on its
own in exact numbers, against the value solved backward, and against a brute force written
here; what cannot be followed is refused before the solve."""

from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from models import two_boxes

import mdp
import mdp.engine.rounds.totals as distribution
import mdp.program.cli
from mdp.engine.rounds import WORK
from mdp.engine.rounds.sample import sample

EXAMPLE = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "two_boxes.py")


def yahtzee(card, boxes):
    return mdp.load_game("yahtzee", card=card, boxes=boxes)


def one_by_one_refused(monkeypatch):
    """Make the way that follows each round state on its own fail: a distribution found
    after this was followed a round at a time."""

    def refused(*args, **kwargs):
        raise AssertionError("a round state followed on its own")

    monkeypatch.setattr(mdp.RoundsSolution, "at", refused)


@pytest.mark.parametrize("game", [
    lambda: two_boxes(),
    lambda: mdp.load_game(EXAMPLE),  # throws again: chance actions among the choices
    pytest.param(lambda: yahtzee("yahtzee", "ones,twos,chance"), marks=pytest.mark.slow),
    # the Yahtzee bonus, the forced joker
    pytest.param(lambda: yahtzee("yahtzee", "ones,yahtzee,chance"), marks=pytest.mark.slow),
    pytest.param(lambda: yahtzee("free-joker", "threes,full-house,yahtzee"),  # a joker's full house
                 marks=pytest.mark.slow),
], ids=["two-boxes", "two-boxes-rethrown", "ones-twos-chance", "yahtzee-bonus", "free-joker"])
def test_a_round_at_a_time_in_floats_is_each_round_state_followed_exactly(game, monkeypatch):
    model = mdp.compile(game())
    exact = mdp.distribution(mdp.solve(model, exact=True))
    expected = {t: Fraction(e) for t, e in zip(exact["points"], exact["exact"])}
    assert sum(expected.values()) == 1
    floats = mdp.solve(model)
    one_by_one_refused(monkeypatch)
    frame = mdp.distribution(floats)
    assert frame.columns == ["points", "probability"]
    assert frame["points"].to_list() == sorted(expected)  # the same totals, each reached
    for total, chance in zip(frame["points"], frame["probability"]):
        assert abs(chance - float(expected[total])) <= 1e-12, total


@pytest.mark.slow
def test_the_yahtzee_bonus_and_the_joker_are_among_the_totals():
    # The card of the test above. The most: 50 for a first Yahtzee, then a second and a third,
    # each 100 more and a joker: five 1s in ones (5), five 6s in chance (30). Without a
    # Yahtzee, at most 5 + 0 + 30.
    frame = mdp.distribution(mdp.solve(mdp.compile(yahtzee("yahtzee", "ones,yahtzee,chance"))))
    assert frame["points"].max() == 50 + (100 + 5) + (100 + 30)
    assert frame.filter(frame["points"] > 5 + 30)["probability"].sum() > 0


@pytest.mark.slow
def test_a_card_of_many_round_states_has_totals_that_average_to_its_value(monkeypatch):
    # Eight boxes: 11,238 round states, a round of 3,706 of them, solved in several batches.
    # The mean of the totals pushed forward is the value solved backward.
    model = mdp.compile(yahtzee("yahtzee", "ones,twos,threes,fours,fives,sixes,yahtzee,chance"))
    assert max(len(keys) for keys in model.keys) > WORK // model.round.n_states
    solution = mdp.solve(model)
    one_by_one_refused(monkeypatch)
    frame = mdp.distribution(solution)
    chances, totals = frame["probability"].to_numpy(), frame["points"].to_numpy()
    assert chances.sum() == pytest.approx(1, abs=1e-12)
    assert (chances > 0).all()
    assert (chances * totals).sum() == pytest.approx(solution.value, rel=1e-12)


@mdp.hookimpl(specname="mdp_round_rule")
def near_ends(ends):
    def rule(states):
        """Two boxes where the first box filled earns 10**13 in A, 10**13 + 1 in B, and the
        second nothing: a gap of one in 10**13, within FLOAT_TIE of the best."""
        box = np.array([0 if end[1] == "A" else 1 for end in ends])
        filled = states[:, None]
        open_ = (filled >> box) & 1 == 0
        points = np.where(filled == 0, 10**13 + box, 0)
        return mdp.RoundEnds(np.where(open_, filled | (1 << box), -1), points)
    return rule


def test_actions_within_float_tie_of_the_best_are_tied_and_the_first_is_taken():
    # Floats take values within a relative FLOAT_TIE of the best as tied, as one model's
    # play does (mdp.Solution.play): the first box, A, then. B first would make 10**13 + 1.
    solution = mdp.solve(mdp.compile(two_boxes(mdp_round_rule=near_ends)))
    assert solution.value == 10**13 + 1
    frame = mdp.distribution(solution)
    assert frame["points"].to_list() == [10**13]
    assert frame["probability"].to_list() == pytest.approx([1.0], rel=1e-15)
    points, _ = sample(solution, 20, np.random.default_rng(1))
    assert points.tolist() == [10**13] * 20
    # In exact numbers only equal values tie: B.
    exact = mdp.distribution(mdp.solve(mdp.compile(two_boxes(mdp_round_rule=near_ends)), exact=True))
    assert exact["points"].to_list() == [10**13 + 1]


def by_hand(points):
    """The chance of each total of the two boxes of tests/models.py (one throw a round), with
    ``points(box, face)`` for what a face earns in a box: the first face goes to the box
    worth more with the other box's mean to come (A on a tie), the second face to the box
    left."""
    mean = {box: Fraction(sum(Fraction(points(box, g)) for g in range(1, 7)), 6) for box in "AB"}
    totals = Counter()
    for f in range(1, 7):
        first = "A" if points("A", f) + mean["B"] >= points("B", f) + mean["A"] else "B"
        other = "B" if first == "A" else "A"
        for g in range(1, 7):
            totals[Fraction(points(first, f)) + Fraction(points(other, g))] += Fraction(1, 36)
    return totals


def halved_six(box, face):
    """Two boxes' points, but a 6 in box A earns 6.5: the one total that is not whole."""
    return face + 0.5 * (face == 6) if box == "A" else 2 * face * (face % 2 == 0)


@mdp.hookimpl
def halved_ends(ends):
    def rule(states):
        box = np.array([0 if end[1] == "A" else 1 for end in ends])
        points = np.array([halved_six("AB"[b], end[2]) for b, end in zip(box, ends)])
        filled = states[:, None]
        open_ = (filled >> box) & 1 == 0
        return mdp.RoundEnds(np.where(open_, filled | (1 << box), -1), np.broadcast_to(points, open_.shape))
    return rule


def test_points_that_are_not_whole_are_followed_round_state_by_round_state():
    frame = mdp.distribution(mdp.solve(mdp.compile(two_boxes(mdp_round_rule=halved_ends))))
    expected = by_hand(halved_six)
    assert frame["points"].to_list() == sorted(float(t) for t in expected)
    assert frame["probability"].to_list() == pytest.approx([float(expected[t]) for t in sorted(expected)],
                                                           rel=1e-13)
    assert any(t.denominator == 2 for t in expected)  # the brute force meets 6.5: the check can fail


def test_points_that_are_not_whole_in_a_large_game_of_rounds_are_refused(monkeypatch):
    monkeypatch.setattr(distribution, "MOST_ROUND_STATES", 3)
    solution = mdp.solve(mdp.compile(two_boxes(mdp_round_rule=halved_ends)))
    # The 6.5 is reached from B filled (round state 2): a first 6 goes in B for 12.
    with pytest.raises(mdp.TooLarge, match=r"^game two-boxes: points 6\.5 from round state 2: the "
                       r"chance of every total is followed a round at a time for whole points "
                       r"of 64 bits only, and each round state on its own for at most 3 round states, not "
                       r"4; mdp simulate estimates it$"):
        mdp.distribution(solution)


def test_progress_names_each_round_and_the_round_states_reached():
    lines = []
    mdp.distribution(mdp.solve(mdp.compile(two_boxes())), progress=lines.append)
    # A first 1, 3 or 5 goes in A, a 2, 4 or 6 in B: both round states of round 2 are reached.
    assert lines == [f"following the totals of round {r} of 3: {n} round states reached"
                     for r, n in ((1, 1), (2, 2), (3, 1))]


@pytest.mark.slow
def test_the_memory_bound_is_the_totals_of_two_rounds_side_by_side(monkeypatch):
    # Ones, twos and chance: each round earns 0 to 30; 1, 3, 3 and 1 round states after 0 to
    # 3 rounds (the bonus is out of reach, the upper total kept at 0), with totals 0 to 0, 30,
    # 60 and 90: at most 3 * 31 + 3 * 61 = 276 floats side by side, 2,208 bytes.
    model = mdp.compile(yahtzee("yahtzee", "ones,twos,chance"))
    assert [len(keys) for keys in model.keys] == [1, 3, 3, 1]
    solution = mdp.solve(model)
    assert distribution.check_chances(model, max_memory=2208) is False  # a round at a time
    # Past the bound, the 8 round states are followed one by one: the same chances.
    assert distribution.check_chances(model, max_memory=2207) is True
    within = mdp.distribution(solution, max_memory=2208)
    past = mdp.distribution(solution, max_memory=2207)
    assert past["points"].to_list() == within["points"].to_list()
    assert past["probability"].to_list() == pytest.approx(within["probability"].to_list(), rel=1e-12)
    monkeypatch.setattr(distribution, "MOST_ROUND_STATES", 7)
    with pytest.raises(mdp.TooLarge, match=r"^game yahtzee: following the chance of every total "
                       r"may take up to 2\.21 kB, past the budget of 2\.21 kB, and its 8 round "
                       r"states are too many to follow one by one \(at most 7\); raise it with "
                       r"--max-memory \(max_memory= in Python\), or estimate the chances with mdp "
                       r"simulate$"):
        mdp.distribution(solution, max_memory=2207)


def no_solve(monkeypatch):
    def refused(*args, **kwargs):
        raise AssertionError("solved before the refusal")

    monkeypatch.setattr(mdp, "solve", refused)  # the name the command line calls


@pytest.mark.slow
def test_a_game_of_rounds_past_the_memory_is_refused_before_it_is_solved(capsys, monkeypatch):
    monkeypatch.setattr(distribution, "default_max_memory", lambda: 2207)
    monkeypatch.setattr(distribution, "MOST_ROUND_STATES", 7)
    no_solve(monkeypatch)
    argv = ["distribution", "yahtzee", "--set", "card=yahtzee", "--set", "boxes=ones,twos,chance"]
    assert mdp.program.cli.main(argv) == 3
    assert capsys.readouterr().err == (
        "mdp: error: game yahtzee: following the chance of every total may take up to 2.21 kB, "
        "past the budget of 2.21 kB, and its 8 round states are too many to follow one by one "
        "(at most 7); raise it with --max-memory (max_memory= in Python), or estimate the "
        "chances with mdp simulate\n")


@pytest.mark.parametrize("option, message", [
    ("--exact", "in exact numbers (at most 3); in floats they are followed a round at a time"),
    ("--tie-break=value", "with a tie-break (at most 3); without one, play takes the first "
     "optimal action and they are followed a round at a time"),
])
def test_one_by_one_past_its_round_states_is_refused_before_the_solve(option, message, capsys,
                                                                     monkeypatch):
    monkeypatch.setattr(distribution, "MOST_ROUND_STATES", 3)
    no_solve(monkeypatch)
    assert mdp.program.cli.main(["distribution", EXAMPLE, option]) == 3
    assert capsys.readouterr().err == (
        "mdp: error: game two-boxes: 4 round states, too many to follow one by one for the "
        f"chance of every total {message}\n")


def test_the_command_on_a_game_of_rounds_in_floats_prints_every_total(capsys):
    assert mdp.program.cli.main(["distribution", EXAMPLE]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "expected total: 11.8958333333333"  # 571/48, worked by hand in the docs
    assert lines[3] == "  points  probability   cumulative"
    assert lines[-1].split()[-1] == "100.0000%"


@pytest.mark.slow
def test_the_whole_game_s_totals_average_to_its_value_with_the_published_spread(yahtzee_full_free_joker):
    # About half a minute on two cores. Verhoeff's reading of the joker: 254.5896, standard
    # deviation about 59.6 (Verhoeff 1999, Glenn 2006); the other cards run the same code.
    # The game solved and its distribution followed once a session (tests/conftest.py).
    solution, frame = yahtzee_full_free_joker.solution, yahtzee_full_free_joker.distribution
    chances, totals = frame["probability"].to_numpy(), frame["points"].to_numpy()
    assert chances.sum() == pytest.approx(1, abs=1e-12)
    assert (chances > 0).all()
    mean = (chances * totals).sum()
    assert mean == pytest.approx(solution.value, rel=1e-12)
    assert round(float(np.sqrt((chances * (totals - mean) ** 2).sum())), 1) == 59.6


def test_the_command_says_how_the_points_spread(capsys):
    # From the exact chances, in fractions: the mean is 571/48 (by hand, in the docs), the
    # spread and the percentiles (the least total whose chance up to it reaches the share)
    # worked out here on their own.
    frame = mdp.distribution(mdp.solve(mdp.compile(mdp.load_game(EXAMPLE)), exact=True))
    chances = [Fraction(e) for e in frame["exact"]]
    points = frame["points"].to_list()
    mean = sum(c * p for c, p in zip(chances, points))
    assert mean == Fraction(571, 48)
    sd = float(sum(c * (p - mean) ** 2 for c, p in zip(chances, points))) ** 0.5
    cumulative, shares = Fraction(0), {}
    for chance, total in zip(chances, points):
        cumulative += chance
        for p in (5, 25, 50, 75, 95):
            if cumulative >= Fraction(p, 100):
                shares.setdefault(p, total)
    assert mdp.program.cli.main(["distribution", EXAMPLE]) == 0
    line = capsys.readouterr().out.splitlines()[2]
    assert line == (f"mean 11.8958333333333, standard deviation {sd:.4g}; percentiles: "
                    + ", ".join(f"{p}% {shares[p]}" for p in (5, 25, 50, 75, 95)))
