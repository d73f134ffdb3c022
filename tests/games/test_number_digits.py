"""A number given as text is its ASCII digits, for every parameter alike: Arabic-Indic,
full-width or other decimal digits (Unicode category Nd) are refused by the payout and the
weights as by the tiles, the dice and every other number, where the payout and weights took
them (N1)."""

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp

# Every parameter of Shut the Box that takes numbers, with a setting that loads, and the
# settings it needs to act (a setting that cannot act is refused for that instead).
SETTINGS = {
    "tiles": ({"tiles": "1-6"}),
    "dice": ({"dice": "2"}),
    "faces": ({"faces": "6"}),
    "dice_schedule": ({"dice_schedule": "0-9:2,10-:1"}),
    "weights": ({"weights": "1/4,1/4,1/8,1/8,1/8,1/8"}),
    "payout": ({"scoring": "payout", "payout": "0:100,1-3:5"}),
    "payout_decimal": ({"scoring": "payout", "payout": "0:0.5,1-45:2"}),
    "shut_pays": ({"shut_pays": "2"}),
}


def _load(settings):
    return mdp.load_game("shutbox", **settings)


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_each_setting_loads_in_ascii_digits(name):
    _load(SETTINGS[name])  # so that a refusal below is the digits'


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(sorted(SETTINGS)), at=st.integers(0, 40),
       digit=st.characters(categories=["Nd"]).filter(lambda c: not c.isascii()))
@pytest.mark.slow
def test_a_number_in_other_decimal_digits_is_refused_everywhere(name, at, digit):
    settings_ = dict(SETTINGS[name])
    key = "payout" if name.startswith("payout") else name
    text = settings_[key]
    places = [i for i, c in enumerate(text) if c.isdigit()]
    i = places[at % len(places)]
    # The same digit's value in that script: digits come in runs of ten, 0 to 9.
    same = chr(ord(digit) - unicodedata.digit(digit) + int(text[i]))
    assert unicodedata.digit(same) == int(text[i])
    settings_[key] = text[:i] + same + text[i + 1:]
    with pytest.raises(mdp.ParamError, match=f"^parameter {key}="):
        _load(settings_)
