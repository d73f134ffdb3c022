"""Outcomes are listed in the order of their values, so that a running sum of their chances
(``cumulative``) is the chance of at most each (round 32, P32-06): an outcome column of
fractions, held as their text (``"10/3"``), was sorted as text, and ``mdp distribution``
said 50% at most 10/3 where it is 100%. Generated: a game of one chance move to terminal
states whose outcome column holds fractions, whole numbers or both, or text; the table's
order is checked against the values themselves, as the game gave them."""

import itertools
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main

GAME = '''from fractions import Fraction
import mdp
from mdp.program.cli import main

GAME_NAME = "spread"
ENDS = {ends!r}


@mdp.hookimpl
def mdp_initial_state():
    return -1


@mdp.hookimpl
def mdp_actions(state):
    return ["go"] if state == -1 else []


@mdp.hookimpl
def mdp_outcomes(state, action):
    return [(Fraction(1, len(ENDS)), i) for i in range(len(ENDS))]


@mdp.hookimpl
def mdp_terminal_value(state):
    return 0


@mdp.hookimpl
def mdp_state_columns(state):
    return {{"score": None if state == -1 else {cell}}}


@mdp.hookimpl
def mdp_outcome_columns():
    return ["score"]
'''
_written = itertools.count()
NUMBERS = st.fractions(min_value=-20, max_value=20, max_denominator=7)


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.lists(NUMBERS, min_size=1, max_size=6).map(lambda v: ("fraction", v)),
                 st.lists(st.text("abz", min_size=1, max_size=3), min_size=1, max_size=6).map(lambda v: ("text", v))),
       st.booleans())
def test_outcomes_are_listed_by_their_values(tmp_path_factory, capsys, ends, exact):
    kind, values = ends
    cell = ("Fraction(*ENDS[state])" if kind == "fraction" else "ENDS[state]")
    stored = [(v.numerator, v.denominator) for v in values] if kind == "fraction" else values
    path = tmp_path_factory.mktemp("spread") / f"spread{next(_written)}.py"
    path.write_text(GAME.format(ends=stored, cell=cell))
    game = mdp.load_game(str(path))
    solution = mdp.solve(mdp.compile(game), exact=exact)
    table = mdp.distribution(solution, game)
    shown = table["score"].to_list()
    read = [Fraction(v) for v in shown] if kind == "fraction" else shown
    assert read == sorted(set(values)), (shown, values)  # each once, in the values' order
    chances = [Fraction(values.count(v), len(values)) for v in read]
    assert [Fraction(p).limit_denominator(1000) for p in table["probability"].to_list()] == chances
    # The command's running sum, over the rows in that order: the chance of at most each.
    capsys.readouterr()
    assert main(["distribution", str(path), *(["--exact"] if exact else [])]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = next(at for at, line in enumerate(lines) if "cumulative" in line)
    rows = [line.split() for line in lines[head + 1:]]
    assert [r[0] for r in rows] == [str(v) for v in shown]
    running = [round(float(c) * 100, 4) for c in itertools.accumulate(chances)]
    assert [float(r[2].rstrip("%")) for r in rows] == running
    shares = mdp.simulate(solution, game, games=50, seed=1).shares("score")["score"].to_list()
    assert ([Fraction(v) for v in shares] if kind == "fraction" else shares) == sorted(set(values))


def test_the_columns_of_a_printed_table_stay_aligned(tmp_path_factory, capsys):
    # Round 34, U34-01: a value wider than eight characters (-0.142857142857143) pushed the
    # columns after it right, row by row.
    values = [Fraction(-1, 7), Fraction(1, 10), Fraction(7), Fraction(10, 3)]
    path = tmp_path_factory.mktemp("wide") / "wide.py"
    path.write_text(GAME.format(ends=[(v.numerator, v.denominator) for v in values],
                                cell="Fraction(*ENDS[state])").replace('"score"', '"points_won"'))
    assert main(["distribution", str(path), "--exact"]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = next(at for at, line in enumerate(lines) if "cumulative" in line)
    header, rows = lines[head], lines[head + 1:]
    assert {row.index("%") for row in rows} == {header.index("probability") + len("probability") - 2}, \
        lines[head:]  # every row's chance in one column, under its header (as narrow values put it)
