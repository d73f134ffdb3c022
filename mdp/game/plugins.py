"""Plugins: found through the entry points of installed packages, imported, and registered
with one clear error when a plugin is broken.

Entry points are read straight from each installed distribution's ``entry_points.txt``
rather than through :mod:`importlib.metadata`, which imports the email package to parse
metadata: more start-up than solving a small game takes.
"""

from __future__ import annotations

import functools
import importlib
import os
import re
import sys
from collections.abc import Callable, Iterable
from typing import Any

import pluggy

from mdp.checks import NAME, arguments, of
from mdp.errors import PLUGIN_FAULTS, MdpError, ModelError, did_you_mean, fault, passed_on
from mdp.game.declared import options_fault, param_fault, texts
from mdp.game.manager import Plugins as Plugins
from mdp.game.manager import home_module
from mdp.game.names import WORD, one_name, typable
from mdp.game.names import named_twice as named_twice  # (the clash of by_name says it)
from mdp.game.params import Param
from mdp.game.variants import Variant
from mdp.hookspecs import PROJECT
from mdp.hookspecs import game as game_hooks
from mdp.hookspecs import program as program_hooks
from mdp.imported import INSTALLED

PLUGINS_ENTRY_POINTS = "mdp.plugins"
"""The entry-point group through which installed packages extend the mdp program."""


GAMES_ENTRY_POINTS = "mdp.games"
"""The entry-point group through which installed packages offer games by name."""


def available_games() -> list[str]:
    """Names of the games installed through the ``mdp.games`` entry-point group."""
    return sorted(entry_points(GAMES_ENTRY_POINTS))


def entry_points(group: str) -> dict[str, str]:
    """``{name: "module:attribute"}`` for the entry points of ``group``, first on sys.path
    wins; a name that two distributions offer is refused where it is used
    (:func:`entry_point`, :func:`clash`)."""
    return {name: offers[0][1] for name, offers in _offers(group).items()}


def _offers(group: str) -> dict[str, list[tuple[str, str]]]:
    """``{name: [(distribution, "module:attribute"), ...]}`` for the entry points of
    ``group``: each distribution that offers the name, once, in the order of sys.path."""
    found: dict[str, list[tuple[str, str]]] = {}
    for path in _entry_point_files(tuple(sys.path)):
        if group in _text(path):  # most distributions offer nothing to mdp: not parsed
            for key, value in _read(path).get(group, ()):
                offers = found.setdefault(key, [])
                if all(other != distribution(path) for other, _ in offers):
                    offers.append((distribution(path), value))
    return found


def distribution(path: str) -> str:
    """The name of the distribution whose ``entry_points.txt`` is ``path``, normalized
    (``fake_mdp_games-0.0.1.dist-info`` is ``fake-mdp-games``): one installed twice on
    sys.path (a copy in the user's folder) is one distribution."""
    folder = os.path.basename(os.path.dirname(path))
    name = folder.removesuffix(".dist-info").removesuffix(".egg-info").split("-")[0]
    return re.sub(r"[-_.]+", "-", name).lower()


def offered_by(group: str, name: str) -> list[str]:
    """The distributions that offer ``name`` in the entry-point group ``group``."""
    return [dist for dist, _ in _offers(group).get(name, ())]


def clash(group: str, name: str, what: str) -> str | None:
    """What is wrong with the entry point ``name`` of ``group`` when two distributions offer
    it (``what`` names it: ``"the game 'shutbox'"``), else ``None``: which one answers would
    depend on the order sys.path lists them in."""
    dists = offered_by(group, name)
    if len(dists) < 2:
        return None
    return (f"two installed distributions offer {what} ({' and '.join(dists)}, in the "
            f"{group} entry-point group); uninstall one of them")


def entry_point(group: str, name: str, what: str) -> str:
    """The ``"module:attribute"`` of the entry point ``name`` of ``group``; one that two
    distributions offer is one :class:`~mdp.ModelError` naming both (:func:`clash`)."""
    clashed = clash(group, name, what)
    if clashed:
        raise ModelError(clashed)
    return entry_points(group)[name]


