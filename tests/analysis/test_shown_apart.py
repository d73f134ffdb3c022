"""Two actions of one state, or two states of a policy table, that a table would show alike
(0.3 and 0.1 + 0.2 to 15 digits, ``"a"`` and ``"a "``, ``é`` as one letter or two) are
refused; any two not refused print apart, in a Markdown table and in mdp advise. What a reader
cannot tell apart is said here on its own: the cell's text with runs of spaces as one, none
at either end, and letters in one form (NFKC: a ligature and its letters, a full-width letter
and its plain one; round 18, P29)."""

import io
import unicodedata
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import StartBatch, Table

import mdp
from mdp.outputs.formats import _markdown
from mdp.outputs.readable import readable


def looks(text: str) -> str:
    """What a reader sees of a cell's text."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


FLOATS = st.floats(-1e12, 1e12, allow_nan=False).filter(lambda x: x != 0)
NEAR = st.builds(lambda x, steps: (x, float(np.nextafter(x, np.inf * steps))),
                 FLOATS, st.sampled_from([1, -1]))
ROUNDED = FLOATS.map(lambda x: (x, float(f"{x:.15g}")))
SUMMED = st.tuples(FLOATS, FLOATS).map(lambda ab: (ab[0] + ab[1], float(f"{ab[0] + ab[1]:.15g}")))
WORDS = st.text(st.sampled_from("ab éfiA"), min_size=1, max_size=4)
TEXTS = st.builds(lambda word, how: (word, how(word)), WORDS, st.sampled_from([
    lambda w: w + " ", lambda w: " " + w, lambda w: w.replace(" ", "  "),
    lambda w: unicodedata.normalize("NFD", w), lambda w: w + "\u200b", lambda w: w.upper(),
    lambda w: w.replace("fi", "\ufb01"), lambda w: w.replace("A", "\uff21")]))
PAIRS = st.one_of(NEAR, ROUNDED, SUMMED, TEXTS, st.just((1, 1.0)), st.just((0.3, 0.1 + 0.2)),
                  st.just((Fraction(1, 2), 0.5)))


def _cells(frame, column):
    """The Markdown table's cells of ``column``, in its rows' order."""
    out = io.BytesIO()
    _markdown(frame, out)
    lines = out.getvalue().decode().splitlines()
    names = [c.strip() for c in lines[0].strip("|").split("|")]
    return [line.strip("|").split(" | ")[names.index(column)] for line in lines[2:]]


class Batch(StartBatch):
    """The same game in batches: state 0 ("start"), then 1 (flip: 2 or 3 at 1/2) or 4
    (stay), the columns in arrays (floats in a float array, as a batch game gives them)."""

    GAME_NAME = "batched"

    def __init__(self, pair):
        self.pair = pair

    @mdp.hookimpl
    def mdp_expand(self, states):
        keys = states.tolist()
        counts = [2 if k == 0 else 0 for k in keys]
        values = [{1: 3, 2: 0, 3: 1}[k] for k in keys if k]
        start = 0 in keys
        return mdp.Expansion(np.array(counts), [0, 1] if start else [],
                             np.array([2, 1] if start else [], dtype=np.int64),
                             np.array([1, 2, 3] if start else [], dtype=np.int64),
                             np.array([0, 0, 1] if start else [], dtype=np.int64),
                             (Fraction(1, 2), 1), values)

    @mdp.hookimpl
    def mdp_columns(self, states, actions):
        keys = [int(k) for k in states]
        if actions is None:
            return {"at": keys}
        picked = [None if a is None else self.pair[a] for a in actions]
        if all(isinstance(v, float) for v in picked):
            picked = np.array(picked, dtype=np.float64)
        return {"at": keys, "pick": picked}


def _pick(pair, batch=False):
    if batch:
        return mdp.load_game(Batch(pair))
    game = Table({"start": {"flip": [(Fraction(1, 2), "H"), (Fraction(1, 2), "T")],
                            "stay": [(1, "S")]}}, {"H": 3, "T": 0, "S": 1})
    game.mdp_action_columns = mdp.hookimpl(
        lambda state, action: {"pick": pair[0] if action == "flip" else pair[1]})
    return mdp.load_game(game)


@settings(max_examples=30, deadline=None)
@given(pair=PAIRS, batch=st.booleans())
def test_two_actions_are_never_shown_alike(pair, batch):
    game = _pick(pair, batch)
    named = {"at": 0} if batch else {"state": "start"}
    solution = mdp.solve(mdp.compile(game), exact=True)
    try:
        frame = mdp.policy(solution, game)
    except mdp.ModelError as refused:
        assert "shows the actions" in str(refused) and "alike" in str(refused)
        with pytest.raises(mdp.ModelError, match="alike"):
            mdp.advise(solution, game, **named)
        return
    assert len({looks(cell) for cell in _cells(frame, "pick")}) == 2
    advised = mdp.advise(solution, game, **named).actions["pick"].to_list()
    assert len({looks(readable(v)) for v in advised}) == 2


def _states(pair):
    """From "start", A or B at 1/2 each; at A "x" is worth 1 and "y" 0, at B the other way
    round (the two states' best actions differ); A's column x is pair[0], B's pair[1]."""
    game = Table({"start": {"go": [(Fraction(1, 2), "A"), (Fraction(1, 2), "B")]},
                  "A": {"x": [(1, "Ax")], "y": [(1, "Ay")]},
                  "B": {"x": [(1, "Bx")], "y": [(1, "By")]}},
                 {"Ax": 1, "Ay": 0, "Bx": 0, "By": 1})
    game.mdp_state_columns = mdp.hookimpl(
        lambda state: {"s": {"A": pair[0], "B": pair[1]}.get(state)})
    return mdp.load_game(game)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(pair=PAIRS)
def test_two_states_are_never_shown_alike(pair):
    game = _states(pair)
    solution = mdp.solve(mdp.compile(game), exact=True)
    try:
        frame = mdp.policy(solution, game)
    except mdp.ModelError as refused:
        assert "no column of the game tells them apart" in str(refused)
        return
    cells = [looks(cell) for cell in _cells(frame, "s")]
    assert len(set(cells) - {""}) == 2  # A's two rows and B's two, apart
    for state in ("A", "B"):  # each named by what the table shows: its own advice
        value = pair["AB".index(state)]
        shown = value if isinstance(value, str) else readable(value)  # text as typed
        advice = mdp.advise(solution, game, s=shown).actions
        assert advice["action"][0] == ("x" if state == "A" else "y")


class BatchStates:
    """The game of :func:`_states` in batches (0 start, 1 A, 2 B, then 3 Ax, 4 Ay, 5 Bx,
    6 By), its state column a Polars Series, as a batch game may give it."""

    GAME_NAME = "batched"

    def __init__(self, pair):
        self.pair = pair

    @mdp.hookimpl
    def mdp_initial_state(self):
        return 0

    @mdp.hookimpl
    def mdp_stage(self, states):
        return np.select([states == 0, states <= 2], [2, 1], 0).astype(np.int64)

    @mdp.hookimpl
    def mdp_expand(self, states, labels):
        counts, nexts, outcomes, ids, values, names = [], [], [], [], [], []
        for k in states.tolist():
            if k == 0:
                counts.append(1), nexts.extend([1, 2]), outcomes.append(2), ids.extend([0, 0])
                names.append("go")
            elif k <= 2:
                counts.append(2), nexts.extend([2 * k + 1, 2 * k + 2]), outcomes.extend([1, 1])
                ids.extend([1, 1]), names.extend(["x", "y"])
            else:
                counts.append(0), values.append(1 if k in (3, 6) else 0)
        return mdp.Expansion(np.array(counts), names, np.array(outcomes, dtype=np.int64),
                             np.array(nexts, dtype=np.int64), np.array(ids, dtype=np.int64),
                             (Fraction(1, 2), 1), values)

    @mdp.hookimpl
    def mdp_columns(self, states, actions):
        import polars as pl

        shown = [{1: self.pair[0], 2: self.pair[1]}.get(int(k), 0.5) for k in states]
        columns = {"s": pl.Series("s", shown, dtype=pl.Float64)}
        return columns if actions is None else {**columns, "move": list(actions)}


@pytest.mark.parametrize("pair", [(0.3, 0.1 + 0.2), (1.0, 1.0 + 2**-52)])
def test_batch_states_of_a_series_shown_alike_are_refused_in_one_line(pair):
    game = mdp.load_game(BatchStates(pair))
    with pytest.raises(mdp.ModelError, match=r"^game batched: states 1 and 2 have columns that "
                       r"tables show alike \(s="):
        mdp.policy(mdp.solve(mdp.compile(game), exact=True), game)
