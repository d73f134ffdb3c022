"""The plugin manager of a game and of the program: each hook implementation of no
argument asked once (:class:`Plugins`)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pluggy


class Plugins(pluggy.PluginManager):
    """A plugin manager that takes no private name (``_helper``) for a hook: it reads each
    plugin's public names only, and a plugin's own helpers cost nothing to register.

    An implementation of a hook that takes no argument (the program's ``mdp_commands``,
    ``mdp_formats``, ...; a game's ``mdp_params`` and ``mdp_variants``) is asked once, when
    first asked, and its answer kept for every later question on this manager (the help,
    the parser, the command and the checks all read the one answer): a plugin whose answer
    changes from call to call cannot have them mixed."""

    def __init__(self, project_name: str, owner: str = "a plugin of mdp") -> None:
        super().__init__(project_name)
        self.owner = owner
        """Whose plugins these are, as messages begin (``"game shutbox"``)."""

    def parse_hookimpl_opts(self, plugin: Any, name: str) -> Any:
        if name.startswith("_"):
            return None
        return super().parse_hookimpl_opts(plugin, name)

    def register(self, plugin: Any, name: str | None = None) -> str | None:
        registered = super().register(plugin, name)
        if registered is None:
            return None
        whose = self._whose(plugin, registered)
        for caller in list(vars(self.hook).values()):
            spec = caller.spec  # (by name: a plugin may be any object, even one with no ==)
            for impl in caller.get_hookimpls():
                if impl.plugin_name != registered or spec is None:
                    continue
                if impl.hookwrapper or impl.wrapper:
                    impl.function = _kept_to(impl.function, self.owner, whose, caller.name,
                                             bool(spec.opts.get("firstresult")), impl.hookwrapper,
                                             impl.argnames)
                elif not spec.argnames and not impl.argnames:
                    impl.function = _once(impl.function)
        return registered

    def _whose(self, plugin: Any, name: str) -> str:
        """How a fault of ``plugin``'s (registered as ``name``) begins: ``"plugin NAME's "``,
        or nothing where it is the game's own code (an object of the game's module that the
        game registered, under whatever name), as the game's faults are said."""
        game = self.owner.removeprefix("game ") if self.owner.startswith("game ") else None
        mine = None if game is None else self.get_plugin(game)
        return "" if mine is not None and (name == game or at_home(mine, plugin)) else f"plugin {name}'s "


def home_module(plugin: Any) -> str:
    """The name of the module that holds a plugin's code."""
    return plugin.__name__ if isinstance(plugin, ModuleType) else type(plugin).__module__


def at_home(game: Any, plugin: Any) -> bool:
    """Whether ``plugin``'s code is in the module (or package) of ``game``'s, the game's own."""
    home, theirs = home_module(game), home_module(plugin)
    return theirs == home or theirs.startswith(home + ".")


def _kept_to(function: Callable[..., Any], owner: str, whose: str, hook: str, first: bool,
             old_style: bool, names: tuple[str, ...]) -> Callable[..., Any]:
    """A wrapper's ``function`` (a generator: ``answer = yield``) held to what a wrapper
    returns: for a hook of one answer, an answer where the implementations inside it gave
    one (not ``None``: a ``return`` forgotten would drop the game's answer, and another game
    would be solved); for a hook whose every implementation answers, a list, as ``yield``
    gives it. pluggy's older form (``hookwrapper=True``, ``outcome.force_result``) alike."""

    from mdp.errors import said

    def kept(*args: Any) -> Any:
        inner = function(*args)
        value = next(inner)  # (the wrapper's code up to its yield; pluggy's own checks after)
        while True:
            try:
                sent = yield value
            except BaseException as thrown:  # what the implementations inside raised
                try:
                    value = inner.throw(thrown)
                except StopIteration as stop:
                    return stop.value
                continue
            given = _result(sent) if old_style else sent
            before = sent.exception if old_style else None
            try:
                value = inner.send(sent)
            except StopIteration as stop:
                returned = _result(sent) if old_style else stop.value
                at = dict(zip(names, args))
                where = ", ".join(f"{n} {said(v):.60}" for n, v in at.items() if n not in ("params", "game"))
                fault = _fault(owner, whose, hook, first, given, returned, where and f" at {where}")
                forced = sent.exception if old_style else None
                if fault is None and forced is not None and forced is not before:
                    fault = _forced(owner, whose, hook, forced, where)
                if fault is not None and old_style:  # (raised in its teardown, pluggy warns)
                    sent.force_exception(fault)
                elif fault is not None:
                    raise fault from None
                return stop.value

    functools.update_wrapper(kept, function)
    return kept


def _forced(owner: str, whose: str, hook: str, error: BaseException, where: str) -> Exception | None:
    """An exception an older wrapper set (``outcome.force_exception``), which no frame of
    the plugin's raised: its own, as one it raised is (mdp's own exceptions too, but the
    refusal mdp_check raises, which is the user's; and an interruption or an exit it sets,
    which is no user's doing either)."""
    from mdp.errors import ModelError, ParamError, fault

    if hook == "mdp_check" and isinstance(error, ParamError):
        return None
    return ModelError(f"{owner}: {whose}{hook} raised {fault(error, hook=True)}"
                      f"{f' ({where})' if where else ''}")


_RAISED = object()


def _result(outcome: Any) -> Any:
    try:
        return outcome.get_result()
    except BaseException:  # (what was raised inside is said where it is raised)
        return _RAISED


def _fault(owner: str, whose: str, hook: str, first: bool, given: Any, returned: Any,
           where: str) -> Exception | None:
    """What a wrapper's answer ``returned`` gets wrong, where those inside it gave ``given``."""
    from mdp.errors import ModelError, said

    if given is _RAISED or returned is _RAISED:
        return None
    if first and returned is None and given is not None:
        return ModelError(f"{owner}: {whose}{hook} (a wrapper) returned None{where}, where the "
                         f"implementations inside it answered {said(given):.80}; a wrapper "
                         "returns the answer yield gives it, or one of its own")
    if not first and not isinstance(returned, list):
        return ModelError(f"{owner}: {whose}{hook} (a wrapper) returned "
                         f"{said(returned):.80}{where}, not the list of answers yield gives it; a "
                         "wrapper returns that list, or a list of its own")
    return None


def _once(function: Callable[[], Any]) -> Callable[[], Any]:
    """``function`` asked once, when first called, its answer then given again (an
    exception is not kept: a later call asks again, and raises again)."""
    kept: list[Any] = []

    @functools.wraps(function)
    def once() -> Any:
        if not kept:
            kept.append(function())
        return kept[0]

    return once
