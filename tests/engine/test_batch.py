"""The batch path of the engine (mdp_expand, mdp_stage) on the Ladder model of tests/models.py."""

from fractions import Fraction

import attrs
import numpy as np
import pytest
from models import Ladder

import mdp


@pytest.mark.parametrize(("start", "expected"), [(1, Fraction(5, 6)), (2, Fraction(3, 4)),
                                                 (3, Fraction(5, 8)), (4, Fraction(9, 16))])
def test_ladder_values_derived_by_hand(start, expected):
    game = mdp.load_game(Ladder(start))
    assert mdp.solve(mdp.compile(game), exact=True).value == expected
    assert mdp.solve(mdp.compile(game)).value == pytest.approx(float(expected), rel=1e-15)


def test_batch_and_per_state_paths_build_the_same_model():
    game = mdp.load_game(Ladder(6))
    batch, per_state = mdp.compile(game), mdp.compile(game, batch=False)
    assert (batch.n_states, batch.n_actions, batch.n_outcomes) == (
        per_state.n_states, per_state.n_actions, per_state.n_outcomes)
    exact = [mdp.solve(m, exact=True) for m in (batch, per_state)]
    assert exact[0].value == exact[1].value
    for key in range(0, 13, 2):
        assert exact[0].value_of(key) == exact[1].value_of(key)


def test_batch_policy_marks_the_tie():
    policy = mdp.policy(mdp.solve(mdp.compile(game := mdp.load_game(Ladder(3))), exact=True), game)
    at_three = policy.filter(policy["state"] == "6")
    assert at_three["optimal"].to_list() == [True, True]
    assert at_three["value_exact"].to_list() == ["5/8", "5/8"]


def check_beside(monkeypatch, beside: bool) -> None:
    """Each stage checked on another thread while the next is discovered (``beside``), or
    every check done before discovery goes on."""
    import importlib

    monkeypatch.setenv("MDP_THREADS", "2" if beside else "1")
    monkeypatch.setattr(importlib.import_module("mdp.engine.parallel"), "SMALL", 0)


class Broken(Ladder):
    """The Ladder with one thing wrong in its expansion of position 2."""

    def __init__(self, fault):
        super().__init__(3)
        self.fault = fault

    @mdp.hookimpl
    def mdp_expand(self, states):
        expansion = super().mdp_expand(states)
        if 4 not in states.tolist():
            return expansion
        if self.fault == "sum":
            table = (Fraction(5, 6), Fraction(1, 6), Fraction(3, 4), Fraction(1, 5))
            return attrs.evolve(expansion, probability_table=table)
        if self.fault == "negative":
            table = (Fraction(7, 6), Fraction(-1, 6), Fraction(3, 4), Fraction(1, 4))
            return attrs.evolve(expansion, probability_table=table)
        if self.fault == "rising":
            return attrs.evolve(expansion, next_states=np.full_like(expansion.next_states, 6))
        if self.fault == "size":
            return attrs.evolve(expansion, actions=expansion.actions[:1])
        if self.fault == "float keys":
            return attrs.evolve(expansion, next_states=expansion.next_states + 0.5)
        if self.fault == "huge key":
            nexts = np.where(expansion.next_states == 2, 2**63 + 2, expansion.next_states)
            return attrs.evolve(expansion, next_states=nexts.astype(np.uint64))
        if self.fault == "masked":  # the numbers a mask hides would be solved with unseen
            return attrs.evolve(expansion, next_states=np.ma.masked_array(expansion.next_states))
        if self.fault == "raise":
            raise RuntimeError("no ladder here")
        return "not an expansion"


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        ("sum", r"game ladder: mdp_expand: probabilities sum to 19/20, not 1 \(state 4, action 1\)"),
        ("negative", r"game ladder: mdp_expand: negative probability -1/6 \(state 4, action 0\)"),
        ("rising", r"game ladder: mdp_stage: the stage rises: state 6 has stage 3, above 2 \(state 4, action 0\)"),
        ("size", r"game ladder: mdp_expand gave 1 actions for 2 actions counted"),
        ("raise", r"game ladder: mdp_expand raised RuntimeError: no ladder here \(state 4\)"),
        ("type", r"game ladder: mdp_expand returned 'not an expansion', not an mdp.Expansion "
                 r"\(asked about 1 state from state 4\)"),
        # Before: cast silently, 2.5 into 2, or 2**63 + 2 wrapped around into another key.
        ("float keys", r"game ladder: mdp_expand gave next_states of type float64; expected a state "
                       r"key per outcome, in a one-dimensional integer array \(asked about 1 state "
                       r"from state 4\)"),
        ("masked", r"game ladder: mdp_expand gave next_states as a masked array; expected a state "
                   r"key per outcome, in a one-dimensional integer array \(asked about 1 state "
                   r"from state 4\)"),
        ("huge key", r"game ladder: mdp_expand gave next_states holding 9223372036854775810, past "
                     r"2\*\*63 - 1; expected a state key per outcome, in a one-dimensional integer "
                     r"array, of 64 bits, signed \(asked about 1 state from state 4\)"),
    ],
)
@pytest.mark.parametrize("beside", [False, True])
def test_batch_errors_name_the_game_state_and_action(fault, message, beside, monkeypatch):
    check_beside(monkeypatch, beside)
    with pytest.raises(mdp.ModelError, match=message):
        mdp.compile(mdp.load_game(Broken(fault)))


