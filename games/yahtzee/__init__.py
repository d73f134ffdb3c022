"""Yahtzee, one turn or the whole game: roll five dice up to three times, keeping any between rolls.

After each roll but the last the player keeps any of the dice and rerolls the others, or
keeps them all and stops. The target is a parameter: the chance of five of a kind (a
"Yahtzee"), of a large or small straight, of a full house, of at least N of a kind, or the
expected score of one scoring category. With a score card (``card=yahtzee``, or Yatzy's),
the game is the whole game, a turn a round, each turn ending with a box of the card filled
(:mod:`.cards`): the expected final score.

A state is ``(rolls_left, dice, rolled)``, ``dice`` a sorted tuple of faces. Before a roll
(``rolled`` false) ``dice`` are the dice kept and the one action is ``"roll"``; after a roll
(``rolled`` true) ``dice`` is the whole hand and the actions are the sorted tuples of dice to
keep: keeping them all stops. The turn is over, and the state terminal, once a hand is
rolled with no roll left or kept whole: ``(0, hand, True)``; with a card, that hand's
actions are the boxes, and the turn ends in ``(box, points, face)``. Written with the
per-state hooks: five dice make about a thousand states.
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from pathlib import Path

import mdp

from ..dice import check_weights, multiset_distribution, parse_weights, show_dice, show_weights
from .cards import BONUS_AT, BOX_ORDER, CARDS, JOKER_POINTS, Rounds, end_of

GAME_NAME = "yahtzee"

TARGETS = ("yahtzee", "large-straight", "small-straight", "full-house", "kind", "score")
UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
CATEGORIES = UPPER + ("three-of-a-kind", "four-of-a-kind", "full-house", "small-straight",
                      "large-straight", "yahtzee", "chance")
# The points of the fixed-score categories, as on the official score card.
FIXED_POINTS = {"full-house": 25, "small-straight": 30, "large-straight": 40, "yahtzee": 50}

# A hand of d dice has at most 2**d ways to keep some: eight dice of twelve faces make about
# 76,000 hands and millions of actions, as far as per-state hooks go in reasonable time.
MAX_DICE, MAX_FACES, MAX_ROLLS = 8, 12, 10
_WHY = "the per-state hooks enumerate every hand and every way to keep some of it"


@mdp.hookimpl
def mdp_params():
    return [
        mdp.Param("dice", 5, mdp.parse_int(1, MAX_DICE, why=_WHY), "dice rolled"),
        mdp.Param("faces", 6, mdp.parse_int(2, MAX_FACES, why=_WHY),
                  "faces on each die, numbered from 1"),
        mdp.Param("rolls", 3, mdp.parse_int(1, MAX_ROLLS), "rolls in the turn, the first included"),
        mdp.Param("target", "yahtzee", mdp.parse_choice(TARGETS),
                  "what to aim at: " + ", ".join(TARGETS)),
        mdp.Param("kind", None, mdp.parse_int(1, MAX_DICE),
                  "N for target=kind: the chance of at least N dice showing one face"),
        mdp.Param("category", None, mdp.parse_choice(CATEGORIES),
                  "the category for target=score: " + ", ".join(CATEGORIES)),
        mdp.Param("weights", None, parse_weights,
                  "probability of each face, e.g. 1/4,1/4,1/8,1/8,1/8,1/8; unset, fair dice",
                  show_weights),
        mdp.Param("card", None, mdp.parse_choice(tuple(CARDS)),
                  "play the whole game on a score card, the expected final score: "
                  + ", ".join(CARDS) + "; unset, one turn"),
        mdp.Param("boxes", None, _parse_boxes,
                  "with card: the boxes played, e.g. ones,twos,chance; unset, the whole card",
                  lambda boxes: None if boxes is None else ",".join(boxes)),
    ]


def _parse_boxes(value):
    if value is None or value == "":
        return None
    given = value.split(",") if isinstance(value, str) else list(value)
    if given in ([], [""]):  # no box named: the card's own, as the empty text
        return None
    if not all(isinstance(box, str) for box in given):
        raise ValueError("expected the names of boxes, like yahtzee,chance (a text, or a list of texts)")
    boxes = tuple(box.strip() for box in given)
    named = [box for box in boxes if box]  # (an empty name is no box: said with the card's)
    if len(set(named)) != len(named):
        raise ValueError("a box is named twice")
    # in the cards' order, whatever the order given: the same boxes are one rule set
    return tuple(sorted(boxes, key=lambda box: BOX_ORDER.get(box, len(BOX_ORDER))))


def _card(params):
    """The score card in play, and its boxes; ``None`` for one turn."""
    if params["card"] is None:
        return None
    card = CARDS[params["card"]]
    return card, params["boxes"] or card.boxes


@mdp.hookimpl
def mdp_check(params):
    dice, faces, target = params["dice"], params["faces"], params["target"]
    check_weights(params["weights"], faces)
    if (target == "kind") != (params["kind"] is not None):
        raise mdp.ParamError("parameters target and kind go together: set both target=kind "
                             "and kind=N, or neither")
    if (target == "score") != (params["category"] is not None):
        raise mdp.ParamError("parameters target and category go together: set both "
                             "target=score and category=NAME, or neither")
    if target == "kind" and params["kind"] > dice:
        raise mdp.ParamError(f"parameter kind={params['kind']}: more than the {dice} dice")
    needs = {"large-straight": dice, "small-straight": dice - 1}
    aim = params["category"] if target == "score" else target
    if aim in needs and needs[aim] > faces:
        raise mdp.ParamError(f"{aim} needs {needs[aim]} different faces; the dice have {faces}")
    least = {"full-house": 2, "three-of-a-kind": 3, "four-of-a-kind": 4, "large-straight": 2,
             "small-straight": 3}.get(aim, 0)  # (a straight of one face, or none, is any hand)
    if dice < least:
        raise mdp.ParamError(f"{aim} needs {least} dice or more, not {dice}")
    if aim in UPPER and UPPER.index(aim) + 1 > faces:
        raise mdp.ParamError(f"category {aim}: the dice have only {faces} faces")
    _check_card(params)


def _check_card(params):
    if params["card"] is None:
        if params["boxes"] is not None:
            raise mdp.ParamError("parameter boxes is for a score card: set card too")
        return
    card = CARDS[params["card"]]
    if (params["dice"], params["faces"]) != (5, 6) or params["weights"] is not None:
        raise mdp.ParamError(f"card={card.name} is scored with five fair dice of six faces; "
                             "leave dice, faces and weights unset")
    if params["target"] != "yahtzee" or params["kind"] is not None or params["category"] is not None:
        raise mdp.ParamError("a score card aims at the final score; leave target, kind and "
                             "category unset")
    unknown = [b for b in params["boxes"] or () if b not in card.boxes]
    if unknown:
        near = mdp.did_you_mean(unknown[0].lower(), card.boxes).removeprefix("; ")
        raise mdp.ParamError(f"parameter boxes: {unknown[0]!r} is not a box of card "
                             f"{card.name}{f' ({near})' if near else ''}; its boxes are "
                             f"{', '.join(card.boxes)}")


@mdp.hookimpl
def mdp_variants():
    return [
        mdp.Variant("yahtzee", {}, "the chance of five of a kind"),
        mdp.Variant("large-straight", {"target": "large-straight"},
                    "the chance of a large straight (1-5 or 2-6)"),
        mdp.Variant("full-house", {"target": "full-house"},
                    "the chance of a full house (three of one face, two of another)"),
        mdp.Variant("four-of-a-kind", {"target": "kind", "kind": "4"},
                    "the chance of at least four of a kind"),
        mdp.Variant("chance-score", {"target": "score", "category": "chance"},
                    "the expected total of the dice, scored as Chance"),
        mdp.Variant("full", {"card": "yahtzee"}, "the whole game, " + CARDS["yahtzee"].rules),
        mdp.Variant("full-free-joker", {"card": "free-joker"},
                    "the whole game, " + CARDS["free-joker"].rules),
        mdp.Variant("full-no-bonus", {"card": "no-bonus"},
                    "the whole game, " + CARDS["no-bonus"].rules),
        mdp.Variant("yatzy", {"card": "yatzy"}, "the whole game of " + CARDS["yatzy"].rules),
    ]


def _aim(params) -> str:
    """The target in words."""
    dice, target = params["dice"], params["target"]
    return {
        "yahtzee": f"{dice} of a kind",
        "large-straight": f"a straight of {dice}",
        "small-straight": f"a straight of {dice - 1}",
        "full-house": "a full house" if dice == 5 else
        f"a full house of {dice} dice ({(dice + 1) // 2} of one face, {dice // 2} of another)",
        "kind": f"at least {params['kind']} of a kind",
        "score": f"score in {params['category']}",
    }[target]


@mdp.hookimpl
def mdp_describe(params):
    if _card(params):
        card, boxes = _card(params)
        played = "" if params["boxes"] is None else f", boxes {', '.join(boxes)}"
        rules = card.rules if not played else card.rules.replace(f", {len(card.boxes)} boxes", "")
        game = "Yatzy" if card.name == "yatzy" else f"Yahtzee on card {card.name}"
        rolls = params["rolls"]  # (the card's own three rolls go unsaid)
        other = "" if rolls == 3 else f", up to {rolls} roll{'s' * (rolls != 1)} a turn"
        return f"{game}, the whole game: {rules}{played}{other}"
    weights = "" if params["weights"] is None else f" weighted {show_weights(params['weights'])}"
    rolls = params["rolls"]
    return (f"Yahtzee: {show_dice(params['dice'], params['faces'])}{weights}, "
            f"up to {rolls} roll{'s' * (rolls != 1)}; target: {_aim(params)}")


@mdp.hookimpl
def mdp_objective(params):
    if params["target"] == "score" or _card(params):
        if _card(params):
            return mdp.Objective("expected final score", "max")
        return mdp.Objective(f"expected {_aim(params)}", "max")
    return mdp.Objective(f"chance of {_aim(params)}", "max", probability=True)


@mdp.hookimpl
def mdp_estimate_states(params):
    dice, faces, rolls = params["dice"], params["faces"], params["rolls"]
    hands = math.comb(faces + dice - 1, dice)
    kept = sum(math.comb(faces + k - 1, k) for k in range(dice))
    return 1 + (rolls - 1) * kept + rolls * hands  # at most: the start, kept dice, hands


@mdp.hookimpl
def mdp_initial_state(params):
    return (params["rolls"], (), False)


@mdp.hookimpl
def mdp_actions(params, state):
    rolls_left, dice, rolled = state
    if isinstance(rolls_left, str):  # the end of a turn on a card
        return []
    if not rolled:
        return ["roll"]
    if rolls_left == 0:
        return list(_card(params)[1]) if _card(params) else []
    return _keeps(dice)


def _keeps(hand: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every distinct sorted tuple of dice to keep from ``hand``, the whole hand first."""
    counts = Counter(hand)
    faces = sorted(counts)
    keeps = [tuple(f for f, n in zip(faces, take) for _ in range(n))
             for take in itertools.product(*(range(counts[f], -1, -1) for f in faces))]
    return keeps


