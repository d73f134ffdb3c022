"""A picture of outcomes shows each one, wherever they lie: outcomes far apart (0 and 1000,
or -1e15 and 1e15) were drawn as bars one unit wide, slivers on the frame's edges or none at
all; the cumulative line was drawn straight between outcomes (70% at 0 between -1 and 1,
where the share at most 0 is 40%); past 1e15 the axis said two scales, its own label's and
matplotlib's. Generated outcomes of every spread: each bar is at least a pixel wide, inside
the frame, and no two overlap; the cumulative line is a step, at each outcome the share at
most it; the axis has one scale."""

import math

import polars as pl
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

pytest.importorskip("matplotlib")

from mdp.outputs import plot  # noqa: E402


@pytest.fixture
def figures(monkeypatch):
    """Every figure written, as it was when saved."""
    import matplotlib.figure

    kept = []
    save = matplotlib.figure.Figure.savefig

    def saving(figure, *args, **kwargs):
        done = save(figure, *args, **kwargs)
        kept.append(figure)
        return done

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", saving)
    return kept


SPREAD = st.sampled_from([1.0, 1e3, 1e9, 1e14, 1e15, 1e30, 1e300])
OUTCOMES = st.builds(lambda units, scale: sorted({u * scale for u in units}),
                     st.lists(st.integers(-1000, 1000), min_size=1, max_size=8), SPREAD)


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(outcomes=OUTCOMES, weights=st.lists(st.integers(1, 9), min_size=8, max_size=8))
@example(outcomes=[0.0, 1000.0], weights=[2, 3] * 4)
@example(outcomes=[-1e15, 1e15], weights=[1] * 8)
@example(outcomes=[-1.0, 0.0, 1.0], weights=[4, 3, 3] + [1] * 5)
def test_every_outcome_is_a_bar_the_axis_shows_and_the_cumulative_a_step(figures, tmp_path,
                                                                          outcomes, weights):
    figures.clear()
    p = [w / sum(weights[:len(outcomes)]) for w in weights[:len(outcomes)]]
    frame = pl.DataFrame({"value": outcomes, "probability": p})
    plot.plot_distribution(frame, str(tmp_path / "d.png"), "outcomes")
    (figure,) = figures
    bars, line = figure.axes
    low, high = bars.get_xlim()
    rectangles = sorted(bars.patches, key=lambda r: r.get_x())
    assert len(rectangles) == len(outcomes)
    for bar in rectangles:  # at least a pixel wide, its edge drawn, within the frame
        (left, _), (right, _) = bars.transData.transform([(bar.get_x(), 0), (bar.get_x() + bar.get_width(), 0)])
        assert right - left + bar.get_linewidth() * figure.dpi / 72 >= 1 and bar.get_edgecolor() == bar.get_facecolor()
        assert low < bar.get_x() and bar.get_x() + bar.get_width() < high
    for left, right in zip(rectangles, rectangles[1:]):
        assert left.get_x() + left.get_width() <= right.get_x() * (1 + 1e-12) + 1e-12 * abs(right.get_x())
    # The axis's outcomes (over the power of ten its label says, if any) and their steps.
    scale = 1.0
    if "(times 1e" in bars.get_xlabel():
        scale = 10.0 ** int(bars.get_xlabel().rsplit("1e", 1)[1].rstrip(")"))
    centres = [bar.get_x() + bar.get_width() / 2 for bar in rectangles]
    assert centres == pytest.approx([o / scale for o in outcomes], rel=1e-9, abs=1e-9)
    (cumulative,) = line.get_lines()
    assert cumulative.get_drawstyle() == "steps-post"
    xs, ys = cumulative.get_data()
    share = 0.0
    for x, chance in zip(centres, p):
        share += 100 * chance
        (at,) = [i for i, v in enumerate(xs) if math.isclose(v, x, rel_tol=1e-12, abs_tol=1e-12)]
        assert ys[at] == pytest.approx(min(share, 100.0))
    assert ys[0] == 0 and xs[0] < centres[0] and xs[-1] > centres[-1]
    # One scale: the label's, or matplotlib's own beside the axis, not both.
    assert scale == 1.0 or bars.xaxis.get_offset_text().get_text() == ""
