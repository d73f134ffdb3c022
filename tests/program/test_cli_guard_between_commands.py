"""The guard records the functions of the modules mdp computes with, and the methods of
their classes, as each command starts, and keeps its scans from one command to the next in
the process (mdp/program/scans.py): a namespace is scanned again only where it changed. What
changed between two commands (a test's monkeypatch, an attribute added) is what the next
command records: never taken for the game's change, and never missed where the game changes
it in its turn."""

import importlib
import inspect
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from models import WALK

from mdp.program.cli import main

OWNERS = [("numpy", None), ("polars", None), ("operator", None), ("math", None),
          ("mdp.engine.solve", None), ("fractions", "Fraction"), ("polars", "DataFrame")]
"""Modules and classes the guard records (a class by its module and name)."""

# The game's hook replaces @NAME@ of the owner with a function that passes its call on.
GAME = WALK.replace("WORTH", "3").replace("import mdp", "import importlib\nimport mdp").replace(
    "def mdp_terminal_value(state):\n",
    "def mdp_terminal_value(state):\n"
    "    owner = importlib.import_module(@MODULE@)\n"
    "    owner = getattr(owner, @CLASS@) if @CLASS@ else owner\n"
    "    was = getattr(owner, @NAME@)\n"
    "    setattr(owner, @NAME@, lambda *a, **k: was(*a, **k))\n")

_count = itertools.count()


def _owner(module: str, cls: str | None):
    owner = importlib.import_module(module)
    return getattr(owner, cls) if cls else owner


def _names(owner) -> list[str]:
    """What the test rebinds: a module's functions, a class's plain functions (its methods)."""
    return sorted(name for name, value in vars(owner).items() if not name.startswith("__")
                  and (inspect.isfunction(value) if isinstance(owner, type) else
                       callable(value) and not isinstance(value, type)))


class _Passing:
    """Another object that does what ``function`` does: called, or asked for an attribute
    (``numpy.minimum.reduceat``), it passes it on; so that the commands work as before."""

    def __init__(self, function):
        self.function = function

    def __call__(self, *args, **kwargs):
        return self.function(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.function, name)


def _passing(owner, function):
    """``function`` under another identity: in a class, a function (bound as a method)."""
    return (lambda *a, **k: function(*a, **k)) if isinstance(owner, type) else _Passing(function)


def _run(path, capsys) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["solve", str(path), "--exact"])
    return code, capsys.readouterr().err


@pytest.mark.slow  # five commands an example
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), owned=st.sampled_from(OWNERS))
def test_a_change_between_commands_is_recorded_by_the_next(tmp_path, capsys, data, owned):
    module, cls = owned
    owner = _owner(module, cls)
    name = data.draw(st.sampled_from(_names(owner)))
    where = f"{owner.__module__}.{owner.__qualname__}" if cls else module  # as the refusal names it
    plain = tmp_path / f"walk{next(_count)}.py"
    plain.write_text(WALK.replace("WORTH", "3"))
    assert _run(plain, capsys) == (0, "")  # recorded, its scans kept
    was = vars(owner)[name]
    try:
        for change in (name, "_added_between_commands"):  # rebound, then added
            mine = _passing(owner, was if change == name else lambda: None)
            setattr(owner, change, mine)  # the test's own change
            assert _run(plain, capsys) == (0, "")  # not the game's
            game = tmp_path / f"walk{next(_count)}.py"
            game.write_text(GAME.replace("@MODULE@", repr(module)).replace("@CLASS@", repr(cls))
                            .replace("@NAME@", repr(change)))
            assert _run(game, capsys) == (
                2, f"mdp: error: game walk replaced {where}.{change} while its code ran; a game "
                   "or plugin must leave the process as it found it\n")
            setattr(owner, change, mine)  # (the game's undone: the next change is the only one)
    finally:
        setattr(owner, name, was)
        if "_added_between_commands" in vars(owner):
            delattr(owner, "_added_between_commands")
