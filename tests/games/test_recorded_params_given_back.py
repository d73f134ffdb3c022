"""The parameters a solve records (``--json``'s ``params``, the report's page: the game's
``shown_params``) are given back by ``--set`` to the same game, for every variant of every
game shipped (round 19: ``--variant twelve-box-321`` recorded ``dice=2`` beside its
``dice_schedule``, and that record, given back, was refused as ``dice`` having no effect).
A parameter at its default is as good as left out, so never refused as idle."""

import pytest

import mdp

GAMES = ["shutbox", "yahtzee", "pig"]


def _every_variant():
    for name in GAMES:
        for variant in [None, *(v.name for v in mdp.load_game(name).variants())]:
            yield pytest.param(name, variant, id=f"{name}-{variant}")


@pytest.mark.parametrize(("name", "variant"), list(_every_variant()))
def test_the_recorded_params_give_the_same_game_back(name, variant):
    game = mdp.load_game(name, variant=variant)
    recorded = {key: "" if value is None else str(value) for key, value in game.shown_params().items()}
    again = mdp.load_game(name, **recorded)
    assert dict(again.params) == dict(game.params)
