"""Numbers out of range: integers past 64 bits, floats and truth values where whole numbers
are meant. Each is read exactly as the number it is, or refused in one line; never read as
another number (``1.5`` as 1, ``True`` as 1, ``2**64`` wrapped)."""

import json
import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])

# The whole-number parameters of the games, with their bounds as the docs give them
# (``mdp params shutbox``, ``mdp params yahtzee``): the oracle below knows nothing of the parsers.
WHOLE = [("shutbox", "dice", 1, 50), ("shutbox", "faces", 2, 100),
         ("shutbox", "shut_pays", 1, 10**15), ("yahtzee", "rolls", 1, 10),
         ("yahtzee", "dice", 1, 8), ("yahtzee", "kind", 1, 8),
         # Python's int as the parser (docs/writing-a-game.rst), its check at least 1 roll
         ("docs/examples/reroll.py", "rolls", 1, 10**309)]

# Numbers in every form a user can give one, near the bounds and past 64 bits.
INTS = st.integers(-5, 120) | st.sampled_from([10**15, 10**15 + 1, 2**63 - 1, 2**63, 2**64,
                                               -2**63 - 1, 2**70, 10**30])
NUMBERS = (INTS | INTS.map(float) | st.floats(allow_nan=True, allow_infinity=True)
           | st.booleans() | st.fractions(max_denominator=4) | INTS.map(lambda n: Fraction(2 * n, 2)))
TEXTS = INTS.map(str) | st.floats().map(str) | st.sampled_from(
    ["", " ", "true", "1e3", "1_0", "0x10", "3.0", " 7 ", "+4", "--1", "٣"])


