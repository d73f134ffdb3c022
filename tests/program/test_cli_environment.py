"""The environment variables mdp and its libraries read, whatever their values: one line and
exit code 2 for a value that cannot be taken, or the command works; never a traceback. And
Ctrl-C while mdp starts is an interruption like any other."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import mdp

ROOT = Path(__file__).resolve().parents[2]

# Text an environment variable can hold: no NUL, nothing that is not a character.
_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=6)
_NUMBERS = st.integers(-3, 5000).map(str) | st.sampled_from(["1024", "1025", "99999", "10" * 20])
_THREADS = st.one_of(_TEXT, _NUMBERS, st.sampled_from(["²", "٣", "1e3", " 2 ", "+2", "0x2", "2.0"]))
# PYTHONIOENCODING: a codec the interpreter knows (an unknown one stops Python itself before
# any of mdp runs), with any error handler, known or not.
_ENCODING = st.tuples(st.sampled_from(["ascii", "latin-1", "utf-8", "utf-16", "cp1252", "koi8-r"]),
                      st.one_of(st.just(""), st.sampled_from([":strict", ":replace", ":ignore"]),
                                _TEXT.map(lambda handler: f":{handler}"))).map("".join)
ENVIRONMENT = st.fixed_dictionaries({}, optional={
    "MDP_THREADS": _THREADS,
    "POLARS_MAX_THREADS": _THREADS,
    "NUMPY_MADVISE_HUGEPAGE": st.one_of(_TEXT, st.sampled_from(["0", "1", " 1 ", "x", "2.0"])),
    "MPLBACKEND": st.one_of(_TEXT, st.sampled_from(["agg", "svg", "nosuch", "tkagg", "module://x"])),
    "PYTHONIOENCODING": _ENCODING,
    "HOME": st.sampled_from(["/dev/null", "/nonexistent", "/proc"]),
    "MPLCONFIGDIR": st.sampled_from(["/dev/null", "/nonexistent/x", "/proc"]),
})

ACCENTED = '''
import mdp

GAME = "shutbox"


@mdp.hookimpl(wrapper=True)
def mdp_describe():
    text = yield
    return text + "; règle spéciale, ½ × ∞"
'''


def _threads(text: str) -> bool:
    """Whether mdp takes ``text`` as a number of threads (MDP_THREADS, POLARS_MAX_THREADS,
    alike): digits alone, as Polars reads its own, from 1 to 1024 (Polars starts as many
    threads as it is told); a blank or empty value is refused, not taken for unset."""
    return text.isascii() and text.isdigit() and 1 <= int(text) <= 1024


def _whole(text: str) -> bool:
    """Whether numpy takes ``text`` as NUMPY_MADVISE_HUGEPAGE: what Python's int takes."""
    try:
        int(text)
    except ValueError:
        return False
    return True


@settings(max_examples=200, deadline=None)
@given(value=st.one_of(_TEXT, _NUMBERS, st.sampled_from(["x", " 1 ", "+0", "1_0", "٣", "2.0", ""])))
def test_numpy_madvise_hugepage_is_taken_as_numpy_reads_it_or_refused_naming_it(value):
    # Before: a word stopped numpy's import, and every game was blamed ("cannot import
    # mdp_games.shutbox: ValueError").
    from mdp.program.environment import check_numpy_environment

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("NUMPY_MADVISE_HUGEPAGE", value)
        if _whole(value):
            check_numpy_environment()
        else:
            with pytest.raises(mdp.ParamError, match="^NUMPY_MADVISE_HUGEPAGE="):
                check_numpy_environment()


@pytest.fixture(scope="module")
def accented(tmp_path_factory):
    folder = tmp_path_factory.mktemp("accented")
    (folder / "accented.py").write_text(ACCENTED, encoding="utf-8")
    return folder