@mdp.hookimpl
def mdp_outcomes(params, state, action):
    rolls_left, dice, rolled = state
    if rolled and rolls_left == 0:  # a box of the card filled
        return [(1, end_of(_card(params)[0], action, dice))]
    if rolled:
        if action == dice:  # all kept: the turn ends with this hand
            return [(1, (0, dice, True))]
        return [(1, (rolls_left, action, False))]
    left = params["dice"] - len(dice)
    if left > 1 and rolls_left < params["rolls"]:
        # After the first roll, every keep of one die more is a state already (a hand holds
        # it): the dice still to roll are alike and apart, so rolling them is rolling one and
        # then the others, each keep's throw a die's faces where it was every hand of them
        # all (5 dice of 6 faces: 1,260 outcomes in all where there were 4,116).
        return [(p, (rolls_left, tuple(sorted(dice + face)), False))
                for p, face in multiset_distribution(1, params["faces"], params["weights"])]
    throw = multiset_distribution(left, params["faces"], params["weights"])
    return [(p, (rolls_left - 1, tuple(sorted(dice + faces)), True)) for p, faces in throw]


def _straight(hand: tuple[int, ...], length: int) -> bool:
    """Whether ``hand`` shows ``length`` consecutive faces."""
    faces = sorted(set(hand))
    run = best = 1
    for low, high in zip(faces, faces[1:]):
        run = run + 1 if high == low + 1 else 1
        best = max(best, run)
    return bool(faces) and best >= length


