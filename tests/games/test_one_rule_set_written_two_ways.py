"""One rule set, written two ways, is one value: ``--vary`` refuses it twice as "the same
rules" (round 19: a payout table in another order, or with an item paying 0, Yahtzee's boxes
in another order, and a dice_schedule with a range split in two were solved twice, shown as
rule sets of their own). Generated: a payout table as what each score pays (the scores left
out pay 0), a schedule as runs of numbers of dice, written as items in any order, ranges
split, 0s written or not; and every order of some boxes. Told apart from another rule set:
two tables that pay a score differently are never one."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp
from mdp.analysis.vary import games

TILES = "1-4"  # final scores 0 to 10
SAME = "are the same rules; give each value once"


@st.composite
def written(draw, pays):
    """The table paying ``pays[score]``, written as items in some order: runs of one amount
    split at random, items that pay 0 written or left out."""
    items, score = [], 0
    while score < len(pays):
        end = score
        while end + 1 < len(pays) and pays[end + 1] == pays[score] and draw(st.booleans()):
            end += 1
        if pays[score] != 0 or draw(st.booleans()):
            items.append(f"{score}-{end}:{pays[score]}" if end > score else f"{score}:{pays[score]}")
        score = end + 1
    items = items or ["0:0"]
    return ",".join(draw(st.permutations(items)))


PAYS = st.lists(st.sampled_from([0, 0, 1, 5, 100]), min_size=11, max_size=11)


@pytest.mark.slow  # half a second or more of CPU
@settings(max_examples=40, deadline=None)
@given(data=st.data(), pays=PAYS)
def test_a_payout_table_written_two_ways_is_one_rule_set(data, pays):
    one, other = data.draw(written(pays)), data.draw(written(pays))
    if one == other:
        return
    with pytest.raises(mdp.ParamError, match=SAME):
        games("shutbox", {"payout": [one, other]}, params={"tiles": TILES, "scoring": "payout"})


@settings(max_examples=20, deadline=None)
@given(data=st.data(), pays=PAYS, score=st.integers(0, 10))
def test_tables_that_pay_a_score_differently_are_two(data, pays, score):
    changed = [*pays]
    changed[score] = 7
    loaded = games("shutbox", {"payout": [data.draw(written(pays)), data.draw(written(changed))]},
                   params={"tiles": TILES, "scoring": "payout"})
    assert len(loaded) == 2


@settings(max_examples=20, deadline=None)
@given(data=st.data(), runs=st.lists(st.integers(1, 3), min_size=1, max_size=4))
def test_a_dice_schedule_written_two_ways_is_one_rule_set(data, runs):
    def write():  # runs of 2 totals each, the last open; a run split where drawn
        items = []
        for i, dice in enumerate(runs):
            low, high = 2 * i, None if i == len(runs) - 1 else 2 * i + 1
            if high is not None and data.draw(st.booleans()):
                items += [f"{low}:{dice}", f"{high}:{dice}"]
            else:
                items.append(f"{low}-{'' if high is None else high}:{dice}")
        return ",".join(items)
    one, other = write(), write()
    if one == other:
        return
    with pytest.raises(mdp.ParamError, match=SAME):
        games("shutbox", {"dice_schedule": [one, other]}, params={"tiles": TILES})


@settings(max_examples=15, deadline=None)
@given(boxes=st.permutations(["ones", "twos", "chance", "yatzy"]))
def test_boxes_in_another_order_are_one_rule_set(boxes):
    if boxes == ["ones", "twos", "chance", "yatzy"]:
        return
    with pytest.raises(mdp.ParamError, match=SAME):
        games("yahtzee", {"boxes": ["ones,twos,chance,yatzy", ",".join(boxes)]},
              params={"card": "yatzy"})
