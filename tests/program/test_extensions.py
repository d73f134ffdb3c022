"""Open seams: a plugin adds an output format, a command and an analysis without touching
mdp/, through the same hooks that register mdp's own."""

import contextlib
import importlib.util
import inspect
import io
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
import mdp.hookspecs.game
import mdp.hookspecs.program
from mdp.program.cli import main
from mdp.program.registry import plugins

ROOT = Path(__file__).resolve().parents[2]
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


@pytest.mark.slow
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


@pytest.mark.slow  # half a second or more of CPU
def test_a_plugin_adds_an_analysis_that_is_a_command_and_a_call(tab_plugin, capsys):
    game = mdp.load_game(SHUTBOX, tiles="1-4")
    table = mdp.analyse(mdp.solve(mdp.compile(game)), "choices", game, at_least="2")
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


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(["r.csv", "-", "r", "r.html.txt", "r.HTML", "r.htm", "r.png", ".html"]))
def test_the_page_of_report_is_refused_by_its_extension_before_any_work(capsys, tmp_path_factory,
                                                                         monkeypatch, name):
    # mdp report --out r.csv wrote the page into r.csv, and -o - a file named "-", without a
    # word, where the table commands refuse an extension they do not write. The page is
    # .html or .htm (any case), refused otherwise before the game is compiled.
    def compile(*args, **kwargs):
        raise mdp.ParamError("compiled")

    monkeypatch.setattr(mdp, "compile", compile)
    folder = tmp_path_factory.mktemp("page")
    with contextlib.chdir(folder):
        got = main(["report", str(ROOT / "docs" / "examples" / "reroll.py"), "--out", name])
    err = capsys.readouterr().err
    if name.lower().endswith((".html", ".htm")):
        assert (got, err) == (2, "mdp: error: compiled\n")  # past the check
    elif name == "-":  # no file's name (round 33, U33-06)
        assert (got, err) == (2, "mdp: error: --out -: '-' names no file here; ./- is a file named -\n")
    else:
        assert (got, err) == (2, f"mdp: error: {name}: the page is written as .html or .htm\n")
    assert list(folder.iterdir()) == []


def test_two_plugins_offering_one_name_is_an_error(tab_plugin):
    twin = TabPlugin()
    plugins().register(twin, name="twin")
    try:
        with pytest.raises(mdp.MdpError, match=r"two plugins offer the format 'tsv' \(plugin tab and plugin twin\)"):
            mdp.formats()
    finally:
        plugins().unregister(twin)


TAKER = '''
import mdp

def _taken(*args, **kwargs):
    raise AssertionError("a plugin's {kind} ran in place of mdp's own")

@mdp.hookimpl
def mdp_{kind}s():
    return [mdp.{cls}({name!r}, "mdp's own, taken over", _taken)]
'''
MDP_NAMES = ["solve", "params", "variants", "games", "formats", "export", "report",
             "completion", "policy", "distribution", "simulate", "strategies", "advise", "lengths",
             "match", "targets"]


def test_the_names_of_mdps_commands_are_every_builtin_name():
    from mdp.program.registry import commands_and_analyses

    assert sorted(commands_and_analyses()) == sorted(MDP_NAMES)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["command", "analysis"])
