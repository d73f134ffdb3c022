"""PRISM model generator for Shut the Box (stdlib only).

The model has one 0/1 variable per tile (1 = open) and a variable `roll`
holding the dice total just rolled, where roll = 0 means "about to roll"
(this doubles as the phase variable: every total is at least 1).
"""

from fractions import Fraction
from itertools import product

ONE_DIE_RULES = ("never", "max6", "sum6", "always")
ONE_DIE_MODES = ("choice", "forced")
PROPERTY = 'Pmax=? [F "shut"]'


def total_distribution(dice, faces=6, weights=None):
    """Exact distribution {total: Fraction} of the sum of `dice` dice."""
    if weights is None:
        weights = [Fraction(1, faces)] * faces
    if len(weights) != faces or sum(weights) != 1:
        raise ValueError("weights must give one probability per face, summing to 1")
    dist = {0: Fraction(1)}
    for _ in range(dice):
        nxt = {}
        for (t, p), (face, w) in product(dist.items(), enumerate(weights, 1)):
            if w:
                nxt[t + face] = nxt.get(t + face, 0) + p * w
        dist = nxt
    return dist


def subsets_by_sum(tiles, max_sum, max_flips=None):
    """All non-empty subsets (tuples) of `tiles` with sum <= max_sum and size <= max_flips."""
    tiles = sorted(tiles)
    out = []

    def grow(start, chosen, total):
        for i in range(start, len(tiles)):
            t = tiles[i]
            if total + t > max_sum:
                break  # tiles are sorted, so every later tile is too big as well
            subset = chosen + (t,)
            out.append(subset)
            if max_flips is None or len(subset) < max_flips:
                grow(i + 1, subset, total + t)

    grow(0, (), 0)
    return out


def _roll_update(dist):
    """Probabilistic update setting `roll` to each possible total, with exact p/q literals."""
    branches = []
    for total, p in sorted(dist.items()):
        branches.append(f"{p.numerator}/{p.denominator}:(roll'={total})")
    return " + ".join(branches)


def shutbox_prism(tiles, dice, faces=6, one_die="never", one_die_mode="choice",
                  weights=None, max_flips=None):
    """Return (PRISM MDP text, property) for Shut the Box with the given rules.

    dice: number of dice normally rolled; one_die: when rolling a single die is
    allowed (never, max6 = every open tile <= 6, sum6 = open tiles sum to <= 6,
    always); one_die_mode: "choice" (player may roll one die) or "forced".
    """
    tiles = list(tiles)
    if len(set(tiles)) != len(tiles) or any(t <= 0 for t in tiles):
        raise ValueError("tiles must be distinct positive integers")
    if one_die not in ONE_DIE_RULES or one_die_mode not in ONE_DIE_MODES:
        raise ValueError(f"one_die in {ONE_DIE_RULES}, one_die_mode in {ONE_DIE_MODES}")

    var = {t: f"t{t}" for t in tiles}
    any_open = " | ".join(f"{var[t]}=1" for t in tiles)
    one_die_guard = {
        "never": None,
        "always": "true",
        "max6": " & ".join(f"{var[t]}=0" for t in tiles if t > 6) or "true",
        "sum6": "(" + " + ".join(f"{t}*{var[t]}" for t in tiles) + ") <= 6",
    }[one_die]
    if dice == 1:
        one_die_guard = None  # one die is the normal roll anyway

    normal = total_distribution(dice, faces, weights)
    single = total_distribution(1, faces, weights)
    # (guard, distribution) for each roll command; "roll=0 & some tile open" is added below
    rolls = []
    if one_die_guard is None:
        rolls.append(("true", normal))
    elif one_die_mode == "choice":
        rolls += [("true", normal), (one_die_guard, single)]
    else:
        rolls += [(f"!({one_die_guard})", normal), (one_die_guard, single)]
    totals = sorted({t for _, d in rolls for t in d})
    max_total = totals[-1]

    lines = ["mdp", "", "module box"]
    lines += [f"  {var[t]} : [0..1] init 1;" for t in tiles]
    lines.append(f"  roll : [0..{max_total}] init 0;")
    lines.append("")
    for guard, dist in rolls:
        g = "" if guard == "true" else f" & {guard}"
        lines.append(f"  [] roll=0 & ({any_open}){g} -> {_roll_update(dist)};")
    lines.append("")
    reachable = set(totals)
    for subset in sorted(subsets_by_sum(tiles, max_total, max_flips), key=lambda s: (sum(s), s)):
        s = sum(subset)
        if s not in reachable:
            continue
        guard = " & ".join(f"{var[t]}=1" for t in subset)
        update = "&".join(f"({var[t]}'=0)" for t in subset)
        lines.append(f"  [] roll={s} & {guard} -> {update}&(roll'=0);")
    lines += ["endmodule", ""]
    lines.append('label "shut" = ' + " & ".join(f"{var[t]}=0" for t in tiles) + ";")
    return "\n".join(lines) + "\n", PROPERTY
