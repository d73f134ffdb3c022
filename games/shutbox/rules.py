"""The rules of a loaded game of Shut the Box: its :class:`~.box.Box`, with the moves, the
rolls, the choices of dice and the scoring rules that the game and its rule plugins give
(see :mod:`.hookspecs`), their answers checked where they enter."""

from __future__ import annotations

import functools
import math
import numbers
import reprlib

import attrs
import numpy as np

import mdp
from mdp.errors import PLUGIN_FAULTS, MdpError, fault
from mdp.game.names import WORD, typable
from mdp.handed import read_only
from mdp.shown import seen

from ..dice import counted_dice
from .box import Box
from .scoring import ScoringRule


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
        answer = game.answer("shutbox_moves", lambda got: _masks(got, full, total)[1],
                             total=total, kind=kind)
        return np.sort(_masks(answer, full, total)[0])[::-1]

    return moves


def _masks(answer, full: int, total: int) -> tuple[np.ndarray | None, str | None]:
    """The moves a shutbox_moves hook returned on a roll of ``total``, as an array, or what
    is wrong with them: each a mask of tiles (1 to ``full``), none twice."""
    if not isinstance(answer, (list, tuple, np.ndarray)):
        return None, f"returned {reprlib.repr(answer)}, not a list of masks of tiles (total {total})"
    for mask in answer:
        if not isinstance(mask, (int, np.integer)) or isinstance(mask, bool) or not 0 < mask <= full:
            return None, (f"returned {mask!r} among its moves, not a mask of tiles from 1 to "
                          f"{full} (total {total})")
    masks = np.array(answer, dtype=np.int64)
    twice = np.flatnonzero(np.bincount(masks) > 1) if len(masks) else ()
    if len(twice):
        return None, f"returned the mask {int(twice[0])} twice: each move once (total {total})"
    return masks, None


def _checked(game: mdp.Game, rule):
    """A scoring rule whose values are checked to be one per final position, and blamed on
    the plugin that offers the rule where they are not (or where the rule raises)."""

    floated: set[str] = set()

    def values(b: Box, masks: np.ndarray):
        try:
            got = rule.values(b, read_only(masks))  # a rule that writes into them raises
            problem, at = _values_fault(got, len(masks), rule.probability)
        except MdpError:
            raise
        except PLUGIN_FAULTS as error:  # a plugin's fault (anything it raises), in one line
            problem, at = f"raised {fault(error)}", None
        if problem is None:
            if "floats" not in floated and _floats(got):  # exact solving refused names the rule
                floated.add("floats")
                plugin = game.blame("shutbox_scoring_rules", lambda groups: _offers(groups, rule.name))
                if plugin:
                    game.memo("floats", lambda: f"plugin {plugin}'s scoring rule {rule.name}")
            return got
        plugin = game.blame("shutbox_scoring_rules", lambda groups: _offers(groups, rule.name))
        whose = f" of plugin {plugin}" if plugin else ""
        first = _position(b, int(masks[0])) if len(masks) else ""
        where = f" ({first})" if len(masks) == 1 else f" (the first: {first})" if len(masks) else ""
        none = " for no final position (asked first about none, to check its answer)" \
            if problem.startswith("gave ") else ""  # (values where none was asked for)
        count = none if not len(masks) else " for 1 final position" if len(masks) == 1 \
            else f" for {len(masks):,} final positions"
        if at is not None:  # the position of the value at fault
            where, count = f" ({_position(b, int(masks[at]))})", ""
        raise mdp.ModelError(f"game {game.name}: scoring rule {rule.name}{whose} {problem}{count}{where}")

    return attrs.evolve(rule, values=values)


def _floats(values) -> bool:
    """Whether a scoring rule's values hold a float."""
    if isinstance(values, np.ndarray) and values.dtype != object:
        return values.dtype.kind == "f"
    return any(isinstance(v, float | np.floating) for v in values)


def _position(b: Box, mask: int) -> str:
    """A final position in words: ``open 1 3``, or ``every tile shut``."""
    return f"open {' '.join(map(str, b.open_tiles(mask)))}" if mask else "every tile shut"


