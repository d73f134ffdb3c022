"""mdp targets makes a row for every total from 0 to the most a game can earn: a game that
scores in the tens of thousands took 130 microseconds a row, each asked of the sweep, where
nearly every chance is surely 1 (2**16 points a round: 131,079 rows in 17.7 s; 2**20:
minutes; 2**40: never), with no refusal. The totals below the least surely reached are now
one cheap path, and a table of more totals than a table of targets may have is refused
before the work (exit code 3), in floats and exactly. The games are two boxes (tests/models.py)
with ``by`` points more at every end: both rounds are always played, so every total is the
total of two boxes and ``2 * by`` more, and the table is that of two boxes shifted."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import two_boxes, two_boxes_ends

import mdp
import mdp.analysis.targets
import mdp.engine.rounds.reach


def _game(by):
    @mdp.hookimpl
    def mdp_round_rule(ends):
        return lambda states: two_boxes_ends(ends, states, by=by)

    return two_boxes(mdp_round_rule=mdp_round_rule)


@pytest.fixture(scope="module")
def unshifted():
    """The table of two boxes itself (0 to 18), exactly."""
    game = two_boxes()
    return mdp.analysis.targets.targets(mdp.compile(game), game, exact=True)


LIMIT = 3_000


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2 * LIMIT) | st.integers(2**40, 2**48), st.booleans())
@pytest.mark.slow
def test_a_table_of_many_totals_is_made_fast_or_refused_before_the_work(unshifted, by, exact):
    game = _game(by)
    model = mdp.compile(game)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mdp.analysis.targets, "MOST_TOTALS", LIMIT)
        patch.setattr(mdp.engine.rounds.reach, "MOST_EXACT_COLUMNS", LIMIT)
        most = 2 * (by + 12)  # the most points of a round, 12 (an even six in B), twice
        if most + 1 > LIMIT:
            def swept(*args, **kwargs):
                raise AssertionError("the sweep ran before the refusal")
            patch.setattr(mdp.analysis.targets, "solve_reach", swept)
            with pytest.raises(mdp.TooLarge, match=(
                    rf"^game two-boxes: the chance of at least every total the points can "
                    rf"reach, up to {most + 1:,}, is more rows than the {LIMIT:,} a "
                    rf"table of targets may have{' in exact numbers' if exact else ''}; ask for "
                    r"one total instead \(mdp solve GAME --at-least T\)$")):
                mdp.analysis.targets.targets(model, game, exact=exact)
            return
        frame = mdp.analysis.targets.targets(model, game, exact=exact)
    assert frame["at_least"].to_list() == list(range(2 * by + 19))
    for column in ("chance", "chance_best_mean"):
        below = frame[column][: 2 * by].to_list()
        assert below == [1.0] * (2 * by)  # every total below 2 * by is surely reached
        if exact:
            assert frame[f"{column}_exact"][: 2 * by].to_list() == ["1/1"] * (2 * by)
            assert frame[f"{column}_exact"][2 * by:].to_list() == unshifted[f"{column}_exact"].to_list()
        else:
            shifted = [float(Fraction(c)) for c in unshifted[f"{column}_exact"]]
            assert frame[column][2 * by:].to_list() == pytest.approx(shifted, rel=1e-12)


@settings(max_examples=10, deadline=None)
@given(st.integers(-30, -1), st.booleans())
def test_where_points_are_negative_the_table_starts_at_the_least_total_surely_earned(unshifted, by, exact):
    # Every end earns ``by`` points less than two boxes' (tests/models.py), so every total is
    # two boxes' shifted by 2 * by: the table starts at the least total surely earned, two
    # boxes' (``sure``, its last chance of 1) shifted, not at 0 (it began at 0, where every
    # chance was 1 or 0, and said playing for a total gained nothing), and runs to 0.
    game = _game(by)
    frame = mdp.analysis.targets.targets(mdp.compile(game), game, exact=exact)
    sure = max(t for t, c in enumerate(unshifted["chance_exact"]) if c == "1/1")
    first, last = min(2 * by + sure, 0), max(2 * by + 18, 0)
    assert frame["at_least"].to_list() == list(range(first, last + 1))
    rows = 19 - sure  # two boxes' rows from its sure total on
    for column in ("chance", "chance_best_mean"):
        if exact:
            assert frame[f"{column}_exact"][:rows].to_list() == unshifted[f"{column}_exact"][sure:].to_list()
            assert frame[f"{column}_exact"][rows:].to_list() == ["0/1"] * (last - first + 1 - rows)
        else:
            shifted = [float(Fraction(c)) for c in unshifted[f"{column}_exact"][sure:]]
            assert frame[column][:rows].to_list() == pytest.approx(shifted, rel=1e-12)
