"""Every option of an analysis that takes ``--vary`` (``mdp match``) acts on the table, read as
its parser reads it: ``--players 3`` was refused as "needs 2 players or more, not '3'" (the
text handed on unread), and ``--max-memory`` was a traceback (handed twice). Each table is
compared with the one the Python API makes from the same values."""

import numpy as np
import polars as pl
import pytest

import mdp
from mdp.analysis.registry import analyses
from mdp.program.cli import main

# A value of each option, as typed and as Python takes it; a new option of a --vary analysis
# fails the first test until it is given one here.
SAMPLES = {"players": ("3", 3), "max_memory": ("4G", 4 * 2**30)}
VARIED = [(name, a) for name, a in analyses().items() if a.vary is not None]


def test_every_option_of_a_varying_analysis_has_a_sample():
    assert VARIED
    for _, analysis in VARIED:
        assert {o.name for o in analysis.options} <= SAMPLES.keys()


@pytest.mark.parametrize(("name", "option"), [(name, o.name) for name, a in VARIED for o in a.options])
def test_an_option_given_with_vary_acts_as_in_python(tmp_path, capsys, name, option):
    typed, value = SAMPLES[option]
    out = tmp_path / "t.csv"
    assert main([name, "shutbox", "--vary", "tiles=1-3,1-4", f"--{option.replace('_', '-')}", typed,
                 "--out", str(out)]) == 0, capsys.readouterr().err
    table = getattr(mdp, f"{name}_table")("shutbox", {"tiles": ["1-3", "1-4"]}, **{option: value})
    assert pl.read_csv(out).equals(pl.read_csv(table.write_csv().encode()))


def test_a_number_of_players_is_refused_saying_what_it_must_be(capsys):
    assert main(["match", "shutbox", "--vary", "tiles=1-3,1-4", "--players", "1"]) == 2
    assert capsys.readouterr().err == "mdp: error: --players 1: expected a whole number of 2 or more\n"
    with pytest.raises(mdp.ParamError, match=r"^players=True: a match needs a whole number of 2"):
        mdp.match_table("shutbox", {"tiles": ["1-3"]}, players=True)
    # NumPy's whole numbers are whole numbers (was: "needs 2 players or more, not np.int64(3)")
    assert mdp.match_table("shutbox", {"tiles": ["1-3"]}, players=np.int64(3)).columns[-1] == "player_3"


# Two values of each parameter that Shut the Box's match alone reads.
MATCH_ALONE = {"shut_pays": ["1", "2"], "shut_wins": ["yes", "no"]}


