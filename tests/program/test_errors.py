"""Nothing a user types or a plugin does ends in a traceback: one line, exit 2 (3 when too
large), and no file left behind."""

import errno
import os
import signal
import subprocess
import sys
import textwrap
import time
from fractions import Fraction
from pathlib import Path

import pytest
from edited import edited
from hypothesis import example, given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]
SHUTBOX = str(ROOT / "games" / "shutbox")

# A small game written as a file, with one hook replaced per case: the coin of tests/models.py.
GAME = '''
import mdp
from fractions import Fraction

GAME_NAME = "coin"

@mdp.hookimpl
def mdp_params():
    return [mdp.Param("stake", 1, int, "what a win pays")]

@mdp.hookimpl
def mdp_initial_state():
    return "start"

@mdp.hookimpl
def mdp_actions(state):
    return ["bet", "walk"] if state == "start" else []

@mdp.hookimpl
def mdp_outcomes(state, action):
    if action == "bet":
        return [(Fraction(1, 2), "won"), (Fraction(1, 2), "lost")]
    return [(1, "walked")]

@mdp.hookimpl
def mdp_terminal_value(params, state):
    return {"won": params["stake"], "lost": 0, "walked": Fraction(1, 3)}[state]

@mdp.hookimpl
def mdp_state_columns(state):
    return {"where": state}
'''


def broken(tmp_path, replace: str, hook: str | None = None) -> str:
    """The coin game with ``hook``'s implementation replaced by ``replace`` (or ``replace``
    appended), written to a file; returns its path."""
    return edited(GAME, "coin", tmp_path, replace, hook)


