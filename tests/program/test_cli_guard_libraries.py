"""The settings of the interpreter and of the libraries mdp works with that a game must leave
as it found them (:mod:`mdp.program.libraries`, round 19), each member of each class changed:
put back and said. Before, each passed: numpy's error handling set to raise stopped mdp's
arithmetic with a traceback (to warn: the numbers were blamed), a trace function raised
inside mdp's code, matplotlib's settings changed or broke ``--plot``, an import hook handed
mdp a doctored ``json`` (``--json`` said 42, exit 0), and an audit hook refusing
``os.replace`` blamed the user's file. End to end, each is refused in one line that blames
the game, with no file written."""

import gc
import subprocess
import sys
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import WALK, refused_as_a_change, run_changes

from mdp.program import libraries
from mdp.program import settings as process

MODES = ["ignore", "warn", "raise", "call", "print", "log"]


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(["divide", "over", "under", "invalid"]), mode=st.sampled_from(MODES))
def test_numpy_s_error_handling_changed_is_said_and_put_back(name, mode):
    before = np.geterr()
    recorded = process.record()
    try:
        np.seterr(**{name: mode})
        said = process.changed(recorded)
        if mode == before[name]:
            assert said is None
        else:
            assert said == (f"changed numpy's floating-point error handling (numpy.seterr): "
                            f"{name} to {mode!r} from {before[name]!r}")
        assert np.geterr() == before  # put back
    finally:
        np.seterr(**before)
        libraries.forget()


def test_numpy_s_error_callback_changed_is_said_and_put_back():
    recorded = process.record()
    try:
        np.seterrcall(print)
        assert process.changed(recorded) == ("changed numpy's floating-point error handling "
                                             "(numpy.seterrcall)")
        assert np.geterrcall() is None
    finally:
        np.seterrcall(None)
        libraries.forget()


TRACES = {"sys.settrace": (sys.settrace, sys.gettrace),
          "sys.setprofile": (sys.setprofile, sys.getprofile),
          "threading.settrace": (threading.settrace, threading.gettrace),
          "threading.setprofile": (threading.setprofile, threading.getprofile)}


@pytest.mark.parametrize("name", TRACES)
def test_a_trace_or_profile_function_left_is_said_and_taken_out(name):
    put, get = TRACES[name]
    was = get()
    recorded = process.record()

    def traced(frame, event, arg):  # as a game's: it would run inside mdp's code
        return None

    try:
        put(traced)
        assert process.changed(recorded) == f"changed {name}"
        assert get() is was
    finally:
        put(was)
        libraries.forget()


class _Finder:
    def find_spec(self, name, path, target=None):
        return None


IMPORTING = {
    "sys.meta_path": lambda: sys.meta_path.insert(0, _Finder()),
    "sys.path_hooks": lambda: sys.path_hooks.insert(0, lambda folder: _Finder()),
    "sys.path": lambda: sys.path.insert(0, "/nowhere/fakes"),
    "sys.path_importer_cache": lambda: sys.path_importer_cache.__setitem__("/nowhere", _Finder()),
}


@pytest.mark.parametrize("name", IMPORTING)
def test_the_import_machinery_changed_is_said_and_put_back(name):
    before = [list(sys.meta_path), list(sys.path_hooks), list(sys.path), dict(sys.path_importer_cache)]
    recorded = process.record()
    try:
        IMPORTING[name]()
        assert process.changed(recorded) == f"changed the import machinery ({name})"
        assert [list(sys.meta_path), list(sys.path_hooks), list(sys.path)] == before[:3]
        assert "/nowhere" not in sys.path_importer_cache
    finally:
        sys.meta_path[:], sys.path_hooks[:], sys.path[:] = before[:3]
        sys.path_importer_cache.pop("/nowhere", None)
        libraries.forget()


def test_what_imports_and_mdp_s_own_finders_do_is_no_change(tmp_path):
    # The finders of folders made again (importlib.invalidate_caches, a folder first looked
    # in), and a finder of mdp's own added as it first needs it: none of them a game's.
    import importlib

    from mdp.game.files import _Beside

    before = list(sys.meta_path)
    recorded = process.record()
    try:
        for folder in [k for k, v in sys.path_importer_cache.items() if v is not None][:3]:
            del sys.path_importer_cache[folder]  # and made again: another finder
            importlib.machinery.PathFinder.find_spec("no_such_module_of_the_test", [folder])
            assert sys.path_importer_cache[folder] is not None
        importlib.invalidate_caches()
        (tmp_path / "pkg_of_the_test").mkdir()
        (tmp_path / "pkg_of_the_test" / "__init__.py").write_text("")
        importlib.machinery.PathFinder.find_spec("pkg_of_the_test", [str(tmp_path)])
        if _Beside not in sys.meta_path:
            sys.meta_path.append(_Beside)
        assert process.changed(recorded) is None
    finally:
        sys.meta_path[:] = before
        libraries.forget()


def test_an_audit_hook_added_is_kept_out_and_said():
    heard = []
    recorded = process.record()
    try:
        sys.addaudithook(lambda event, args: heard.append(event))
        gc.collect()  # an event or two, which a hook added would hear
        open(__file__).close()
        assert process.changed(recorded) == "added an audit hook (sys.addaudithook; mdp kept it out)"
        assert heard == []
        assert process.changed(recorded) is None
    finally:
        libraries.forget()


