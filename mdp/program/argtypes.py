"""The types of the common arguments (argparse's ``type=``): each reads the text given and
raises :class:`argparse.ArgumentTypeError` saying what is allowed."""

from __future__ import annotations

import argparse
import re
from fractions import Fraction

from mdp.checks import check_residual
from mdp.errors import ParamError
from mdp.game.parsers import parse_int


def scheduler(text: str) -> str:
    if not text.strip() or text != text.strip():
        raise argparse.ArgumentTypeError(f"{text!r}: expected the address of a Dask scheduler, "
                                         "such as tcp://127.0.0.1:8786")
    return text


def name(text: str) -> str:
    """An argparse ``type``: a name (of a strategy, a format), not empty: an empty one (a
    variable unset in a script) is no name, never taken as the default."""
    if not text:
        raise argparse.ArgumentTypeError("expected a name, not an empty text")
    return text


def positive_int(text: str) -> int:
    """An argparse ``type``: a whole number of 1 or more (``1_000`` and ``1,000`` too)."""
    try:
        return parse_int(1, grouped=True)(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{error}, not {text!r}") from None


_DECIMAL = re.compile(r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?", re.ASCII)


def residual(text: str) -> float:
    value: object = float(text) if _DECIMAL.fullmatch(text) else text  # 0-9, as every number
    try:
        check_residual(value, text)
    except ParamError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return float(text)


_SIZE = re.compile(r"(?P<whole>[0-9][0-9,_]*)?(?P<part>\.[0-9]+)?(?P<unit>[KMGT]?)B?",
                   re.ASCII | re.IGNORECASE)


_GROUPED = re.compile(r"[0-9]+|[0-9]{1,3}(?:,[0-9]{3})+|[0-9]{1,3}(?:_[0-9]{3})+", re.ASCII)


def size(text: str) -> int:
    """A size in bytes: a number as every number option reads one (its digits grouped by
    thousands too, ``2,000,000,000``), a decimal part where a unit follows, and K, M, G or T
    (powers of 1000), with or without B: ``4G``, ``1.5G``, ``500M``."""
    units = {"": 1, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}
    found = _SIZE.fullmatch(text)
    value = 0
    if found and (found["whole"] or found["part"]) and (found["unit"] or not found["part"]):
        digits = found["whole"] or "0"
        if _GROUPED.fullmatch(digits):  # by thousands, as every number option takes them
            whole = int(digits.replace(",", "").replace("_", ""))
            part = Fraction(f"0{found['part']}") if found["part"] else Fraction(0)
            value = int((whole + part) * units[found["unit"].upper()])
    if value >= 2**63:  # a size, but past any machine's (and 64 bits)
        raise argparse.ArgumentTypeError(f"{text!r} is too large: at most 2**63 - 1 bytes, about 9.2E18")
    if not 1 <= value:
        raise argparse.ArgumentTypeError(f"expected a size like 4G, 1.5G, 500M or 2,000,000,000 "
                                         f"(bytes), not {text!r}")
    return value
