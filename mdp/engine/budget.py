"""The bounds on discovering a game: the state limit, the memory budget, and the watch on a
walk whose paths keep growing deeper (a game with no end). One place for both ways of
discovering, and progress on a terminal."""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Callable
from typing import Any

from mdp.engine.memory import resident
from mdp.errors import TooLarge, UnboundedWarning
from mdp.game.load import Game
from mdp.limits import DEFAULT_MAX_STATES

WALK_BYTES = (400, 250)
"""Memory a walk takes, per state and per outcome, until compiled: Python objects (measured:
about 1.4 kB for a state with two actions of two outcomes each). A walk also counts what the
process holds beyond what it held when the walk began, where that is more: a game's states
may be large objects."""
STAGE_BYTES = (38, 1)
"""Memory the batch way takes, per state and per outcome, up to the solved model (measured,
whole process, on the benchmark's large cases: 986 MB for 23 million states and 118
million outcomes, 3.8 GB for 92 million states and 482 million outcomes, 13.9 GB for 369
million states and about 1.9 billion outcomes; these figures estimate 1.0 GB, 4.0 GB and
16 GB)."""

ENDLESS_AFTER = 5.0
"""Seconds of discovery after which a game that still goes deeper may have no end: under
the default state limit it is refused then (:class:`mdp.TooLarge`), else it would run for
minutes until the limit; under a limit the caller set it is warned of, once
(:class:`UnboundedWarning`), and walked on to that limit."""


