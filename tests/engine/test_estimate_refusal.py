"""A game refused on its own count of states (mdp_estimate_states) is told so: the count is
the hook's, an estimate, and no state was explored. "more than 100 states" of a game of 19
states, whose hook over-counted, read as a fact; the page showed another line."""

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import Table

import mdp

ROOT = Path(__file__).resolve().parents[2]


class Counted(Table):
    """A chain of ``STATES`` states (start, 1, 2, 3 and the end 4) whose
    mdp_estimate_states is ``estimate``."""

    GAME_NAME = "chain"
    STATES = 5

    def __init__(self, estimate):
        chain = {k: {"on": [(1, k + 1)]} for k in range(1, 4)}
        super().__init__({"start": {"on": [(1, 1)]}, **chain}, {4: 1})
        self.estimate = estimate

    @mdp.hookimpl
    def mdp_estimate_states(self, params):
        return self.estimate


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.integers(0, 12), st.integers(13, 10**30), st.just(10**400)), st.integers(1, 12))
def test_a_refusal_says_whether_it_counted_the_states_or_the_hook_did(estimate, limit):
    game = mdp.load_game(Counted(estimate))
    if estimate > limit:  # refused before any state is explored, on the hook's word
        with pytest.raises(mdp.TooLarge) as refused:
            mdp.compile(game, max_states=limit)
        shown = f"{estimate:,}" if estimate < 10**24 else f"{str(estimate)[0]}.{str(estimate)[1:3]}e+{len(str(estimate)) - 1}"
        assert str(refused.value) == (
            f"game chain: at least {shown} states by its estimate (mdp_estimate_states), over "
            f"the limit of {limit:,}; raise it with --max-states (max_states= in Python)")
    elif Counted.STATES > limit:  # the walk found more states than the limit
        with pytest.raises(mdp.TooLarge) as refused:
            mdp.compile(game, max_states=limit)
        assert str(refused.value) == (f"game chain: more than {limit:,} states; raise the limit "
                                      "with --max-states (max_states= in Python)")
    else:
        assert mdp.compile(game, max_states=limit).n_states == Counted.STATES


def test_the_refusal_on_the_page_is_the_one_mdp_gives():
    page = (ROOT / "docs" / "writing-a-game.rst").read_text()
    command = "mdp solve docs/examples/reroll.py --max-states 18"
    shown = page[page.index(f"$ {command}\n"):].splitlines()[1].strip()
    done = subprocess.run([sys.executable, "-m", "mdp", *command.split()[1:]], cwd=ROOT,
                          capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (3, shown + "\n")
