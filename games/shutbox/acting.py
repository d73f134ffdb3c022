"""Whether a rule of Shut the Box can act under the tiles and dice: one check per rule,
computed from what a throw can total, which tiles can ever be shut and which open tiles and
shut totals can arise. A rule that cannot act is refused where the user gave it
(:func:`~.params.check_in_force`, and the rule plugins' checks), and left out of the rules
line where it is only a default.

Which open tiles can arise is told without a walk of the states: a set of tiles counts as
arising when the tiles outside it can be shut by throws of the usual dice, each tile in some
set whose sum a throw shows. A rule refused never acts; one taken acts in every small game
tried against a walk of every position (tests/games/test_shutbox_rules_can_act.py), though
a game where that set of tiles is never reached in order would take it.

Sets of numbers are held as bit sets (bit ``n`` for the number ``n``), so that the totals of
fifty dice or the sums of forty tiles are a few shifts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import combinations
from typing import Any


def usual_counts(params: Mapping[str, Any]) -> set[int]:
    """The usual numbers of dice: ``dice``, or each of ``dice_schedule``."""
    schedule = params["dice_schedule"]
    return {params["dice"]} if schedule is None else {count for _, _, count in schedule}


def _faces(params: Mapping[str, Any]) -> list[int]:
    """The faces a die can show: each with a weight above 0."""
    weights, faces = params["weights"], params["faces"]
    if weights is None or len(weights) != faces:  # (one weight a face: the game's own check)
        return list(range(1, faces + 1))
    return [f for f in range(1, faces + 1) if weights[f - 1] > 0]


def throw_totals(params: Mapping[str, Any], counts: Iterable[int]) -> int:
    """The totals a throw of any of ``counts`` dice can show, as a bit set."""
    faces, shown, totals = _faces(params), 1, 0
    for n in range(1, max(counts, default=0) + 1):
        shown = _or(shown << f for f in faces)
        totals |= shown if n in counts else 0
    return totals


def _or(sets: Iterable[int]) -> int:
    joined = 0
    for bits in sets:
        joined |= bits
    return joined


def never_shut(params: Mapping[str, Any]) -> list[int]:
    """The tiles in no set of tiles whose sum a throw of the usual dice can show: open until
    the one-die rule first holds, if it ever does."""
    tiles, totals = params["tiles"], throw_totals(params, usual_counts(params))
    return [t for t in tiles if not shut_totals(u for u in tiles if u != t) << t & totals]


def most_shut(params: Mapping[str, Any]) -> int:
    """The most tiles one roll can shut: the largest set of tiles whose sum a throw shows."""
    totals = throw_totals(params, thrown_counts(params))
    cap = (1 << totals.bit_length()) - 1
    by_count = [1]  # by_count[k]: the sums of k tiles, up to the highest total
    for tile in params["tiles"]:
        by_count.append(0)
        for k in range(len(by_count) - 1, 0, -1):
            by_count[k] |= (by_count[k - 1] << tile) & cap
    return max(k for k, sums in enumerate(by_count) if sums & totals or k == 0)


def thrown_counts(params: Mapping[str, Any]) -> set[int]:
    """The numbers of dice thrown: the usual ones, and one where the one-die rule acts; only
    one where it holds from the start (as it does thereafter, open tiles only ever fewer)
    and is forced."""
    rule, tiles = params["one_die"], params["tiles"]
    if rule == "never" or one_die_idle(params) is not None:
        return usual_counts(params)
    from_start = rule == "always" or (max(tiles) if rule == "max6" else sum(tiles)) <= 6
    if from_start and params["one_die_mode"] == "forced":
        return {1}
    return usual_counts(params) | {1}


def shut_totals(tiles: Iterable[int]) -> int:
    """The sums of every set of ``tiles``, as a bit set."""
    sums = 1
    for tile in tiles:
        sums |= sums << tile
    return sums


def one_die_idle(params: Mapping[str, Any]) -> str | None:
    """Why the one-die rule (``one_die`` but ``never``) never lets one die be rolled, or
    ``None`` where it can: at some open tiles that can arise it holds while the usual throw
    is of more than one die."""
    rule, tiles = params["one_die"], params["tiles"]
    if usual_counts(params) == {1}:
        return ALREADY_ONE
    stuck = never_shut(params)
    if rule == "always":
        candidates: Iterable[tuple[int, ...]] = [tuple(tiles)]
    else:
        low = [t for t in tiles if t <= 6]
        if not low:
            return f"every tile is above 6 ({_listed(tiles)})"
        if not set(stuck) <= set(low) or (rule == "sum6" and sum(stuck) > 6):
            return (f"{_listed(stuck)} can never be shut (no throw shows the sum of a set "
                    "of tiles with it), so the open tiles never "
                    + ("are all 6 or less" if rule == "max6" else "sum to 6 or less"))
        candidates = [(*stuck, *more) for k in range(len(low) + 1)
                      for more in combinations([t for t in low if t not in stuck], k)]
        candidates = [c for c in candidates if c and (rule == "max6" or sum(c) <= 6)]
        if rule == "sum6" and not candidates:
            return f"no open tiles sum to 6 or less ({_listed(tiles)})"
    total = sum(tiles)
    shut = shut_totals(tiles)
    for left in candidates:  # the open tiles: at each set the rule holds, the usual dice
        if rule == "always":
            if any(_usual(params, s) != 1 for s in range(total) if shut >> s & 1):
                return None
        elif _usual(params, total - sum(left)) != 1:
            return None
    return "every throw where it would hold is of one die already"


ALREADY_ONE = "every throw is of one die already"


def _usual(params: Mapping[str, Any], shut: int) -> int:
    """The usual number of dice once the shut tiles sum to ``shut``."""
    schedule = params["dice_schedule"]
    if schedule is None:
        return params["dice"]
    # (past the schedule's end, as the game's own check refuses: its last number of dice)
    return next((count for low, high, count in schedule if low <= shut and (high is None or shut <= high)),
                schedule[-1][2])


def unplayed_ranges(params: Mapping[str, Any]) -> list[tuple[int, int | None, int]]:
    """The ranges of ``dice_schedule`` that no throw plays: no set of tiles shut before the
    box is (a sum short of all the tiles') falls in them."""
    tiles, schedule = params["tiles"], params["dice_schedule"] or ()
    total = sum(tiles)
    before_end = shut_totals(tiles) & ((1 << total) - 1)  # (no sum past the tiles': a range's
    return [(low, high, count) for low, high, count in schedule  # end is held within it)
            if not before_end >> low << low & ((1 << (min(high, total) + 1)) - 1 if high is not None else -1)]


def _listed(tiles: Iterable[int]) -> str:
    """``tile 50``, ``tiles 7 8 9``."""
    tiles = list(tiles)
    return ("tile " if len(tiles) == 1 else "tiles ") + " ".join(map(str, tiles))