@functools.cache
def _entry_point_files(path: tuple[str, ...]) -> list[str]:
    """Every installed distribution's ``entry_points.txt`` on ``path``, in order: listed once
    per process (games, rule plugins and extensions all ask)."""
    files = []
    for folder in path:
        try:
            names = sorted(os.listdir(folder or "."))
        except OSError:
            continue
        files += [os.path.join(folder or ".", name, "entry_points.txt")
                  for name in names if name.endswith((".dist-info", ".egg-info"))]
    return files


@functools.cache
def _text(path: str) -> str:
    """An ``entry_points.txt`` as text (empty if there is none), read once per process."""
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except OSError:
        return ""


@functools.cache
def _read(path: str) -> dict[str, list[tuple[str, str]]]:
    """An ``entry_points.txt``: ``{group: [(name, value), ...]}``, parsed once per process."""
    groups: dict[str, list[tuple[str, str]]] = {}
    current = None
    for line in _text(path).splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            current = groups.setdefault(line[1:-1].strip(), [])
        elif current is not None and "=" in line and not line.startswith(("#", ";")):
            key, _, value = line.partition("=")
            current.append((key.strip(), value.strip()))
    return groups


def load(value: str) -> Any:
    """Import what an entry point names: ``"package.module"`` or ``"package.module:attribute"``.

    A module that fails to import (a syntax error, a missing package), or an attribute it
    does not have, is one :class:`~mdp.ModelError` naming it.
    """
    module, _, attribute = value.partition(":")
    target = import_module(module.strip())
    INSTALLED.add(module.strip().partition(".")[0])  # its code, and its package's, is its own
    for part in filter(None, attribute.strip().split(".")):
        if not hasattr(target, part):
            raise ModelError(f"cannot load {value.strip()!r}: {getattr(target, '__name__', target)!s} "
                             f"has no {part!r}")
        target = getattr(target, part)
    return target


def import_module(name: str, shown: str | None = None) -> Any:
    """Import a plugin's module; its own errors become one :class:`~mdp.ModelError` line."""
    return imported(importlib.import_module, name, shown=shown or name)


def imported(run: Callable[[Any], Any], argument: Any, *, shown: str) -> Any:
    """``run(argument)``, which runs a module's code (an import): its errors become one
    :class:`~mdp.ModelError` line that names what was imported (``shown``)."""
    try:
        return run(argument)
    except SyntaxError as error:
        where = f"{os.path.basename(error.filename or '?')}, line {error.lineno}"
        raise ModelError(f"cannot import {shown}: SyntaxError: {error.msg} ({where})") from None
    except PLUGIN_FAULTS as error:
        beyond = isinstance(error, ImportError) and "beyond top-level package" in str(error)
        why = ("; its code imports from the package it was copied out of (from .. import): a "
               "folder given by its path is a package of its own, so copy what it imports into "
               "it and import that with one dot") if beyond else ""
        raise ModelError(f"cannot import {shown}: {fault(error)}{why}") from None


def register(plugins: pluggy.PluginManager, plugin: Any, name: str, owner: str) -> None:
    """Register ``plugin``; a hook whose arguments the hook specification does not give, or
    a plugin registered already (by object or by name), is one :class:`~mdp.ModelError`
    naming ``owner`` (``"game shutbox"``), the plugin and the hook."""
    try:
        plugins.register(plugin, name=name)
    except pluggy.PluginValidationError as error:
        raise invalid(owner, name, plugins, error) from None
    except ValueError:  # pluggy's word for a plugin, or a plugin's name, registered twice
        raise ModelError(f"{owner}: plugin {name} is registered already") from None


def hook_names(plugin: Any) -> list[str]:
    """The hooks ``plugin`` implements: its public names marked with :data:`mdp.hookimpl`."""
    marker = f"{PROJECT}_impl"
    return [name for name in dir(plugin)
            if not name.startswith("_") and hasattr(attribute(plugin, name), marker)]


def attribute(plugin: Any, name: str) -> Any:
    """A plugin's attribute, ``None`` where reading it raises (an object that is no plugin
    may compute its attributes, and fail to: a Polars Series' ``plot`` without Altair)."""
    try:
        return getattr(plugin, name, None)
    except Exception:  # noqa: BLE001  (no hook is there)
        return None


