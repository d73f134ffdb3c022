"""A rule plugin's wrapper (``@mdp.hookimpl(wrapper=True)``, or pluggy's older
``hookwrapper=True`` with ``outcome.force_result``) returns what ``yield`` gave it, or an
answer of its own (round 32, P32-08 and P32-09): one that forgot its ``return`` erased the
game's answer without a word (a minimized objective maximized, two players one, a game of
rounds one round), and one that returned None, a generator, a number or a set for a hook
whose every implementation answers ended in a traceback. Generated: hooks of one answer and
of every answer, both forms of wrapper, and what a careless wrapper returns; each refused in
one line naming the game, the plugin and the hook, or the game's own answer solved."""

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdp.program.cli import main

REROLL = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "reroll.py")
EVERY = ["mdp_params", "mdp_variants", "mdp_check", "mdp_strategies"]  # every implementation answers
ONE = ["mdp_objective", "mdp_describe", "mdp_initial_state", "mdp_actions", "mdp_estimate_states"]
RETURNS = {"what yield gave": "got", "nothing": "None", "a generator": "(x for x in [])", "a number": "5",
           "a set": "set()"}
ARGUMENTS = {"mdp_params": "", "mdp_variants": "", "mdp_check": "params", "mdp_actions": "params, state"}
_written = itertools.count()


def plugin(hook: str, old_style: bool, returned: str) -> str:
    arguments = ARGUMENTS.get(hook, "params")
    if old_style:
        body = f"    outcome = yield\n    got = outcome.get_result()\n    outcome.force_result({returned})\n"
    else:
        body = f"    got = yield\n    return {returned}\n"
    marker = "hookwrapper=True" if old_style else "wrapper=True"
    return f'import mdp\n\nGAME = "reroll"\n\n\n@mdp.hookimpl({marker})\ndef {hook}({arguments}):\n{body}'


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(EVERY + ONE), st.booleans(), st.sampled_from(sorted(RETURNS)))
def test_a_wrapper_returns_an_answer(tmp_path_factory, capsys, hook, old_style, returned):
    if hook in ONE and returned not in ("what yield gave", "nothing"):
        returned = "nothing"  # (a hook's own answer of another kind is checked as every answer)
    path = tmp_path_factory.mktemp("wrapper") / f"wraps{next(_written)}.py"
    path.write_text(plugin(hook, old_style, RETURNS[returned]))
    capsys.readouterr()
    command = "strategies" if hook == "mdp_strategies" else "solve"  # (the one that asks it)
    code = main([command, REROLL, "-p", str(path), "--exact"])
    out, err = capsys.readouterr()
    if returned == "what yield gave":  # the game's own answer: 14/3 by hand
        assert code == 0 and ("exact: 14/3" in out or "= 14/3" in out), err
        return
    assert code == 2 and out == "" and err.count("\n") == 1, err
    lead = f"mdp: error: game reroll: plugin {path}'s {hook} (a wrapper) returned "
    assert err.startswith(lead), err
    assert (", where the implementations inside it answered" in err) if hook in ONE else \
        ", not the list of answers yield gives it" in err


@pytest.mark.slow
@pytest.mark.parametrize("error", ["mdp.TooLarge('too large')", "mdp.ModelError('forced')",
                                   "mdp.ParamError('forced')", "KeyError('x')"])
@pytest.mark.parametrize("hook", ["mdp_terminal_value", "mdp_describe"])
def test_an_exception_an_older_wrapper_sets_is_the_plugins(tmp_path, capsys, error, hook):
    # Round 33, P33-07: outcome.force_exception(mdp.TooLarge(...)) passed as mdp's own
    # (the plugin's bare text, exit 3 for a game of 19 states).
    arguments = "params, state" if hook == "mdp_terminal_value" else "params"
    path = tmp_path / "forces.py"
    path.write_text(f'import mdp\n\nGAME = "reroll"\n\n\n@mdp.hookimpl(hookwrapper=True)\ndef {hook}({arguments}):\n'
                    f"    outcome = yield\n    outcome.force_exception({error})\n")
    assert main(["solve", REROLL, "-p", str(path)]) == 2
    err = capsys.readouterr().err
    kind = error.split("(")[0].removeprefix("mdp.")
    assert err.startswith(f"mdp: error: game reroll: plugin {path}'s {hook} raised {kind}: "), err