@pytest.mark.parametrize("at_a_time", [1, 3])
def test_probabilities_are_summed_a_piece_at_a_time(monkeypatch, at_a_time):
    # A stage's outcomes are weighed about a million at a time; in pieces of one action
    # (smaller than its two outcomes) or of a few, the sum that is wrong is still found, in
    # the second action, and the sums that are right still pass.
    import importlib

    monkeypatch.setattr(importlib.import_module("mdp.engine.sums"), "OUTCOMES_AT_A_TIME", at_a_time)
    with pytest.raises(mdp.ModelError, match=r"sum to 19/20, not 1 \(state 4, action 1\)"):
        mdp.compile(mdp.load_game(Broken("sum")))
    assert mdp.solve(mdp.compile(mdp.load_game(Ladder(4))), exact=True).value == Fraction(9, 16)


class Unlabelled(Broken):
    """As Broken, but giving its actions' labels only when asked for them (mdp_expand's
    ``labels``): a model is built without them, and an error message asks again."""

    @mdp.hookimpl
    def mdp_expand(self, states, labels):
        expansion = super().mdp_expand(states)
        return expansion if labels else attrs.evolve(expansion, actions=None)


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        ("sum", r"game ladder: mdp_expand: probabilities sum to 19/20, not 1 \(state 4, action 1\)"),
        ("negative", r"game ladder: mdp_expand: negative probability -1/6 \(state 4, action 0\)"),
        ("rising", r"game ladder: mdp_stage: the stage rises: state 6 has stage 3, above 2 \(state 4, action 0\)"),
    ],
)
@pytest.mark.parametrize("beside", [False, True])
def test_an_error_asks_again_for_the_label_it_names(fault, message, beside, monkeypatch):
    check_beside(monkeypatch, beside)
    with pytest.raises(mdp.ModelError, match=message):
        mdp.compile(mdp.load_game(Unlabelled(fault)))


def test_a_model_is_built_without_labels_and_a_table_asks_for_them():
    class Quiet(Ladder):
        asked = []

        @mdp.hookimpl
        def mdp_expand(self, states, labels):
            self.asked.append(labels)
            expansion = super().mdp_expand(states)
            return expansion if labels else attrs.evolve(expansion, actions=None)

    game = mdp.load_game(Quiet(3))
    solution = mdp.solve(mdp.compile(game), exact=True)
    assert set(Quiet.asked) == {False}
    policy = mdp.policy(solution, game)
    assert True in Quiet.asked
    plain = mdp.load_game(Ladder(3))
    assert policy.equals(mdp.policy(mdp.solve(mdp.compile(plain), exact=True), plain))

    class Withheld(Ladder):
        @mdp.hookimpl
        def mdp_expand(self, states, labels):
            return attrs.evolve(super().mdp_expand(states), actions=None)

    game = mdp.load_game(Withheld(3))
    with pytest.raises(mdp.ModelError, match="game ladder: mdp_expand gave no actions when asked for their labels"):
        mdp.policy(mdp.solve(mdp.compile(game)), game)


def test_batch_game_needs_an_int_initial_state():
    class Named(Ladder):
        @mdp.hookimpl
        def mdp_initial_state(self):
            return "top"

    with pytest.raises(mdp.ModelError, match="game ladder: mdp_initial_state returned 'top'; a game with mdp_expand needs "
                                              "an int initial state"):
        mdp.compile(mdp.load_game(Named()))


