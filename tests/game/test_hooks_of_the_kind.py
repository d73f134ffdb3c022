"""A rule plugin's hook that the play of this kind of game never calls (or never reads) is
refused as the game loads, naming the plugin, the hook and why: over every pair of a kind of
game (a state or a stage at a time, in rounds or not) and a hook of the game's hookspecs.
Where a game of rounds ignored a plugin's mdp_terminal_value (and its match rules and
outcome columns: mdp match printed the match of totals), a game played a state at a time
took a plugin's mdp_expand for its own, a game not in rounds a plugin's round rule, and a
game that names its rows with mdp_columns a plugin's mdp_state_columns.

Each refusal is checked to be true: with the check left out, the plugin's hook is never
called in a solve, or (mdp_terminal_value in rounds) its changed answer changes nothing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from models import Ladder

import mdp
import mdp.game.load
from mdp.game.played import never_called
from mdp.hookspecs import game as specs

ROOT = Path(__file__).resolve().parents[2]

HOOKS = sorted(name for name, value in vars(specs).items()
               if name.startswith("mdp_") and hasattr(value, "mdp_spec"))
"""Every hook of a game, from its hookspecs."""


class LadderRounds(Ladder):
    """Ladder (tests/models.py), both ways, played as one round: home earns 1 point."""

    GAME_NAME = "ladder-rounds"

    @mdp.hookimpl
    def mdp_round_start(self):
        return 0

    @mdp.hookimpl
    def mdp_round_rule(self, ends):
        home = np.array([1 if end == 0 else 0 for end in ends])

        def rule(states):
            nxt = np.where(states[:, None] == 0, 1, -1) * np.ones(len(ends), dtype=np.int64)
            return mdp.RoundEnds(nxt, np.broadcast_to(home, nxt.shape))
        return rule


KINDS = {  # (stages, rounds): a game of that kind
    (False, False): str(ROOT / "docs" / "examples" / "reroll.py"),
    (False, True): str(ROOT / "docs" / "examples" / "two_boxes.py"),
    (True, False): "shutbox",
    (True, True): LadderRounds(),
}


def _plugin(tmp_path, hook, body="    return (yield)\n"):
    path = tmp_path / f"rule_{hook}.py"
    path.write_text(f"import mdp\nCALLED = []\n\n@mdp.hookimpl(wrapper=True)\ndef {hook}():\n"
                    f"    CALLED.append(1)\n{body}")
    return str(path)


def _solve(game):
    return mdp.solve(mdp.compile(game), exact=True).value


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(KINDS), ids=lambda k: f"stages={k[0]}-rounds={k[1]}")
def test_every_hook_a_plugin_gives_is_refused_where_this_kind_never_calls_it(
        tmp_path, monkeypatch, kind):
    never = never_called(*kind, mdp.load_game(KINDS[kind]).implements("mdp_columns"))
    assert set(never) <= set(HOOKS)
    plain = _solve(mdp.load_game(KINDS[kind]))
    for hook in HOOKS:
        plugin = _plugin(tmp_path, hook)
        try:
            game = mdp.load_game(KINDS[kind], plugins=[plugin])
        except mdp.ModelError as error:
            assert hook in never, str(error)
            assert str(error).startswith(f"game {mdp.load_game(KINDS[kind]).name}: plugin "
                                         f"{plugin}'s {hook} would never be called: ")
            assert str(error).endswith(f"{never[hook]} (docs/rule-plugins.rst)")
            continue
        assert hook not in never
    with monkeypatch.context() as patched:  # the refusals are true: no solve calls them
        patched.setattr(mdp.game.load, "check_played", lambda *args: None)
        for hook in never:
            changed = "    answer = yield\n    return answer + 1\n" \
                if hook == "mdp_terminal_value" else "    return (yield)\n"
            (tmp_path / hook).mkdir()
            plugin = _plugin(tmp_path / hook, hook, changed)
            try:
                game = mdp.load_game(KINDS[kind], plugins=[plugin])
                value = _solve(game)
            except mdp.ModelError:  # it changed which way the game is played, and broke it
                assert hook in ("mdp_expand", "mdp_stage") and not kind[0]
                continue
            module = next(p for n, p in game.plugins.list_name_plugin() if n == plugin)
            assert not module.CALLED or hook == "mdp_terminal_value", hook
            assert value == plain, hook
