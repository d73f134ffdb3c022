"""Model exports: a compiled model written for another tool (PRISM, say).

Exports are offered through the hook :func:`~mdp.hookspecs.program.mdp_exports` (the
built-in PRISM one too) and chosen by name with ``mdp export --format NAME``
(:func:`mdp.exports`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

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
