"""``--max-memory`` reads a number as every number option does (round 32, U32-08: it refused
``2,000,000,000`` and ``2_000_000_000``, which ``--max-states`` takes, and took ``1e9``,
``5e-1G`` and `` 4G``, which no other option takes): digits, grouped by thousands or not, a
decimal part before a unit, K, M, G or T, and B or not. Generated: sizes written each way,
read as the number of bytes they are, and the forms refused."""

import argparse
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mdp.program.argtypes import size

UNITS = {"": 1, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}


def grouped(number: int, mark: str) -> str:
    return f"{number:,}".replace(",", mark)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10**9), st.sampled_from(["", ",", "_"]), st.sampled_from(sorted(UNITS)),
       st.sampled_from(["", "B", "b"]), st.sampled_from(["", ".5", ".25", ".125"]), st.booleans())
def test_a_size_is_read_as_the_bytes_it_says(number, mark, unit, b, part, lower):
    text = grouped(number, mark) + (part if unit else "") + (unit.lower() if lower else unit) + b
    expected = int((number + (Fraction(f"0{part}") if unit and part else 0)) * UNITS[unit])
    if expected >= 2**63:
        with pytest.raises(argparse.ArgumentTypeError, match="is too large"):
            size(text)
    else:
        assert size(text) == expected


@pytest.mark.parametrize("text", ["1e9", "5e-1G", " 4G", "4G ", "0.5", "1.5", "1,00G", "1,000_000", "G", "",
                                  "-1G", "+4G", "inf", "nan", "٤G", "4 G", "1__000"])
def test_what_no_number_option_takes_is_refused(text):
    with pytest.raises(argparse.ArgumentTypeError, match="expected a size like"):
        size(text)
