"""Small models whose answers are derived by hand in the tests that use them.

Each is a class whose methods are hook implementations; ``mdp.load_game(Model())`` loads it.
"""

from fractions import Fraction

import mdp

HALF, THIRD = Fraction(1, 2), Fraction(1, 3)


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
