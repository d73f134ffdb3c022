"""A value true or false (or a number: U36-5) set by ``--set`` (or ``--vary``, or a variant) of a parameter with
no ``show`` is recorded as itself (JSON's and a table's ``true``): where the parser reads that
text as another value, the record would be another game's setting, and it is refused in one
line naming the game and the parameter, as a default is (P35-19: ``--set k=t`` solved
k=True, recorded ``true``, which ``--set k=true`` plays as the text "true"). One whose text
reads back, or that the parser refuses (no other game), is recorded."""

from fractions import Fraction
from types import SimpleNamespace

import pytest

import mdp


def mixed(text):
    """The attacker's parser: whole numbers, fractions, t and f as truths, other text as it is."""
    text = str(text)
    if text.lstrip("-").isdigit():
        return int(text)
    if "/" in text:
        return Fraction(text)
    if text in ("t", "f"):
        return text == "t"
    return text


def yes_no(text):
    """Truths from yes and no alone."""
    if str(text) not in ("yes", "no"):
        raise ValueError("expected yes or no")
    return str(text) == "yes"


def words(text):
    """Numbers from words alone (U36-5: ``one`` is 1, ``1`` is text; R36-3: ``third`` is the
    fraction 1/3, whose text ``1/3`` is text too)."""
    return {"one": 1, "half": 0.5, "third": Fraction(1, 3)}.get(str(text), str(text))


PARSERS = {"mixed": mixed, "int": int, "float": float, "yes_no": yes_no, "int_from_0": mdp.parse_int(0),
           "words": words}
TEXTS = ["t", "f", "1", "-2", "0.5", "yes", "no", "true", "True", "false", "x", "one", "half", "third", "1/3"]


def _game(parse, default):
    @mdp.hookimpl
    def mdp_params():
        return [mdp.Param("k", default, parse, "a value")]

    @mdp.hookimpl
    def mdp_initial_state():
        return 0

    @mdp.hookimpl
    def mdp_actions(state):
        return []

    @mdp.hookimpl
    def mdp_terminal_value(state):
        return 0

    return SimpleNamespace(GAME_NAME="recorded", **{n: h for n, h in locals().items() if n.startswith("mdp_")})


def _recorded_as(value):
    """The texts a record of ``value``, true or false or a number, is typed back as (an
    oracle of the rule: JSON's text of the number)."""
    if not isinstance(value, bool):
        return [str(value)]  # (a fraction's 1/3, as tables show it)
    return ["true", "True"] if value is True else ["false", "False"]


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("parser", sorted(PARSERS))
def test_a_value_set_is_recorded_only_where_its_record_reads_back(parser, text):
    parse = PARSERS[parser]
    try:
        value = parse(text)
    except (ValueError, TypeError):
        return  # refused by its parser: the user's text, said as ever
    default = {"mixed": 1, "int": 1, "float": 1.0, "yes_no": "no", "int_from_0": 1, "words": "x"}[parser]
    game = _game(parse, default)

    def back(typed):
        try:
            return parse(typed)
        except (ValueError, TypeError):
            return None

    reads = [back(t) for t in _recorded_as(value)]  # (None: the parser refuses it, no game)
    holds = not isinstance(value, (bool, int, float, Fraction)) or all(again is None for again in reads) or any(
        again == value and type(again) is type(value) for again in reads)
    if holds:
        assert mdp.load_game(game, k=text).shown_params() == {"k": str(value) if isinstance(value, Fraction) else value}
        return
    with pytest.raises(mdp.ModelError, match=r"^game recorded: parameter k: its value .* is recorded "
                       r"as .*, which --set reads as k=.*; give the parameter a show that writes the "
                       r"text --set takes back$"):
        mdp.load_game(game, k=text).shown_params()