def invalid(owner: str, name: str, plugins: pluggy.PluginManager, error: Exception) -> ModelError:
    text = str(error)
    unknown = re.search(r"unknown hook '(\w+)'", text)
    if unknown:
        hook = unknown.group(1)
        misplaced = _misplaced(owner, name, hook)
        if misplaced:
            return ModelError(misplaced)
        known = [h for h in dir(plugins.hook)
                 if not h.startswith("_") and getattr(plugins.hook, h).spec is not None]
        return ModelError(f"{owner}: plugin {name} implements {hook}, which is no hook"
                          f"{did_you_mean(hook, known)}")
    hook = re.search(r"for hook '(\w+)'", text)
    arguments = re.search(r"Argument\(s\) \{(.*?)\}", text)
    if hook and arguments:
        caller = getattr(plugins.hook, hook.group(1), None)
        given = ", ".join(caller.spec.argnames) if caller is not None and caller.spec else "?"
        asked = ", ".join(sorted(re.findall(r"'(\w+)'", arguments.group(1))))
        whose = "" if owner == f"game {name}" else f"plugin {name}'s "  # (the game's own)
        return ModelError(f"{owner}: {whose}{hook.group(1)} takes {asked}, which the "
                          f"hook does not give (it gives: {given})")
    return ModelError(f"{owner}: plugin {name}: {' '.join(text.split())}")


def _misplaced(owner: str, name: str, hook: str) -> str | None:
    """Where a hook unknown to one plugin manager belongs, if the other one knows it: a
    game's plugin manager knows only the hooks of a game, the program's only its own, so a
    hook in the wrong place would be silently never called."""
    if hasattr(program_hooks, hook):
        who = owner if owner == f"game {name}" else f"{owner}: plugin {name}"
        return (f"{who}: {hook} is a hook of the mdp program, not of a game: offer it from a "
                f"plugin in the {PLUGINS_ENTRY_POINTS} entry-point group")
    if hasattr(game_hooks, hook):
        return (f"plugin {name}: {hook} is a hook of a game, not of the mdp program: implement "
                "it in the game module or a rule plugin registered beside it")
    return None


def culprit(plugins: pluggy.PluginManager, hook: str, error: BaseException) -> tuple[str, bool] | None:
    """The plugin in whose code ``error``, raised by a call of ``hook``, was raised: the
    deepest frame of its traceback in a registered plugin's module. Returns its name and
    whether it implements ``hook`` itself (else the fault is in code of it that another's
    implementation called: a rule plugin's scoring function, say)."""
    homes = {home_module(plugin): name for name, plugin in plugins.list_name_plugin() if plugin is not None}
    found: str | None = None
    trace = error.__traceback__
    while trace is not None:
        found = homes.get(trace.tb_frame.f_globals.get("__name__", ""), found)
        trace = trace.tb_next
    if found is None:
        return None
    return found, any(impl.plugin_name == found for impl in getattr(plugins.hook, hook).get_hookimpls())


def culprit_of_answer(plugins: pluggy.PluginManager, hook: str, became: Callable[[Any], bool],
                      kwargs: dict[str, Any]) -> str | None:
    """The plugin whose implementation of ``hook`` first makes ``became(answer)`` true (or
    the hook raise), asked as :func:`layers` gives it. ``None`` if none does."""
    for name, ask in layers(plugins, hook, kwargs):
        try:
            if became(ask()):
                return name
        except PLUGIN_FAULTS:
            return name
    return None


def layers(plugins: pluggy.PluginManager, hook: str, kwargs: dict[str, Any]
           ) -> list[tuple[str, Callable[[], Any]]]:
    """Each implementation of ``hook``, from the innermost (the first registered; wrappers
    last), with a call of the hook with it and those before it alone (``kwargs`` given):
    what tells whose implementation made an answer wrong. None where a plugin is not
    hashable (pluggy sets them apart in a set)."""
    impls = getattr(plugins.hook, hook).get_hookimpls()
    try:
        {impl.plugin for impl in impls}
    except TypeError:
        return []
    return [(impl.plugin_name, functools.partial(plugins.subset_hook_caller(
        hook, remove_plugins=[other.plugin for other in impls[count:]]), **kwargs))
        for count, impl in enumerate(impls, 1)]


