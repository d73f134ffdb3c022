"""A plugin author's mistakes: each refused as early as it can be, in one line naming the game,
the plugin and its hook, and the state in the game's words (never a traceback, and never a
message that points elsewhere)."""

import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_errors import broken, edited, one_line

import mdp
from mdp.program.cli import main

# Pig to 20 in one turn: roll a die and add it to the turn's total, or hold; a 1 ends the
# turn with nothing. A state is (phase, total); holding and going bust end the game.
PIG = '''
import mdp
from fractions import Fraction

GAME_NAME = "pig"

@mdp.hookimpl
def mdp_initial_state():
    return ("turn", 0)

@mdp.hookimpl
def mdp_actions(state):
    phase, total = state
    return ["roll", "hold"] if phase == "turn" and total < 20 else []

@mdp.hookimpl
def mdp_outcomes(state, action):
    _, total = state
    if action == "hold":
        return [(1, ("held", total))]
    return [(Fraction(1, 6), ("bust", 0))] + [(Fraction(1, 6), ("turn", total + face))
                                              for face in range(2, 7)]

@mdp.hookimpl
def mdp_terminal_value(state):
    phase, total = state
    return int(phase != "bust" and total >= 20)

@mdp.hookimpl
def mdp_state_columns(state):
    return {"phase": state[0], "total": state[1]}
'''


def pig(tmp_path, replace: str = "", hook: str | None = None) -> str:
    """Pig's file, with ``hook`` replaced by ``replace`` (or ``replace`` added)."""
    return edited(PIG, "pig", tmp_path, replace, hook)


# 1. Advice on columns that several states have.


def test_advice_names_the_states_columns_could_mean_and_the_column_that_tells_them_apart(tmp_path, capsys):
    # Holding at 10 and rolling on at 10 both have total 10, and no column is empty in either:
    # before, a ShapeError traceback from Polars.
    path = pig(tmp_path)
    message = ("2 states of pig have total='10' (phase=held total=10; phase=turn total=10); "
               "give phase too, to say which")
    assert one_line(capsys, ["advise", path, "total=10"]) == message
    game = mdp.load_game(path)
    solution = mdp.solve(mdp.compile(game))
    with pytest.raises(mdp.ParamError) as error:
        mdp.advise(solution, game, total=10)
    assert str(error.value) == message.replace("'10'", "10")  # as given: an int
    advice = mdp.advise(solution, game, total=10, phase="turn")
    assert advice.state == {"phase": "turn", "total": 10}
    assert sorted(advice.actions["action"]) == ["hold", "roll"]
    # Many states: the first four in the order of their columns, and how many more. The turn totals reachable: 0, then sums
    # of faces 2 to 6: every total from 2 to 19, and past it what a roll from below 20 makes,
    # 20 (14 + 6) to 25 (19 + 6).
    turns = sorted(s[1] for s in mdp.compile(game).states if s[0] == "turn")
    assert turns == [0, *range(2, 26)]
    message = one_line(capsys, ["advise", path, "phase=turn"])
    assert message == (f"{len(turns)} states of pig have phase='turn' (phase=turn total=0; "
                       "phase=turn total=2; phase=turn total=3; phase=turn total=4, and "
                       f"{len(turns) - 4} more); give total too, to say which")


def test_advice_on_states_no_column_tells_apart_says_so(tmp_path, capsys):
    path = pig(tmp_path, "def mdp_state_columns(state):\n    return {'total': state[1]}",
               "mdp_state_columns")
    assert one_line(capsys, ["advise", path, "total=10"]) == (
        "2 states of pig have total='10' (total=10; total=10); no column of the game tells them apart")


# 2. A hook not marked, and a game with no hooks.


