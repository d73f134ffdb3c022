"""More of the process a game must leave as it found it (:mod:`mdp.program.states`, round 20):
each kind of state changed is put back and said, end to end refused in one line that blames
the game, exit 2, no file. Before, each got through: a warnings filter of "error" made mdp's
own "may have no end" a traceback (of "ignore": it vanished); a module added to
``sys.modules`` under a name mdp imports later was run as mdp's; faulthandler's timer dumped
mdp's stack; ``os.setpgid``/``os.setsid`` kept a Ctrl-C from mdp; a ``decimal`` trap was a
traceback in mdp's exact spread; ``polars.Config.set_engine_affinity("gpu")`` had the
Parquet writer blamed; a hook that swallowed a SIGTERM had the command end 0; a thread left
running kept mdp from exiting, unsaid."""

import decimal
import faulthandler
import json
import math
import signal
import subprocess
import sys
import types
import warnings
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import WALK, refused_as_a_change, run_changes

from mdp.engine.numeric import about
from mdp.engine.rounds.spread import _root
from mdp.program import states

ACTIONS = ["error", "ignore", "always", "default", "module", "once"]
CATEGORIES = [Warning, UserWarning, RuntimeWarning, DeprecationWarning, SyntaxWarning]


def _outcome(warned, *added):
    """What Python's own filtering does with ``warned`` warned from mdp's module, with mdp's
    filters as a command runs (a RuntimeWarning an error: mdp/program/cli.py) and ``added``."""
    with warnings.catch_warnings(record=True) as shown:
        warnings.resetwarnings()
        warnings.simplefilter("always")
        warnings.simplefilter("error", RuntimeWarning)
        for filter_ in added:
            warnings.filterwarnings(*filter_)
        try:
            warnings.warn_explicit("x", warned, "budget.py", 1, module="mdp.engine.budget")
        except Warning:
            return "raised"
        return "shown" if shown else "hidden"


def _python_s_verdict(action, category, module):
    """Whether that one filter changes what becomes of mdp's warnings, a UserWarning or a
    RuntimeWarning (the independent answer)."""
    added = (action, "", category, module or "")
    return any(_outcome(warned) != _outcome(warned, added) for warned in (UserWarning, RuntimeWarning))


@settings(max_examples=80, deadline=None)
@given(action=st.sampled_from(ACTIONS), category=st.sampled_from(CATEGORIES),
       module=st.sampled_from([None, "mdp", "mdp.engine.budget", "numpy", "game"]))
def test_a_warnings_filter_that_raises_or_hides_mdp_s_warnings_is_said_and_taken_out(action, category, module):
    with warnings.catch_warnings():
        recorded = states.record()
        try:
            warnings.filterwarnings(action, category=category, module=module or "")
            before = list(warnings.filters)
            said = states.changed(recorded)
            if _python_s_verdict(action, category, module):
                assert said == (f"set Python's warnings filter {action!r} for {category.__name__} "
                                "(warnings.filters)")
                assert list(warnings.filters) == recorded["filters"]  # taken out
            else:
                assert said is None
                assert list(warnings.filters) == before
        finally:
            states.forget()


def test_mdp_s_own_warning_is_shown_whatever_filter_the_game_set_after_the_work_began():
    from mdp.engine.budget import Budget, UnboundedWarning

    game = types.SimpleNamespace(name="g")
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        budget = Budget(game, 10, None, (1, 1), None)
        for action in ("error", "ignore"):
            warnings.simplefilter(action)  # as a game's hook did, mid-work
            budget.endless(5, "deep", 1)
    assert [type(w.message) for w in shown] == [UnboundedWarning, UnboundedWarning]


ARMED = {"enable": lambda: faulthandler.enable(),
         "dump_traceback_later": lambda: faulthandler.dump_traceback_later(0.01, repeat=True),
         "register": lambda: faulthandler.register(signal.SIGUSR1)}


@pytest.mark.parametrize("name", ARMED)
def test_faulthandler_armed_is_kept_out_and_said(name):
    enabled = faulthandler.is_enabled()
    recorded = states.record()
    try:
        ARMED[name]()
        assert faulthandler.is_enabled() == enabled  # nothing armed
        assert states.changed(recorded) == f"armed faulthandler (faulthandler.{name}; mdp kept it out)"
        assert states.changed(recorded) is None
    finally:
        states.forget()
    assert getattr(faulthandler, name).__module__ == "faulthandler"  # Python's own again


TRAPS = [decimal.Inexact, decimal.Rounded, decimal.FloatOperation, decimal.Underflow, decimal.Clamped]


@settings(max_examples=40, deadline=None)
@given(trap=st.sampled_from(TRAPS), prec=st.integers(1, 60))
def test_a_decimal_context_changed_is_said_and_put_back(trap, prec):
    with decimal.localcontext():
        context = decimal.getcontext()
        was = {"prec": context.prec, "traps": dict(context.traps)}
        recorded = states.record()
        try:
            context.traps[trap] = not context.traps[trap]
            assert states.changed(recorded) == "changed decimal's context (decimal.getcontext().traps)"
            context.prec = prec
            said = states.changed(recorded)
            assert said == (None if prec == was["prec"] else
                            "changed decimal's context (decimal.getcontext().prec)")
            assert {"prec": context.prec, "traps": dict(context.traps)} == was
        finally:
            states.forget()