def holds_float(answer: Any) -> bool:
    """Whether a hook's answer holds a float anywhere (in its lists, tuples, dicts or arrays):
    a number that exact solving cannot take. (numpy is not imported for it: an answer
    holds numpy's numbers only where the game imported it.)"""
    np = sys.modules.get("numpy")
    if isinstance(answer, float) or np is not None and isinstance(answer, np.floating):
        return True
    if np is not None and isinstance(answer, np.ndarray):
        return answer.dtype.kind in "fc" or answer.dtype == object and holds_float(answer.tolist())
    if isinstance(answer, dict):
        answer = list(answer.values())
    return isinstance(answer, (list, tuple)) and any(holds_float(item) for item in answer)


def register_plugins(plugins: pluggy.PluginManager, group: str) -> None:
    """Register every plugin offered in the entry-point group ``group`` (pytest's ``pytest11``
    way); a game calls it from :func:`~mdp.hookspecs.game.mdp_configure` for its rule plugins."""
    arguments("register_plugins",
              plugins=(plugins, of(pluggy.PluginManager, allowed="a pluggy.PluginManager")),
              group=(group, NAME))
    for name in entry_points(group):
        if plugins.get_plugin(name) is None and not plugins.is_blocked(name):
            value = entry_point(group, name, f"the plugin {name!r}")
            owner = f"installed plugin {name} ({' and '.join(offered_by(group, name))}'s {group} entry point)"
            try:
                plugin = load(value)
            except ModelError as error:
                raise ModelError(f"{owner}: {error}") from None
            register(plugins, plugin, name, owner)


def collect(plugins: pluggy.PluginManager, hook: str | pluggy.HookCaller,
            kind: type | tuple[type, ...] | None,
            owner: str, /, check: Callable[[list[Any]], str | None] | None = None,
            **kwargs: Any) -> list[Any]:
    """Every plugin's answer to a collecting hook (one whose every implementation is called),
    joined in the order the plugins were registered (pluggy answers newest first); each item
    checked to be a ``kind`` (``None``: the answers are ignored). ``owner`` names, in an
    error, whose plugins they are: ``"game shutbox"``. ``hook`` is the hook's name, or a
    caller of some plugins' implementations alone (:meth:`pluggy.PluginManager.subset_hook_caller`).
    ``check``, if given, says what else is wrong with the items (joined), blamed the same way."""
    caller = getattr(plugins.hook, hook) if isinstance(hook, str) else hook
    try:
        groups = caller(**kwargs)
    except PLUGIN_FAULTS as error:
        if passed_on(error, owner):
            raise
        found = culprit(plugins, caller.name, error)  # the plugin whose code raised
        whose = _theirs(owner, found and found[0])
        raise ModelError(f"{owner}: {whose}{caller.name} raised {fault(error, hook=True)}") from error
    if kind is None:
        return []
    # A game's names are its own to share out; mdp's registries name each plugin that offers one.
    distinct = owner.startswith("game ")
    def fault_of(answers: Any) -> str | None:
        return _collected_fault(answers, kind, distinct) or (
            None if check is None else check([item for group in reversed(answers) for item in group]))

    problem = fault_of(groups)
    if problem is not None:
        where = _whose(plugins, caller, owner, lambda other: fault_of(other) is not None, kwargs)
        declared, _, default = problem.partition(" badly: ")
        if not problem.startswith("declared"):
            default = ""
        elif default.startswith("its "):  # (its show): whose, the parameter's
            default = f"{declared.removeprefix('declared ')}'s {default.removeprefix('its ')}"
        raise ModelError(f"{owner}: {default}" if default and not where else
                         f"{owner}: {where}{caller.name} {problem}")
    return [item for group in reversed(groups) for item in group]


