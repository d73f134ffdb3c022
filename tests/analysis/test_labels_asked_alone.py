"""A batch game's labels asked in a table's batch are those it gives a state asked alone
(round 24: labels named by the batch's size, or swapped in batches of more than one, had
``mdp policy`` and ``mdp advise`` name one state's actions otherwise, and advise the
opposite, exit 0; round 25: the same for a state in the middle of its batch). The batch is
asked again with each state one place later, and its first, middle and last state alone."""

import types
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

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


def _row(swapped, width):
    """Key 100 leads at even odds to ``width`` keys of one stage (10, 11, ...), each with
    "A" to 0 and "B" at even odds to 0 or 2 (worth their key: A 0, B 1); a state at a place
    of ``swapped`` in a batch of more than one names its actions the other way round."""

    @mdp.hookimpl
    def mdp_initial_state():
        return 100

    @mdp.hookimpl
    def mdp_stage(states):
        keys = np.asarray(states, dtype=np.int64)
        return np.where(keys == 100, 2, np.where(keys >= 10, 1, 0))

    @mdp.hookimpl
    def mdp_expand(states, labels):
        keys = np.asarray(states, dtype=np.int64).tolist()
        counts, actions, ocounts, nexts, ids = [], [], [], [], []
        for place, k in enumerate(keys):
            if k == 100:
                counts.append(1), actions.append("go"), ocounts.append(width)
                nexts += list(range(10, 10 + width))
                ids += [2] * width
            elif k >= 10:
                counts.append(2), ocounts.extend([1, 2])
                swap = place in swapped and len(keys) > 1
                actions += ["B", "A"] if swap else ["A", "B"]
                nexts += [0, 0, 2]
                ids += [0, 1, 1]
            else:
                counts.append(0)
        return mdp.Expansion(np.array(counts), actions if labels else None, np.array(ocounts),
                             np.array(nexts), np.array(ids), (1, Fraction(1, 2), Fraction(1, width)),
                             [k for k in keys if k < 10])

    return types.SimpleNamespace(GAME_NAME="row", mdp_initial_state=mdp_initial_state,
                                 mdp_stage=mdp_stage, mdp_expand=mdp_expand)


@settings(max_examples=40, deadline=None)
@given(width=st.integers(1, 7), swapped=st.sets(st.integers(0, 6)))
@example(width=3, swapped={1}).via("round 25: the middle of three, named the other way")
@example(width=5, swapped={1, 3}).via("places alike both ways round")
@pytest.mark.slow
def test_labels_that_hang_on_a_place_in_the_batch_are_refused_wherever_it_is(width, swapped):
    """Round 25: labels swapped for a state neither first nor last of its batch passed, and
    `mdp policy` said A (worth 0) was best where `mdp advise` said B (worth 1)."""
    game = mdp.load_game(_row(swapped, width))
    try:
        table = mdp.policy(mdp.solve(mdp.compile(game)), game)
    except mdp.ModelError as error:
        assert str(error).startswith(("game row: asked twice for labels", "game row: asked alone for labels"))
        assert width > 1 and swapped & set(range(width))
        return
    rows = {(r["action"], r["value"]) for r in table.to_dicts() if r["action"] in ("A", "B")}
    assert rows == {("A", 0.0), ("B", 1.0)}  # each named by its own value
