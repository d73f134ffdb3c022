"""A batch game's labels asked in a table's batch are those it gives a state asked alone
(round 24: labels named by the batch's size, or swapped in batches of more than one, had
``mdp policy`` and ``mdp advise`` name one state's actions otherwise, and advise the
opposite, exit 0). The first and last state of a batch are asked again alone."""

import types
from fractions import Fraction

import numpy as np
import pytest

import mdp


def _game(label):
    """Key 5, then keys 3 and 2 (one stage: a batch of two), then 1 and 0, which end worth
    their key; "A" leads to one key, "B" at even odds to it or another. ``label`` names the
    actions of a batch of ``n`` states."""
    following = {5: (3, 3, 2), 3: (1, 1, 0), 2: (0, 0, 1)}

    @mdp.hookimpl
    def mdp_initial_state():
        return 5

    @mdp.hookimpl
    def mdp_stage(states):
        return np.asarray(states, dtype=np.int64) // 2

    @mdp.hookimpl
    def mdp_expand(states, labels):
        keys = np.asarray(states, dtype=np.int64).tolist()
        playing = [k for k in keys if k >= 2]
        counts = [2 if k >= 2 else 0 for k in keys]
        nexts = [n for k in playing for n in following[k]]
        actions = [a for _ in playing for a in label(len(keys))] if labels else None
        return mdp.Expansion(np.array(counts), actions, np.array([1, 2] * len(playing)),
                             np.array(nexts), np.array([0, 1, 1] * len(playing)),
                             (1, Fraction(1, 2)), [k for k in keys if k < 2])

    return types.SimpleNamespace(GAME_NAME="labels", mdp_initial_state=mdp_initial_state,
                                 mdp_stage=mdp_stage, mdp_expand=mdp_expand)


@pytest.mark.parametrize("label", [
    lambda n: ["A", "B"] if n == 1 else ["B", "A"],   # swapped in a batch
    lambda n: [f"A{n}", f"B{n}"],                      # named by the batch's size
])
def test_labels_that_hang_on_the_batch_are_refused(label):
    game = mdp.load_game(_game(label))
    solution = mdp.solve(mdp.compile(game))
    with pytest.raises(mdp.ModelError, match=r"^game labels: asked alone for labels, mdp_expand gave "):
        mdp.policy(solution, game)


def test_labels_the_same_alone_and_in_a_batch_are_taken():
    game = mdp.load_game(_game(lambda n: ["A", "B"]))
    assert mdp.policy(mdp.solve(mdp.compile(game)), game).height > 0
