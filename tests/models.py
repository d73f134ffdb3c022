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



class HandedOver(Table):
    """A :class:`Table` of two players taking turns, worth the chance of winning: a move to
    state ``"s"`` hands it to the other player."""

    @mdp.hookimpl
    def mdp_objective(self):
        return mdp.Objective("chance of winning", "max", True)

    @mdp.hookimpl
    def mdp_turns(self):
        return mdp.Turns(lambda states, nexts: [n == "s" for n in nexts], total=1)


class Sensed(Table):
    """A :class:`Table` from state 0 whose value is maximized or minimized (``sense``)."""

    def __init__(self, transitions, values, sense):
        super().__init__(transitions, values, initial=0)
        self.sense = sense

    @mdp.hookimpl
    def mdp_objective(self):
        return mdp.Objective("value", self.sense)


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


# A fair coin of 1 or 0 against a sure 2/5, as a game's file (coin.py): 1/2 by hand.
COIN = '''from fractions import Fraction
import mdp


@mdp.hookimpl
def mdp_initial_state(params):
    return "start"


@mdp.hookimpl
def mdp_actions(params, state):
    return ["a", "b"] if state == "start" else []


@mdp.hookimpl
def mdp_outcomes(params, state, action):
    return {"a": [(Fraction(1, 2), "win"), (Fraction(1, 2), "lose")], "b": [(1, "mid")]}[action]


@mdp.hookimpl
def mdp_terminal_value(params, state):
    return {"win": 1, "lose": 0, "mid": Fraction(2, 5)}[state]
'''

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


_NAMED = object()


def keyed_states(shown=_NAMED, name="Keyed"):
    """A class of states ``name(k)``, equal and hashed by their field ``k`` (which a game can
    change), whose ``__repr__`` is ``name(k)``, or else returns ``shown`` (any object), or
    raises it where it is an exception (tests/engine/test_equal_states.py, test_same_repr_faults.py)."""

    class Keyed:
        def __init__(self, k):
            self.k = k

        def __eq__(self, other):
            return isinstance(other, Keyed) and other.k == self.k

        def __hash__(self):
            return hash(self.k)

        def __repr__(self):
            if shown is _NAMED:
                return f"{name}({self.k})"
            if isinstance(shown, BaseException):
                raise shown
            return shown

    Keyed.__name__ = Keyed.__qualname__ = name
    return Keyed


def go_or_stay(param, worth, touch=None, variants=()):
    """The game of one parameter ``param`` (an mdp.Param): ``go`` wins ``worth(params)`` with
    chance 1/2, else 0; ``stay`` gets 1: worth max(worth/2, 1), by hand. ``touch(params, hook)``,
    where given, is called by each hook with its name first (tests/game/test_params_left_alone.py,
    test_parser_asked_again.py); :data:`GO_OR_STAY` is its source, for the command line."""

    def touched(params, hook):
        if touch is not None:
            touch(params, hook)

    def initial_state(params):
        touched(params, "mdp_initial_state")
        return 0

    def actions(params, state):
        touched(params, "mdp_actions")
        return ["go", "stay"] if state == 0 else []

    def outcomes(params, state, action):
        touched(params, "mdp_outcomes")
        return [(HALF, 1), (HALF, 2)] if action == "go" else [(1, 3)]

    def terminal_value(params, state):
        touched(params, "mdp_terminal_value")
        return {1: worth(params), 2: 0, 3: 1}[state]

    return SimpleNamespace(
        GAME_NAME="par",
        mdp_params=mdp.hookimpl(lambda: [param]),
        mdp_variants=mdp.hookimpl(lambda: list(variants)),
        mdp_initial_state=mdp.hookimpl(initial_state), mdp_actions=mdp.hookimpl(actions),
        mdp_outcomes=mdp.hookimpl(outcomes), mdp_terminal_value=mdp.hookimpl(terminal_value))


