"""Named strategies against a brute force written here, over the tiles, sharing no code with
the game or the engine: every value compared exactly."""

import doctest
import re
from fractions import Fraction
from functools import cache
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

import mdp

TWO_DICE = {t: Fraction(6 - abs(t - 7), 36) for t in range(2, 13)}
ONE_DIE = {t: Fraction(1, 6) for t in range(1, 7)}


def _uniform(items):
    return [(Fraction(1, len(items)), item) for item in items]


def _fewest_tiles(moves):
    return [(1, min(moves, key=lambda m: (len(m), sorted(-t for t in m))))]


def _by_count(pick):
    return lambda moves: _uniform([m for m in moves if len(m) == pick(len(m) for m in moves)])


# name -> (dice: the options [two dice, one die?] -> probabilities, shut: moves -> (p, move))
STRATEGIES = {
    "random": (lambda options: [Fraction(1, len(options))] * len(options), _uniform),
    "fewest-tiles": (lambda options: [0, 1] if len(options) == 2 else [1], _fewest_tiles),
    "shortest": (lambda options: [1] + [0] * (len(options) - 1), _by_count(min)),
    "longest": (lambda options: [1] + [0] * (len(options) - 1), _by_count(max)),
}


def brute_value(name, tiles=tuple(range(1, 10)), score=False):
    """The chance of shutting the box (or the expected sum left open) under the riddler rules
    (two dice; one die may be chosen once every open tile is 6 or less)."""
    dice, shut = STRATEGIES[name] if isinstance(name, str) else name

    @cache
    def value(open_tiles):
        end = sum(open_tiles) if score else int(not open_tiles)
        if not open_tiles:
            return Fraction(end)
        options = [TWO_DICE] + ([ONE_DIE] if max(open_tiles) <= 6 else [])
        total = Fraction(0)
        for chance, rolls in zip(dice(options), options):
            for roll, p in rolls.items():
                moves = [c for r in range(1, len(open_tiles) + 1)
                         for c in combinations(open_tiles, r) if sum(c) == roll]
                if not moves:
                    total += chance * p * end
                    continue
                for q, move in shut(moves):
                    total += chance * p * q * value(tuple(t for t in open_tiles if t not in move))
        return total

    return value(tiles)


@pytest.fixture(scope="module")
def box():
    game = mdp.load_game("games/shutbox")
    return game, mdp.compile(game)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_strategy_value_matches_the_brute_force(box, name):
    game, model = box
    assert mdp.evaluate(model, name, game=game, exact=True).value == brute_value(name)


@pytest.mark.parametrize("name", ["random", "fewest-tiles"])
def test_strategy_value_with_the_pub_score(name):
    game = mdp.load_game("games/shutbox", tiles="1-6", scoring="score")
    solution = mdp.evaluate(mdp.compile(game), name, game=game, exact=True)
    assert solution.value == brute_value(name, tuple(range(1, 7)), score=True)


def test_strategies_are_listed_with_the_game_first(box):
    game, _ = box
    assert list(mdp.strategies(game)) == ["random", "fewest-tiles", "shortest", "longest"]


def test_optimal_play_as_a_strategy_has_the_optimal_value(box):
    game, model = box
    solution = mdp.evaluate(model, "optimal", game=game, exact=True)
    assert solution.value == mdp.solve(model, exact=True).value == Fraction(956177159, 9795520512)
    assert solution.policy.name == "optimal"


def test_weights_are_checked(box):
    game, model = box
    with pytest.raises(mdp.ModelError, match="weights for"):
        mdp.evaluate(model, np.ones(3))
    with pytest.raises(mdp.ModelError, match="float weights"):
        mdp.evaluate(model, np.ones(model.n_actions), exact=True)
    with pytest.raises(mdp.ModelError, match="no action has weight"):
        mdp.evaluate(model, np.zeros(model.n_actions, dtype=int))
    with pytest.raises(mdp.ParamError, match="did you mean random"):
        mdp.evaluate(model, "randm", game=game)


@pytest.mark.parametrize("fault", ["no weight", "negative", "not a number"])
def test_a_fault_of_weights_names_its_state_as_people_read_it(box, fault):
    """Weights of a batch game (its states kept as numpy keys): with game= the state is named
    by its columns, as mdp.policy shows it; without, by the number of its key, never numpy's
    repr of it (np.uint8(17))."""
    game, model = box
    weights = {"no weight": np.zeros(model.n_actions), "negative": -np.ones(model.n_actions),
               "not a number": np.full(model.n_actions, np.nan)}[fault]
    with pytest.raises(mdp.ModelError) as plain:
        mdp.evaluate(model, weights)
    with pytest.raises(mdp.ModelError) as worded:
        mdp.evaluate(model, weights, game=game)
    assert "np." not in str(plain.value) and "np." not in str(worded.value)
    assert "open " in str(worded.value)


def test_floats_agree_with_exact(box):
    game, model = box
    exact = mdp.evaluate(model, "random", game=game, exact=True).value
    assert mdp.evaluate(model, "random", game=game).value == pytest.approx(float(exact), rel=1e-12)


