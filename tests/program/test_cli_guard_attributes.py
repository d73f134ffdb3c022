"""A game's code that replaces a function, class or module of a module mdp computes with
(numpy, Polars, fractions, math, operator, mdp's own engine...) is refused in one line that
blames the game, however the rest of the command fares with it, and the answer is never
printed. Before, ``numpy.maximum = numpy.minimum`` in a hook gave the value 1 of a game worth
3/2, exit 0."""

import importlib
import itertools
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from models import WALK

import mdp.engine.compile  # noqa: F401  (loaded, so that its attributes can be drawn)
import mdp.engine.solve  # noqa: F401
from mdp.program.cli import main

LIBRARIES = ["numpy", "polars", "fractions", "math", "operator", "functools", "itertools",
             "heapq", "decimal", "json", "os", "posixpath", "genericpath", "stat", "shutil", "tempfile",
             "scipy.sparse", "scipy.sparse._sparsetools", "scipy.sparse._compressed",
             "mdp.engine.compile", "mdp.engine.solve"]
"""(and matplotlib's figures, which only --plot loads: round 18 found os.replace, json.dumps
and Figure.savefig replaced by a game and not refused; round 25 posixpath.abspath, a file
written elsewhere than said, and scipy's product of a round's sweep, a wrong value)"""

# The game's hook replaces the attribute with a function that passes its call on: the
# answer would be right, the identity is not; the refusal is of the change itself.
GAME = WALK.replace("WORTH", "3").replace("import mdp", "import importlib\nimport mdp").replace(
    "def mdp_terminal_value(state):\n",
    "def mdp_terminal_value(state):\n"
    "    module = importlib.import_module(@MODULE@)\n"
    "    was = getattr(module, @NAME@)\n"
    "    setattr(module, @NAME@, lambda *a, **k: was(*a, **k))\n")

_count = itertools.count()


def _functions(name: str) -> list[str]:
    module = importlib.import_module(name)
    return sorted(n for n, v in vars(module).items() if not n.startswith("__")
                  and (callable(v) or isinstance(v, ModuleType))
                  )


FUNCTIONS = {name: _functions(name) for name in LIBRARIES}
"""Each library's functions, found once (a module's namespace grows as its submodules load:
drawn from as it was then)."""


@pytest.mark.slow  # many commands, each its game compiled and solved
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), command=st.sampled_from([["solve", "--exact"], ["policy", "--json"]]))
def test_a_replaced_function_of_a_module_mdp_computes_with_is_refused(tmp_path, capsys, data,
                                                                      command):
    module = data.draw(st.sampled_from(LIBRARIES))
    _refused(tmp_path, capsys, module, data.draw(st.sampled_from(FUNCTIONS[module])), command)


@pytest.mark.parametrize("module, name", [("posixpath", "abspath"), ("posixpath", "join"), ("stat", "S_ISFIFO"),
                                          ("scipy.sparse._sparsetools", "csr_matvecs")])
def test_round_25_s_replaced_functions_are_refused(tmp_path, capsys, module, name):
    _refused(tmp_path, capsys, module, name, ["policy", "--json"])


@pytest.mark.parametrize("name", ["_exit", "execv", "execve"])
def test_a_function_mdp_holds_while_a_command_runs_replaced_is_refused(tmp_path, capsys, name):
    """os._exit, os.execv and os.execve are mdp's own while a command runs (mdp.owner), so
    not among those recorded as the command starts: a game's replacement went unseen."""
    _refused(tmp_path, capsys, "os", name, ["solve", "--exact"])


def _refused(tmp_path, capsys, module, name, command):
    """``module.name`` replaced by the game's hook: the command refused in one line."""
    path = tmp_path / f"walk{next(_count)}.py"
    path.write_text(GAME.replace("@MODULE@", repr(module)).replace("@NAME@", repr(name)))
    loaded = importlib.import_module(module)
    was = getattr(loaded, name)
    capsys.readouterr()
    try:
        code = main([command[0], str(path), *command[1:]])
    finally:
        setattr(loaded, name, was)
    out, err = capsys.readouterr()
    assert code == 2, err
    assert err == (f"mdp: error: game walk replaced {module}.{name} while its code ran; a game "
                   "or plugin must leave the process as it found it\n")
    assert out == ""
