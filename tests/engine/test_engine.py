"""The engine on small models solved by hand (see tests/models.py for each derivation)."""

from fractions import Fraction

import numpy as np
import pytest
from models import HALF, THIRD, Table, chain, coin, gamble, ties

import mdp


def same(value, expected, exact):
    """Exact results compare exactly; float ones to the last bit or two."""
    return value == expected if exact else value == pytest.approx(float(expected), rel=1e-15)


@pytest.mark.parametrize("exact", [False, True])
def test_coin_maximized_bets_and_minimized_walks(exact):
    game = mdp.load_game(coin())
    assert same(mdp.solve(mdp.compile(game), exact=exact).value, HALF, exact)
    assert same(mdp.solve(mdp.compile(game), exact=exact, sense="min").value, THIRD, exact)


def test_exact_values_are_fractions_and_float_values_are_floats():
    game = mdp.load_game(gamble())
    assert type(mdp.solve(mdp.compile(game), exact=True).value) is Fraction
    assert type(mdp.solve(mdp.compile(game)).value) is float


@pytest.mark.parametrize("exact", [False, True])
def test_gamble_two_rounds(exact):
    solution = mdp.solve(mdp.compile(mdp.load_game(gamble())), exact=exact)
    assert same(solution.value, Fraction(2, 3), exact)
    assert same(solution.value_of("again"), HALF, exact)


def test_chain_has_one_layer_per_step():
    model = mdp.compile(mdp.load_game(chain(5)))
    assert model.n_states == 6
    assert model.n_layers == 6
    assert model.n_terminal == 1
    # Every transition leads to a lower layer.
    layer = model.layer_of()
    action, successor, _ = model.edges()
    assert (layer[successor] < layer[model.action_state()[action]]).all()
    assert mdp.solve(model, exact=True).value == 7


def test_structure_once_values_many_times():
    model = mdp.compile(mdp.load_game(coin()))
    assert mdp.solve(model).value == 0.5
    assert mdp.solve(model, sense="min").value == pytest.approx(1 / 3, rel=1e-15)
    assert mdp.solve(model, exact=True, sense="min").value == THIRD


@pytest.mark.parametrize("exact", [False, True])
def test_policy_marks_every_tied_action_and_gives_regret(exact):
    policy = mdp.policy(mdp.solve(mdp.compile(game := mdp.load_game(ties())), exact=exact), game)
    rows = {row["action"]: row for row in policy.iter_rows(named=True)}
    assert set(rows) == {"left", "right", "worse"}
    assert rows["left"]["optimal"] and rows["right"]["optimal"]
    assert not rows["worse"]["optimal"]
    assert rows["worse"]["regret"] == 0.5
    assert rows["left"]["regret"] == 0 and rows["right"]["regret"] == 0
    assert rows["left"]["value"] == 0.5
    if exact:
        assert rows["worse"]["value_exact"] == "0"
        assert rows["right"]["value_exact"] == "1/2"


def test_policy_of_minimization_has_non_negative_regret():
    policy = mdp.policy(mdp.solve(mdp.compile(game := mdp.load_game(gamble())), sense="min", exact=True), game)
    assert (policy["regret"] >= 0).all()
    optimal = policy.filter(policy["optimal"])["action"].to_list()
    # By hand, minimizing: V(again) = 1/4 by settling; Q(risky) = 1/3 + 2/3 * 1/4 = 1/2 < 3/5.
    assert sorted(optimal) == ["risky", "settle"]


def test_cycle_is_reported_with_its_states():
    game = mdp.load_game(Table({"start": {"go": [(1, "a")]}, "a": {"go": [(1, "b")]},
                                "b": {"back": [(1, "a")]}}, {}))
    with pytest.raises(mdp.CycleError, match=r"game table: the states form a cycle \('a' -> 'b' -> 'a'\)"):
        mdp.compile(game)


@pytest.mark.parametrize(
    ("outcomes", "message"),
    [
        ([(Fraction(9, 10), "end")], r"mdp_outcomes: probabilities sum to 9/10, not 1 \(state 'start', action 'go'\)"),
        ([(0.5, "end"), (0.4, "end")], r"mdp_outcomes: probabilities sum to 0.9, not 1 \(state 'start', action 'go'\)"),
        ([(-HALF, "end"), (Fraction(3, 2), "end")], r"mdp_outcomes: negative probability -1/2 \(state 'start', action 'go'\)"),
        # a negative probability of 400 digits was written whole: said by its size
        ([(Fraction(-1, 10**400), "end"), (1 + Fraction(1, 10**400), "end")],
         r"mdp_outcomes: negative probability -\(a fraction of 1 over 401 digits, about 1e-400\) "
         r"\(state 'start', action 'go'\)$"),
        ([], r"mdp_outcomes: probabilities sum to 0, not 1 \(state 'start', action 'go'\)"),
        ([("half", "end")], r"mdp_outcomes: probability 'half' is not a number \(state 'start', action 'go'\)"),
        ([(1, ["unhashable"])], r"mdp_outcomes gave \(1, \['unhashable'\]\), not a \(probability, hashable next state\) pair \(state 'start', action 'go'\)"),
    ],
)
def test_bad_probabilities_name_game_state_and_action(outcomes, message):
    game = mdp.load_game(Table({"start": {"go": outcomes}}, {"end": 0}))
    with pytest.raises(mdp.ModelError, match="game table: " + message):
        mdp.compile(game)