@pytest.mark.parametrize("name", MDP_NAMES)
def test_a_plugin_never_takes_the_name_of_mdps_own_command_or_analysis(tmp_path, capsys, kind, name):
    # Before: an analysis named solve silently replaced mdp solve (found by an attack).
    plugin = tmp_path / "taker.py"
    cls = "Command" if kind == "command" else "Analysis"
    plugin.write_text(TAKER.format(kind=kind.replace("analysis", "analyse"), cls=cls, name=name))
    assert main(["-p", str(plugin), name, SHUTBOX, "--set", "tiles=1-3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert f"plugin {plugin}" in err and f"'{name}'" in err and "mdp and" in err, err


@pytest.mark.parametrize("kind", ["command", "analysis"])
def test_a_plugin_never_takes_the_name_of_the_completion_command(tmp_path, capsys, kind):
    # Before: a plugin's command named __complete took over the completion scripts' command
    # with no word, which is not among the commands listed (the scripts hide its errors).
    plugin = tmp_path / "taker.py"
    cls = "Command" if kind == "command" else "Analysis"
    plugin.write_text(TAKER.format(kind=kind.replace("analysis", "analyse"), cls=cls, name="__complete"))
    assert main(["-p", str(plugin), "__complete", "solve", "sh"]) == 2
    assert capsys.readouterr().err == (f"mdp: error: plugin {plugin} offers '__complete', the name of "
                                       "mdp's own command that the shells' completion scripts run at "
                                       "each Tab; name it otherwise\n")


# Every built-in analysis is an mdp.Analysis: one road for mdp.analyse and the command.

TILES = "1-4"


@pytest.fixture(scope="module")
def small():
    game = mdp.load_game(SHUTBOX, tiles=TILES)
    model = mdp.compile(game)
    return game, model, mdp.solve(model, exact=True)


def test_every_builtin_analysis_is_registered_through_the_hook():
    names = ["policy", "distribution", "simulate", "strategies", "advise", "lengths", "match",
             "targets"]
    assert list(mdp.analyses()) == names
    # The commands of those names are built from them.
    assert not set(names) & set(mdp.commands())


def test_analyse_gives_the_table_of_the_python_call(small):
    game, model, solution = small
    assert mdp.analyse(solution, "distribution", game).equals(mdp.distribution(solution, game))
    assert mdp.analyse(solution, "distribution", game, tie_break="min:open_sum").equals(
        mdp.distribution(solution, game, tie_break=["min:open_sum"]))
    assert mdp.analyse(solution, "simulate", game, games=1000, seed=1).equals(
        mdp.simulate(solution, game, games=1000, seed=1).outcomes)
    assert mdp.analyse(solution, "simulate", game, games="1000", seed="1").equals(
        mdp.simulate(solution, game, games=1000, seed=1).outcomes)  # text, as on the command line
    assert mdp.analyse(solution, "strategies", game).equals(mdp.strategy_values(model, game, exact=True))
    advice = mdp.advise(solution, game, open="1 2 3 4", roll=5).actions
    assert mdp.analyse(solution, "advise", game, state={"open": "1 2 3 4", "roll": 5}).equals(advice)
    assert mdp.analyse(solution, "advise", game, state=["open=1 2 3 4", "roll=5"]).equals(advice)
    match = mdp.match(model, game, exact=True)
    table = mdp.analyse(solution, "match", game, players=2)
    assert table.columns == ["player", "value", "exact"]
    assert [Fraction(v) for v in table["exact"]] == list(match.values)
    # An analysis that solves what it needs itself takes the model too (float, unless asked).
    assert mdp.analyse(model, "match", game)["value"].to_list() == list(mdp.match(model, game).values)


@pytest.mark.slow
def test_analyse_on_the_standard_box_gives_its_published_chance():
    # Shutting every tile is winning: its chance is the game's value, 956177159/9795520512
    # (docs/quickstart.rst, and the Riddler's figure of 9.7614%).
    game = mdp.load_game(SHUTBOX)
    table = mdp.analyse(mdp.solve(mdp.compile(game), exact=True), "distribution", game)
    assert table.filter(pl.col("open_sum") == 0)["exact"].to_list() == ["956177159/9795520512"]


def test_a_later_player_is_advised_through_analyse(small):
    game, model, solution = small
    money = mdp.later_player_values(model, game, ["3"], exact=True)
    expected = mdp.advise(mdp.solve(model, terminal=money, exact=True, sense="max"), game, open="1 2 3 4", roll=5)
    got = mdp.analyse(solution, "advise", game, state={"open": "1 2 3 4", "roll": 5}, after="3")
    assert got.drop("after_1").equals(expected.actions) and set(got["after_1"]) == {"3"}


def test_analyse_refuses_what_an_analysis_cannot_take(small):
    game, model, solution = small
    with pytest.raises(mdp.ParamError) as error:
        mdp.analyse(model, "policy", game)
    assert str(error.value) == "analysis policy takes a solution (mdp.solve(model)), not CompiledModel"
    with pytest.raises(mdp.ParamError) as error:
        mdp.analyse(solution, "distrbution", game)
    assert str(error.value).startswith("unknown analysis 'distrbution'; did you mean distribution? (known: policy, ")
    with pytest.raises(mdp.ParamError) as error:
        mdp.analyse(solution, "simulate", game, games=0)
    assert str(error.value) == "analysis simulate: option games=0: expected a whole number of 1 or more"
    with pytest.raises(mdp.ParamError) as error:
        mdp.analyse(solution, "advise", game, state=["open"])
    assert str(error.value) == "state 'open': expected COLUMN=VALUE ..."


@pytest.mark.slow
def test_a_plugins_analysis_prints_itself_for_people(capsys):
    # docs/examples/blunders.py, the example of docs/writing-a-game.rst. By hand: with tile 1
    # alone open, two dice can never total 1 (the game is lost) while one die rolls a 1 with
    # chance 1/6, so choosing two dice there loses 1/6, the costliest mistake of tiles 1-4.
    blunders = _example("blunders")
    plugins().register(blunders, name="blunders")
    try:
        assert main(["blunders", SHUTBOX, "--set", "tiles=1-4", "--top", "1"]) == 0
        assert capsys.readouterr().out.splitlines()[1] == "0.1667 lost: open 1, dice 2"
        assert main(["blunders", SHUTBOX, "--set", "tiles=1-4", "--top", "1", "--format", "tsv"]) == 0
        assert capsys.readouterr().out.splitlines() == [
            "open\troll\tdice\tshut\tvalue\toptimal\tregret", "1\t\t2\t\t0.0\tfalse\t0.16666666666666666"]
    finally:
        plugins().unregister(blunders)


def _example(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "docs" / "examples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Model exports through a hook of their own.


def test_prism_is_the_builtin_export():
    assert list(mdp.exports()) == ["prism"]
    prism = mdp.exports()["prism"]
    assert prism.beside == ((".props", "the property"),)


def test_a_plugins_export_is_offered_and_used(capsys, tmp_path):
    blunders = _example("blunders")
    plugins().register(blunders, name="blunders")
    try:
        assert list(mdp.exports()) == ["prism", "terminals"]
        out = tmp_path / "ends.csv"
        assert main(["export", SHUTBOX, "--set", "tiles=1-4", "--format", "terminals", "--out", str(out)]) == 0
        model = mdp.compile(mdp.load_game(SHUTBOX, tiles="1-4"))
        assert capsys.readouterr().err == f"the model of {model.n_states:,} states exported to {out}\n"
        assert pl.read_csv(out, schema=model.terminals.schema).equals(model.terminals)
        with pytest.raises(SystemExit):
            main(["export", SHUTBOX, "--format", "xml", "--out", str(tmp_path / "x")])
        assert capsys.readouterr().err.endswith(
            "mdp export: error: argument --format/-f: invalid choice: 'xml' (choose from 'prism', 'terminals')\n")
        with pytest.raises(SystemExit):
            main(["export", "--help"])
        assert "terminals: the terminal states' columns, as CSV [default: prism]" in " ".join(
            capsys.readouterr().out.split())
    finally:
        plugins().unregister(blunders)
    assert list(tmp_path.iterdir()) == [out]


# A hook in the wrong place is an error naming the right one.


@pytest.fixture
def misplaced_plugin(tmp_path, monkeypatch):
    """An installed package offering, in the mdp.plugins entry-point group, a plugin that
    implements a game's hook: it would never be called."""
    (tmp_path / "misplaced_0.dist-info").mkdir()
    (tmp_path / "misplaced_0.dist-info" / "entry_points.txt").write_text(
        "[mdp.plugins]\nmisplaced = misplaced_plugin\n")
    (tmp_path / "misplaced_plugin.py").write_text(
        "import mdp\n\n@mdp.hookimpl\ndef mdp_actions(state):\n    return []\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    plugins.cache_clear()
    yield
    monkeypatch.undo()
    plugins.cache_clear()


def test_a_game_hook_in_a_program_plugin_is_an_error(misplaced_plugin, capsys):
    message = ("plugin misplaced: mdp_actions is a hook of a game, not of the mdp program: "
               "implement it in the game module or a rule plugin registered beside it")
    with pytest.raises(mdp.ModelError) as error:
        mdp.formats()
    assert str(error.value) == message
    assert main(["formats"]) == 2
    assert capsys.readouterr().err == f"mdp: error: {message}\n"


def test_each_plugin_manager_knows_only_its_own_hooks():
    game = mdp.load_game(SHUTBOX)
    program = {name for name in dir(mdp.hookspecs.program) if name.startswith("mdp_")}
    own = {name for name in dir(mdp.hookspecs.game) if name.startswith("mdp_")}
    assert program == {"mdp_formats", "mdp_commands", "mdp_analyses", "mdp_exports"}
    assert {h for h in own | program if _specified(game.plugins, h)} == own
    assert {h for h in own | program if _specified(plugins(), h)} == program


def _specified(manager, hook):
    caller = getattr(manager.hook, hook, None)
    return caller is not None and caller.spec is not None


def test_every_hook_spec_is_typed():
    for module in (mdp.hookspecs.game, mdp.hookspecs.program):
        for name in dir(module):
            if name.startswith("mdp_"):
                signature = inspect.signature(getattr(module, name))
                assert signature.return_annotation is not inspect.Signature.empty, name
                assert all(p.annotation is not inspect.Parameter.empty
                           for p in signature.parameters.values()), name


def test_a_plugin_whose_hook_raises_is_one_line(capsys):
    class Broken:
        @mdp.hookimpl
        def mdp_formats(self):
            raise ValueError("no formats today")

    broken = Broken()
    plugins().register(broken, name="broken")
    try:
        assert main(["policy", SHUTBOX, "--set", "tiles=1-3"]) == 2
        assert capsys.readouterr().err == ("mdp: error: a plugin of mdp: plugin broken's "
                                           "mdp_formats raised ValueError: no formats today\n")
    finally:
        plugins().unregister(broken)


async def _never_awaited():
    return 0


EXIT_CODES = st.one_of(st.none(), st.integers(-300, 300), st.integers(2**62, 2**70),
                       st.integers(0, 255).map(np.int64), st.integers(0, 255).map(np.uint8),
                       st.booleans(), st.floats(), st.text(max_size=3), st.text(min_size=60),
                       st.lists(st.integers(0, 3), max_size=2),
                       st.builds(lambda: (n for n in range(3))),  # a run that is a generator's
                       st.builds(_never_awaited), st.builds(object))


@settings(max_examples=40, deadline=None)
@given(EXIT_CODES)
@pytest.mark.slow  # half a second or more of CPU
def test_a_command_ends_with_the_code_it_returns_or_is_refused(code):
    """A command's ``run`` returns its exit code: None (0) or a whole number of 0 to 255 is
    the exit code (a numpy integer too: sys.exit took np.int64(5) for a message, exit 1);
    anything else is the command's fault, one line and exit 2 (300 ended as 44, -1 as 255,
    "abc" as 1 with a bare line)."""

    class Ending:
        @mdp.hookimpl
        def mdp_commands(self):
            return [mdp.Command("ending", "ends", lambda args: code)]

    ending = Ending()
    plugins().register(ending, name="ending")
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            returned = main(["ending"])
    finally:
        plugins().unregister(ending)
    plain = code.item() if isinstance(code, np.generic) else code
    if plain is None or (type(plain) is int and 0 <= plain <= 255):
        assert (returned, err.getvalue()) == (plain or 0, "")
    else:
        assert returned == 2
        assert err.getvalue().startswith("mdp: error: command ending returned ")
        assert err.getvalue().endswith("returns None or its exit code, a whole number of 0 to 255\n")
        assert err.getvalue().count("\n") == 1
        assert " at 0x" not in err.getvalue()  # (an object's address cut short: "<generator ...")


def test_a_command_whose_arguments_raise_is_one_line_naming_it(tmp_path, capsys):
    plugin = tmp_path / "argraise.py"
    plugin.write_text("import mdp\n@mdp.hookimpl\ndef mdp_commands():\n"
                      "    return [mdp.Command('arg_raise', 'h', lambda a: 0, lambda p: 1 / 0)]\n")
    line = (f"plugin {plugin}'s command arg_raise: adding its arguments raised "
            "ZeroDivisionError: division by zero")
    assert main(["-p", str(plugin), "arg_raise"]) == 2
    assert capsys.readouterr().err == f"mdp: error: {line}\n"
    with pytest.raises(SystemExit) as exited:  # --help answers anyway, with mdp's own commands
        main(["-p", str(plugin), "--help"])
    assert exited.value.code == 0
    said = capsys.readouterr()
    assert said.err == f"mdp: warning: {line}; mdp's own commands alone are offered\n"
    assert "arg_raise" not in said.out and "usage: mdp" in said.out


@pytest.mark.slow
@pytest.mark.parametrize("misuse", ["file.read()", "file.readline()", "file.readinto(bytearray(4))",
                                    "file.readlines()"])
def test_a_format_that_reads_the_file_it_writes_is_its_fault(capsys, tmp_path, misuse):
    """A writer that reads its file, open to write, raised io.UnsupportedOperation (an
    OSError), said as the user's target failing: "cannot write to t.rb: UnsupportedOperation"."""
    plugin = tmp_path / "reading.py"
    plugin.write_text("import mdp\n\ndef write(frame, file):\n    frame.write_csv(file)\n"
                      f"    file.seek(0)\n    {misuse}\n\n@mdp.hookimpl\ndef mdp_formats():\n"
                      "    return [mdp.Format('rb', ('.rb',), write, 'reads back')]\n")
    out = tmp_path / "t.rb"
    assert main(["-p", str(plugin), "policy", SHUTBOX, "--set", "tiles=1-3", "--out", str(out)]) == 2
    assert capsys.readouterr().err.startswith(
        f"mdp: error: plugin {plugin}'s format rb raised UnsupportedOperation: ")
    assert not out.exists()


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 5000), st.booleans())
def test_a_table_that_fails_halfway_leaves_standard_output_empty(capsys, written, piece_by_piece):
    """A table is made whole before a byte of it is printed: a writer that fails after
    ``written`` bytes (a game's column refused in a later piece did so) leaves standard
    output empty, and the fault is the one line."""

    def failing(frame, file):
        file.write(b"x" * written)
        raise ValueError("halfway")

    def stream(pieces, file):
        for piece in pieces:
            failing(piece, file)

    class Failing:
        @mdp.hookimpl
        def mdp_formats(self):
            return [mdp.Format("half", (".half",), failing, stream=stream if piece_by_piece else None)]

    failing_plugin = Failing()
    plugins().register(failing_plugin, name="failing")
    capsys.readouterr()
    try:
        returned = main(["policy", SHUTBOX, "--set", "tiles=1-3", "--format", "half"])
    finally:
        plugins().unregister(failing_plugin)
    assert (returned, *capsys.readouterr()) == (
        2, "", "mdp: error: plugin failing's format half raised ValueError: halfway\n")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.integers(-3, 30).map(str), st.text(max_size=4)))
