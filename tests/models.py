"""Small models whose answers are derived by hand in the tests that use them.

Each is a class whose methods are hook implementations; ``mdp.load_game(Model())`` loads it.
The game of rounds, two_boxes, is loaded by its function, with hooks changed as asked.
"""

from fractions import Fraction
from types import SimpleNamespace

import numpy as np

import mdp

HALF, THIRD = Fraction(1, 2), Fraction(1, 3)


class StartBatch:
    """The start of a batch game of two stages: state 0 first, alone in the upper stage,
    the states it leads to below it; a subclass gives mdp_expand (and its columns)."""

    @mdp.hookimpl
    def mdp_initial_state(self):
        return 0

    @mdp.hookimpl
    def mdp_stage(self, states):
        return (np.asarray(states) == 0).astype(np.int64)


class Table:
    """A model given as a table: ``{state: {action: [(probability, next_state)]}}``.

    States missing from the table are terminal, worth ``values[state]``.
    """

    GAME_NAME = "table"

    def __init__(self, transitions, values, initial="start"):
        self.transitions, self.values, self.initial = transitions, values, initial

    @mdp.hookimpl
    def mdp_initial_state(self, params):
        return self.initial

    @mdp.hookimpl
    def mdp_actions(self, params, state):
        return list(self.transitions.get(state, {}))

    @mdp.hookimpl
    def mdp_outcomes(self, params, state, action):
        return self.transitions[state][action]

    @mdp.hookimpl
    def mdp_terminal_value(self, params, state):
        return self.values[state]


def coin():
    """Bet on a fair coin (win 1 or nothing) or walk away with 1/3.

    Maximizing: betting is worth 1/2 > 1/3. Minimizing: walking away, 1/3.
    """
    return Table(
        {"start": {"bet": [(HALF, "won"), (HALF, "lost")], "walk": [(1, "walked")]}},
        {"won": 1, "lost": 0, "walked": THIRD},
    )


def chain(length, end_value=7):
    """``length`` forced steps down to 0, worth ``end_value``: every state is worth it."""
    return Table({n: {"step": [(1, n - 1)]} for n in range(1, length + 1)}, {0: end_value},
                 initial=length)


def gamble():
    """Two rounds. In ``start``: ``risky`` wins 1 with 1/3, else goes on to ``again``;
    ``safe`` is 3/5 for sure. In ``again``: ``flip`` wins 1 with 1/2; ``settle`` gives 1/4.

    By hand: V(again) = max(1/2, 1/4) = 1/2; Q(start, risky) = 1/3 + 2/3 * 1/2 = 2/3;
    Q(start, safe) = 3/5; V(start) = 2/3 with ``risky``.
    """
    return Table(
        {
            "start": {"risky": [(THIRD, "win"), (2 * THIRD, "again")], "safe": [(1, "three fifths")]},
            "again": {"flip": [(HALF, "win"), (HALF, "lose")], "settle": [(1, "quarter")]},
        },
        {"win": 1, "lose": 0, "three fifths": Fraction(3, 5), "quarter": Fraction(1, 4)},
    )


def ties():
    """``left`` and ``right`` both lead to a value of 1/2 by different routes; ``worse`` to 0.

    ``left``: a fair coin between 1 and 0. ``right``: 1/2 for sure. Both are optimal.
    """
    return Table(
        {"start": {
            "left": [(HALF, "one"), (HALF, "zero")],
            "right": [(1, "half")],
            "worse": [(1, "zero")],
        }},
        {"one": 1, "zero": 0, "half": HALF},
    )


