"""A compiled model as a PRISM MDP, for probabilistic model checkers (PRISM, Storm).

The model is written state by state: one variable ``s``, the state ids of the
:class:`~mdp.CompiledModel` (terminal states first), one command per action, labelled
``a0``, ``a1``, ... within its state. The label ``"done"`` holds in the terminal states, each
of which loops on itself. The reward structure ``"value"`` pays on each action the expected
terminal value of those of its outcomes that end the game, so that the expected total reward
until ``"done"``, ``Rmax=? [ F "done" ]`` (``Rmin`` for a minimizing game), is the value of
the initial state under optimal play. PRISM's rewards belong to commands, not to single
outcomes, hence the expectation; by linearity it adds up to the same value. A game whose
initial state is terminal gets one more state, the start, whose one action leads to it and
pays its value.

Numbers are written as the game gave them: ``p/q`` for fractions, so that an exact model
checker (Storm's exact mode) computes the very value of ``mdp solve --exact``. Refused, in one
line: a number whose integers pass the 64 bits PRISM and Storm read (an expectation of
large values, say), and, for ``Rmax``, a game where some play may go round for ever, never
ending: PRISM counts such a play as worth infinity, where mdp takes the best play that ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import attrs
import numpy as np

from mdp.engine.cycles_ending import staying
from mdp.engine.model import CompiledModel
from mdp.errors import ParamError, said
from mdp.outputs.files import check_target, write_together
from mdp.shown import one_line

REWARDS = "value"
LABEL = "done"


@attrs.frozen
class PrismModel:
    """The text of a PRISM model and of the property whose value is the game's value."""

    model: str
    properties: str


def prism_property(sense: str) -> str:
    """The property that gives the value: ``Rmax=? [ F "done" ]`` or ``Rmin=...``."""
    return f'R{sense}=? [ F "{LABEL}" ]'


def to_prism(model: CompiledModel, sense: str | None = None) -> PrismModel:
    """``model`` as a PRISM MDP with explicit states, and its property (see the module)."""
    model = model.single("a PRISM model")
    if model.turns is not None:  # PRISM's MDP has one player: the mover's view would be lost
        raise ParamError(f"game {model.info.game}: two players take turns at it, and a PRISM "
                         "MDP has one player; it is not exported")
    sense = sense or model.info.objective.sense
    stays = staying(model) if sense == "max" else None
    if stays is not None:  # (Rmin never takes such a play: it is worth infinity there too)
        raise ParamError(f"game {model.info.game}: from state {said(model.states[stays])} a "
                         "play may go round for ever, which PRISM's Rmax counts as worth "
                         "infinity, where mdp takes the best play that ends; it is not exported")
    try:
        return _prism(model, sense)
    except _TooWide as error:
        raise ParamError(f"game {model.info.game}: the PRISM model would hold the number "
                         f"{error}, whose integers pass the 64 bits PRISM and Storm read; it is "
                         "not exported") from None


class _TooWide(Exception):
    """A number whose numerator or denominator passes 64 bits (signed), which PRISM's and
    Storm's parsers refuse: its text."""