@pytest.mark.parametrize(("edit", "message"), [
    (lambda source: source.replace("@mdp.hookimpl\n", ""),
     "game coin: plugin coin's mdp_actions, mdp_initial_state, mdp_outcomes, mdp_params, "
     "mdp_state_columns and mdp_terminal_value are not marked @mdp.hookimpl, so mdp would never "
     "call them"),
    (lambda source: source.replace("@mdp.hookimpl\ndef mdp_actions", "def mdp_actions"),
     "game coin: plugin coin's mdp_actions is not marked @mdp.hookimpl, so mdp would never call it"),
    (lambda source: source + "\ndef mdp_action(state):\n    return []\n",
     "game coin: plugin coin's mdp_action is not marked @mdp.hookimpl, and no hook is named so; "
     "did you mean mdp_actions? (start a helper's name with _)"),
    # A rule plugin the game registers is checked as well.
    (lambda source: source + "\nclass Extra:\n    def mdp_describe(self):\n        return 'x'\n\n"
     "@mdp.hookimpl\ndef mdp_configure(plugins):\n    plugins.register(Extra(), name='extra')\n",
     "game coin: plugin extra's mdp_describe is not marked @mdp.hookimpl, so mdp would never call it"),
])
def test_a_hook_not_marked_is_named_at_load(tmp_path, capsys, edit, message):
    # Before, the function was silently passed over, and the game failed later with
    # "mdp_initial_state returned nothing" or "mdp_actions returned nothing".
    path = broken(tmp_path, "")
    with open(path) as file:
        source = edit(file.read())
    with open(path, "w") as file:
        file.write(source)
    assert one_line(capsys, ["params", path]) == message
    with pytest.raises(mdp.ModelError) as error:
        mdp.load_game(path)
    assert str(error.value) == message


def test_a_game_without_the_hooks_a_game_needs_says_which(tmp_path, capsys):
    name = f"empty_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text("")
    assert one_line(capsys, ["solve", str(tmp_path / f"{name}.py")]) == (
        f"game {name}: no mdp_initial_state hook; a game implements mdp_initial_state, "
        "mdp_actions, mdp_outcomes and mdp_terminal_value, each marked @mdp.hookimpl")
    path = broken(tmp_path / "without_outcomes", "", "mdp_outcomes")  # the coin with no mdp_outcomes
    assert one_line(capsys, ["solve", path]) == (
        "game coin: no mdp_outcomes hook; a game implements mdp_initial_state, mdp_actions, "
        "mdp_outcomes and mdp_terminal_value, each marked @mdp.hookimpl")


# 3. A rule plugin's mistakes, blamed on it.

HOUSE = '''
import mdp
import numpy as np
from mdp_games.shutbox.scoring import ScoringRule

@mdp.hookimpl
def shutbox_scoring_rules():
    return [ScoringRule("house", "house score", "max", lambda box, masks: {values})]
'''


@pytest.fixture
def house_rule(tmp_path, monkeypatch):
    """Installs a rule plugin of Shut the Box, ``house``, from the source given (added to
    HOUSE, whose scoring rule's values are ``values``)."""

    def install(source: str = "", values: str = "(masks == 0).astype(np.int64)") -> None:
        module = f"house_{tmp_path.name.replace('-', '_')}"
        (tmp_path / "house_0.dist-info").mkdir()
        (tmp_path / "house_0.dist-info" / "entry_points.txt").write_text(f"[shutbox]\nhouse = {module}\n")
        (tmp_path / f"{module}.py").write_text(HOUSE.format(values=values) + textwrap.dedent(source))
        monkeypatch.syspath_prepend(str(tmp_path))

    return install


MOVES = '''
@mdp.hookimpl(wrapper=True)
def shutbox_moves(total):
    moves = yield
    return {answer} if total == 11 else moves
'''


@pytest.mark.parametrize(("source", "values", "argv", "message"), [
    # Before: "mdp_expand raised TypeError: int() argument must be ... (11 states from state 1535)".
    (MOVES.format(answer="None"), None, [],
     "plugin house's shutbox_moves (a wrapper) returned None at total 11, where the implementations "
     "inside it answered [23, 131, 69, 41, 38, 26, 258, 132, 72, 48]; a wrapper returns the answer "
     "yield gives it, or one of its own"),
    (MOVES.format(answer="moves + [1024]"), None, [],
     "plugin house's shutbox_moves returned 1024 among its moves, not a mask of tiles from 1 to "
     "511 (total 11)"),
    # The first move of 11 the game finds: 1 2 3 5, tiles 0, 1, 2 and 4 of 1-9.
    (MOVES.format(answer="moves + moves[:1]"), None, [],
     "plugin house's shutbox_moves returned the mask 23 twice: each move once (total 11)"),
    (MOVES.format(answer="1 // 0"), None, [],
     "plugin house's shutbox_moves raised ZeroDivisionError: integer division or modulo by zero "
     "(total 11)"),
    # Before: "mdp_expand gave 0 terminal_values for 1 terminal states".
    ("", "masks[1:]", ["--set", "scoring=house"],
     "scoring rule house of plugin house gave 0 values for 1 final position (open 1 3 4 5 6 7 8 9)"),
    ("", "None", ["--set", "scoring=house"],
     "scoring rule house of plugin house returned None, not a value per position"),
    ("", "1 // 0", ["--set", "scoring=house"],
     "scoring rule house of plugin house raised ZeroDivisionError: integer division or modulo by zero"),
    # A fault in a wrapper of the game's own hook; a frontier of states named by its first.
    ("@mdp.hookimpl(wrapper=True)\ndef mdp_expand(states):\n    expansion = yield\n"
     "    if len(states) > 1:\n        raise ValueError('late')\n    return expansion\n",
     None, [], "plugin house's mdp_expand raised ValueError: late (11 states, the first: open 1 2 3 "
     "4 5 6 7 8 9, roll 2)"),
    ("@mdp.hookimpl(wrapper=True)\ndef mdp_describe():\n    yield\n    raise KeyError('rules')\n",
     None, [], "plugin house's mdp_describe raised KeyError: 'rules'"),
])
def test_a_rule_plugins_mistake_names_the_plugin_and_its_hook(house_rule, capsys, source, values, argv, message):
    house_rule(source, **({"values": values} if values else {}))
    assert one_line(capsys, ["solve", "shutbox", *argv]) == f"game shutbox: {message}"


