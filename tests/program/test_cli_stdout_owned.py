"""Standard output is mdp's alone for the whole command: what a game writes there by a route
below Python's ``sys.stdout`` (file descriptor 1 itself, a program it runs, a C library's
printf, ``sys.__stdout__``) goes to standard error, never into the JSON or the table mdp
prints for programs. Before, ``os.write(1, ...)`` in a hook landed in ``--json``, exit 0."""

import json
import subprocess
import sys

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from models import WALK

pytestmark = pytest.mark.slow  # a process per case

MDP = [sys.executable, "-m", "mdp.program.cli"]

# Each route a game's code may write by, as one statement that writes the marker M.
ROUTES = {
    "fd": 'os.write(1, b"M\\n")',
    "dunder": 'print("M", file=sys.__stdout__, flush=True)',
    "dunder-buffered": 'print("M", file=sys.__stdout__)',  # left in its buffer
    "system": 'os.system("echo M")',
    "subprocess": 'subprocess.run([sys.executable, "-c", "print(\\"M\\")"])',
    "libc": 'ctypes.CDLL(None).printf(b"M\\n"); ctypes.CDLL(None).fflush(None)',
}

# Commands whose standard output is for programs, and how to read it back whole.
COMMANDS = {
    "solve --json": (["solve", "--json"], "json"),
    "policy": (["policy"], "csv"),
    "distribution --json": (["distribution", "--json"], "json"),
    "policy --format ndjson": (["policy", "--format", "ndjson"], "ndjson"),
}


def _game(routes: list[str], where: str) -> str:
    """The walk game (worth 3, by hand) whose code writes by ``routes``, each with its own
    marker, as it is imported or in its hook."""
    lines = [ROUTES[r].replace("M", f"{where}-{r}") for r in routes]
    game = WALK.replace("WORTH", "3").replace(
        "import mdp", "import ctypes, os, subprocess, sys\nimport mdp")
    if where == "import":
        return game + "\n" + "\n".join(lines) + "\n"
    body = "".join(f"    {line}\n" for line in lines)
    return game.replace("def mdp_terminal_value(state):\n",
                        "def mdp_terminal_value(state):\n" + body)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(routes=st.lists(st.sampled_from(sorted(ROUTES)), min_size=1, max_size=3, unique=True),
       where=st.sampled_from(["import", "hook"]), command=st.sampled_from(sorted(COMMANDS)))
def test_what_a_game_writes_below_sys_stdout_goes_to_standard_error(tmp_path, routes, where,
                                                                       command):
    path = tmp_path / "walk.py"
    path.write_text(_game(routes, where))
    words, kind = COMMANDS[command]
    done = subprocess.run([*MDP, words[0], str(path), *words[1:]], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    for route in routes:
        assert f"{where}-{route}" not in done.stdout
        assert f"{where}-{route}" in done.stderr
    if kind == "json":
        assert json.loads(done.stdout)["value"] == 3.0  # walk away with 3
    elif kind == "csv":
        table = pl.read_csv(done.stdout.encode())
        assert table.columns[:2] == ["state", "action"] and table.height == 2
    else:
        rows = [json.loads(line) for line in done.stdout.splitlines()]
        assert [row["action"] for row in rows] == ["walk", "stay"]


def test_standard_output_is_given_back_after_a_command_run_in_the_process(tmp_path):
    """mdp.program.main run inside another program leaves file descriptor 1 where it was."""
    path = tmp_path / "walk.py"
    path.write_text(_game(["fd"], "hook"))
    script = ("import os, sys\nfrom mdp.program import main\n"
              f"code = main(['solve', {str(path)!r}, '--json'])\n"
              "sys.stdout.flush()\nos.write(1, b'after\\n')\nsys.exit(code)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert json.loads(lines[0])["value"] == 3.0 and lines[1:] == ["after"]
    assert "hook-fd" in done.stderr


# Names of standard output, as a user may give them (made in the test's folder where needed).
STANDARD_NAMES = ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", "link", "link-to-link",
                  "redirected", "hard-link"]


def _name(folder, how: str) -> str:
    """The name ``how`` of standard output, which is sent to the file ``folder/out.txt``."""
    if how == "link":
        (folder / "t.csv").symlink_to("/dev/stdout")
    elif how == "link-to-link":
        (folder / "l.csv").symlink_to("/dev/stdout")
        (folder / "t.csv").symlink_to(folder / "l.csv")
    elif how == "redirected":
        return str(folder / "out.txt")
    elif how == "hard-link":
        (folder / "t.csv").hardlink_to(folder / "out.txt")
    else:
        return how
    return str(folder / "t.csv")


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(how=st.sampled_from(STANDARD_NAMES),
       command=st.sampled_from([["policy", "--format", "csv", "--out"],
                                ["distribution", "--format", "csv", "--out"],
                                ["distribution", "--plot"]]))
def test_a_file_that_is_standard_output_is_refused_with_json(tmp_path_factory, how, command):
    folder = tmp_path_factory.mktemp("named")
    (folder / "out.txt").write_text("")
    target = _name(folder, how)
    with open(folder / "out.txt", "w") as out:
        done = subprocess.run([*MDP, command[0], "shutbox", "--set", "tiles=1-3", *command[1:],
                               target, "--json"], stdout=out, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    assert done.returncode == 2
    option = command[-1]
    assert done.stderr.startswith(f"mdp: error: {option} ") and done.stderr.endswith(
        f" is standard output, where --json prints; write {option} to another file, or leave "
        "out --json\n")
    assert (folder / "out.txt").read_text() == "" and "\n" not in done.stderr[:-1]


def test_standard_output_named_as_out_takes_the_table(tmp_path):
    """Standard output is mdp's own, and /dev/stdout names it still: the table lands there,
    not on standard error, where file descriptor 1 points while the command runs."""
    done = subprocess.run([*MDP, "policy", "shutbox", "--set", "tiles=1-2", "--format", "csv",
                           "--out", "/dev/stdout"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("open,roll,dice,shut,value,optimal,regret\n")
    assert done.stderr.endswith("rows written to /dev/stdout\n") and "open," not in done.stderr


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(how=st.sampled_from(STANDARD_NAMES),
       command=st.sampled_from(["distribution", "simulate", "lengths"]))
def test_a_picture_that_is_standard_output_is_refused_beside_the_report(tmp_path_factory, how,
                                                                         command):
    """``mdp distribution --plot d.png > d.png`` wrote the report and the picture into one
    file, "the picture written to d.png", exit 0 (round 17)."""
    folder = tmp_path_factory.mktemp("pictured")
    (folder / "out.txt").write_text("")
    target = _name(folder, how)
    extra = {"simulate": ["--games", "10"], "lengths": ["--set", "goal=3"]}.get(command, [])
    game = "pig" if command == "lengths" else "shutbox"
    with open(folder / "out.txt", "w") as out:
        done = subprocess.run([*MDP, command, game, *(["--set", "tiles=1-3"] if game == "shutbox"
                                                      else []), *extra, "--plot", target],
                              stdout=out, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("mdp: error: --plot ") and "\n" not in done.stderr[:-1]
    assert (folder / "out.txt").read_text() == ""