def one_line(capsys, argv, code=2):
    got = main(argv)
    out, err = capsys.readouterr()
    assert got == code, err
    assert err.startswith("mdp: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err[len("mdp: error: "):-1]


def test_the_coin_file_solves(tmp_path, capsys):
    path = broken(tmp_path, "")
    assert main(["solve", path, "--exact", "--json"]) == 0
    assert '"exact": "1/2"' in capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.parametrize(
    ("hook", "replace", "message"),
    [
        ("mdp_initial_state", "def mdp_initial_state():\n    raise RuntimeError('no start')",
         "game coin: mdp_initial_state raised RuntimeError: no start"),
        ("mdp_initial_state", "def mdp_initial_state():\n    return ['a', 'list']",
         "game coin: mdp_initial_state returned ['a', 'list'], which is not hashable; states must be (use a "
         "tuple or a frozenset, not a list or a set)"),
        ("mdp_actions", "def mdp_actions(state):\n    return 3",
         "game coin: mdp_actions returned 3, not a list (state 'start'); expected a list of actions"),
        ("mdp_outcomes", "def mdp_outcomes(state, action):\n    return [(float('nan'), 'won'), (1, 'lost')]",
         "game coin: mdp_outcomes: probability nan is not finite (state 'start', action 'bet')"),
        ("mdp_outcomes", "def mdp_outcomes(state, action):\n    return [(float('inf'), 'won')]",
         "game coin: mdp_outcomes: probability inf is not finite (state 'start', action 'bet')"),
        ("mdp_terminal_value", "def mdp_terminal_value(state):\n    return float('nan')",
         "game coin: mdp_terminal_value: terminal value nan is not finite (state 'won')"),
        ("mdp_terminal_value", "def mdp_terminal_value(state):\n    return 'x'",
         "game coin: mdp_terminal_value: terminal value 'x' is not a number (state 'won')"),
        ("mdp_state_columns", "def mdp_state_columns(state):\n    return {}['x']",
         "game coin: mdp_state_columns raised KeyError: 'x' (state 'start')"),
        ("mdp_state_columns", "def mdp_state_columns(state):\n    return 7",
         "game coin: mdp_state_columns returned 7, not a dict (state 'start')"),
        ("mdp_params", "def mdp_params():\n    return 3",
         "game coin: mdp_params returned 3, not a list of mdp.Param"),
        ("mdp_params", "def mdp_params():\n    return [mdp.Param('stake', 1, lambda v: {1: 1}[v], 'x')]",
         None),  # only broken when the parameter is set: see below
        # A plugin must not end mdp: before, SystemExit(0) was exit 0 with no output.
        ("mdp_initial_state", "def mdp_initial_state():\n    raise SystemExit(0)",
         "game coin: mdp_initial_state raised SystemExit: 0"),
        ("mdp_actions", "def mdp_actions(state):\n    raise SystemExit(3)",
         "game coin: mdp_actions raised SystemExit: 3 (state 'start')"),
        # Nor pass for the user's Ctrl-C: before, "mdp: interrupted" and exit 130.
        ("mdp_actions", "def mdp_actions(state):\n    raise KeyboardInterrupt",
         "game coin: mdp_actions raised KeyboardInterrupt (state 'start')"),
        ("mdp_params", "def mdp_params():\n    raise KeyboardInterrupt('bye')",
         "game coin: mdp_params raised KeyboardInterrupt: bye"),
        # An exception whose message cannot be made is still one line.
        ("mdp_initial_state", "def mdp_initial_state():\n    class Odd(Exception):\n"
         "        def __str__(self):\n            raise ValueError\n    raise Odd()",
         "game coin: mdp_initial_state raised Odd: (its message could not be made)"),
        # A value no float holds: before, a traceback (OverflowError), in floats and exact.
        ("mdp_terminal_value", "def mdp_terminal_value(state):\n    return 10**400",
         "game coin: mdp_terminal_value: terminal value (a number of about 401 digits) is past what a float holds "
         "(about 1.8e308) (state 'won')"),
        ("mdp_actions", "def mdp_actions(stat):\n    return []",
         "game coin: mdp_actions takes stat, which the hook does not give (it gives: params, game, state)"),  # (round 34, P34-05: not 'plugin coin')
    ],
)
def test_a_misbehaving_hook_is_one_line(tmp_path, capsys, hook, replace, message):
    path = broken(tmp_path, replace, hook)
    if message is None:
        message = "game coin: the parser of parameter stake raised KeyError: '2' (value '2')"
        assert one_line(capsys, ["solve", path, "--set", "stake=2"]) == message
        return
    assert one_line(capsys, ["solve", path]) == message


def test_memory_running_out_in_a_hook_is_the_hook_s_fault(tmp_path, capsys):
    # Before: "out of memory (mdp may use ...); solve a smaller game", exit 3, for a game of
    # four states: a hook is called on one state, where mdp makes none of its arrays.
    path = broken(tmp_path, "def mdp_outcomes(state, action):\n    raise MemoryError", "mdp_outcomes")
    assert one_line(capsys, ["solve", path]) == ("game coin: mdp_outcomes raised MemoryError "
                                                 "(state 'start', action 'bet')")


def test_ctrl_c_that_a_plugin_makes_into_an_error_of_its_own_is_an_interruption(tmp_path, capsys):
    # A writer in Rust (Polars) turns Ctrl-C into an error of its own words; before, it was
    # "the hiding format raised RuntimeError", exit 2, when the user had interrupted.
    from mdp.program.registry import plugins

    def hiding(frame, file):
        try:
            os.kill(os.getpid(), signal.SIGINT)  # the user's Ctrl-C, while the table is made
            time.sleep(5)
        except BaseException:
            raise RuntimeError("") from None

    class Hiding:
        @mdp.hookimpl
        def mdp_formats(self):
            return [mdp.Format("hiding", (".hiding",), hiding)]

    plugin = Hiding()
    plugins().register(plugin, name="hiding")
    try:
        assert main(["policy", SHUTBOX, "--set", "tiles=1-3", "--out", str(tmp_path / "p.hiding")]) == 130
    finally:
        plugins().unregister(plugin)
    assert capsys.readouterr().err == "mdp: interrupted\n"
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_inside_a_hook_is_an_interruption(tmp_path, capsys):
    # The user's Ctrl-C (a real SIGINT) while a hook runs is an interruption, not the game's
    # fault: it is told apart from a KeyboardInterrupt that the game raises of itself.
    path = broken(tmp_path, "def mdp_actions(state):\n    import os, signal, time\n"
                  "    os.kill(os.getpid(), signal.SIGINT)\n    time.sleep(5)\n    return []",
                  "mdp_actions")
    before = signal.getsignal(signal.SIGINT)
    assert main(["solve", path]) == 130
    assert capsys.readouterr().err == "mdp: interrupted\n"
    assert signal.getsignal(signal.SIGINT) is before  # handed back as it was


@pytest.mark.parametrize(
    ("added", "message"),
    [
        ("@mdp.hookimpl\ndef mdp_describe():\n    raise ValueError('no words')",
         "game coin: mdp_describe raised ValueError: no words"),
        ("@mdp.hookimpl\ndef mdp_describe():\n    return 7",  # before: rules "7", silently
         "game coin: mdp_describe returned 7, not a str"),
        ("@mdp.hookimpl\ndef mdp_check(params):\n    raise ZeroDivisionError('oops')",
         "game coin: mdp_check raised ZeroDivisionError: oops"),
        ("@mdp.hookimpl\ndef mdp_action(state):\n    return []",
         "game coin: plugin coin implements mdp_action, which is no hook; did you mean mdp_actions?"),
        ("@mdp.hookimpl\ndef mdp_variants():\n    return 'fast'",
         "game coin: mdp_variants returned 'fast', not a list of mdp.Variant"),
        # A hook of the program in a game would be silently never called: the game's plugin
        # manager knows only a game's hooks (mdp.hookspecs.game).
        ("@mdp.hookimpl\ndef mdp_formats():\n    return []",
         "game coin: mdp_formats is a hook of the mdp program, not of a game: offer it from a "
         "plugin in the mdp.plugins entry-point group"),
        ("class Extra:\n    @mdp.hookimpl\n    def mdp_exports(self):\n        return []\n\n"
         "@mdp.hookimpl\ndef mdp_configure(plugins):\n    plugins.register(Extra(), name='extra')",
         "game coin: plugin extra: mdp_exports is a hook of the mdp program, not of a game: offer "
         "it from a plugin in the mdp.plugins entry-point group"),
        # Answers of the wrong kind: before, each was a traceback.
        ("@mdp.hookimpl\ndef mdp_objective():\n    return 'max'",
         "game coin: mdp_objective returned 'max', not an mdp.Objective"),
        ("@mdp.hookimpl\ndef mdp_estimate_states():\n    return 'lots'",
         "game coin: mdp_estimate_states returned 'lots' (str), not a count of states: an int "
         "of 0 or more, or None"),
        ("@mdp.hookimpl\ndef mdp_estimate_states():\n    return float('nan')",
         "game coin: mdp_estimate_states returned nan (float), not a count of states: an int of 0 "
         "or more, or None"),
        # a whole number as a float is not called "not a whole number" (round 23)
        ("@mdp.hookimpl\ndef mdp_estimate_states():\n    return 4.0",
         "game coin: mdp_estimate_states returned 4.0 (float), not a count of states: an int of 0 "
         "or more, or None"),
        ("def oops(:\n    pass", None),
        ("import no_such_module_here", None),
    ],
)
def test_a_broken_game_file_is_one_line(tmp_path, capsys, added, message):
    path = broken(tmp_path, added)
    if "mdp_variants" in added:
        got = one_line(capsys, ["variants", path])
    else:
        got = one_line(capsys, ["solve", path])
    if message is None:
        assert got.startswith(f"cannot import the game at {path}: ")
        assert ("SyntaxError: invalid syntax (coin_" in got and ".py, line " in got) \
            or got.endswith("ModuleNotFoundError: No module named 'no_such_module_here'")
    else:
        assert got == message


def test_a_cycle_and_a_bad_sum_name_the_state(tmp_path, capsys):
    cycle = broken(tmp_path / "a", "def mdp_outcomes(state, action):\n    return [(1, 'start')]", "mdp_outcomes")
    assert one_line(capsys, ["solve", cycle]).startswith("game coin: the states form a cycle ('start' -> 'start')")
    bad = broken(tmp_path / "b", "def mdp_outcomes(state, action):\n    return [(Fraction(1, 3), 'won')]", "mdp_outcomes")
    assert one_line(capsys, ["solve", bad]) == "game coin: mdp_outcomes: probabilities sum to 1/3, not 1 (state 'start', action 'bet')"


# Outputs.


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("", "an empty file name was given as the output; name a file"),
        ("{tmp}", "{tmp}: is a folder; name a file to write"),
        # a folder not made yet, named as one (round 30: a file "new" was written)
        ("{tmp}/new/", "{tmp}/new/: is a folder (it ends in /); name a file to write"),
        ("{tmp}/new.csv/", "{tmp}/new.csv/: is a folder (it ends in /); name a file to write"),
        ("{tmp}/no/such/policy.csv", "{tmp}/no/such/policy.csv: folder {tmp}/no/such does not exist"),
        ("/proc/policy.csv", "/proc/policy.csv: cannot make a file in folder /proc; the system "
         "says of a new file there: No such file or directory"),
        ("{tmp}/policy.xlsx", "{tmp}/policy.xlsx: unknown file type '.xlsx' (allowed: .csv, .parquet, .json, .ndjson, .jsonl, .md; or name a format with --format)"),
    ],
)
def test_a_bad_target_is_refused_before_any_work(tmp_path, capsys, monkeypatch, target, message):
    def no_work(*args, **kwargs):
        raise AssertionError("the game was compiled before the target was checked")

    monkeypatch.setattr(mdp, "compile", no_work)
    target = target.format(tmp=tmp_path)
    assert one_line(capsys, ["policy", SHUTBOX, "--out", target]) == message.format(tmp=tmp_path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv", [["policy", SHUTBOX, "--out", "-"], ["policy", SHUTBOX, "--out", "-", "--format", "csv"],
                                  ["distribution", SHUTBOX, "--plot", "-"]])
