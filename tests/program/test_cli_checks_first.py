"""What the arguments cannot mean is refused before any state of the game is found: the
game here raises the moment its states are explored, so a refusal that came after the work
would be that fault's line instead."""


import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mdp.limits import MAX_COMBINATIONS
from mdp.program.cli import main

SENTINEL = '''
"""A game that must not be explored: its actions raise."""
import mdp



@mdp.hookimpl
def mdp_params():
    return [mdp.Param("size", 1, int, "how large"), mdp.Param("other", 1, int, "another")]


@mdp.hookimpl
def mdp_estimate_states(params):
    return 10 ** params["size"]


@mdp.hookimpl
def mdp_variants():
    return [mdp.Variant("small", {"size": "1"}, "small"), mdp.Variant("large", {"size": "7"}, "large")]


@mdp.hookimpl
def mdp_initial_state(params):
    return 0


@mdp.hookimpl
def mdp_actions(params, state):
    raise RuntimeError("the states were explored")


@mdp.hookimpl
def mdp_state_columns(params, state):
    return {"position": state, "label": "start"}
'''

# A rule plugin naming a variant that cannot be loaded, after the game's good ones.
BAD_VARIANT = '''
import mdp

GAME = "sentinel"


@mdp.hookimpl
def mdp_variants():
    return [mdp.Variant("broken", {"size": "many"}, "broken")]
'''

EXPLORED = "the states were explored"


@pytest.fixture
def sentinel(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # A module name of its own in each test: one process imports them all.
    name = "sentinel_" + "".join(c if c.isalnum() else "_" for c in tmp_path.name)
    (tmp_path / f"{name}.py").write_text(SENTINEL)
    (tmp_path / "bad_variant.py").write_text(BAD_VARIANT.replace('"sentinel"', repr(name)))
    return str(tmp_path / f"{name}.py")


def _refused(capsys, argv: list[str], code: int = 2) -> str:
    assert main(argv) == code
    err = capsys.readouterr().err
    assert err.startswith("mdp: error: ") and err.count("\n") == 1, err
    assert EXPLORED not in err
    return err


def test_the_game_is_explored_unless_refused(sentinel, capsys):
    # The test's premise: a command that gets to the work meets the fault.
    assert main(["solve", sentinel]) == 2
    assert EXPLORED in capsys.readouterr().err


@pytest.mark.parametrize("command", ["distribution", "simulate"])
def test_a_tie_break_column_the_states_lack_is_refused_first(sentinel, capsys, command):
    extra = ["--games", "10"] if command == "simulate" else []
    err = _refused(capsys, [command, sentinel, *extra, "--tie-break", "min:positon"])
    assert "tie-break column 'positon'; did you mean position?" in err
    assert "position, label, value" in err
    # Round 32, U32-03: the columns are said to be the states', not all a tie-break takes.
    assert err.endswith("(position, label, value); a tie-break takes one of them that is a number "
                        "in every terminal state\n"), err
    err = _refused(capsys, [command, sentinel, *extra, "--tie-break", "most:position"])
    assert "expected COLUMN, max:COLUMN or min:COLUMN" in err


@pytest.mark.parametrize("argv", [["match"], ["match", "--vary", "other=1,2"],
                                  ["advise", "position=0", "--after", "3"]])
def test_a_match_of_a_game_with_no_match_rules_is_refused_first(sentinel, capsys, argv):
    err = _refused(capsys, [argv[0], sentinel, *argv[1:]])
    assert "is not played in matches" in err


def test_a_broken_variant_among_good_ones_is_refused_first(sentinel, capsys):
    err = _refused(capsys, ["variants", sentinel, "-p", "bad_variant.py"])
    assert "size=many" in err


@pytest.mark.parametrize("argv", [["variants"], ["solve", "--vary", "size=1,7"],
                                  ["match", "--vary", "size=1,7"]])
def test_a_game_too_large_by_its_count_is_refused_before_any_is_explored(sentinel, capsys, argv):
    # The small one first would be explored: the large one is refused before it.
    err = _refused(capsys, [argv[0], sentinel, *argv[1:], "--max-states", "1000"], code=3)
    assert "states by its estimate (mdp_estimate_states), over the limit of 1,000" in err


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(counts=st.lists(st.integers(1, 2_000), min_size=1, max_size=2))
@pytest.mark.slow  # half a second or more of CPU
def test_a_grid_too_large_is_refused_before_any_game_is_loaded(sentinel, capsys, counts):
    # Combinations of values of "other" and "size" (distinct values, since one given twice
    # is refused: it is the count that is refused here), past the limit or not.
    names = ["other", "size"][:len(counts)]
    total = 1
    for count in counts:
        total *= count
    assume(total > MAX_COMBINATIONS or total <= 100)  # each game of a grid allowed is loaded
    vary = [f"{name}={','.join(map(str, range(7, 7 + count)))}" for name, count in zip(names, counts)]
    argv = ["solve", sentinel, *(a for v in vary for a in ("--vary", v)), "--max-states", "5"]
    if total > MAX_COMBINATIONS:
        err = _refused(capsys, argv, code=3)
        assert f"{total:,} combinations" in err
    else:  # loaded, each refused by its count of states: still no state found
        err = _refused(capsys, argv, code=3)
        assert "states by its estimate (mdp_estimate_states), over the limit of 5" in err


# A policy table that cannot be written is refused before the solve: here the solve raises.


@pytest.fixture
def no_solve(monkeypatch):
    import mdp

    def solve(*args, **kwargs):
        raise AssertionError("solved before the refusal")

    monkeypatch.setattr(mdp, "solve", solve)


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tiles=st.integers(1, 5), most=st.integers(1, 200), optimal_only=st.booleans())
def test_a_markdown_policy_too_long_is_refused_before_the_solve(capsys, tiles, most, optimal_only):
    # Before: the whole game was solved first (2 s on a large box). The rows by the model:
    # one per action, or at least one per state with actions (optimal_only).
    import mdp
    import mdp.outputs.formats

    model = mdp.compile(mdp.load_game("shutbox", tiles=f"1-{tiles}"))
    least = model.n_actions if not optimal_only else model.n_states - model.n_terminal
    argv = ["policy", "shutbox", "--set", f"tiles=1-{tiles}", "--format", "markdown"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mdp.outputs.formats, "MARKDOWN_ROWS", most)
        if least > most:
            patch.setattr(mdp, "solve", lambda *a, **k: pytest.fail("solved before the refusal"))
        code = main(argv + (["--optimal-only"] if optimal_only else []))
    err = capsys.readouterr().err
    if least > most:
        assert code == 3 and err == (f"mdp: error: the policy table has {least:,} rows or more, "
                                     f"too many for a Markdown table (at most {most:,}), which is "
                                     "for people to read; write CSV or Parquet (--out FILE.csv)\n"), err
    else:
        assert "rows or more" not in err


