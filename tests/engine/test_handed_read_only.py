"""Every array mdp hands a game's or a plugin's code is read-only (mdp/handed.py): the keys
of the states a batch hook is asked about, the round states a round rule is asked about, the
results a match's payoff is given, what a strategy's aims read. Before, a hook that wrote
into its ``states`` changed the keys the engine then solved, and ``mdp solve --exact`` gave
a wrong fraction with exit 0 (three dice: 42.16265... for 42.16280...; a batch game 361/8
for 45). Now such a hook raises, and the one line names the game, the hook and what it
tried. The right values are derived by hand in tests/models.py (two boxes: 37/4; the
ladder: 9/16)."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import TWO_BOXES, KeptDie, Ladder, two_boxes, two_boxes_ends

import mdp


def _swap(a):
    a[0], a[-1] = a[-1], a[0]


def _shift(a):
    a[:] = a[::-1].copy()


def _add(a):
    a += 1


def _same(a):  # writes what is there already: harmless, but a write all the same
    a[0] = a[0]


def _sort(a):
    a.sort()


def _ufunc(a):
    np.negative(a, out=a)


WRITES = {f.__name__: f for f in (_swap, _shift, _add, _same, _sort, _ufunc)}
READ_ONLY = r"raised ValueError: .*read-only \(it wrote into an array mdp handed it, which is read-only: write into a copy\)"


def _writes(write, at_least):
    """``write`` applied to a batch of at least ``at_least`` (else the batch is left as is)."""
    def apply(states):
        if len(states) >= at_least:
            write(states)
    return apply


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(WRITES)), st.integers(1, 3), st.booleans())
def test_a_round_rule_that_writes_into_its_round_states_is_named(write, at_least, exact):
    # The answer is computed from a copy, right row for row: only the write is wrong.
    def rule(ends):
        def answer(states):
            kept = np.array(states, copy=True)
            _writes(WRITES[write], at_least)(states)
            return two_boxes_ends(ends, kept)
        return answer

    hook = mdp.hookimpl(rule)
    hook.__name__ = "mdp_round_rule"
    game = two_boxes(mdp_round_rule=hook)
    # Two boxes has round states 0 | 1, 2 | 3: batches of 1 and 2, each asked once at least.
    if at_least > 2:
        assert mdp.solve(mdp.compile(game), exact=exact).value == TWO_BOXES
        return
    with pytest.raises(mdp.ModelError, match=rf"^game two-boxes: mdp_round_rule's function "
                       rf"{READ_ONLY} \(asked about round states? \d"):
        mdp.solve(mdp.compile(game), exact=exact)


class _WritingLadder(Ladder):
    """The ladder whose batch hook ``hook`` writes into its ``states`` (answering from a copy)."""

    def __init__(self, hook, write):
        super().__init__(start=4)
        self.hook, self.write = hook, write

    def _given(self, hook, states):
        kept = np.array(states, copy=True)
        if hook == self.hook:
            self.write(states)
        return kept

    @mdp.hookimpl
    def mdp_stage(self, states):
        return Ladder.mdp_stage(self, self._given("mdp_stage", states))

    @mdp.hookimpl
    def mdp_expand(self, states):
        return Ladder.mdp_expand(self, self._given("mdp_expand", states))

    @mdp.hookimpl
    def mdp_columns(self, states, actions):
        return {"position": (self._given("mdp_columns", states) // 2).tolist()}


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["mdp_stage", "mdp_expand", "mdp_columns"]), st.sampled_from(sorted(WRITES)),
       st.booleans())
def test_a_batch_hook_that_writes_into_its_states_is_named(hook, write, exact):
    game = mdp.load_game(_WritingLadder(hook, WRITES[write]))
    with pytest.raises(mdp.ModelError, match=rf"^game ladder: {hook} {READ_ONLY}"):
        solution = mdp.solve(mdp.compile(game), exact=exact)
        assert solution.value == Fraction(9, 16)  # by hand (tests/models.py): mdp_columns' turn
        mdp.policy(solution, game)


class _PayingDie(KeptDie):
    """Roll a three-sided die, keep it or roll once more; the higher face wins 1. The payoff
    writes into the results it is given."""

    def __init__(self, write):
        self.write = write

    @mdp.hookimpl
    def mdp_state_columns(self, state):
        return {"score": state[1]}

    @mdp.hookimpl
    def mdp_match_rules(self):
        def payoff(results):
            won = np.sign(results[:, 1] - results[:, 0])
            self.write(results[:, 0])
            return np.stack([-won, won], axis=1)
        return mdp.MatchRules("score", payoff)


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(sorted(WRITES)), st.booleans())
def test_a_match_payoff_that_writes_into_its_results_is_named(write, exact):
    game = mdp.load_game(_PayingDie(WRITES[write]))
    with pytest.raises(mdp.ModelError, match=rf"^game die: the payoff of mdp_match_rules {READ_ONLY}"):
        mdp.match(mdp.compile(game), game, exact=exact)


MODEL_ARRAYS = ["action_counts", "action_next", "outcome_next", "outcome_prob", "layer_start",
                "chance_start", "states"]


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(MODEL_ARRAYS), st.sampled_from(sorted(WRITES)), st.booleans())
def test_a_strategy_that_writes_into_the_model_it_reads_is_named(field, write, exact):
    # The model is a value a strategy is handed (weights, aims) and a solution keeps.
    def weights(game, model):
        WRITES[write](getattr(model, field))
        return np.ones(model.n_actions, dtype=np.int64)

    game = mdp.load_game(Ladder())
    model = mdp.compile(game)
    with pytest.raises(mdp.ModelError, match=rf"^game ladder: strategy writer {READ_ONLY}"):
        mdp.evaluate(model, mdp.Strategy("writer", "writes", weights), game=game, exact=exact)
    assert mdp.solve(model, exact=True).value == Fraction(9, 16)

    def aims(game, rounds, keys, ends):
        WRITES[write](rounds.keys[1] if field == "states" else getattr(rounds.round, field))
        return np.array(ends.points)

    game = two_boxes()
    rounds = mdp.compile(game)
    with pytest.raises(mdp.ModelError, match=rf"^game two-boxes: strategy writer {READ_ONLY}"):
        mdp.evaluate(rounds, mdp.RoundsStrategy("writer", "writes", aims), game=game, exact=exact)
    assert mdp.solve(rounds, exact=True).value == TWO_BOXES