@pytest.mark.slow  # half a second or more of CPU
def test_an_option_s_default_its_parser_refuses_is_the_plugin_s_fault(capsys, default):
    """A default given as text is read by the option's parser when no value is given: one
    it refuses was reported as the user's "--n abc", though the user gave no --n."""
    seen = []

    class Counting:
        @mdp.hookimpl
        def mdp_analyses(self):
            def run(solution, game, n):
                seen.append(n)
                return pl.DataFrame({"n": [n]})

            return [mdp.Analysis("counting", "n", run, [mdp.Param("n", default, mdp.parse_int(1), "n")])]

    counting = Counting()
    plugins().register(counting, name="counting")
    capsys.readouterr()
    try:
        returned = main(["counting", SHUTBOX, "--set", "tiles=1-2", "--format", "csv"])
    finally:
        plugins().unregister(counting)
    out, err = capsys.readouterr()
    if default.isascii() and default.isdigit() and int(default) >= 1:
        assert (returned, seen, out) == (0, [int(default)], f"n\n{int(default)}\n")
    else:
        assert (returned, out, seen) == (2, "", [])
        # Refused as the plugin loads, naming it (before: when the command ran).
        assert err.startswith(f"mdp: error: a plugin of mdp: plugin counting's mdp_analyses "
                              f"returned an mdp.Analysis 'counting' whose option n: the default "
                              f"of option n, {default!r}, is refused by its own parser (")
        assert err.count("\n") == 1


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 3), st.booleans())
@pytest.mark.slow  # half a second or more of CPU
def test_a_format_that_writes_nothing_of_a_table_is_refused(tmp_path_factory, written, generator):
    """A write that wrote nothing (or is a generator, which never runs) was reported as
    "N rows written" beside an empty file; the old file now stays and the line says why."""

    def write(frame, file):
        file.write(b"x" * written)

    def writing(frame, file):
        yield file.write(b"x" * written)

    class Offering:
        @mdp.hookimpl
        def mdp_formats(self):
            return [mdp.Format("some", (".some",), writing if generator else write)]

    offering = Offering()
    out = tmp_path_factory.mktemp("out") / "policy.some"
    out.write_text("keep")
    plugins().register(offering, name="offering")
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            returned = main(["policy", SHUTBOX, "--set", "tiles=1-2", "--out", str(out)])
    finally:
        plugins().unregister(offering)
    if written and not generator:
        assert (returned, out.read_text()) == (0, "x" * written)
    else:
        assert (returned, out.read_text()) == (2, "keep")
        assert err.getvalue().startswith("mdp: error: plugin offering's format some wrote nothing of a table of ")


