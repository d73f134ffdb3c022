"""Every public function of mdp checks its arguments: called with a wrong one, in any
position or keyword, it gives a right answer or an mdp error of one line (mdp.ParamError
naming the argument, what was given and what is allowed), never another exception from
deep inside."""

import inspect
import math
import types
from pathlib import Path

import numpy as np
import pluggy
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp

ROOT = Path(__file__).resolve().parents[2]

@pytest.fixture(scope="module")
def made():
    """A small game and what mdp makes of it: the arguments of the calls below."""
    game = mdp.load_game("shutbox", tiles="1-3")
    model = mdp.compile(game)
    solution = mdp.solve(model)
    policy = mdp.strategy_policy(model, "random", game=game)
    return {"game": game, "model": model, "solution": solution, "policy": policy,
            "weights": [1] * model.n_actions, "table": mdp.policy(solution, game),
            "rounds": mdp.compile(mdp.load_game(ROOT / "docs" / "examples" / "two_boxes.py"))}


def calls(made, path):
    """A right call of each public function: ``name: (positional, keywords)``."""
    game, model, solution, policy = made["game"], made["model"], made["solution"], made["policy"]
    return {
        "load_game": (("shutbox",), {"variant": None, "plugins": [], "tiles": "1-3"}),
        "compile": ((game,), {"max_states": 1000, "max_memory": "default", "batch": None,
                              "progress": None}),
        "solve": ((model,), {"terminal": None, "exact": False, "sense": None, "policy": None,
                             "progress": None, "against": None}),
        "solve_many": ((model,), {"terminals": [model.terminals["value"]], "exact": False,
                                  "sense": None, "progress": None}),
        "evaluate": ((model,), {"strategy": "random", "game": game, "exact": False,
                                "terminal": None, "sense": None, "progress": None,
                                "against": None}),
        "strategy_policy": ((model,), {"strategy": "random", "game": game, "exact": False}),
        "strategies": ((game,), {}),
        "strategy_values": ((model,), {"game": game, "exact": False, "sense": None,
                                       "progress": None, "optimal": None}),
        "policy": ((solution,), {"game": game, "optimal_only": False}),
        "policy_pieces": ((solution,), {"game": game, "optimal_only": False}),
        "distribution": ((solution,), {"game": game, "tie_break": (), "progress": None,
                                       "max_memory": "default"}),
        "simulate": ((solution,), {"game": game, "games": 10, "seed": 1, "tie_break": ()}),
        "lengths": ((solution,), {"count": "moves", "up_to": None}),
        "advise": ((solution, game), {"open": "1 2 3"}),
        "match": ((model,), {"game": game, "players": 2, "exact": False, "progress": None}),
        "match_rules": ((game,), {}),
        "at_least": ((made["rounds"],), {"exact": False, "progress": None, "max_memory": "default"}),
        "later_player_values": ((model,), {"game": game, "earlier": [3], "exact": False}),
        "match_table": (("shutbox",), {"vary": {"tiles": ["1-2", "1-3"]}, "players": 2,
                                       "variant": None, "params": None, "plugins": [],
                                       "exact": False, "max_states": 1000,
                                       "max_memory": "default", "progress": None}),
        "solve_table": (("shutbox",), {"vary": {"tiles": ["1-2", "1-3"]}, "variant": None,
                                       "params": None, "plugins": [], "exact": False,
                                       "sense": None, "max_states": 1000,
                                       "max_memory": "default", "progress": None}),
        "report": ((solution,), {"game": game, "max_rows": 1000, "progress": None}),
        "analyse": ((solution,), {"name": "distribution", "game": game}),
        "write_table": ((made["table"],), {"path": str(path / "table.csv"), "format": None}),
        "choices": ((solution,), {"tie_break": ()}),
        "action_labels": ((model,), {"game": game, "states": None}),
        "Policy.of_weights": ((model,), {"weights": made["weights"], "exact": False,
                                         "name": "custom", "named": None}),
        "Policy.mix": (([(policy, 1)],), {"name": "mix"}),
        "Policy": ((model, policy.probabilities), {"name": "custom"}),
        "Strategy.per_state": (("first",), {"help": "the first action",
                                            "choose": lambda state, actions: [1] + [0] * (len(actions) - 1)}),
        # Helpers for whoever writes a game.
        "parse_int": ((1,), {"maximum": 9, "why": "a reason"}),
        "parse_choice": ((["a", "b"],), {}),
        "parse_int_list": (("1-3",), {"minimum": 1, "maximum": 9, "what": "tile", "distinct": True}),
        "show_int_list": (([1, 2, 3],), {}),
        "did_you_mean": (("tile",), {"known": ["tiles"], "n": 1}),
        "read_variants": ((str(ROOT / "games" / "shutbox" / "variants.toml"),), {}),
        "register_plugins": ((pluggy.PluginManager("mdp"),), {"group": "no such group"}),
        "offsets": (([1, 2],), {"total": 3, "first": 0}),
        "ragged_arange": ((np.array([2, 1]),), {}),
        "slices": ((10,), {"start": 0, "size": 4}),
        "on_cluster": ((None,), {}),
    }