def test_exception_in_a_hook_names_the_state():
    class Broken(Table):
        @mdp.hookimpl
        def mdp_actions(self, params, state):
            if state == "middle":
                raise KeyError("oops")
            return super().mdp_actions(params, state)

    game = mdp.load_game(Broken({"start": {"go": [(1, "middle")]}}, {}))
    with pytest.raises(mdp.ModelError, match=r"game table: mdp_actions raised KeyError: 'oops' \(state 'middle'\)"):
        mdp.compile(game)


def test_exact_solving_refuses_float_probabilities():
    game = mdp.load_game(Table({"start": {"go": [(0.5, "a"), (0.5, "b")]}}, {"a": 1, "b": 0}))
    assert mdp.solve(mdp.compile(game)).value == 0.5
    with pytest.raises(mdp.ModelError, match=r"exact solving needs rational numbers.*probability 0.5 \(state 'start', action 'go'\)"):
        mdp.solve(mdp.compile(game), exact=True)


def test_state_limit():
    with pytest.raises(mdp.TooLarge, match="more than 3 states"):
        mdp.compile(mdp.load_game(chain(10)), max_states=3)


def test_unknown_sense_is_refused():
    with pytest.raises(mdp.ParamError, match=r"^mdp.solve: sense is 'up'; expected None or 'max' or 'min'$"):
        mdp.solve(mdp.compile(mdp.load_game(coin())), sense="up")


def test_float_and_exact_agree_on_every_state():
    model = mdp.compile(mdp.load_game(gamble()))
    floats = mdp.solve(model).values
    exact = mdp.solve(model, exact=True)
    assert [exact.value_of_id(s) for s in range(model.n_states)] == pytest.approx(list(floats), rel=1e-15)
    assert exact.values.tolist() == [float(exact.value_of_id(s)) for s in range(model.n_states)]


def test_ragged_arange_numbers_items_within_their_groups():
    assert mdp.ragged_arange(np.array([2, 0, 3])).tolist() == [0, 1, 0, 1, 2]
    assert mdp.ragged_arange(np.array([], dtype=np.int64)).tolist() == []


@pytest.mark.slow  # its cases take a second of CPU or more in all
@pytest.mark.parametrize("kind", ["ties", "huge", "random"])
def test_exact_solve_guided_by_floats_equals_the_plain_exact_solve(monkeypatch, kind):
    # The exact solve computes exactly only the actions whose float value is near the best;
    # the reference is the plain exact backward induction over every action (no guide).
    import importlib
    import random
    from fractions import Fraction

    solve_module = importlib.import_module("mdp.engine.solve")
    model = mdp.compile(mdp.load_game("shutbox", tiles="1-8"))
    rng = random.Random(7)
    terminal = {
        "ties": [Fraction(i % 2) for i in range(model.n_terminal)],  # many exact ties
        "huge": [Fraction(10**400 * (i % 3), 7) for i in range(model.n_terminal)],  # no float
        "random": [Fraction(rng.randint(-5, 5), rng.randint(1, 7))
                   for _ in range(model.n_terminal)],
    }[kind]
    guided = [mdp.solve(model, terminal=terminal, exact=True, sense=s) for s in ("max", "min")]
    monkeypatch.setattr(solve_module._Guide, "of", classmethod(lambda cls, *args: None))
    plain = [mdp.solve(model, terminal=terminal, exact=True, sense=s) for s in ("max", "min")]
    for a, b in zip(guided, plain):
        assert a.value == b.value
        ids = range(model.n_states)
        assert [a.value_of_id(i) for i in ids] == [b.value_of_id(i) for i in ids]


def test_the_engine_never_mentions_dice_or_tiles():
    # The engine knows no game: dice and tiles belong to games/ and plugins/. Its code,
    # docstrings and report page are read for the words.
    import re
    from pathlib import Path

    engine = Path(mdp.__file__).resolve().parent
    words = re.compile(r"\b(dice|die|tiles?)\b", re.IGNORECASE)
    found = [f"{path.relative_to(engine)}:{number}: {line.strip()}"
             for path in sorted(engine.rglob("*")) if path.suffix in (".py", ".html")
             for number, line in enumerate(path.read_text().splitlines(), 1) if words.search(line)]
    assert found == []
