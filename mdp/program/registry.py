"""The commands of the ``mdp`` program, and the plugins given on its command line.

Commands are offered through the hook ``mdp_commands`` (:mod:`mdp.hookspecs.program`) on the
plugin manager of the formats, analyses and exports (:mod:`mdp.analysis.registry`), to which
the program adds its own built-in plugins (:data:`PROGRAM_PLUGINS`) when this module is
imported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import attrs

from mdp.analysis.registry import BUILTIN_PLUGINS, Analysis, add_builtins, analyses, offered, plugins
from mdp.errors import ModelError
from mdp.game.found import load_plugin
from mdp.game.names import named_twice, one_name
from mdp.game.plugins import hook_names, offering, register
from mdp.hookspecs import program as program_hooks

if TYPE_CHECKING:
    import argparse

PROGRAM_PLUGINS = (
    "mdp.program.builtins.core",
    "mdp.program.builtins.export",
    "mdp.program.builtins.report",
    "mdp.program.builtins.completion",
)
"""The program's own commands, built-in plugins registered by name like any plugin."""


add_builtins(PROGRAM_PLUGINS)  # once the program is imported, its plugin manager has them


@attrs.frozen
class Command:
    """A command of the ``mdp`` program: ``mdp NAME ...``.

    ``arguments(parser)`` adds the command's arguments to its :class:`argparse.ArgumentParser`
    (the helpers of :mod:`mdp.program.arguments` add the usual ones); ``run(args)`` does the work
    and returns the exit code, 0 to 255 (``None`` for 0; anything else is refused). An
    :class:`mdp.MdpError` it raises becomes one line on stderr and exit code 2.
    """

    name: str
    help: str
    run: Callable[[argparse.Namespace], int | None] = attrs.field(repr=False)
    arguments: Callable[[argparse.ArgumentParser], None] | None = attrs.field(default=None, repr=False)
    description: str = ""


COMPLETE = "__complete"
"""The command that the shells' completion scripts run at each Tab (``mdp __complete
WORD...``), answered before the command line is parsed: mdp's own, never a plugin's
(:func:`commands_and_analyses`)."""


def commands() -> dict[str, Command]:
    """Every command of the ``mdp`` program on offer, by name, the built-ins first."""
    return offered("mdp_commands", Command)


def commands_and_analyses() -> dict[str, Command | Analysis]:
    """Every name ``mdp NAME`` runs: the commands, then the analyses. A plugin's analysis
    named like a command (or its command named like an analysis) is refused, naming the
    plugin: it never silently replaces ``mdp solve``."""
    known: dict[str, Command | Analysis] = dict(commands())
    typed = {one_name(name): name for name in known}  # as a user may type them: alike are one
    for name, analysis in analyses().items():
        if (other := typed.get(one_name(name))) is not None:
            owners = offering(plugins(), ("mdp_commands", "mdp_analyses"), name, BUILTIN_PLUGINS)
            raise ModelError(f"a command and an analysis are both named {named_twice(name, other)} "
                             f"({' and '.join(owners)}): mdp {name} would run one of them")
        known[name] = analysis
    if COMPLETE in known:
        owners = offering(plugins(), ("mdp_commands", "mdp_analyses"), COMPLETE, BUILTIN_PLUGINS)
        raise ModelError(f"{' and '.join(owners)} offers {COMPLETE!r}, the name of mdp's own "
                         "command that the shells' completion scripts run at each Tab; name it "
                         "otherwise")
    return known


_GIVEN: list[str] = []  # the names of the program's plugins given by hand, while registered


def add_given(specs: Iterable[str]) -> list[str]:
    """Load the plugins given by hand (``mdp -p FILE``, each as
    :func:`mdp.game.found.load_plugin` takes it): register with the program those whose hooks
    are all the program's, and return the others, rule plugins of a game, for the game the
    command loads. :func:`drop_given` unregisters them again."""
    program = {name for name in dir(program_hooks) if name.startswith("mdp_")}
    rules = []
    for spec in specs:
        name, plugin = load_plugin(spec)
        if set(hook_names(plugin)) <= program:
            register(plugins(), plugin, name, "mdp")
            _GIVEN.append(name)
        else:
            rules.append(spec)
    return rules


def drop_given() -> None:
    """Unregister the plugins :func:`add_given` registered: the program's plugins are what
    is installed again."""
    while _GIVEN:
        plugins().unregister(name=_GIVEN.pop())


def offered_by(name: str) -> tuple[str, str] | None:
    """The plugin, not one of mdp's own, that offers the command or analysis ``name``, and
    which it is (``"command"``, ``"analysis"``): when it breaks, the plugin is to blame, where
    a fault of mdp's own is a bug. ``None`` for mdp's own."""
    manager = plugins()
    for hook, kind in (("mdp_commands", "command"), ("mdp_analyses", "analysis")):
        for impl in getattr(manager.hook, hook).get_hookimpls():
            if impl.plugin_name not in BUILTIN_PLUGINS and not (impl.wrapper or impl.hookwrapper) and \
                    any(getattr(item, "name", None) == name for item in impl.function() or ()):
                return impl.plugin_name, kind
    return None