def test_solving_over_a_parameter_of_the_match_alone_is_refused_before_the_work(capsys):
    """Solved, each value of a parameter that only a match reads is one game: the table's rows
    were that game solved again, alike; refused in one line naming it, before any solve (the
    first row compiled, which tells whether the match rules' word is true)."""
    from mdp.analysis.match_rules import match_params

    assert set(match_params(mdp.load_game("shutbox"))) == MATCH_ALONE.keys()
    for name, values in MATCH_ALONE.items():
        assert main(["solve", "shutbox", "--vary", f"{name}={','.join(values)}"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"mdp: error: parameter {name} is read by a match alone "), err
        # the match itself takes it (the fair stake of the rule set)
        assert mdp.match_table("shutbox", {name: values}, params={"tiles": "1-3"}).height == 2


COIN = """from fractions import Fraction
import mdp

GAME_NAME = "coin"


@mdp.hookimpl
def mdp_params():
    return [mdp.Param("win", 4, int, "what a win pays")]


@mdp.hookimpl
def mdp_initial_state():
    return "s0"


@mdp.hookimpl
def mdp_actions(state):
    return ["safe", "risky"] if state == "s0" else []


@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(1, "T")] if action == "safe" else [(Fraction(1, 3), "W"), (Fraction(2, 3), "L")]


@mdp.hookimpl
def mdp_terminal_value(params, state):
    return {"T": 1, "W": params["win"], "L": 0}[state]


@mdp.hookimpl
def mdp_state_columns(params, state):
    return {"score": {"T": 1, "W": params["win"], "L": 0}.get(state)}
"""
PAYOFF = """import numpy as np


def payoff(results):
    s = np.sign(np.asarray(results)[:, 1] - np.asarray(results)[:, 0])
    return np.stack([-s, s], axis=1)
"""
RULES = """import mdp
from coin_payoff import payoff

GAME = "coin"


@mdp.hookimpl
def mdp_match_rules():
    return mdp.MatchRules("score", payoff, params=("win",))
"""


def _coin(tmp_path, monkeypatch, game):
    """The coin game ``game`` written beside its payoff and its rule plugin of match rules,
    importable (the plugin imports the payoff)."""
    (tmp_path / "coin.py").write_text(game)
    (tmp_path / "coin_payoff.py").write_text(PAYOFF)
    (tmp_path / "rules.py").write_text(RULES)
    monkeypatch.syspath_prepend(str(tmp_path))


@pytest.mark.parametrize("command", ["solve", "match"])
def test_match_rules_that_name_a_parameter_the_game_reads_are_refused_on_every_road(
        tmp_path, capsys, monkeypatch, command):
    # Round 32, P32-16: solve --vary trusted the claim and refused a sweep of two games;
    # match --vary alone found it untrue.
    _coin(tmp_path, monkeypatch, COIN)
    assert main([command, str(tmp_path / "coin.py"), "-p", str(tmp_path / "rules.py"), "--vary", "win=3,4"]) == 2
    err = capsys.readouterr().err
    assert err == (f"mdp: error: game coin: its hooks read win as its states are made, though plugin "
                   f"{tmp_path / 'rules.py'}'s mdp_match_rules names it among those the match alone "
                   "reads (MatchRules params); name in params only what the game's own hooks never read\n"), err


TEXT = "int({}.split(\"'win': \")[1].split('}}')[0])"


@pytest.mark.parametrize("read", [TEXT.format("str(params)"), TEXT.format("f'{params}'"),
                                  TEXT.format("repr(params)"), TEXT.format("('%s' % (params,))"),
                                  'game.params["win"]', 'game.params.get("win")',
                                  'dict(game.params)["win"]', TEXT.format("str(game.params)")])
def test_a_parameter_read_through_the_text_of_them_all_is_read(tmp_path, capsys, monkeypatch, read):
    # Round 35, P35-23: read through the text of the mapping, a match-only parameter went
    # unseen, and match --vary compiled once: every row had the first rule set's figures.
    # Round 36, A36P-1: the same through the game's parameters (game.params), as a hook
    # taking the game reads them.
    game = COIN.replace('def mdp_terminal_value(params, state):\n    return {"T": 1, "W": params["win"], "L": 0}[state]',
                        f'def mdp_terminal_value(params, state, game):\n    return {{"T": 1, "W": {read}, "L": 0}}[state]')
    assert game != COIN
    _coin(tmp_path, monkeypatch, game)
    assert main(["match", str(tmp_path / "coin.py"), "-p", str(tmp_path / "rules.py"), "--vary", "win=3,4"]) == 2
    assert "its hooks read win as its states are made" in capsys.readouterr().err


WRAPPER_OF_MOVES = """import mdp

GAME = "shutbox"


@mdp.hookimpl(wrapper=True)
def shutbox_moves(params, game, total):
    moves = yield
    pays = {read}
    return [m for m in moves if m.bit_count() == 1] if pays == 1 else moves
"""


@pytest.mark.parametrize("read", ['params["shut_pays"]', 'game.params["shut_pays"]'])
def test_a_rule_plugin_s_hook_reading_a_match_only_parameter_is_read(tmp_path, capsys, read):
    # Round 36, A36P-6: a rule plugin's wrapper of Shut the Box's own hook (shutbox_moves)
    # read shut_pays, which the match rules name the match's alone: match --vary compiled
    # once, and the rows were the first value's game (1/1296 and 1/648; 1/1296 and 2/9).
    plugin = tmp_path / "pays_one_tile.py"
    plugin.write_text(WRAPPER_OF_MOVES.format(read=read))
    argv = ["match", "shutbox", "-p", str(plugin), "--set", "tiles=1-3", "--exact"]
    assert main([*argv, "--vary", "shut_pays=1,2"]) == 2
    assert "its hooks read shut_pays as its states are made" in capsys.readouterr().err


@pytest.mark.parametrize("hook", ["mdp_state_columns", "mdp_columns"])
def test_a_match_only_parameter_read_by_the_result_column_alone_is_read(tmp_path, capsys, monkeypatch, hook):
    # Round 36, A36P-9: the game's values never read win; only the column the match compares
    # did: match --vary compiled the column once, and every row had the first value's results.
    game = COIN.replace('return {"T": 1, "W": params["win"], "L": 0}[state]',
                        'return {"T": 1, "W": 2, "L": 0}[state]')
    if hook == "mdp_columns":
        game = game.replace('def mdp_state_columns(params, state):\n    return {"score": {"T": 1, "W": params["win"], "L": 0}.get(state)}',
                            'def mdp_columns(params, states, actions):\n    return {"score": [{"T": 1, "W": params["win"], "L": 0}.get(s) for s in states]}')
    assert game.count('params["win"]') == 1 and f"def {hook}(" in game
    _coin(tmp_path, monkeypatch, game)
    assert main(["match", str(tmp_path / "coin.py"), "-p", str(tmp_path / "rules.py"), "--vary", "win=3,4"]) == 2
    assert "its hooks read win as its states are made" in capsys.readouterr().err