def test_the_policy_within_every_round_too_long_is_refused_before_the_solve(no_solve, capsys, monkeypatch):
    # Before: Yahtzee was solved whole (12 s) before the refusal. Two boxes (docs/examples):
    # round states 0 (2 boxes open) and 1, 2 (one open) are played from, 3 ends the game:
    # three times the round's actions.
    import mdp
    import mdp.engine.rounds.table

    model = mdp.compile(mdp.load_game("docs/examples/two_boxes.py"))
    rows = 3 * model.round.n_actions
    monkeypatch.setattr(mdp.engine.rounds.table, "MAX_TABLE_ROWS", rows - 1)
    assert main(["policy", "docs/examples/two_boxes.py", "--within", "all", "--format", "csv"]) == 3
    assert capsys.readouterr().err == (
        f"mdp: error: game two-boxes: the policy within the round at 3 round states has up to "
        f"{rows:,} rows, more than the {rows - 1:,} a table may have; name fewer round states by "
        "their columns\n")


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(open_tiles=st.sets(st.integers(1, 5), max_size=4), roll=st.integers(0, 14))
def test_advice_on_a_state_the_game_lacks_is_refused_before_the_solve(capsys, open_tiles, roll):
    # Before: Yahtzee was solved whole (11 s) before a face 7 was refused. The refusal is
    # what mdp.advise says of the solved game (tiles 1-4 here: a 5 is never open).
    import mdp

    game = mdp.load_game("shutbox", tiles="1-4")
    state = {"open": " ".join(map(str, sorted(open_tiles))), "roll": str(roll)}  # as typed
    try:
        mdp.advise(mdp.solve(mdp.compile(game)), game, **state)
        refused = None
    except mdp.ParamError as error:
        refused = str(error)
    argv = ["advise", "shutbox", "--set", "tiles=1-4", f"open={state['open']}", f"roll={roll}"]
    with pytest.MonkeyPatch.context() as patch:
        if refused:
            patch.setattr(mdp, "solve", lambda *a, **k: pytest.fail("solved before the refusal"))
        code = main(argv)
    err = capsys.readouterr().err
    assert (code, err) == ((2, f"mdp: error: {refused}\n") if refused else (0, ""))


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(st.sampled_from("abfilедz_"), min_size=1, max_size=8))
def test_policy_within_a_column_no_round_state_has_is_refused_before_the_compile(capsys, name):
    # Before: the game was compiled and solved whole (6 s on full Yahtzee) before the
    # refusal. Two boxes (docs/examples) has one round column, filled.
    import mdp

    assume(name != "filled")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mdp, "compile", lambda *a, **k: pytest.fail("compiled before the refusal"))
        code = main(["policy", "docs/examples/two_boxes.py", "--within", f"{name}=1"])
    assert code == 2
    assert capsys.readouterr().err == (f"mdp: error: within: {name} is no round column of "
                                       "two-boxes (its round columns: filled)\n")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(filled=st.sampled_from(["FACE", "EVEN", "FACE EVEN", "", "EVEN FACE", "face", "bogus"]))
@pytest.mark.slow  # half a second or more of CPU
def test_policy_within_a_round_state_the_game_lacks_is_refused_before_the_solve(capsys, filled):
    # Before: solved whole first. Two boxes' reachable round states are filled "", FACE,
    # EVEN and "FACE EVEN" (in the order of BOXES), the last ending the game: what
    # mdp advise names there is refused alike, before the solve.
    import mdp

    with pytest.MonkeyPatch.context() as patch:
        if filled not in ("", "FACE", "EVEN"):
            patch.setattr(mdp, "solve", lambda *a, **k: pytest.fail("solved before the refusal"))
        code = main(["policy", "docs/examples/two_boxes.py", "--within", f"filled='{filled}'"])
    err = capsys.readouterr().err
    if filled in ("", "FACE", "EVEN"):
        assert code == 0, err
    elif filled == "FACE EVEN":  # the game is over there: no round is played
        assert (code, err) == (2, "mdp: error: game two-boxes: no round state named is played "
                                  "from (each ends the game)\n")
    else:
        assert code == 2 and err.startswith(f"mdp: error: no reachable round state has filled={filled!r}"), err