def _values_fault(got, count: int, chances: bool) -> tuple[str | None, int | None]:
    """What is wrong with a scoring rule's values for ``count`` final positions, and the
    place of the value at fault, or ``None``: one number per position (an int, a fraction
    or a finite float; not a bool), from 0 to 1 where the rule says they are ``chances``."""
    size = len(got) if hasattr(got, "__len__") and not isinstance(got, str | bytes) else None
    if size is None:
        return f"returned {reprlib.repr(got)}, not a value per position", None
    if size != count:
        return f"gave {size:,} value{'s' * (size != 1)}", None
    if isinstance(got, np.ndarray) and got.ndim != 1:
        return f"gave an array of shape {got.shape}, not one value per position", None
    integers = isinstance(got, np.ndarray) and got.dtype.kind in "iu"
    if integers and not chances:
        return None, None
    values = got.tolist() if isinstance(got, np.ndarray) else list(got)
    at = None if integers else next((i for i, v in enumerate(values) if not _number(v)), None)
    if at is not None:
        return (f"gave the value {reprlib.repr(values[at])}, not a number (an int, a "
                "fraction or a finite float)"), at
    at = next((i for i, v in enumerate(values) if not 0 <= v <= 1), None) if chances else None
    if at is None:
        return None, None
    return (f"gave the value {values[at]}, not from 0 to 1 though the rule says "
            "its values are probabilities"), at


def _offers(groups, name: str) -> bool:
    """Whether answers of shutbox_scoring_rules offer a rule named ``name``."""
    return any(getattr(rule, "name", None) == name for group in groups or ()
               if isinstance(group, (list, tuple)) for rule in group)


def _rolls(game: mdp.Game, dice: int) -> list:
    """The shutbox_rolls hook's answer for ``dice`` dice, checked (:func:`_rolls_fault`)."""
    low, high = dice, dice * game.params["faces"]
    answer = game.answer("shutbox_rolls", lambda got: _rolls_fault(got, dice, low, high), dice=dice)
    return [(p, int(total), kind) for p, total, kind in answer]


def _rolls_fault(answer, dice: int, low: int, high: int) -> str | None:
    """What is wrong with an answer of shutbox_rolls for ``dice`` dice, or ``None``: a list of
    ``(probability, total, kind)``, a total from ``low`` to ``high``, a probability above 0,
    the kind ``None`` or a word (as the user types it, ``kind=double``), the probabilities
    adding up to 1."""
    throw = counted_dice(dice)
    if not isinstance(answer, (list, tuple)) or not answer:
        return f"returned {reprlib.repr(answer)} for {throw}; expected a list of (probability, total, kind)"
    for entry in answer:
        expected = (f"gave {entry!r} for {throw}; expected (probability, total, kind) with a total "
                    f"from {low} to {high}, a probability above 0 and a kind None or {WORD}")
        if not (isinstance(entry, tuple | list) and len(entry) == 3):
            return expected
        p, total, kind = entry
        if not (isinstance(total, numbers.Integral) and not isinstance(total, bool)
                and low <= total <= high and _number(p) and p > 0
                and (kind is None or typable(kind, word=True))):  # typed as kind=KIND
            return expected
    kinds: dict[str, str] = {}  # the kinds the user types (kind=KIND): none two alike
    for _, _, kind in answer:
        if kind is not None and kinds.setdefault(seen(kind), kind) != kind:
            return (f"gave the roll kinds {kinds[seen(kind)]!r} and {kind!r} for {throw}, which "
                    "read alike; give each kind a name of its own")
    narrow = next((p for p, _, _ in answer if isinstance(p, np.floating)
                   and np.finfo(p.dtype).precision < np.finfo(np.float64).precision), None)
    if narrow is not None:  # rounded already, past what the sum's check can see
        return (f"gave the probability {narrow!r} for {throw}, a {narrow.dtype} of "
                f"{np.finfo(narrow.dtype).precision} digits; a probability is an int, a fraction "
                "or a float of 64 bits")
    exact = all(isinstance(p, numbers.Rational) for p, _, _ in answer)
    whole = sum(p for p, _, _ in answer) if exact else math.fsum(float(p) for p, _, _ in answer)
    if whole != 1 if exact else abs(whole - 1) > 1e-9:
        return f"gave probabilities that add up to {whole} for {throw}, not 1"
    return None


def _number(value) -> bool:
    """Whether ``value`` is a number: an int, a fraction or a finite float; not a bool."""
    return (isinstance(value, numbers.Rational) and not isinstance(value, bool | np.bool_)
            or isinstance(value, float | np.floating) and bool(np.isfinite(value)))


def _dice_options(game: mdp.Game, b: Box, masks: np.ndarray) -> np.ndarray:
    """The shutbox_dice_options hook's answer for ``masks``, checked: a row per mask, each
    with one number of dice or more, from 1 to the most the parameters roll, none twice,
    the usual number first and 0 only after the last."""
    answer = game.answer("shutbox_dice_options", lambda got: _options_fault(got, b, masks),
                         box=b, masks=masks)
    options = np.asarray(answer)
    return options if options.ndim == 2 else np.zeros((0, 1), dtype=np.int64)


