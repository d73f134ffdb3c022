"""The rules of a loaded game of Shut the Box: its :class:`~.box.Box`, with the moves, the
rolls, the choices of dice and the scoring rules that the game and its rule plugins give
(see :mod:`.hookspecs`), their answers checked where they enter."""

from __future__ import annotations

import functools
import numbers
import reprlib

import attrs
import numpy as np

import mdp

from .box import Box


def box(game: mdp.Game) -> Box:
    """The rules of a loaded game, with their lookup tables (made once per rule set)."""
    return game.memo("shutbox.box", lambda: Box.of(
        game.params, scoring=_checked(game, scoring_rules(game)[game.params["scoring"]]),
        moves=_moves(game), rolls_of=functools.partial(_rolls, game),
        options=functools.partial(_dice_options, game)))


def _moves(game: mdp.Game):
    """``(total, kind) -> masks`` from the shutbox_moves hook (which plugins wrap), once per
    roll, in the game's order of moves: the highest tile first (masks descending: 9, 1 8,
    2 7, 3 6, 1 2 6, ...). Where several moves are optimal, the engine's default tie rule
    takes the first."""

    full = (1 << len(game.params["tiles"])) - 1

    @functools.cache
    def moves(total: int, kind) -> np.ndarray:
        answer = game.call("shutbox_moves", total=total, kind=kind)
        masks, problem = _masks(answer, full)
        if problem:
            plugin = game.blame("shutbox_moves", lambda other: _masks(other, full)[1] is not None,
                                total=total, kind=kind)
            whose = f"plugin {plugin}'s " if plugin else ""
            raise mdp.ModelError(f"game {game.name}: {whose}shutbox_moves {problem} (total {total})")
        return np.sort(masks)[::-1]

    return moves


def _masks(answer, full: int) -> tuple[np.ndarray | None, str | None]:
    """The moves a shutbox_moves hook returned, as an array, or what is wrong with them: each
    a mask of tiles (1 to ``full``), none twice."""
    if not isinstance(answer, (list, tuple, np.ndarray)):
        return None, f"returned {reprlib.repr(answer)}, not a list of masks of tiles"
    for mask in answer:
        if not isinstance(mask, (int, np.integer)) or isinstance(mask, bool) or not 0 < mask <= full:
            return None, f"returned {mask!r} among its moves, not a mask of tiles from 1 to {full}"
    masks = np.array(answer, dtype=np.int64)
    twice = np.flatnonzero(np.bincount(masks) > 1) if len(masks) else ()
    if len(twice):
        return None, f"returned the mask {int(twice[0])} twice: each move once"
    return masks, None


def _checked(game: mdp.Game, rule):
    """A scoring rule whose values are checked to be one per final position, and blamed on
    the plugin that offers the rule where they are not (or where the rule raises)."""

    def values(b: Box, masks: np.ndarray):
        try:
            got = rule.values(b, masks)
            size = len(got) if hasattr(got, "__len__") else None
            problem = None if size == len(masks) else \
                f"returned {reprlib.repr(got)}, not a value per position" if size is None \
                else f"gave {size:,} value{'s' * (size != 1)}"
        except MemoryError:
            raise
        except Exception as error:  # noqa: BLE001  (a plugin's fault, said in one line)
            problem = f"raised {type(error).__name__}: {error}"
        if problem is None:
            return got
        plugin = game.blame("shutbox_scoring_rules", lambda groups: _offers(groups, rule.name))
        whose = f" of plugin {plugin}" if plugin else ""
        first = " ".join(map(str, b.open_tiles(int(masks[0])))) if len(masks) else ""
        first = f"open {first}" if first else "every tile shut"
        where = f" ({first})" if len(masks) == 1 else f" (the first: {first})" if len(masks) else ""
        count = "" if not len(masks) else " for 1 final position" if len(masks) == 1 \
            else f" for {len(masks):,} final positions"
        raise mdp.ModelError(f"game {game.name}: scoring rule {rule.name}{whose} {problem}{count}{where}")

    return attrs.evolve(rule, values=values)


