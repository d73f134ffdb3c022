"""The kind of a roll (shutbox_rolls) is a label: a shipped rule acts on the rolls of a
kind only where its own parameter puts it in force, so a rule plugin's kind changes
nothing by its name alone (the doubles rule read every roll of kind "double", with
doubles=plain too); and a kind is a word, as the user types it (``kind=KIND``)."""

import types
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp

SHUTBOX = "games/shutbox"


def relabelled(game, kind, dice, totals):
    """``game`` with a rule plugin that gives the rolls of ``dice`` dice whose total is in
    ``totals`` the kind ``kind``, their probabilities and totals unchanged."""
    def shutbox_rolls(dice):
        rolls = yield
        return [(p, total, kind if dice == chosen and total in totals else was)
                for p, total, was in rolls]

    chosen = dice
    game.plugins.register(types.SimpleNamespace(
        shutbox_rolls=mdp.hookimpl(wrapper=True)(shutbox_rolls)), name="labels")
    return game


def value(game):
    return mdp.solve(mdp.compile(game), exact=True).value


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(["double", "high", "extra", "plain", "digital", "x"]),
       dice=st.sampled_from([1, 2]), totals=st.sets(st.integers(1, 12), min_size=1),
       tiles=st.sampled_from(["1-4", "1-5", "2-6"]))
def test_a_kind_alone_changes_nothing_under_the_default_rules(kind, dice, totals, tiles):
    # Every shipped rule plugin is registered, each at its default (doubles=plain, no flip
    # limit, the default scoring): a pure relabelling keeps the value.
    labelled = relabelled(mdp.load_game(SHUTBOX, tiles=tiles), kind, dice, totals)
    assert value(labelled) == value(mdp.load_game(SHUTBOX, tiles=tiles))


def test_the_doubles_rule_acts_with_doubles_extra_alone():
    # The finding: one-die rolls of 5 and 6 of kind "double", doubles=plain: the plain value
    # 3089/11664 (the game's own, unlabelled), not 1865/3888.
    game = relabelled(mdp.load_game(SHUTBOX, tiles="1-4", doubles="plain"), "double", 1, {5, 6})
    assert value(game) == Fraction(3089, 11664) == value(mdp.load_game(SHUTBOX, tiles="1-4"))


@pytest.mark.parametrize("kind", ["high roll", "a=b", "x,y", "a b", "-x", "", "a\nb", " a", 5])
def test_a_kind_that_is_no_word_is_refused_in_one_line(kind):
    game = relabelled(mdp.load_game(SHUTBOX, tiles="1-4"), kind, 2, {7})
    with pytest.raises(mdp.ModelError) as error:
        mdp.compile(game)
    message = str(error.value)
    assert "shutbox_rolls gave (" in message and "\n" not in message.replace(repr(kind), "")
    assert message.endswith("a kind None or a word of text, no spaces, '=' or ',', not "
                            "starting with '-'"), message


@pytest.mark.parametrize(("kinds", "alike"), [
    # (kind of even totals, kind of odd ones) by dice: NFKC reads the full-width and the
    # ligature forms as the plain ones (round 20, F6: solve, distribution and advise took
    # them, policy alone refused them)
    ({1: ("dbl", "\uff44\uff42\uff4c")}, "'\uff44\uff42\uff4c' and 'dbl' for 1 die"),  # (1, odd, first)
    ({1: ("fine", "\ufb01ne")}, "'\ufb01ne' and 'fine' for 1 die"),
    ({1: ("dbl", None), 2: ("\uff44\uff42\uff4c", None)}, "'dbl' (for 1 die) and '\uff44\uff42\uff4c' (for 2)"),
])
def test_roll_kinds_that_read_alike_are_refused_for_every_command(kinds, alike):
    def shutbox_rolls(dice):
        rolls = yield
        even, odd = kinds.get(dice, (None, None))
        return [(p, total, even if total % 2 == 0 else odd) for p, total, _ in rolls]

    game = mdp.load_game(SHUTBOX, tiles="1-4")
    game.plugins.register(types.SimpleNamespace(
        shutbox_rolls=mdp.hookimpl(wrapper=True)(shutbox_rolls)), name="alike")
    with pytest.raises(mdp.ModelError, match="read alike; give each kind a name of its own") as refused:
        mdp.compile(game)  # every command compiles the game first
    assert alike in str(refused.value)
