"""Game parameters: declaration and resolution."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any

import attrs

from mdp.errors import ParamError


@attrs.frozen
class Param:
    """One parameter of a game or rule plugin.

    ``parse`` turns a value into the parameter's type and checks it: it receives either the
    text given on the command line (``"1-9"``) or a Python value (``range(1, 10)``) and raises
    :class:`ValueError` with a message that says what is allowed. ``default`` is already
    parsed. ``show`` renders a value for people and JSON output (default: the value itself).
    """

    name: str
    default: Any
    parse: Callable[[Any], Any]
    help: str = ""
    show: Callable[[Any], Any] | None = None

    def shown(self, value: Any) -> Any:
        """``value`` as people and JSON see it, as ``--set`` takes it back."""
        return value if self.show is None else self.show(value)


def resolve(game: str, declared: Iterable[Param], given: Mapping[str, Any]) -> Mapping[str, Any]:
    """Return every declared parameter's value: its default, or the given value parsed."""
    by_name: dict[str, Param] = {}
    for param in declared:
        if param.name in by_name:
            raise ParamError(f"game {game}: parameter {param.name!r} is declared twice")
        by_name[param.name] = param
    for key in given:
        if key not in by_name:
            known = ", ".join(sorted(by_name)) or "none"
            raise ParamError(f"unknown parameter {key!r} for game {game} (known: {known})")
    values = {}
    for name, param in by_name.items():
        if name not in given:
            values[name] = param.default
            continue
        try:
            values[name] = param.parse(given[name])
        except (ValueError, TypeError) as error:
            raise ParamError(f"parameter {name}={given[name]}: {error}") from None
    return MappingProxyType(values)


def parse_assignments(items: Iterable[str]) -> dict[str, str]:
    """Parse ``KEY=VALUE`` strings (as given to ``--set``) into a dict; later ones win."""
    result = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ParamError(f"--set {item!r}: expected KEY=VALUE")
        result[key.strip()] = value.strip()
    return result
