"""Matches (mdp.match): players take turns at Shut the Box for money.

Figures: the "Possibly Wrong" blog's table of player 1's expected value, in percent of the
stake, for sixteen rule sets (three of them are quoted in the issue that asked for this:
0.1071, 1.5767, -0.7747); every value is also checked exactly against a plain recursion over
tile sets written below, sharing no code with the game or the engine, and three players
against a brute force that plays the match out player by player.
"""

import functools
import itertools
import math
from fractions import Fraction

import brute_shutbox
import numpy as np
import pytest

import mdp
import mdp.program.cli

# Player 1's expected value in percent of the stake, to four decimals: (one_die, shut_pays,
# shut_wins) -> value. Published (quoted in the issue): never/1/yes, sum6/2/yes,
# always/1/no. The rest: the independent recursion below, to four decimals.
PERCENT = {
    ("never", 1, "yes"): 0.1071, ("never", 1, "no"): -0.4012,
    ("never", 2, "yes"): 0.6645, ("never", 2, "no"): -0.3526,
    ("always", 1, "yes"): 0.1721, ("always", 1, "no"): -0.7747,
    ("always", 2, "yes"): 1.3269, ("always", 2, "no"): -0.5679,
    ("max6", 1, "yes"): 0.2980, ("max6", 1, "no"): -0.6489,
    ("max6", 2, "yes"): 1.4177, ("max6", 2, "no"): -0.4772,
    ("sum6", 1, "yes"): 0.5621, ("sum6", 1, "no"): -0.3900,
    ("sum6", 2, "yes"): 1.5767, ("sum6", 2, "no"): -0.3276,
}
PUBLISHED = {("never", 1, "yes"): 0.1071, ("sum6", 2, "yes"): 1.5767, ("always", 1, "no"): -0.7747}


# An independent two-player computation: a plain recursion over sets of open tiles.


def _rolls(n):
    """(ways out of 36, total) for n dice: each face of one die counts 6 ways."""
    ways = {}
    for faces in itertools.product(range(1, 7), repeat=n):
        ways[sum(faces)] = ways.get(sum(faces), 0) + 36 // 6 ** n
    return sorted((w, t) for t, w in ways.items())


ROLLS = {n: _rolls(n) for n in (1, 2)}


@functools.cache
def _after(open_tiles, total):
    return [open_tiles - frozenset(c) for r in range(1, len(open_tiles) + 1)
            for c in itertools.combinations(sorted(open_tiles), r) if sum(c) == total]


@functools.cache
def _boxes(tiles):
    return sorted((frozenset(c) for r in range(len(tiles) + 1)
                   for c in itertools.combinations(tiles, r)), key=len)


def _one_die(rule, open_tiles):
    return {"never": False, "always": True, "max6": max(open_tiles) <= 6,
            "sum6": sum(open_tiles) <= 6}[rule]


