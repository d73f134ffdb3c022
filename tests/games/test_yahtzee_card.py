"""The whole game of Yahtzee on a score card (games/yahtzee, card=...): small cards against a
brute force written here, sharing no code with the game, and the full cards against the
published optimal expected scores."""

import functools
import itertools
import json
import math
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

import mdp

ROOT = Path(__file__).resolve().parents[2]
UPPER = ["ones", "twos", "threes", "fours", "fives", "sixes"]
JOKER = {"full-house": 25, "small-straight": 30, "large-straight": 40}


def plain_points(box, hand):
    """The Yahtzee card's points, from the rules as printed on it."""
    counts = Counter(hand)
    if box in UPPER:
        return (UPPER.index(box) + 1) * counts[UPPER.index(box) + 1]
    faces = set(hand)
    longest = max(sum(1 for _ in itertools.takewhile(lambda f: f in faces, itertools.count(low)))
                  for low in range(1, 7))
    return {"three-of-a-kind": sum(hand) * (max(counts.values()) >= 3),
            "four-of-a-kind": sum(hand) * (max(counts.values()) >= 4),
            "full-house": 25 * (sorted(counts.values()) == [2, 3]),
            "small-straight": 30 * (longest >= 4), "large-straight": 40 * (longest >= 5),
            "yahtzee": 50 * (len(faces) == 1), "chance": sum(hand)}[box]


@functools.cache
def rolls(n):
    """Every throw of n dice, order forgotten, with the number of the 6**n orders that make
    it (the same list each time)."""
    throws = Counter(tuple(sorted(t)) for t in itertools.product(range(1, 7), repeat=n))
    return list(throws.items())


@functools.cache
def keeps(hand):
    """The dice that may be kept of a hand to roll the others: fewer than five."""
    return {tuple(k) for r in range(5) for k in itertools.combinations(hand, r)}


def brute_force(boxes, joker):
    """The optimal expected final score of a card of ``boxes``, in exact fractions."""
    return brute_force_cards(boxes, joker)(frozenset(), 0, False)


@functools.cache  # the same card's brute force for its two tests (THREE_BOXES_FREE)
def brute_force_cards(boxes, joker):
    """The optimal expected score still to come from each card of ``boxes``,
    ``card(filled, total, holds_50)``, in exact fractions, by a plain recursion: over cards (boxes filled, upper total, whether the Yahtzee box holds 50), and
    in a turn over hands and the dice kept. ``joker``: None (no Yahtzee bonus, no joker),
    "free" (a five of a kind rolled with the Yahtzee box filled goes in any open box, and
    scores 25/30/40 in the lower boxes once its own upper box is filled) or "forced" (its own
    upper box if open, else an open lower box, else an open upper box); with a joker, 100
    more for each five of a kind while the Yahtzee box holds 50. 35 for 63 in the upper boxes."""

    def finish(filled, total, holds_50, hand):
        """The best box for a final hand: its points and the rest of the game."""
        five = len(set(hand)) == 1
        own = UPPER[hand[0] - 1]
        joker_now = joker and five and "yahtzee" in filled
        choices = [b for b in boxes if b not in filled]
        if joker_now and joker == "forced":
            if own in boxes and own not in filled:
                choices = [own]
            elif any(b not in UPPER for b in choices):
                choices = [b for b in choices if b not in UPPER]
        best = None
        for box in choices:
            points = plain_points(box, hand)
            gained = points if box in UPPER else 0  # to the upper total
            if joker_now and box in JOKER and (own in filled or own not in boxes):
                points = JOKER[box]
            if joker_now and holds_50:
                points += 100
            if total < 63 <= total + gained:
                points += 35
            worth = points + card(filled | {box}, min(total + gained, 63),
                                  holds_50 or (box == "yahtzee" and points >= 50 and bool(joker)))
            best = worth if best is None else max(best, worth)
        return best

    @functools.cache
    def card(filled, total, holds_50):
        if len(filled) == len(boxes):
            return Fraction(0)
        stops = {hand: finish(filled, total, holds_50, hand) for hand, _ in rolls(5)}
        # The turn in whole numbers of 1/scale (exact, as fractions are, and quicker): a throw's
        # chance is a count over 6**n, three throws at most in a turn.
        scale = math.lcm(*(stop.denominator for stop in stops.values())) * 6 ** 15

        @functools.cache
        def hand_value(rolls_left, hand):
            stop = stops[hand] * scale
            assert stop.denominator == 1
            if rolls_left == 0:
                return stop.numerator
            return max([stop.numerator] + [keep_value(rolls_left, k) for k in keeps(hand)])

        @functools.cache
        def keep_value(rolls_left, kept):
            ways, rest = divmod(sum(count * hand_value(rolls_left - 1, tuple(sorted(kept + throw)))
                                    for throw, count in rolls(5 - len(kept))), 6 ** (5 - len(kept)))
            assert rest == 0  # a whole number of 1/scale still
            return ways

        return Fraction(keep_value(3, ()), scale)

    return card


def solve(exact=False, **params):
    return mdp.solve(mdp.compile(mdp.load_game("yahtzee", **params)), exact=exact)


# The free joker's card of three boxes is that of two tests, which share its brute force
# (brute_force_cards's cache), in one process when run side by side.
THREE_BOXES_FREE = pytest.mark.xdist_group("yahtzee-three-boxes-free")