class Hops:
    """Hop home from position n: choose to hop 1 or 2 (a choice, certain), then survive a
    roll with 2/3 (else bust). Keys: 2n to choose at n (home, 0, is worth 1), 2n + 1 to roll
    after landing on n >= 1, and 1 the bust (worth 0). By hand, with C(m) = 2/3 V(m), C(0)=1:
    V(1) = V(2) = 1; V(3) = C(2) = 2/3; V(4) = max(C(3), C(2)) = 2/3; V(5) = max(C(4), C(3))
    = 4/9, a tie. ``choices`` says whether the choosing stages use Expansion.choices."""

    GAME_NAME = "hops"

    def __init__(self, choices):
        self.choices = choices

    @mdp.hookimpl
    def mdp_initial_state(self):
        return 10

    @mdp.hookimpl
    def mdp_stage(self, states):
        return np.asarray(states)

    @mdp.hookimpl
    def mdp_expand(self, states):
        if states[0] % 2:  # rolling (or the bust, terminal)
            live = states != 1
            counts = live.astype(np.int64)
            nexts = np.stack([states[live] - 1, np.ones(int(live.sum()), dtype=np.int64)], axis=1)
            return mdp.Expansion(counts, np.zeros(int(live.sum()), dtype=np.int64),
                                 np.full(int(live.sum()), 2), nexts.ravel(),
                                 np.tile([0, 1], int(live.sum())), (Fraction(2, 3), Fraction(1, 3)),
                                 np.zeros(int((~live).sum()), dtype=np.int64))
        counts, hops, nexts = [], [], []
        for key in states.tolist():
            n = key // 2
            options = [h for h in (1, 2) if h <= n]
            counts.append(len(options))
            for h in options:
                hops.append(h)
                nexts.append(0 if n == h else 2 * (n - h) + 1)
        values = np.ones(counts.count(0), dtype=np.int64)  # only home is terminal here
        counts, hops, nexts = (np.array(x, dtype=np.int64) for x in (counts, hops, nexts))
        if self.choices:
            return mdp.Expansion.choices(counts, hops, nexts, values)
        ones = np.ones(len(hops), dtype=np.int64)
        return mdp.Expansion(counts, hops, ones, nexts, ones - 1, (1,), values)


def test_an_expansion_of_choices_needs_no_outcome_arrays():
    models = {c: mdp.compile(mdp.load_game(Hops(c))) for c in (True, False)}
    for model in models.values():
        assert mdp.solve(model, exact=True).value == Fraction(4, 9)
    short, full = models[True], models[False]
    assert (short.n_states, short.n_actions, short.n_outcomes) == \
        (full.n_states, full.n_actions, full.n_outcomes)
    assert np.array_equal(short.action_next, full.action_next)
    game = mdp.load_game(Hops(True))
    policy = mdp.policy(mdp.solve(mdp.compile(game), exact=True), game)
    assert policy.filter(policy["state"] == "10")["optimal"].to_list() == [True, True]


def test_an_expansion_of_choices_is_checked_for_size():
    class Short(Hops):
        @mdp.hookimpl
        def mdp_expand(self, states):
            e = super().mdp_expand(states)
            return attrs.evolve(e, next_states=e.next_states[:-1]) if e.all_choices else e

    with pytest.raises(mdp.ModelError, match="next_states for .* outcomes counted"):
        mdp.compile(mdp.load_game(Short(True)))


class Fork:
    """Two roads to one place: from A both actions lead to B for certain; from B a coin is
    tossed, heads (1) winning. Four states, worth 1/2 by hand. The keys are far apart and far
    from 0 (A is 3 << 40, B 2 << 40; heads 1, tails 0), and B is found twice by one stage."""

    GAME_NAME = "fork"
    A, B = 3 << 40, 2 << 40

    @mdp.hookimpl
    def mdp_initial_state(self):
        return self.A

    @mdp.hookimpl
    def mdp_stage(self, states):
        return np.asarray(states) >> 40

    @mdp.hookimpl
    def mdp_expand(self, states):
        (key,) = states.tolist() if len(states) == 1 else (None,)
        if key == self.A:
            return mdp.Expansion.choices(np.array([2]), np.array([0, 1]),
                                         np.array([self.B, self.B], dtype=np.int64), [])
        if key == self.B:
            return mdp.Expansion(np.array([1]), np.array([0]), np.array([2]),
                                 np.array([1, 0], dtype=np.int64), np.array([0, 0]),
                                 (Fraction(1, 2),), [])
        assert states.tolist() == [0, 1]  # tails and heads, each found once
        return mdp.Expansion.choices(np.zeros(2, dtype=np.int64), np.zeros(0, dtype=np.int64),
                                     np.zeros(0, dtype=np.int64), [0, 1])


def test_a_state_found_twice_by_one_stage_is_one_state_whatever_its_key():
    model = mdp.compile(mdp.load_game(Fork()))
    assert model.n_states == 4
    assert sorted(model.states.tolist()) == [0, 1, Fork.B, Fork.A]
    assert mdp.solve(model, exact=True).value == Fraction(1, 2)



class LowLadder(Ladder):
    """The Ladder with its stages below zero: a game's arithmetic on the keys it is given."""

    @mdp.hookimpl
    def mdp_stage(self, states):
        assert states.dtype == np.int64, states.dtype  # as the hook's documentation promises
        return states // 2 - 100


@pytest.mark.parametrize(("start", "expected"), [(1, Fraction(5, 6)), (2, Fraction(3, 4)),
                                                 (3, Fraction(5, 8)), (4, Fraction(9, 16))])
def test_the_keys_a_batch_hook_is_given_are_64_bit(start, expected):
    # Before: mdp_stage was given keys narrowed to 8 bits, and a game's stage of -1 came
    # back as 255 ("the stage does not decrease"). The values are the Ladder's, by hand.
    game = mdp.load_game(LowLadder(start))
    assert mdp.solve(mdp.compile(game), exact=True).value == expected