@pytest.mark.parametrize("trap", [decimal.Inexact, decimal.Rounded])
def test_mdp_s_decimal_arithmetic_takes_no_trap_of_the_thread(trap):
    with decimal.localcontext() as context:
        context.traps[trap], context.prec = True, 2
        # sqrt(2) to 20 digits rounds to the float nearest sqrt(2); 1/3 to three digits
        assert float(_root(Fraction(2))) == math.sqrt(2)
        assert about(Fraction(1, 3)) == "0.333"


FAKES = {"made": lambda name: types.ModuleType(name), "another": lambda name: json,
         "not a module": lambda name: 42, "None": lambda name: None}


@pytest.mark.parametrize("fake", FAKES)
@pytest.mark.parametrize("name", ["mdp.engine.solve", "mdp.analysis.lengths", "numpy.not_yet"])
def test_a_module_added_under_a_name_mdp_imports_later_is_said_and_taken_out(fake, name):
    modules = dict(sys.modules)
    modules.pop(name, None)
    was = sys.modules.pop(name, None)
    try:
        sys.modules[name] = FAKES[fake](name)
        said = states.modules(modules)
        if fake == "another" and not name.startswith("mdp."):  # (a library's own alias)
            assert said is None
        else:
            assert said == f"replaced module {name} in sys.modules with None" if fake == "None" \
                else said is not None and said.startswith(f"added module {name} to sys.modules")
            assert name not in sys.modules
    finally:
        sys.modules.pop(name, None)
        if was is not None:
            sys.modules[name] = was


def test_a_replaced_module_is_named_by_its_name():
    modules = dict(sys.modules)
    was = sys.modules["fractions"]
    try:
        sys.modules["fractions"] = types.ModuleType("fractions")
        assert states.modules(modules) == "replaced module fractions in sys.modules with module fractions"
    finally:
        sys.modules["fractions"] = was


# End to end: a game's hook makes the change; the value is 3 whatever it does.
GAME = WALK.replace("import mdp", "import decimal, faulthandler, json, os, signal, sys, types, "
                    "warnings\nimport mdp").replace('    return {"walk": WORTH', '    CHANGE\n    return {"walk": 3')
CHANGES = {
    "warnings.simplefilter('error')": "set Python's warnings filter 'error' for Warning",
    "warnings.simplefilter('ignore')": "set Python's warnings filter 'ignore' for Warning",
    "warnings.showwarning = lambda *a, **k: print('GAME SAYS HI')": "replaced warnings.showwarning",
    "faulthandler.dump_traceback_later(0.01, repeat=True)":
        "armed faulthandler (faulthandler.dump_traceback_later; mdp kept it out)",
    "faulthandler.enable(file=sys.stdout)": "armed faulthandler (faulthandler.enable; mdp kept it out)",
    "faulthandler.register(signal.SIGUSR1)": "armed faulthandler (faulthandler.register; mdp kept it out)",
    "os.setpgid(0, 0)": "moved mdp to a process group of its own (os.setpgid",
    "try:\n        os.setsid()\n    except PermissionError:\n        pass": "moved mdp to a session of its own (os.setsid",
    "decimal.getcontext().traps[decimal.Inexact] = True": "changed decimal's context (decimal.getcontext().traps)",
    "import polars; polars.Config.set_fmt_float('full')": "changed Polars' settings (polars.Config.set_fmt_float)",
    "sys.modules.setdefault('mdp.analysis.lengths', types.ModuleType('x'))":
        "added module mdp.analysis.lengths to sys.modules",
    "sys.modules.setdefault('mdp.engine.not_yet', json)": "added module mdp.engine.not_yet to sys.modules",
}


def _run(tmp_path, change, *arguments):
    (tmp_path / "game.py").write_text(GAME.replace("CHANGE", change))
    # (in pytest's process group: the game's setpgid/setsid move mdp's process alone)
    return subprocess.run([sys.executable, "-m", "mdp", *arguments], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)


# A process of its own for each change of the process's group or session: neither is put back
# (a process cannot leave a session it leads), and after one the other fails (EPERM).
ALONE = [change for change in CHANGES if "setpgid" in change or "setsid" in change]


@pytest.mark.slow  # a process of mdp for the changes put back, a command each
def test_a_game_that_changes_the_process_is_refused_and_writes_nothing(tmp_path):
    # One process of mdp for every change it puts back (models.run_changes, as in
    # test_cli_guard_settings.py; the tests above check each one's putting back): a command
    # each, one after the other, each game in a folder of its own, each change refused in
    # its own words.
    put_back = [change for change in CHANGES if change not in ALONE]
    results, out = run_changes(tmp_path, GAME, put_back, ["policy", "game.py", "--out", "p.csv", "--json"])
    for (code, names, err), change in zip(results, put_back, strict=True):
        refused_as_a_change(code, names, err, CHANGES[change])
    assert out == ""  # nothing of --json, nor of a warning shown at the interpreter's end