@pytest.mark.parametrize("card, boxes, joker", [
    pytest.param("no-bonus", "fours,fives,sixes", None, marks=pytest.mark.slow),  # the upper bonus within reach
    pytest.param("free-joker", "threes,full-house,yahtzee", "free",
                 marks=[pytest.mark.slow, THREE_BOXES_FREE]),
    pytest.param("yahtzee", "threes,full-house,yahtzee", "forced", marks=pytest.mark.slow),
    pytest.param("yahtzee", "large-straight,yahtzee,chance", "forced",  # no upper box of the face
                 marks=pytest.mark.slow),
])
def test_a_small_card_solved_exactly_is_the_brute_force(card, boxes, joker):
    solution = solve(exact=True, card=card, boxes=boxes)
    assert solution.value == brute_force(tuple(boxes.split(",")), joker)
    assert solve(card=card, boxes=boxes).value == pytest.approx(float(solution.value), rel=1e-13)


# The whole games: each solved once a session (tests/conftest.py), for every test of it.


@pytest.mark.slow
def test_full_yahtzee_is_the_published_254_5896(yahtzee_full_free_joker):
    # Verhoeff (1999), Glenn (2006): 254.5896 with the upper bonus, the Yahtzee bonus and
    # jokers, in the reading where a joker scores in the lower boxes once its own upper
    # box is filled.
    solution = yahtzee_full_free_joker.solution
    assert round(solution.value, 4) == 254.5896
    assert solution.model.round.n_states == 1364
    assert solution.model.n_rounds == 13


@pytest.mark.slow
def test_no_bonus_is_the_published_245_87(yahtzee_full_no_bonus):
    # Verhoeff (1999), Glenn (2006): 245.87 without the Yahtzee bonus and jokers; 245.870775
    # to six places, as benchmarks/yahtzee_reference.py gives it (its --rules no-bonus).
    assert round(yahtzee_full_no_bonus.solution.value, 2) == 245.87
    assert f"{yahtzee_full_no_bonus.solution.value:.6f}" == "245.870775"


@pytest.mark.slow
def test_yatzy_is_the_published_248_44(yahtzee_yatzy):
    assert round(yahtzee_yatzy.solution.value, 2) == 248.44  # the published optimum of Yatzy


@pytest.mark.slow
def test_the_official_forced_joker_agrees_with_the_independent_numpy_solver(yahtzee_full):
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "yahtzee_reference.py"),
                           "--rules", "forced-joker", "--json"], capture_output=True, text=True,
                          check=True, timeout=300)
    reference = json.loads(done.stdout)["value"]
    assert yahtzee_full.solution.value == pytest.approx(reference, rel=1e-12)


@pytest.mark.slow
def test_a_card_s_turn_is_the_one_turn_game_with_the_boxes_at_its_end(yahtzee_full_free_joker):
    # 1 start + 2 x 210 keeps (fewer than five dice) + 3 x 252 hands + the ends:
    # (box, points, face) over the thirteen boxes. Compiled, not solved: quick.
    model = yahtzee_full_free_joker.model
    ends = model.round.n_terminal
    assert model.round.n_states == 1 + 2 * 210 + 3 * 252 + ends
    assert math.comb(10, 5) == 252


@pytest.mark.parametrize("params, message", [
    ({"card": "yahtzee", "dice": "6"}, "card=yahtzee is scored with five fair dice of six faces"),
    ({"card": "yahtzee", "target": "full-house"}, "a score card aims at the final score"),
    ({"card": "yatzy", "boxes": "ones,yahtzee"}, "parameter boxes: 'yahtzee' is not a box of "
                                                 "card yatzy"),
    ({"boxes": "ones"}, "parameter boxes is for a score card: set card too"),
])
def test_a_card_with_rules_it_cannot_have_is_refused_before_any_work(params, message):
    with pytest.raises(mdp.ParamError, match=message):
        mdp.load_game("yahtzee", **params)


@pytest.mark.slow
@THREE_BOXES_FREE
def test_advice_at_a_position_of_the_whole_game_is_the_brute_force():
    # Threes filled (9 points, the bonus out of reach: the card keeps 0), five threes in the
    # hand: the Yahtzee box takes 50 and the card goes on holding 50; the full house, nothing
    # (no joker while the Yahtzee box is open).
    card = brute_force_cards(("threes", "full-house", "yahtzee"), "free")
    game = mdp.load_game("yahtzee", card="free-joker", boxes="threes,full-house,yahtzee")
    solution = mdp.solve(mdp.compile(game))
    advice = mdp.advise(solution, game, filled="threes", upper=0, holds_50=False, rolls_left=0,
                        rolled="3 3 3 3 3")
    assert advice.actions["fill"].to_list() == ["yahtzee", "full-house"]
    assert advice.actions["value"].to_list() == pytest.approx(
        [float(50 + card(frozenset({"threes", "yahtzee"}), 9, True)),
         float(card(frozenset({"threes", "full-house"}), 9, False))], rel=1e-12)
    # At the start of a turn, the one action is worth what the card is.
    start = mdp.advise(solution, game, filled="threes yahtzee", holds_50=True, rolls_left=3,
                       kept="")
    assert start.actions["value"].to_list() == pytest.approx(
        [float(card(frozenset({"threes", "yahtzee"}), 9, True))], rel=1e-12)


@pytest.mark.parametrize("card", ["yatzy", "yahtzee"])
def test_a_card_of_some_boxes_says_those_boxes_and_no_count_of_the_whole(card):
    # Round 23: "Scandinavian Yatzy, 15 boxes, ..., boxes ones, yatzy" beside a card of two.
    whole = mdp.load_game("yahtzee", card=card)
    some = mdp.load_game("yahtzee", card=card, boxes="ones,chance")
    assert some.describe().endswith(", boxes ones, chance")
    assert not any(f"{n} boxes" in some.describe() for n in (13, 15))
    assert ("15 boxes" in whole.describe()) == (card == "yatzy")
