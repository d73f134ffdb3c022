"""Model exports: a compiled model written for another tool (PRISM, say).

Exports are offered through the hook :func:`~mdp.hookspecs.program.mdp_exports` (the
built-in PRISM one too) and chosen by name with ``mdp export --format NAME``
(:func:`mdp.exports`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from mdp.hookspecs import hookimpl

if TYPE_CHECKING:
    from mdp.engine.model import CompiledModel


class Export(NamedTuple):
    """A way to write a compiled model for another tool: ``mdp export --format NAME``.

    ``write(model, path)`` writes the model to ``path`` (and any file beside it), all whole
    or none at all (:func:`mdp.outputs.files.write_together`), and returns the paths
    written, ``path`` first. (A named tuple: ``mdp --help`` lists the exports, and an attrs
    class would cost every start its definition.)
    """

    name: str
    help: str
    write: Callable[[CompiledModel, str], Sequence[str]]
    beside: tuple[tuple[str, str], ...] = ()
    """The files written beside ``path``, as ``(suffix, what it holds)``: PRISM's is
    ``((".props", "the property"),)``. ``mdp export`` checks that each can be written before
    any work, and names them in the line it prints."""


# mdp's own export, a built-in plugin.


def _write_prism(model: CompiledModel, path: str) -> list[str]:
    # Here, not at the top: PRISM's writer needs numpy, which listing the exports does not.
    from mdp.outputs.prism import write_prism

    return list(write_prism(model, path))


@hookimpl
def mdp_exports() -> list[Export]:
    return [Export("prism", "a PRISM MDP with explicit states, and its property in FILE.props",
                   _write_prism, ((".props", "the property"),))]
