"""Yahtzee (games/yahtzee) against a brute force written here, sharing no code with the game.

The brute force throws the dice in order, face by face (every one of faces**n sequences), and
keeps dice by position (every subset of the n positions, the whole hand included, which then
rolls no dice); it has no "stop" action and no multisets of throws. Its targets are written
out again below, from the rules of the game, not from the game's module.
"""

import itertools
from collections import Counter
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp


def brute(value, dice=5, faces=6, rolls=3, weights=None):
    """The best expected ``value(hand)`` after ``rolls`` rolls, keeping optimally."""
    weights = weights or [Fraction(1, faces)] * faces
    throws = {}  # of n dice: each throw, its order forgotten, with the chance of its sequences
    for n in range(dice + 1):
        throws[n] = Counter()
        for sequence in itertools.product(range(1, faces + 1), repeat=n):
            p = Fraction(1)
            for face in sequence:
                p *= weights[face - 1]
            if p:
                throws[n][tuple(sorted(sequence))] += p

    @cache
    def before_roll(rolls_left, kept):
        return sum(p * after_roll(rolls_left - 1, tuple(sorted(kept + sequence)))
                   for sequence, p in throws[dice - len(kept)].items())

    @cache
    def after_roll(rolls_left, hand):
        if rolls_left == 0:
            return Fraction(value(hand))
        return max(before_roll(rolls_left, tuple(hand[i] for i in positions))
                   for size in range(dice + 1)
                   for positions in itertools.combinations(range(dice), size))

    return before_roll(rolls, ())


def most(hand):
    return max(Counter(hand).values())


def five_of_a_kind(hand):
    return len(set(hand)) == 1


def large_straight(hand):  # five dice, six faces: 1-5 or 2-6
    return set(hand) in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})


def small_straight(hand):  # four in a row, on six faces
    return any(set(run) <= set(hand) for run in ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6)))


def full_house(hand):
    return sorted(Counter(hand).values()) == [2, 3]


def solved(**params):
    return mdp.solve(mdp.compile(mdp.load_game("yahtzee", **params)), exact=True)


# The chance of a Yahtzee in one turn of three rolls, keeping optimally: 2,783,176/6^10 =
# 347897/7558272 = 4.6029%, the figure published for the strategy of keeping the most common
# face (e.g. DataGenetics, "Yahtzee probability", and the Markov-chain derivation it follows;
# Wikipedia's "Yahtzee" article gives about 4.6%). The brute force confirms it is optimal.
PUBLISHED_YAHTZEE = Fraction(2_783_176, 6**10)


@pytest.mark.slow
def test_five_of_a_kind_in_three_rolls_is_the_published_figure_and_the_brute_force():
    assert PUBLISHED_YAHTZEE == Fraction(347897, 7558272)
    assert brute(five_of_a_kind) == PUBLISHED_YAHTZEE
    solution = solved()
    assert solution.value == PUBLISHED_YAHTZEE
    assert mdp.solve(solution.model).value == pytest.approx(float(PUBLISHED_YAHTZEE), rel=1e-14)


def test_one_roll_is_six_yahtzees_in_7776_by_hand():
    # One roll, no keeping: six of the 6^5 sequences show one face.
    assert solved(rolls="1").value == Fraction(6, 7776)


@pytest.mark.slow
@pytest.mark.parametrize(("params", "value"), [
    ({"target": "large-straight"}, large_straight),
    ({"target": "small-straight"}, small_straight),
    ({"target": "full-house"}, full_house),
    ({"target": "kind", "kind": "3"}, lambda hand: most(hand) >= 3),
    ({"target": "kind", "kind": "4"}, lambda hand: most(hand) >= 4),
    ({"target": "yahtzee", "rolls": "2"}, five_of_a_kind),
    ({"target": "score", "category": "chance"}, sum),
    ({"target": "score", "category": "sixes"}, lambda hand: 6 * hand.count(6)),
    ({"target": "score", "category": "three-of-a-kind"},
     lambda hand: sum(hand) if most(hand) >= 3 else 0),
    ({"target": "score", "category": "full-house"}, lambda hand: 25 * full_house(hand)),
    ({"target": "score", "category": "large-straight"}, lambda hand: 40 * large_straight(hand)),
    ({"target": "score", "category": "yahtzee"}, lambda hand: 50 * five_of_a_kind(hand)),
], ids=lambda x: "-".join(x.values()) if isinstance(x, dict) else "")
def test_targets_against_the_brute_force(params, value):
    rolls = int(params.get("rolls", 3))
    assert solved(**params).value == brute(value, rolls=rolls)


