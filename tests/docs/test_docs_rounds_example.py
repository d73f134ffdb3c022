"""Three dice (docs/examples/three_dice.py), the worked game of rounds of docs/writing-a-game.rst:
its value against a brute force written here, and the commands its section shows."""

import importlib.util
import itertools
from collections import Counter
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from test_docs_examples import _console_blocks, _run_shown, _same_but_time, _section

import mdp

ROOT = Path(__file__).resolve().parents[2]
THREE_DICE = ROOT / "docs" / "examples" / "three_dice.py"

FACES = range(1, 7)


def _score(box, hand):
    """The card's rules as the page states them, written again here."""
    upper = {"FOURS": 4, "FIVES": 5, "SIXES": 6}
    if box in upper:
        return sum(d for d in hand if d == upper[box])
    if box == "TRIPLE":
        return 20 if hand[0] == hand[1] == hand[2] else 0
    return hand[0] + hand[1] + hand[2]


def _chances(n):
    """Each sorted hand of ``n`` dice thrown in order, with its chance."""
    counts = Counter(tuple(sorted(throw)) for throw in itertools.product(FACES, repeat=n))
    return [(hand, Fraction(count, 6 ** n)) for hand, count in counts.items()]


@cache
def _best(open_boxes, upper):
    """The best expected score still to come with the boxes ``open_boxes`` open and ``upper``
    points in FOURS, FIVES and SIXES so far (not capped: the game keeps 30 once the bonus is
    won, which this brute force does not need)."""
    if not open_boxes:
        return Fraction(0)

    @cache
    def final(hand):  # the hand scored in its best open box
        options = []
        for box in open_boxes:
            got = _score(box, hand)
            after = upper + (got if box in ("FOURS", "FIVES", "SIXES") else 0)
            bonus = 10 if upper < 30 <= after else 0
            options.append(got + bonus + _best(open_boxes - {box}, after))
        return max(options)

    @cache
    def kept(dice):  # the dice kept, the others rolled once more
        return sum(p * final(tuple(sorted(dice + rest))) for rest, p in _chances(3 - len(dice)))

    def first(hand):  # any of the dice kept, by position
        return max(kept(tuple(sorted(hand[i] for i in chosen)))
                   for n in range(4) for chosen in itertools.combinations(range(3), n))

    return sum(p * first(hand) for hand, p in _chances(3))


BOXES = frozenset(("FOURS", "FIVES", "SIXES", "TRIPLE", "CHANCE"))


@pytest.mark.slow
def test_three_dice_has_the_value_of_a_brute_force():
    rounds = mdp.compile(mdp.load_game(THREE_DICE))
    expected = _best(BOXES, 0)
    assert mdp.solve(rounds, exact=True).value == expected
    assert mdp.solve(rounds).value == pytest.approx(float(expected), rel=1e-13)


@pytest.mark.slow
@pytest.mark.parametrize(("filled", "upper"), [(("FOURS",), 8), (("SIXES", "CHANCE"), 12),
                                               (("FOURS", "FIVES", "TRIPLE"), 27)])
def test_three_dice_cards_have_the_values_of_the_brute_force(filled, upper):
    solution = mdp.solve(mdp.compile(mdp.load_game(THREE_DICE)), exact=True)
    key = sum(1 << ("FOURS", "FIVES", "SIXES", "TRIPLE", "CHANCE").index(b) for b in filled) + 32 * upper
    assert solution.value_of(key) == _best(BOXES - set(filled), upper)


def test_the_round_rule_is_a_pure_function_of_cards():
    # The round rule on its own, arrays in: FOURS and SIXES filled with 8 and 18 points; 10
    # in FIVES reach 30 (10 more, the total kept at 30); FOURS is filled already; CHANCE
    # leaves the upper total as it is.
    from importlib import util

    spec = util.spec_from_file_location("three_dice_rule", THREE_DICE)
    module = util.module_from_spec(spec)
    spec.loader.exec_module(module)
    card = 0b00101 + 32 * 26
    rule = module.mdp_round_rule([("end", "FIVES", 10), ("end", "FOURS", 4), ("end", "CHANCE", 12)])
    got = rule(np.array([card, 0]))
    assert got.next.tolist() == [[0b00111 + 32 * 30, -1, 0b10101 + 32 * 26],
                                 [0b00010 + 32 * 10, 0b00001 + 32 * 4, 0b10000]]
    allowed = got.next >= 0
    assert got.points[allowed].tolist() == [20, 12, 10, 4, 12]


@pytest.mark.slow
def test_the_three_dice_commands_on_the_page_print_what_it_shows():
    commands = _console_blocks(_section("Three dice, hook by hook\n---", "Running a game\n---"))
    assert [command.split()[1] for command, _ in commands] == ["solve", "advise", "strategies"]
    for command, shown in commands:
        _same_but_time(shown, _run_shown(command, ROOT))


def test_the_aims_example_runs_as_shown():
    # "Strategies of a game of rounds": FACE first is Reroll's 17/4 in FACE (two throws), then
    # EVEN's 6 (keep an even face, else throw again: (4+4+4+8+4+12)/6), 41/4 in all.
    import doctest
    import re

    page = (ROOT / "docs" / "writing-a-game.rst").read_text()
    session, = [block for block in re.findall(r"\.\. code-block:: pycon\n\n((?:   .*\n)+)", page)
                if "face_first" in block]
    assert "Fraction(41, 4)" in session
    text = "\n".join(line[3:] for line in session.splitlines())
    test = doctest.DocTestParser().get_doctest(text, {"mdp": mdp, "Fraction": Fraction},
                                               "writing-a-game", None, 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize(verbose=False) == doctest.TestResults(failed=0, attempted=10)


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("py_mini_racer") is None,
                    reason="mini-racer is not installed (pip install -e '.[test]')")
def test_the_javascript_copy_of_the_rule_is_the_round_rule(tmp_path):
    # mdp report runs the page's copy (mdp_round_ends_script) against round_ends on cards of
    # every round before it writes the page; a copy that disagreed would be refused (exit 2).
    from mdp.program.cli import main

    assert main(["report", str(THREE_DICE), "--out", str(tmp_path / "three.html")]) == 0
