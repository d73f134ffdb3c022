"""From a game to a :class:`~mdp.CompiledModel`: the one step that every discovered block
goes through, whichever way the states were discovered (:mod:`mdp.engine.walk`,
:mod:`mdp.engine.stages`): each block checked (:mod:`mdp.engine.checks`) beside the
discovery of the next, then the states numbered and joined (:mod:`mdp.engine.numbering`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

import attrs
import numpy as np

from mdp.checks import (
    CALLBACK,
    GAME,
    MAX_MEMORY,
    MAX_STATES,
    OPTIONAL_FLAG,
    arguments,
    plugins_of,
    rule_plugins,
)
from mdp.engine import batch_answers, checks
from mdp.engine.blockchecks import BlockChecks
from mdp.engine.budget import STAGE_BYTES, WALK_BYTES, Budget
from mdp.engine.closure import by_closure
from mdp.engine.expansion import Block, Discovery
from mdp.engine.groups import narrow, starts
from mdp.engine.memory import LARGE, release
from mdp.engine.model import CompiledModel, ModelInfo
from mdp.engine.numbering import Lookup, Stage, Transitions, block_bytes, join, number
from mdp.engine.numeric import FLOAT_MOST, below_floats, fault, quoted
from mdp.engine.parallel import beside, threads
from mdp.engine.places import Finding, Place
from mdp.engine.stages import SameStage, by_stages
from mdp.engine.turns import PassedTurns, Turns
from mdp.engine.walk import label_prints, walk
from mdp.errors import ModelError, ParamError, said
from mdp.errors import fault as raised
from mdp.game.columns import state_columns
from mdp.game.kept import check_params
from mdp.game.load import Game, describe
from mdp.handed import read_only
from mdp.limits import DEFAULT_MAX_STATES, default_max_memory

if TYPE_CHECKING:
    from concurrent.futures import Future

    from mdp.engine.parallel import Done
    from mdp.engine.rounds import Rounds


def _arguments(game: Game, max_states: int | None, max_memory: Any,
               batch: bool | None) -> tuple[int | None, int | None, bool]:
    """The arguments of :func:`compile`, checked before any work, with their defaults made."""
    threads()  # a wrong MDP_THREADS is refused before any work
    if max_memory == "default":
        max_memory = default_max_memory()
    if batch is None:
        batch = game.implements("mdp_expand")
    elif not game.implements("mdp_expand" if batch else "mdp_actions"):  # not its kind
        raise ParamError(f"mdp.compile: batch is {batch}, but game {game.name} has no "
                         f"{'batch hooks (mdp_expand)' if batch else 'per-state hooks (mdp_actions)'}"
                         "; expected None (the game's own way), or the other way of a game that "
                         "has both")
    return max_states, max_memory, batch


def check_size(game: Game, *, max_states: int | None = DEFAULT_MAX_STATES,
               max_memory: int | None | Literal["default"] = "default") -> None:
    """Refuse, as :func:`compile` does first, a game whose own count of states
    (:func:`~mdp.hookspecs.game.mdp_estimate_states`) already passes ``max_states`` or
    ``max_memory``: work that compiles several games (every variant, a table over rule sets)
    checks them all before the first is compiled."""
    max_states, max_memory, batch = _arguments(game, max_states, max_memory, None)
    _check_estimate(game, Budget(game, max_states, max_memory,
                                 STAGE_BYTES if batch else WALK_BYTES, None))


def _check_estimate(game: Game, budget: Budget) -> None:
    """Refuse a game whose own count of states already passes the budget."""
    at_least = checks.estimate_states(game)
    if at_least is not None:
        budget.check(at_least, estimated=True)


def compile(
    game: Game,
    *,
    max_states: int | None = DEFAULT_MAX_STATES,
    max_memory: int | None | Literal["default"] = "default",
    batch: bool | None = None,
    progress: Callable[[str], None] | None = None,
) -> CompiledModel | Rounds:
    """Discover every state reachable from the initial one, check it, and compile the model.

    A game that implements :func:`~mdp.hookspecs.game.mdp_expand` is discovered a stage at a
    time through it; ``batch=False`` uses its per-state hooks instead. ``max_states`` and
    ``max_memory`` (bytes; by default three quarters of the memory this process may use,
    :func:`mdp.limits.memory_limit`) bound the work: discovery stops with
    :class:`mdp.TooLarge` as soon as either would be passed, and before any work when the
    game's count of states already passes them (``None``: no bound). ``progress``, if given,
    is called now and then with a short text saying how far the work has got. A game walked
    one state at a time whose paths still grow deeper after a few seconds may have no end:
    under the default ``max_states`` it is refused then (:class:`mdp.TooLarge`); under a
    limit the caller set, an :class:`mdp.UnboundedWarning` says so, once.
    """
    arguments("compile", game=(game, GAME), max_states=(max_states, MAX_STATES),
              max_memory=(max_memory, MAX_MEMORY), batch=(batch, OPTIONAL_FLAG),
              progress=(progress, CALLBACK))
    start = time.perf_counter()
    max_states, max_memory, batch = _arguments(game, max_states, max_memory, batch)
    budget = Budget(game, max_states, max_memory, STAGE_BYTES if batch else WALK_BYTES, progress,
                    measured=not batch)
    _check_estimate(game, budget)
    try:
        discovery = by_stages(game, budget) if batch else walk(game, budget)
        model = _compiled(game, discovery, budget, progress, start)
    except SameStage as stage:  # states that may come back: all of them found first, another way
        budget = Budget(game, max_states, max_memory, STAGE_BYTES, progress, shown=budget.warnings)
        discovery = by_closure(game, budget, (stage.keys, stage.prints))
        model = _compiled(game, discovery, budget, progress, start)
    check_params(game)  # every hook of the compile asked: the parameters as they were
    model = _returning(game, model, discovery.cyclic)
    first = game.round_start
    if first is None:
        return model
    if not model.one_pass:
        raise ModelError(f"game {game.name}: a game played in rounds whose round has states "
                         "that come back, or two players, is not yet solved")
    from mdp.engine.rounds import compile_rounds  # here: most games are not played in rounds

    return compile_rounds(game, model, first, max_states=max_states, max_memory=max_memory,
                          progress=progress)


def _compiled(game: Game, discovery: Discovery, budget: Budget,
              progress: Callable[[str], None] | None, start: float) -> CompiledModel:
    """The model of the blocks that ``discovery`` finds, each checked beside the next."""
    intake = _Intake(game, discovery)
    check = None  # of the last block, run beside the discovery of the next
    try:
        for block in discovery.blocks:
            if check is not None:
                done, check = check, None
                intake.finished(done)
            check = beside(len(block.expansion.next_states), intake.add, block)
            del block  # else the expansion's arrays live on while the next stage is expanded
    except Exception:
        if check is not None:  # a fault in a block comes before what discovery met after it
            intake.finished(check)
        raise
    if check is not None:
        intake.finished(check)
    if progress:
        progress(f"compiling {budget.count:,} states")
    return intake.compile(start)


def _returning(game: Game, model: CompiledModel, found: bool) -> CompiledModel:
    """The model with its cyclic layers marked (those with a transition that stays in the
    layer), where discovery ``found`` states that may come back, and, in a game of two
    players, where the turn passes (:mod:`mdp.engine.turns`)."""
    turns = passed_turns(game, model)
    cyclic = None
    if found:
        action, successor, _ = model.edges()
        layers = model.layer_of()
        stays = layers[model.action_state()[action]] == layers[successor]
        if stays.any():
            cyclic = np.zeros(model.n_layers, dtype=bool)
            cyclic[layers[successor[stays]]] = True
    if cyclic is None and turns is None:
        return model
    return attrs.evolve(model, cyclic=cyclic, turns=turns)


class _Intake:
    """Checks each block as it arrives, merges its probabilities into one table, and keeps it
    compact; then numbers the states and joins the blocks into a model."""

    def __init__(self, game: Game, discovery: Discovery) -> None:
        self.game, self.discovery = game, discovery
        self.table: dict[Any, int] = {}
        self.stages: list[Stage] = []
        walked = discovery.objects is not None
        # A batch game's labels where it gave them as the model was built, fingerprinted per
        # state (keys, prints), so that a table asking again finds them in another order.
        self.printed: list[tuple[np.ndarray, np.ndarray]] | None = None if walked else []
        self.checks = BlockChecks(game.name, "mdp_outcomes" if walked else "mdp_expand",
                                  "mdp_terminal_value" if walked else "mdp_expand",
                                  game.objective.probability)

    def name(self, place: Place) -> str:
        """The game's words for a place a check found (on the thread that calls the game)."""
        key, label = place.named(self.game)
        return describe(self.game, self.discovery.state(key), label)

    def finished(self, check: Future[None] | Done) -> None:
        """Wait for a block's check (see :meth:`add`); raise what it found, in the game's words."""
        try:
            check.result()
        except Finding as finding:
            hook = finding.hook
            if self.discovery.objects is not None:  # one state's answer: a rule plugin's doing?
                key, label = finding.place.named(self.game)
                asked = {"state": self.discovery.state(key)}
                hook = checks.whose(self.game, hook, finding.faulty, **asked, **(
                    {"action": label} if hook == "mdp_outcomes" else {}))
            else:  # a batch's: the state's expansion asked again, a plugin added at a time
                keys = np.array([finding.place.key], dtype=np.int64)
                hook = checks.whose(self.game, hook, lambda answer: self._refused(keys, answer),
                                    states=keys, labels=False)
            raise ModelError(f"game {self.game.name}: {hook}: {finding.what} "
                             f"({self.name(finding.place)})") from None

    def _refused(self, keys: np.ndarray, answer: Any) -> bool:
        """Whether the checks refuse ``answer``, a batch game's expansion of ``keys``: those
        of its sizes, then those of its numbers."""
        try:
            BlockChecks(self.game.name, "mdp_expand", "mdp_expand", self.game.objective.probability
                        ).check(keys, batch_answers.checked(self.game, keys, False, answer))
        except (ModelError, Finding):
            return True
        return False

    def _inexact(self, found: tuple[str, Place] | None, hook: str) -> str | None:
        """Who gave the float ``found`` (a rule plugin, where one made the state's answer
        so), what and where: ``"the game gave a float: value 0.5 (state 3)"``."""
        if found is None:
            return None
        who = self.game.floats_from or "the game"  # a rule plugin's hook the game asked?
        if self.discovery.objects is not None:  # one state's answer: a rule plugin's doing?
            key, label = found[1].named(self.game)
            asked = {"state": self.discovery.state(key)}
            asked.update({"action": label} if hook == "mdp_outcomes" else {})
            named = checks.whose(self.game, hook, checks.gives_float, **asked)
            who = who if named == hook else named
        return f"{who} gave a float: {found[0]} ({self.name(found[1])})"

    def add(self, block: Block) -> None:
        """Check a block and keep it compact. It runs beside discovery, which calls the game
        meanwhile: it calls no game hook itself, and says where a fault is as a
        :class:`~mdp.engine.places.Place`, named once it is raised by :meth:`finished`."""
        e, keys = block.expansion, block.keys
        n_actions, certain = self.checks.check(keys, e)
        # An entry that is no number was checked above if used; unused, it stays out of the
        # model's table (exact solving reads every entry there).
        ids = np.array([self.table.setdefault(p, len(self.table)) if fault(p) is None else -1
                        for p in e.probability_table], dtype=np.int64)
        terminal = e.action_counts == 0
        self._print_labels(keys, e)
        choices_only = certain == n_actions  # then one successor per action is all it takes
        if not choices_only:
            probabilities = narrow(ids[e.probabilities] if len(ids) else e.probabilities)
        self.stages.append(Stage(
            block.level, narrow(keys), terminal, narrow(e.action_counts[~terminal]),
            None if choices_only else narrow(e.outcome_counts),
            narrow(e.next_states),  # integers: batch_answers.expand saw to it
            None if choices_only else probabilities,
            e.terminal_values, certain, n_actions))

    def _print_labels(self, keys: np.ndarray, e: Any) -> None:
        """Keep the fingerprints of a batch block's labels, if the game gave them all."""
        if self.printed is None:
            return
        actions = [] if e.actions is None else e.actions
        if len(actions) != int(np.sum(e.action_counts)):
            self.printed = None  # some labels not given: none are checked
        else:
            self.printed.append((keys, label_prints(actions, e.action_counts)))

    def _label_prints(self, keys: np.ndarray) -> np.ndarray | None:
        """Per state of the model (``keys`` in its order), the fingerprint of its labels."""
        if self.discovery.label_prints is not None:
            return np.array(self.discovery.label_prints, dtype=np.int64)[keys]
        if not self.printed:
            return None
        known = np.concatenate([k for k, _ in self.printed]).astype(np.int64)
        prints = np.concatenate([p for _, p in self.printed])
        order = np.argsort(known, kind="stable")
        return prints[order][np.searchsorted(known[order], keys)]

    def compile(self, start: float) -> CompiledModel:
        """Number the states (terminal ones first, then level by level upwards) and join the
        blocks. Each block is dropped as soon as it is copied: the joined arrays and the
        blocks do not both fit in memory for the largest models."""
        stages = self.stages
        stages.sort(key=lambda s: -s.level)
        n_states = sum(len(s.kept_keys) for s in stages)
        n_certain = sum(s.certain for s in stages)
        n_actions = sum(s.n_actions for s in stages)
        sizes = (n_states, n_actions, n_actions - n_certain,
                 sum(len(s.next_states) for s in stages) - n_certain)
        index = np.int32 if max(sizes[0], sizes[2], sizes[3]) < 2**31 - 1 else np.int64
        lookup = Lookup(stages, n_states, index)
        keys, runs = number(stages, lookup, index)
        initial = int(lookup(np.array([self.discovery.initial]))[0])
        n_terminal = sum(run[1] for run in runs)
        transitions = Transitions(stages, sizes, index, self.table)
        freed = LARGE  # so the first trim hands back discovery's free pages too
        while stages:
            stage = stages.pop()
            release(freed)
            _, _, first, count = runs.pop()
            transitions.add(stage, first, count, lookup)
            freed = block_bytes(stage)
        states = keys if self.discovery.objects is None \
            else tuple(self.discovery.objects[k] for k in keys.tolist())
        prints = self._label_prints(keys)
        self.printed = None
        column_prints = None if self.discovery.column_prints is None \
            else np.array(self.discovery.column_prints, dtype=np.int64)[keys]
        terminal = join(transitions.terminal_values)
        if isinstance(terminal, np.ndarray):
            terminal = narrow(terminal)  # integers in the fewest bytes
        del lookup  # the key table is done with: free it before the columns are made
        release(LARGE)
        game = self.game
        return CompiledModel(
            states=states,
            layer_start=starts([n_terminal, *transitions.layer_sizes]),
            action_counts=transitions.action_counts,
            layer_action_start=starts([0, *transitions.layer_actions]),
            action_next=transitions.action_next,
            chance_start=np.cumsum(transitions.chance_start, out=transitions.chance_start),
            outcome_next=transitions.outcome_next,
            outcome_prob=transitions.outcome_prob,
            probabilities=tuple(self.table),
            initial=initial,
            terminal_values=terminal,
            terminal_columns={
                name: narrow(values) if isinstance(values, np.ndarray) else values
                for name, values in state_columns(game, states[:n_terminal], lazy=True,
                                                     prints=column_prints).items()},
            info=ModelInfo(game.name, game.variant, game.shown_params(), game.describe(),
                           game.objective, plugins_of(game), rule_plugins(game)),
            inexact=self._inexact(self.checks.inexact, self.checks.probability_hook),
            inexact_values=self._inexact(self.checks.inexact_value, self.checks.value_hook),
            tiny=None if self.checks.tiny is None else
            f"{self.checks.tiny[0]} ({self.name(self.checks.tiny[1])})",
            label_prints=prints,
            column_prints=column_prints,
            seconds=time.perf_counter() - start,
        )


