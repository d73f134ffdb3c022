"""An analysis's options are declared once, as mdp.Param s: the command line's arguments are
made from them alone (mdp.program.options.add_options), and read as mdp.analyse reads the
same options in Python."""

import argparse
import csv
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp
from mdp.analysis.registry import analyses
from mdp.program.cli import _parser, main
from mdp.program.options import add_options

SHUTBOX = "games/shutbox"


def parser_of(options):
    parser = argparse.ArgumentParser(prog="mdp test")
    add_options(parser, options)
    return parser


def _words(value):
    return tuple(value) if not isinstance(value, str) else (value,)


EVERY_KIND = [
    mdp.Param("column", None, str, "a column", metavar="COLUMN=VALUE", repeat=True, positional=True),
    mdp.Param("colour", "red", mdp.parse_choice(["red", "blue"]), "the colour"),
    mdp.Param("count", None, mdp.parse_int(1), "how many", metavar="N", required=True),
    mdp.Param("loud", False, bool, "say it loud"),
    mdp.Param("also", (), _words, "one more word", metavar="WORD", repeat=True),
    mdp.Param("max_memory", None, int, "given by --max-memory", shared=True),
]


def test_every_kind_of_option_is_made_from_its_param(capsys):
    parser = parser_of(EVERY_KIND)
    args = parser.parse_args(["a=1", "b=2", "--count", "3", "--colour", "blue", "--loud",
                              "--also", "x", "--also", "y"])
    # the texts, each checked as it is read, for the Param to parse once (as --set's are)
    assert vars(args) == {"column": ["a=1", "b=2"], "colour": "blue", "count": "3", "loud": True,
                          "also": ["x", "y"]}  # max_memory: none of its own
    assert vars(parser.parse_args(["a=1", "--count", "1"])) == {
        "column": ["a=1"], "colour": None, "count": "1", "loud": False, "also": []}
    # A positional repeated option not required may be left out (advise: every column empty).
    assert parser.parse_args(["--count", "1"]).column == []
    shown = parser.format_help()
    for words in ("[COLUMN=VALUE ...]", "--colour {red,blue}", "the colour [default: red]",
                  "--count N", "--loud", "--also WORD", "one more word [repeatable]\n"):
        assert words in shown, words
    assert "max-memory" not in shown and "[default: None]" not in shown
    assert parser._option_string_actions["--colour"].choices == ("red", "blue")  # for completion
    with pytest.raises(SystemExit):
        parser.parse_args(["a=1"])
    assert "the following arguments are required: --count" in capsys.readouterr().err


@pytest.mark.parametrize("argv, line", [
    (["--count", "0"], "--count 0: expected a whole number of 1 or more"),
    (["--count", "1", "--colour", "bleu"], "--colour bleu: allowed: red, blue; did you mean blue?"),
])
def test_a_value_the_param_refuses_is_one_line_as_it_is_read(argv, line):
    with pytest.raises(mdp.ParamError) as error:
        parser_of(EVERY_KIND).parse_args(["a=1", *argv])
    assert str(error.value) == line


def test_a_required_option_left_out_in_python_is_refused():
    with pytest.raises(mdp.ParamError, match=r"^analysis simulate: games is required "
                                             r"\(the number of games to play\)$"):
        mdp.analyse(mdp.solve(mdp.compile(mdp.load_game("shutbox", tiles="1-3"))), "simulate")


# A Param of every shape: text, a whole number, a choice; once, repeated or positional.
PARSERS = {"text": (str, "word"), "number": (mdp.parse_int(0), "7"),
           "choice": (mdp.parse_choice(["a", "b"]), "b")}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(sorted(PARSERS)), st.sampled_from(["once", "switch", "repeat"]),
                          st.integers(0, 2)), min_size=1, max_size=4, unique_by=lambda t: t[0]),
       st.booleans())
def test_what_a_command_line_gives_is_what_the_param_parses(kinds, positional):
    options, argv, expected = [], [], {}
    for index, (kind, how, times) in enumerate(kinds):
        parse, text = PARSERS[kind]
        name = f"opt_{index}"
        flag = "--" + name.replace("_", "-")
        if how == "switch":
            options.append(mdp.Param(name, False, mdp.game.parsers.parse_flag, "a switch"))
            argv += [flag] * min(times, 1)
            expected[name] = times > 0
        elif how == "repeat":
            options.append(mdp.Param(name, (), parse, "some", repeat=True))
            argv += [flag, text] * times
            expected[name] = [text] * times  # kept as given: the Param parses each
        else:
            options.append(mdp.Param(name, None, parse, "one"))
            argv += [flag, text] * min(times, 1)
            expected[name] = text if times else None  # parsed once, by resolve
    if positional:
        options.append(mdp.Param("where", None, str, "where", repeat=True, positional=True))
        argv += ["x=1", "y=2"]
        expected["where"] = ["x=1", "y=2"]
    args = parser_of(options).parse_args(argv)
    assert vars(args) == expected
    # ... and mdp.analyse's reading of the same values agrees with it.
    given_ = {name: value for name, value in vars(args).items() if value is not None}
    resolved = mdp.game.params.resolve("analysis test", options, given_)
    for option in options:
        if option.name in given_ and not option.repeat:
            assert resolved[option.name] == option.parse(given_[option.name])
        elif option.repeat:  # each value parsed alone; none given, none
            assert resolved[option.name] == tuple(map(option.parse, given_.get(option.name, ())))


