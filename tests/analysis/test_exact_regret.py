"""Under --exact, regrets are the fractions: the policy table and advice carry
``regret_exact`` beside ``value_exact``, a Markdown table shows a regret no float holds by its
size (``1e-400``, where it read ``0`` beside ``optimal false``), and advice ranks the actions
by the fractions (the losing move was listed above the optimal one, their floats both 0)."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st
from test_advise_exact_shown import GAME

import mdp
from mdp.program import main


def _game(tmp_path, values):
    """The game of one choice of test_advise_exact_shown.py, each action worth its value."""
    path = tmp_path / "choice.py"
    path.write_text(GAME.format(worth={k: str(v) for k, v in values.items()}))
    return mdp.load_game(str(path))


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=2, max_size=5), st.sampled_from([400, 20, 0]))
def test_advice_and_the_policy_rank_and_regret_by_the_fractions(tmp_path_factory, numerators, scale):
    # Values k / 10**scale (1e-400 no float holds; 10**-20 apart beside 1, which floats tie).
    values = {f"a{i}": Fraction(k, 10**scale) + (1 if scale == 20 else 0) for i, k in enumerate(numerators)}
    game = _game(tmp_path_factory.mktemp("choice"), values)
    solution = mdp.solve(mdp.compile(game), exact=True)
    best = max(values.values())
    advice = mdp.advise(solution, game, at="start").actions
    # Best first, ties in the game's order, by the fractions.
    assert advice["action"].to_list() == sorted(values, key=lambda a: (best - values[a], list(values).index(a)))
    assert [Fraction(r) for r in advice["regret_exact"]] == [best - values[a] for a in advice["action"]]
    table = mdp.policy(solution, game)
    assert {a: Fraction(r) for a, r in zip(table["action"], table["regret_exact"])} == \
        {a: best - v for a, v in values.items()}


def test_a_markdown_policy_shows_a_regret_no_float_holds_by_its_size(tmp_path):
    _game(tmp_path, {"a": Fraction(1, 10**400), "b": Fraction(2, 10**400)})
    out = tmp_path / "policy.md"
    assert main(["policy", str(tmp_path / "choice.py"), "--exact", "--out", str(out)]) == 0
    rows = {line.split("|")[2].strip(): [cell.strip() for cell in line.split("|")]
            for line in out.read_text().splitlines()[2:]}
    header = [cell.strip() for cell in out.read_text().splitlines()[0].split("|")]
    regret = header.index("regret")
    assert (rows["a"][regret], rows["b"][regret]) == ("1e-400", "0")
