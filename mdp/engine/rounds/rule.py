"""The round rule of a game of rounds: how a round ends from each round state, asked of the
game once, at compile (:func:`~mdp.hookspecs.game.mdp_round_rule`), and checked wherever
what it gives enters the engine."""

from __future__ import annotations

import math
import numbers
import threading
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import attrs
import numpy as np

from mdp.engine.cluster import listen, report, sent
from mdp.engine.numeric import fault as not_number
from mdp.engine.numeric import first_past_float, numbers_array, plain_numbers, quoted
from mdp.engine.rounds.prints import row_prints
from mdp.errors import PLUGIN_FAULTS, ModelError, fault, passed_on
from mdp.game.plugins import layers
from mdp.handed import read_only

DENSE = 1 << 24
"""Round states whose keys are all below this many are found, and their values looked up, in
tables indexed by the key itself (a byte, or a float, a key): far quicker than sorting."""

INT64 = 1 << 49
"""Points below this size (in magnitude) are kept as 64-bit integers: totals of them over
:data:`~mdp.limits.MAX_ROUNDS` rounds stay within 64 bits. Larger ones are Python numbers."""


@attrs.frozen(eq=False)
class RoundEnds:
    """How rounds end (what the function of :func:`~mdp.hookspecs.game.mdp_round_rule`
    returns): one row per round state asked about, one column per end of the round (the
    round model's terminal states, in its order).

    ``next`` is the key of the round state that follows (an integer array, a key of at
    least 0), or ``-1`` where that end cannot close a round from that state; ``points`` is
    what the end earns there: numbers (``int``, numpy integers and
    :class:`~fractions.Fraction` objects keep exact solving exact; floats are solved in
    floats). A row of ``-1`` only marks a round state that ends the game.
    """

    next: np.ndarray
    points: Any

    def rows(self, which: np.ndarray) -> RoundEnds:
        """The ends of some of the round states only (``which``: positions or a mask)."""
        return RoundEnds(self.next[which], self.points[which])

    @property
    def over(self) -> np.ndarray:
        """Whether each round state ends the game (no end allowed)."""
        return self.next.max(axis=1, initial=-1) < 0


