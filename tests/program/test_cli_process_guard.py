"""A game's code that changes what the whole process shares (the working directory, standard
output, the recursion limit, sys.modules, the built-ins, a module's functions, what a signal
does, the umask, mdp's environment variables) is
refused in one line that blames the game, or undone where it could change nothing: never a
file written elsewhere, a traceback, an answer lost, or the user's environment blamed."""

import subprocess
import sys
from pathlib import Path

import pytest
from models import WALK

pytestmark = pytest.mark.slow  # a process per case

MDP = [sys.executable, "-m", "mdp.program.cli"]

# What a hook does first; the game's value is 3 whatever it does (walk away with 3, by hand).
GAME = WALK.replace("import mdp", "import builtins, io, os, sys\nimport mdp").replace(
    '    return {"walk": WORTH', '    CHANGE\n    return {"walk": 3')

# Refused: each change, and the words the line says of it.
REFUSED = {
    "os.chdir(os.path.dirname(os.path.dirname(__file__)))": "changed the working directory",
    "os.dup2(os.open(os.devnull, os.O_WRONLY), 1)": "standard output (file descriptor 1)",
    "sys.setrecursionlimit(60)": "lowered Python's recursion limit from",
    # too low to say so without putting it back first: was a traceback
    "sys.setrecursionlimit(30)": "lowered Python's recursion limit from",
    # the line itself goes there: was rc 2 and nothing said
    "sys.stderr.close()": "closed standard error (sys.stderr)",
    "os.close(2)": "closed standard error (file descriptor 2)",
    # the line would go where the game sent it: was rc 2 and nothing said
    "os.dup2(os.open(os.devnull, os.O_WRONLY), 2)": "replaced standard error (file descriptor 2)",
    'sys.modules["polars"] = None': "module polars in sys.modules",
    'sys.modules["json"] = None': "module json in sys.modules",
    # a copy in its place: was a traceback of numpy's that could not import what it needs
    "sys.modules = type('Modules', (dict,), {})(sys.modules)": "rebound sys.modules",
    "builtins.float = int": "built-in float",
    # the refusal is said by print, put back first: was nothing said, or a traceback
    "builtins.print = lambda *a, **k: None": "built-in print",
    'builtins.print = lambda *a, **k: (_ for _ in ()).throw(RuntimeError("no print"))':
        "built-in print",
    # ones mdp's own code calls before the guard looks (its checks, its error path): were
    # tracebacks, or the game's answers called wrong
    **{f'builtins.{name} = lambda *a, **k: (_ for _ in ()).throw(RuntimeError("no {name}"))':
       f"built-in {name}" for name in ("str", "getattr", "isinstance", "len")},
    "import numpy; numpy.maximum = numpy.minimum": "replaced numpy.maximum",
    "import signal; signal.signal(signal.SIGINT, signal.SIG_IGN)": "changed what SIGINT does",
    "import signal; signal.signal(signal.SIGTERM, signal.SIG_IGN)": "changed what SIGTERM does",
    "import signal; signal.signal(signal.SIGHUP, signal.SIG_IGN)": "changed what SIGHUP does",
    "import signal; signal.signal(signal.SIGINT, signal.SIG_DFL)": "changed what SIGINT does",
    "os.umask(0o777)": "changed the file mode creation mask (umask) from",
    # Fraction then took a float for a fraction: a traceback in mdp's own code
    "import numbers; numbers.Rational.register(float)": "registered float as numbers.Rational",
    "import numbers; numbers.Integral.register(float)": "registered float as numbers.Integral",
    # modules mdp's checks and pictures go through: were a parameter's change unseen, a
    # traceback of the standard library, an empty picture announced
    "import copy; copy.deepcopy = lambda x, memo=None: x": "replaced copy.deepcopy",
    "import contextlib; contextlib.suppress = lambda *e: contextlib.nullcontext()":
        "replaced contextlib.suppress",
    "import matplotlib.image; matplotlib.image.imsave = lambda *a, **k: None":
        "replaced matplotlib.image.imsave",
    # what the report's page is written with: were raw markup, a placeholder left, no explorer
    "import html; html.escape = lambda s, quote=True: s": "replaced html.escape",
    "import re; re.sub = lambda p, r, s, *a, **k: s": "replaced re.sub",
    "import base64; base64.b64encode = lambda *a, **k: b''": "replaced base64.b64encode",
    # what numpy reads as it loads, after a game's import: was a traceback in numpy's own
    "import inspect; inspect.signature = None": "replaced inspect.signature",
    "import types; types.FunctionType = None": "replaced types.FunctionType",
    "import datetime; datetime.date = None": "replaced datetime.date",
    # what the guard's own check had called: was a traceback at every check
    "import importlib; importlib.import_module = None": "replaced importlib.import_module",
    # what the guard compares with: a lying comparison hid every other change (the value of
    # numpy.maximum made numpy.minimum was printed as the answer)
    "import operator; operator.is_ = lambda a, b: True; import numpy; numpy.maximum = numpy.minimum":
        "replaced operator.is_",
    "import operator; operator.call = lambda f, *a: (); import numpy; numpy.maximum = numpy.minimum":
        "replaced operator.call",
}
# Undone: the answer is printed all the same.
UNDONE = [
    "sys.stdout = io.StringIO()",
    "sys.stderr = io.StringIO()",
    'os.environ["MDP_THREADS"] = "x"',
    'os.environ["POLARS_MAX_THREADS"] = "0"',
]