def _full_house(hand: tuple[int, ...]) -> bool:
    """Two faces, split as evenly as the dice allow: three and two of five dice."""
    counts = sorted(Counter(hand).values(), reverse=True)
    return counts == [(len(hand) + 1) // 2, len(hand) // 2]


def score(category: str, hand: tuple[int, ...]) -> int:
    """The points ``hand`` scores in ``category``, as on the official score card."""
    most = max(Counter(hand).values())
    if category in UPPER:
        face = UPPER.index(category) + 1
        return face * hand.count(face)
    if category in ("three-of-a-kind", "four-of-a-kind"):
        return sum(hand) if most >= (3 if category == "three-of-a-kind" else 4) else 0
    if category == "chance":
        return sum(hand)
    return FIXED_POINTS[category] if hits(category, hand) else 0


def hits(target: str, hand: tuple[int, ...], kind: int | None = None) -> bool:
    """Whether ``hand`` meets a chance target."""
    if target == "yahtzee":
        return len(set(hand)) == 1
    if target == "large-straight":
        return _straight(hand, len(hand))
    if target == "small-straight":
        return _straight(hand, len(hand) - 1)
    if target == "full-house":
        return _full_house(hand)
    if target == "kind":
        return max(Counter(hand).values()) >= kind
    raise ValueError(f"unknown target {target!r}")


@mdp.hookimpl
def mdp_terminal_value(params, state):
    if _card(params):  # an end of a turn: the points of the box by its own rule
        return state[1]
    hand = state[1]
    if params["target"] == "score":
        return score(params["category"], hand)
    return int(hits(params["target"], hand, params["kind"]))


def show(dice: tuple[int, ...]) -> str:
    """Dice as text: ``"1 1 5"``; ``""`` for none."""
    return " ".join(map(str, dice))


@mdp.hookimpl
def mdp_state_columns(params, state):
    rolls_left, dice, rolled = state
    if _card(params):
        ended = isinstance(rolls_left, str)
        return {
            "rolls_left": None if ended else rolls_left,
            "kept": None if ended or rolled else show(dice),
            "rolled": show(dice) if rolled and not ended else None,
            "box": rolls_left if ended else None,
            "points": dice if ended else None,
        }
    columns = {
        "rolls_left": rolls_left,
        "kept": None if rolled else show(dice),
        "rolled": show(dice) if rolled else None,
        # Of a hand: how many dice show its most common face.
        "count": max(Counter(dice).values()) if rolled else None,
    }
    if params["target"] == "score":
        columns["score"] = score(params["category"], dice) if rolled else None
    return columns


@mdp.hookimpl
def mdp_outcome_columns(params):
    # A turn ends with a hand: what it is worth, or how many dice show its commonest face.
    if _card(params):
        return ["box", "points"]
    return ["score"] if params["target"] == "score" else ["count"]


@mdp.hookimpl
def mdp_action_columns(params, state, action):
    rolls_left, dice, rolled = state
    if rolled and rolls_left == 0:  # on a card: the box to fill
        return {"action": "score", "keep": None, "fill": action}
    if not rolled:
        columns = {"action": "roll", "keep": None}
    else:
        columns = {"action": "stop" if action == dice else "reroll", "keep": show(action)}
    return {**columns, "fill": None} if _card(params) else columns


@mdp.hookimpl
def mdp_round_start(params, game):
    return _rounds(params, game).start() if _card(params) else None


@mdp.hookimpl
def mdp_round_rule(params, game, ends):
    rounds = _rounds(params, game)
    return lambda states: mdp.RoundEnds(*rounds.ends(states, ends))


@mdp.hookimpl
def mdp_round_columns(params, game, states):
    return _rounds(params, game).columns(states) if _card(params) else None


@mdp.hookimpl
def mdp_strategies(params):
    # Besides the engine's greedy (each turn for its points alone), greedy with the upper
    # bonus in mind: its points shared out over the upper points that earn it.
    if not _card(params):
        return []
    bonus = _card(params)[0].upper_bonus
    return [mdp.RoundsStrategy(
        "greedy-bonus", f"each turn for its points, and each upper point toward {BONUS_AT} for "
        f"{bonus}/{BONUS_AT} more while the bonus is in reach", aims=_bonus_aims)]


def _bonus_aims(game, model, keys, ends):
    """The points of each end, and the upper bonus shared out over the upper points toward
    it: in whole numbers, times 63 (only how the aims compare matters)."""
    toward = _rounds(game.params, game).toward_bonus(keys, model.round.states[:model.round.n_terminal])
    return BONUS_AT * ends.points + _card(game.params)[0].upper_bonus * toward


def _rounds(params, game) -> Rounds:
    return game.memo("rounds", lambda: Rounds(*_card(params)))


@mdp.hookimpl
def mdp_report_controls(params):
    # The dice as faces to add and remove, not lists of hands; the commonest face's count (and
    # a score) follow from the dice rolled. On a card, its boxes are buttons to press filled.
    faces = [str(face) for face in range(1, params["faces"] + 1)]
    card = _card(params)
    # On a card, the box and points of a turn's end follow from the turn being over.
    derived = (["box", "points"] if card else
               ["count"] + (["score"] if params["target"] == "score" else []))
    return [
        *([{"column": "filled", "kind": "toggles", "label": "Boxes filled", "items": list(card[1]),
            "strike": "on", "hint": "Press a box to fill it or empty it."},
           {"column": "upper", "kind": "select", "label": "Upper section total (63 once the "
            "bonus is won, 0 once it is out of reach)"}] if card else []),
        *([{"column": "holds_50", "kind": "select", "label": "The Yahtzee box holds 50"}]
          if card and card[0].extra_bonus else []),
        {"column": "rolls_left", "kind": "select", "label": "Rolls left"},
        {"column": "kept", "kind": "multiset", "label": "Dice kept, to roll the others",
         "items": faces, "most": params["dice"] - 1, "none": "the dice are rolled",
         "hint": "Press a face to add a die, a die to take it away."},
        {"column": "rolled", "kind": "multiset", "label": "Dice rolled",
         "items": faces, "most": params["dice"], "none": "not rolled yet"},
        *({"column": column, "kind": "derived"} for column in derived),
    ]


@mdp.hookimpl
def mdp_round_ends_script(params):
    card = _card(params)
    if not card:
        return None
    rules, boxes = card
    rounds = Rounds(rules, boxes)
    constants = {
        "boxes": list(boxes), "upper": rounds.upper.tolist(), "most": rounds.most.tolist(),
        "five": rounds.five, "own": rounds.own.tolist(), "bonusAt": BONUS_AT,
        "upperBonus": rules.upper_bonus, "extraBonus": rules.extra_bonus, "joker": rules.joker,
        "jokerPoints": JOKER_POINTS,
    }
    script = (Path(__file__).parent / "round_ends.js").read_text(encoding="utf-8")
    return f"{script.strip()}({json.dumps(constants)})"