class Fingerprints:
    """The fingerprint first given for each round state: in a table indexed by the key
    where keys are below :data:`DENSE` (a whole batch is looked up
    at once), else in a dict."""

    def __init__(self) -> None:
        self.table = np.zeros(0, dtype=np.uint64)
        self.known = np.zeros(0, dtype=bool)
        self.large: dict[int, int] = {}
        self.lock = threading.Lock()

    def __getstate__(self) -> dict[str, Any]:
        """Sent to another process (a cluster's worker) empty: it remembers what it is given
        there, and a lock is not sent."""
        return {}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__()  # type: ignore[misc]

    def check(self, keys: np.ndarray, prints: np.ndarray, again: Callable[[np.ndarray], np.ndarray],
              impure: Callable[[int, str], ModelError]) -> None:
        """Refuse a function of round states that is not pure, given the fingerprints
        ``prints`` of its answer for ``keys`` (one a row): ``impure(key, when)`` where a round
        state had another answer before, or where its answer depends on the others asked
        with it (their number, the first of them, a total over them, their order). For the
        latter the first, the middle and the last round state of a batch with a round state
        new here are asked again, each alone (a batch of one: that state twice), by
        ``again(rows)`` (the fingerprints of the answer for ``keys[rows]``): done where a round
        state is first asked about, so that every command gives the same verdict, whether it
        asks round states a batch or one at a time; three small calls a batch."""
        key, new = self.changed(keys, prints)
        if key is not None:
            raise impure(key, "")
        if not new:
            return
        n = len(keys)
        for rows in ([np.zeros(2, dtype=np.int64)] if n == 1 else
                     [np.full(1, at) for at in sorted({0, n // 2, n - 1})]):
            differ = np.flatnonzero(again(rows) != prints[rows])
            if len(differ):
                asked = "twice in one batch" if n == 1 else "alone"
                raise impure(int(keys[rows[differ[0]]]), f" (asked {asked}, after a batch of {n})")

    def asked(self) -> tuple[np.ndarray, np.ndarray]:
        """Every round state remembered, in order, and its fingerprint: what a cluster's
        worker sends back of a batch (:meth:`RoundRule._heard`)."""
        with self.lock:
            small, large = np.flatnonzero(self.known), sorted(self.large)
            return (np.concatenate([small, np.array(large, dtype=np.int64)]).astype(np.int64),
                    np.concatenate([self.table[small], np.array([self.large[k] for k in large],
                                                                dtype=np.uint64)]))

    def changed(self, keys: np.ndarray, prints: np.ndarray) -> tuple[int | None, bool]:
        """Remember the fingerprints ``prints`` of the round states ``keys``: the first of
        them that had another one before (or ``None``), and whether any was new. Batches
        solved side by side ask at once: one at a time here."""
        with self.lock:
            return self._changed(keys, prints)

    def _changed(self, keys: np.ndarray, prints: np.ndarray) -> tuple[int | None, bool]:
        small = (keys >= 0) & (keys < DENSE)
        new = False
        if not small.all():
            for key, mark in zip(keys[~small].tolist(), prints[~small].tolist()):
                if key not in self.large:
                    self.large[key], new = mark, True
                elif self.large[key] != mark:
                    return int(key), new
            keys, prints = keys[small], prints[small]
        if not len(keys):
            return None, new
        top = int(keys.max()) + 1
        if top > len(self.table):  # grown by doubling: a few copies over a whole solve
            size = min(DENSE, max(top, 2 * len(self.table)))
            self.table = np.concatenate([self.table, np.zeros(size - len(self.table), np.uint64)])
            self.known = np.concatenate([self.known, np.zeros(size - len(self.known), bool)])
        seen = self.known[keys]
        differ = np.flatnonzero(seen & (self.table[keys] != prints))
        if len(differ):
            return int(keys[differ[0]]), new
        fresh = keys[~seen]
        self.table[fresh] = prints[~seen]
        self.known[fresh] = True
        # One key twice in this batch, with two fingerprints: the later one was stored.
        twice = np.flatnonzero(self.table[keys] != prints)
        return (int(keys[twice[0]]) if len(twice) else None), new or len(fresh) > 0


@attrs.frozen(eq=False)
class RoundRule:
    """The game's round rule, checked: called with round states (an ``int64`` array), it
    gives their :class:`RoundEnds`, ``next`` as ``int64`` and ``points`` as ``int64``,
    ``float64`` or, for fractions and integers past 64 bits, Python numbers in an object
    array. The game is no longer needed: the rule is a function of the round states."""

    game: str
    """The game's name, for messages."""
    ends: tuple[Any, ...] = attrs.field(repr=False)
    """The round's ends (its terminal states), as the game writes them."""
    given: Callable[[np.ndarray], Any] = attrs.field(repr=False)
    layers: tuple[tuple[str | None, Callable[[np.ndarray], Any]], ...] = attrs.field(default=(), repr=False)
    """Where rule plugins wrap the game's rule: the function given by each implementation
    with those before it alone, innermost first, named by its plugin (``None``: the game's
    own), to tell whose made an answer wrong (:meth:`whose`)."""
    prints: Fingerprints = attrs.field(factory=lambda: Fingerprints(), init=False, repr=False)
    """A fingerprint of the answer for each round state asked about: asked again (the
    compile, the solve, a distribution each ask), the answer must be the same."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Sent to a cluster's workers with the game's function pickled once, here: one that
        cannot be (it holds a lock) is named in one line; its fingerprints start afresh there."""
        what = f"game {self.game}: mdp_round_rule's function"
        listen(id(self), self._heard)
        return _on_worker, (id(self), self.game, self.ends, sent(self.given, what),
                            tuple((name, sent(layer, what)) for name, layer in self.layers))

    def _heard(self, report: tuple[np.ndarray, np.ndarray]) -> None:
        """The round states a cluster's worker asked of the rule for a batch and its answers'
        fingerprints (:meth:`Fingerprints.asked`), checked here: the first, the middle and the
        last asked again in this process, then each kept as an answer given, so that an answer
        that depends on where the rule runs (an environment variable, a file read by a relative
        path, the machine) is refused, not another game solved."""
        keys, prints = report
        if not len(keys):
            return
        rows = np.array(sorted({0, len(keys) // 2, len(keys) - 1}), dtype=np.int64)
        differ = np.flatnonzero(_fingerprints(self._checked(keys[rows])) != prints[rows])
        if len(differ):
            raise ModelError(f"game {self.game}: mdp_round_rule's function gave round state "
                             f"{int(keys[rows[differ[0]]])} other ends on the cluster's workers "
                             "than in this process; it must be a pure function of the round "
                             "states, the same wherever it runs (not of an environment "
                             "variable, a file or the machine)")
        key, _ = self.prints.changed(keys, prints)
        if key is not None:
            raise self._impure(key, " (asked on the cluster's workers)")

    def __call__(self, states: np.ndarray) -> RoundEnds:
        states = np.asarray(states, dtype=np.int64)
        ends = self._checked(states)
        self.prints.check(states, _fingerprints(ends),
                          lambda rows: _fingerprints(self._checked(states[rows])), self._impure)
        return ends

    def _impure(self, key: int, when: str) -> ModelError:
        return ModelError(f"game {self.game}: mdp_round_rule's function gave round state {key} "
                          f"other ends than it gave before{when}; it must be a pure function "
                          "of the round states (the same answer each time, whatever other "
                          "round states are asked with it)")

    def whose(self, states: np.ndarray, wrong: Callable[[RoundEnds], bool]) -> str:
        """``plugin P's `` where the rule plugin P's implementation made the answer for
        ``states`` wrong (``wrong`` of it true, or a fault found in it), else ``""``, the
        game's own: each of :attr:`layers` asked in turn."""
        for name, layer in self.layers:
            try:
                bad = wrong(self._checked(states, layer))
            except PLUGIN_FAULTS:
                bad = True
            if bad:
                return f"plugin {name}'s " if name else ""
        return ""

    def _checked(self, states: np.ndarray, layer: Callable[[np.ndarray], Any] | None = None) -> RoundEnds:
        """The answer for ``states`` checked (of one of :attr:`layers`, or the whole rule,
        whose fault is laid at the plugin that made it)."""
        if layer is not None:
            return self._answer(states, layer)
        try:
            return self._answer(states, self.given)
        except ModelError as error:
            whose = self.whose(states, lambda ends: False)
            if not whose:
                raise
            raise ModelError(str(error).replace(f"game {self.game}: ", f"game {self.game}: {whose}",
                                                1)) from error.__cause__

    def _answer(self, states: np.ndarray, given: Callable[[np.ndarray], Any]) -> RoundEnds:
        where = f"game {self.game}: mdp_round_rule"
        try:
            answer = given(read_only(states))
        except PLUGIN_FAULTS as error:
            if passed_on(error, f"game {self.game}"):
                raise
            raise ModelError(f"{where}'s function raised {fault(error, hook=True)} (asked about "
                             f"{asked(states)})") from error
        if not isinstance(answer, RoundEnds):
            raise ModelError(f"{where}'s function must return an mdp.RoundEnds, not "
                             f"{type(answer).__name__}")
        shape = (len(states), len(self.ends))
        try:
            following, points = numbers_array(answer.next), numbers_array(answer.points)
        except (ValueError, TypeError) as error:  # ragged, or a masked array
            raise ModelError(f"{where} gave next or points that are no array of numbers: "
                             f"{error} (asked about {asked(states)})") from None
        for name, array in (("next", following), ("points", points)):
            if array.shape != shape:
                raise ModelError(f"{where} gave {name} of shape {array.shape}; expected one row "
                                 f"per round state and one column per end of the round: {shape}")
        if following.dtype.kind != "i":  # an unsigned type reads -1 as its largest number
            raise ModelError(f"{where} gave next as {following.dtype}; round states are keys of a "
                             "signed int type (-1: the end is not allowed)")
        following = following.astype(np.int64, copy=False)
        bad = following < -1
        if bad.any():
            row, end = (int(i[0]) for i in np.nonzero(bad))
            raise ModelError(f"{where} gave next {int(following[row, end])} from round state "
                             f"{int(states[row])} at the end {self.ends[end]!r}: a round state "
                             "is a key of at least 0, and -1 (only) says the end is not allowed")
        return RoundEnds(following, self._points(points, following >= 0, states))

    def _points(self, points: np.ndarray, allowed: np.ndarray, states: np.ndarray) -> np.ndarray:
        """The points checked: numbers, finite (at every end); int64 where they
        fit in :data:`INT64`, else Python numbers (exact) or floats."""
        where = f"game {self.game}: mdp_round_rule"
        kind = points.dtype.kind
        if kind == "b" and points.size:  # True is no number of points, though numpy adds it
            row, end = (int(i[0]) for i in np.nonzero(np.ones(points.shape, dtype=bool)))
            raise ModelError(f"{where} gave points {bool(points[row, end])} (an array of true/false) "
                             f"from round state {int(states[row])} at the end {self.ends[end]!r}; "
                             "points are numbers (int, Fraction or float)")
        if kind == "b":
            return points.astype(np.int64)
        if kind in "iu":
            if points.size and max(int(points.max()), -int(points.min())) >= INT64:
                return _python(points)  # totals of such points would overflow 64 bits
            return points.astype(np.int64, copy=False)
        if kind == "f":
            self._finite(points, states)
            return points.astype(np.float64, copy=False)
        if kind != "O":
            raise ModelError(f"{where} gave points as {points.dtype}; points are numbers (int, "
                             "Fraction or float)")
        points = plain_numbers(points)  # by each number's exact value, not its own __float__
        kinds = set()
        for (row, end), value in np.ndenumerate(points):
            if not_number(value) == "is not a number":  # (a NumPy duration too: no number)
                raise ModelError(f"{where} gave points {quoted(value)} from round state "
                                 f"{int(states[row])} at the end {self.ends[end]!r}; points are "
                                 "numbers (int, Fraction or float)")
            if isinstance(value, numbers.Integral):
                kinds.add("i" if abs(int(value)) < INT64 else "O")
            elif isinstance(value, numbers.Rational):
                kinds.add("O")
            else:
                kinds.add("f")
        if "f" in kinds:
            self._finite(points, states, np.array([[
                isinstance(v, (float, np.floating)) and not math.isfinite(v) for v in row]
                for row in points.tolist()]))
        huge = first_past_float(points[allowed].tolist())
        if huge is not None:  # values are summed, shown and compared in floats too
            row, end = (int(i[huge[0]]) for i in np.nonzero(allowed))
            raise ModelError(f"{where} gave points {quoted(huge[1])} from round state "
                             f"{int(states[row])} at the end {self.ends[end]!r}: past what a "
                             "float holds (about 1.8e308)")
        if kinds <= {"i"}:
            return points.astype(np.int64)
        if "f" in kinds:  # a float among them: floats, as a float solve would take them
            return points.astype(np.float64)
        return _python(points)

    def _finite(self, points: np.ndarray, states: np.ndarray, bad: Any = None) -> None:
        """Refuse float points that are not finite (NaN, inf; ``bad`` marks them in an
        object array), at any end: where the end is not allowed too, since they are summed
        and compared in whole rows."""
        bad = ~np.isfinite(points) if bad is None else bad
        if bad.any():
            row, end = (int(i[0]) for i in np.nonzero(bad))
            raise ModelError(f"game {self.game}: mdp_round_rule gave points {points[row, end]} "
                             f"from round state {int(states[row])} at the end "
                             f"{self.ends[end]!r}; points are finite numbers at every end, "
                             "allowed or not")


def asked(states: np.ndarray, shown: int = 3) -> str:
    """The round states of a batch in words, the first few: ``round states 0, 1, 2 and 5
    more``, or ``round state 2``."""
    keys = states[:shown].tolist()
    more = f" and {len(states) - shown:,} more" if len(states) > shown else ""
    return f"round state{'s' * (len(states) != 1)} {', '.join(map(str, keys))}{more}"


def _fingerprints(ends: RoundEnds) -> np.ndarray:
    """A 64-bit fingerprint of each row of ``ends`` (checked), its next states and points."""
    return row_prints(ends.next) ^ row_prints(ends.points, 1)


def _on_worker(token: int, game: str, ends: tuple[Any, ...], given: Callable[[np.ndarray], Any],
               layers: tuple[tuple[str | None, Callable[[np.ndarray], Any]], ...]) -> RoundRule:
    """A round rule as a cluster's worker unpickles it: what it is asked there is reported
    back (:func:`mdp.engine.cluster.report`) to the rule sent as ``token``."""
    rule = RoundRule(game, ends, given, layers)
    report(token, rule.prints.asked)
    return rule


def _python(points: np.ndarray) -> np.ndarray:
    """Points as Python numbers in an object array: ints and fractions, exact."""
    out = np.empty(points.shape, dtype=object)
    for index, value in np.ndenumerate(points):
        value = int(value) if isinstance(value, numbers.Integral) else Fraction(value)
        out[index] = value
    return out


def round_rule(game: Any, ends: list[Any]) -> RoundRule:
    """The game's :func:`~mdp.hookspecs.game.mdp_round_rule`, asked once for the round's
    ``ends`` and checked: a function of round states."""
    given = game.call("mdp_round_rule", ends=tuple(ends))  # (read-only: a list sorted there
    # in place would have the rule built for other ends than the model's)
    if not callable(given):
        raise ModelError(f"game {game.name}: mdp_round_rule must return a function of round "
                         f"states (an int64 array) giving an mdp.RoundEnds, not "
                         f"{type(given).__name__}")
    steps = layers(game.plugins, "mdp_round_rule", {"params": game.params, "game": game,
                                                     "ends": tuple(ends)})
    kept: list[tuple[str | None, Callable[[np.ndarray], Any]]] = []
    for name, ask in steps if not all(game.own(name) for name, _ in steps) else ():
        try:
            layer = ask()
        except PLUGIN_FAULTS:
            continue
        if callable(layer):
            kept.append((None if game.own(name) else name, layer))
    return RoundRule(game.name, tuple(ends), given, tuple(kept))


def exact_points(points: Any) -> Any:
    """Points as an exact Python number (int or Fraction): what exact arithmetic adds."""
    if isinstance(points, np.integer):
        return int(points)
    if isinstance(points, (int, Fraction)):
        return points
    return Fraction(points)