def best(rule, utility, tiles=tuple(range(1, 10))):
    """A player's best expected utility(open sum at the end) from the full box, as integers
    over one common denominator: every roll divides by 36, exactly (asserted). ``utility``
    gives a list for many games side by side, each its own column of every array here (a
    column's best is its own: each max is taken column by column); one game is one column."""
    paid = {s: np.array(utility(s), dtype=object).reshape(-1) for s in range(sum(tiles) + 1)}
    scale = 36 ** len(tiles) * math.lcm(*(Fraction(u).denominator for us in paid.values() for u in us))
    value = {}
    for open_tiles in _boxes(tiles):
        left = np.array([int(u * scale) for u in paid[sum(open_tiles)]], dtype=object)
        if not open_tiles:
            value[open_tiles] = left
            continue
        options = []
        for n in ([2, 1] if _one_die(rule, open_tiles) else [2]):
            total = sum(w * functools.reduce(np.maximum, [value[m] for m in _after(open_tiles, t)] or [left])
                        for w, t in ROLLS[n])
            assert (total % 36 == 0).all()
            options.append(total // 36)
        value[open_tiles] = functools.reduce(np.maximum, options)
    return [Fraction(int(v), scale) for v in value[frozenset(tiles)]]


@functools.cache
def second_values(rule, pays):
    """Player 2's value for each open sum player 1 left: the lower sum wins the stake, or
    ``pays`` stakes with a shut box; a tie pays nothing. The 46 games side by side."""
    def paid(s):
        return pays if s == 0 else 1
    return dict(enumerate(best(rule, lambda s2: [paid(s2) if s2 < s1 else -paid(s1) if s2 > s1 else 0
                                                 for s1 in range(46)])))


def first_value(rule, pays, wins):
    second = second_values(rule, pays)
    [value] = best(rule, lambda s1: pays if s1 == 0 and wins == "yes" else -second[s1])
    return value


@pytest.fixture(scope="module")
def models():
    return {rule: mdp.compile(mdp.load_game("shutbox", one_die=rule))
            for rule in ("never", "always", "max6", "sum6")}


@pytest.mark.slow
@pytest.mark.parametrize("rules", list(PERCENT))
def test_sixteen_rule_sets_exactly(models, rules):
    rule, pays, wins = rules
    game = mdp.load_game("shutbox", one_die=rule, shut_pays=pays, shut_wins=wins)
    result = mdp.match(models[rule], game, exact=True)
    expected = first_value(rule, pays, wins)
    assert result.values == (expected, -expected)  # zero-sum, exactly
    assert round(float(result.values[0]) * 100, 4) == PERCENT[rules]
    if rules in PUBLISHED:
        assert round(float(expected) * 100, 4) == PUBLISHED[rules]
    floats = mdp.match(models[rule], game)
    assert floats.values[0] == pytest.approx(float(expected), abs=1e-12)
    assert floats.values[0] + floats.values[1] == 0


def test_match_rules_leave_the_single_player_value_alone():
    plain = mdp.solve(mdp.compile(mdp.load_game("shutbox", tiles="1-5")), exact=True).value
    other = mdp.solve(mdp.compile(mdp.load_game("shutbox", tiles="1-5", shut_pays=2, shut_wins="no")), exact=True)
    assert other.value == plain


# Three players on a small box: a brute force that plays the match out.


def brute_match(tiles, players, pays, wins, rule="max6"):
    """Each player's expected winnings, exactly: players play one after another, knowing
    the earlier sums; with ``wins`` the first to shut the box wins at once and nobody after
    plays. The lowest sum wins ``pays`` (shut) or 1 from each other player; a tie for the
    lowest pays nothing. Ties between a player's best moves must not matter to anyone
    (asserted), so no tie rule is needed."""
    tiles = tuple(tiles)
    full = frozenset(tiles)

    def settle(sums):
        low = min(sums)
        if sums.count(low) > 1:
            return (Fraction(0),) * players
        stake = pays if low == 0 else 1
        return tuple(Fraction(stake * (players - 1) if s == low else -stake) for s in sums)

    @functools.cache
    def expected(sums):
        """Everyone's expected winnings once these sums are in (a tuple, in order)."""
        if len(sums) == players:
            return settle(list(sums))
        if wins and 0 in sums:  # the first to shut wins at once
            return settle(list(sums) + [max(tiles) * len(tiles) + 1] * (players - len(sums)))
        me = len(sums)

        @functools.cache
        def position(open_tiles):
            if not open_tiles:
                return expected(sums + (0,))
            end = expected(sums + (sum(open_tiles),))
            options = []
            for n in ([2, 1] if _one_die(rule, open_tiles) else [2]):
                vector = [Fraction(0)] * players
                for w, t in ROLLS[n]:
                    after = [position(m) for m in _after(open_tiles, t)] or [end]
                    top = max(v[me] for v in after)
                    tied = {v for v in after if v[me] == top}
                    assert len(tied) == 1, "a tie between moves that matters to others"
                    vector = [a + Fraction(w, 36) * b for a, b in zip(vector, tied.pop())]
                options.append(tuple(vector))
            top = max(v[me] for v in options)
            tied = {v for v in options if v[me] == top}
            assert len(tied) == 1, "a tie between dice choices that matters to others"
            return tied.pop()

        return position(full)

    return expected(())


@pytest.mark.slow
@pytest.mark.parametrize("pays, wins", [(1, True), (2, False)])
def test_three_players_on_a_small_box(pays, wins):
    game = mdp.load_game("shutbox", tiles="1-4", shut_pays=pays, shut_wins="yes" if wins else "no")
    result = mdp.match(mdp.compile(game), game, players=3, exact=True)
    expected = brute_match(range(1, 5), 3, pays, wins)
    assert result.values == expected
    assert sum(result.values) == 0
    floats = mdp.match(mdp.compile(game), game, players=3)
    assert floats.values == pytest.approx([float(v) for v in expected], abs=1e-12)


def test_summary_and_refusals():
    game = mdp.load_game("shutbox", tiles="1-4")
    summary = mdp.match(mdp.compile(game), game, exact=True).summary()
    assert [p["player"] for p in summary["players"]] == [1, 2]
    first, second = (Fraction(p["exact"]) for p in summary["players"])
    assert first == -second and summary["players"][0]["value"] == float(first)
    with pytest.raises(mdp.ParamError, match="2 players or more"):
        mdp.match(mdp.compile(game), game, players=1)
    # Too large, not a mistake: exit code 3. The 1-4 box has 11 results (open sums 0 to 10),
    # and 20 players mean 11**19 lists of the earlier players' results.
    with pytest.raises(mdp.TooLarge, match=f"20 players with 11 possible results means {11**19:,} lists"):
        mdp.match(mdp.compile(game), game, players=20)
    with pytest.raises(mdp.ModelError, match="not played in matches"):
        from models import coin
        mdp.match(mdp.compile(mdp.load_game(coin())), mdp.load_game(coin()))


def test_payoff_of_the_pub_rules():
    from mdp_games.shutbox.match import payoff

    results = np.array([[3, 5], [5, 3], [4, 4], [0, 0], [0, 7], [7, 0]])
    # By hand: the lower sum wins 1; a shut box wins 2; a tie, even of two shut boxes, 0
    # unless the first to shut wins at once.
    assert payoff(results, shut_pays=2, shut_wins=False).tolist() == [
        [1, -1], [-1, 1], [0, 0], [0, 0], [2, -2], [-2, 2]]
    assert payoff(results, shut_pays=2, shut_wins=True)[3].tolist() == [2, -2]
    three = payoff(np.array([[5, 2, 2], [6, 1, 3], [0, 4, 0]]), shut_pays=2, shut_wins=False)
    assert three.tolist() == [[0, 0, 0], [-1, 2, -1], [0, 0, 0]]


# The command line: one call away from the Python API.


def _run(capsys, *argv):
    code = mdp.program.cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_match_command_json_is_the_python_summary(capsys):
    import json

    code, out, _ = _run(capsys, "match", "shutbox", "--set", "tiles=1-4", "--exact", "--json")
    assert code == 0
    printed = json.loads(out)
    expected = mdp.match(mdp.compile(small := mdp.load_game("shutbox", tiles="1-4")), small, exact=True).summary()
    assert printed["players"] == expected["players"]
    assert sum(Fraction(p["exact"]) for p in printed["players"]) == 0


@pytest.mark.slow
def test_sixteen_row_table_fairest_first(capsys, tmp_path):
    import polars as pl

    out_file = tmp_path / "table.parquet"
    code, _, _ = _run(capsys, "match", "shutbox", "--vary", "one_die=never,always,max6,sum6",
                      "--vary", "shut_pays=1,2", "--vary", "shut_wins=yes,no", "--exact",
                      "--out", str(out_file))
    assert code == 0
    table = pl.read_parquet(out_file)
    assert table.height == 16
    assert {(r["one_die"], r["shut_pays"], r["shut_wins"]): r["player_1_percent"]
            for r in table.to_dicts()} == PERCENT
    unfair = [abs(Fraction(v)) for v in table["player_1_exact"]]
    assert unfair == sorted(unfair)
    first = table.row(0, named=True)
    assert Fraction(first["player_1_exact"]) == first_value(
        first["one_die"], first["shut_pays"], first["shut_wins"])


def test_solve_vary_is_one_solve_per_combination(capsys):
    import io

    import polars as pl

    code, out, _ = _run(capsys, "solve", "shutbox", "--set", "tiles=1-5", "--vary",
                        "one_die=never,always", "--vary", "dice=2,3", "--exact")
    assert code == 0
    table = pl.read_csv(io.StringIO(out))
    assert table.columns == ["one_die", "dice", "value", "exact", "states"]
    assert [(r["one_die"], r["dice"]) for r in table.to_dicts()] == [
        ("never", 2), ("never", 3), ("always", 2), ("always", 3)]
    for row in table.to_dicts():
        game = mdp.load_game("shutbox", tiles="1-5", one_die=row["one_die"], dice=row["dice"])
        assert Fraction(row["exact"]) == mdp.solve(mdp.compile(game), exact=True).value


@pytest.mark.parametrize("argv, message", [
    (["match", "shutbox", "--players", "1"], "--players 1: expected a whole number of 2 or more"),
    (["match", "shutbox", "--out", "x.csv"], "--out and --format write the table of --vary"),
    (["solve", "shutbox", "--vary", "one_die"], "expected KEY=VALUE,VALUE"),
    (["solve", "shutbox", "--vary", "dice=1,2", "--set", "dice=3"], "both set and varied"),
    (["match", "shutbox", "--vary", "shut_pays=1,0"], "parameter shut_pays=0"),
])
def test_bad_match_and_vary_input(capsys, argv, message):
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert message in err


def test_docs_page_shows_the_table_the_command_prints():
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "matches.rst").read_text()
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in page.splitlines() if line.strip().startswith("| ")]
    assert rows[0][:4] == ["one_die", "shut_pays", "shut_wins", "player_1_percent"]
    shown = {(r[0], int(r[1]), r[2]): float(r[3]) for r in rows[1:]}
    assert shown == PERCENT
    order = [abs(PERCENT[(r[0], int(r[1]), r[2])]) for r in rows[1:]]
    assert order == sorted(order)


@pytest.mark.slow
@pytest.mark.parametrize("result", [0, 3, 10, 20])
def test_the_second_player_is_advised_to_play_for_money_after_the_first(result):
    # The second player's problem after the first left `result` open: win a stake below it,
    # nothing at it, lose above it; a shut box pays shut_pays (1). With shut_wins=yes a first
    # player who shut the box has already won: the second does not play and pays 1.
    game = mdp.load_game("games/shutbox", tiles="1-6", shut_wins="no")
    model = mdp.compile(game)
    money = mdp.later_player_values(model, game, [result], exact=True)
    solution = mdp.solve(model, terminal=money, exact=True)
    payout = {s: Fraction(1 if s < result else 0 if s == result else -1) for s in range(22)}
    assert solution.value == brute_shutbox.solve(range(1, 7), scoring="payout", payout=payout)
    advice = mdp.advise(solution, game, open="1 2 3 4 5 6", roll=7)
    assert advice.actions["regret"].min() == 0 and advice.actions["optimal"][0]
