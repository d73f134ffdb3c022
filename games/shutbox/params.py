"""The parameters of Shut the Box: their parsers, bounds and words for people.

Each parser takes the text of ``--set`` or a Python value and raises :class:`ValueError`
saying what is allowed; :func:`check_payout` checks what needs the tiles as well.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from fractions import Fraction
from numbers import Rational
from typing import Any

import mdp
from mdp.shown import clipped

from ..dice import MAX_DICE, parse_dice, parse_faces, parse_fraction, parse_weights, show_weights

ONE_DIE_RULES = {
    "never": "never",
    "max6": "once every open tile is 6 or less",
    "sum6": "once the open tiles sum to 6 or less",
    "always": "always",
}
SHUT_WINS = {"yes": "a player who shuts the box wins at once",
             "no": "later players still play, and may tie"}
ONE_DIE_MODES = {"choice": "may roll one die", "forced": "must roll one die"}
# The state estimate refuses 22 tiles under the default limit already; 40 tiles beside the
# roll (13 bits for 50 dice of 100 faces) still fit a state key in 64 bits. Tiles up to 1000
# keep the final scores, which scoring tables list one by one, at 40,000 at most.
MAX_TILES = 40
MAX_TILE = 1000
TILES = (f"the tiles, as {mdp.INT_LIST}: at most {MAX_TILES} (each tile doubles the states), "
         f"from 1 to {MAX_TILE}")


def parse_tiles(value: Any) -> tuple[int, ...]:
    """``"1-9"``, ``"1,2,3"``, ``"1-6,8"`` or an iterable of integers, as a sorted tuple."""
    tiles = mdp.parse_int_list(value, minimum=1, maximum=MAX_TILE, what="tile")
    if len(tiles) > MAX_TILES:
        raise ValueError(f"{len(tiles)} tiles; at most {MAX_TILES}, since each tile doubles "
                         "the states")
    return tiles


_SCHEDULE = ("expected ranges of shut totals with a number of dice, like 0-49:3,50-71:2,72-:1 "
             "(from Python, (low, high, dice) with whole numbers, high None for open)")
_whole = mdp.parse_int(0)


def _triple(item: Any, expected: str) -> tuple[Any, Any, Any]:
    """An item of a table given from Python: three values."""
    if isinstance(item, (str, bytes, Mapping)) or not isinstance(item, Iterable):
        raise ValueError(expected)
    three = tuple(item)
    if len(three) != 3:
        raise ValueError(expected)
    return three  # type: ignore[return-value]


def parse_schedule(value: Any) -> tuple[tuple[int, int | None, int], ...] | None:
    """``"0-49:3,50-71:2,72-:1"``: the number of dice for each range of shut-tile totals.

    The ranges must start at 0 and follow one another without gaps; the last may be open.
    """
    if value is None or value == "" or isinstance(value, (list, tuple)) and not value:
        return None  # no range: the one throw of dice, as the empty text
    given: list[tuple[Any, Any, Any]] = []
    if isinstance(value, str):
        for item in value.split(","):
            totals, colon, dice = item.strip().partition(":")
            first, dash, last = totals.partition("-")
            given.append((first, (last or None) if dash else first, dice if colon else None))
    elif isinstance(value, (bytes, Mapping)) or not isinstance(value, Iterable):
        raise ValueError(_SCHEDULE)
    else:
        given = [_triple(item, _SCHEDULE) for item in value]
    try:
        items = [(_whole(first), None if last is None else _whole(last),
                  None if dice is None else _whole(dice)) for first, last, dice in given]
    except ValueError:
        raise ValueError(_SCHEDULE) from None
    expected: int | None = 0
    schedule = []
    for i, (low, high, count) in enumerate(items):
        if count is None or not 1 <= count <= MAX_DICE:
            raise ValueError(f"range {span(low, high)} needs a number of dice from 1 to "
                             f"{MAX_DICE}, like 0-49:3")
        schedule.append((low, high, count))
        if low != expected:
            gap = "overlaps" if low < expected else f"leaves shut totals {span(expected, low - 1)} out"
            raise ValueError(f"range {span(low, high)} {gap}; ranges must start at 0 and follow "
                             "one another without gaps")
        if high is None and i < len(items) - 1:
            raise ValueError(f"only the last range may be open-ended, not {span(low, high)}")
        if high is not None and high < low:
            raise ValueError(f"range {span(low, high)} is empty")
        expected = None if high is None else high + 1
    return _merged(schedule)


def _merged(ranges: Iterable[tuple[int, Any, Any]]) -> tuple[tuple[int, Any, Any], ...]:
    """``ranges`` (``(low, high, what)``, in order, ``high`` ``None`` for open) in their one
    form: two that follow one another with the same ``what`` as one (``0-10:2,11-:2`` is
    ``0-:2``), so that one rule set written two ways is one value (``--vary`` takes it once,
    and the records show it alike)."""
    merged: list[tuple[int, Any, Any]] = []
    for low, high, what in ranges:
        if merged and merged[-1][2] == what and merged[-1][1] is not None and merged[-1][1] + 1 == low:
            merged[-1] = (merged[-1][0], high, what)
        else:
            merged.append((low, high, what))
    return tuple(merged)


def span(low: int, high: int | None) -> str:
    """A range as written in tables: ``"0-49"``, ``"72-"`` (open), ``"0"`` (one number)."""
    return f"{low}-" if high is None else f"{low}-{high}" if high != low else f"{low}"


def show_schedule(schedule) -> str | None:
    """The text :func:`parse_schedule` reads back."""
    if schedule is None:
        return None
    return ",".join(f"{span(low, high)}:{count}" for low, high, count in schedule)


def parse_payout(value: Any) -> tuple[tuple[int, int, Fraction], ...] | None:
    """A payout table, ``"0:100,1-3:5"`` (final score: amount; others pay 0), or a file of it,
    in its one form (:func:`_merged`): in order, and without items that pay 0.

    A file holds the same items, separated by commas or new lines; ``#`` starts a comment.
    Ranges are kept as ranges, never expanded: :func:`check_payout` bounds them once the
    tiles are known.
    """
    if value is None or value == "":
        return None
    if isinstance(value, str):
        items = filter(None, map(str.strip, _payout_text(value).split(",")))
        try:
            table = [_payout_item(item) for item in items]
        except ValueError as error:  # a file's name, mistyped, reads as a table
            if os.sep in value and not os.path.lexists(value):
                raise ValueError(f"{error}; and no file '{clipped(value, 60)}' is there") from None
            raise
    elif isinstance(value, (bytes, Mapping)) or not isinstance(value, Iterable):
        raise ValueError(_PAYOUT)
    else:
        table = []
        for item in value:
            low, high, amount = _triple(item, _PAYOUT)
            try:
                table.append((_whole(low), _whole(high), _amount(amount)))
            except ValueError:
                raise ValueError(f"item {clipped(repr(item), 60)}: {_PAYOUT}") from None
    if not table:
        raise ValueError("the payout table is empty; expected something like 0:100,1-3:5")
    for low, high, _ in table:
        if not 0 <= low <= high:
            raise ValueError(f"scores {span(low, high)}: expected scores of 0 or more, low to "
                             "high, like 0:100,1-3:5")
    covered = -1
    for low, high, _ in sorted(table):
        if low <= covered:
            raise ValueError(f"score {low} is paid twice")
        covered = max(covered, high)
    # In its one form: in order of the scores, ranges that pay alike and follow one another
    # as one, and what pays 0 (as every score left out does) left out, but for a table of 0s.
    paying = [item for item in sorted(table) if item[2] != 0] or [(0, 0, Fraction(0))]
    return _merged(paying)


_PAYOUT = ("expected a table like 0:100,1-3:5 (from Python, (low, high, amount) with whole "
           "scores of 0 or more and an exact amount: an int, a Fraction or a text like 1/3)")


def _amount(value: Any) -> Fraction:
    """An amount given from Python, exactly: a text as on the command line, an ``int`` or a
    ``Fraction``; a float only if whole (``0.1`` is not one tenth, and no float is exact)."""
    if isinstance(value, str):
        return parse_fraction(value)
    if isinstance(value, Rational) and not isinstance(value, bool):
        return Fraction(value)
    if isinstance(value, float) and value.is_integer():
        return Fraction(int(value))
    raise ValueError("not an exact amount")


_LONGEST_FILE = 1 << 20
"""The most bytes of a file of payouts: a table of every score is some hundreds."""


def _payout_text(value: str) -> str:
    """The table itself, or the items of the file it names, one line each: a text that names
    a file, folder or device that is there is that (``run:1/pay.txt`` too), else a table."""
    if not os.path.lexists(value) and ":" in value:
        return value
    if not os.path.lexists(value):
        raise ValueError(f"no file {value!r}, and not a table like 0:100,1-3:5")
    if not os.path.isfile(value):  # a pipe is read once, and the rules are read again
        kind = "a folder" if os.path.isdir(value) else "not a regular file (a pipe or a device)"
        raise ValueError(f"{value!r} is {kind}; name a file holding the table, or give the "
                         "table itself, like 0:100,1-3:5")
    if os.path.getsize(value) > _LONGEST_FILE:  # a table is a line or two, not a file of data
        raise ValueError(f"the file {value!r} holds {os.path.getsize(value):,} bytes, more than "
                         f"a table of payouts ({_LONGEST_FILE:,} at most); name the file holding "
                         "the table")
    try:  # utf-8-sig: a table saved with a byte-order mark (Windows Notepad) reads the same
        with open(value, encoding="utf-8-sig") as file:
            text = file.read()
    except (OSError, UnicodeDecodeError) as error:
        why = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise ValueError(f"cannot read the file {value!r}: {why}") from None
    return ",".join(line.partition("#")[0] for line in text.splitlines())


def _payout_item(item: str) -> tuple[int, int, Fraction]:
    scores, colon, amount = item.partition(":")
    low, dash, high = scores.partition("-")
    try:
        entry = (_whole(low), _whole(high) if dash else _whole(low), parse_fraction(amount))
    except (ValueError, ZeroDivisionError):
        entry = None
    if not colon or entry is None or entry[0] < 0 or entry[1] < entry[0]:
        raise ValueError(f"item '{clipped(item, 60)}': expected SCORE:AMOUNT or LOW-HIGH:AMOUNT with "
                         "scores of 0 or more, like 0:100,1-3:5")
    return entry


def check_schedule(game: Any) -> None:
    """Refuse a ``dice_schedule`` given that ends before the tiles' sum (shut totals left
    without a number of dice), or that the user gave with a range no throw plays
    (:mod:`.acting`: no set of tiles shut short of them all sums into it), naming the
    schedule that plays alike; a variant's is not refused so, its rules line leaves the range
    out."""
    from .acting import unplayed_ranges

    params = game.params
    schedule, total = params["dice_schedule"], sum(params["tiles"])
    if schedule is not None and schedule[-1][1] is not None and schedule[-1][1] < total:
        raise mdp.ParamError(f"parameter dice_schedule: shut totals {schedule[-1][1] + 1}-"
                             f"{total} have no number of dice; end with an open range like "
                             "72-:1")
    unplayed = unplayed_ranges(params)
    variant = next((v for v in game.variants() if v.name == game.variant), None)
    if variant is not None and "dice_schedule" in variant.params:
        return  # the variant's, not the user's: not refused, and not claimed (Box.describe)
    if unplayed and "dice_schedule" in game.given:
        alike, count = [], 0
        for low, high, dice in schedule:
            count = count if (low, high, dice) in unplayed else dice
            alike.append((low, high, count))
        alike[-1] = (alike[-1][0], None, alike[-1][2])
        raise mdp.ParamError(
            f"parameter dice_schedule={show_schedule(schedule)}: no throw is made at shut totals "
            f"{', '.join(span(low, high) for low, high, _ in unplayed)}, since no set of the "
            f"tiles sums there short of all of them ({total}); give {show_schedule(_merged(alike))}, "
            "which plays alike")


def check_payout(table: tuple[tuple[int, int, Fraction], ...] | None,
                 tiles: tuple[int, ...]) -> None:
    """Raise :class:`mdp.ParamError` if a range of ``table`` passes the highest final score."""
    for low, high, _ in table or ():
        if high > sum(tiles):
            raise mdp.ParamError(f"parameter payout: scores {span(low, high)} pass "
                                 f"{sum(tiles)}, the highest final score (every tile open); "
                                 f"pay scores from 0 to {sum(tiles)}")


def show_payout(table) -> str | None:
    """The text :func:`parse_payout` reads back."""
    if table is None:
        return None
    return ",".join(f"{span(low, high)}:{amount}" for low, high, amount in table)


def no_effect(game: Any, name: str, why: str, change: str | None) -> mdp.ParamError:
    """The one refusal of a parameter that cannot act under the others (a rule left out of
    the game with no word would be a different game than the one asked for): what to
    ``change`` instead (``None`` where no value of it would act), or the parameter left out;
    where the variant set it, not the user, the line says so and how to set it back
    (``--set NAME=DEFAULT``, ``--set NAME=`` where it is unset), since the user can leave out
    only what they gave."""
    param = next(p for p in game.declared if p.name == name)
    value = game.shown(param, game.params[name])
    variant = next((v for v in game.variants() if v.name == game.variant), None)
    if variant is not None and name in variant.params:
        default = game.shown(param, param.default)  # unset (None): typed as nothing
        back = f"set it back with --set {name}={'' if default is None else default}"
        return mdp.ParamError(f"parameter {name}={value}, which --variant {variant.name} sets, "
                              f"has no effect while {why}; " + (f"{change}, or {back}" if change
                                                                 else back))
    return mdp.ParamError(f"parameter {name}={value} has no effect while {why}; "
                          + (f"{change}, or leave {name} out" if change else f"leave {name} out"))


def check_in_force(game: Any) -> None:
    """Refuse a parameter given (by the user or the variant), other than its default, that
    cannot act under the others (:mod:`.acting` tells, from the tiles and dice): ``dice``
    beside a ``dice_schedule``, either where one die is forced from the start, the one-die
    rule (``one_die`` but ``never``) where it never lets one die be rolled, and
    ``one_die_mode=forced`` where the one-die rule never acts (``one_die=never`` among
    them)."""
    from .acting import ALREADY_ONE, one_die_idle, thrown_counts

    params = game.params
    schedule = params["dice_schedule"]
    one_die = one_die_idle(params)
    never = params["one_die"] == "never"
    single = thrown_counts(params) == {1} and one_die is None  # one die forced from the start
    forced = (f"one_die={params['one_die']} with one_die_mode=forced: every throw is of one die",
              "let one die be chosen (one_die_mode=choice)")
    idle = [
        ("dice", schedule is not None, f"dice_schedule is set ({show_schedule(schedule)})",
         "change dice_schedule instead, or clear it with --set dice_schedule="),
        ("dice", schedule is None and single, *forced),
        ("dice_schedule", single, *forced),
        ("one_die", not never and one_die is not None, str(one_die),
         "throw more dice" if one_die == ALREADY_ONE else "change the tiles or dice"),
        ("one_die_mode", not never and one_die is not None and params["one_die_mode"] == "forced",
         one_die if one_die == ALREADY_ONE else f"one_die={params['one_die']} never lets one "
         f"die be rolled: {one_die}",
         "throw more dice" if one_die == ALREADY_ONE else "change the tiles or dice"),
        ("one_die_mode", never and params["one_die_mode"] == "forced",
         "one_die=never (one die is never rolled)",
         "choose when one die may be rolled (one_die=max6, sum6 or always)"),
    ]
    defaults = {p.name: p.default for p in game.declared}
    for name, idle_here, why, change in idle:  # (its default given is as good as left out)
        if idle_here and name in game.given and params[name] != defaults[name]:
            raise no_effect(game, name, why, change)


PARAMS = [
    mdp.Param("tiles", tuple(range(1, 10)), parse_tiles, TILES, mdp.show_int_list),
    mdp.Param("dice", 2, parse_dice, "dice normally rolled"),
    mdp.Param("faces", 6, parse_faces, "faces on each die, numbered from 1"),
    mdp.Param("one_die", "max6", mdp.parse_choice(ONE_DIE_RULES),
              "when one die may be rolled: " + ", ".join(ONE_DIE_RULES)),
    mdp.Param("one_die_mode", "choice", mdp.parse_choice(ONE_DIE_MODES),
              "choice: the player may roll one die; forced: the player must"),
    mdp.Param("dice_schedule", None, parse_schedule,
              "dice by total of shut tiles, replacing dice, e.g. 0-49:3,50-71:2,72-:1",
              show_schedule),
    mdp.Param("weights", None, parse_weights,
              "loaded dice: each face's probability, e.g. 1/4,1/4,1/8,1/8,1/8,1/8; unset, fair dice",
              show_weights),
    mdp.Param("scoring", "win", str, "the value of the end: win, score, payout, ..."),
    mdp.Param("payout", None, parse_payout,
              "with scoring=payout: final score to amount, e.g. 0:100,1-3:5, or a file",
              show_payout),
    # Match rules (mdp match): how players are scored against each other, not how one plays.
    mdp.Param("shut_pays", 1, mdp.parse_int(1, 10**15, why="a winner's takings from up to 19 "
                                            "players must fit in 64-bit integers"),
              "in a match: what each loser pays a winner who shut the box (1: the stake)"),
    mdp.Param("shut_wins", "yes", mdp.parse_choice(SHUT_WINS),
              "in a match: yes, a player who shuts the box wins at once; no, later ones "
              "still play to tie"),
]
