"""The types of the common arguments (argparse's ``type=``): each reads the text given and
raises :class:`argparse.ArgumentTypeError` saying what is allowed."""

from __future__ import annotations

import argparse
import re

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


def size(text: str) -> int:
    units = {"": 1, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}
    number = text.strip().upper().removesuffix("B")
    unit = number[-1:] if number[-1:] in units else ""
    digits = number[:len(number) - len(unit)].strip()
    value = float(digits) * units[unit] if _DECIMAL.fullmatch(digits) else 0  # 0-9, no 1_0
    if value >= 2**63:  # a size, but past any machine's (and 64 bits)
        raise argparse.ArgumentTypeError(f"{text!r} is too large: at most 2**63 - 1 bytes, about 9.2E18")
    if not 1 <= value:  # also NaN
        raise argparse.ArgumentTypeError(f"expected a size like 4G, 500M or 2000000000 (bytes), "
                                         f"not {text!r}")
    return int(value)
