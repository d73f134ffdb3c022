"""Named rule sets of a game: declared by hooks, often read from a TOML file."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from mdp.checks import PATH, arguments
from mdp.errors import ModelError, ParamError, did_you_mean

if TYPE_CHECKING:
    from mdp.game.params import Param


@attrs.frozen
class Variant:
    """A named rule set of a game: parameter values as text, as ``--set`` takes them."""

    name: str
    params: Mapping[str, str] = attrs.field(factory=dict, converter=dict)
    rules: str = ""
    """The rules in a few words, for people: a variant without them is refused."""


def read_variants(path: str | os.PathLike[str]) -> list[Variant]:
    """The variants in a TOML file, in file order: one table per variant, with ``rules`` (text)
    and ``params`` (an inline table of parameter values)::

        [short]
        rules = "two rounds instead of three"
        params = { rounds = "2" }
    """
    arguments("read_variants", path=(path, PATH))
    import tomllib  # here, not at the top: solving needs no variants, and start-up counts

    try:
        with open(path, "rb") as file:
            table = tomllib.load(file)
    except (OSError, ValueError) as error:  # no such file; not TOML (TOMLDecodeError), not UTF-8
        raise ModelError(f"variants {os.fspath(path)}: {error}") from None
    wrong = [name for name, entry in table.items()
             if not isinstance(entry, dict) or not isinstance(entry.get("params", {}), dict)]
    if wrong:
        raise ModelError(f"variants {os.fspath(path)}: {wrong[0]!r} is not a table of rules and "
                         "params, like [short] rules = \"...\" params = { rounds = \"2\" }")
    return [Variant(name, {key: str(value) for key, value in entry.get("params", {}).items()},
                    entry.get("rules", "")) for name, entry in table.items()]


def find_variant(game: str, variants: list[Variant], wanted: str) -> Variant:
    """The variant named ``wanted``; a :class:`~mdp.ParamError` with a hint if there is none."""
    by_name = {variant.name: variant for variant in variants}
    if wanted in by_name:
        return by_name[wanted]
    if not by_name:
        raise ParamError(f"game {game} has no named variants")
    raise ParamError(f"unknown variant {wanted!r} for game {game}"
                     f"{did_you_mean(wanted, by_name, n=3)} (known: {', '.join(by_name)})")


def as_set(params: Mapping[str, Any]) -> dict[str, Any]:
    """A variant's parameters as ``--set`` gives them: text without spaces at either end."""
    return {key: value.strip() if isinstance(value, str) else value for key, value in params.items()}


def variants_fault(variants: Iterable[Variant], declared: Iterable[Param]) -> str | None:
    """What is wrong with the variants of ``mdp_variants``, or ``None``: one that sets a
    parameter the game does not have or a value its parser refuses (but the empty text, which
    sets a parameter unset by default back to unset, as ``--set KEY=`` does). Checked where the game
    is loaded, so that every command finds it, not only the ones that read the variants;
    blamed on the plugin that offers the variant (:func:`mdp.game.plugins.collect`)."""
    from mdp.game.params import parsed

    by_name = {param.name: param for param in declared}
    for variant in variants:
        for key, value in as_set(variant.params).items():
            if key not in by_name:
                known = ", ".join(by_name) or "none"
                return (f"gives variant {variant.name!r} the parameter {key!r}, which the game "
                        f"does not have (its parameters: {known})")
            param = by_name[key]
            try:
                parsed("", param, value)
            except (ValueError, TypeError, ParamError) as error:
                if value == "" and param.default is None and not param.repeat:
                    continue  # unset, as --set KEY= sets it back
                return (f"gives variant {variant.name!r} {key}={value}, which its parser "
                        f"refuses: {error}")
            except ModelError as error:  # the parser's own fault, as it read the value
                return f"gives variant {variant.name!r} {key}={value}; {str(error).removeprefix(': ')}"
    return None


def of_variant(error: ParamError, variant: str | None, own: Mapping[str, object],
               by: str | None = None) -> ParamError:
    """``error``, the game's own check refusing its parameters, naming the ``variant`` where
    the parameter refused is one it set and the caller did not set again (``own``): the
    user typed none of it (``variant zero (rolls=0): parameter rolls=0: ...``), and the rule
    plugin that declared it (``by``: ``variant zero of plugin house.py (rolls=0)``). As it is
    where the caller's own parameter is refused, or the game's check named the variant."""
    named = re.match(r"parameter ([^=\s]+)=", str(error))  # as refusals begin, by custom
    if variant is None or not own or f"variant {variant}" in str(error) or \
            named and named[1] not in own:
        return error
    return ParamError(f"variant {variant}{f' of {by}' if by else ''} "
                      f"({', '.join(f'{k}={v}' for k, v in own.items())}): {error}")
