"""The picture of ``mdp targets --plot``: every total a point that shows, each curve's values
as the table's, the gains a bar each at a whole total, the axis of totals in whole numbers.
A game of one total drew an empty chart (a line of one point shows nothing, exit 0), and two
totals an axis ticked at 0.2, 0.4 ..."""

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdp.outputs.plot import UNSEEN, plot_targets


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=1, max_size=60), st.integers(-5, 5))
@pytest.mark.slow  # a picture each
def test_every_total_is_drawn(saved_figures, tmp_path_factory, chances, first):
    saved_figures.clear()
    frame = pl.DataFrame({"at_least": list(range(first, first + len(chances))),
                          "chance": [max(c) for c in chances],
                          "chance_best_mean": [min(c) for c in chances]})
    plot_targets(frame, str(tmp_path_factory.mktemp("t") / "t.png"), "a title")
    (figure,) = saved_figures
    curves, gap = figure.axes
    for line, column in zip(curves.get_lines(), ("chance", "chance_best_mean"), strict=True):
        assert list(line.get_xdata()) == frame["at_least"].to_list()
        assert list(line.get_ydata()) == pytest.approx([100 * v for v in frame[column].to_list()])
        assert line.get_marker() not in (None, "None", "") or len(chances) > 40  # seen alone
    bars = gap.patches
    assert [bar.get_x() + bar.get_width() / 2 for bar in bars] == frame["at_least"].to_list()
    low, high = gap.get_xlim()
    shown = [t for t, c in zip(frame["at_least"], frame["chance"]) if 100 * c >= UNSEEN]
    last = shown[-1] if shown else first + len(chances) - 1
    assert low < first and high > last  # every total within the axis, to the last that shows
    assert all(float(tick).is_integer() for tick in gap.get_xticks())


@pytest.mark.slow  # a picture
def test_a_tail_of_chances_too_small_to_see_is_left_out_and_said(saved_figures, tmp_path):
    # Whole Yahtzee's totals run to 1,575, its chances under 0.05% past 628: drawn whole,
    # three fifths of the axis was a flat line on 0. Halving from 100% at 0, the chance is
    # 0.05% or more up to 10 (100 / 2**10 = 0.098%), less from 11.
    saved_figures.clear()
    frame = pl.DataFrame({"at_least": list(range(60)), "chance": [0.5 ** t for t in range(60)],
                          "chance_best_mean": [0.25 ** t for t in range(60)]})
    plot_targets(frame, str(tmp_path / "t.png"), "a title")
    (figure,) = saved_figures
    _, gap = figure.axes
    low, high = gap.get_xlim()
    assert low < 0 and 10 < high < 11 + 1
    assert gap.get_xlabel() == "at least x points (from 11 to 59, every chance under 0.05%: left out)"