COMMANDS = {
    "solve": ["solve", "../game.py", "--exact"],
    "policy": ["policy", "../game.py", "--out", "p.csv"],
    "simulate": ["simulate", "../game.py", "--games", "20", "--seed", "1", "--out", "s.csv"],
    "distribution": ["distribution", "../game.py", "--json", "--plot", "d.svg"],
}


def _run(tmp_path: Path, change: str, command: str) -> tuple[subprocess.CompletedProcess, Path]:
    (tmp_path / "game.py").write_text(GAME.replace("CHANGE", change))
    work = tmp_path / "work"
    work.mkdir()
    done = subprocess.run([*MDP, *COMMANDS[command]], cwd=work, capture_output=True, text=True,
                          timeout=120)
    return done, work


def _files(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


# A process per case, so each change runs with one command, the four in turn: the guard is
# checked where every command passes (after the game's hooks, mdp.program.arguments; after the
# command, mdp.program.cli), so a change is one case whatever the command. The commands
# differ in what they write (standard output, a file, a plot, JSON): the change of directory,
# which would put a file elsewhere, and the rebound standard output, which would lose what is
# printed, run with all four.
_EVERY_COMMAND = [next(iter(REFUSED)), UNDONE[0]]


def _cases(changes):
    """Each change with one command in turn, those of _EVERY_COMMAND with every command."""
    return [pytest.param(change, command, id=f"{change}-{command}")
            for n, change in enumerate(changes)
            for command in (COMMANDS if change in _EVERY_COMMAND else
                            [list(COMMANDS)[n % len(COMMANDS)]])]


@pytest.mark.parametrize(("change", "command"), _cases(REFUSED))
def test_a_change_is_refused_blaming_the_game(tmp_path, change, command):
    done, work = _run(tmp_path, change, command)
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip()
    assert "\n" not in line and line.startswith("mdp: error: game walk "), line
    assert REFUSED[change] in line
    assert "must leave the process as it found it" in line
    # nothing written, here or where the game moved to
    assert _files(work) == set() and _files(tmp_path) == {"game.py", "work"}


@pytest.mark.parametrize(("change", "command"), _cases(UNDONE))
def test_a_change_that_could_change_nothing_is_undone(tmp_path, change, command):
    done, work = _run(tmp_path, change, command)
    assert done.returncode == 0, done.stderr
    if command == "solve":
        assert "value: 3" in done.stdout.splitlines()
    elif command == "distribution":
        assert '"value": 3.0' in done.stdout and _files(work) == {"d.svg"}
    else:
        assert _files(work) == {COMMANDS[command][-1]}


@pytest.mark.parametrize("change", ["sys.stderr = io.StringIO()", "sys.stderr = sys.stdout"])
def test_the_users_error_reaches_standard_error_a_game_rebound(tmp_path, change):
    """mdp's line goes to the real standard error, not where a hook sent ``sys.stderr``
    (was: the line in the game's StringIO, or on standard output)."""
    (tmp_path / "game.py").write_text(GAME.replace("CHANGE", change))
    done = subprocess.run([*MDP, "advise", "game.py", "state=nowhere"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("mdp: error: no reachable state has state='nowhere'"), done.stderr


def test_a_game_that_changes_directory_as_it_is_imported(tmp_path):
    """The realistic form: a game package that moves to its own folder to read its data."""
    package = tmp_path / "mygame"
    package.mkdir()
    (package / "__init__.py").write_text(
        "import os\nos.chdir(os.path.dirname(os.path.abspath(__file__)))\n"
        + GAME.replace("CHANGE", "pass"))
    work = tmp_path / "work"
    work.mkdir()
    done = subprocess.run([*MDP, "policy", "../mygame", "--out", "pol.csv"], cwd=work,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "game walk changed the working directory from" in done.stderr
    assert _files(work) == set() and "pol.csv" not in _files(package)


def test_a_plugins_export_that_changes_directory_is_blamed_and_writes_nothing(tmp_path):
    (tmp_path / "game.py").write_text(GAME.replace("CHANGE", "pass"))
    (tmp_path / "exp.py").write_text(
        "import os\nimport mdp\n\n"
        "def write(model, path):\n"
        "    os.chdir('/')\n"
        "    with open(path, 'w') as file:\n        file.write('ok')\n"
        "    return [path]\n\n"
        "@mdp.hookimpl\ndef mdp_exports():\n"
        "    return [mdp.Export('ex', 'a model', write)]\n")
    work = tmp_path / "work"
    work.mkdir()
    done = subprocess.run([*MDP, "export", "../game.py", "-p", "../exp.py", "--format", "ex", "--out", "m.ex"],
                          cwd=work, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("mdp: error: plugin ../exp.py's export ex changed the working "
                                  "directory from ")
    assert _files(work) == set() and _files(tmp_path) == {"game.py", "exp.py", "work"}


def test_a_lowered_limit_of_digits_is_put_back_for_an_exact_answer(tmp_path, capsys):
    """A hook that lowers the digits Python turns into text (640) left an exact answer of 700
    digits a traceback (ValueError); the command's own limit is put back."""
    from mdp.program.cli import main

    game = GAME.replace("CHANGE", "sys.set_int_max_str_digits(640)").replace(
        'return {"walk": 3', 'from fractions import Fraction; return {"walk": Fraction(3 * 10**700 + 1, 10**700)')
    (tmp_path / "game.py").write_text(game)
    assert main(["solve", str(tmp_path / "game.py"), "--exact"]) == 0
    out = capsys.readouterr().out
    assert f"exact: {3 * 10**700 + 1}/{10**700}" in out.splitlines()


@pytest.mark.parametrize(("made", "said"), [
    ("os.mkdir(TARGET)", "made a folder where --out p.csv was to be written"),
    ("os.mkfifo(TARGET)", "made a named pipe (FIFO) where --out p.csv was to be written"),
    ("os.symlink(os.getcwd(), TARGET)", "made a symbolic link where --out p.csv was to be written"),
])
def test_a_target_the_game_made_into_something_else_is_the_game_s_change(tmp_path, made, said):
    # Round 23: a folder made there was blamed on the user ("is a folder; name a file to
    # write"), and a named pipe hung the command until it was killed.
    change = made.replace("TARGET", "os.path.join(os.getcwd(), 'p.csv')")
    (tmp_path / "game.py").write_text(GAME.replace("CHANGE", f"os.path.lexists('p.csv') or {change}"))
    done = subprocess.run([*MDP, "policy", "game.py", "--out", "p.csv"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"mdp: error: game walk {said} while its code ran; a game or plugin must " \
                          "leave the process as it found it\n"


@pytest.mark.parametrize(("change", "called"), [
    ('os.execv("/bin/true", ["true"])', "os.execv"),
    ('os.execl("/bin/true", "true")', "os.execv"),
    ('os.execlp("true", "true")', "os.execv"),
    ('os.execve(sys.executable, [sys.executable, "-c", "print(42)"], dict(os.environ))', "os.execve"),
    # the C functions by their module's own name (round 27)
    ('import posix; posix.execv("/bin/true", ["true"])', "os.execv"),
    ("import posix; posix._exit(0)", "os._exit(0)"),
])
def test_a_hook_that_would_put_another_program_in_mdps_place_is_refused(tmp_path, change, called):
    """Round 26: ``os.exec*`` in a hook ended mdp with the other program's exit status (0),
    no file, nothing said, or its answer printed as mdp's."""
    done, work = _run(tmp_path, change, "policy")
    assert done.returncode == 2 and done.stdout == "", (done.stdout, done.stderr)
    assert done.stderr.startswith(f"mdp: error: game walk: mdp_terminal_value raised {called}, "
                                  "which is refused: the ")
    assert _files(work) == set()
