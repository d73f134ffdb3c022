"""A Shut the Box rule that can never act under the tiles and dice given is refused, and no
other (round 20, N1: one_die=sum6 or one_die_mode=forced on tiles 7-12, max_flips=5 with two
dice, max_flips=100 on three tiles, a dice_schedule range past the tiles' sum were taken and
written into the rules line). Whether a rule acts is found here independently, by brute
force: the choices of every position that can arise (the numbers of dice the player may
throw, the sets of tiles each roll lets them shut), with the rule and with it removed. The
same choices everywhere make the same game (value and policy); other choices somewhere make
another policy table. A rule left at its default is never refused, and the rules line does
not claim a one-die rule that never acts."""

import itertools

import brute_shutbox
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import mdp

SHUTBOX = "games/shutbox"
DEFAULTS = {"dice": 2, "faces": 6, "one_die": "max6", "one_die_mode": "choice",
            "dice_schedule": None, "max_flips": None}


def _usual(rules, shut):
    if rules["dice_schedule"] is None:
        return rules["dice"]
    return next(n for low, high, n in rules["dice_schedule"] if low <= shut and (high is None or shut <= high))


def choices(tiles, rules):
    """Every position that can arise from all tiles open, with the player's choices there:
    ``open tiles -> (numbers of dice, {(dice, total): sets of tiles that may be shut})``."""
    seen, todo = {}, [frozenset(tiles)]
    while todo:
        open_ = todo.pop()
        if open_ in seen or not open_:
            continue
        usual = _usual(rules, sum(tiles) - sum(open_))
        holds = {"never": False, "max6": max(open_) <= 6, "sum6": sum(open_) <= 6,
                 "always": True}[rules["one_die"]] and usual != 1
        dice = [usual] if not holds else [1] if rules["one_die_mode"] == "forced" else [usual, 1]
        moves = {}
        for n in dice:
            for total in {sum(f) for f in itertools.product(range(1, rules["faces"] + 1), repeat=n)}:
                shut = frozenset(frozenset(c) for k in range(1, len(open_) + 1)
                                 for c in itertools.combinations(sorted(open_), k)
                                 if sum(c) == total and (rules["max_flips"] is None or k <= rules["max_flips"]))
                moves[n, total] = shut
                todo.extend(open_ - s for s in shut)
        seen[open_] = (tuple(dice), moves)
    return seen


def _removed(rules, name):
    """The rules with ``name`` removed: the one-die rule never, any other at its default
    (choice, no limit)."""
    return {**rules, name: "never" if name == "one_die" else DEFAULTS[name]}


TILES = st.lists(st.integers(1, 12), min_size=1, max_size=5, unique=True).map(sorted)
GIVEN = st.fixed_dictionaries({}, optional={
    "dice": st.integers(1, 3), "faces": st.integers(2, 6),
    "one_die": st.sampled_from(["never", "max6", "sum6", "always"]),
    "one_die_mode": st.sampled_from(["choice", "forced"]), "max_flips": st.integers(1, 6)})


@settings(max_examples=150, deadline=None)
@given(tiles=TILES, given=GIVEN)
@example(tiles=[1, 2, 3, 4], given={"dice": 3, "one_die": "always", "one_die_mode": "forced"})
@pytest.mark.slow  # a second or more: many small games loaded and searched
def test_a_rule_is_refused_iff_removing_it_leaves_the_game_the_same(tiles, given):
    rules = {**DEFAULTS, **given}
    text = {k: str(v) for k, v in given.items()}
    try:
        game = mdp.load_game(SHUTBOX, tiles=",".join(map(str, tiles)), **text)
    except mdp.ParamError as error:
        message = str(error)
        name = message.removeprefix("parameter ").split("=")[0]
        assert name in given and given[name] != DEFAULTS[name], message
        assert choices(tiles, rules) == choices(tiles, _removed(rules, name)), message
        return
    # each rule given, not at its default, acts: removed, the game differs (faces are not a
    # rule but the game's matter; one_die=never is the one-die rule left out). The number of
    # dice too (round 28: dice=3 was taken where one die is forced from the start).
    for name in given:
        if given[name] != DEFAULTS[name] and name != "faces" and given[name] != "never":
            assert choices(tiles, rules) != choices(tiles, _removed(rules, name)), (name, game.describe())