def test_a_dash_for_a_file_is_refused_and_writes_nothing(tmp_path, capsys, monkeypatch, argv):
    # Round 33, U33-06: "--out - --format csv" wrote a file named "-" (which "cat -" reads
    # as standard input), after "--out -" was refused for its extension.
    monkeypatch.chdir(tmp_path)
    said = one_line(capsys, argv)
    assert said.startswith(f"{argv[2]} -: '-' names no file here") and said.endswith("./- is a file named -")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("under", ["x.csv", "deeper/x.csv"])
def test_a_file_where_a_folder_is_named_is_said_to_be_a_file(tmp_path, capsys, under):
    # Round 33, U33-04: "--out f/x.csv" with f a file said "folder f does not exist".
    (tmp_path / "f").write_text("kept")
    target = f"{tmp_path}/f/{under}"
    assert one_line(capsys, ["policy", SHUTBOX, "--out", target]) == f"{target}: {tmp_path}/f is a file, not a folder"
    assert (tmp_path / "f").read_text() == "kept"


@pytest.mark.parametrize("code", [errno.EACCES, errno.EROFS, errno.ENOENT, errno.EPERM, errno.ENOSPC])
def test_a_file_that_cannot_be_made_says_what_the_system_said_of_it(tmp_path, capsys, monkeypatch, code):
    # Before: "/proc/x.csv: cannot write in folder /proc: No such file or directory", as if
    # the folder, which exists, were missing.
    import tempfile

    def refused(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(tempfile, "mkstemp", refused)
    target = tmp_path / "policy.csv"
    assert one_line(capsys, ["policy", SHUTBOX, "--out", str(target)]) == (
        f"{target}: cannot make a file in folder {tmp_path}; the system says of a new file "
        f"there: {os.strerror(code)}")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_a_full_disk_leaves_the_old_file_and_no_temporary_one(tmp_path, capsys, monkeypatch):
    target = tmp_path / "policy.csv"
    target.write_text("the old policy\n")

    def full(frame, file):
        file.write(b"open,roll")
        raise OSError(errno.ENOSPC, "No space left on device")

    from mdp import Format

    monkeypatch.setattr(Format, "dump", lambda self, frame, file, where: full(frame, file))
    message = one_line(capsys, ["policy", SHUTBOX, "--set", "tiles=1-4", "--out", str(target)])
    assert message == f"{target}: cannot write: No space left on device"
    assert target.read_text() == "the old policy\n"
    assert list(tmp_path.iterdir()) == [target]


def test_sigterm_while_writing_leaves_no_file(tmp_path, capsys, monkeypatch):
    target = tmp_path / "policy.csv"

    def terminated(self, frame, file, where):
        file.write(b"open,roll")
        os.kill(os.getpid(), signal.SIGTERM)

    from mdp import Format
    monkeypatch.setattr(Format, "dump", terminated)
    assert main(["policy", SHUTBOX, "--set", "tiles=1-4", "--out", str(target)]) == 130
    assert capsys.readouterr().err == "mdp: interrupted\n"
    assert list(tmp_path.iterdir()) == []
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL


@pytest.mark.slow
def test_a_closed_standard_output_is_one_line():
    # Closed before Python starts (mdp solve >&-: --out is for a table of --vary, not named),
    # and closed while it runs.
    done = subprocess.run([sys.executable, "-m", "mdp", "solve", "shutbox"], stderr=subprocess.PIPE,
                          text=True, cwd=ROOT, preexec_fn=lambda: os.close(1))
    assert (done.returncode, done.stderr) == (
        2, "mdp: error: standard output is closed; redirect it to a file\n")
    done = subprocess.run([sys.executable, "-c", "import os, sys; os.close(1); "
                           "from mdp.program.cli import main; sys.exit(main(['solve', 'shutbox']))"],
                          stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert (done.returncode, done.stderr) == (
        2, "mdp: error: cannot write to standard output: Bad file descriptor\n")


@pytest.mark.slow
@pytest.mark.parametrize("command", [["solve", "shutbox"], ["policy", "shutbox"],
                                     ["policy", "shutbox", "--format", "parquet"]])
def test_a_full_standard_output_is_one_line(command):
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "mdp", *command], stdout=full,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert done.returncode == 2
    assert done.stderr.startswith("mdp: error: cannot write to standard output: ")
    assert "No space left on device" in done.stderr
    assert done.stderr.count("\n") == 1


def test_json_is_strict(capsys):
    assert main(["solve", "shutbox", "--json"]) == 0
    assert "NaN" not in capsys.readouterr().out


# Counts and options checked before the work ("Never silently wrong, round two").


def _no_compile(monkeypatch):
    """Make any compile fail the test: what follows must be refused before it."""
    def compiled(*args, **kwargs):
        raise AssertionError("compiled before the check")

    monkeypatch.setattr(mdp, "compile", compiled)  # the name the command line calls


def _code(argv):
    """``main``'s exit code, the argument parser's refusals (SystemExit) included."""
    try:
        return main(argv)
    except SystemExit as exited:
        return exited.code


@pytest.mark.parametrize("argv, code, line", [
    (["simulate", SHUTBOX, "--games", "10", "--seed", "-1"], 2,
     "mdp: error: --seed -1: expected a whole number of 0 or more"),
    (["simulate", SHUTBOX, "--games", str(10**18)], 3,
     "mdp: error: games=1,000,000,000,000,000,000: more than 10,000,000,000 games"),
    (["match", SHUTBOX, "--players", "3000"], 3, "mdp: error: 3,000 players: at most 20"),
    (["match", SHUTBOX, "--players", "100000000"], 3, "mdp: error: 100,000,000 players: at most 20"),
    # Read by the option's own parser as it is given, as every option of an analysis is.
    (["match", SHUTBOX, "--players", "1"], 2, "mdp: error: --players 1: expected a whole number of 2 or more"),
    # Before: a 16 TiB array asked for (a traceback), and a stake that overflowed int64.
    (["advise", SHUTBOX, "open=1 2 3", "roll=3", *["--after", "10"] * 25], 3,
     "mdp: error: 26 players: at most 20"),
    (["match", SHUTBOX, "--set", f"shut_pays={10**20}"], 2,
     "expected a whole number from 1 to 1000000000000000 (a winner's takings"),
    (["solve", SHUTBOX, "--vary", "dice=2,3", "--strategy", "fewest-tiles"], 2,
     "mdp: error: --vary plays each rule set optimally; --strategy does not apply"),
    (["simulate", SHUTBOX, "--games", "10", "--plot", "games.txt"], 2,
     "mdp: error: games.txt: a plot is written as .png or .svg"),
])
def test_counts_and_options_past_what_can_be_honoured_are_refused_before_any_work(
        argv, code, line, capsys, monkeypatch):
    _no_compile(monkeypatch)
    assert _code(argv) == code
    err = capsys.readouterr().err
    assert line in err and "Traceback" not in err


def test_seeds_and_games_out_of_range_are_refused_in_python_too():
    game = mdp.load_game(SHUTBOX, tiles="1-4")
    solution = mdp.solve(mdp.compile(game))
    with pytest.raises(mdp.ParamError, match=r"^mdp\.simulate: seed is -1; expected a whole number of 0 or more or None$"):
        mdp.simulate(solution, game, games=10, seed=-1)
    with pytest.raises(mdp.TooLarge, match=r"^games=10,000,000,001: more than 10,000,000,000"):
        mdp.simulate(solution, game, games=10**10 + 1)
    with pytest.raises(mdp.ParamError, match=r"^analysis simulate: option seed=-3: expected a whole number of 0"):
        mdp.analyse(solution, "simulate", game, games=10, seed=-3)


def test_vary_honours_the_memory_budget(capsys):
    # --max-memory bounds each rule set's compile, as without --vary (it was dropped).
    assert main(["solve", SHUTBOX, "--vary", "dice=1,2", "--max-memory", "100k"]) == 3
    assert "raise it with --max-memory" in capsys.readouterr().err


def test_a_second_game_of_the_same_file_name_is_not_the_first_one_again(tmp_path):
    # Two folders, a game.py in each, values 1 and 2: before, loading the second in the same
    # process gave the first module back, and its value.
    for folder, value in (("one", 1), ("two", 2)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "samename.py").write_text(textwrap.dedent(f"""
            import mdp
            GAME_NAME = "g{value}"

            @mdp.hookimpl
            def mdp_initial_state():
                return 0

            @mdp.hookimpl
            def mdp_actions(state):
                return []

            @mdp.hookimpl
            def mdp_terminal_value(state):
                return {value}
            """))
    first = mdp.load_game(tmp_path / "one" / "samename.py")
    assert mdp.solve(mdp.compile(first)).value == 1
    # Each file is imported as itself, under a name of its own: the second is its own game.
    second = mdp.load_game(tmp_path / "two" / "samename.py")
    assert (second.name, mdp.solve(mdp.compile(second)).value) == ("g2", 2)
    assert mdp.load_game(tmp_path / "one" / "samename.py").name == "g1"  # the same file again


@pytest.mark.parametrize("hook, kind, name, what", [
    ("mdp_variants", lambda name: mdp.Variant(name, {}, "a house rule"), "short", "variants"),
    ("mdp_strategies", lambda name: mdp.Strategy(name, "a rule", lambda game, model: None),
     "greedy", "strategies"),
])
def test_a_rule_plugin_naming_its_item_like_the_games_own_is_refused(hook, kind, name, what):
    # Before, a rule plugin's variant of the game's own name silently replaced it.
    from types import ModuleType

    rule = ModuleType("house")  # a module, as a rule plugin is: pluggy can set it apart
    setattr(rule, hook, mdp.hookimpl(lambda: [kind(name)]))
    getattr(rule, hook).__name__ = hook

    @mdp.hookimpl
    def mdp_configure(plugins):
        plugins.register(rule, name="house")

    own = mdp.hookimpl(lambda: [kind(name)])
    own.__name__ = hook
    game = ModuleType("coin")
    vars(game).update(GAME_NAME="coin", mdp_configure=mdp_configure, **{hook: own},
                      mdp_initial_state=mdp.hookimpl(lambda: 0))
    with pytest.raises(mdp.ModelError, match=f"^game coin: plugin house's {hook} returned an "
                                             fr"mdp\.\w+ named '{name}', as another is"):
        # variants are checked as the game is loaded, strategies as they are asked for
        mdp.strategies(mdp.load_game(game)) if hook == "mdp_strategies" else mdp.load_game(game)


def _two_step(**hooks):
    """A game of one choice: ``go`` to a state worth 1, or ``stay`` at 0."""
    from types import SimpleNamespace

    base = dict(
        mdp_initial_state=mdp.hookimpl(lambda: "start"),
        mdp_actions=mdp.hookimpl(lambda state: ["go", "stay"] if state == "start" else []),
        mdp_outcomes=mdp.hookimpl(lambda state, action: [(1, action)]),
        mdp_terminal_value=mdp.hookimpl(lambda state: int(state == "go")))
    for name, hook in hooks.items():
        hook.__name__ = name
    return mdp.load_game(SimpleNamespace(GAME_NAME="two-step", **{**base, **hooks}))


@pytest.mark.parametrize("hooks, message", [
    # Before, the policy table's own value column silently replaced the game's.
    (dict(mdp_state_columns=mdp.hookimpl(lambda state: {"value": state})),
     "game two-step: mdp_state_columns names a column 'value', which mdp's tables add "
     "themselves"),
    # Before, the action's column silently replaced the state's of the same name.
    (dict(mdp_state_columns=mdp.hookimpl(lambda state: {"where": state}),
          mdp_action_columns=mdp.hookimpl(lambda state, action: {"where": action})),
     "game two-step: mdp_action_columns and mdp_state_columns both name a column 'where'"),
])
def test_a_column_a_table_has_already_is_refused_not_replaced(hooks, message):
    game = _two_step(**hooks)
    with pytest.raises(mdp.ModelError, match=message):
        mdp.policy(mdp.solve(mdp.compile(game)), game)


def test_a_round_state_column_named_like_the_simulations_points_is_refused():
    from models import two_boxes

    @mdp.hookimpl
    def mdp_round_columns(states):
        return {"points": states}

    game = two_boxes(mdp_round_columns=mdp_round_columns)
    with pytest.raises(mdp.ModelError, match="mdp_round_columns names a column 'points'"):
        mdp.simulate(mdp.solve(mdp.compile(game)), game, games=10, seed=1)


def test_a_plugin_command_or_format_that_raises_system_exit_is_its_fault(capsys, monkeypatch, tmp_path):
    import io

    import polars as pl

    from mdp.program import cli
    from mdp.program.registry import Command

    def boom(args):
        raise SystemExit(0)  # before: mdp exited 0, saying nothing

    known = dict(cli.commands_and_analyses())
    monkeypatch.setattr(cli, "commands_and_analyses",
                        lambda: {**known, "boom": Command("boom", "explodes", boom)})
    assert one_line(capsys, ["boom"]) == ("command boom raised SystemExit(0); a command returns "
                                          "its exit code")

    def interrupting(args):
        raise KeyboardInterrupt  # before: "mdp: interrupted" and exit 130, though no one did

    monkeypatch.setattr(cli, "commands_and_analyses",
                        lambda: {**known, "boom": Command("boom", "explodes", interrupting)})
    assert one_line(capsys, ["boom"]) == "command boom raised KeyboardInterrupt, and no one interrupted it"

    def writer(frame, file):
        raise SystemExit(1)

    with pytest.raises(mdp.ModelError, match=r"^the odd format raised SystemExit: 1$"):
        mdp.Format("odd", (".odd",), writer).dump(pl.DataFrame({"a": [1]}), io.BytesIO(), "x.odd")


def test_terminal_values_no_float_holds_are_refused_in_floats_and_solved_exactly():
    # Before: an OverflowError traceback. In exact mode such values are solved as they are.
    model = mdp.compile(mdp.load_game(SHUTBOX, tiles="1-3"))
    huge = [10**400] * model.n_terminal
    with pytest.raises(mdp.ParamError, match=r"^terminal= value \(a number of about 401 digits\) "
                       r"at row 0 is past what a float holds \(about 1\.8e308\); solve it exactly"):
        mdp.solve(model, terminal=huge)
    assert mdp.solve(model, terminal=huge, exact=True).value == 10**400


@pytest.mark.slow
def test_a_file_replaced_keeps_its_permissions_and_a_link_is_written_through(tmp_path, capsys):
    # Before: a file of mode 600 came back 644, and a link was replaced by a plain file.
    kept = tmp_path / "policy.csv"
    kept.write_text("old")
    kept.chmod(0o600)
    assert main(["policy", SHUTBOX, "--set", "tiles=1-3", "--out", str(kept)]) == 0
    assert kept.stat().st_mode & 0o777 == 0o600 and kept.read_text().startswith("open,")
    real, link = tmp_path / "real.csv", tmp_path / "link.csv"
    real.write_text("old")
    link.symlink_to(real)
    assert main(["policy", SHUTBOX, "--set", "tiles=1-3", "--out", str(link)]) == 0
    assert link.is_symlink() and real.read_text().startswith("open,")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.csv", "policy.csv", "real.csv"]


@pytest.mark.slow
def test_a_pipe_as_the_output_is_written_into_not_replaced(tmp_path, capsys):
    # Before: a FIFO (or, as root, /dev/null) named by --out was replaced by a plain file.
    import stat
    import threading

    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    assert main(["policy", SHUTBOX, "--set", "tiles=1-3", "--out", str(fifo)]) == 0
    reader.join(10)
    assert stat.S_ISFIFO(fifo.stat().st_mode) and got and got[0].startswith(b"open,")


def test_a_set_of_files_is_written_all_or_nothing(tmp_path):
    # Before: mdp export left the .prism file when its .props beside it could not be written.
    from mdp.outputs.files import write_together

    def full_disk(file):
        raise OSError(errno.ENOSPC, "No space left on device")

    model, props = tmp_path / "game.prism", tmp_path / "game.prism.props"
    with pytest.raises(mdp.MdpError, match=r"game\.prism\.props: cannot write: No space left on device$"):
        write_together([(str(model), lambda file: file.write(b"mdp")), (str(props), full_disk)])
    assert list(tmp_path.iterdir()) == []  # neither, and no temporary file either
    write_together([(str(model), lambda file: file.write(b"mdp")),
                    (str(props), lambda file: file.write(b"Rmax=?"))])
    assert (model.read_bytes(), props.read_bytes()) == (b"mdp", b"Rmax=?")


def test_a_hook_that_prints_cannot_spoil_json_or_a_table_on_standard_output(tmp_path, capsys):
    # Before: the hook's line went to standard output ahead of the JSON, which no longer parsed.
    import json

    path = broken(tmp_path, "@mdp.hookimpl\ndef mdp_describe():\n    print('noise')\n    return 'coin'")
    assert main(["solve", path, "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["game"] == "coin" and "noise" in err
    assert main(["policy", path, "--format", "csv"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0] == "where,action,value,optimal,regret" and "noise" not in out
    assert "noise" in err  # the hook did print, elsewhere
    assert main(["solve", path]) == 0  # for people, as it prints
    assert "noise" in capsys.readouterr().out


def test_an_analysis_option_named_like_a_built_in_argument_is_one_line(capsys, monkeypatch):
    # Before: mdp --help, and every command, ended in an argparse traceback.
    from mdp.analysis.registry import Analysis
    from mdp.program import cli

    clash = Analysis("clash", "an analysis of a plugin", lambda solution, game, json: None,
                     [mdp.Param("json", False, bool, "clashes with --json")])
    known = dict(cli.commands_and_analyses())
    monkeypatch.setattr(cli, "commands_and_analyses", lambda: {**known, "clash": clash})
    assert one_line(capsys, ["--help"]).startswith("analysis clash: option json clashes with the "
                                                   "command's argument --json")


@pytest.mark.parametrize("name", ["json", "out", "exact", "set", "variant", "max_states", "game", "plugin",
                                  "help", "version", "format", "seed", "colour", "top"])
@pytest.mark.slow
def test_an_analysis_option_the_command_cannot_take_is_refused_at_registration(capsys, monkeypatch, name):
    # An option named plugin was listed as --plugin, which the program's own -p/--plugin
    # takes, so it could never be given; one named game went to run() twice (TypeError). The
    # names refused are the parser's own: the program's options and the command's arguments,
    # whatever their flag or value's name; any other is taken.
    from mdp.analysis.registry import Analysis
    from mdp.program import cli

    clash = Analysis("clash", "an analysis of a plugin", lambda solution, game, **options: None,
                     [mdp.Param(name, 1, int, "an option")])
    known = dict(cli.commands_and_analyses())
    monkeypatch.setattr(cli, "commands_and_analyses", lambda: {**known, "clash": clash})
    program = cli._parser("policy")  # an analysis of mdp's, as the plugin's is
    command = next(a for a in program._actions if a.choices).choices["policy"]
    flag = "--" + name.replace("_", "-")
    ours = {f for a in program._actions for f in a.option_strings}
    theirs = {a.dest for a in command._actions} | {f for a in command._actions for f in a.option_strings}
    if flag in ours or name in theirs or flag in theirs:
        message = one_line(capsys, ["clash", "--help"])
        assert message.startswith(("analysis clash: option ", "command clash: its argument ")), message
        assert message.endswith("; name it otherwise") and (flag in message or f" {name} " in message)
    else:
        with pytest.raises(SystemExit) as done:  # argparse's --help exits
            main(["clash", "--help"])
        assert done.value.code == 0 and flag in capsys.readouterr().out


def test_an_entry_point_naming_a_missing_attribute_is_one_error_naming_it():
    # Before: an AttributeError traceback from the plugin loader.
    from mdp.game.plugins import load

    with pytest.raises(mdp.ModelError, match=r"^cannot load 'json:no_such_thing': json has no "
                                             r"'no_such_thing'$"):
        load("json:no_such_thing")
    assert load("json:dumps.__name__") == "dumps"


def test_an_interruption_inside_a_writer_that_hides_it_is_an_interruption():
    # Before: a writer in Rust (Polars) turned Ctrl-C into an error of no words, reported as
    # "cannot write to ...: " with exit 2 rather than an interruption (exit 130).
    import polars as pl

    class Interrupted:
        def write(self, data):
            raise KeyboardInterrupt

    def hiding(frame, file):
        try:
            file.write(b"{")
        except BaseException:  # as a writer in Rust does: its own error, with no words
            raise RuntimeError("") from None

    with pytest.raises(KeyboardInterrupt):
        mdp.Format("json", (".json",), hiding).dump(pl.DataFrame({"a": [1]}), Interrupted(), "x.json")


BREAKING_PLUGIN = '''
import mdp

def _boom(*args, **kwargs):
    raise ValueError("no such luck")

@mdp.hookimpl
def mdp_commands():
    return [mdp.Command("rules", "the rules in words", _boom)]

@mdp.hookimpl
def mdp_analyses():
    return [mdp.Analysis("luck", "a table of luck", _boom)]

@mdp.hookimpl
def mdp_exports():
    return [mdp.Export("odd", "an odd format", _boom)]
'''


def test_a_plugin_command_analysis_or_export_that_raises_is_its_fault_in_one_line(capsys, tmp_path):
    # Before: a ValueError traceback, exit 1, as if mdp had a bug.
    path = tmp_path / "breaking.py"
    path.write_text(BREAKING_PLUGIN)
    assert one_line(capsys, ["-p", str(path), "rules"]) == \
        f"plugin {path}'s command rules raised ValueError: no such luck"
    assert one_line(capsys, ["-p", str(path), "luck", SHUTBOX, "--set", "tiles=1-3"]) == \
        f"plugin {path}'s analysis luck raised ValueError: no such luck"
    out = tmp_path / "model.odd"
    assert one_line(capsys, ["-p", str(path), "export", SHUTBOX, "--set", "tiles=1-3", "--format", "odd",
                             "--out", str(out)]) == f"plugin {path}'s export odd raised ValueError: no such luck"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["breaking.py"]


ODD_FORMAT = '''
import mdp

def _write(frame, file):
    raise ValueError("odd to the last")

@mdp.hookimpl
def mdp_formats():
    return [mdp.Format("odd", (".odd",), _write, "a format that breaks")]
'''


@pytest.mark.slow
def test_a_table_that_fails_leaves_no_picture_the_files_of_a_command_are_one_set(capsys, tmp_path):
    # Before: the picture was written, then the table failed, and the picture stayed.
    pytest.importorskip("matplotlib")
    plugin = tmp_path / "odd.py"
    plugin.write_text(ODD_FORMAT)
    picture, table = tmp_path / "chance.png", tmp_path / "chance.odd"
    assert one_line(capsys, ["-p", str(plugin), "distribution", SHUTBOX, "--set", "tiles=1-4",
                             "--plot", str(picture), "--out", str(table)]) == \
        f"plugin {plugin}'s format odd raised ValueError: odd to the last"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["odd.py"]  # nor a temporary file
    # Written whole, both are there, and the program says so once they are.
    assert main(["distribution", SHUTBOX, "--set", "tiles=1-4", "--plot", str(picture), "--out",
                 str(tmp_path / "chance.csv")]) == 0
    assert capsys.readouterr().err == (f"the picture written to {picture}\n"
                                       f"9 rows written to {tmp_path / 'chance.csv'}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chance.csv", "chance.png", "odd.py"]


NOT_A_TABLE = '''
import mdp
import numpy as np

@mdp.hookimpl
def mdp_analyses():
    return [mdp.Analysis("untabled", "no table at all", lambda solution, game: {answer})]
'''


@pytest.mark.slow
@pytest.mark.parametrize("answer", ["None", "[1, 2, 3]", "{'value': [1]}", "42", "'a table'",
                                    "np.zeros(3)", "solution"])
def test_an_analysis_that_gives_no_table_is_its_plugins_fault(tmp_path, capsys, answer):
    # Before: "the csv format raised AttributeError: 'NoneType' object has no attribute
    # 'write_csv'", blaming mdp's own format for the plugin's answer.
    plugin = tmp_path / f"untabled_{len(answer)}.py"
    plugin.write_text(NOT_A_TABLE.format(answer=answer))
    message = one_line(capsys, ["-p", str(plugin), "untabled", SHUTBOX, "--set", "tiles=1-3"])
    assert message.startswith(f"plugin {plugin}'s analysis untabled gave ") and \
        message.endswith(", not a table (a Polars DataFrame)"), message
    assert list(tmp_path.iterdir()) == [plugin]


@settings(max_examples=60, deadline=None)
@given(st.integers(309, 3000), st.integers(-9, 9), st.booleans())
@example(512, 0, False)  # log10 of 10**512 is a float just below 512
def test_a_number_too_long_to_quote_is_said_with_its_count_of_digits(power, shift, negative):
    # Before: 10**400 was "about 400 digits", from its bits, one short at every power of ten.
    from mdp.engine.numeric import quoted

    number = (10**power + shift) * (-1 if negative else 1)
    sign = "-" if negative else ""
    assert quoted(number) == f"{sign}(a number of about {len(str(abs(number))):,} digits)"


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 10**500), st.integers(2, 10**500), st.booleans())
def test_a_fraction_too_long_to_quote_is_said_by_its_digits_and_size(top, bottom, negative):
    # Before: a negative probability of -1/10**400 was quoted with all its 400 digits.
    from decimal import Decimal

    from mdp.engine.numeric import quoted

    number = Fraction(top, bottom) * (-1 if negative else 1)
    text = str(number)
    if len(text) <= 60 or number.denominator == 1:
        assert quoted(number) == (repr(number) if len(text) <= 60 else quoted(number.numerator))
        return
    if abs(number) > 1.7976931348623157e308:  # past a float: said by its numerator, as a whole number
        sign = "-" if negative else ""
        assert quoted(number) == f"{sign}(a number of about {len(str(abs(number.numerator))):,} digits)"
        return
    shown = quoted(number)
    head = f"{'-' if negative else ''}(a fraction of {len(str(abs(number.numerator))):,} over " \
           f"{len(str(number.denominator)):,} digits, about "
    assert shown.startswith(head) and shown.endswith(")") and len(shown) < 90, shown
    about = Fraction(Decimal(shown[len(head):-1]))  # three digits: within half a unit of the third
    assert abs(about - abs(number)) <= abs(number) / 200, shown


STORM = """
import os, signal, sys, threading, time
signal.signal(signal.SIGINT, signal.SIG_IGN)  # as a background job of a script starts
from mdp.program import main
done = threading.Event()


def storm():  # SIGINT, ignored, every millisecond: while mdp solves, and while Polars writes
    while not done.is_set():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.001)


threading.Thread(target=storm, daemon=True).start()
folder, formats = sys.argv[1], sys.argv[2:]
for fmt in formats:  # each format in turn, the storm blowing throughout
    print(fmt, main(["policy", "shutbox", "--set", "tiles=1-11", "--set", "dice=3",
                     "--format", fmt, "--out", f"{folder}/policy.{fmt}"]), flush=True)
done.set()
"""


@pytest.mark.slow
def test_an_ignored_sigint_stays_ignored_while_every_format_writes(tmp_path):
    # Polars, imported, sets a SIGINT handler of its own below Python's, which stopped its
    # writer with a KeyboardInterrupt: "the parquet format raised KeyboardInterrupt", exit 2.
    # One process writes every format in turn (the handler is Polars' from its first import on).
    formats = sorted(mdp.formats())
    run = subprocess.run([sys.executable, "-c", STORM, str(tmp_path), *formats],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [f"{fmt} 0" for fmt in formats], run.stderr
    assert run.stderr == "".join(f"67,156 rows written to {tmp_path}/policy.{fmt}\n"
                                 for fmt in formats)
    for fmt in formats:
        assert (tmp_path / f"policy.{fmt}").stat().st_size > 0, fmt