class Ladder:
    """A walk home along positions n, n-1, .., 0, described by batch hooks and per-state hooks.

    From position n, ``walk`` reaches n-1 with 5/6 and busts with 1/6; ``jump`` (n >= 2)
    reaches n-2 with 3/4 and busts with 1/4. Home is worth 1, a bust 0. By hand:
    V(1) = 5/6; V(2) = max(5/6 * 5/6, 3/4) = 3/4 (jump); V(3) = max(5/6 * 3/4, 3/4 * 5/6)
    = 5/8, a tie; V(4) = max(5/6 * 5/8, 3/4 * 3/4) = 9/16 (jump).

    Keys: position n is ``2 * n`` (home is 0), a bust is 1; the stage is the position.
    """

    GAME_NAME = "ladder"
    WALK, JUMP = 0, 1
    BUST = 1

    def __init__(self, start=4):
        self.start = start

    @mdp.hookimpl
    def mdp_initial_state(self):
        return 2 * self.start

    def moves(self, key):
        n = key // 2
        if key in (0, self.BUST):
            return []
        walk = (self.WALK, [(Fraction(5, 6), 2 * (n - 1)), (Fraction(1, 6), self.BUST)])
        jump = (self.JUMP, [(Fraction(3, 4), 2 * (n - 2)), (Fraction(1, 4), self.BUST)])
        return [walk, jump] if n >= 2 else [walk]

    # Per-state hooks.
    @mdp.hookimpl
    def mdp_actions(self, state):
        return [code for code, _ in self.moves(state)]

    @mdp.hookimpl
    def mdp_outcomes(self, state, action):
        return dict(self.moves(state))[action]

    @mdp.hookimpl
    def mdp_terminal_value(self, state):
        return 1 if state == 0 else 0

    # Batch hooks.
    @mdp.hookimpl
    def mdp_stage(self, states):
        return np.asarray(states) // 2

    @mdp.hookimpl
    def mdp_expand(self, states):
        table = (Fraction(5, 6), Fraction(1, 6), Fraction(3, 4), Fraction(1, 4))
        index = {p: i for i, p in enumerate(table)}
        counts, codes, outcome_counts, nexts, probs, terminal = [], [], [], [], [], []
        for key in states.tolist():
            moves = self.moves(key)
            counts.append(len(moves))
            if not moves:
                terminal.append(1 if key == 0 else 0)
            for code, outcomes in moves:
                codes.append(code)
                outcome_counts.append(len(outcomes))
                nexts += [nxt for _, nxt in outcomes]
                probs += [index[p] for p, _ in outcomes]
        return mdp.Expansion(np.array(counts), np.array(codes, dtype=np.int64),
                             np.array(outcome_counts), np.array(nexts, dtype=np.int64),
                             np.array(probs, dtype=np.int64), table, np.array(terminal))


def two_boxes_ends(ends, states, by=0):
    """The round rule of :func:`two_boxes`: from each round state of ``states``, each end's
    next round state (its box filled, -1 where it is filled already) and points, each
    ``by`` more (then as Python integers, of any size)."""
    box = np.array([0 if end[1] == "A" else 1 for end in ends])
    face = np.array([end[2] for end in ends])
    points = np.where(box == 0, face, np.where(face % 2 == 0, 2 * face, 0))
    filled = states[:, None]
    open_ = (filled >> box) & 1 == 0
    points = np.array([[int(p) + by for p in points]] * len(states), dtype=object) if by \
        else np.broadcast_to(points, open_.shape)
    return mdp.RoundEnds(np.where(open_, filled | (1 << box), -1), points)


def two_boxes(**changes):
    """Two rounds. Each round a die is thrown once, then scored in an open box: box A scores
    the face, box B twice the face if it is even, else nothing. The round state is the boxes
    filled (bit 0: A, bit 1: B); the round's ends are ``(box, face)``."""

    @mdp.hookimpl
    def mdp_initial_state():
        return ("throw",)

    @mdp.hookimpl
    def mdp_actions(state):
        if state[0] == "throw":
            return ["throw"]
        if state[0] == "face":
            return ["A", "B"]
        return []

    @mdp.hookimpl
    def mdp_outcomes(state, action):
        if state[0] == "throw":
            return [(Fraction(1, 6), ("face", f)) for f in range(1, 7)]
        return [(1, ("end", action, state[1]))]

    @mdp.hookimpl
    def mdp_terminal_value(state):
        return 0

    @mdp.hookimpl
    def mdp_round_start():
        return 0

    @mdp.hookimpl
    def mdp_round_rule(ends):
        return lambda states: two_boxes_ends(ends, states)

    hooks = dict(mdp_initial_state=mdp_initial_state, mdp_actions=mdp_actions,
                 mdp_outcomes=mdp_outcomes, mdp_terminal_value=mdp_terminal_value,
                 mdp_round_start=mdp_round_start, mdp_round_rule=mdp_round_rule)
    hooks.update(changes)
    return mdp.load_game(SimpleNamespace(GAME_NAME="two-boxes", **hooks))


