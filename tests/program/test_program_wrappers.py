"""A program plugin may wrap the program's collecting hooks (mdp_analyses, mdp_commands,
mdp_formats, mdp_exports), in pluggy's newer form or its older one, returning what yield gave
it or a list of its own (round 33, P33-05 and P33-06: such a wrapper was called outside pluggy
to find whose an item is, driven with None, and ended in a traceback, or was refused as
having returned None; one that left no export ended mdp export in KeyError). Generated: each
hook wrapped each way, passing its answer on or dropping one item."""

import itertools
from pathlib import Path

import pytest

from mdp.program.cli import main

REROLL = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "reroll.py")
DROPPED = {"mdp_analyses": "policy", "mdp_commands": "params", "mdp_formats": "json", "mdp_exports": "prism"}
_written = itertools.count()


def wrapper(hook: str, old_style: bool, drop: bool) -> str:
    kept = f"[[item for item in answers if item.name != {DROPPED[hook]!r}] for answers in lists]" \
        if drop else "lists"
    if old_style:
        body = f"    outcome = yield\n    lists = outcome.get_result()\n    outcome.force_result({kept})\n"
    else:
        body = f"    lists = yield\n    return {kept}\n"
    marker = "hookwrapper=True" if old_style else "wrapper=True"
    return f"import mdp\n\n\n@mdp.hookimpl({marker})\ndef {hook}():\n{body}"


@pytest.mark.slow
@pytest.mark.parametrize("old_style", [False, True])
@pytest.mark.parametrize("drop", [False, True])
@pytest.mark.parametrize("hook", sorted(DROPPED))
def test_a_wrapper_of_a_program_hook_passes_its_answer_on_or_its_own(tmp_path, capsys, hook, old_style, drop):
    plugin = tmp_path / f"wraps{next(_written)}.py"
    plugin.write_text(wrapper(hook, old_style, drop))
    p = ["-p", str(plugin)]
    # Each line uses what the hook offers: the item dropped, and another.
    uses = {"mdp_analyses": (["policy", REROLL], ["distribution", REROLL]),
            "mdp_commands": (["params", REROLL], ["solve", REROLL]),
            "mdp_formats": (["policy", REROLL, "--format", "json"], ["policy", REROLL, "--format", "csv"]),
            "mdp_exports": (["export", REROLL, "--out", str(tmp_path / "m.prism")],
                            ["export", REROLL, "--out", str(tmp_path / "m.prism")])}[hook]
    dropped, other = uses
    code = main([*dropped, *p])
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") <= 1, err
    assert code == (2 if drop else 0), err
    if drop:  # none left to choose from, or not that one
        assert err.startswith("mdp: error: ") or err.startswith(f"mdp {dropped[0]}: error: "), err
    if hook != "mdp_exports":
        assert main([*other, *p]) == 0, capsys.readouterr().err
