"""The mdp command: output, JSON shape, exports, exit codes and error messages."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]
SHUTBOX = str(ROOT / "games" / "shutbox")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_prints_rules_value_states_and_time(capsys):
    code, out, err = run(capsys, "solve", SHUTBOX)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Shut the Box: tiles 1-9, 2 dice of 6 faces; may roll one die once every open tile is 6 or less"
    assert lines[1] == "chance of shutting the box: 9.7614% (0.0976137161704307)"
    assert lines[2].startswith("6,184 states, solved in ")


def test_solve_exact_prints_the_fraction_in_lowest_terms(capsys):
    code, out, _ = run(capsys, "solve", SHUTBOX, "--set", "tiles=1-6", "--set", "dice=1", "--exact")
    assert code == 0
    assert "exact: 145/1944" in out.splitlines()


def test_solve_json_is_one_object_with_resolved_params(capsys):
    code, out, _ = run(capsys, "solve", SHUTBOX, "--set", "one_die=never", "--exact", "--json")
    assert code == 0
    summary = json.loads(out)
    assert out.count("\n") == 1
    assert summary["game"] == "shutbox"
    assert summary["params"] == {
        "tiles": "1-9", "dice": 2, "faces": 6, "one_die": "never", "one_die_mode": "choice",
        "dice_schedule": None, "weights": None, "scoring": "win", "payout": None,
        "shut_pays": 1, "shut_wins": "yes", "doubles": "plain", "max_flips": None}
    assert summary["exact"] == "466473281/6530347008"
    assert summary["value"] == 466473281 / 6530347008
    assert summary["states"] > 0 and summary["seconds"] >= 0
    assert summary["sense"] == "max"


def test_json_without_exact_has_no_exact_key(capsys):
    _, out, _ = run(capsys, "solve", SHUTBOX, "--json")
    assert "exact" not in json.loads(out)


def test_minimize_is_labelled(capsys):
    code, out, _ = run(capsys, "solve", SHUTBOX, "--minimize", "--set", "tiles=1-5")
    assert code == 0
    assert out.splitlines()[1].startswith("chance of shutting the box (minimized): ")


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".json", ".ndjson"])
def test_policy_export_formats_round_trip(capsys, tmp_path, suffix):
    out_file = tmp_path / f"policy{suffix}"
    code, _, err = run(capsys, "policy", SHUTBOX, "--set", "tiles=1-5", "--out", str(out_file))
    assert code == 0
    read = {".parquet": pl.read_parquet, ".csv": pl.read_csv, ".json": pl.read_json,
            ".ndjson": pl.read_ndjson}[suffix]
    table = read(out_file)
    assert table.columns == ["open", "roll", "dice", "shut", "value", "optimal", "regret"]
    assert err == f"{table.height:,} rows written to {out_file}\n"
    assert table.filter(pl.col("optimal")).height >= table.select(["open", "roll"]).unique().height
    assert [p.name for p in tmp_path.iterdir()] == [out_file.name]


def test_policy_to_stdout_is_csv_and_optimal_only_filters(capsys):
    code, out, _ = run(capsys, "policy", SHUTBOX, "--set", "tiles=1-4", "--optimal-only", "--exact")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "open,roll,dice,shut,value,value_exact,optimal,regret,regret_exact"
    assert all(line.split(",")[-3:] == ["true", "0.0", "0"] for line in lines[1:])


@pytest.mark.slow
def test_policy_json_summary(capsys, tmp_path):
    out_file = tmp_path / "p.csv"
    code, out, err = run(capsys, "policy", SHUTBOX, "--out", str(out_file), "--json")
    summary = json.loads(out)
    assert code == 0 and err == f"{summary['rows']:,} rows written to {out_file}\n"  # as without
    assert summary["rows"] == pl.read_csv(out_file).height  # --json (docs/cli.rst, --out)
    assert summary["out"] == str(out_file)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", SHUTBOX, "--set", "tiles=0-3"], "mdp: error: parameter tiles=0-3: tile 0 is below 1; tiles are whole numbers from 1 to 1000\n"),
        (["solve", SHUTBOX, "--set", "colour=red"], "mdp: error: unknown parameter 'colour' for game shutbox (known: dice, dice_schedule, doubles, faces, max_flips, one_die, one_die_mode, payout, scoring, shut_pays, shut_wins, tiles, weights)\n"),
        (["solve", SHUTBOX, "--set", "tiles"], "mdp: error: --set 'tiles': expected KEY=VALUE\n"),
        (["solve", "no-such-game"], "mdp: error: no game named 'no-such-game' (installed: pig, shutbox, yahtzee; or give a path)\n"),
        (["solve", "games/nowhere"], None),
    ],
)
def test_user_errors_are_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("mdp: error: ")
    if message:
        assert err == message


def test_bad_output_file_leaves_nothing_behind(capsys, tmp_path):
    code, _, err = run(capsys, "policy", SHUTBOX, "--out", str(tmp_path / "policy.xlsx"))
    assert code == 2
    assert err == (f"mdp: error: {tmp_path / 'policy.xlsx'}: unknown file type '.xlsx' (allowed: "
                   ".csv, .parquet, .json, .ndjson, .jsonl, .md; or name a format with --format)\n")
    assert list(tmp_path.iterdir()) == []


def test_installed_command_finds_the_game_by_name_from_anywhere(tmp_path):
    done = subprocess.run([sys.executable, "-m", "mdp.program.cli", "solve", "shutbox", "--json"],
                          cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["value"] == pytest.approx(0.0976137161704307, rel=1e-15)


def test_user_error_has_no_traceback_in_a_real_process(tmp_path):
    done = subprocess.run([sys.executable, "-m", "mdp.program.cli", "solve", "shutbox", "--set", "dice=0"],
                          cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr == "mdp: error: parameter dice=0: expected a whole number from 1 to 50 (these bounds keep a throw to at most 4,951 totals)\n"


def test_help_lists_the_commands(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "solve" in out and "policy" in out and "games" in out


def test_variant_then_set(capsys):
    code, out, _ = run(capsys, "solve", SHUTBOX, "--variant", "fiddler", "--exact", "--json")
    summary = json.loads(out)
    assert code == 0 and summary["variant"] == "fiddler" and summary["exact"] == "145/1944"
    code, out, _ = run(capsys, "solve", SHUTBOX, "--variant", "two-dice", "--set", "tiles=1-6", "--json")
    assert json.loads(out)["params"]["one_die"] == "never"
    assert json.loads(out)["params"]["tiles"] == "1-6"


@pytest.mark.slow  # half a second or more of CPU
def test_variants_lists_every_variant_with_its_value(capsys):
    code, out, _ = run(capsys, "variants", SHUTBOX, "--exact", "--json")
    rows = json.loads(out)
    assert code == 0
    assert [r["variant"] for r in rows] == ["riddler", "durango", "two-dice", "fiddler",
                                            "ten-box", "twelve-box", "twelve-box-321", "doubles-extra",
                                            "max-two-flips"]
    assert {r["variant"]: r["exact"] for r in rows}["fiddler"] == "145/1944"
    assert all({"variant", "params", "value", "exact", "rules"} <= set(r) for r in rows)
    code, out, _ = run(capsys, "variants", SHUTBOX, "--set", "tiles=1-4")
    assert code == 0
    assert out.splitlines()[0].startswith("riddler ")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", SHUTBOX, "--variant", "durang"], "mdp: error: unknown variant 'durang' for game shutbox; did you mean durango? (known: riddler, durango, two-dice, fiddler, ten-box, twelve-box, twelve-box-321, doubles-extra, max-two-flips)\n"),
        (["solve", SHUTBOX, "--set", "scoring=golf"], "mdp: error: parameter scoring=golf: unknown scoring rule (allowed: win, score, payout, digital)\n"),
    ],
)
def test_rule_errors_on_the_command_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert (code, out, err) == (2, "", message)


@pytest.mark.slow
def test_too_large_is_one_line_and_exit_3(capsys):
    code, out, err = run(capsys, "solve", SHUTBOX, "--max-states", "100")
    assert (code, out) == (3, "")
    assert err == ("mdp: error: game shutbox: more than 100 states; raise the limit with "
                   "--max-states (max_states= in Python)\n")
    code, out, err = run(capsys, "solve", SHUTBOX, "--max-memory", "100k")
    assert (code, out) == (3, "")
    assert re.fullmatch(r"mdp: error: game shutbox: the model would need more than 1\d\d kB of memory "
                        r"\([\d,]+ states so far\), past the budget of 100 kB; raise it with "
                        r"--max-memory \(max_memory= in Python\)\n", err)


@pytest.mark.parametrize("size, too_large", [("1000000000000000000000", True), ("9,300,000,000,000,000,000", True), ("9.3E18", False),
                                             ("10000000T", False), ("inf", False), ("0", False),
                                             ("nan", False), ("0.5", False), ("x", False)])
def test_a_max_memory_past_64_bits_is_said_too_large(capsys, size, too_large):
    # --max-memory 10**21 was "expected a size like 4G": it is a size, too large for 64
    # bits (2**63 - 1 bytes, about 9.2E18; 10**7 T is 10**19 bytes, 1E19 past it too).
    # "inf" is no number of digits 0 to 9: not a size (round 17).
    with pytest.raises(SystemExit) as exit_:
        main(["solve", SHUTBOX, "--max-memory", size])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and err.count("\n") == 1
    value = float(size[:-1]) * 10**12 if size.endswith("T") else None
    said_large = "is too large: at most 2**63 - 1 bytes" in err
    assert said_large == (too_large or (value is not None and value >= 2**63)), err
    assert said_large != ("expected a size like 4G" in err)


def test_bad_max_states_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["solve", SHUTBOX, "--max-states", "lots"])
    assert exit_.value.code == 2
    assert "expected a whole number of 1 or more, not 'lots'" in capsys.readouterr().err


def test_progress_on_a_terminal_is_shown_and_cleared(capsys, monkeypatch):
    import mdp.program.arguments

    monkeypatch.setattr(mdp.program.arguments.Progress, "DELAY", 0)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, out, err = run(capsys, "solve", SHUTBOX, "--set", "tiles=1-5")
    assert code == 0
    assert "\r\x1b[Kexplored " in err and "solving layer 1 of " in err
    assert err.endswith("\r\x1b[K")
    assert "\r" not in out


def test_no_progress_when_not_a_terminal(capsys):
    code, _, err = run(capsys, "solve", SHUTBOX, "--set", "tiles=1-5")
    assert code == 0 and err == ""


@pytest.mark.slow
def test_a_closed_pipe_ends_quietly(tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "mdp.program.cli", "policy", "shutbox"],
                               cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout.readline().startswith(b"open,roll,dice,shut")
    process.stdout.close()
    assert process.wait() == 0
    with process.stderr:
        assert process.stderr.read() == b""


def test_params_lists_every_parameter_with_its_default(capsys):
    code, out, _ = run(capsys, "params", SHUTBOX)
    lines = out.splitlines()
    assert code == 0
    assert [line.split()[0] for line in lines] == [
        "tiles", "dice", "faces", "one_die", "one_die_mode", "dice_schedule", "weights",
        "scoring", "payout", "shut_pays", "shut_wins", "doubles", "max_flips"]
    assert lines[0].endswith("[default: 1-9]")
    assert lines[-1].endswith("[default: (unset)]")
    code, out, _ = run(capsys, "params", SHUTBOX, "--json")
    assert json.loads(out)[1] == {"name": "dice", "default": 2, "help": "dice normally rolled"}


def test_params_of_a_game_without_parameters_says_so(capsys):
    """Round 27: nothing at all was printed, exit 0 (an empty screen)."""
    game = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "two_boxes.py")
    assert run(capsys, "params", game)[:2] == (0, "game two-boxes has no parameters\n")
    assert run(capsys, "params", game, "--json")[:2] == (0, "[]\n")


@pytest.mark.slow
@pytest.mark.parametrize("command", ["params", "variants", "solve"])
@pytest.mark.parametrize("what", ["empty.py", "helper.py", "folder"])
def test_what_implements_no_game_is_refused_by_every_command(tmp_path, capsys, command, what):
    """Round 32, U32-06: params and variants described an empty file, a helper module or a
    folder of other code as "game X has no parameters" (exit 0), where solve refused it."""
    path = tmp_path / what
    if what == "folder":
        path.mkdir()
        (path / "__init__.py").write_text("")
    else:
        path.write_text("" if what == "empty.py" else "import mdp\n\n\ndef roll():\n    return 1\n")
    name = path.stem
    code, out, err = run(capsys, command, str(path))
    assert (code, out) == (2, "") and err == (
        f"mdp: error: game {name}: no mdp_initial_state hook; a game implements mdp_initial_state, "
        "mdp_actions, mdp_outcomes and mdp_terminal_value, each marked @mdp.hookimpl\n"), err


def test_games_lists_installed_games(capsys):
    code, out, _ = run(capsys, "games")
    lines = out.splitlines()
    # Each game with the first line of its module's docstring.
    assert code == 0 and [line.split()[0] for line in lines] == ["pig", "shutbox", "yahtzee"]
    assert lines[0] == ("pig      Pig, for two players: roll a die as often as you like; a 1 loses the "
                        "turn, holding banks it.")
    assert lines[1] == ("shutbox  Shut the Box: roll dice and shut open tiles adding up to the "
                        "roll, until all are shut.")
    assert lines[2].startswith("yahtzee  Yahtzee, one turn or the whole game: ")
    code, out, _ = run(capsys, "games", "--json")
    assert [row["name"] for row in json.loads(out)] == ["pig", "shutbox", "yahtzee"]


def test_the_program_leaves_its_objects_out_of_the_last_garbage_collection(tmp_path):
    # Python's last collection at exit would walk every module, class and function again:
    # mdp freezes them as the exit handlers run. The handler registered first runs last.
    script = ("import atexit, gc\n"
              "atexit.register(lambda: print('frozen at exit:', gc.get_freeze_count() > 0))\n"
              "from mdp.program.cli import main\n"
              "main(['params', 'shutbox']); main(['params', 'shutbox'])\n"
              "print('frozen before exit:', gc.get_freeze_count() > 0)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=tmp_path, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.splitlines()[-2:] == ["frozen before exit: False", "frozen at exit: True"]


@pytest.mark.parametrize("columns", ["", "50", "200"])
def test_help_is_as_wide_as_argparse_would_make_it(monkeypatch, columns):
    # mdp sizes its help without shutil (start-up time); the text must not change for it.
    import argparse

    import mdp.program.cli

    monkeypatch.setenv("COLUMNS", columns)
    ours = [mdp.program.cli._parser(), mdp.program.cli._parser("solve")]
    monkeypatch.setattr(mdp.program.cli, "_Formatter", argparse.HelpFormatter)
    theirs = [mdp.program.cli._parser(), mdp.program.cli._parser("solve")]
    solve = [p._subparsers._group_actions[0].choices["solve"] for p in (ours[1], theirs[1])]
    assert ours[0].format_help() == theirs[0].format_help()
    assert solve[0].format_help() == solve[1].format_help()
    assert solve[0].format_usage() == solve[1].format_usage()


def _last_line(tmp_path, script: str, env=None) -> str:
    """The last line a Python script prints, run in a fresh process (it must succeed)."""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=tmp_path, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_solving_does_not_import_shutil(tmp_path):
    # Start-up time: argparse imports shutil (and the compression modules) for the terminal's
    # width alone. (A game's named variants are read at every load: they are checked there.)
    script = ("import sys\nfrom mdp.program.cli import main\nmain(['solve', 'shutbox', '--json'])\n"
              "print('shutil' in sys.modules)")
    assert _last_line(tmp_path, script) == "False"


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="threads counted in /proc")
@pytest.mark.slow  # half a second or more of CPU
def test_the_program_starts_one_blas_thread_unless_told_otherwise(tmp_path):
    # OpenBLAS's threads spin as numpy loads; mdp multiplies no matrices.
    script = ("import os, sys\nfrom mdp.program.cli import main\nmain(['solve', 'shutbox', '--json'])\n"
              "print(len(os.listdir('/proc/self/task')), os.environ.get('OPENBLAS_NUM_THREADS'))")
    env = {key: value for key, value in os.environ.items()
           if key not in ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")}
    assert _last_line(tmp_path, script, env) == "1 1"
    assert _last_line(tmp_path, script, {**env, "OMP_NUM_THREADS": "2"}).split()[1] == "None"


@pytest.mark.slow
def test_the_program_asks_numpy_for_no_huge_pages_unless_told_otherwise(tmp_path):
    # Where the kernel compacts memory for them on the spot, huge pages cost six times the
    # time of plain ones (docs/cli.rst, Environment).
    script = ("import os, sys\nfrom mdp.program.cli import main\nmain(['solve', 'shutbox', '--json'])\n"
              "from numpy._core.multiarray import _get_madvise_hugepage\n"
              "print(os.environ.get('NUMPY_MADVISE_HUGEPAGE'), _get_madvise_hugepage())")
    env = {key: value for key, value in os.environ.items() if key != "NUMPY_MADVISE_HUGEPAGE"}
    assert _last_line(tmp_path, script, env) == "0 False"
    assert _last_line(tmp_path, script, {**env, "NUMPY_MADVISE_HUGEPAGE": "1"}) == "1 True"


def heavy_imports(tmp_path, calls: str) -> str:
    """Run ``calls`` (Python, with ``main`` of the command line at hand) in a fresh
    interpreter; what they print, then which of numpy and Polars they imported (a last line
    ``[]`` for neither)."""
    script = ("import sys\nfrom mdp.program.cli import main\n" + calls +
              "\nprint(sorted({'numpy', 'polars'} & set(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
def test_help_lists_the_commands_without_numpy_or_polars(tmp_path):
    # Listing the commands needs neither: they are imported when a command does its work.
    out = heavy_imports(tmp_path, "try:\n    main(['--help'])\nexcept SystemExit:\n    pass")
    assert "policy" in out and "simulate" in out
    assert out.strip().splitlines()[-1] == "[]"
    # The lazy names are the functions, whichever module was imported first: the modules
    # that define them live in the rooms (mdp.engine.solve), not on the package itself.
    check = ("import mdp.engine.solve, mdp.engine.compile, mdp\nprint(callable(mdp.solve), callable(mdp.compile), "
             "callable(mdp.simulate), mdp.DEFAULT_MAX_STATES > 0)")
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                          cwd=tmp_path, timeout=60)
    assert done.stdout.split() == ["True"] * 4, done.stderr


@pytest.mark.slow
def test_the_commands_on_a_game_not_played_in_rounds_import_no_scipy(tmp_path):
    # Start-up time: scipy.sparse (a quarter of a second, numpy's test modules with it) is for
    # the sums of games of rounds (mdp/engine/columns.py, mdp/engine/rounds/totals.py); the
    # other commands imported it with the rounds' modules.
    calls = "\n".join(f"main({argv!r})" for argv in (
        ["policy", "shutbox", "-s", "tiles=1-4", "--out", "p.csv"],
        ["distribution", "shutbox", "-s", "tiles=1-4", "--json"],
        ["simulate", "shutbox", "-s", "tiles=1-4", "--games", "20", "--json"],
        ["strategies", "shutbox", "-s", "tiles=1-4", "--json"],
        ["advise", "shutbox", "-s", "tiles=1-4", "open=1 2 3 4", "roll=5"],
        ["report", "shutbox", "-s", "tiles=1-4", "--out", "r.html"],
        ["match", "shutbox", "-s", "tiles=1-4", "--json"]))
    script = f"import sys\nfrom mdp.program.cli import main\n{calls}\nprint('scipy' in sys.modules)"
    assert _last_line(tmp_path, script) == "False"
    # The games of rounds import it, and are solved with it.
    rounds = str(ROOT / "docs" / "examples" / "two_boxes.py")
    script = (f"import sys\nfrom mdp.program.cli import main\nmain(['distribution', {rounds!r}])"
              "\nprint('scipy.sparse' in sys.modules)")
    assert _last_line(tmp_path, script) == "True"


def test_mdp_alone_prints_its_help_and_succeeds(capsys):
    code, out, err = run(capsys)
    assert (code, err) == (0, "")
    assert out.startswith("usage: mdp") and "solve" in out and "policy" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["solv", "shutbox"], "mdp: error: unknown command 'solv'; did you mean solve? (commands: "
                          "solve, variants,"),
    (["solve", "shutbx"], "mdp: error: no game named 'shutbx'; did you mean shutbox? "
                          "(installed: pig, shutbox, yahtzee; or give a path)\n"),
])
def test_a_misspelt_command_or_game_gets_the_nearest_name(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.startswith(message) and err.count("\n") == 1


def test_the_game_folder_from_another_folder_names_the_installed_game(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "solve", "games/shutbox")
    assert (code, out) == (2, "")
    assert err.rstrip().endswith("not a game (expected a folder with __init__.py or a .py file); "
                                 "the installed game 'shutbox' is found by its name from any folder")


def test_a_minimized_objective_says_so(capsys):
    # The pub score is minimized by the game's own aim: the value line says which way.
    code, out, _ = run(capsys, "solve", SHUTBOX, "--set", "scoring=score")
    assert code == 0
    assert out.splitlines()[1].startswith("expected final score (minimized): 11.009")


@pytest.mark.parametrize(("command", "what"), [("solve", "one JSON object"),
                                               ("variants", "one JSON array"),
                                               ("strategies", "one JSON array"),
                                               ("games", "one JSON array"),
                                               ("formats", "one JSON array"),
                                               ("params", "one JSON array")])
def test_json_help_says_what_is_printed(capsys, command, what):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert f"--json print {what} on stdout" in out


def test_a_table_on_a_terminal_is_for_people_and_csv_through_a_pipe(capsys, monkeypatch):
    argv = ["match", "shutbox", "--set", "tiles=1-4", "--vary", "shut_pays=1,2"]
    code, piped, _ = run(capsys, *argv)
    assert code == 0 and piped.splitlines()[0] == "shut_pays,player_1_percent,player_1,player_2"
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code, shown, _ = run(capsys, *argv)
    assert code == 0
    assert shown.splitlines()[0].startswith("| shut_pays ") and shown.splitlines()[1].startswith("|---")


def test_a_markdown_table_leaves_a_value_that_does_not_apply_empty(capsys):
    # Before: the word null in every cell with nothing to say (the roll before a roll).
    reroll = str(ROOT / "docs" / "examples" / "reroll.py")
    code, out, _ = run(capsys, "policy", reroll, "--exact", "--format", "markdown")
    assert code == 0 and "null" not in out
    first = out.splitlines()[2].split("|")[1:-1]  # rolls_left 3, before the roll: no face
    assert [cell.strip() for cell in first] == ["3", "", "roll", "4.66666666666667", "14/3", "true", "0", "0"]