def _options_fault(answer, b: Box, masks: np.ndarray) -> str | None:
    """What is wrong with an answer of shutbox_dice_options, or ``None``."""
    options = np.asarray(answer) if isinstance(answer, (list, tuple, np.ndarray)) else None
    if options is not None and not len(masks) and not options.size:
        return None
    if options is None or options.shape[:1] != (len(masks),) or options.ndim != 2 \
            or options.dtype.kind not in "iu":
        got = f"an array of shape {options.shape} and type {options.dtype}" \
            if isinstance(answer, np.ndarray) else reprlib.repr(answer)
        return (f"gave {got} for {len(masks)} mask{'s' * (len(masks) != 1)}; expected integers, "
                "a row per mask (a 2-D array)")
    if not len(masks) and not options.size:
        return None
    zero = options == 0
    bad = ((options < 0) | (options > b.most_dice)).any(axis=1) | zero[:, 0]
    bad |= (np.maximum.accumulate(zero, axis=1) & ~zero).any(axis=1)  # a number after a 0
    if options.shape[1] > 1:
        ordered = np.sort(options, axis=1)
        bad |= ((ordered[:, 1:] == ordered[:, :-1]) & (ordered[:, 1:] != 0)).any(axis=1)
    if not bad.any():
        return None
    at = int(np.flatnonzero(bad)[0])
    return (f"gave dice {options[at].tolist()} (open {' '.join(map(str, b.open_tiles(int(masks[at]))))}); "
            f"give each state one number of dice or more, from 1 to {b.most_dice} (the most the "
            "parameters roll), none twice, the usual number first, 0 for no more after the last")


def scoring_rules(game: mdp.Game) -> dict:
    """Every scoring rule on offer, the game's own first (pluggy answers newest first); a
    rule whose name is not one word (empty, or with a comma or a space), or is another's,
    refused, blamed on the plugin that offers it: a rule of the same name would replace the
    other without a word, and --set scoring=NAME could not tell them apart."""
    rules = {}
    for rule in (r for group in reversed(game.plugins.hook.shutbox_scoring_rules()) for r in group):
        problem = _rule_fault(rule, rules)
        if problem:
            plugin = game.blame("shutbox_scoring_rules", _clash)
            whose = f"plugin {plugin}'s " if plugin else ""
            offered = f"a scoring rule named {rule.name!r}" if _a_rule(rule) \
                else reprlib.repr(rule)
            raise mdp.ModelError(f"game {game.name}: {whose}shutbox_scoring_rules offers "
                                 f"{offered}, {problem}")
        rules[rule.name] = rule
    return rules


def _a_rule(rule) -> bool:
    """Whether ``rule`` is a ScoringRule: of this game's class, or of the same class loaded
    under another name (the game loaded from its folder, beside an installed plugin that
    imports ``mdp_games.shutbox.scoring``: two modules of one file, two classes alike)."""
    kind = type(rule)
    return isinstance(rule, ScoringRule) or kind.__name__ == ScoringRule.__name__ and \
        attrs.has(kind) and [f.name for f in attrs.fields(kind)] == \
        [f.name for f in attrs.fields(ScoringRule)]


def _rule_fault(rule, taken) -> str | None:
    """What is wrong with a scoring rule (its kind, its texts, its sense, its name beside the
    names ``taken`` already)."""
    if not _a_rule(rule):
        return "not a ScoringRule (mdp_games.shutbox.scoring)"
    for field in ("objective", "help"):  # each shown on a line of its own
        text = getattr(rule, field)
        if not isinstance(text, str) or not text.isprintable():
            return f"whose {field} is {reprlib.repr(text)}, not one line of text"
    name = getattr(rule, "name", None)
    if getattr(rule, "sense", None) not in ("max", "min"):
        return f"with sense {getattr(rule, 'sense', None)!r}: a rule's sense is 'max' or 'min'"
    if not isinstance(name, str) or not name or any(c == "," or c.isspace() for c in name):
        return "not a name: give a word without commas or spaces, such as 'count'"
    if not getattr(rule, "objective", ""):  # what the value means, as the tables say it
        return "with no objective: say what the value is, such as 'expected final score'"
    if name in taken:
        return "as another rule is: give each scoring rule a name of its own"
    return None


def _clash(groups) -> bool:
    """Whether some answer of shutbox_scoring_rules (newest first) is at fault."""
    taken: set = set()
    for group in reversed(groups or []):
        for rule in group if isinstance(group, (list, tuple)) else ():
            if _rule_fault(rule, taken):
                return True
            taken.add(getattr(rule, "name", None))
    return False