SUMMARY_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=3),
                           st.floats(), st.integers(-5, 5).map(np.int64), st.just(np.array([1, 2])),
                           st.frozensets(st.integers(0, 2), max_size=2), st.binary(max_size=2))
SUMMARIES = st.recursive(SUMMARY_LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=2), inner, max_size=3)), max_leaves=6)


def _plain_json(value):
    """What JSON holds of ``value`` (an infinity is null, as any number past a float is in
    mdp's JSON), or ValueError where it holds nothing."""
    if isinstance(value, (frozenset, bytes)) or isinstance(value, float) and math.isnan(value):
        raise ValueError
    if isinstance(value, float) and math.isinf(value):
        return None
    if isinstance(value, (np.generic, np.ndarray)):
        return value.tolist()
    if isinstance(value, list):
        return [_plain_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain_json(v) for k, v in value.items()}
    return value


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(SUMMARIES)
def test_a_summary_is_printed_as_the_json_it_holds_or_refused_as_the_analysis_s(capsys, summary):
    """numpy's numbers and arrays are the numbers and lists they hold (np.int64(3) was the
    text "3", an array "[1 2]"); an infinity null; a set, bytes or NaN is one line naming the
    analysis's summary (they were text, or blamed on the analysis as if it raised)."""
    from mdp.program.arguments import print_json

    capsys.readouterr()
    try:
        expected = _plain_json(summary)
    except ValueError:
        with pytest.raises(mdp.ModelError, match="^analysis s: its summary cannot be written as JSON: "):
            print_json(summary, "analysis s: its summary")
        assert capsys.readouterr().out == ""
    else:
        print_json(summary, "analysis s: its summary")
        assert json.loads(capsys.readouterr().out) == expected


KEPT_NAMES = '''
import mdp

@mdp.hookimpl
def mdp_commands():
    return [mdp.Command("c2", "a command", lambda args: 0,
                        lambda parser: parser.add_argument("--NAME"))]
'''
KEPT_OPTION = '''
import mdp

@mdp.hookimpl
def mdp_analyses():
    return [mdp.Analysis("onm", "names", lambda solution, game, NAME: None,
                         [mdp.Param("NAME", "5", str, "x")])]
'''


@pytest.mark.parametrize("kind", ["command", "analysis"])
@pytest.mark.parametrize("name", ["command", "plugins", "loaded"])
def test_an_argument_never_takes_the_name_of_what_mdp_keeps(tmp_path, capsys, kind, name):
    # Before: --command was read as mdp's command (a traceback), --plugins dropped (R19-F28).
    plugin = tmp_path / "kept.py"
    plugin.write_text((KEPT_NAMES if kind == "command" else KEPT_OPTION).replace("NAME", name))
    argv = ["c2", f"--{name}", "x"] if kind == "command" else ["onm", SHUTBOX, f"--{name}", "x"]
    assert main(["-p", str(plugin), *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "mdp's own record of the command" in err, err
