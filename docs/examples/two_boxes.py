"""Two boxes: two rounds of Reroll, each round's face scored in a box of a small score card.

Each round, throw a die, and throw it again if you like (two throws at most); then score the
face in an open box: FACE scores the face, EVEN twice the face if it is even, else nothing.
Each box takes one face, so the game lasts two rounds. What is the best expected total?

A game of rounds: the first hooks describe one round, whose terminal states are its ends,
``("end", box, face)``; the round state is the boxes filled, one bit each.
"""

from fractions import Fraction

import numpy as np

import mdp

GAME_NAME = "two-boxes"
BOXES = ("FACE", "EVEN")


def points(box, face):
    return face if box == "FACE" else 2 * face * (face % 2 == 0)


# One round.


@mdp.hookimpl
def mdp_initial_state():
    return ("throw", 2)  # throws left


@mdp.hookimpl
def mdp_actions(state):
    if state[0] == "throw":
        return ["throw"]
    if state[0] == "face":
        _, throws_left, _ = state
        return (["again"] if throws_left else []) + list(BOXES)
    return []  # an end


@mdp.hookimpl
def mdp_outcomes(state, action):
    if action in ("throw", "again"):
        return [(Fraction(1, 6), ("face", state[1] - 1, f)) for f in range(1, 7)]
    return [(1, ("end", action, state[2]))]


@mdp.hookimpl
def mdp_terminal_value(state):
    _, box, face = state  # what the end scores, were it the last round
    return points(box, face)


# Between rounds.


@mdp.hookimpl
def mdp_round_start():
    return 0  # no box filled


@mdp.hookimpl
def mdp_round_rule(ends):
    # Once, for the round's ends: each end's box (a bit) and points.
    bit = np.array([1 << BOXES.index(box) for _, box, _ in ends])
    scored = np.array([points(box, face) for _, box, face in ends])

    def rule(states):  # many round states at once
        filled = states[:, None]
        following = np.where(filled & bit, -1, filled | bit)  # a box takes one face
        return mdp.RoundEnds(following, np.broadcast_to(scored, following.shape))

    return rule


@mdp.hookimpl
def mdp_describe():
    return "Two boxes: two rounds of up to two throws of a die, FACE and EVEN to fill"


@mdp.hookimpl
def mdp_objective():
    return mdp.Objective("expected total", "max")


# In words: the columns of the analyses.


@mdp.hookimpl
def mdp_state_columns(state):
    if state[0] == "end":
        return {"throws_left": None, "face": state[2], "scored_in": state[1]}
    face = state[2] if state[0] == "face" else None
    return {"throws_left": state[1], "face": face, "scored_in": None}


@mdp.hookimpl
def mdp_round_columns(states):
    return {"filled": [" ".join(b for i, b in enumerate(BOXES) if s >> i & 1)
                       for s in states.tolist()]}


# For the page of mdp report: the round rule in JavaScript, one round state at a time.


@mdp.hookimpl
def mdp_round_ends_script():
    return """function (filled, ends) {
      var boxes = ["FACE", "EVEN"];
      return {
        next: ends.map(function (end) {
          var bit = 1 << boxes.indexOf(end[1]);
          return filled & bit ? -1 : filled | bit;
        }),
        points: ends.map(function (end) {
          var face = end[2];
          return end[1] === "FACE" ? face : face % 2 === 0 ? 2 * face : 0;
        })
      };
    }"""