@pytest.mark.slow
def test_other_dice_and_loaded_faces_against_the_brute_force():
    weights = [Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 8)]
    assert solved(dice="3", faces="4", rolls="4").value == brute(
        lambda hand: len(set(hand)) == 1, dice=3, faces=4, rolls=4)
    assert solved(dice="4", faces="4", weights="1/2,1/4,1/8,1/8").value == brute(
        lambda hand: len(set(hand)) == 1, dice=4, faces=4, weights=weights)
    # Four dice: a full house is two and two; a large straight is all four in a row.
    assert solved(dice="4", faces="5", target="full-house").value == brute(
        lambda hand: sorted(Counter(hand).values()) == [2, 2], dice=4, faces=5)
    assert solved(dice="4", faces="5", target="large-straight").value == brute(
        lambda hand: set(hand) in ({1, 2, 3, 4}, {2, 3, 4, 5}), dice=4, faces=5)


@pytest.mark.slow  # its cases take a second of CPU or more in all
def test_states_are_within_the_estimate():
    game = mdp.load_game("yahtzee")
    model = mdp.compile(game)
    # The start, then before each of the two later rolls every set of at most four dice kept
    # (1 + 6 + 21 + 56 + 126 = 210 multisets), and after each of the three rolls every hand
    # (C(10, 5) = 252): 1 + 2 x 210 + 3 x 252 = 1,177, which the game's estimate counts too.
    assert model.n_states == 1 + 2 * 210 + 3 * 252 == game.call("mdp_estimate_states")


def test_terminal_states_carry_the_hand_and_its_most_common_count():
    model = mdp.compile(mdp.load_game("yahtzee"))
    terminals = model.terminals
    assert terminals.columns == ["rolls_left", "kept", "rolled", "count", "value"]
    assert terminals.height == 252  # every hand of five dice ends a turn
    row = terminals.filter(terminals["rolled"] == "3 3 3 3 3").row(0, named=True)
    assert row == {"rolls_left": 0, "kept": None, "rolled": "3 3 3 3 3", "count": 5, "value": 1.0}
    # Exactly the five-of-a-kind hands are worth 1.
    assert terminals.filter(terminals["value"] == 1)["count"].to_list() == [5] * 6


@pytest.mark.slow
def test_score_targets_carry_a_score_column():
    terminals = mdp.compile(mdp.load_game("yahtzee", target="score", category="chance")).terminals
    assert terminals.columns == ["rolls_left", "kept", "rolled", "count", "score", "value"]
    assert (terminals["score"] == terminals["value"]).all()


@pytest.mark.slow  # half a second or more of CPU
def test_policy_keeps_the_three_of_a_kind_and_starts_with_a_roll():
    game = mdp.load_game("yahtzee")
    table = mdp.policy(mdp.solve(mdp.compile(game), exact=True), game)
    assert table.columns[:6] == ["rolls_left", "kept", "rolled", "count", "action", "keep"]
    first = table.row(0, named=True)
    assert (first["rolls_left"], first["kept"], first["action"]) == (3, "", "roll")
    hand = table.filter((table["rolled"] == "1 1 1 5 6") & (table["rolls_left"] == 2))
    assert hand.height == 4 * 2 * 2  # keep 0-3 ones, 0-1 five, 0-1 six: 16 ways
    best = hand.filter(hand["optimal"])
    assert best["keep"].to_list() == ["1 1 1"] and best["action"].to_list() == ["reroll"]
    stop = hand.filter(hand["action"] == "stop")
    assert stop["keep"].to_list() == ["1 1 1 5 6"]


@pytest.mark.parametrize(("params", "message"), [
    ({"kind": "3"}, "target and kind go together"),
    ({"target": "kind"}, "target and kind go together"),
    ({"target": "score"}, "target and category go together"),
    ({"target": "kind", "kind": "6"}, "more than the 5 dice"),
    ({"faces": "4", "target": "large-straight"}, "needs 5 different faces"),
    ({"faces": "4", "target": "score", "category": "sixes"}, "only 4 faces"),
    ({"weights": "1/2,1/2"}, "2 weights for dice of 6 faces"),
])
def test_bad_rules_are_refused_in_one_line(params, message):
    with pytest.raises(mdp.ParamError, match=message):
        mdp.load_game("yahtzee", **params)


@pytest.mark.slow
def test_mdp_solve_yahtzee_exact_prints_the_published_chance(capsys):
    from mdp.program.cli import main

    code = main(["solve", "yahtzee", "--exact"])
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Yahtzee: 5 dice of 6 faces, up to 3 rolls; target: 5 of a kind"
    assert lines[1] == "chance of 5 of a kind: 4.6029% (0.046028642525699)"
    assert lines[2] == "exact: 347897/7558272"


