"""A picture of outcomes shows each one, wherever they lie: outcomes far apart (0 and 1000,
or -1e15 and 1e15) were drawn as bars one unit wide, slivers on the frame's edges or none at
all; the cumulative line was drawn straight between outcomes (70% at 0 between -1 and 1,
where the share at most 0 is 40%); past 1e15 the axis said two scales, its own label's and
matplotlib's. Generated outcomes of every spread: each bar is at least a pixel wide, inside
the frame, and no two overlap; the cumulative line is a step, at each outcome the share at
most it; the axis has one scale."""

import itertools

import polars as pl
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

pytest.importorskip("matplotlib")

from drawing import plotting  # noqa: E402

import mdp  # noqa: E402
from mdp.outputs import plot  # noqa: E402
from mdp.program.cli import main  # noqa: E402

SPREAD = st.sampled_from([1.0, 1e3, 1e9, 1e14, 1e15, 1e30, 1e300])
OUTCOMES = st.builds(lambda units, scale: sorted({u * scale for u in units}),
                     st.lists(st.integers(-1000, 1000), min_size=1, max_size=8), SPREAD)


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(outcomes=OUTCOMES, weights=st.lists(st.integers(1, 9), min_size=8, max_size=8))
@example(outcomes=[0.0, 1000.0], weights=[2, 3] * 4)
@example(outcomes=[-1e15, 1e15], weights=[1] * 8)
@example(outcomes=[-1.0, 0.0, 1.0], weights=[4, 3, 3] + [1] * 5)
def test_every_outcome_is_a_bar_the_axis_shows_and_the_cumulative_a_step(saved_figures, tmp_path,
                                                                          outcomes, weights):
    saved_figures.clear()
    p = [w / sum(weights[:len(outcomes)]) for w in weights[:len(outcomes)]]
    frame = pl.DataFrame({"value": outcomes, "probability": p})
    plot.plot_distribution(frame, str(tmp_path / "d.png"), "outcomes")
    (figure,) = saved_figures
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
    xs, ys = cumulative.get_data()  # from before the first outcome, then at each, then past
    assert list(xs[1:-1]) == pytest.approx(centres, rel=1e-9, abs=1e-9)
    assert list(ys[1:-1]) == pytest.approx([min(s, 100.0) for s in itertools.accumulate(100 * c for c in p)])
    assert ys[0] == 0 and xs[0] < xs[1] and xs[-1] > xs[-2]
    # One scale: the label's, or matplotlib's own beside the axis, not both.
    assert scale == 1.0 or bars.xaxis.get_offset_text().get_text() == ""


ANY_OUTCOME = st.one_of(st.text(max_size=30), st.none(), st.integers(-10**30, 10**30).map(str),
                        st.fractions(max_denominator=100).map(str),
                        st.floats(allow_nan=True, allow_infinity=True))


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=st.lists(ANY_OUTCOME, min_size=1, max_size=12), constant=st.booleans())
@example(values=["win", "lose"], constant=False).via("round 25: text outcomes, a traceback")
@example(values=[None, 3.0], constant=False).via("round 25: an end without an outcome")
@example(values=[float("inf"), 1.0], constant=False).via("round 25: inf, no exact value beside")
@example(values=["first", "second"], constant=True).via("round 25: Pig, every end worth 1")
def test_outcomes_of_any_kind_are_drawn_a_bar_each(saved_figures, tmp_path, values, constant):
    """Any outcome a table holds is drawn (round 25: text, None, a fraction or an int shown
    as text, inf: a traceback), one bar for each distinct value of the first column that
    differs (Pig's every end worth 1: who won; its two outcomes were one bar at 1), as high
    as the chances of its outcomes added."""
    saved_figures.clear()
    kind = pl.Float64 if all(isinstance(v, float) for v in values) else pl.String
    values = [v if kind == pl.Float64 or v is None else str(v) for v in values]
    frame = pl.DataFrame({"value": [1] * len(values), "x": values,
                          "probability": [1 / len(values)] * len(values)},
                         schema={"value": pl.Int64, "x": kind, "probability": pl.Float64})
    plot.plot_distribution(frame.drop("value") if not constant else frame, str(tmp_path / "d.png"), "t")
    (figure,) = saved_figures
    bars = figure.axes[0]
    column = "x" if not constant or frame["x"].n_unique() > 1 else "value"  # the first varied
    assert bars.get_xlabel().split(" (times 1e")[0] == column
    distinct = frame.group_by(column).agg(pl.col("probability").sum())
    heights = sorted(round(bar.get_height(), 9) for bar in bars.patches)
    assert heights == sorted(round(100 * p, 9) for p in distinct["probability"].to_list())


@pytest.mark.parametrize("argv", list(plotting()))
@pytest.mark.parametrize("given", [["--plot", ""], ["--plot="]])
def test_an_empty_name_for_the_picture_is_refused_before_any_work(argv, given, capsys, monkeypatch):
    """Round 25: ``--plot ""`` (a variable unset in a script) was taken as no picture, exit
    0, nothing said; ``--out ""`` is refused, and so is it, by every command that draws."""
    def compile(*args, **kwargs):
        raise AssertionError("compiled before the refusal")

    monkeypatch.setattr(mdp, "compile", compile)
    assert main([*argv, *given]) == 2
    assert capsys.readouterr().err == "mdp: error: an empty file name was given as the output; name a file\n"


@pytest.mark.slow
@pytest.mark.parametrize("error", [ValueError("Failed to find font DejaVu Sans"), RuntimeError("x"),
                                   KeyError("family"), OSError(5, "broken")])
def test_matplotlib_failing_to_draw_is_one_line_and_no_picture(tmp_path, monkeypatch, error):
    """Round 25: a game that took matplotlib's fonts away had --plot end in a traceback."""
    import matplotlib.figure

    def failing(figure, *args, **kwargs):
        raise error

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", failing)
    frame = pl.DataFrame({"value": [0, 1], "probability": [0.5, 0.5]})
    said = "d.png: cannot write: broken" if isinstance(error, OSError) else \
        f"^the picture could not be drawn: matplotlib raised {type(error).__name__}"
    with pytest.raises(mdp.MdpError, match=said):
        plot.plot_distribution(frame, str(tmp_path / "d.png"), "t")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_matplotlib_writing_nothing_is_no_picture(tmp_path, monkeypatch, suffix):
    """Round 26: a game that made matplotlib write nothing (its image writer replaced) had an
    empty picture put in place and announced, exit 0."""
    import matplotlib.figure

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", lambda figure, *args, **kwargs: None)
    frame = pl.DataFrame({"value": [0, 1], "probability": [0.5, 0.5]})
    with pytest.raises(mdp.MdpError, match="^the picture could not be drawn: matplotlib wrote nothing$"):
        plot.plot_distribution(frame, str(tmp_path / f"d.{suffix}"), "t")
    assert list(tmp_path.iterdir()) == []