def test_the_games_own_hooks_are_not_blamed_on_a_plugin(house_rule, capsys):
    house_rule()  # installed, and innocent
    game = mdp.load_game("shutbox", tiles="1-4")
    assert game.blame("shutbox_moves", lambda moves: len(moves) == 1, total=2, kind=None) is None  # the game's: 2
    assert game.blame("shutbox_scoring_rules", lambda groups: any(
        rule.name == "house" for group in groups for rule in group)) == "house"


def test_a_fault_in_a_plugins_code_that_the_game_calls_names_the_plugin(tmp_path, capsys):
    # The coin's chances come from a plugin registered beside it, and the plugin fails.
    module = f"odds_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{module}.py").write_text("def outcomes():\n    raise ValueError('no odds')\n")
    path = broken(tmp_path, f"""
        def mdp_outcomes(state, action):
            import {module}
            return {module}.outcomes()

        @mdp.hookimpl
        def mdp_configure(plugins):
            import {module}
            plugins.register({module}, name="odds")
        """, "mdp_outcomes")
    assert one_line(capsys, ["solve", path]) == (
        "game coin: mdp_outcomes raised ValueError: no odds, in plugin odds (state 'start', action 'bet')")


# 5. Mistakes that passed silently, refused while the states are discovered.


@pytest.mark.parametrize(("hook", "replace", "message"), [
    # Before: two policy rows for one action.
    ("mdp_actions", "def mdp_actions(state):\n    return ['bet', 'walk', 'bet'] if state == 'start' else []",
     "game coin: mdp_actions gave the action 'bet' twice (state 'start'); each action once, a "
     "label found again by =="),
    ("mdp_actions", "def mdp_actions(state):\n    return [float('nan')] if state == 'start' else []",
     "game coin: mdp_actions gave the action nan, not equal to itself, or holds a part that is not "
     "(a NaN), (state 'start'); each "
     "action once, a label found again by =="),  # round 23: taken by solve, refused by policy
    # Before: solved, then mdp policy failed in the CSV writer.
    ("mdp_actions", "def mdp_actions(state):\n    return [['bet'], ['walk']] if state == 'start' else []",
     "game coin: mdp_actions gave the action ['bet'], which is not hashable (state 'start'); actions "
     "must be (use a tuple or a frozenset, not a list or a set)"),
    # Before: solved, and the policy (of the start) and the outcomes (of the ends) each showed
    # their own columns; mdp advise failed.
    ("mdp_state_columns", "def mdp_state_columns(state):\n    return {'where' if state == 'start' else 'place': state}",
     "game coin: mdp_state_columns gave the columns ['place'] (state 'won'), not ['where'] as for "
     "state 'start'; every state gives the same columns (None where one does not apply)"),
    ("mdp_state_columns", "def mdp_state_columns(state):\n    return {'where': state} if state == 'start' else None",
     "game coin: mdp_state_columns gave the columns ['state'] (state 'won'), not ['where'] as for "
     "state 'start'; every state gives the same columns (None where one does not apply)"),
])
def test_a_silent_mistake_is_refused_at_discovery(tmp_path, capsys, hook, replace, message):
    path = broken(tmp_path, replace, hook)
    assert one_line(capsys, ["solve", path]) == message
    game = mdp.load_game(path)
    with pytest.raises(mdp.ModelError) as error:
        mdp.compile(game)
    assert str(error.value) == message


