"""``mdp advise`` says what its values are of where they are not optimal play to the
objective's own aim, as ``mdp solve``'s value line does: ``--strategy``, ``--against`` and
``--minimize`` each name it in a line ``values: ...`` and in ``--json`` (``values``,
``strategy``, ``against``, ``sense``), and the strategy's own move is marked ``played``
(round 19: each printed the same header as optimal advice, and nothing in JSON)."""

import csv
import io
import json

import pytest

from mdp.program.cli import main

PIG = ["pig", "me=0", "opponent=0", "turn=0", "--set", "goal=30"]
SHUTBOX = ["shutbox", "open=1 2 3 5 8", "roll=9"]


def _run(capsys, *argv):
    capsys.readouterr()
    assert main(["advise", *argv]) == 0
    return capsys.readouterr().out


@pytest.mark.slow  # a second or more: Pig to 30 solved
@pytest.mark.parametrize(("argv", "values", "keys"), [
    # the words of mdp solve's value line for the same play (docs/cli.rst), written by hand
    ([*PIG, "--strategy", "hold-at-20"], "chance the player to move wins playing hold-at-20 "
     "against the fixed optimal policy, not a best reply to hold-at-20",
     {"strategy": "hold-at-20", "against": "optimal"}),  # (the other player's, in a game of two)
    ([*PIG, "--strategy", "hold-at-20", "--against", "hold-at-25"],
     "chance the player to move wins playing hold-at-20 against hold-at-25",
     {"strategy": "hold-at-20", "against": "hold-at-25"}),
    ([*SHUTBOX, "--minimize"], "chance of shutting the box (minimized)", {"sense": "min"}),
    ([*SHUTBOX, "--strategy", "fewest-tiles"], "chance of shutting the box playing fewest-tiles",
     {"strategy": "fewest-tiles"}),
])
def test_advice_says_what_its_values_are_of(argv, values, keys, capsys):
    text = _run(capsys, *argv).splitlines()
    assert text[1] == f"values: {values}"
    said = json.loads(_run(capsys, *argv, "--json"))
    assert said["values"] == values
    assert {k: said[k] for k in ("strategy", "against", "sense") if k in said} == keys


def test_optimal_advice_says_nothing_more(capsys):
    text = _run(capsys, *SHUTBOX)
    assert "values:" not in text and "played" not in text
    assert not {"values", "strategy", "against", "sense"} & set(json.loads(_run(capsys, *SHUTBOX, "--json")))


@pytest.mark.slow
@pytest.mark.parametrize("strategy", ["fewest-tiles", "random"])
def test_the_strategys_own_move_is_marked(strategy, capsys):
    # the moves it plays, and how often: the table's probability column (CSV), independently
    rows = list(csv.DictReader(io.StringIO(_run(capsys, *SHUTBOX, "--strategy", strategy, "--format", "csv"))))
    played = {row["shut"]: float(row["probability"]) for row in rows if float(row["probability"]) > 0}
    marked = {}
    for line in _run(capsys, *SHUTBOX, "--strategy", strategy).splitlines()[4:]:
        shut, _, mark = line.partition("  0.")
        if "played" in mark:
            after = mark.split("played")[1].strip()
            marked[shut.strip()] = float(after.rstrip("%")) / 100 if after else 1.0
    assert marked == played