@pytest.mark.slow  # a process each
@pytest.mark.parametrize("change", ALONE)
def test_a_game_that_moves_the_process_to_a_group_of_its_own_is_refused(tmp_path, change):
    done = _run(tmp_path, change, "policy", "game.py", "--out", "p.csv", "--json")
    assert done.stdout == ""
    refused_as_a_change(done.returncode, sorted(p.name for p in tmp_path.iterdir()), done.stderr,
                        CHANGES[change])


@pytest.mark.slow  # a process
def test_polars_engine_affinity_set_by_a_game_is_put_back_and_the_parquet_written(tmp_path):
    # (an environment variable of Polars': put back silently, as the others, and Polars told)
    done = _run(tmp_path, "import polars; polars.Config.set_engine_affinity('gpu')",
                "policy", "game.py", "--out", "p.parquet")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "p.parquet").stat().st_size > 0


@pytest.mark.slow  # a process
def test_an_interruption_a_hook_swallows_is_raised_again_as_control_comes_back(tmp_path):
    swallow = "try:\n        os.kill(os.getpid(), signal.SIGTERM)\n    except BaseException:\n        pass"
    done = _run(tmp_path, swallow, "policy", "game.py", "--out", "p.csv")
    assert (done.returncode, done.stderr) == (130, "mdp: interrupted\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.py"]


@pytest.mark.slow  # a process
def test_a_thread_a_game_leaves_running_is_said_and_not_waited_for(tmp_path):
    forever = "import threading; threading.Thread(target=threading.Event().wait, name='sleeper').start()"
    done = _run(tmp_path, forever, "solve", "game.py", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["value"] == 3
    assert done.stderr == ("mdp: warning: game walk left its thread sleeper running; mdp ends "
                           "without waiting for it\n")


@pytest.mark.slow  # a process
@pytest.mark.parametrize("start", [
    "import threading, time; threading.Thread(target=lambda: (time.sleep(0.3), 1 / 0), name='late').start()",
    "import atexit, threading, time; atexit.register(lambda: threading.Thread("
    "target=lambda: (time.sleep(0.1), 1 / 0), name='late').start())"])
def test_a_thread_that_raises_while_mdp_ends_is_one_line(tmp_path, start):
    """A game's thread that raised in the seconds mdp gives it to end (started by the game,
    or by an exit callback of its) printed Python's traceback: the thread's hook was no
    longer mdp's by then."""
    done = _run(tmp_path, start, "solve", "game.py", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["value"] == 3
    assert set(done.stderr.splitlines()) == {  # (once for each call of the hook that starts it)
        "mdp: warning: game walk: its thread late raised ZeroDivisionError: division by zero"}


@pytest.mark.parametrize("name", ["policy", "solve", "load_game", "distribution"])
def test_a_public_name_of_mdp_bound_by_a_game_is_put_back_and_said(monkeypatch, name):
    # Round 23: a game that bound mdp.policy to its own had the docs' blunders analysis report
    # its numbers, exit 0 (mdp's names come when first asked: no recorded one was replaced).
    import mdp

    monkeypatch.delitem(vars(mdp), name, raising=False)  # not yet asked for, as in a command
    recorded = states.record()
    try:
        monkeypatch.setitem(vars(mdp), name, lambda *a, **k: None)  # the game's
        assert states.changed(recorded) == f"replaced mdp.{name}"
        real = getattr(mdp, name)
        assert real.__module__.startswith("mdp.") and states.changed(recorded) is None
    finally:
        states.forget()


def test_a_binding_made_before_the_command_is_not_the_game_s(monkeypatch):
    import mdp

    mine = lambda *a, **k: None  # noqa: E731 (a test's, made before the command began)
    monkeypatch.setitem(vars(mdp), "policy", mine)
    recorded = states.record()
    try:
        assert states.changed(recorded) is None and mdp.policy is mine
    finally:
        states.forget()


@pytest.mark.parametrize("change", ["basic", "level", "disable"])
def test_the_logging_of_the_process_changed_is_put_back_and_said(change):
    # Round 23: a game's logging.basicConfig(level=DEBUG) brought matplotlib's debug records,
    # as mdp drew, onto mdp's standard error (75 lines).
    import logging

    root = logging.getLogger()
    recorded = states.record()
    before = (root.level, list(root.handlers), root.manager.disable)
    try:
        {"basic": lambda: logging.basicConfig(level=logging.DEBUG, force=True),
         "level": lambda: root.setLevel(logging.DEBUG),
         "disable": lambda: logging.disable(logging.CRITICAL)}[change]()
        assert states.changed(recorded) == ("changed Python's logging (the root logger's level or "
                                            "handlers, or logging.disable)")
        assert (root.level, list(root.handlers), root.manager.disable) == before
        assert states.changed(recorded) is None
    finally:
        states.forget()