# 10. Smaller things: ends that cannot happen, a strategy that cannot be evaluated, one name.


def test_the_distribution_lists_only_the_ends_that_can_happen(tmp_path, capsys):
    # Optimal play bets (1/2 against walking's 1/3): won or lost, each 1/2; walking away,
    # worth 1/3, never happens, and was listed at 0.0000% before.
    path = broken(tmp_path, "")
    game = mdp.load_game(path)
    solution = mdp.solve(mdp.compile(game), exact=True)
    frame = mdp.distribution(solution, game)
    assert frame.select("value", "exact").rows() == [(0.0, "1/2"), (1.0, "1/2")]
    assert main(["distribution", path]) == 0
    assert capsys.readouterr().out.splitlines()[2:] == [
        "   value  probability   cumulative",
        "       0    50.0000%    50.0000%",
        "       1    50.0000%   100.0000%"]


STRATEGIES = '''
@mdp.hookimpl
def mdp_strategies():
    return [mdp.Strategy("walker", "always walk", lambda game, model: [0, 1]),
            mdp.Strategy("idle", "no move at all", lambda game, model: [0, 0]),
            mdp.Strategy("better", "always bet", lambda game, model: [1, 0])]
'''


def test_a_strategy_that_cannot_be_evaluated_does_not_stop_the_others(tmp_path, capsys):
    # Before, "idle" stopped mdp strategies with its error, and walker and better went unsaid.
    # The coin's actions in the model: bet, then walk.
    path = broken(tmp_path, STRATEGIES)
    problem = "game coin: strategy idle: no action has weight in state 'start'"
    assert main(["strategies", path, "--exact"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "coin",
        "optimal  0.5000000000  = 1/2  the best play",
        "walker   0.3333333333  = 1/3  always walk",
        f"idle     not evaluated: {problem}",
        "better   0.5000000000  = 1/2  always bet"]
    game = mdp.load_game(path)
    frame = mdp.strategy_values(mdp.compile(game), game, exact=True)
    assert frame.select("strategy", "exact", "problem").rows() == [
        ("optimal", "1/2", None), ("walker", "1/3", None), ("idle", None, problem),
        ("better", "1/2", None)]
    page = mdp.report(mdp.solve(mdp.compile(game)), game)
    assert f"<td colspan=2>not evaluated: {problem.replace(chr(39), '&#x27;')}</td>" in page
    assert one_line(capsys, ["solve", path, "--strategy", "idle"]) == problem


def test_a_game_is_named_by_its_own_name_in_every_message(tmp_path, capsys):
    # The coin's file is coin_....py, its name coin: before, mdp variants said the file's.
    path = broken(tmp_path, "")
    assert one_line(capsys, ["variants", path]) == "game coin has no named variants"
    assert one_line(capsys, ["solve", path, "--variant", "x"]) == "game coin has no named variants"


# A -p rule plugin's wrong answer names the plugin; the game's own, beside an innocent plugin,
# names the game alone.

WRONG = {  # a hook, and answers a check refuses (its body, returning or replacing the answer)
    "mdp_terminal_value": ["float('nan')", "float('inf')", "10**400", "'one'", "None", "0.5"],
    "mdp_outcomes": ["answer[:1]", "None", "[(-1, 'won'), (2, 'lost')]", "[(0.5, 'won')]",
                     "[(0.5, 'won'), (0.5, 'lost')]"],
    "mdp_actions": ["None", "'bet'", "5", "[['bet']]", "['bet', 'bet']", "{'bet', 'walk'}"],
    "mdp_state_columns": ["{'where': state, 'more': 1} if state == 'lost' else answer"],
}
ARGS = {"mdp_terminal_value": "state", "mdp_outcomes": "state, action", "mdp_actions": "state",
        "mdp_state_columns": "state"}
FLOAT = "exact solving needs rational numbers, but "  # floats, refused under --exact alone


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), whose=st.sampled_from(["plugin", "game"]))
@pytest.mark.slow  # half a second or more of CPU
def test_a_wrong_answer_names_the_rule_plugin_that_gave_it(tmp_path_factory, capsys, data, whose):
    # Before: a plugin's NaN terminal value, or a wrapper that dropped an outcome, was said to
    # be the game's ("game coin: mdp_terminal_value: ..."), though the game had it right.
    hook = data.draw(st.sampled_from(sorted(WRONG)), "hook")
    wrong = data.draw(st.sampled_from(WRONG[hook]), "answer")
    folder = tmp_path_factory.mktemp("blame")
    body = f"answer = yield\n    return {wrong} if state != 'walked' else answer"
    plugin = folder / f"rule_{folder.name}.py"
    if whose == "plugin":
        plugin.write_text(f"import mdp\n\n@mdp.hookimpl(wrapper=True)\ndef {hook}({ARGS[hook]}):\n    {body}\n")
        game = broken(folder, "")
    else:  # the game's own mistake, a plugin that passes the answer on beside it
        plugin.write_text(f"import mdp\n\n@mdp.hookimpl(wrapper=True)\ndef {hook}({ARGS[hook]}):\n"
                          "    return (yield)\n")
        answer = {"mdp_terminal_value": '{"won": 1, "lost": 0, "walked": 0}[state]',
                  "mdp_outcomes": '[(Fraction(1, 2), "won"), (Fraction(1, 2), "lost")] if action == "bet" '
                                  'else [(1, "walked")]',
                  "mdp_actions": '["bet", "walk"] if state == "start" else []',
                  "mdp_state_columns": '{"where": state}'}[hook]
        game = broken(folder, f"def {hook}({ARGS[hook]}):\n    answer = {answer}\n    "
                      f"return {wrong} if state != 'walked' else answer\n", hook)
    message = one_line(capsys, ["solve", game, "--exact", "-p", str(plugin)])
    named = f"plugin {plugin}'s {hook}"
    fault = FLOAT if FLOAT in message else ""  # a float: who gave it, said after
    assert message.startswith(f"game coin: {fault}{named}" if whose == "plugin" else
                              f"game coin: {fault}{'the game gave' if fault else hook}"), message
    assert (named in message) == (whose == "plugin"), message
    assert not fault or "0.5" in wrong