def _prism(model: CompiledModel, sense: str) -> PrismModel:
    exact = model.inexact is None and model.inexact_values is None
    n, n_terminal, initial = model.n_states, model.n_terminal, model.initial
    values = _numbers(model.terminal_values, exact)
    probabilities = [_number(p, exact) for p in model.probabilities]
    texts = [_text(p) for p in probabilities]

    action, successor, probability = model.edges()
    # Each action's expected terminal value, over the outcomes that end the game.
    rewards: dict[int, Any] = {}
    for a, t, p in zip(*(x[successor < n_terminal].tolist() for x in (action, successor, probability))):
        term = values[t] if p < 0 else probabilities[p] * values[t]
        rewards[a] = rewards.get(a, 0) + term

    state = model.action_state()
    index = model.action_rank()
    starts = np.searchsorted(action, np.arange(model.n_actions + 1))
    successor_text = successor.tolist()
    probability_ids = probability.tolist()
    commands, reward_items = [], []
    for a, (s, k) in enumerate(zip(state.tolist(), index.tolist())):
        o0, o1 = int(starts[a]), int(starts[a + 1])
        if probability_ids[o0] < 0:
            update = f"(s'={successor_text[o0]})"
        else:
            update = " + ".join(f"{texts[probability_ids[o]]}:(s'={successor_text[o]})"
                                for o in range(o0, o1))
        commands.append(f"  [a{k}] s={s} -> {update};")
        if rewards.get(a, 0) != 0:
            reward_items.append(f"  [a{k}] s={s} : {_text(rewards[a])};")

    start = initial
    if initial < n_terminal:  # a game over before it starts: a start state pays its value
        start = n
        commands.append(f"  [a0] s={n} -> (s'={initial});")
        if values[initial] != 0:
            reward_items.append(f"  [a0] s={n} : {_text(values[initial])};")

    lines = [*_header(model, sense), "mdp", "", "module game",
             f"  s : [0..{max(start, n - 1)}] init {start};",
             f"  [] s<{n_terminal} -> true; // the terminal states: the game is over",
             *commands, "endmodule", "",
             f'label "{LABEL}" = s<{n_terminal};', "",
             f'rewards "{REWARDS}"', *(reward_items or ["  true : 0;"]), "endrewards", ""]
    return PrismModel("\n".join(lines), prism_property(sense) + "\n")


def write_prism(model: CompiledModel, path: str, sense: str | None = None) -> tuple[str, str]:
    """Write ``to_prism(model)`` to ``path`` and its property to ``path + ".props"``, both
    whole or neither; return the two paths."""

    props = path + ".props"
    for target in (path, props):
        check_target(target)
    prism = to_prism(model, sense)
    write_together([(path, lambda file: file.write(prism.model.encode())),
                    (props, lambda file: file.write(prism.properties.encode()))])
    return path, props


def _header(model: CompiledModel, sense: str) -> list[str]:
    info = model.info
    params = ", ".join(f"{k}={v}" for k, v in _shown(info.params).items()) or "none"
    aim = {"max": "maximized", "min": "minimized"}[sense]
    lines = [f"game {info.game}" + (f", variant {info.variant}" if info.variant else ""),
             *info.rules.splitlines(),
             f"parameters: {params}",
             *([f"rule plugins: {', '.join(info.rule_plugins)}"] if info.rule_plugins else []),
             f"value: {info.objective.name}, {aim}: {prism_property(sense)}",
             f"{model.n_states:,} states, numbered as mdp numbers them; the {model.n_terminal:,} "
             f'terminal ones (ids below {model.n_terminal}) are labelled "{LABEL}".',
             f'The reward structure "{REWARDS}" pays on each action the expected terminal value '
             "of its outcomes that end the game.",
             "Written by mdp export (exact-mdp)."]
    # Each a comment of one line: a control character in a name (a plugin's path) as its
    # escape, never a line break that ends the comment and writes PRISM of its own.
    return [f"// {one_line(line)}" for line in lines] + [""]


def _shown(params: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in params.items() if v is not None}


def _numbers(values: Any, exact: bool) -> list[Any]:
    if isinstance(values, np.ndarray):
        values = values.tolist()
    return [_number(v, exact) for v in values]


def _number(x: Any, exact: bool) -> Any:
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, bool):
        x = int(x)
    if not exact:
        return float(x)
    return x if isinstance(x, int) else Fraction(x)


def _text(x: Any) -> str:
    """A number as PRISM reads it: ``3``, ``1/6``, ``-5/2``, ``0.1``; :class:`_TooWide` past
    its integers (``-2**63`` too, read as the minus of ``2**63``)."""
    if isinstance(x, float):
        return repr(x)
    x = Fraction(x)
    text = str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
    if max(abs(x.numerator), x.denominator) >= 2**63:
        raise _TooWide(text)
    return text
