"""An older wrapper (``hookwrapper=True``) that reads ``outcome.get_result()`` around a game's
hook that raised gives the error again as it tears down, the ordinary way such a wrapper
reads an answer: the error is said once, in one line naming the game's hook (round 34,
P34-11: pluggy's warning came first, "load.py, line 89: PluggyTeardownRaisedWarning: ...",
its lines in escapes, naming the plugin as if it had raised)."""

import warnings

import pytest
from models import COIN

from mdp.program.cli import main

# Each of BROKEN takes out of the coin of tests/models.py what a hook answers with (a KeyError).
BROKEN = {
    "mdp_terminal_value": ('"mid": Fraction(2, 5)', "", "'mid' (state 'mid')"),
    "mdp_outcomes": ('"b": [(1, "mid")]', "", "'b' (state 'start', action 'b')"),
}
WRAPPER = '''import mdp

GAME = "coin"


@mdp.hookimpl(hookwrapper=True)
def HOOK(ARGS):
    outcome = yield
    outcome.get_result()
'''


@pytest.mark.parametrize("hook", sorted(BROKEN))
def test_a_wrapper_reading_a_failing_hook_s_answer_adds_no_warning(tmp_path, capsys, hook):
    present, gone, where = BROKEN[hook]
    (tmp_path / "coin.py").write_text(COIN.replace(present, gone))
    args = "params, state" + (", action" if hook == "mdp_outcomes" else "")
    (tmp_path / "reads.py").write_text(WRAPPER.replace("HOOK", hook).replace("ARGS", args))
    with warnings.catch_warnings(record=True) as warned:  # (as a caller that records them:
        warnings.simplefilter("always")  # mdp leaves the showing of what it warns to it)
        assert main(["solve", str(tmp_path / "coin.py"), "-p", str(tmp_path / "reads.py")]) == 2
    assert [str(w.message) for w in warned] == []
    assert capsys.readouterr().err == f"mdp: error: game coin: {hook} raised KeyError: {where}\n"