@pytest.mark.parametrize("name", sorted(analyses()))
def test_every_option_of_a_built_in_analysis_is_an_argument_of_its_command_and_no_more(name):
    analysis = analyses()[name]
    command = _parser(name)._subparsers._group_actions[0].choices[name]
    game = {action.dest for action in _parser("solve")._subparsers._group_actions[0].choices["solve"]._actions}
    own = {action.dest for action in command._actions} - game
    declared = {option.name for option in analysis.options if not option.shared}
    assert own == declared
    for option in analysis.options:
        if option.shared:
            assert option.name in game  # given by an argument every solving command has


@pytest.mark.parametrize("argv, header", [
    (["strategies", SHUTBOX, "--set", "tiles=1-4"], ["strategy", "value", "regret", "help"]),
    (["advise", SHUTBOX, "--set", "tiles=1-4", "open=1 2 3 4", "roll=5"],
     ["shut", "value", "regret", "optimal"]),
])
@pytest.mark.slow
def test_advise_and_strategies_write_their_table_as_every_analysis_does(argv, header, tmp_path, capsys):
    out = tmp_path / "table.csv"
    assert main([*argv, "--out", str(out)]) == 0
    rows = list(csv.reader(io.StringIO(out.read_text())))
    assert rows[0] == header
    assert f"{len(rows) - 1} rows written to {out}" in capsys.readouterr().err
    assert main([*argv, "--format", "csv"]) == 0
    assert capsys.readouterr().out == out.read_text()


# A repeated option: each value read by its parser alone, the default when none is given.
@settings(max_examples=40, deadline=None)
@given(values=st.lists(st.integers(-5, 50), max_size=4),
       default=st.one_of(st.none(), st.integers(0, 9), st.lists(st.integers(0, 9), max_size=3)))
def test_a_repeated_option_reads_each_value_alone(values, default):
    # Before: int(['1', '2']) was "x=['1', '2']: not a whole number", and with no value,
    # "x=[]: not a whole number" though the default was 3.
    option = mdp.Param("x", default, int, "x", metavar="N", repeat=True)
    args = parser_of([option]).parse_args([w for v in values for w in ("--x", str(v))])
    resolved = mdp.game.params.resolve("analysis test", [option], {"x": args.x})
    if values:
        assert resolved["x"] == tuple(values)
    else:  # the default's values: one, several, none
        assert resolved["x"] == (() if default is None else (default,) if isinstance(default, int)
                                 else tuple(default))


ZZ = """
import mdp
import polars as pl

@mdp.hookimpl
def mdp_analyses():
    return [mdp.Analysis("zz", "odd options", lambda solution, game, **o: pl.DataFrame({"o": [repr(o)]}),
                         [OPTIONS])]
"""


@pytest.mark.parametrize("options, fault", [
    ('mdp.Param("flag", False, bool, "a switch", positional=True)',
     "option flag is a switch (default False), which cannot be positional"),
    ('mdp.Param("a", None, str, "a", positional=True, repeat=True), '
     'mdp.Param("b", None, str, "b", positional=True, repeat=True)',
     "option b is positional after option a, positional with repeat, which takes every value: "
     "b could never be given"),
    ('mdp.Param("a", None, str, "a", positional=True, repeat=True), mdp.Param("b", None, str, "b", positional=True)',
     "option b is positional after option a, positional with repeat, which takes every value: "
     "b could never be given"),
    # Round 34, P34-09: an option named as an argument the analysis is given broke its call.
    ('mdp.Param("solution", 1, int, "s")', "option solution is named as an argument the analysis is given "
     "(solution, name, game: mdp.analyse(solution, name, game, **options)); name it otherwise"),
    ('mdp.Param("name", 1, int, "n")', "option name is named as an argument the analysis is given "
     "(solution, name, game: mdp.analyse(solution, name, game, **options)); name it otherwise"),
    ('mdp.Param("a", 1, int, "a", positional=True), mdp.Param("b", None, int, "b", positional=True, required=True)',
     "option b is positional and required after option a, positional and not: a value given alone would go to b"),
    ('mdp.Param("x", 1, int, "x", metavar="N\\x1b[31m")', "option x: its metavar is 'N\\x1b[31m', not one line of text"),
    ('mdp.Param("x", 1, int, "x", metavar="N\\n")', "option x: its metavar is 'N\\n', not one line of text"),
    ('mdp.Param("x", 1, int, "x", show=lambda v: str(v + 1))',
     "option x: its show gave '2' for x=1, which --set reads as x=2; a value is shown as "
     "the text --set takes back"),
])
def test_an_option_no_command_line_can_give_is_refused_as_the_plugin_loads(tmp_path, capsys, options, fault):
    # Before: two positional repeats were taken (b never given), a positional switch was
    # argparse's TypeError, a metavar's ESC went raw into --help, a show's lie believed.
    plugin = tmp_path / "zz.py"
    plugin.write_text(ZZ.replace("OPTIONS", options))
    assert main(["zz", SHUTBOX, "-p", str(plugin), "--help"]) == 2
    assert capsys.readouterr().err == (f"mdp: error: a plugin of mdp: plugin {plugin}'s mdp_analyses "
                                       f"returned an mdp.Analysis 'zz' whose {fault}\n")


