"""A rule plugin's wrapper of a batch hook (mdp_expand, mdp_stage) whose answer is wrong is
the plugin's fault, named as the per-state hooks name it (round 33, P33-01: the game was
blamed, and its author hunted in the game's file). Generated: wrappers of Shut the Box's
batch hooks that change the answer in the ways a careless plugin does."""

import itertools

import pytest

import mdp

WRONG = {
    ("mdp_expand", "a list"): "return [answer]",
    ("mdp_expand", "text"): "return 'expansion'",
    ("mdp_stage", "floats"): "return answer.astype(float) + 0.5",
    ("mdp_stage", "too few"): "return answer[:-1]",
    ("mdp_stage", "a list"): "return [answer]",
}
_written = itertools.count()


@pytest.mark.parametrize("hook, kind", sorted(WRONG))
@pytest.mark.parametrize("form", ["wrapper=True", "hookwrapper=True"])
def test_a_wrappers_wrong_batch_answer_is_the_plugins(tmp_path, hook, kind, form):
    arguments = "states, labels" if hook == "mdp_expand" else "states"
    body = (f"    answer = yield\n    {WRONG[hook, kind]}\n" if form == "wrapper=True" else
            f"    outcome = yield\n    answer = outcome.get_result()\n"
            f"    outcome.force_result((lambda: ({WRONG[hook, kind].removeprefix('return ')}))())\n")
    plugin = tmp_path / f"house{next(_written)}.py"
    plugin.write_text(f'import mdp\n\nGAME = "shutbox"\n\n\n@mdp.hookimpl({form})\ndef {hook}({arguments}):\n{body}')
    with pytest.raises(mdp.ModelError) as refused:
        mdp.compile(mdp.load_game("shutbox", tiles="1-3", plugins=[str(plugin)]))
    said = str(refused.value)
    assert said.startswith(f"game shutbox: plugin {plugin}'s {hook} ") and "\n" not in said, said
