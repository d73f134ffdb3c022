"""A game that takes a warnings filter out, so that mdp's warnings meet another fate (round
23: ``warnings.resetwarnings()`` took out mdp's own filter, which makes a RuntimeWarning of
float arithmetic an error, and an overflow was then a warning beside a number gone wrong):
mdp sets its filter before the guard records the process, and a change of what becomes of
mdp's warnings, by a filter added or taken out, is refused and put back."""

import warnings

from hypothesis import given, settings
from hypothesis import strategies as st
from models import WALK

from mdp.program import states
from mdp.program.cli import main


def _outcome(filters, warned):
    """What Python's own filtering does, under ``filters``, with ``warned`` warned from an
    mdp module (the independent answer)."""
    with warnings.catch_warnings(record=True) as shown:
        warnings.filters[:] = filters
        warnings._filters_mutated()
        try:
            warnings.warn_explicit("x", warned, "budget.py", 1, module="mdp.engine.budget", registry={})
        except Warning:
            return "raised"
        return "shown" if shown else "hidden"


def _outcomes(filters):
    return [_outcome(filters, warned) for warned in (UserWarning, RuntimeWarning)]


@settings(max_examples=60, deadline=None)
@given(data=st.data(), reset=st.booleans())
def test_a_filter_taken_out_that_changes_the_fate_of_mdp_s_warnings_is_said_and_put_back(data, reset):
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=DeprecationWarning)  # a filter that is not mdp's
        kept = states.command_warnings()
        try:
            recorded = states.record()
            was = list(warnings.filters)
            if reset:
                warnings.resetwarnings()
            else:  # any of them taken out, mdp's own among them or not
                gone = data.draw(st.sets(st.sampled_from(range(len(was)))))
                warnings.filters[:] = [entry for i, entry in enumerate(was) if i not in gone]
                warnings._filters_mutated()
            after = list(warnings.filters)
            said = states.changed(recorded)
            if _outcomes(after) != _outcomes(was):
                assert said is not None and said.startswith("took out Python's warnings filter ")
                assert said.endswith(" (warnings.filters)")
                assert list(warnings.filters) == was  # put back
            else:
                assert said is None
                assert list(warnings.filters) == after
        finally:
            states.forget()
            kept.__exit__()


def test_a_game_that_resets_the_warnings_filters_is_refused_and_writes_nothing(tmp_path, capsys):
    game = tmp_path / "game.py"
    game.write_text(WALK.replace("import mdp", "import warnings\nimport mdp").replace(
        '    return {"walk": WORTH', '    warnings.resetwarnings()\n    return {"walk": 3'))
    out = tmp_path / "p.csv"
    assert main(["policy", str(game), "--out", str(out)]) == 2
    line = capsys.readouterr().err.splitlines()[-1]
    assert line.startswith("mdp: error: game walk ")
    assert "took out Python's warnings filter 'error' for RuntimeWarning (warnings.filters)" in line
    assert not out.exists()
    assert _outcome(warnings.filters, RuntimeWarning) != "raised"  # mdp's filter gone with the command