def passed_turns(game: Game, model: CompiledModel) -> PassedTurns | None:
    """Ask the game which of a compiled model's transitions pass the turn; ``None`` for a
    game of one player (no :func:`~mdp.hookspecs.game.mdp_turns`). Refused: a ``total`` that
    takes a chance of winning out of 0 to 1 (any but 1, where the objective is a
    probability) or that no float holds, and an answer of ``passes`` other than one boolean
    per transition, naming the first transition without one."""
    turns = game.call("mdp_turns") if game.implements("mdp_turns") else None
    if turns is None:
        return None
    if not isinstance(turns, Turns):
        raise ModelError(f"game {game.name}: mdp_turns returned {turns!r}, not an mdp.Turns")
    if game.objective.probability and turns.total != 1:
        raise ModelError(f"game {game.name}: mdp_turns gave total={quoted(turns.total)}, but mdp_objective "
                         "says the values are probabilities: the mover's chance is one less the "
                         "other's, total=1")
    past = abs(Fraction(turns.total)) > FLOAT_MOST
    if past or below_floats(turns.total):  # (a float solve would take it as 0, or as inf)
        raise ModelError(f"game {game.name}: mdp_turns gave total={quoted(turns.total)}, "
                         f"{'past' if past else 'below'} what a float holds (about "
                         f"{'1.8e308' if past else '2.2e-308'}); a total is 0 or one a float holds")
    action, successor, _ = model.edges()
    state = model.action_state()[action]
    states = model.states
    if isinstance(states, np.ndarray):
        before, after = states[state], states[successor]
    else:
        before = [states[i] for i in state.tolist()]
        after = [states[i] for i in successor.tolist()]
    try:
        answer = turns.passes(read_only(before), read_only(after))
        flags = np.asarray(answer)
    except Exception as error:  # noqa: BLE001 - the game's fault, said in one line
        raise ModelError(f"game {game.name}: mdp_turns: passes raised {raised(error)}") from None
    if flags.shape != (len(action),) or flags.dtype != bool:
        raise ModelError(f"game {game.name}: mdp_turns: passes gave {flags.dtype} of shape "
                         f"{flags.shape}, not a boolean per transition ({len(action)})"
                         f"{_first_wrong(flags, before, after)}")
    certain = model.action_next >= 0
    counts = np.ones(model.n_actions, dtype=np.int64)
    counts[~certain] = np.diff(model.chance_start)
    of_outcome = np.repeat(~certain, counts)
    by_action = np.zeros(model.n_actions, dtype=bool)
    by_action[certain] = flags[~of_outcome]
    return PassedTurns(turns.total, by_action, flags[of_outcome])


def _first_wrong(flags: np.ndarray, before: Any, after: Any) -> str:
    """Where the answer of ``passes`` goes wrong first, in words: the first transition with
    no boolean (``"; the first: 'a' -> 'b' gave 2"``), or nothing where none is known."""
    if flags.ndim != 1:
        return ""
    at = next((i for i, flag in enumerate(flags.tolist()[:len(before)])
               if not isinstance(flag, bool)), min(len(flags), len(before)))
    if at >= len(before):
        return ""
    got = f"gave {quoted(flags[at].item() if isinstance(flags[at], np.generic) else flags[at])}" \
        if at < len(flags) else "has no answer"
    return f"; the first wrong: {said(before[at])} -> {said(after[at])} {got}"