def whole_number(value):
    """The whole number ``value`` stands for, by the plain rules of arithmetic; ``None`` if
    it stands for none (a truth value, a fraction, text of anything else)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        return int(value) if re.fullmatch(r"\s*-?[0-9]+\s*", value) else None  # not +4
    if isinstance(value, float):
        return int(value) if value == value and abs(value) != float("inf") and value.is_integer() else None
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else None
    return value


def params_of(game, **given):
    try:
        return mdp.load_game(game, **given).params
    except mdp.ParamError as error:
        assert "\n" not in str(error)
        return error


@pytest.mark.slow
@pytest.mark.parametrize("game, name, low, high", WHOLE)
@SETTINGS
@given(value=NUMBERS | TEXTS)
def test_a_whole_number_parameter_is_read_exactly_or_refused(game, name, low, high, value):
    expected = whole_number(value)
    got = params_of(game, **{name: value})
    if value == "" and not isinstance(got, mdp.ParamError) and got[name] is None:
        return  # an empty value sets back a parameter unset by default (kind=)
    if expected is not None and low <= expected <= high:
        # (yahtzee refuses some settings together, as its rules say: not a reading of them)
        if not isinstance(got, mdp.ParamError) or f"parameter {name}=" not in str(got):
            assert isinstance(got, mdp.ParamError) or got[name] == expected
            return
    assert isinstance(got, mdp.ParamError), (value, got[name])
    assert f"parameter {name}=" in str(got)


def tile_items():
    return NUMBERS | TEXTS.filter(lambda text: re.fullmatch(r"\s*[0-9]+\s*", text) is not None)


@pytest.mark.slow
@SETTINGS
@given(tiles=st.lists(tile_items(), min_size=0, max_size=6)
       | st.lists(INTS, max_size=45).map(lambda items: ",".join(map(str, items))))
def test_tiles_are_read_exactly_or_refused(tiles):
    # A tile is a whole number from 1 to 1000, each once, at most 40 of them (docs/shutbox.rst).
    items = tiles.split(",") if isinstance(tiles, str) else tiles
    numbers = [whole_number(item) for item in items]
    fine = (items != [""] and numbers and None not in numbers and len(numbers) <= 40
            and all(1 <= n <= 1000 for n in numbers) and len(set(numbers)) == len(numbers))
    got = params_of("shutbox", tiles=tiles)
    if fine:
        assert got["tiles"] == tuple(sorted(numbers))
    else:
        assert isinstance(got, mdp.ParamError), (tiles, got["tiles"])


@pytest.mark.slow
@SETTINGS
@given(low=NUMBERS, high=NUMBERS | st.none(), dice=NUMBERS)
def test_a_schedule_from_python_is_read_exactly_or_refused(low, high, dice):
    got = params_of("shutbox", dice_schedule=[(low, high, dice)])
    numbers = (whole_number(low), None if high is None else whole_number(high), whole_number(dice))
    fine = (numbers[0] == 0 and (high is None or numbers[1] is not None and 45 <= numbers[1] < 2**63)
            and numbers[2] is not None and 1 <= numbers[2] <= 50)
    if fine:
        assert got["dice_schedule"] == (numbers,)
    else:  # (a closed range must reach 45, the total of tiles 1-9)
        assert isinstance(got, mdp.ParamError)


@pytest.mark.slow
@SETTINGS
@given(amount=NUMBERS | st.integers(-2**200, 2**200))
def test_a_payout_amount_from_python_is_exact_or_refused(amount):
    got = params_of("shutbox", scoring="payout", payout=[(0, 0, amount)])
    exact = amount if isinstance(amount, (int, Fraction)) and not isinstance(amount, bool) else \
        Fraction(int(amount)) if isinstance(amount, float) and whole_number(amount) is not None else None
    if exact is None:
        assert isinstance(got, mdp.ParamError), (amount, got["payout"])
    else:
        assert got["payout"] == ((0, 0, exact),)


@pytest.fixture(scope="module")
def chance_of_shutting():
    # Tiles 1-4: the exact chance of shutting the box, from the engine's win scoring, which
    # tests/test_shutbox.py checks against a brute force.
    return mdp.solve(mdp.compile(mdp.load_game("shutbox", tiles="1-4")), exact=True).value


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(amount=st.integers(1, 2**200) | st.sampled_from([2**63 - 1, 2**63, 2**64, 2**64 + 1]))
@pytest.mark.slow  # half a second or more of CPU
def test_a_payout_past_64_bits_is_paid_exactly(capsys, chance_of_shutting, amount):
    # Paying N for a shut box (score 0) and nothing else: the best play is the one that
    # shuts the box most often, worth N times that chance, exactly.
    assert main(["solve", "shutbox", "--set", "tiles=1-4", "--set", "scoring=payout",
                 "--set", f"payout=0:{amount}", "--exact", "--json"]) == 0
    assert Fraction(json.loads(capsys.readouterr().out)["exact"]) == chance_of_shutting * amount


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(["dice", "faces", "shut_pays", "tiles", "max_flips"]),
       value=INTS.map(str) | st.sampled_from(["2.5", "True", "1.0", "1e2", str(2**64), "-0"]))
@pytest.mark.slow  # half a second or more of CPU
def test_set_on_the_command_line_is_read_exactly_or_refused(capsys, name, value):
    # The solve shows the parameters in force: the value given, exactly; or one line, exit 2.
    small = [] if name == "tiles" else ["--set", "tiles=1-2"]
    code = main(["solve", "shutbox", *small, "--set", f"{name}={value}", "--json"])
    out, err = capsys.readouterr()
    number = whole_number(value)
    if code == 0:
        shown = json.loads(out)["params"][name]
        assert number is not None and str(shown) == str(number), (value, shown)
    else:
        assert code == 2 and err.startswith("mdp: error: ") and err.count("\n") == 1, err


def counting_game(start: int):
    """States start, start+1, ...: from start+k (k < 3) bet (to +k+1 or +k+2, a half each)
    or walk (to +k+3); a state past start+2 is worth its distance from start. By hand, the
    best play is worth 9/2: walk from start+2 (5, over 7/2), either from start+1 (4), bet
    from start ((4 + 5) / 2, over 3). Each state shows itself as a column ``n``."""
    from types import SimpleNamespace

    hooks = {
        "mdp_initial_state": lambda: start,
        "mdp_actions": lambda state: ["bet", "walk"] if state - start < 3 else [],
        "mdp_outcomes": lambda state, action: [(Fraction(1, 2), state + 1), (Fraction(1, 2), state + 2)]
        if action == "bet" else [(1, state + 3)],
        "mdp_terminal_value": lambda state: state - start,
        "mdp_state_columns": lambda state: {"n": state, "k": state - start},
    }
    for name, hook in hooks.items():
        hook.__name__ = name
    return SimpleNamespace(**{name: mdp.hookimpl(hook) for name, hook in hooks.items()})


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(start=st.integers(-2**200, 2**200) | st.sampled_from([2**63 - 1, 2**63, -2**63 - 1, 2**64,
                                                              2**70, 2**127, -2**127, 2**128]))
def test_states_past_64_bits_are_solved_and_shown_exactly(start):
    game = mdp.load_game(counting_game(start))
    solution = mdp.solve(mdp.compile(game), exact=True)
    assert solution.value == Fraction(9, 2)
    table = mdp.policy(solution, game)
    # Every state of the table is named by its own number, exactly: not rounded, not null.
    assert [int(n) for n in table["n"].to_list()] == [start + k for k in table["k"].to_list()]
    assert sorted(set(table["k"].to_list())) == [0, 1, 2]
    advice = mdp.advise(solution, game, n=start + 1)
    assert int(advice.state["n"]) == start + 1


@settings(max_examples=80, deadline=None)
@given(st.one_of(st.integers(-(2**70), 2**70), st.floats(-1e20, 1e20), st.sampled_from(["3.5", "x", "", "1e3"])))
def test_a_number_bounded_by_64_bits_alone_says_so_not_its_bound(value):
    # --points 3.5 said "expected a whole number of -9223372036854775807 or more": true, of
    # no use to a person. A parser of whole numbers whose only bound is 64 bits asks for a
    # whole number, and names the bound only for a number past it.
    largest = 2**63 - 1
    parse = mdp.parse_int(-largest)
    whole = whole_number(value)
    if whole is not None and -largest <= whole <= largest:
        assert parse(value) == whole
        return
    with pytest.raises(ValueError) as error:
        parse(value)
    expected = ("expected a whole number" if whole is None else
                f"expected a whole number, {'up to' if whole > 0 else 'down to'} {largest if whole > 0 else -largest} (64 bits)")
    assert str(error.value) == expected


class Flagged:
    """A game of one state whose one parameter is read by Python's ``bool`` (or numpy's,
    which reads any text but the empty one as true too: round 32, P32-10)."""

    GAME_NAME = "flagged"

    def __init__(self, parser=bool):
        self.parser = parser

    @mdp.hookimpl
    def mdp_params(self):
        return [mdp.Param("lucky", True, self.parser, "a flag")]

    @mdp.hookimpl
    def mdp_initial_state(self):
        return 0


WORDS = {"true": True, "yes": True, "on": True, "1": True,
         "false": False, "no": False, "off": False, "0": False}


def said_truth(value):
    """The truth ``value`` says, by the words people use (a number by its text: 0 and 1, not
    1.0); ``None`` where it says none."""
    return value if isinstance(value, bool) else WORDS.get(str(value).strip().lower())


@pytest.mark.slow
@SETTINGS
@given(value=st.booleans() | st.sampled_from(sorted(WORDS)).flatmap(
    lambda word: st.sampled_from([word, word.upper(), word.title(), f" {word} "]))
    | TEXTS | NUMBERS, parser=st.sampled_from([bool, np.bool_]))
def test_a_truth_parameter_is_read_as_it_says_or_refused(value, parser):
    """Python's bool as a parameter's parser read "False", "no" and "0" as true (any text
    not empty is): a rule the user turned off was played. It reads the words of a truth."""
    expected = said_truth(value)
    got = params_of(Flagged(parser), lucky=value)
    if expected is None:
        assert isinstance(got, mdp.ParamError), (value, got)
        assert str(got).startswith("parameter lucky=")
    else:
        assert not isinstance(got, mdp.ParamError), got
        assert got["lucky"] is expected