def _collected_fault(groups: Any, kind: type | tuple[type, ...], distinct: bool) -> str | None:
    """What is wrong with the answers of a collecting hook (newest first), in words, or
    ``None``: each a list of ``kind``, each item named by one word that the command line can
    give (no space, ``=`` or ``,``), its help one line; with ``distinct``, no two of one
    :func:`~mdp.game.names.one_name` (``ﬁne`` and ``fine``, ``k`` and ``K``)."""
    named = " or mdp.".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
    taken: dict[str, str] = {}
    for group in reversed(groups or []):
        if not isinstance(group, (list, tuple)):
            return f"returned {group!r}, not a list of mdp.{named}"
        for item in group:
            if not isinstance(item, kind):
                return f"returned {item!r}, not an mdp.{named}"
            name, what = getattr(item, "name", ""), f"an mdp.{type(item).__name__}"
            if not typable(name, word=True):  # given on the command line
                return f"returned {what} named {name!r}; a name is {WORD}"
            if distinct and one_name(name) in taken:
                other = taken[one_name(name)]
                return (f"returned {what} named {name!r}, as another is" if other == name else
                        f"returned two mdp.{type(item).__name__}s named {other!r} and {name!r}, which "
                        "read alike") + ": give each a name of its own"
            taken[one_name(name)] = name
            if isinstance(item, Param) and (problem := param_fault(item)) is not None:
                return f"declared parameter {name} badly: {problem}"  # (said alone where the game's own)
            for field, text in texts(item):
                if not isinstance(text, str) or not text.isprintable():
                    return f"returned {what} {name!r} whose {field} is {text!r}, not one line of text"
            if (problem := options_fault(getattr(item, "options", None))) is not None:
                return f"returned {what} {name!r} whose {problem}"  # an analysis's options
            if isinstance(item, Variant) and not item.rules.strip():  # mdp variants lists them
                return f"returned {what} {name!r} with no rules: say what it plays in a few words"
    return None


def _whose(plugins: pluggy.PluginManager, caller: pluggy.HookCaller, owner: str,
           became: Callable[[Any], bool], kwargs: dict[str, Any]) -> str:
    """``"plugin NAME's "`` for the plugin whose implementation made the answers of a hook
    wrong (asked again, the plugins added one at a time), or nothing where it is the game's
    own (named by ``owner``: ``"game shutbox"``) or none is found."""
    if getattr(plugins.hook, caller.name, None) is not caller:  # some plugins' answers alone
        return ""
    return _theirs(owner, culprit_of_answer(plugins, caller.name, became, kwargs))


def _theirs(owner: str, found: str | None) -> str:
    """``"plugin NAME's "`` for the plugin ``found`` at fault, or nothing where there is none,
    or it is the game's own (``owner``: ``"game shutbox"``), which the line names already."""
    game = owner.partition(" ")[2] if owner.startswith("game ") else None
    return "" if found is None or game is not None and (found == game or found.startswith(game + ".")) \
        else f"plugin {found}'s "


def offering(manager: pluggy.PluginManager, hooks: Iterable[str], name: str,
             own: Iterable[str] = ()) -> list[str]:
    """The plugins whose answer to one of the collecting ``hooks`` holds an item named
    ``name``, each as an error names it: those of ``own`` (mdp's built-in plugins) first, as
    ``mdp``, then the others as ``plugin NAME``, in the order they were registered."""
    own, name = set(own), one_name(name)
    found = [impl.plugin_name for hook in hooks for impl in getattr(manager.hook, hook).get_hookimpls()
             if not (impl.wrapper or impl.hookwrapper)  # (a wrapper answers only with the rest)
             and any(isinstance(given := getattr(item, "name", None), str) and one_name(given) == name
                     for item in impl.function() or ())]
    return ["mdp" if plugin in own else f"plugin {plugin}"
            for plugin in sorted(found, key=lambda plugin: plugin not in own)]


def by_name(items: list[Any], clash: Callable[[str, str], MdpError],
            reserved: tuple[str, ...] = ()) -> dict[str, Any]:
    """Items that have a ``name`` (variants, strategies, formats, commands), by name in
    order; two of one name, or one of a ``reserved`` name, raise ``clash(name, other)``
    (:func:`named_twice` says them): a plugin's item never silently replaces another's.
    Names of one :func:`~mdp.game.names.one_name` are one."""
    found: dict[str, Any] = {}
    taken = {one_name(name): name for name in reserved}
    for item in items:
        typed = one_name(item.name)
        if typed in taken:
            raise clash(item.name, taken[typed])
        found[item.name], taken[typed] = item, item.name
    return found