def function(name):
    """The function, method or class (``Policy``, made by its call) of this name."""
    owner, _, method = name.partition(".")
    return getattr(getattr(mdp, owner), method) if method else getattr(mdp, owner)


# Functions of mdp.__all__ that take no arguments.
NOT_HERE = {"analyses", "available_games", "commands", "exports", "formats"}
# A parser raises ValueError for a value its bounds refuse, by design: mdp.load_game turns
# it into a ParamError that names the parameter.
PARSED = {"parse_int_list"}


def test_every_public_function_is_called_here(made, tmp_path):
    public = {name for name in mdp.__all__ if inspect.isfunction(getattr(mdp, name))}
    assert public - NOT_HERE == {name for name in calls(made, tmp_path) if "." not in name} - {"Policy"}


def test_the_right_calls_work(made, tmp_path):
    for name, (positional, keywords) in calls(made, tmp_path).items():
        function(name)(*positional, **keywords)


# Wrong values of every kind: numbers, text, None, lists, and mdp's own objects in the
# wrong place (a game where a model is meant).
SIMPLE = (st.integers(-3, 3) | st.sampled_from([2**63, 2**64, -2**70, 10**30])
          | st.floats(allow_nan=True, allow_infinity=True) | st.booleans() | st.none()
          | st.text(max_size=6) | st.sampled_from(["shutbox", "max", "min", "default", "4G", "x.py"])
          | st.lists(st.integers(-2, 2) | st.text(max_size=2) | st.none(), max_size=3)
          | st.dictionaries(st.text(max_size=3), st.integers(0, 3), max_size=2))
OBJECTS = st.sampled_from(["game", "model", "solution", "policy", "table", "rounds"])


def outcome(call, parsed=False):
    """``None`` for an answer, else the error's text; fails on any but an mdp error (and a
    ValueError of a parser, ``parsed``)."""
    try:
        call()
    except ValueError as error:
        if not parsed or isinstance(error, mdp.MdpError):
            raise
        return None
    except mdp.MdpError as error:
        text = str(error)
        assert "\n" not in text and text
        return text
    return None


NAMES = ["load_game", "compile", "solve", "solve_many", "evaluate", "strategy_policy",
         "strategies", "strategy_values", "policy", "policy_pieces", "distribution", "simulate",
         "advise", "match", "match_rules", "at_least", "later_player_values", "match_table", "solve_table",
         "report", "analyse", "write_table", "choices", "action_labels", "Policy.of_weights",
         "Policy.mix", "Policy", "Strategy.per_state", "parse_int", "parse_choice", "parse_int_list",
         "show_int_list", "did_you_mean", "read_variants", "register_plugins", "offsets",
         "ragged_arange", "slices", "on_cluster"]


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_a_wrong_argument_is_one_line(made, tmp_path, monkeypatch, name, data):
    monkeypatch.chdir(tmp_path)  # a path given as a wrong argument writes nothing elsewhere
    positional, keywords = calls(made, tmp_path)[name]
    places = [*range(len(positional)), *keywords]
    place = data.draw(st.sampled_from(places), label="argument")
    wrong = data.draw(SIMPLE | OBJECTS.map(made.get), label="value")
    positional = list(positional)
    if isinstance(place, int):
        positional[place] = wrong
    else:
        keywords = {**keywords, place: wrong}
    text = outcome(lambda: function(name)(*positional, **keywords), name in PARSED)
    if text is not None and text.startswith(f"mdp.{name}: "):
        # The check's own line: the argument by name, what was given, what is allowed.
        argument = list(inspect.signature(function(name)).parameters)[place] \
            if isinstance(place, int) else place
        assert f" {argument} is " in text and "; expected " in text or \
            "give the game it was compiled from" in text  # (a game and a model that are not one)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_each_of_mdp_s_objects_in_each_place_is_an_answer_or_one_line(made, tmp_path, monkeypatch,
                                                                       name):
    """Every place, each object mdp makes (a game, model, solution, policy, a table, a game
    of rounds' model: mdp.Policy of one was an AttributeError): few
    enough to try them all, where the draws above meet each one seldom (a table given as the
    earlier players' results met ``if not earlier``: Polars' truth value of a table)."""
    monkeypatch.chdir(tmp_path)
    positional, keywords = calls(made, tmp_path)[name]
    for place in [*range(len(positional)), *keywords]:
        for wrong in ("game", "model", "solution", "policy", "table", "rounds"):
            given, named = list(positional), dict(keywords)
            if isinstance(place, int):
                given[place] = made[wrong]
            else:
                named[place] = made[wrong]
            outcome(lambda: function(name)(*given, **named), name in PARSED)