def _offers(groups, name: str) -> bool:
    """Whether answers of shutbox_scoring_rules offer a rule named ``name``."""
    return any(getattr(rule, "name", None) == name for group in groups or ()
               if isinstance(group, (list, tuple)) for rule in group)


def _rolls(game: mdp.Game, dice: int) -> list:
    """The shutbox_rolls hook's answer for ``dice`` dice, each roll's total checked."""
    answer = list(game.call("shutbox_rolls", dice=dice))
    low, high = dice, dice * game.params["faces"]
    for entry in answer:
        if not (isinstance(entry, tuple | list) and len(entry) == 3
                and isinstance(entry[1], numbers.Integral) and low <= entry[1] <= high):
            raise mdp.ModelError(f"game {game.name}: shutbox_rolls gave {entry!r} for {dice} "
                                 f"{'die' if dice == 1 else 'dice'}; expected (probability, total, "
                                 f"kind) with a total from {low} to {high}")
    return [(p, int(total), kind) for p, total, kind in answer]


def _dice_options(game: mdp.Game, b: Box, masks: np.ndarray) -> np.ndarray:
    """The shutbox_dice_options hook's answer for ``masks``, checked: a row per mask, each
    with one number of dice or more, from 1 to the most the parameters roll, none twice."""
    options = np.asarray(game.call("shutbox_dice_options", box=b, masks=masks))
    if options.shape[:1] != (len(masks),) or options.ndim != 2 or options.dtype.kind not in "iu":
        raise mdp.ModelError(f"game {game.name}: shutbox_dice_options gave an array of shape "
                             f"{options.shape} and type {options.dtype} for {len(masks)} masks; "
                             "expected integers, a row per mask")
    bad = ((options < 0) | (options > b.most_dice)).any(axis=1) | (options == 0).all(axis=1)
    if options.shape[1] > 1:
        ordered = np.sort(options, axis=1)
        bad |= ((ordered[:, 1:] == ordered[:, :-1]) & (ordered[:, 1:] != 0)).any(axis=1)
    if bad.any():
        at = int(np.flatnonzero(bad)[0])
        raise mdp.ModelError(
            f"game {game.name}: shutbox_dice_options gave dice {options[at].tolist()} (open "
            f"{' '.join(map(str, b.open_tiles(int(masks[at]))))}); give each state one number of "
            f"dice or more, from 1 to {b.most_dice} (the most the parameters roll), none twice, "
            "0 for no more")
    return options


def scoring_rules(game: mdp.Game) -> dict:
    """Every scoring rule on offer, the game's own first (pluggy answers newest first); a
    rule whose name is not one word (empty, or with a comma or a space), or is another's,
    refused, blamed on the plugin that offers it: a rule of the same name would replace the
    other without a word, and --set scoring=NAME could not tell them apart."""
    rules = {}
    for rule in (r for group in reversed(game.plugins.hook.shutbox_scoring_rules()) for r in group):
        problem = _name_fault(rule.name, rules)
        if problem:
            plugin = game.blame("shutbox_scoring_rules", lambda groups: _clash(groups) is not None)
            whose = f"plugin {plugin}'s " if plugin else ""
            raise mdp.ModelError(f"game {game.name}: {whose}shutbox_scoring_rules offers a scoring "
                                 f"rule named {rule.name!r}, {problem}")
        rules[rule.name] = rule
    return rules


def _name_fault(name, taken) -> str | None:
    """What is wrong with a scoring rule's name, beside the names ``taken`` already."""
    if not isinstance(name, str) or not name or any(c == "," or c.isspace() for c in name):
        return "not a name: give a word without commas or spaces, such as 'count'"
    if name in taken:
        return "as another rule is: give each scoring rule a name of its own"
    return None


def _clash(groups) -> str | None:
    """The first faulty name among answers of shutbox_scoring_rules (newest first)."""
    taken: set = set()
    for group in reversed(groups or []):
        for rule in group if isinstance(group, (list, tuple)) else ():
            name = getattr(rule, "name", None)
            if _name_fault(name, taken):
                return name
            taken.add(name)
    return None