def test_a_description_of_a_rule_plugin_that_breaks_the_line_names_it(tmp_path, capsys):
    # A wrapper of mdp_describe that adds an escape code was said to be the game's fault.
    plugin = tmp_path / "red.py"
    plugin.write_text("import mdp\n\n@mdp.hookimpl(wrapper=True)\ndef mdp_describe():\n"
                      "    return (yield) + '\\x1b[31m red'\n")
    game = broken(tmp_path, "@mdp.hookimpl\ndef mdp_describe():\n    return 'a coin'\n")
    assert one_line(capsys, ["solve", game, "-p", str(plugin)]) == (
        f"game coin: plugin {plugin}'s mdp_describe returned 'a coin\\x1b[31m red', not one line of "
        "printable text (no line break, control character or space other than ' ')")


@pytest.mark.slow
@pytest.mark.parametrize("hook, args", [("mdp_actions", "state"), ("mdp_terminal_value", "state"),
                                        ("mdp_describe", "")])
@pytest.mark.parametrize("form, why", [
    ("async def {hook}({args}):\n    return None", "is async: mdp calls a hook and takes what it returns"),
    ("async def {hook}({args}):\n    yield None", "is async: mdp calls a hook and takes what it returns"),
    ("def {hook}(*, {args}):\n    return None", "takes {args} as a keyword-only parameter"),
])
@pytest.mark.parametrize("where", ["game", "plugin"])
def test_a_hook_pluggy_cannot_call_as_meant_is_refused_at_load(tmp_path, capsys, hook, args, form, why,
                                                               where):
    # An async hook's answer was a coroutine never run: the one line of the fault was
    # followed by Python's RuntimeWarning. A keyword-only argument is never given (pluggy
    # passes a hook's arguments by position), and the hook's TypeError was blamed on a call.
    # Each is refused as the game loads, naming the plugin and the hook, before it is called.
    if "*" in form and not args:
        return  # no argument to take by keyword
    source = "@mdp.hookimpl\n" + form.format(hook=hook, args=args) + "\n"
    extra = []
    if where == "game":
        game = broken(tmp_path, source, None if hook == "mdp_describe" else hook)  # (the coin has none)
        name = "coin"
    else:
        plugin = tmp_path / "rule.py"
        plugin.write_text("import mdp\n\n" + source)
        game, name, extra = broken(tmp_path, ""), str(plugin), ["-p", str(plugin)]
    message = one_line(capsys, ["solve", game, *extra])
    assert message.startswith(f"game coin: plugin {name}'s {hook} {why.format(args=args)}"), message