@pytest.mark.parametrize("given", [[], ["7"], ["7", "8"]])
def test_a_positional_option_left_out_is_its_default_and_named_by_its_name(tmp_path, capsys, given):
    # Before (round 32, P32-05): a positional option with a default, not required, was
    # demanded ("the following arguments are required: VALUE"), though --help showed its
    # default; two of them were both VALUE.
    plugin = tmp_path / "zz.py"
    plugin.write_text(ZZ.replace("OPTIONS", 'mdp.Param("first", 1, int, "f", positional=True), '
                                            'mdp.Param("second", 2, int, "s", positional=True)'))
    assert main(["zz", SHUTBOX, "--set", "tiles=1-3", "-p", str(plugin), *given, "--format", "csv"]) == 0
    first, second = [*map(int, given), 1, 2][:2] if given else (1, 2)
    if len(given) == 1:
        second = 2
    assert f"'first': {first}, 'second': {second}" in capsys.readouterr().out
    with pytest.raises(SystemExit) as helped:
        main(["zz", SHUTBOX, "-p", str(plugin), "--help"])
    assert helped.value.code == 0
    assert "[FIRST] [SECOND]" in " ".join(capsys.readouterr().out.split())


TEXTS_ONLY = """
import mdp
import polars as pl

def words(text):  # reads the text a user types, and nothing else
    if not isinstance(text, str):
        raise RuntimeError(f"handed {text!r}, not a text")
    return frozenset(text.split(","))

@mdp.hookimpl
def mdp_analyses():
    return [mdp.Analysis("zz", "odd options", lambda solution, game, **o: pl.DataFrame(
        {k: ["+".join(sorted(v)) if isinstance(v, frozenset) else repr(v)] for k, v in sorted(o.items())}),
        [mdp.Param("k", "d,e", words, "words"), mdp.Param("pos", None, words, "words", positional=True)])]
"""


@pytest.mark.parametrize("argv, row", [
    (["--k", "a,b", "x"], "a+b,x"),
    (["y,z"], "d+e,y+z"),  # the default, given as text, read by the same parser
])
def test_an_option_s_parser_is_handed_the_text_typed_never_its_own_answer(tmp_path, capsys, argv, row):
    # Before: argparse's type= parsed the text, and the analysis parsed that answer again:
    # "the parser of parameter k raised AttributeError ... (value frozenset({'b', 'a'}))".
    plugin = tmp_path / "zz.py"
    plugin.write_text(TEXTS_ONLY)
    assert main(["zz", SHUTBOX, "--set", "tiles=1-3", "-p", str(plugin), *argv, "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == row


def test_a_repeated_option_says_it_repeats_and_its_default():
    # Round 24: a repeated option's help said neither (its default went to the analysis unsaid).
    shown = parser_of([mdp.Param("tag", ("a", "b"), str, "tags", repeat=True),
                       mdp.Param("mark", (), str, "marks", repeat=True)]).format_help()
    assert "tags [repeatable; default: a b]" in shown and "marks [repeatable]\n" in shown


def test_the_help_says_the_default_as_the_analysis_gets_it():
    """Round 26: the help said the default as declared ("05", "  x ", "3 01"), where the
    analysis is given what its parser reads (5, "x", (3, 1)), as ``mdp params`` says a game's."""
    from mdp.game.parsers import parse_int

    parser = parser_of([mdp.Param("top", "05", int, "how many"),
                        mdp.Param("tag", "  x ", str.strip, "a tag"),
                        mdp.Param("many", ("3", "01"), parse_int(0), "several", repeat=True)])
    said = " ".join(parser.format_help().split())
    assert "how many [default: 5]" in said and "a tag [default: x]" in said
    assert "several [repeatable; default: 3 1]" in said
