"""Options that contradict each other, or one that would do nothing, are refused in one line
before any work, in every command that takes them: --json and --format both for standard
output, a tie-break column given twice, --maximize or --minimize with a strategy that plays
by its weights. Cases are generated."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]
TWO_BOXES = str(ROOT / "docs" / "examples" / "two_boxes.py")

# Each command that prints JSON and writes a table: its arguments but those two.
TABLES = {
    "policy": ["policy", "shutbox", "--set", "tiles=1-3"],
    "distribution": ["distribution", "shutbox", "--set", "tiles=1-3"],
    "simulate": ["simulate", "shutbox", "--set", "tiles=1-3", "--games", "3", "--seed", "1"],
    "strategies": ["strategies", "shutbox", "--set", "tiles=1-3"],
    "advise": ["advise", "shutbox", "--set", "tiles=1-3", "open=1 2 3", "roll=4"],
    "solve --vary": ["solve", "shutbox", "--vary", "tiles=1-2,1-3"],
    "match --vary": ["match", "shutbox", "--vary", "tiles=1-2,1-3"],
}
ONE_LINE = ("mdp: error: --json and --format each print on standard output; write the table to "
            "a file with --out, or leave out one\n")


@pytest.fixture
def no_compile(monkeypatch):
    def compile(*args, **kwargs):
        raise AssertionError("compiled before the refusal")

    monkeypatch.setattr(mdp, "compile", compile)
    monkeypatch.setattr(mdp, "solve_table", compile)
    monkeypatch.setattr(mdp, "match_table", compile)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(sorted(TABLES)), fmt=st.sampled_from(["csv", "json", "markdown",
                                                                     "parquet", "ndjson"]),
       json_first=st.booleans(), short=st.booleans())
def test_json_and_a_format_for_standard_output_are_refused(capsys, no_compile, command, fmt,
                                                           json_first, short):
    both = [["--json"], ["-f" if short else "--format", fmt]]
    argv = [*TABLES[command], *(both if json_first else both[::-1])[0],
            *(both if json_first else both[::-1])[1]]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", ONE_LINE)


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(TABLES))
def test_json_and_a_format_with_out_write_both(tmp_path, capsys, command):
    target = tmp_path / "table.csv"
    assert main([*TABLES[command], "--json", "--format", "csv", "--out", str(target)]) == 0
    out = capsys.readouterr().out
    assert out.lstrip()[:1] in "{[" and out.count("\n") == 1  # the JSON alone
    assert target.read_text().count("\n") >= 2  # a header and rows


COLUMNS = ["open_sum", "shut_sum"]
forms = st.tuples(st.sampled_from(["", "max:", "min:"]), st.sampled_from(COLUMNS)).map("".join)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
@pytest.mark.slow  # half a second or more of CPU
def test_a_tie_break_column_given_twice_is_refused(capsys, no_compile, data):
    column = data.draw(st.sampled_from(COLUMNS), "column")
    twice = data.draw(st.lists(st.sampled_from(["", "max:", "min:"]), min_size=2, max_size=3)
                      .map(lambda senses: [s + column for s in senses]), "twice")
    others = [c for c in COLUMNS if c != column][:data.draw(st.integers(0, 1), "others")]
    items = data.draw(st.permutations(twice + others), "items")
    command = data.draw(st.sampled_from(["distribution", "simulate"]), "command")
    argv = [*TABLES[command], *[part for item in items for part in ("--tie-break", item)]]
    assert main(argv) == 2
    given_ = ", ".join(repr(item) for item in items if item.rpartition(":")[2] == column)
    assert capsys.readouterr().err == (f"mdp: error: tie-break column {column} is given twice "
                                       f"({given_}); give each column once\n")


@settings(max_examples=20, deadline=None)
@given(items=st.lists(forms, min_size=1, max_size=4))
def test_tie_breaks_in_python_refused_as_on_the_command_line(items):
    columns = [item.rpartition(":")[2] for item in items]
    solution = _solution()
    if len(set(columns)) < len(columns):
        with pytest.raises(mdp.ParamError, match=r"tie-break column \w+ is given twice"):
            mdp.choices(solution, items)
        with pytest.raises(mdp.ParamError, match=r"tie-break column \w+ is given twice"):
            mdp.distribution(solution, _game(), tie_break=items)
    else:  # one action taken in every state where one acts
        assert int(mdp.choices(solution, items).sum()) == solution.model.n_states - solution.model.n_terminal


def _game():
    return mdp.load_game("shutbox", tiles="1-4")


_SOLVED = {}


def _solution():
    if not _SOLVED:
        _SOLVED["s"] = mdp.solve(mdp.compile(_game()))
    return _SOLVED["s"]


STEERED = ["solve", "policy", "distribution", "advise", "simulate", "variants"]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(STEERED), strategy=st.sampled_from(["random", "fewest-tiles", "longest"]),
       sense=st.sampled_from(["--maximize", "--minimize"]), sense_first=st.booleans())
@pytest.mark.slow  # half a second or more of CPU
def test_a_sense_with_a_strategy_of_weights_is_refused(capsys, monkeypatch, command, strategy,
                                                       sense, sense_first):
    def solve(*args, **kwargs):
        raise AssertionError("solved before the refusal")

    monkeypatch.setattr(mdp, "solve", solve)
    monkeypatch.setattr(mdp, "evaluate", solve)
    rest = {"advise": ["open=1 2 3", "roll=4"], "simulate": ["--games", "3"]}.get(command, [])
    options = [[sense], ["--strategy", strategy]]
    argv = [command, "shutbox", "--set", "tiles=1-3", *rest,
            *(options if sense_first else options[::-1])[0], *(options if sense_first else options[::-1])[1]]
    assert main(argv) == 2
    assert capsys.readouterr().err == (f"mdp: error: {sense} steers optimal play; the strategy "
                                       f"{strategy} plays as its weights say: give one or the other\n")


def test_a_sense_with_a_strategy_of_aims_steers_it(capsys):
    # A game of rounds' strategy plays each round toward its aims: --minimize steers it.
    assert main(["solve", TWO_BOXES, "--strategy", "greedy", "--minimize"]) == 0
    assert "expected total playing greedy (minimized): 3.5625" in capsys.readouterr().out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(["solve", "match"]),
       values=st.lists(st.sampled_from(["1-2", "1,2", "2,1", "1-3", "3,1-2", "1"]), min_size=2, max_size=3))
@pytest.mark.slow  # half a second or more of CPU
def test_a_value_varied_twice_is_refused(capsys, command, values):
    # --vary rounds=1,01 solved and printed the same rule set twice. Two values the parser
    # reads alike (tiles 1-2, 1,2 and 2,1) are one rule set, refused before any is solved;
    # distinct ones are each solved, a row each.
    tiles = [frozenset(mdp.parse_int_list(v)) for v in values]
    got = main([command, "shutbox", "--vary", "tiles=" + ";".join(values), "--format", "csv"])
    out, err = capsys.readouterr()
    if len(set(tiles)) < len(tiles):
        assert got == 2 and out == "" and err.startswith("mdp: error: vary: tiles=") and err.count("\n") == 1
        assert err.endswith("; give each value once\n"), err
    else:
        assert got == 0 and len(out.splitlines()) == 1 + len(values), err
