"""A Shut the Box parameter that cannot act under the others is refused in one line
("parameter NAME=VALUE has no effect while ..."), by one rule of the game's check: dice beside
a dice_schedule, the one-die options where every throw is of one die, one_die_mode where
one_die=never, and (the doubles plugin's) doubles=extra where no throw is of two dice or with
max_flips=1 (the extra tile counts toward it).
A refusal is true: the independent solver of tests/brute_shutbox.py gives the same value
with the refused parameter as without it. A rule set accepted is solved to that solver's
value."""

import re

import brute_shutbox
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp

SHUTBOX = "games/shutbox"
SCHEDULES = {"0-3:3,4-:1": [(0, 3, 3), (4, None, 1)], "0-4:2,5-:1": [(0, 4, 2), (5, None, 1)],
             "0-:1": [(0, None, 1)], "0-2:1,3-:3": [(0, 2, 1), (3, None, 3)]}
DEFAULTS = {"dice": 2, "one_die": "max6", "one_die_mode": "choice", "dice_schedule": None,
            "doubles": "plain", "max_flips": None}


def brute(given):
    rules = {**DEFAULTS, **given}
    return brute_shutbox.solve({1, 2, 3, 4}, dice=rules["dice"], faces=4, one_die=rules["one_die"],
                               one_die_mode=rules["one_die_mode"],
                               schedule=SCHEDULES.get(rules["dice_schedule"]),
                               doubles=rules["doubles"] == "extra", max_flips=rules["max_flips"])


RULES = st.fixed_dictionaries({}, optional={
    "dice": st.sampled_from([1, 2, 3]), "one_die": st.sampled_from(["never", "max6", "always"]),
    "one_die_mode": st.sampled_from(["choice", "forced"]),
    "dice_schedule": st.sampled_from(sorted(SCHEDULES)), "doubles": st.sampled_from(["plain", "extra"]),
    "max_flips": st.sampled_from([1, 2])})


@settings(max_examples=60, deadline=None)
@given(given=RULES)
@pytest.mark.slow  # half a second or more of CPU
def test_a_rule_that_cannot_act_is_refused_and_none_other(given):
    try:
        game = mdp.load_game(SHUTBOX, tiles="1-4", faces=4,
                             **{k: str(v) for k, v in given.items()})
    except mdp.ParamError as error:
        message = str(error)
        assert message.startswith("parameter ") and " has no effect while " in message, message
        name = message.removeprefix("parameter ").split("=")[0]
        assert name in given, message
        left_out = {k: v for k, v in given.items() if k != name}
        assert brute(given) == brute(left_out), message  # it had no effect indeed
        return
    assert mdp.solve(mdp.compile(game), exact=True).value == brute(given)


@pytest.mark.parametrize("given", [
    {"doubles": "extra", "dice": "3"}, {"doubles": "extra", "dice": "1"},
    {"one_die": "never", "one_die_mode": "forced"},
    {"dice": "1", "one_die": "always", "one_die_mode": "forced"},
    {"dice_schedule": "0-:3", "dice": "3"}, {"doubles": "extra", "max_flips": "1"}])
def test_the_rules_found_doing_nothing_are_refused(given):
    # As reported: each was accepted, its rules line saying it was in force.
    with pytest.raises(mdp.ParamError, match=r"^parameter \w+=\w+ has no effect while "):
        mdp.load_game(SHUTBOX, **given)


def _variants():
    return [v for v in mdp.load_game(SHUTBOX).variants() if set(v.params) & set(DEFAULTS)]


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(_variants()), given=RULES)
def test_a_rule_the_variant_set_is_said_to_be_its(variant, given):
    # Round 19: "--variant durango --set one_die=never" said "or leave one_die_mode out",
    # which the user never gave (the variant did): the line names the variant, and its
    # advice, the parameter set back to its default (DEFAULTS, the game's), is followed.
    given = {k: str(v) for k, v in given.items() if k not in variant.params}
    try:
        mdp.load_game(SHUTBOX, variant=variant.name, **given)
    except mdp.ParamError as error:
        message = str(error)
        name = message.removeprefix("parameter ").split("=")[0]
        if name in given:
            assert f"leave {name} out" in message and "--variant" not in message, message
            return
        assert name in variant.params, message
        default = "" if DEFAULTS[name] is None else str(DEFAULTS[name])  # unset: typed empty
        assert f", which --variant {variant.name} sets, " in message, message
        assert message.endswith(f"set it back with --set {name}={default}"), message
        try:
            mdp.load_game(SHUTBOX, variant=variant.name, **given, **{name: default})
        except mdp.ParamError as later:  # another rule of the user's own, or none
            assert not str(later).startswith(f"parameter {name}="), str(later)


@settings(max_examples=80, deadline=None)
@given(tiles=st.sampled_from(["1-4", "4", "1,2", "2,4", "1-3"]), given=RULES,
       limit=st.integers(1, 5), variant=st.sampled_from([None, "max-two-flips"]))
@pytest.mark.slow  # half a second or more of CPU
def test_what_a_refusal_advises_can_be_done_and_acts(tiles, given, limit, variant):
    # Round 22: "set max_flips below 0" where no roll shuts a tile, and "set max_flips=None
    # too", neither of which can be typed. Every advice of a refusal is followed here: the
    # value it names is taken, and the parameter it named is refused no more.
    given = {k: str(v) for k, v in {**given, "max_flips": limit}.items()}
    if variant is not None:
        given = {k: v for k, v in given.items() if k not in ("max_flips", "one_die", "one_die_mode")}
    asked = {"tiles": tiles, "faces": 4, **given}
    try:
        mdp.load_game(SHUTBOX, variant=variant, **asked)
        return
    except mdp.ParamError as error:
        message = str(error)
    if " has no effect while " not in message:  # another refusal (a schedule's own words)
        return
    name = message.removeprefix("parameter ").split("=")[0]
    advice = message.rpartition("; ")[2]
    below = re.match(rf"set {name} below (\d+)", advice)
    back = re.search(rf"set it back with --set {name}=(\S*)$", advice)
    assert below or back or advice.endswith(f"leave {name} out"), message  # or a change in words
    for value in ([str(int(below[1]) - 1)] if below else []) + ([back[1]] if back else []):
        try:
            mdp.load_game(SHUTBOX, variant=variant, **{**asked, name: value})
        except mdp.ParamError as later:  # another rule of the user's own, or none
            assert not str(later).startswith(f"parameter {name}"), (message, str(later))