# By hand. With B left, the last round is worth E[2f, f even] = (4 + 8 + 12) / 6 = 4; with
# A left, 7/2. In the first round, a face f is worth max(f + 4, 2f [f even] + 7/2):
# 5, 15/2, 7, 23/2, 9, 31/2 for f = 1..6, whose mean is 37/4.
TWO_BOXES = Fraction(37, 4)


ENDLESS = '''
import mdp


@mdp.hookimpl
def mdp_initial_state():
    return 0


@mdp.hookimpl
def mdp_actions(state):
    return ["on"]


@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(1, state + 1)]
'''
"""The source of a game file whose every state leads to a new one: it never ends
(tests/engine/test_endless.py, test_unbounded.py)."""


class KeptDie:
    """Roll a three-sided die, then keep it or roll once more; the terminal value is the face
    kept (the hooks of one model; a match's tests add their outcome column and rules)."""

    GAME_NAME = "die"

    @mdp.hookimpl
    def mdp_initial_state(self):
        return (2, None)

    @mdp.hookimpl
    def mdp_actions(self, state):
        left, face = state
        return ["roll"] if face is None else ["keep", "roll"] if left else []

    @mdp.hookimpl
    def mdp_outcomes(self, state, action):
        left, face = state
        if action == "keep":
            return [(1, (0, face))]
        return [(Fraction(1, 3), (left - 1, f)) for f in (1, 2, 3)]

    @mdp.hookimpl
    def mdp_terminal_value(self, state):
        return state[1]


COIN_ROUNDS = '''
from fractions import Fraction
import numpy as np
import mdp

@mdp.hookimpl
def mdp_initial_state():
    return "start"

@mdp.hookimpl
def mdp_actions(state):
    return ["flip"] if state == "start" else []

@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(Fraction({heads}), "heads"), (1 - Fraction({heads}), "tails")]

@mdp.hookimpl
def mdp_terminal_value(state):
    return 0

@mdp.hookimpl
def mdp_round_start():
    return 0

@mdp.hookimpl
def mdp_round_rule(ends):
    points = [{up!r} if e == "heads" else {down!r} for e in ends]
    def rule(states):
        n = len(states)
        nxt = np.where(states[:, None] < {rounds} - 1, states[:, None] + 1, -1) \\
            * np.ones((n, len(ends)), dtype=np.int64)
        p = np.empty((n, len(ends)), dtype=object)
        p[:] = points
        return mdp.RoundEnds(nxt.astype(np.int64), p)
    return rule
'''
"""The source of a game of ``rounds`` rounds of one coin (heads at chance ``heads``, written
as Python), heads earning ``up`` points and tails ``down`` (as ``repr`` writes them), filled
in with ``str.format`` (tests/program/test_cli_huge_numbers.py, test_cli_whole_totals.py)."""


# Walk away with WORTH, or stay for nothing: the game's value is WORTH, by hand (at least 0).
WALK = '''
import mdp

GAME_NAME = "walk"

@mdp.hookimpl
def mdp_initial_state():
    return "start"

@mdp.hookimpl
def mdp_actions(state):
    return ["walk", "stay"] if state == "start" else []

@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(1, action)]

@mdp.hookimpl
def mdp_terminal_value(state):
    return {"walk": WORTH, "stay": 0}[state]
'''

# A rule plugin that adds BONUS to the worth of walking away.
WALK_BONUS = '''
from fractions import Fraction
import mdp

@mdp.hookimpl(hookwrapper=True)
def mdp_terminal_value(state):
    outcome = yield
    if state == "walk":
        outcome.force_result(outcome.get_result() + BONUS)
'''


def walk_value(game, plugins=()):
    """The exact value of the game at path ``game`` (:data:`WALK`, say) with rule plugins at
    ``plugins``, each loaded by its path."""
    return mdp.solve(mdp.compile(mdp.load_game(str(game), plugins=list(plugins))), exact=True).value
