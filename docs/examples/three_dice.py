"""Three dice: a small dice-keeping score card, five rounds of one turn each.

Each turn, roll three dice, keep any of them and roll the others once more; then score the
hand in an open box of the card. FOURS, FIVES and SIXES score the dice of their face (three
fives: 15); TRIPLE scores 20 for three alike, else nothing; CHANCE scores the total. Once
FOURS, FIVES and SIXES together reach 30 (two of each face would), 10 more. Each box takes
one hand, so the game lasts five turns. What is the best expected final score?

A game of rounds: the first hooks describe one turn, whose terminal states are its ends,
``("end", box, points)``; the round state is the card, an integer: a bit per box filled and,
above them, the upper total so far (kept at 30 once the bonus is won).
"""

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np

import mdp

GAME_NAME = "three-dice"
BOXES = ("FOURS", "FIVES", "SIXES", "TRIPLE", "CHANCE")
UPPER = {"FOURS": 4, "FIVES": 5, "SIXES": 6}  # the face each upper box counts
BONUS_AT, BONUS = 30, 10


def points(box, hand):
    """What ``hand`` (three faces) scores in ``box``, by the box's own rule."""
    if box in UPPER:
        return UPPER[box] * hand.count(UPPER[box])
    if box == "TRIPLE":
        return 20 if len(set(hand)) == 1 else 0
    return sum(hand)  # CHANCE


def throws(n):
    """Each sorted hand that ``n`` fair dice show, with its chance."""
    counts = Counter(tuple(sorted(t)) for t in itertools.product(range(1, 7), repeat=n))
    return [(Fraction(c, 6 ** n), hand) for hand, c in sorted(counts.items())]


# One turn: a state is (rolls_left, dice), the dice a sorted tuple; then ("end", box, points).


@mdp.hookimpl
def mdp_initial_state():
    return (2, ())  # two rolls to come, no die kept


@mdp.hookimpl
def mdp_actions(state):
    if state[0] == "end":
        return []  # an end of the turn
    rolls_left, dice = state
    if rolls_left == 2:
        return [()]  # the first roll throws all three dice: keep nothing
    if rolls_left == 1:  # keep any of the dice (all three: the hand) and roll the others
        return sorted({kept for n in range(4) for kept in itertools.combinations(dice, n)})
    return list(BOXES)  # a final hand goes in a box: the card says which are open


@mdp.hookimpl
def mdp_outcomes(state, action):
    rolls_left, dice = state
    if rolls_left == 0:
        return [(1, ("end", action, points(action, dice)))]
    return [(p, (rolls_left - 1, tuple(sorted(action + thrown))))
            for p, thrown in throws(3 - len(action))]


@mdp.hookimpl
def mdp_terminal_value(state):
    return state[2]  # the points of the end, were the turn the last


# Between turns: the card.


@mdp.hookimpl
def mdp_round_start():
    return 0  # no box filled, no upper points


@mdp.hookimpl
def mdp_round_rule(ends):
    # Once, at compile, for the turn's ends: each end's box (a bit), points and upper points.
    bit = np.array([1 << BOXES.index(box) for _, box, _ in ends])
    scored = np.array([p for _, _, p in ends])
    upper = np.array([p if box in UPPER else 0 for _, box, p in ends])

    def rule(states):  # many cards at once: a row per card, a column per end
        filled, total = states[:, None] % 32, states[:, None] // 32
        after = np.minimum(total + upper, BONUS_AT)
        won = (total < BONUS_AT) & (after == BONUS_AT)
        following = np.where(filled & bit, -1, (filled | bit) + 32 * after)
        return mdp.RoundEnds(following, scored + BONUS * won)

    return rule


# In words: the rules, what the value means, the columns of the analyses.


@mdp.hookimpl
def mdp_describe():
    return (f"Three dice: five turns of up to two rolls, {', '.join(BOXES)} to fill; "
            f"{BONUS} bonus at {BONUS_AT}")


@mdp.hookimpl
def mdp_objective():
    return mdp.Objective("expected final score", "max")


@mdp.hookimpl
def mdp_state_columns(state):
    if state[0] == "end":
        return {"rolls_left": None, "dice": None, "box": state[1], "scored": state[2]}
    return {"rolls_left": state[0], "dice": " ".join(map(str, state[1])), "box": None,
            "scored": None}


@mdp.hookimpl
def mdp_action_columns(state, action):
    if state[0] == 0:
        return {"keep": None, "score_in": action}
    return {"keep": " ".join(map(str, action)), "score_in": None}


@mdp.hookimpl
def mdp_round_columns(states):
    return {"filled": [" ".join(b for i, b in enumerate(BOXES) if s >> i & 1)
                       for s in states.tolist()],
            "upper": (states // 32).tolist()}


# For the page of mdp report: the round rule in JavaScript, one card at a time.


@mdp.hookimpl
def mdp_round_ends_script():
    return """function (card, ends) {
      var boxes = ["FOURS", "FIVES", "SIXES", "TRIPLE", "CHANCE"];
      var filled = card % 32, total = Math.floor(card / 32);
      var next = [], points = [];
      ends.forEach(function (end) {
        var box = boxes.indexOf(end[1]), bit = 1 << box;
        var after = Math.min(total + (box < 3 ? end[2] : 0), 30), won = total < 30 && after === 30;
        next.push(filled & bit ? -1 : (filled | bit) + 32 * after);
        points.push(end[2] + (won ? 10 : 0));
      });
      return {next: next, points: points};
    }"""