@pytest.mark.slow
def test_chance_is_five_rerolls_by_hand():
    # Scored as Chance the dice add up, and keeping one die does not change what another is
    # worth: each die is docs' Reroll game, 14/3 with three rolls (derived by hand on
    # docs/writing-a-game.rst), so five dice make 70/3.
    assert solved(target="score", category="chance", dice="1").value == Fraction(14, 3)
    assert solved(target="score", category="chance").value == 5 * Fraction(14, 3)


@pytest.mark.slow
def test_the_analyses_work_on_yahtzee_unchanged():
    # The engine's analyses, written for Shut the Box, on the second game as it is.
    game = mdp.load_game("games/yahtzee")
    solution = mdp.solve(mdp.compile(game), exact=True)
    outcomes = mdp.distribution(solution, game)
    assert outcomes.columns[0] == "count"
    exact = dict(zip(outcomes["count"], (Fraction(p) for p in outcomes["exact"])))
    assert sum(exact.values()) == 1
    assert exact[5] == solution.value == Fraction(347897, 7558272)
    advice = mdp.advise(solution, game, rolls_left=2, rolled="1 1 5 5 6")
    assert advice.actions.filter(advice.actions["optimal"])["keep"].to_list() == ["1 1", "5 5"]
    policy = mdp.policy(solution, game)
    at = policy.filter((policy["rolls_left"] == 2) & (policy["rolled"] == "1 1 5 5 6"))
    assert sorted(advice.actions["value_exact"].to_list()) == sorted(at["value_exact"].to_list())
    played = mdp.simulate(solution, game, games=200_000, seed=3)
    assert played.low <= float(solution.value) <= played.high


@pytest.mark.parametrize("dice", [2, 3, 4, 6])
def test_a_full_house_of_other_dice_names_its_split(dice):
    # Before, every rules line said "a full house", with 6 dice two triples (16%), where
    # three and two of six dice would be 76% (R19-N15): the line names the split played.
    game = mdp.load_game("yahtzee", target="full-house", dice=dice, faces=4, rolls=1)
    split = ((dice + 1) // 2, dice // 2)
    assert game.describe().endswith(f"target: a full house of {dice} dice ({split[0]} of one "
                                    f"face, {split[1]} of another)")
    assert mdp.solve(mdp.compile(game), exact=True).value == brute(
        lambda hand: sorted(Counter(hand).values(), reverse=True) == list(split), dice=dice,
        faces=4, rolls=1)


@pytest.mark.parametrize(("aim", "least"), [("full-house", 2), ("three-of-a-kind", 3),
                                             ("four-of-a-kind", 4), ("large-straight", 2),
                                             ("small-straight", 3)])
@pytest.mark.parametrize("how", ["target", "category"])
def test_an_aim_needs_the_dice_it_is_made_of(aim, least, how):
    """A full house of one die was refused; a straight of one die or none (certain), or four
    of a kind of three dice (never), was taken: a target that means nothing with so few."""
    asked = {"target": aim} if how == "target" and aim in ("full-house", "large-straight",
                                                           "small-straight") else \
        {"target": "score", "category": aim}
    with pytest.raises(mdp.ParamError, match=f"^{aim} needs {least} dice or more, not {least - 1}$"):
        mdp.load_game("yahtzee", dice=least - 1, **asked)
    assert mdp.load_game("yahtzee", dice=least, **asked).params["dice"] == least


@st.composite
def _dice_rules(draw):
    """Dice, faces, rolls and weights of faces (some 0, possibly): small enough for the brute
    force's every sequence of throws."""
    faces = draw(st.integers(2, 4))
    dice = draw(st.integers(1, 5 if faces == 2 else 3))
    parts = draw(st.lists(st.integers(0, 3), min_size=faces, max_size=faces).filter(any))
    weights = [Fraction(p, sum(parts)) for p in parts] if draw(st.booleans()) else None
    return dice, faces, draw(st.integers(1, 3)), weights


@pytest.mark.slow  # its cases take a second of CPU or more in all
@settings(max_examples=25, deadline=None)
@given(_dice_rules(), st.sampled_from(["yahtzee", "chance"]))
def test_any_dice_and_weights_against_the_brute_force(rules, aim):
    # After the first roll the game throws the dice left one at a time (the keeps of one die
    # more), where the brute force throws them all at once, in order: the same chances.
    dice, faces, rolls, weights = rules
    params = {"dice": str(dice), "faces": str(faces), "rolls": str(rolls)}
    if weights:
        params["weights"] = ",".join(map(str, weights))
    if aim == "chance":
        params.update(target="score", category="chance")
    value = sum if aim == "chance" else (lambda hand: len(set(hand)) == 1)
    assert solved(**params).value == brute(value, dice, faces, rolls, weights)
