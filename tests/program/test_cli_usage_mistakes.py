"""A mistake that argparse finds (a required argument left out, an option the command does not
take, a choice it does not offer) is one line naming the command and what is allowed, exit 2,
as every other mistake is: never argparse's usage block. Generated over every command."""

from __future__ import annotations

import argparse
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdp.program.cli import _parser, main
from mdp.program.registry import commands_and_analyses

COMMANDS = sorted(commands_and_analyses())


def _actions(name: str) -> list[argparse.Action]:
    """The arguments of command ``name``, as its parser holds them."""
    top = _parser(name)
    sub = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name]._actions


def _said(capsys, argv: list[str]) -> str:
    """What mdp says on stderr to ``argv``, checked to be one line, exit code 2."""
    try:  # argparse exits; an option's own reader is refused as the command runs
        code = main(argv)
    except SystemExit as exited:
        code = exited.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "usage:" not in err and "Traceback" not in err
    return err


ONCE = settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
WORDS = st.text(string.ascii_lowercase + "-_", min_size=1, max_size=12)


@settings(ONCE, max_examples=60)
@given(st.sampled_from(COMMANDS), WORDS)
@pytest.mark.slow  # half a second or more of CPU
def test_an_option_the_command_does_not_take_is_one_line(capsys, name, word):
    option = "--zz" + word
    err = _said(capsys, [name, option])
    # Either it is named as not known, or a required argument left out is said first.
    assert err.startswith(f"mdp {name}: error: ")
    assert option in err or "required" in err
    assert f"mdp {name} --help lists every option" in err


@settings(ONCE, max_examples=30)
@given(st.sampled_from([n for n in COMMANDS if any(a.required for a in _actions(n))]))
def test_a_required_argument_left_out_is_one_line_naming_what_is_required(capsys, name):
    err = _said(capsys, [name])
    required = [a for a in _actions(name) if a.required]
    assert err.startswith(f"mdp {name}: error: the following arguments are required: ")
    for action in required:
        assert (action.option_strings[0] if action.option_strings else action.metavar or action.dest) in err


# The arguments argparse itself offers choices for (export --format, completion's shell).
CHOOSING = [(n, a.option_strings[:1], tuple(a.choices)) for n in COMMANDS for a in _actions(n)
            if a.choices is not None and not isinstance(a, argparse._SubParsersAction)]


def test_some_command_offers_choices():
    assert {(name, tuple(option)) for name, option, _ in CHOOSING} >= {("export", ("--format",)),
                                                                       ("completion", ())}


@settings(ONCE, max_examples=40)
@given(st.sampled_from(CHOOSING), st.text(string.ascii_letters, min_size=1, max_size=8))
@pytest.mark.slow  # half a second or more of CPU
def test_a_choice_not_offered_is_one_line_naming_the_choices(capsys, choosing, value):
    name, option, choices = choosing
    if value in choices:
        return
    err = _said(capsys, [name, *option, value])
    if err.startswith("mdp: error: "):  # an analysis's option, read by its Param
        said = f"mdp: error: {option[0]} {value}: allowed: {', '.join(choices)}"
        # A value near one of the choices is followed by that choice as a guess.
        guess = err.removeprefix(said).removesuffix("\n")
        assert err.startswith(said) and guess in ("", *(f"; did you mean {c}?" for c in choices)), err
        return
    assert err.startswith(f"mdp {name}: error: argument ")
    assert f"invalid choice: {value!r}" in err and all(repr(c) in err for c in choices)


def test_the_example_of_the_findings(capsys):
    assert _said(capsys, ["simulate", "shutbox"]) == (
        "mdp simulate: error: the following arguments are required: --games (required: game "
        "--games N; mdp simulate --help lists every option)\n")
    assert _said(capsys, ["simulate", "shutbox", "--games", "3", "--sed", "3"]) == (
        "mdp simulate: error: unrecognized arguments: --sed 3; did you mean --seed? "
        "(mdp simulate --help lists every option)\n")
    assert _said(capsys, ["--bogus"]).startswith("mdp: error: ")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(at=st.integers(0, 3), bogus=st.sampled_from(["--bogus", "--players", "--open", "-z"]),
       state=st.sampled_from([["open=1 2", "roll=3"], ["open=1 2 3 4 5"], ["roll=3"]]))
@pytest.mark.slow  # half a second or more of CPU
def test_an_unknown_option_among_the_state_s_words_is_named_alone(capsys, at, bogus, state):
    # Before: "unrecognized arguments: --bogus open=1 2 roll=3": the state's words, which are
    # fine, named too and without their quotes.
    argv = ["advise", "games/shutbox", "--set", "tiles=1-5"]
    words = list(state)
    words.insert(at % (len(words) + 1), bogus)
    said = _said(capsys, argv + words)
    assert said.startswith(f"mdp advise: error: unrecognized arguments: {bogus} ("), said


# Every option that takes a name or a file (its metavar says so), in every command.
NAMED = sorted({(n, a.option_strings[0]) for n in COMMANDS for a in _actions(n)
                if a.option_strings and a.metavar in ("NAME", "FILE")})


@pytest.mark.slow  # half a second or more of CPU
def test_an_empty_name_or_file_is_refused_in_one_line(capsys, monkeypatch):
    """Round 25: ``--strategy ""`` was optimal play and ``--format ""`` the default format
    (``--plot ""`` no picture), exit 0: an empty value (a variable unset in a script) is no
    name, refused, never taken for the option left out."""
    import mdp

    def compile(*args, **kwargs):
        raise AssertionError("compiled before the refusal")

    monkeypatch.setattr(mdp, "compile", compile)
    from drawing import ROUNDS

    taken = []
    for name, option in NAMED:
        rounds = getattr(commands_and_analyses()[name], "rounds", False)
        game = [ROUNDS if rounds else "shutbox"] if any(
            a.required and not a.option_strings for a in _actions(name)) else []
        try:
            code = main([name, *game, option, ""])
        except SystemExit as exited:
            code = exited.code
        err = capsys.readouterr().err
        if code != 2 or err.count("\n") != 1:
            taken.append((name, option, code, err))
    assert taken == []
