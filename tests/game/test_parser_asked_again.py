"""A parameter's parser is asked more than once in a command (the default as the game's
parameters are collected, then as they are resolved; a value read back from its show): one
that gives another answer when asked again had another game solved than the one asked for,
and --json record a value no one set (``--set pay=5`` solved and recorded pay=6). Each value
is parsed twice, where every parse passes (:func:`mdp.game.params.parsed`), and two answers
that differ are refused in one line naming the game and the parameter; a parser that is a
function of its value alone is never refused, and the game gets its answer.

The game: ``go`` wins pay with chance 1/2 (else 0), ``stay`` gets 1: worth max(pay/2, 1),
by hand."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import GO_OR_STAY, go_or_stay

import mdp
from mdp.program.cli import main


def game(parse, default=3, variants=(), show=None):
    return go_or_stay(mdp.Param("pay", default, parse, "the prize", show=show),
                      lambda params: params["pay"], variants=variants)


def drifting(offsets):
    """A parser that adds ``offsets`` in turn, call by call (and again from the first)."""
    calls = [0]

    def parse(value):
        calls[0] += 1
        return int(value) + offsets[(calls[0] - 1) % len(offsets)]

    return parse


# Offsets that differ from one call to the next: no two answers in a row alike.
CHANGING = st.lists(st.integers(-3, 3), min_size=2, max_size=5).filter(
    lambda offsets: all(a != b for a, b in zip(offsets, offsets[1:] + offsets[:1])))
WAYS = ("default", "set", "variant")


@settings(max_examples=60, deadline=None)
@given(offsets=CHANGING, way=st.sampled_from(WAYS), value=st.integers(0, 9))
def test_a_parser_that_answers_otherwise_when_asked_again_is_refused(offsets, way, value):
    default = 3 if way == "default" else None  # None: not parsed until a value is given
    variants = [mdp.Variant("v", {"pay": str(value)}, "a prize")] if way == "variant" else []
    with pytest.raises(mdp.ModelError) as error:
        mdp.load_game(game(drifting(offsets), default, variants),
                      variant="v" if way == "variant" else None,
                      **({"pay": str(value)} if way == "set" else {}))
    text = str(error.value)
    assert text.startswith("game par: ") and "parameter pay" in text and "\n" not in text, text
    assert "asked again" in text, text


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(scale=st.integers(1, 4), shift=st.integers(0, 5), way=st.sampled_from(WAYS),
       value=st.integers(0, 9))
def test_a_parser_of_its_value_alone_is_taken(scale, shift, way, value):
    def parse(text):
        return int(text) * scale + shift

    default = 3 if way == "default" else None
    variants = [mdp.Variant("v", {"pay": str(value)}, "a prize")] if way == "variant" else []
    # Shown as the text it is read from (else, recorded as the number, it reads back as
    # another: refused, tests/game/test_param_set_recorded.py).
    loaded = mdp.load_game(game(parse, default, variants, show=lambda pay: str((pay - shift) // scale)),
                           variant="v" if way == "variant" else None,
                           **({"pay": str(value)} if way == "set" else {}))
    read = (3 if way == "default" else value) * scale + shift
    assert loaded.params["pay"] == read
    value_by_hand = max(Fraction(read, 2), 1)  # the game's docstring
    assert mdp.solve(mdp.compile(loaded), exact=True).value == value_by_hand


# The first answer right, every later one 1 more.
PAR = GO_OR_STAY.replace("PARSE", "_calls = [0]\n\ndef parse(text):\n    _calls[0] += 1\n"
                         "    return int(text) + (_calls[0] > 1)").replace(
    "DEFAULT", "3").replace("SHOW", "").replace("ACT", "pass").replace("WORTH", 'params["pay"]')


@pytest.mark.parametrize("setting", [[], ["--set", "pay=5"]])
def test_the_command_line_refuses_it(tmp_path, capsys, setting):
    # Before: "params": {"pay": 6}, "value": 3.0 for --set pay=5 (and pay 4 for no setting), exit 0.
    path = tmp_path / "par.py"
    path.write_text(PAR)
    assert main(["solve", str(path), *setting, "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == ("mdp: error: game par: the parser of parameter pay read 3 as 3, and as 4 when "
                   "asked again; a parser gives one value for one text, however often it is asked\n")


RULE = '''
import mdp
GAME = "shutbox"
_calls = [0]

def parse(text):
    _calls[0] += 1
    return int(text) + _calls[0]  # another answer each time

@mdp.hookimpl
def mdp_params():
    return [mdp.Param("extra", None, parse, "an extra")]
'''


def test_a_rule_plugins_parser_is_blamed_on_the_plugin(tmp_path, capsys):
    path = tmp_path / "drift.py"
    path.write_text(RULE)
    assert main(["solve", "shutbox", "--set", "tiles=1-3", "--set", "extra=4", "-p", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"mdp: error: game shutbox: plugin {path}'s mdp_params: the parser of parameter extra read "
        "'4' as 5, and as 6 when asked again; a parser gives one value for one text, however "
        "often it is asked\n")


@pytest.mark.parametrize("first", [None, "3", 3.5, (3,)], ids=repr)
def test_an_answer_of_another_type_the_second_time_is_refused(first):
    answers = iter([first])

    def parse(text):
        return next(answers, int(text))  # ``first``, then the number

    with pytest.raises(mdp.ModelError, match=r"^game par: the parser of parameter pay read '3' as "
                                             r".*, and as 3 when asked again"):
        mdp.load_game(game(parse, None), pay="3")