@pytest.mark.slow
# Each case a run of mdp: no shrinking, which would run it hundreds of times more.
@settings(max_examples=15, deadline=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(environment=ENVIRONMENT)
def test_no_value_of_the_environment_gives_a_traceback(accented, environment):
    env = {key: value for key, value in os.environ.items()
           if key not in ("MDP_THREADS", "POLARS_MAX_THREADS", "MPLBACKEND", "PYTHONIOENCODING",
                          "MPLCONFIGDIR", "NUMPY_MADVISE_HUGEPAGE")}
    env.update(environment)
    for name in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME"):  # matplotlib's folders: under HOME
        env.pop(name, None)
    argv = [sys.executable, "-m", "mdp", "distribution", "shutbox", "-s", "tiles=1-3",
            "-p", "accented.py", "--out", "d.csv", "--plot", "d.png"]
    done = subprocess.run(argv, cwd=accented, env=env, capture_output=True, timeout=120)
    # Standard error is written in PYTHONIOENCODING's encoding too.
    encoding = environment.get("PYTHONIOENCODING", "utf-8").partition(":")[0]
    err = done.stderr.decode(encoding, "backslashreplace")
    assert "Traceback" not in err and "Fatal" not in err and "panicked" not in err, err
    refused = not _threads(environment.get("MDP_THREADS", "1")) or \
        not _threads(environment.get("POLARS_MAX_THREADS", "1")) or \
        not _whole(environment.get("NUMPY_MADVISE_HUGEPAGE", "0"))
    if refused:
        assert done.returncode == 2, err
        assert err.count("\n") == 1 and err.startswith("mdp: error: "), err
        assert "_THREADS=" in err or "NUMPY_MADVISE_HUGEPAGE=" in err
    else:
        assert done.returncode == 0, err
        assert err.splitlines() == ["the picture written to d.png", "6 rows written to d.csv"], err
        assert (accented / "d.csv").read_text().startswith("shut_sum,open_sum,probability")
        assert done.stdout == b""  # with --out, the table goes to its file alone


@settings(max_examples=200, deadline=None)
@given(variable=st.sampled_from(["MDP_THREADS", "POLARS_MAX_THREADS"]),
       threads=_THREADS | st.sampled_from(["", " ", " 4", "4 ", "\t2", "04"]))
def test_threads_are_taken_from_1_to_1024_alike_in_both_variables_or_refused(variable, threads):
    # In the process (the test above runs mdp itself, slowly): the same oracle, many values.
    # Before: 99999 was taken, and Polars started as many threads, past the machine's memory;
    # and MDP_THREADS took ' 4' and '' (as unset) where POLARS_MAX_THREADS refused them.
    from mdp.engine.parallel import threads as counted
    from mdp.program.environment import check_environment

    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("MDP_THREADS", raising=False)
        patch.delenv("POLARS_MAX_THREADS", raising=False)
        patch.setenv(variable, threads)
        if _threads(threads):
            check_environment()
            assert variable != "MDP_THREADS" or counted() == int(threads)
        else:
            with pytest.raises(mdp.ParamError) as error:
                check_environment()
            assert str(error.value) == (f"{variable}={threads!r}: expected a whole number of "
                                        "threads, from 1 to 1024 in plain digits (or leave it unset)")


# Ctrl-C while mdp starts: as each of the modules it imports first is imported.
STARTING = ["pluggy", "attrs", "argparse", "mdp.errors", "mdp.limits", "mdp.game.load", "mdp.program.cli",
            "mdp.program.arguments", "mdp.program.builtins.core", "mdp.analysis.registry"]

INTERRUPT_ON_IMPORT = '''
import os, signal, sys

class Interrupt:
    """Ctrl-C as the module {module!r} is imported."""
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, Interrupt())
sys.argv = ["mdp", "solve", "shutbox"]
from mdp.program import main  # as the mdp command does
sys.exit(main())
'''


@pytest.mark.slow
@pytest.mark.parametrize("module", STARTING)
def test_ctrl_c_while_mdp_starts_is_an_interruption(module):
    done = subprocess.run([sys.executable, "-c", INTERRUPT_ON_IMPORT.format(module=module)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert (done.returncode, done.stderr) == (130, "mdp: interrupted\n")
