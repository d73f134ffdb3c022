"""A picture of games simulated says what play they were played by, as the value line does
and as ``mdp distribution --plot`` does (round 24: a strategy, a strategy against another, a
total to reach were in no line of the picture, which read as optimal play)."""

import pytest

pytest.importorskip("matplotlib")

from mdp.program.cli import main  # noqa: E402


@pytest.mark.slow
@pytest.mark.parametrize("argv, play", [
    (["shutbox", "--set", "tiles=1-4", "--strategy", "fewest-tiles"], "playing fewest-tiles"),
    (["pig", "--set", "goal=10", "--strategy", "hold-at-20", "--against", "hold-at-20"],
     "playing hold-at-20 against hold-at-20"),
    (["docs/examples/two_boxes.py", "--at-least", "10"], "played toward at least 10 points"),
])
def test_the_picture_of_games_says_their_play(saved_figures, tmp_path, capsys, argv, play):
    assert main(["simulate", *argv, "--games", "50", "--seed", "1", "--plot", str(tmp_path / "p.png")]) == 0
    titles = [text.get_text().replace("\n", " ") for figure in saved_figures
              for text in figure.texts + [axes.title for axes in figure.axes] if text.get_text()]
    line = next(line for line in capsys.readouterr().out.splitlines() if play in line)
    assert any(line in title for title in titles), (line, titles)