matplotlib = pytest.importorskip("matplotlib")
RC = sorted(k for k in dict.keys(matplotlib.rcParams) if k not in ("backend", "backend_fallback"))


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(RC))
def test_every_matplotlib_setting_changed_is_said_and_put_back(name):
    params = matplotlib.rcParams
    was = dict.__getitem__(params, name)
    recorded = process.record()
    try:
        dict.__setitem__(params, name, object())  # whatever a game put there
        assert process.changed(recorded) == f"changed matplotlib's settings (matplotlib.rcParams[{name!r}])"
        assert dict.__getitem__(params, name) is was
    finally:
        dict.__setitem__(params, name, was)
        libraries.forget()


# End to end: a game's hook makes the change; the value is 3 whatever it does.
GAME = WALK.replace("import mdp", "import numpy, sys, threading\nimport mdp").replace(
    '    return {"walk": WORTH', '    CHANGE\n    return {"walk": 3')
CHANGES = {
    "numpy.seterr(all='raise')": "changed numpy's floating-point error handling (numpy.seterr): divide",
    "sys.settrace(lambda *a: None)": "changed sys.settrace",
    "threading.setprofile(lambda *a: None)": "changed threading.setprofile",
    "sys.meta_path.insert(0, type('F', (), {'find_spec': lambda *a: None})())":
        "changed the import machinery (sys.meta_path)",
    "sys.addaudithook(lambda *a: None)": "added an audit hook",
    "import matplotlib; matplotlib.rcParams['savefig.dpi'] = 7":
        "changed matplotlib's settings (matplotlib.rcParams['savefig.dpi'])",
}


# An audit hook cannot be taken out (Python has no way to): its own process.
ALONE = "sys.addaudithook(lambda *a: None)"


@pytest.mark.slow  # a process of mdp for the changes put back, a command each
def test_a_game_that_changes_a_library_s_setting_is_refused_and_writes_nothing(tmp_path):
    # One process of mdp for every change it puts back (models.run_changes, as in
    # test_cli_guard_settings.py; the tests above check each one's putting back): a command
    # each, one after the other, each game in a folder of its own, each change refused in
    # its own words.
    put_back = [change for change in CHANGES if change != ALONE]
    results, out = run_changes(tmp_path, GAME, put_back, ["policy", "game.py", "--out", "p.csv", "--json"])
    for (code, names, err), change in zip(results, put_back, strict=True):
        refused_as_a_change(code, names, err, CHANGES[change])
    assert out == ""


@pytest.mark.slow  # a process
def test_a_game_that_adds_an_audit_hook_is_refused_and_writes_nothing(tmp_path):
    (tmp_path / "game.py").write_text(GAME.replace("CHANGE", ALONE))
    done = subprocess.run([sys.executable, "-m", "mdp.program.cli", "policy", "game.py",
                           "--out", "p.csv", "--json"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert done.stdout == ""
    refused_as_a_change(done.returncode, sorted(p.name for p in tmp_path.iterdir()), done.stderr,
                        CHANGES[ALONE])


DOCTOR = '''
import importlib.abc, importlib.machinery, sys
class _Doctor(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != "json":
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        run = spec.loader.exec_module
        def exec_module(module):
            run(module)
            real = module.dumps
            module.dumps = lambda value, **kw: real({**value, "value": 42.0}
                                                    if isinstance(value, dict) and "value" in value else value, **kw)
        spec.loader.exec_module = exec_module
        return spec
'''


@pytest.mark.slow  # a process
def test_an_import_hook_that_doctors_a_module_mdp_imports_later_is_refused(tmp_path):
    # Round 19 (F17): --json said value 42 where the game is worth 3, exit 0 (json is
    # imported for the summary only, after the game's code ran).
    game = GAME.replace("CHANGE", "sys.modules.pop('json', None); sys.meta_path.insert(0, _Doctor())")
    (tmp_path / "game.py").write_text(DOCTOR + game)
    done = subprocess.run([sys.executable, "-c", "import sys; from mdp.program.cli import main; "
                           "sys.exit(main(['solve', 'game.py', '--json']))"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "42" not in done.stdout
    assert "changed the import machinery (sys.meta_path)" in done.stderr.splitlines()[-1]


SELF_REMOVING = {
    "sys.settrace": "def traced(frame, event, arg):\n"
                    "    if event == 'call' and 'mdp' in frame.f_code.co_filename:\n"
                    "        sys.settrace(None)\n"
                    "        raise RuntimeError('traced boom')\n"
                    "sys.settrace(traced)",
    "sys.setprofile": "def profiled(frame, event, arg):\n"
                      "    if event == 'call' and 'mdp' in frame.f_code.co_filename:\n"
                      "        sys.setprofile(None)\n"
                      "        raise RuntimeError('traced boom')\n"
                      "sys.setprofile(profiled)",
}


@pytest.mark.slow  # a process each
@pytest.mark.parametrize("name", SELF_REMOVING)
def test_a_trace_function_that_raises_in_mdp_s_code_and_takes_itself_out_is_the_game_s(tmp_path, name):
    # Round 19 (F15): the game's exception, raised in mdp's first call after its hook, was a
    # traceback (rc 1): nothing was left changed for the guard to see.
    source = SELF_REMOVING[name].replace("\n", "\n    ")
    (tmp_path / "game.py").write_text(GAME.replace("CHANGE", source))
    done = subprocess.run([sys.executable, "-m", "mdp.program.cli", "policy", "game.py",
                           "--out", "p.csv", "--json"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr == "mdp: error: game walk raised RuntimeError: traced boom\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.py"]