GO_OR_STAY = '''
import mdp
from fractions import Fraction

PARSE

@mdp.hookimpl
def mdp_params():
    return [mdp.Param("pay", DEFAULT, parse, "the prize"SHOW)]

@mdp.hookimpl
def mdp_initial_state():
    return 0

@mdp.hookimpl
def mdp_actions(params, state):
    ACT
    return ["go", "stay"] if state == 0 else []

@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(Fraction(1, 2), 1), (Fraction(1, 2), 2)] if action == "go" else [(1, 3)]

@mdp.hookimpl
def mdp_terminal_value(params, state):
    return {1: WORTH, 2: 0, 3: 1}[state]
'''
"""The source of :func:`go_or_stay`'s game, its parameter pay's parser (a function ``parse``,
written in place of PARSE), DEFAULT, SHOW (``, show=...`` or nothing), what ``mdp_actions``
does first (ACT: ``pass``, or a change of the parameters) and WORTH (of ``params["pay"]``)
written in with str.replace."""


# Cases of games that each change what they must leave as they found it, run by mdp one after
# the other in one process of its own (its imports paid once, the process's end seen once).
CHANGES_RUN = '''
import importlib, json, os, sys
from mdp.program import main

argv, changes, restore = json.loads(sys.argv[1])
kept = []
for dotted in restore:  # classes whose methods a game replaces, put back between the cases
    module, _, name = dotted.rpartition(".")
    cls = getattr(importlib.import_module(module), name)
    kept.append((cls, dict(vars(cls))))
source = open("game.py").read()
results = []
for number, change in enumerate(changes):
    folder = f"case{number}"
    os.mkdir(folder)
    with open(os.path.join(folder, "game.py"), "w") as file:
        file.write(source.replace("CHANGE", change))
    os.chdir(folder)
    print(f"case {number}", file=sys.stderr, flush=True)
    code = main(argv)
    results.append([code, sorted(os.listdir("."))])
    os.chdir("..")
    for cls, members in kept:
        for name, member in members.items():
            if vars(cls).get(name) is not member:
                setattr(cls, name, member)
print(json.dumps(results), file=sys.stderr)
'''


def refused_as_a_change(code, names, err, said):
    """The command of :data:`WALK`'s game that made a change of the process ended refused:
    exit 2, its last line blaming the game in words that hold ``said``, no file but the game."""
    assert code == 2, err
    line = err.splitlines()[-1]
    assert line.startswith("mdp: error: game walk ") and said in line, err
    assert "must leave the process as it found it" in line
    assert names == ["game.py"]


def run_changes(folder, game, changes, argv, restore=()):
    """Run mdp ``argv`` (which names ``game.py``) on ``game`` with CHANGE replaced by each of
    ``changes`` in turn, each in a folder of its own, in one process: for each change, its
    exit code, the names in its folder, and what it wrote on standard error; and what the
    process wrote on standard output, its end included. ``restore`` names the classes (as
    ``fractions.Fraction``) whose methods are put back between the cases."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    Path(folder, "game.py").write_text(game)
    done = subprocess.run([sys.executable, "-c", CHANGES_RUN,
                           json.dumps([argv, list(changes), list(restore)])],
                          cwd=folder, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    *said, results = done.stderr.splitlines()
    errors, case = [], None
    for line in said:
        if line.startswith("case "):
            case = []
            errors.append(case)
        else:
            assert case is not None, done.stderr
            case.append(line)
    return [(code, names, "\n".join(err)) for (code, names), err in
            zip(json.loads(results), errors, strict=True)], done.stdout


DECLARES = '''import mdp

GAME_NAME = {name!r}


@mdp.hookimpl
def mdp_params():
    return [{declared}]


@mdp.hookimpl
def mdp_initial_state():
    return 0


@mdp.hookimpl
def mdp_actions(state):
    return []


@mdp.hookimpl
def mdp_terminal_value(state):
    return 1
'''
"""The source of a game of one state, worth 1, named ``name``, that declares the parameters
``declared`` (the text of a list's items): for the tests of what a game declares, written to
a file, so that what its declarations do wrong is said as the game's."""


ONE_MOVE = '''import mdp
{imports}
GAME_NAME = {name!r}


@mdp.hookimpl
def mdp_initial_state():
    return "start"


@mdp.hookimpl
def mdp_actions(state):
    return ["stop"] if state == "start" else []


@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(1, "end")]


@mdp.hookimpl
def mdp_terminal_value(state):
    return {value}
'''
"""The source of a game of one move, from "start" to "end", worth ``value`` (an expression),
named ``name``, with the lines ``imports`` before it."""
