"""A value as it is shown to people, the one rule of :mod:`mdp.outputs.readable`, here apart
so that any room may show a value as tables do (the check of a game's round columns, which
two round states must not show alike) without importing the outputs: this module imports
nothing of mdp."""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Any

DIGITS = 15
"""Significant digits of a float shown to people."""


def readable(value: Any) -> str:
    """``value`` for people: a float to :data:`DIGITS` significant digits (``4.25``,
    ``0.0976137161704307``, ``1e-20``), ``None`` as nothing, anything else as ``str``."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.{DIGITS}g}"
    return one_line(str(value))


def seen(value: Any) -> str:
    """What a reader sees of ``value`` in a table's cell or a line of ``mdp advise``: its
    :func:`readable` text (a float to :data:`DIGITS` digits, a control character or a
    zero-width one as its escape), with runs of spaces as one and none at either end (a
    Markdown cell and a line's end show none) and letters in one form (NFKC: ``é`` one letter
    or ``e`` with its accent, the ligature ``ﬁ`` as ``fi``, a full-width ``Ａ`` as ``A``).
    Two values of one text are two that no one can tell apart: the one rule for actions,
    states and round states shown alike."""
    if hasattr(value, "item") and type(value).__module__ == "numpy":
        value = value.item()  # a NumPy number as the table holds it
    text = readable(value)
    if text.isascii() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text
    return " ".join(part for part in unicodedata.normalize("NFKC", text).split(" ") if part)


def utf8(text: str) -> bool:
    """Whether ``text`` is letters a file holds: no lone surrogate (what Python makes of a
    byte that is not UTF-8, in a word typed or a file's name)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def breaks(text: str) -> bool:
    """Whether ``text`` holds a control character or a line break, which no value on one line
    does, or a byte that is not UTF-8 (a lone surrogate in Python), which no file holds:
    :func:`broken` says which."""
    return any(ord(c) < 32 or 127 <= ord(c) < 160 or c in "\u2028\u2029" for c in text) or \
        not utf8(text)


def broken(text: str, *, typed: bool = True) -> str:
    """What :func:`breaks` finds in ``text``, in words, and what is allowed: in a value the
    user typed, or (``typed=False``) one a game gave, shown on one line."""
    if utf8(text):
        return ("text with a control character or a line break; a value is "
                f"{'typed' if typed else 'shown'} on one line")
    if typed:
        return "not UTF-8 text (a byte no letter is made of in UTF-8); mdp reads what is typed as UTF-8"
    return "a lone surrogate (what Python makes of a byte that is not UTF-8), which no file holds"


def bytes_shown(text: str) -> str:
    """``text`` with each byte that is not UTF-8 (Python's lone surrogate, a file's name of
    such bytes) shown as the byte it was, ``\\xff``: the one a user can recognise."""
    return re.sub("[\udc80-\udcff]", lambda m: f"\\x{ord(m.group()) - 0xDC00:02x}", text)


def typed(text: str) -> str:
    """``repr(text)``, a word as typed, with each byte that is not UTF-8 as ``\\xff`` where
    ``repr`` writes Python's ``\\udcff`` (a backslash typed is doubled there: not one)."""
    return re.sub(r"(?<!\\)((?:\\\\)*)\\udc([89a-f][0-9a-f])", r"\1\\x\2", repr(text))


def shown_float(value: Any) -> float:
    """A number as a float for showing it (a float column, a line of output): ``inf`` or
    ``-inf`` past what a float holds, where an exact number is shown by its size or beside
    it; the one place an exact number is made a float to be shown."""
    try:
        return float(value)
    except OverflowError:  # an int or fraction past a float
        return math.inf if value > 0 else -math.inf


SMALL = 1e-4
"""Below it (but not 0), ten decimals would show fewer than seven digits of a number (a
regret of 6e-23 would read 0): :func:`fixed` shows ten digits in scientific notation."""


def fixed(value: float) -> str:
    """A float in a column of ten decimals (``0.5000000000``), but one of 1e15 or more, or
    infinite (an exact number past a float), as :func:`readable` shows it: there the decimals
    would be noise; and one not 0 below :data:`SMALL` in size to ten digits in scientific
    notation (``1.741255144e-22``), so that a value or a regret that is not 0 never reads 0,
    nor two that differ alike."""
    if value != 0 and abs(value) < SMALL:
        return f"{value:.9e}"
    return f"{value + 0.0:.10f}" if abs(value) < 1e15 else readable(value)  # (-0.0: 0)


def one_line(text: str) -> str:
    """``text`` as it is shown to people on a line of its own (a game's label, a state's
    value): a line break or another control character as its escape (``\\n``), so that it
    cannot break the line or forge another; letters of any script as they are."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == " " else c.encode("unicode_escape").decode("ascii")
                   for c in text)


def clipped(text: str, most: int = 100) -> str:
    """``text`` as a message quotes what a user gave: whole, or its first characters and its
    length where it is longer than ``most`` (a file's worth given as a value). The length is
    that of the text shown on a line (:func:`one_line`), a control character as its escape,
    so that a value of control characters is clipped as short as one of letters."""
    if len(one_line(text)) <= most:
        return text
    kept, width = 0, 0
    for character in text:
        width += len(one_line(character))
        if width > most * 3 // 5:
            break
        kept += 1
    return f"{text[:kept]}... ({len(text):,} characters)"


def counted(n: int, what: str) -> str:
    """A count with its noun: ``1 game``, ``2 games``, ``1,000 rounds``."""
    return f"{n:,} {what}{'s' * (n != 1)}"


def percent(chance: Any) -> str:
    """A chance as a percentage to four decimals (``9.7614%``), the one rule wherever a chance
    is shown: a chance that is not exactly 0 or 1 is never shown as if it were, ``< 0.0001%``
    and ``> 99.9999%`` where four decimals would round it to ``0.0000%`` or ``100.0000%``
    (the exact value is beside it where there is room). A float is taken to the
    :data:`DIGITS` that :func:`readable` shows, so that its sum's last bit
    (``0.9999999999999999`` for six sixths) reads as the ``1`` shown beside it."""
    if isinstance(chance, float):
        chance = float(f"{chance:.{DIGITS}g}")
    text = _not_zero(f"{100 * shown_float(chance):.4f}%", chance)
    if text == "100.0000%" and chance < 1:
        return "> 99.9999%"
    if text == "100.0000%" and chance > 1:
        return "> 100.0000%"
    return text


def stake_percent(value: Any) -> str:
    """Winnings as a signed percentage of the stake to four decimals (``+12.5000%``), from
    the fraction where ``value`` is exact, with the sign of the winnings; a share that is not
    0 but that four decimals would show as 0 is ``-< 0.0001%`` (or ``+``), as :func:`percent`
    shows a chance. A float whose four decimals would be past its :data:`DIGITS` significant
    digits is shown to those digits, never with decimals it does not hold (an exact one alike:
    one number, one form), and one whose percentage is past what a float holds by its size
    (``+2e+309%``), never as ``inf``."""
    from fractions import Fraction

    sign = "-" if value < 0 else "+"
    if isinstance(value, Fraction) and abs(100 * value) >= 10 ** (DIGITS - 4):
        import decimal  # as a float's is shown: its digits, not decimals past them

        with decimal.localcontext(prec=DIGITS + 10):
            scaled = decimal.Decimal(abs(100 * value.numerator)) / value.denominator
        return f"{sign}{scaled:.{DIGITS}g}%"
    if isinstance(value, Fraction):
        whole, part = divmod(abs(round(value * 1_000_000)), 10_000)  # hundredths of a percent
        text = f"{whole}.{part:04d}%"
    else:
        value = float(value)
        scaled = 100 * value
        if math.isinf(scaled):  # the winnings a float, their percentage past one
            mantissa, _, exponent = f"{abs(value):.{DIGITS - 1}e}".partition("e")  # rounded once
            return f"{sign}{float(mantissa):.{DIGITS}g}e+{int(exponent) + 2}%"
        if abs(scaled) >= 10 ** (DIGITS - 4):
            return f"{sign}{abs(scaled):.{DIGITS}g}%"
        text = f"{abs(scaled):.4f}%"
    return f"{sign if value else '+'}{_not_zero(text, value)}"


def _not_zero(text: str, value: Any) -> str:
    """A percentage to four decimals, but ``< 0.0001%`` where those four decimals would show a
    ``value`` that is not 0 as ``0.0000%``: the one rule of :func:`percent` and
    :func:`stake_percent`."""
    return "< 0.0001%" if text == "0.0000%" and value != 0 else text


def play_aimed(sense: str, own: str) -> str:
    """Optimal play in words, played to ``sense``: ``optimal play`` where that is the
    objective's ``own`` sense, else ``the play of the least value (minimized)`` (or the most,
    maximized), as the user asked with --minimize or --maximize."""
    if sense == own:
        return "optimal play"
    return f"the play of the {'least' if sense == 'min' else 'most'} value ({sense}imized)"

