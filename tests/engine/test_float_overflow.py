"""Numbers a float holds whose sums do not: refused in floats in one line naming the cause,
solved exactly without a float, and never a numpy warning shown with a line of source."""

import numpy as np
import pytest
from models import two_boxes

import mdp
from mdp.program.cli import main


def huge(points):
    """Two boxes whose every end earns ``points``: two rounds, 2 * points in all."""

    @mdp.hookimpl
    def mdp_round_rule(ends):
        box = np.array([0 if end[1] == "A" else 1 for end in ends])

        def rule(states):
            filled = states[:, None]
            open_ = (filled >> box) & 1 == 0
            earned = np.empty(open_.shape, dtype=object if isinstance(points, int) else float)
            earned[...] = points
            return mdp.RoundEnds(np.where(open_, filled | (1 << box), -1), earned)
        return rule

    return two_boxes(mdp_round_rule=mdp_round_rule)


@pytest.mark.parametrize("points", [10**308, 1.7e308, 9 * 10**307])
def test_sums_past_a_float_are_refused_in_floats_naming_the_cause(points):
    with pytest.raises(mdp.ModelError, match=r"game two-boxes: an end earning .* points leads to "
                                             r"round state \d, worth .*: together past what a "
                                             r"float holds \(about 1.8e308\)"):
        mdp.solve(mdp.compile(huge(points)))


@pytest.mark.parametrize("points", [10**308, 10**308 + 1, 17 * 10**306])
def test_they_are_solved_exactly_without_a_float(points):
    solution = mdp.solve(mdp.compile(huge(points)), exact=True)
    assert solution.value == 2 * points
    summary = solution.summary()
    assert summary["exact"] == f"{2 * points}/1"
    assert summary["value"] is None or summary["value"] == float(2 * points)


def test_no_numpy_warning_reaches_the_user(tmp_path, capsys, monkeypatch):
    # A rule plugin whose scoring rule overflows as numpy computes it.
    (tmp_path / "overflow.py").write_text(
        "import mdp\nimport numpy as np\nfrom mdp_games.shutbox.scoring import ScoringRule\n"
        "@mdp.hookimpl\ndef shutbox_scoring_rules():\n"
        "    return [ScoringRule('big', 'big', 'max', lambda box, masks: np.full(len(masks), 1e308) * 10)]\n")
    monkeypatch.chdir(tmp_path)
    assert main(["solve", "shutbox", "-p", "overflow.py", "--set", "tiles=1-3",
                 "--set", "scoring=big"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "RuntimeWarning" in err and "Traceback" not in err
    assert err.startswith("mdp: error: game shutbox: scoring rule big of plugin overflow.py raised "
                          "RuntimeWarning: overflow encountered in multiply")
