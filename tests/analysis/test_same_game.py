"""A model, solution or policy analysed with a game: the game must be the one it was compiled
from (mdp.checks.same_game, reached through every public function's argument check). A game
loaded with other rules is refused in one line naming the parameter or the plugins that differ, rather
than labelling one rule set's numbers with another's (or blaming the game for it); the
parameters only a match reads change no state and are allowed."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp

ROOT = Path(__file__).resolve().parents[2]
RULES = [{"tiles": "1-4", "one_die": "never"}, {"tiles": "1-4", "one_die": "always"},
         {"tiles": "1-4", "one_die": "max6"}, {"tiles": "1-5", "one_die": "max6"}]
SOLVED = {i: mdp.solve(mdp.compile(mdp.load_game("shutbox", **rules))) for i, rules in enumerate(RULES)}


def _analyses(solution, game):
    """Every public analysis that takes a model, solution or policy and a game."""
    return {
        "match": lambda: mdp.match(solution.model, game),
        "advise": lambda: mdp.advise(solution, game, open="1 2 3 4", roll=3),
        "policy": lambda: mdp.policy(solution, game),
        "distribution": lambda: mdp.distribution(solution, game),
        "simulate": lambda: mdp.simulate(solution, game, games=10, seed=1),
        "strategy_values": lambda: mdp.strategy_values(solution.model, game),
    }


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(st.sampled_from(range(len(RULES))), st.sampled_from(range(len(RULES))))
def test_a_game_of_other_rules_is_refused_by_every_analysis(compiled, loaded):
    game = mdp.load_game("shutbox", **RULES[loaded])
    differ = sorted(k for k in RULES[0] if RULES[compiled][k] != RULES[loaded][k])  # the first named
    for name, call in _analyses(SOLVED[compiled], game).items():
        if not differ:
            call()  # the same rules: no refusal
            continue
        with pytest.raises(mdp.ParamError) as raised:
            call()
        message = str(raised.value)
        assert message.startswith(f"mdp.{name}: game is shutbox with {differ[0]}=")
        assert f"was compiled with {differ[0]}={RULES[compiled][differ[0]]!r}" in message
        assert message.endswith("give the game it was compiled from (or compile this one)")


def test_another_game_is_refused_and_match_only_parameters_are_not():
    boxes = mdp.compile(mdp.load_game(ROOT / "docs" / "examples" / "two_boxes.py"))
    with pytest.raises(mdp.ParamError, match=r"^mdp\.match: game is shutbox, but the Rounds is of "
                       "game two-boxes; give the game"):
        mdp.match(boxes, mdp.load_game("shutbox"))
    # What a winner is paid changes no state: a model compiled once plays every payout.
    model = mdp.compile(mdp.load_game("shutbox", tiles="1-4"))
    paid = mdp.match(model, mdp.load_game("shutbox", tiles="1-4", shut_pays=2), exact=True)
    assert paid.values == mdp.match(mdp.compile(mdp.load_game("shutbox", tiles="1-4", shut_pays=2)),
                                    mdp.load_game("shutbox", tiles="1-4", shut_pays=2), exact=True).values


# A game of the same name and parameters with other plugins beside it is another game too:
# a rule plugin changes the moves, and a solution of the game without it is no answer for
# the game with it. Generated pairs of (variant, parameters, plugins), each function taking
# a model or solution and a game: found by its signature, so that a new one is tested too.
VARIANTS = [None, "fiddler", "riddler", "durango"]
ONE_TILE = str(ROOT / "docs" / "examples" / "shutbox_one_tile.py")
NOTED = '''import mdp


@mdp.hookimpl(wrapper=True)
def mdp_describe():
    return f"{(yield)}; noted"
'''
EXTRA = {"advise": {"open": "1 2 3 4", "roll": 3}, "analyse": {"name": "strategies"},
         "evaluate": {"strategy": "random"}, "strategy_policy": {"strategy": "random"},
         "later_player_values": {"earlier": [0]}, "simulate": {"games": 10, "seed": 1},
         "report": {"max_rows": 10}}


def _takers():
    """mdp's public functions that take a model, solution or play first and a game."""
    import inspect

    found = {}
    for name in mdp.__all__:
        function = getattr(mdp, name)
        if inspect.isfunction(function):
            params = list(inspect.signature(function).parameters)
            if "game" in params and params[0] in {"model", "solution", "how"}:
                found[name] = (params[0], function)
    return found


def test_every_function_taking_a_subject_and_a_game_is_known_here():
    assert set(_takers()) >= {"distribution", "policy", "analyse", "advise", "simulate", "match"}
    assert set(EXTRA) <= set(_takers())


@pytest.fixture(scope="module")
def noted(tmp_path_factory):
    path = tmp_path_factory.mktemp("plugins") / "noted.py"
    path.write_text(NOTED)
    return str(path)


_solutions = {}


def _rules(noted, variant, plugins):
    names = [ONE_TILE, noted]
    game = mdp.load_game("shutbox", variant, plugins=[names[i] for i in plugins])
    key = (variant, plugins)
    if key not in _solutions:
        _solutions[key] = mdp.solve(mdp.compile(game))
    return game, _solutions[key]


PLUGINS = st.sampled_from([(), (0,), (1,), (0, 1), (1, 0)])


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(st.sampled_from(VARIANTS), PLUGINS, st.sampled_from(VARIANTS), PLUGINS)
def test_a_game_with_other_plugins_is_refused_by_every_function_naming_them(
        noted, solved_variant, solved_plugins, variant, plugins):
    solved_game, solution = _rules(noted, solved_variant, solved_plugins)
    game, _ = _rules(noted, variant, plugins)
    names = [ONE_TILE, noted]
    mine, theirs = [names[i] for i in plugins], [names[i] for i in solved_plugins]
    for name, (first, function) in _takers().items():
        subject = solution.model if first == "model" else solution
        extra = dict(EXTRA.get(name, {}))
        call = (lambda: function(subject, extra.pop("name"), game, **extra)) if name == "analyse" \
            else (lambda: function(subject, game=game, **extra))
        if mine == theirs and solved_game.shown_params() == game.shown_params():
            try:
                call()
            except mdp.MdpError as error:  # whatever else it says, not that the game differs
                assert "give the game it was compiled from" not in str(error)
            continue
        with pytest.raises(mdp.ParamError) as raised:
            call()
        message = str(raised.value)
        assert message.startswith(f"mdp.{name}: game is shutbox ")
        assert message.endswith("give the game it was compiled from (or compile this one)")
        extra_plugins = [p for p in mine if p not in theirs]
        missing = [p for p in theirs if p not in mine]
        if extra_plugins:
            assert f"with plugin{'s' * (len(extra_plugins) > 1)} {', '.join(extra_plugins)}, but " \
                f"the {type(subject).__name__} was compiled without" in message
        elif missing:
            assert f"without plugin{'s' * (len(missing) > 1)} {', '.join(missing)}, but " \
                f"the {type(subject).__name__} was compiled with" in message
        elif mine != theirs:
            assert "with plugins in the order " in message and ", ".join(mine) in message