def test_action_values_under_a_strategy_measure_against_the_best_action(box):
    game, model = box
    solution = mdp.evaluate(model, "random", game=game, exact=True)
    per_action = solution.action_values()
    assert (per_action.regret >= 0).all()
    # Every state where the player acts has a best action under the strategy's continuation.
    assert len(np.unique(per_action.state[per_action.optimal])) == model.n_states - model.n_terminal


# A strategy written one state at a time (mdp.Strategy.per_state).


def _keep_four(state, actions):
    """Reroll: keep a face of 4 or more, roll again otherwise (the example of
    docs/analysing.rst)."""
    rolls_left, face = state
    wanted = "keep" if face is not None and face >= 4 else "roll"
    return [int(action == wanted) for action in actions]


def test_a_per_state_strategy_of_a_per_state_game():
    # By hand: one roll left is kept, 7/2; two left, keep 4-6: (4+5+6)/6 + 3/6 * 7/2 = 17/4;
    # three left, keep 4-6 again: (4+5+6)/6 + 3/6 * 17/4 = 37/8 (optimal play, keeping
    # only 5-6 there, makes 14/3).
    @cache
    def brute(rolls_left):
        return Fraction(7, 2) if rolls_left == 1 else \
            sum(Fraction(face if face >= 4 else brute(rolls_left - 1), 6) for face in range(1, 7))

    game = mdp.load_game("docs/examples/reroll.py")
    strategy = mdp.Strategy.per_state("keep-4", "keep 4 or more", _keep_four)
    solution = mdp.evaluate(mdp.compile(game), strategy, game=game, exact=True)
    assert solution.value == brute(3) == Fraction(37, 8)


def test_the_per_state_example_of_the_docs_runs_as_shown():
    # The Python session of docs/analysing.rst, run as written: its value is the 37/8 above.
    page = (Path(__file__).resolve().parents[2] / "docs" / "analysing.rst").read_text()
    session, = [block for block in re.findall(r"\.\. code-block:: pycon\n\n((?:   .*\n)+)", page)
                if "Strategy.per_state" in block]
    assert "Fraction(37, 8)" in session
    text = "\n".join(line[3:] for line in session.splitlines())
    test = doctest.DocTestParser().get_doctest(text, {"Fraction": Fraction}, "analysing", None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False) == doctest.TestResults(failed=0, attempted=5)


@pytest.mark.slow
def test_a_per_state_strategy_of_a_batch_game_with_weights(box):
    # Shut the Box's states are integer keys (the roll above the nine bits of open tiles)
    # and its actions numbers of dice (before a roll) or masks of tiles. The strategy rolls
    # one die twice as often as two where it may, and shuts each set of tiles with a weight
    # of its number of tiles.
    game, model = box

    def choose(state, actions):
        if state >> 9 == 0:
            return [1, 2][:len(actions)]
        return [move.bit_count() for move in actions]

    def brute_shut(moves):
        return [(Fraction(len(m), sum(map(len, moves))), m) for m in moves]

    rules = (lambda options: [Fraction(1, 3), Fraction(2, 3)] if len(options) == 2 else [1],
             brute_shut)
    strategy = mdp.Strategy.per_state("by-tiles", "more tiles, more often", choose)
    assert mdp.evaluate(model, strategy, game=game, exact=True).value == brute_value(rules)


def test_a_per_state_strategy_answers_one_weight_per_action(box):
    game, model = box
    strategy = mdp.Strategy.per_state("first", "", lambda state, actions: [1])
    with pytest.raises(mdp.ModelError) as error:
        mdp.evaluate(model, strategy, game=game)
    assert str(error.value) == ("game shutbox: strategy first gave 1 weight for 2 actions (open 1); "
                                "give one per action")
    strategy = mdp.Strategy.per_state("broken", "", lambda state, actions: [1 / 0])
    with pytest.raises(mdp.ModelError) as error:
        mdp.evaluate(model, strategy, game=game)
    assert str(error.value) == ("game shutbox: strategy broken raised ZeroDivisionError: division by "
                                "zero (open 1, roll 1)")


@pytest.mark.parametrize("unordered", [set, frozenset, dict.fromkeys])
def test_per_state_weights_without_an_order_are_refused(unordered):
    # A set of weights was taken as a list, in hash order, which need not be the actions':
    # {0, 1} is weighted 0 then 1 whatever the order of the actions. It has no order to give
    # and is refused, naming the strategy and the state, as a dict is.
    game = mdp.load_game("docs/examples/reroll.py")
    strategy = mdp.Strategy.per_state("sets", "", lambda state, actions: unordered(range(len(actions))))
    with pytest.raises(mdp.ModelError) as error:
        mdp.evaluate(mdp.compile(game), strategy, game=game)
    assert re.fullmatch(r"game reroll: strategy sets gave .*, not a list of weights in the "
                        r"actions' order \(.*\)", str(error.value))


# Whatever weights a game's strategy gives, they are evaluated as their ratios say, or refused
# in one mdp.ModelError naming the game and the strategy: never another exception.

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

