"""Every text of a picture is drawn as it was given: a game's rules line, its objective's
name and its columns are its own words, where ``$`` is money, not the start of matplotlib's
mathematics (``"50% for $5 or 100% for $10"`` stopped the drawing with a traceback, and the
table of --out was not written; ``"stake $5, win $10"`` was drawn mangled). Generated texts
(any printable characters, the mathematics' own ``$ \\ ^ _ { }`` among them) on each picture
mdp draws, and on every command that draws one (found in the parser): no error, and each
text read back from the figure's artists is the text given, drawn as plain text."""

import attrs
import polars as pl
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

pytest.importorskip("matplotlib")

from drawing import plotting  # noqa: E402

import mdp  # noqa: E402
from mdp.outputs import plot  # noqa: E402
from mdp.program.cli import main  # noqa: E402

TEXT = st.text(st.one_of(st.sampled_from("$\\^_{}%#&~"), st.characters(min_codepoint=32, max_codepoint=126)),
               min_size=1, max_size=40).filter(lambda text: text.strip() == text and text)


@pytest.fixture
def drawn(monkeypatch):
    """The texts of every figure written, read from its artists as it is saved: each text
    with whether it is drawn as plain text (no mathematics, no TeX)."""
    import matplotlib.figure
    import matplotlib.text

    texts = []
    save = matplotlib.figure.Figure.savefig

    def reading(figure, *args, **kwargs):
        texts.extend((t.get_text(), not t.get_parse_math() and not t.get_usetex())
                     for t in figure.findobj(matplotlib.text.Text) if t.get_text())
        return save(figure, *args, **kwargs)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", reading)
    return texts


DOLLARS = "Reroll: 50% for $5 or 100% for $10, " * 6  # two dollars a line: matplotlib's wrap read math


def _shown(texts):
    """The texts drawn, a title's lines joined again by the spaces they were broken at."""
    return [text.replace("\n", " ") for text, _ in texts]


def _all_plain(texts):
    return all(plain for _, plain in texts)


SETTINGS = settings(max_examples=12, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.mark.slow
@SETTINGS
@given(TEXT, TEXT)
@example(DOLLARS, "stake $5, win $10")
@example("0", "*").via("a column named as Polars' every column: the outcomes grouped by name")
def test_a_distribution_is_drawn_with_its_texts_as_given(drawn, tmp_path, title, column):
    drawn.clear()
    column = column if column != "probability" else "p" + column
    frame = pl.DataFrame({column: [0, 1, 2], "probability": [0.25, 0.5, 0.25]})
    path = plot.plot_distribution(frame, str(tmp_path / "d.png"), title, share=title)
    assert (tmp_path / "d.png").stat().st_size > 0 and path == str(tmp_path / "d.png")
    shown = _shown(drawn)
    assert title in shown and column in shown and f"cumulative: {column} at most x" in shown
    assert f"{title} of the outcome (%)" in shown and _all_plain(drawn)


@pytest.mark.slow
@SETTINGS
@given(TEXT, st.lists(TEXT, min_size=3, max_size=3, unique=True))
@example(DOLLARS, ["$x$", "$y", "value in $"])
def test_a_grid_is_drawn_with_its_texts_as_given(drawn, tmp_path, title, columns):
    drawn.clear()
    x, y, value = columns
    frame = pl.DataFrame({x: [0, 1, 0, 1], y: [0, 0, 1, 1], value: [1.0, 2.0, 3.0, 4.0]})
    plot.plot_grid(frame, str(tmp_path / "g.svg"), title, x, y, value)
    shown = _shown(drawn)
    assert {title, x, y, value} <= set(shown) and _all_plain(drawn)


@pytest.mark.slow
@SETTINGS
@given(TEXT)
@example(DOLLARS)
def test_targets_are_drawn_with_the_title_as_given(drawn, tmp_path, title):
    drawn.clear()
    frame = pl.DataFrame({"at_least": [0, 1, 2], "chance": [1.0, 0.5, 0.25],
                          "chance_best_mean": [1.0, 0.5, 0.2]})
    plot.plot_targets(frame, str(tmp_path / "t.png"), title)
    assert title in _shown(drawn) and _all_plain(drawn)


@pytest.mark.slow
@pytest.mark.parametrize("argv", list(plotting()))
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rules=TEXT, objective=TEXT)
@example(rules=DOLLARS, objective="expected winnings in $, 50% of $ stake")
def test_every_command_draws_the_game_s_own_words_as_given(argv, drawn, tmp_path, monkeypatch,
                                                           capsys, rules, objective):
    drawn.clear()
    objective_of = mdp.Game.objective.fget
    monkeypatch.setattr(mdp.Game, "describe", lambda game: rules)
    monkeypatch.setattr(mdp.Game, "objective",
                        property(lambda game: attrs.evolve(objective_of(game), name=objective)))
    out, picture = tmp_path / "t.csv", tmp_path / "t.png"
    out.write_text("old")
    assert main([*argv, "--out", str(out), "--plot", str(picture)]) == 0, capsys.readouterr().err
    assert out.read_text() != "old" and picture.stat().st_size > 0
    shown = _shown(drawn)
    assert any(text.startswith(rules) for text in shown), shown
    if argv[0] in {"distribution", "lengths"}:  # their titles hold the value line
        assert any(objective in text for text in shown), shown
    assert _all_plain(drawn)
