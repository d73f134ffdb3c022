"""The check of a game's JavaScript copy of its round rule (mdp_round_ends_script) against
mdp_round_rule covers every round state of a small game: a copy wrong at one round state,
whichever, is refused before the page is made (round ten: a card of six boxes, wrong only
at a round state past the 16 of its round then checked, gave a page whose advice was off by
a point), and the page carries every one for its own check when it opens."""

from __future__ import annotations

import importlib.util
import re
import types
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp
from mdp.outputs.explorer import SAMPLE, _spread, checked_round_ends

engine_needed = pytest.mark.skipif(importlib.util.find_spec("py_mini_racer") is None,
                                   reason="mini-racer is not installed (pip install -e '.[test]')")

CARD = '''
"""A card of {n} boxes, a face of one die scored in each: box b scores face * (b + 1) where
face + b is odd, else the face."""
from fractions import Fraction
import numpy as np
import mdp

GAME_NAME = "card{n}"
N = {n}


def points(box, face):
    return face * (box + 1) if (face + box) % 2 else face


@mdp.hookimpl
def mdp_initial_state():
    return ("throw",)


@mdp.hookimpl
def mdp_actions(state):
    return ["throw"] if state[0] == "throw" else [f"b{{i}}" for i in range(N)] if state[0] == "face" else []


@mdp.hookimpl
def mdp_outcomes(state, action):
    if action == "throw":
        return [(Fraction(1, 6), ("face", f)) for f in range(1, 7)]
    return [(1, ("end", int(action[1:]), state[1]))]


@mdp.hookimpl
def mdp_terminal_value(state):
    return points(state[1], state[2])


@mdp.hookimpl
def mdp_round_start():
    return 0


@mdp.hookimpl
def mdp_round_rule(ends):
    bit = np.array([1 << b for _, b, _ in ends])
    scored = np.array([points(b, f) for _, b, f in ends])

    def rule(states):
        filled = states[:, None]
        following = np.where(filled & bit, -1, filled | bit)
        return mdp.RoundEnds(following, np.broadcast_to(scored, following.shape))
    return rule


@mdp.hookimpl
def mdp_round_columns(states):
    return {{"filled": [" ".join(str(i) for i in range(N) if s >> i & 1) for s in states.tolist()]}}
'''

SCRIPT = """function (filled, ends) {
  var got = {next: ends.map(function (end) { var bit = 1 << end[1]; return filled & bit ? -1 : filled | bit; }),
             points: ends.map(function (end) { var b = end[1], f = end[2]; return (f + b) % 2 ? f * (b + 1) : f; })};
  if (filled === BAD) got["WHAT"][END] = (BY)(got["WHAT"][END]);
  return got;
}"""


@cache
def _solved(folder: Path, n: int) -> tuple[Path, mdp.RoundsSolution]:
    path = folder / f"card{n}.py"
    path.write_text(CARD.format(n=n))
    solution = mdp.solve(mdp.compile(mdp.load_game(path)))
    assert isinstance(solution, mdp.RoundsSolution)
    return path, solution


def _script(bad: int, what: str, end: int, by: str) -> types.ModuleType:
    """A rule plugin giving the card's script, wrong at round state ``bad`` only."""
    plugin = types.ModuleType(f"script_{bad}_{what}_{end}")
    script = SCRIPT.replace("BAD", str(bad)).replace("WHAT", what).replace("END", str(end)).replace("BY", by)
    plugin.mdp_round_ends_script = mdp.hookimpl(lambda: script)  # type: ignore[attr-defined]
    return plugin


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("cards")