@pytest.mark.parametrize(("call", "message"), [
    (lambda m: mdp.compile("shutbox"),
     "mdp.compile: game is 'shutbox'; expected a game: mdp.load_game('shutbox')"),
    (lambda m: mdp.compile(m["game"], max_memory="4G"),
     "mdp.compile: max_memory is '4G'; expected a number of bytes (a whole number of 1 or more; "
     "4 * 2**30 for 4 GiB), None (no limit), or 'default'"),
    (lambda m: mdp.compile(m["game"], batch=False),  # shutbox: a game of batch hooks alone
     "mdp.compile: batch is False, but game shutbox has no per-state hooks (mdp_actions); "
     "expected None (the game's own way), or the other way of a game that has both"),
    (lambda m: mdp.compile(mdp.load_game(ROOT / "docs" / "examples" / "two_boxes.py"), batch=True),
     "mdp.compile: batch is True, but game two-boxes has no batch hooks (mdp_expand); expected "
     "None (the game's own way), or the other way of a game that has both"),
    (lambda m: mdp.compile(m["game"], max_states=-1),
     "mdp.compile: max_states is -1; expected a whole number of 1 or more or None (no limit)"),
    (lambda m: mdp.load_game("shutbox", variant=3),
     "mdp.load_game: variant is 3; expected a name (a text) or None"),
    (lambda m: mdp.load_game(42), "mdp.load_game: spec is 42; expected a game: its installed "
     "name ('shutbox'), its path, or a module with its hooks"),
    # Round 33, U33-09: a game loaded already, or an object of no hooks, was "game Game".
    (lambda m: mdp.load_game(m["game"]), "mdp.load_game: spec is a Game; expected a game: its "
     "installed name ('shutbox'), its path, or a module with its hooks"),
    (lambda m: mdp.solve_table(m["game"], {"dice": [1, 2]}), "mdp.solve_table: spec is a Game; "
     "expected a game: its installed name ('shutbox'), its path, or a module with its hooks"),
    (lambda m: mdp.load_game(types.SimpleNamespace()), "mdp.load_game: spec is a SimpleNamespace; "
     "expected a game: its installed name ('shutbox'), its path, or a module with its hooks"),
    (lambda m: mdp.Policy.of_weights(m["model"], "text"),
     "mdp.Policy.of_weights: weights is 'text'; expected one weight per action: a list, numpy "
     "array or Polars Series of numbers"),
])
def test_the_examples_of_the_issue(made, call, message):
    with pytest.raises(mdp.ParamError) as error:
        call(made)
    assert str(error.value) == message


@pytest.mark.parametrize("plugins", ["one.py", None, "shutbox_flip_limit"])
def test_plugins_are_a_list_not_a_text_read_letter_by_letter(plugins):
    with pytest.raises(mdp.ParamError, match=r"^mdp.load_game: plugins is .*; expected a list "
                       r"of plugins, .*\(plugins=\['my_rule.py'\]\); \[\] for none$"):
        mdp.load_game("shutbox", plugins=plugins)


def test_numbers_of_other_types_that_are_whole_are_taken(made):
    # A numpy integer is a whole number: allowed wherever an int is.
    model = mdp.compile(made["game"], max_states=np.int64(1000), max_memory=np.int64(2**30))
    assert math.isclose(mdp.solve(model).value, made["solution"].value)
    assert mdp.report(made["solution"], made["game"], max_rows=np.int32(1)).startswith("<!")
    assert isinstance(mdp.policy(made["solution"], made["game"]), pl.DataFrame)


@pytest.mark.parametrize(("call", "order"), [
    (lambda m: mdp.analyse("distribution", m["solution"], m["game"]), "analyse(solution, name, game)"),
    (lambda m: mdp.match(m["game"], m["model"]), "match(model, game)"),
    (lambda m: mdp.later_player_values(m["game"], m["model"], [3]),
     "later_player_values(model, game, earlier)"),
    (lambda m: mdp.action_labels(m["game"], m["model"]), "action_labels(model, game)"),
])
def test_a_call_in_the_old_order_is_told_the_subject_comes_first(made, call, order):
    # Public functions take their subject first (the solution or the model), the game after:
    # a call written in the order of old (the game or the name first) is one line naming it.
    with pytest.raises(mdp.ParamError) as error:
        call(made)
    assert str(error.value).startswith(f"mdp.{order.partition('(')[0]}: ")
    assert str(error.value).endswith(f", given first: mdp.{order}")


def test_every_public_function_of_a_solution_or_model_takes_it_first(made, tmp_path):
    # The rule itself: where a public function takes a solution or a model, it comes first.
    for name in calls(made, tmp_path):
        parameters = list(inspect.signature(function(name)).parameters)
        subjects = [p for p in parameters if p in ("solution", "model", "how")]
        if subjects:
            assert parameters[0] == subjects[0], name