class Budget:
    """The state limit and the memory budget, and progress on a terminal. ``costs`` is the
    bytes per state and per outcome of the way used; ``measured``: the memory the process
    gained since the start counts too, where it is more than the estimate (a walk)."""

    def __init__(self, game: Game, max_states: int | None, max_memory: int | None,
                 costs: tuple[int, int], progress: Callable[[str], None] | None,
                 measured: bool = False, shown: tuple[list[Any], Any] | None = None):
        self.game, self.max_states, self.max_memory = game, max_states, max_memory
        self.costs, self.progress = costs, progress
        self.count = self.outcomes = 0
        # How warnings are shown as the work starts: the game's code, run since, may have
        # changed them (a filter of "error" or "ignore"); mdp's own warning is not its to hide.
        self.warnings = shown or (list(warnings.filters), warnings.showwarning)
        self.base = resident() if measured and max_memory is not None else None
        self.measure_at = self.measure_outcomes = 0

    MEASURE_EVERY = 1024
    """States walked between two readings of the memory the process holds; outcomes, 64
    times as many (a state of 3,000 actions is 3,000 hook calls, its states maybe large)."""

    def check(self, states: int, outcomes: int = 0, measure: bool = False,
              estimated: bool = False) -> None:
        """Refuse, with one line saying how to raise the limit, if this many states and
        outcomes would pass the state limit or the memory budget; ``measure``: read what
        the process holds now (else every :data:`MEASURE_EVERY` states). ``estimated``: the
        states are the game's own count (:func:`~mdp.hookspecs.game.mdp_estimate_states`),
        none yet explored, and the line says so: a count too high would be the hook's."""
        counted = (f"at least {_number(states)} states by its estimate (mdp_estimate_states)"
                   if estimated else f"{states:,} states so far")
        if self.max_states is not None and states > self.max_states:
            raise TooLarge(f"game {self.game.name}: " + (
                f"{counted}, over the limit of {self.max_states:,}; raise it" if estimated else
                f"more than {self.max_states:,} states; raise the limit") +
                " with --max-states (max_states= in Python)")
        if self.max_memory is None:
            return
        need = states * self.costs[0] + outcomes * self.costs[1]
        if self.base is not None and (measure or states >= self.measure_at
                                      or outcomes >= self.measure_outcomes):
            self.measure_at = states + self.MEASURE_EVERY
            self.measure_outcomes = outcomes + 64 * self.MEASURE_EVERY
            need = max(need, resident() - self.base)
        if need > self.max_memory:
            raise TooLarge(f"game {self.game.name}: the model would need more than {size(need)} "
                           f"of memory ({counted}), past the budget of "
                           f"{size(self.max_memory)}; raise it with --max-memory (max_memory= "
                           "in Python)")

    def take(self, states: int, outcomes: int = 0, note: str = "") -> None:
        """Count ``states`` and ``outcomes`` more; ``note`` says where (a stage), and shows
        progress at once."""
        before = self.count
        self.count, self.outcomes = self.count + states, self.outcomes + outcomes
        self.check(self.count, self.outcomes)
        if self.progress and (note or before // 50_000 != self.count // 50_000):
            self.progress(f"explored {self.count:,} states{note}")

    def endless(self, states: int, how_deep: str, stacklevel: int) -> None:
        """A game still goes deeper after :data:`ENDLESS_AFTER` seconds (``how_deep`` says
        how): refuse it under the default state limit, else warn, once (``stacklevel``: at
        the caller of :func:`mdp.compile`)."""
        said = (f"game {self.game.name}: {states:,} states so far, {how_deep}: the game may "
                "have no end; make every path end (a cap on a score, a limit on turns)")
        if self.max_states == DEFAULT_MAX_STATES:
            raise TooLarge(f"{said}, or if it has one, let it go on with --max-states N "
                           "(max_states= in Python)")
        with warnings.catch_warnings():
            warnings.filters[:], warnings.showwarning = self.warnings  # type: ignore[index]
            warnings.warn(UnboundedWarning(
                f"{said}, or stop sooner with --max-states N (max_states= in Python)"),
                stacklevel=stacklevel)


class Deepening:
    """Watches how deep a walk's paths go: every :data:`ENDLESS_AFTER` / 2 seconds (looked at
    every 1,024 states, or 65,536 outcomes: states of thousands of actions) it notes the
    deepest path so far, and tells the budget once if that grew since the last look once
    :data:`ENDLESS_AFTER` seconds have passed. A game with an end on every path reaches its
    depth within its first descent and then stops deepening."""

    EVERY = 1024

    def __init__(self, budget: Budget) -> None:
        self.budget, self.start = budget, time.perf_counter()
        self.last: int | None = None  # the depth at the last look
        self.next = self.start + ENDLESS_AFTER / 2

    def look(self, states: int, depth: int) -> None:
        now = time.perf_counter()
        if now < self.next:
            return
        self.next = now + ENDLESS_AFTER / 2
        if self.last is not None and depth > self.last and now - self.start >= ENDLESS_AFTER:
            self.next = float("inf")
            # At the caller of mdp.compile: endless, look, discover, walk, compile.
            self.budget.endless(states, f"on paths {depth - 1:,} moves deep and growing", 6)
        self.last = depth


ENDLESS_STAGES = 10_000
"""Stages of a batch game past which, once :data:`ENDLESS_AFTER` seconds have passed, it may
have no end: a stage is a move or a throw (Shut the Box has a few dozen)."""


class Lengthening:
    """Watches how many stages a batch game has gone through: past :data:`ENDLESS_STAGES`,
    once :data:`ENDLESS_AFTER` seconds have passed, it tells the budget, once."""

    def __init__(self, budget: Budget) -> None:
        self.budget, self.start, self.told = budget, time.perf_counter(), False

    def look(self, states: int, stages: int) -> None:
        if stages >= ENDLESS_STAGES and not self.told and \
                time.perf_counter() - self.start >= ENDLESS_AFTER:
            self.told = True
            # At the caller of mdp.compile: endless, look, the stages (or the closure's
            # rounds), the compile's intake (or the closure), compile.
            self.budget.endless(states, f"in {stages:,} stages and more to come", 6)


def size(n: float) -> str:
    """Bytes for people: ``1.5 GB``, ``300 MB``."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.3g} {unit}"
    return f"{int(n)} bytes"


def _number(count: int) -> str:
    """A count with commas; one of 25 digits or more (a game's estimate may be anything) by
    its first three digits and its power of ten, ``1.23e+400``: a float could not hold it,
    nor Python write all its digits."""
    if count < 10**24:
        return f"{count:,}"
    power = int(math.log10(count))  # near a power of ten, maybe one off: put right
    power += (10 ** (power + 1) <= count) - (10**power > count)
    lead = count // 10 ** (power - 2)
    return f"{lead // 100}.{lead % 100:02d}e+{power}"