@pytest.mark.slow
@engine_needed
@settings(max_examples=25, deadline=None)
@given(n=st.integers(5, 7), data=st.data())
def test_a_script_wrong_at_any_one_round_state_is_refused(folder, n, data):
    path, solution = _solved(folder, n)
    # A round state with a box open (where every box is filled, every end ends the game and
    # its points count for nothing), and an end that fills an open box.
    bad = data.draw(st.integers(0, 2**n - 2), label="round state")
    box = data.draw(st.sampled_from([b for b in range(n) if not bad >> b & 1]), label="open box")
    face = data.draw(st.integers(1, 6), label="face")
    what, by = data.draw(st.sampled_from(
        [("points", "1"), ("points", "0.5"), ("points", "-3"), ("next", "1"), ("next", "64"),
         ("points", "new Number(0)"), ("points", "String(0)"), ("next", "new Number(0)")]),
        label="mistake")
    by = f"function (v) {{ return {by.replace('(0)', '(v)')}; }}" if "(0)" in by else \
        f"function (v) {{ return v + {by}; }}"
    ends = solution.model.round.states[:solution.model.round.n_terminal]
    end = ends.index(("end", box, face))
    game = mdp.load_game(path, plugins=[_script(bad, what, end, by)])
    solution = mdp.solve(mdp.compile(game))  # of the game with its plugin (mdp.checks.same_game)
    with pytest.raises(mdp.ModelError) as refused:
        checked_round_ends(solution, game)
    assert f"disagrees with mdp_round_rule at round state {bad} " in str(refused.value)
    assert f"end {('end', box, face)!r}" in str(refused.value)
    # What differs is said: a Number object was shown as the number it holds, "1 and 1".
    gives, rules = re.search(r"it gives the next round state (.*) points, mdp_round_rule (.*)$",
                             str(refused.value)).groups()
    assert gives != rules, str(refused.value)


@engine_needed
def test_a_right_script_is_checked_on_every_round_state(folder):
    path, solution = _solved(folder, 7)
    game = mdp.load_game(path, plugins=[_script(-1, "points", 0, "function (v) { return v + 1; }")])
    check = checked_round_ends(solution, game)
    assert check["made"] == check["carried"] == check["of"] == 2**7


def test_without_an_engine_the_page_carries_every_round_state_of_a_small_game(folder, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "py_mini_racer", None)
    path, solution = _solved(folder, 7)
    check = checked_round_ends(solution, mdp.load_game(path, plugins=[
        _script(-1, "points", 0, "function (v) { return v + 1; }")]))
    assert (check["made"], check["carried"], check["of"]) == (0, 2**7, 2**7)


@given(st.lists(st.integers(0, 200), min_size=1, max_size=14), st.integers(0, 1000))
def test_a_spread_takes_all_where_they_fit_and_a_share_of_every_round_otherwise(sizes, rows):
    start = np.cumsum([0, *sizes])
    keys = [np.arange(start[i], start[i + 1]) for i in range(len(sizes))]
    chosen = _spread(keys, rows)
    assert len(np.unique(chosen)) == len(chosen)
    assert np.isin(chosen, np.arange(start[-1])).all()
    if sum(sizes) <= rows:
        assert len(chosen) == sum(sizes)
    for k in keys:  # every round: all of it, or at least SAMPLE of its keys, its first and last among them
        taken = np.isin(k, chosen)
        assert taken.all() or taken.sum() >= SAMPLE and taken[0] and taken[-1]
    assert len(chosen) <= max(rows, SAMPLE * len(sizes))


@pytest.mark.slow
def test_a_plugin_that_changes_the_round_rule_alone_is_named(tmp_path, capsys):
    # Round 32, P32-20: a rule plugin doubling Yahtzee's points made the report fail blaming
    # the game's own script, its round state written "filled , upper 0".
    plugin = tmp_path / "doubled.py"
    plugin.write_text('import numpy as np\nimport mdp\n\nGAME = "yahtzee"\n\n\n'
                      "@mdp.hookimpl(wrapper=True)\ndef mdp_round_rule(params, ends):\n    rule = yield\n\n"
                      "    def doubled(states):\n        e = rule(states)\n"
                      "        return mdp.RoundEnds(e.next, np.asarray(e.points) * 2)\n    return doubled\n")
    from mdp.program.cli import main

    assert main(["report", "yahtzee", "--set", "card=yahtzee", "--set", "boxes=threes,chance", "-p",
                 str(plugin), "--out", str(tmp_path / "y.html")]) == 2
    err = capsys.readouterr().err
    assert "at round state 0 (filled=\"\" upper=0 holds_50=False), end " in err, err
    assert err.endswith(f"; plugin {plugin} changes mdp_round_rule, and gives the page no script of "
                        "its own (mdp_round_ends_script) to change it alike\n"), err
    assert not (tmp_path / "y.html").exists()
