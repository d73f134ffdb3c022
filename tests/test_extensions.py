"""Open seams: a plugin adds an output format, a command and an analysis without touching
mdp/, through the same hooks that register mdp's own."""

import json

import polars as pl
import pytest

import mdp
from mdp.program.cli import main
from mdp.program.registry import plugins

SHUTBOX = "games/shutbox"


class TabPlugin:
    """A format (tab-separated values), a command (``mdp rules GAME``: the rules in words)
    and an analysis (``mdp choices GAME``: the number of actions per state)."""

    @mdp.hookimpl
    def mdp_formats(self):
        return [mdp.Format("tsv", (".tsv",), lambda frame, file: frame.write_csv(file, separator="\t"),
                           "tab-separated values")]

    @mdp.hookimpl
    def mdp_commands(self):
        def arguments(parser):
            parser.add_argument("game")

        def run(args):
            print(mdp.load_game(args.game).describe())

        return [mdp.Command("rules", "the rules of a game in words", run, arguments)]

    @mdp.hookimpl
    def mdp_analyses(self):
        def choices(solution, game, at_least):
            table = mdp.policy(solution, game)
            counts = table.group_by(["open", "roll"], maintain_order=True).len("choices")
            return counts.filter(pl.col("choices") >= at_least)

        return [mdp.Analysis("choices", "how many choices each decision offers", choices,
                             [mdp.Param("at_least", 1, mdp.parse_int(1), "keep decisions with this many")])]


@pytest.fixture
def tab_plugin():
    plugin = TabPlugin()
    plugins().register(plugin, name="tab")
    yield plugin
    plugins().unregister(plugin)


def test_builtin_formats_are_registered_through_the_hook():
    assert list(mdp.formats()) == ["csv", "parquet", "json", "ndjson", "markdown"]
    assert "policy" in mdp.analyses()
    assert {"solve", "variants", "params", "games", "formats"} <= set(mdp.commands())


def test_a_plugin_adds_a_format(tab_plugin, tmp_path, capsys):
    out = tmp_path / "policy.tsv"
    assert main(["policy", SHUTBOX, "--set", "tiles=1-4", "--out", str(out)]) == 0
    table = pl.read_csv(out, separator="\t")
    assert table.columns == ["open", "roll", "dice", "shut", "value", "optimal", "regret"]
    assert main(["policy", SHUTBOX, "--set", "tiles=1-3", "--format", "tsv"]) == 0
    assert capsys.readouterr().out.startswith("open\troll\tdice\tshut\tvalue")
    assert "tsv" in mdp.formats()
    assert main(["formats", "--json"]) == 0
    assert {"name": "tsv", "extensions": [".tsv"], "help": "tab-separated values"} in json.loads(capsys.readouterr().out)


def test_a_plugin_adds_a_command(tab_plugin, capsys):
    assert main(["rules", SHUTBOX]) == 0
    assert capsys.readouterr().out == ("Shut the Box: tiles 1-9, 2 dice of 6 faces; may roll one die "
                                       "once every open tile is 6 or less\n")


def test_a_plugin_adds_an_analysis_that_is_a_command_and_a_call(tab_plugin, capsys):
    game = mdp.load_game(SHUTBOX, tiles="1-4")
    table = mdp.analyse("choices", mdp.solve(mdp.compile(game)), game, at_least="2")
    # By hand: at the start, tiles 1-4 are open, all 6 or less, so the player may roll two
    # dice or one: two choices.
    assert table.row(0) == ("1 2 3 4", None, 2)
    assert main(["choices", SHUTBOX, "--set", "tiles=1-4", "--at-least", "2", "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "open,roll,choices" and len(lines) == table.height + 1


def test_an_unknown_format_is_refused_before_any_work(capsys, tmp_path):
    assert main(["policy", SHUTBOX, "--format", "xml", "--out", str(tmp_path / "p.xml")]) == 2
    assert capsys.readouterr().err == "mdp: error: unknown format 'xml' (known: csv, parquet, json, ndjson, markdown)\n"
    assert list(tmp_path.iterdir()) == []


def test_two_plugins_offering_one_name_is_an_error(tab_plugin):
    twin = TabPlugin()
    plugins().register(twin, name="twin")
    try:
        with pytest.raises(mdp.MdpError, match="two plugins offer the format 'tsv'"):
            mdp.formats()
    finally:
        plugins().unregister(twin)
