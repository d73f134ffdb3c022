"""One game measures no spread: the sample's standard deviation (over n - 1) is 0/0, and an
interval of the mean from it is none. With one game of a value that is not a chance,
``sd``, ``low`` and ``high`` are null and the line says so (round 18, R18-N3: "95% confidence
interval 5 to 5" and sd 0, an interval that left out the true mean, 11.0092); a chance still
has Wilson's interval, which one game bounds; two games or more, their sample's spread, by hand
here."""

import json
import math
import statistics

from hypothesis import given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main


def test_one_game_of_points_has_no_spread_nor_interval(capsys):
    assert main(["simulate", "shutbox", "--set", "scoring=score", "--games", "1", "--seed", "1",
                 "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert (found["sd"], found["low"], found["high"]) == (None, None, None)
    assert main(["simulate", "shutbox", "--set", "scoring=score", "--games", "1", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "one game: no spread to measure, nor an interval" in out and "standard deviation" not in out


def test_one_game_of_a_chance_has_wilsons_interval():
    game = mdp.load_game("shutbox")
    found = mdp.simulate(mdp.solve(mdp.compile(game)), game, games=1, seed=1)
    assert found.low is not None and found.high is not None and found.low <= found.mean <= found.high


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 40), st.integers(0, 1000))
def test_two_games_or_more_have_their_samples_spread(games, seed):
    game = mdp.load_game("shutbox", scoring="score", tiles="1-4")
    found = mdp.simulate(mdp.solve(mdp.compile(game)), game, games=games, seed=seed)
    values = [v for v, n in zip(found.outcomes["open_sum"].to_list(), found.outcomes["games"].to_list())
              for _ in range(n)]
    assert math.isclose(found.sd, statistics.stdev(values), rel_tol=1e-12, abs_tol=1e-12)
    half = 1.959963984540054 * found.sd / math.sqrt(games)
    assert math.isclose(found.low, found.mean - half, abs_tol=1e-12)
