"""``mdp variants`` checks the size of every variant before it solves the first; the one past
the budget is named with its rules, as one its game refuses is (round 32, P32-07: the line
named the game alone, and nothing said which rule set it was). Generated: the large variant
anywhere among small ones, by --max-states or by the default budget."""

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdp.program.cli import main

REROLL = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "reroll.py")
_written = itertools.count()


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 2), st.booleans())
@pytest.mark.slow
def test_the_variant_past_the_budget_is_named(tmp_path_factory, capsys, at, default_budget):
    rolls = ["1", "2", "3"]
    rolls[at] = "100000000" if default_budget else "40"
    plugin = tmp_path_factory.mktemp("variants") / f"rules{next(_written)}.py"
    plugin.write_text('import mdp\nGAME = "reroll"\n\n\n@mdp.hookimpl\ndef mdp_variants():\n    return ['
                      + ", ".join(f'mdp.Variant("v{i}", {{"rolls": "{r}"}}, "{r} rolls")' for i, r in enumerate(rolls))
                      + "]\n")
    capsys.readouterr()
    budget = [] if default_budget else ["--max-states", "100"]
    assert main(["variants", REROLL, "-p", str(plugin), *budget]) == 3
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"mdp: error: variant v{at} (rolls={rolls[at]}): game reroll: "), err


@pytest.mark.slow  # its cases take a second of CPU or more in all
def test_the_variant_without_the_strategy_is_named(capsys):
    # Round 32, U32-02: "game yahtzee has no strategy 'greedy-bonus' (known: optimal)", though
    # four of its variants have it: the first variant without it (one turn) is named.
    assert main(["variants", "yahtzee", "--strategy", "greedy-bonus"]) == 2
    err = capsys.readouterr().err  # the first variant listed, one turn aiming at a Yahtzee
    assert err == "mdp: error: variant yahtzee: game yahtzee has no strategy 'greedy-bonus' (known: optimal)\n"


@pytest.mark.slow
def test_the_variant_whose_model_is_wrong_is_named(tmp_path, capsys):
    # Round 34, P34-06: a variant whose rules make a wrong model (a chance of 2) stopped
    # mdp variants with the game's line alone.
    plugin = tmp_path / "chances.py"
    plugin.write_text('import mdp\nGAME = "reroll"\n\n\n@mdp.hookimpl\ndef mdp_variants():\n'
                      '    return [mdp.Variant("two", {"rolls": "2"}, "two rolls")]\n\n\n'
                      "@mdp.hookimpl(wrapper=True)\ndef mdp_outcomes(params, state, action):\n"
                      "    outcomes = yield\n    return [(2 * p, s) for p, s in outcomes] if params['rolls'] == 2 "
                      "else outcomes\n")
    assert main(["variants", REROLL, "-p", str(plugin)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mdp: error: variant two (rolls=2): game reroll: "), err