@settings(max_examples=60, deadline=None)
@given(tiles=TILES, dice=st.integers(1, 3), faces=st.integers(2, 6),
       one_die=st.sampled_from(["max6", "sum6", "always"]))
@pytest.mark.slow  # half a second or more of CPU
def test_the_rules_line_claims_a_one_die_rule_only_where_it_acts(tiles, dice, faces, one_die):
    rules = {**DEFAULTS, "dice": dice, "faces": faces, "one_die": one_die}
    game = mdp.load_game(SHUTBOX, tiles=",".join(map(str, tiles)), dice=str(dice), faces=str(faces))
    acts = choices(tiles, rules) != choices(tiles, {**rules, "one_die": "never"})
    if one_die == "max6":  # the default: never refused, said only where it acts
        assert ("one die" in game.describe()) == acts, game.describe()
    try:
        mdp.load_game(SHUTBOX, tiles=",".join(map(str, tiles)), dice=str(dice), faces=str(faces),
                      one_die=one_die)
    except mdp.ParamError as error:
        assert not acts and str(error).startswith(f"parameter one_die={one_die} has no effect while ")
    else:
        assert acts or one_die == "max6"


@pytest.mark.parametrize(("given", "why"), [
    # as reported; the reasons by hand: tiles 7-12 are all above 6 (and no set sums to 6 or
    # less); two dice total 12 at most and 1+2+3+4+5 = 15; three tiles; the tiles 1-4 sum to 10
    ({"tiles": "7-12", "one_die_mode": "forced"}, "one_die=max6 never lets one die be rolled: "
     "every tile is above 6"),
    ({"tiles": "7-12", "one_die": "sum6"}, "every tile is above 6"),
    ({"max_flips": "5"}, "no roll shuts more than 4 tiles"),
    ({"tiles": "1-3", "max_flips": "100"}, "no roll shuts more than 3 tiles"),
])
def test_the_rules_reported_are_refused(given, why):
    with pytest.raises(mdp.ParamError, match=r"^parameter \w+=\w+ has no effect while ") as refused:
        mdp.load_game(SHUTBOX, **given)
    assert why in str(refused.value)


def test_a_schedule_range_no_throw_plays_is_refused_with_the_schedule_that_plays_alike():
    with pytest.raises(mdp.ParamError) as refused:
        mdp.load_game(SHUTBOX, tiles="1-4", dice_schedule="0-100:2,101-:1")
    assert str(refused.value) == (
        "parameter dice_schedule=0-100:2,101-:1: no throw is made at shut totals 101-, since no "
        "set of the tiles sums there short of all of them (10); give 0-:2, which plays alike")
    # tiles 1 and 10: shut totals short of the end are 0, 1 and 10, none from 2 to 9
    with pytest.raises(mdp.ParamError, match="shut totals 2-9, .* give 0-9:2,10-:1, which"):
        mdp.load_game(SHUTBOX, tiles="1,10", dice_schedule="0-1:2,2-9:3,10-:1")
    # the schedule offered plays alike: the same value, by the independent solver
    assert mdp.solve(mdp.compile(mdp.load_game(SHUTBOX, tiles="1-4", dice_schedule="0-:2")),
                     exact=True).value == brute_shutbox.solve({1, 2, 3, 4}, dice=2, faces=6)


def test_the_default_one_die_rule_is_not_claimed_where_it_cannot_act():
    # Tiles 7-12: every open set holds a tile above 6 until the box is shut (by hand).
    assert mdp.load_game(SHUTBOX, tiles="7-12").describe() == \
        "Shut the Box: tiles 7-12, 2 dice of 6 faces"


@pytest.mark.parametrize("dice", [{}, {"dice": "3"}, {"dice_schedule": "0-:2"}])
def test_doubles_where_one_die_is_forced_from_the_start_are_refused(dice):
    """By hand: one_die=always, forced, rolls one die at every throw, so no throw shows a
    double (round 28: taken, and the rules line claimed "a double lets one more tile be
    shut")."""
    with pytest.raises(mdp.ParamError, match=r"^parameter (doubles=extra|dice\w*=\S+) has no effect "):
        mdp.load_game(SHUTBOX, tiles="1-4", one_die="always", one_die_mode="forced",
                      doubles="extra", **dice)
