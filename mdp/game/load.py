"""Finding, loading and configuring games: the first step of game -> model -> solution."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any

import attrs
import pluggy

from mdp.checks import OPTIONAL_NAME, PLUGINS, SPEC, arguments
from mdp.errors import PLUGIN_FAULTS, ModelError, ParamError, fault, passed_on, said
from mdp.game.declared import describe_fault
from mdp.game.found import default_name, import_game, load_plugin, plugin_file
from mdp.game.hookimpls import check_hook_names
from mdp.game.kept import check_together, handed, keep_shown
from mdp.game.manager import at_home
from mdp.game.names import check_game_of, name_of, named_twice
from mdp.game.objective import Objective as Objective
from mdp.game.params import Param, resolve
from mdp.game.played import check_played
from mdp.game.plugins import GAMES_ENTRY_POINTS as GAMES_ENTRY_POINTS
from mdp.game.plugins import (
    Plugins,
    by_name,
    collect,
    culprit,
    culprit_of_answer,
    holds_float,
    offering,
    register,
)
from mdp.game.plugins import available_games as available_games
from mdp.game.variants import Variant, as_set, find_variant, of_variant, variants_fault
from mdp.handed import read_only
from mdp.hookspecs import game as game_hooks

LONGEST_DESCRIPTION = 500
"""The most characters of a game's description (``mdp_describe``) shown; a longer one is
cut, with a note that says how long it was: it is shown on one line before every answer."""


@attrs.frozen
class Game:
    """A loaded game: its plugins and its resolved parameters.

    Create one with :func:`load_game`; every hook is called with ``params`` and ``game``
    already filled in, e.g. ``game.call("mdp_actions", state=s)``.
    """

    name: str
    plugins: pluggy.PluginManager = attrs.field(repr=False, eq=False)
    declared: tuple[Param, ...] = attrs.field(repr=False, eq=False)
    params: Mapping[str, Any]
    variant: str | None = None
    given: frozenset[str] = frozenset()
    """The parameters set by the caller or the variant (the others have their defaults), so
    that a game can refuse a setting its other rules would silently override."""
    loaded: tuple[str, ...] | None = attrs.field(default=None, repr=False, eq=False)
    """The words of the ``mdp`` command line that load this game with these rules (its path
    or installed name, ``--variant``, ``--set``, ``-p``; :meth:`command`); ``None`` for one
    loaded from a Python object, which no command line names."""
    _memo: dict[Any, Any] = attrs.field(factory=dict, repr=False, eq=False)

    def command(self, name: str, *more: str) -> str:
        """The command ``mdp NAME`` for this very game, as typed in a shell: the game as it
        was loaded (:attr:`loaded`; ``GAME`` where no command line names it), then ``more``
        as it stands (``"COLUMN=VALUE ..."``)."""
        import shlex

        game = shlex.join(self.loaded) if self.loaded is not None else "GAME"
        return " ".join(["mdp", name, game, *more])

    def call(self, hook: str, **kwargs: Any) -> Any:
        """Call a hook with ``params`` and ``game`` filled in, its arrays read-only
        (:mod:`mdp.handed`); see :mod:`mdp.hookspecs.game`. An exception other than an
        :class:`~mdp.MdpError` is a :class:`~mdp.ModelError` naming game, hook and arguments.
        One asked with the parameters alone (``mdp_describe``, ``mdp_objective``: the game's
        words of itself) is asked once per loaded game, its answer kept (:meth:`memo`)."""
        if not kwargs:
            return self.memo(("asked", hook), lambda: self._call(hook, {}))
        return self._call(hook, kwargs)

    def _call(self, hook: str, kwargs: dict[str, Any]) -> Any:
        kwargs = {name: read_only(value) for name, value in kwargs.items()}
        try:
            game = handed(self, hook)
            return getattr(self.plugins.hook, hook)(params=game.params, game=game, **kwargs)
        except PLUGIN_FAULTS as error:
            if passed_on(error, f"game {self.name}", refusal=ParamError if hook == "mdp_check" else None):
                raise
            found = culprit(self.plugins, hook, error) or self._raising(hook, kwargs)
            plugin, own = found if found and not self.own(found[0]) else (None, False)
            said = (f"plugin {plugin}'s " if own else "") + f"{hook} raised {fault(error, hook=True)}" \
                + (f", in plugin {plugin}" if plugin and not own else "")
            raise ModelError(f"game {self.name}: {said}{_where(self, hook, kwargs)}") from error

    def _raising(self, hook: str, kwargs: dict[str, Any]) -> tuple[str, bool] | None:
        """The plugin whose implementation of ``hook`` made it raise where no frame of the
        error is in a plugin's code (pluggy's own error about a wrapper, say): the first
        implementation that raises, asked one at a time (:meth:`blame`)."""
        found = self.blame(hook, lambda answer: False, **kwargs)
        return None if found is None else (found, True)

    def answer(self, hook: str, check: Callable[[Any], str | None], **kwargs: Any) -> Any:
        """Call a hook (as :meth:`call`) whose answer ``check`` finds fault with, in words
        (``"returned None, not a list of masks (total 11)"``), or not (``None``). A wrong
        answer is one :class:`~mdp.ModelError` that names the game, the rule plugin whose
        implementation made it wrong (:meth:`blame`) and the hook: a plugin's mistake is
        never the game's, nor another hook's that later reads the answer."""
        answer = self.call(hook, **kwargs)
        problem = check(answer)
        if problem is None:
            if ("floats", hook) not in self._memo and holds_float(answer):  # once a hook
                plugin = self._memo[("floats", hook)] = self.blame(hook, holds_float, **kwargs)
                self._memo.setdefault("floats", plugin and f"plugin {plugin}'s {hook}")
            return answer
        plugin = self.blame(hook, lambda other: check(other) is not None, **kwargs)
        whose = f"plugin {plugin}'s " if plugin else ""
        raise ModelError(f"game {self.name}: {whose}{hook} {problem}")

    @property
    def floats_from(self) -> str | None:
        """The rule plugin's part that first gave a float (``"plugin x.py's shutbox_rolls"``,
        by :meth:`answer`, or kept as :meth:`memo` ``"floats"``): exact solving names it."""
        return self._memo.get("floats")

    def checked(self, hook: str, answer: Any, check: Callable[[Any], Any], named: str,
                **kwargs: Any) -> Any:
        """``check(answer)``, an answer of ``hook`` (asked with ``kwargs``). Where it refuses
        it (a :class:`~mdp.ModelError` whose line names the hook by ``named``: ``"game x:
        mdp_expand"``), the rule plugin whose implementation (a wrapper) made the answer
        wrong is named there (``"game x: plugin y.py's mdp_expand"``), found as
        :meth:`blame` finds it; never the game, whose own answer was right."""
        try:
            return check(answer)
        except ModelError as error:
            if named not in str(error):
                raise

            def wrong(other: Any) -> bool:
                try:
                    check(other)
                except ModelError:
                    return True
                return False

            plugin = self.blame(hook, wrong, **kwargs)
            if plugin is None:
                raise
            theirs = named.replace(hook, f"plugin {plugin}'s {hook}", 1)
            raise ModelError(str(error).replace(named, theirs, 1)) from error.__cause__

    def blame(self, hook: str, became: Callable[[Any], bool], **kwargs: Any) -> str | None:
        """The rule plugin whose implementation of ``hook`` made its answer one that ``became``
        finds (a wrong answer, to name it in an error): the hook is asked again with its
        implementations added one at a time, the game's own first. ``None`` when it is the
        game's own doing."""
        handed = {name: read_only(value) for name, value in kwargs.items()}
        found = culprit_of_answer(self.plugins, hook, became, {"params": self.params, "game": self, **handed})
        return None if found is None or self.own(found) else found

    def own(self, plugin: str) -> bool:
        """Whether the plugin named so is the game or one of its own modules."""
        get = self.plugins.get_plugin
        return plugin == self.name or at_home(get(self.name), get(plugin))

    def collect(self, hook: str, kind: type | tuple[type, ...]) -> list[Any]:
        """Every plugin's answer to a collecting hook (``mdp_strategies``, say), joined, the
        game's first; each item checked to be a ``kind``, as for ``mdp_params``. Asked once
        per loaded game, as :meth:`call` asks a hook with the parameters alone."""
        return self.memo(("collected", hook), lambda: collect(
            self.plugins, hook, kind, f"game {self.name}", params=self.params, game=self))

    def implements(self, hook: str) -> bool:
        """Whether any plugin implements ``hook``."""
        return bool(getattr(self.plugins.hook, hook).get_hookimpls())

    @property
    def round_start(self) -> Any:
        """The round state a game played in rounds starts in
        (:func:`~mdp.hookspecs.game.mdp_round_start`), else ``None``: asked once per loaded
        game (:meth:`memo`), so that every command reads the one answer."""
        return self.memo("round_start", lambda: self.call("mdp_round_start")
                         if self.implements("mdp_round_start") else None)

    @property
    def in_rounds(self) -> bool:
        """Whether its :attr:`round_start` is not ``None`` (under its parameters)."""
        return bool(self.memo("in_rounds", lambda: self.round_start is not None))

    def memo(self, key: Any, make: Callable[[], Any]) -> Any:
        """Data derived from this game's parameters, made on first use and kept with it."""
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    def variants(self) -> list[Variant]:
        """The game's named rule sets, the default first (empty if it has none)."""
        return _variants(self.plugins, self.name)

    def describe(self) -> str:
        """The rules in force, in one line (the game's name if it gives none)."""
        described = self.answer("mdp_describe", describe_fault)
        if described and len(described) > LONGEST_DESCRIPTION:  # a line, not a page
            return (f"{described[:LONGEST_DESCRIPTION]}... (cut: mdp_describe gave "
                    f"{len(described):,} characters)")
        return described or self.name

    @property
    def objective(self) -> Objective:
        """What the game's value means and which way is better."""
        objective = self.call("mdp_objective")
        if objective is not None and not isinstance(objective, Objective):
            raise ModelError(f"game {self.name}: mdp_objective returned {objective!r}, not an "
                             "mdp.Objective")
        return objective or Objective()

    def shown_params(self) -> dict[str, Any]:
        """The parameters as people and JSON see them: as ``--set`` takes them back."""
        return {p.name: self.shown(p, self.params[p.name]) for p in self.declared}

    def shown(self, param: Param, value: Any) -> Any:
        """``value`` of the parameter ``param`` as people and JSON see it (:meth:`Param.shown`);
        a fault of its ``show`` names the game and the plugin that declared it."""
        try:
            return param.shown(value)
        except ModelError as error:
            raise ModelError(f"game {self.name}: {self.whose(param)}{error}") from None

    def whose(self, param: Param) -> str:
        """``"plugin x.py's "`` for a parameter that a rule plugin declared, else nothing."""
        by = [p.removeprefix("plugin ") for p in offering(self.plugins, ["mdp_params"], param.name)]
        return next((f"plugin {p}'s " for p in by if not self.own(p)), "")

    def with_params(self, **changes: Any) -> Game:
        """Return this game with some parameters changed (parsed like :func:`load_game`'s)."""
        parsed = resolve(self.name, self.declared, changes)
        params = {**self.params, **{key: parsed[key] for key in changes}}
        game = attrs.evolve(self, params=MappingProxyType(params), memo={},
                            given=self.given | set(changes),
                            loaded=self._loaded_with({key: parsed[key] for key in changes}))
        keep_shown(game)
        check_together(game)
        return game

    def _loaded_with(self, changes: Mapping[str, Any]) -> tuple[str, ...] | None:
        """:attr:`loaded` with the parameters of ``changes`` set to its (parsed) values."""
        if self.loaded is None:
            return None
        words, kept = list(self.loaded), []
        while words:
            word = words.pop(0)
            if word == "--set" and words and words[0].partition("=")[0] in changes:
                words.pop(0)
            else:
                kept.append(word)
        declared = {p.name: p for p in self.declared}
        sets = (w for key, value in changes.items()
                for w in ("--set", f"{key}={self.shown(declared[key], value)}"))
        return (kept[0], *sets, *kept[1:])


def describe(game: Game, state: Any, action: Any = None) -> str:
    """A state (and action) in the game's own words, from its columns if it has them."""
    state, action = _plain(state), _plain(action)
    if game.implements("mdp_columns"):
        try:
            columns = game.call("mdp_columns", states=[state], actions=[action])
            firsts = {name: _plain((values() if callable(values) else values)[0])  # (lazy: made)
                      for name, values in columns.items()}
            return ", ".join(f"{name} {_said(value)}" for name, value in firsts.items()
                             if value is not None)
        except Exception:  # describing a state for an error must not hide that error
            pass
    return f"state {said(state)}" + ("" if action is None else f", action {said(action)}")


def _said(value: Any) -> Any:
    """A column's value in a state's description: ``none`` for an empty text or list."""
    return "none" if isinstance(value, str | list | tuple) and not value else value


def _plain(value: Any) -> Any:
    """A numpy scalar as the Python number it holds (without importing numpy here)."""
    return value.item() if type(value).__module__ == "numpy" and getattr(value, "ndim", 1) == 0 else value


def _where(game: Game, hook: str, kwargs: Mapping[str, Any]) -> str:
    """The state and action a hook was called with, for an error message: a batch of states
    by its first, in the game's words where it has them."""
    if "states" in kwargs:
        states = kwargs["states"]
        if not len(states):
            return ""
        first = states[0].item() if hasattr(states[0], "item") else states[0]
        if hook.startswith("mdp_round_"):
            named = f"round state {said(first)}"
        elif hook == "mdp_columns":  # not asked again of the hook at fault
            named = f"state {said(first)}"
        else:
            named = describe(game, first)
        return f" ({named})" if len(states) == 1 else f" ({len(states):,} states, the first: {named})"
    parts = [f"{name} {said(value)}" for name, value in kwargs.items()  # state, action; a game's own
             if value is not None]
    return f" ({', '.join(parts)})" if parts else ""


def load_game(spec: str | os.PathLike[str] | object, /, variant: str | None = None,
              plugins: Iterable[str | os.PathLike[str] | object] = (), **params: Any) -> Game:
    """Load a game by path (``"games/shutbox"``: imported afresh once a file of it has changed),
    by installed name (``"shutbox"``), or from a module or object carrying the hook implementations.

    ``variant`` picks one of the game's named rule sets; keyword arguments set parameters on
    top of it. A string is parsed as on the command line (``rounds="3"``); other values are
    checked by the parameter's parser.

    ``plugins`` are rule plugins to register beside the game without installing them, each
    as :func:`~mdp.game.found.load_plugin` takes it (a ``.py`` file, a module's name, a module): after the
    game's own and its installed ones, so they can wrap or override any of their hooks
    (``mdp -p FILE`` on the command line).
    """
    arguments("load_game", spec=(spec, SPEC), variant=(variant, OPTIONAL_NAME), plugins=(plugins, PLUGINS))
    plugins = list(plugins)  # read twice: registered, and said in Game.loaded
    module, default = import_game(spec) if isinstance(spec, (str, os.PathLike)) else \
        (spec, default_name(spec))
    name = name_of(module, default)
    manager = Plugins("mdp", f"game {name}")
    manager.add_hookspecs(game_hooks)  # a game's hooks only: see check_hook_names
    register(manager, module, name, f"game {name}")
    before = _configured(manager, name, [])
    for given in plugins:
        shown, plugin = load_plugin(given)
        check_game_of(plugin, shown, name)
        if plugin_file(plugin) in {plugin_file(p) for _, p in manager.list_name_plugin()} - {None}:
            # the same file imported under another name (plugins/ is mdp_plugins installed)
            raise ModelError(f"game {name}: plugin {shown} is registered already")
        register(manager, plugin, shown, f"game {name}")
    _configured(manager, name, before)  # theirs too, once: they came after the game's
    for registered, plugin in manager.list_name_plugin():  # (mdp_configure's too)
        if plugin is not module:  # (one registered without a name: pluggy names it by its id)
            check_game_of(plugin, default_name(plugin) if registered == str(id(plugin)) else registered, name)
    check_hook_names(manager, f"game {name}")
    declared = tuple(collect(manager, "mdp_params", Param, f"game {name}"))
    variants = _variants(manager, name, declared)  # checked here, whichever the command
    typed = list(params)  # the caller's own settings, not the variant's
    ruled = {} if variant is None else as_set(find_variant(name, variants, variant).params)
    params = {**ruled, **params}
    bare = Game(name, manager, declared, MappingProxyType({}))  # who declared a parameter
    resolved = resolve(name, declared, params,
                       whose=lambda p: bare.whose(p) and f"{bare.whose(p)}mdp_params: ")
    game = Game(name, manager, declared, resolved, variant, frozenset(params))
    game = attrs.evolve(game, loaded=_loaded_as(spec, variant, plugins, {
        p.name: game.shown(p, resolved[p.name]) for p in declared if p.name in typed}))
    keep_shown(game)
    check_played(game.name, game.plugins, game.own, lambda: game.in_rounds)
    try:
        check_together(game)
    except ParamError as error:  # where the variant set what is refused, it is named
        by = [p.removeprefix("plugin ") for p in offering(manager, ["mdp_variants"], variant or "")]
        raise of_variant(error, variant, {k: v for k, v in ruled.items() if k not in typed},
                         next((f"plugin {p}" for p in by if not game.own(p)), None)) from None
    return game


def _configured(manager: Plugins, name: str, before: list[Any]) -> list[Any]:
    """Call the ``mdp_configure`` of every plugin registered and not in ``before``, once each,
    and of those they register in turn, until none is new; the plugins registered then. (A
    game may be unhashable: told apart by identity.)"""
    while True:
        now = [plugin for _, plugin in manager.list_name_plugin()]
        new = [plugin for plugin in now if not any(plugin is old for old in before)]
        if not new:
            return now
        caller: Any = _Configure(manager, new)  # (called as pluggy's hook callers are)
        collect(manager, caller, None, f"game {name}", plugins=manager)
        before = now


@attrs.frozen
class _Configure:
    """``mdp_configure`` of the plugins ``new`` alone, as pluggy would call it (the newest
    first); pluggy's own subset of a hook sets the others apart in a set, which a game that
    is no hashable object (a namespace) cannot be in."""

    manager: Plugins
    new: list[Any]
    name = "mdp_configure"

    def __call__(self, **kwargs: Any) -> list[Any]:
        impls = [impl for impl in self.manager.hook.mdp_configure.get_hookimpls()
                 if any(impl.plugin is plugin for plugin in self.new)
                 and not (impl.wrapper or impl.hookwrapper)]  # (a wrapper wraps nothing here)
        return [impl.function(*(kwargs[arg] for arg in impl.argnames)) for impl in reversed(impls)]


def _loaded_as(spec: object, variant: str | None, plugins: list[Any],
               settings: Mapping[str, Any]) -> tuple[str, ...] | None:
    """The words of the command line that load a game as :func:`load_game` was asked to
    (:attr:`Game.loaded`); ``None`` where the game or a plugin is a Python object."""
    paths = [str(os.fspath(item)) for item in (spec, *plugins) if isinstance(item, (str, os.PathLike))]
    if len(paths) < 1 + len(plugins):
        return None
    words = paths[:1] + (["--variant", variant] if variant is not None else [])
    words += [word for key, value in settings.items() for word in ("--set", f"{key}={value}")]
    return (*words, *(word for path in paths[1:] for word in ("-p", path)))


def _variants(plugins: pluggy.PluginManager, game: str,
              declared: tuple[Param, ...] | None = None) -> list[Variant]:
    check = None if declared is None else lambda variants: variants_fault(variants, declared)
    variants = collect(plugins, "mdp_variants", Variant, f"game {game}", check=check)
    return list(by_name(variants, lambda name, other: ModelError(
        f"game {game}: two variants are named {named_twice(name, other)}")).values())