WEIGHT = st.one_of(st.integers(0, 5), st.just(10**400), st.integers(-2, -1), st.fractions(0, 3),
                   st.floats(0, 1e308), st.just(float("nan")), st.booleans(), st.text(max_size=1))
WEIGHTS = st.one_of(
    st.none(), st.just({0: 1}), st.integers(0, 3),
    st.lists(WEIGHT, min_size=0, max_size=3),
    st.lists(WEIGHT, min_size=2, max_size=2).map(lambda w: np.array(w, dtype=object)),
    st.lists(st.integers(0, 3), min_size=2, max_size=2).map(lambda w: np.array([w])),
    st.lists(st.integers(0, 2**64 - 1), min_size=2, max_size=2).map(lambda w: np.array(w, dtype=np.uint64)),
)


def _flip_or_stay(weights):
    """Flip a coin (1 or 0 at even odds) or stay for 1/3; the strategy gives ``weights``."""

    @mdp.hookimpl
    def mdp_initial_state():
        return "start"

    @mdp.hookimpl
    def mdp_actions(state):
        return ["flip", "stay"] if state == "start" else []

    @mdp.hookimpl
    def mdp_outcomes(state, action):
        return [(Fraction(1, 2), "H"), (Fraction(1, 2), "T")] if action == "flip" else [(1, "S")]

    @mdp.hookimpl
    def mdp_terminal_value(state):
        return {"H": 1, "T": 0, "S": Fraction(1, 3)}[state]

    @mdp.hookimpl
    def mdp_strategies():
        return [mdp.Strategy("given", "the weights given", lambda game, model: weights)]

    from types import SimpleNamespace

    return mdp.load_game(SimpleNamespace(GAME_NAME="flip", **{
        name: hook for name, hook in locals().items() if name.startswith("mdp_")}))


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weights=WEIGHTS, exact=st.booleans())
def test_a_strategys_weights_are_evaluated_by_their_ratios_or_refused_naming_it(weights, exact):
    # Before: weights of 10**400 in floats were an OverflowError traceback, None a line that
    # named neither the game nor the strategy, a 2-D array "2 weights for 2 actions".
    game = _flip_or_stay(weights)
    try:
        value = mdp.evaluate(mdp.compile(game), "given", game=game, exact=exact).value
    except mdp.ModelError as error:
        assert str(error).startswith("game flip: strategy given") and "\n" not in str(error), error
        return
    flip, stay = (Fraction(w.item() if isinstance(w, np.generic) else w) for w in list(weights))  # by hand:
    expected = (flip * Fraction(1, 2) + stay * Fraction(1, 3)) / (flip + stay)
    if exact:
        assert value == expected
    else:
        assert value == pytest.approx(float(expected), rel=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 10**6),
       st.sampled_from([-1, Fraction(-1, 3), -0.5, Fraction(-1, 10**400)]))
def test_a_negative_weight_names_its_state_and_action(at_state, at_action, weight):
    # Before: "strategy s: negative weight for action 1", neither in the game's words.
    from mdp.game.load import describe

    game = mdp.load_game("docs/examples/reroll.py")
    model = mdp.compile(game)
    seen = []

    def choose(state, actions):
        seen.append((state, actions))
        weights = [1] * len(actions)
        if len(seen) - 1 == at_state % (model.n_states - model.n_terminal):
            weights[at_action % len(actions)] = weight
        return weights

    with pytest.raises(mdp.ModelError) as error:
        mdp.evaluate(model, mdp.Strategy.per_state("neg", "", choose), game=game,
                     exact=not isinstance(weight, float))
    state, actions = seen[at_state % (model.n_states - model.n_terminal)]
    shown = "-(a fraction of 1 over 401 digits, about 1e-400)" if weight == Fraction(-1, 10**400) \
        else str(weight)
    assert str(error.value) == (f"game reroll: strategy neg: negative weight {shown} for action "
                                f"{actions[at_action % len(actions)]!r} ({describe(game, state)})")


@settings(max_examples=20, deadline=None)
@given(numbers=st.lists(st.sampled_from([1, 0.5, Fraction(1, 3)]), min_size=1, max_size=9),
       text=st.sampled_from(["0", "x", "1/2", ""]))
@pytest.mark.slow  # half a second or more of CPU
def test_a_weight_that_is_no_number_is_the_one_named(box, numbers, text):
    # Round 24: [1, "0"] was made an array of text, and the weight '1' of the first action
    # blamed; None was "raised TypeError: 'NoneType' object is not iterable".
    game, model = box

    def choose(state, actions):
        weights: list = [numbers[i % len(numbers)] for i in range(len(actions))]
        weights[-1] = text
        return weights

    with pytest.raises(mdp.ModelError) as error:
        mdp.evaluate(model, mdp.Strategy.per_state("texts", "", choose), game=game)
    said = str(error.value)
    assert f"weight {text!r} for " in said and said.endswith("is not a number"), said
    for answer in (None, 5):
        with pytest.raises(mdp.ModelError, match=rf"^game shutbox: strategy none gave {answer}, not a list "
                           r"of weights in the actions' order \(open 1, roll 1\)$"):
            mdp.evaluate(model, mdp.Strategy.per_state("none", "", lambda state, actions: answer), game=game)
