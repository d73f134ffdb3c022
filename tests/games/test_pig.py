"""Pig: the first player's chance under optimal play by both, against a hand derivation, an
independent brute force written here (exact policy iteration over every state with dense
Gaussian elimination in fractions), the Bellman equations checked state by state from the
rules, a per-state description of the game, and Neller and Presser's 53.06% (to 100)."""

from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp

REFERENCE_100 = 0.530592725274
"""benchmarks/pig_reference.py (plain numpy, no mdp): the first player's chance to 100."""


def throws(faces, dice):
    """Each throw's effect and chance: ("pass", 0), ("reset", 0) or ("add", points)."""
    p = Fraction(1, faces ** dice)
    if dice == 1:
        return [(("pass", 0) if d == 1 else ("add", d), p) for d in range(1, faces + 1)]
    return [(("reset", 0) if d1 == d2 == 1 else ("pass", 0) if 1 in (d1, d2) else ("add", d1 + d2), p)
            for d1 in range(1, faces + 1) for d2 in range(1, faces + 1)]


def action_values(goal, faces, dice, value, me, opponent, turn):
    """Roll's and hold's value for the mover, from a table ``value`` of every state's."""
    roll = Fraction(0)
    for (kind, points), p in throws(faces, dice):
        if kind == "pass":
            roll += p * (1 - value[opponent, me, 0])
        elif kind == "reset":
            roll += p * (1 - value[opponent, 0, 0])
        elif me + turn + points >= goal:
            roll += p
        else:
            roll += p * value[me, opponent, turn + points]
    found = {"roll": roll}
    if turn > 0:
        found["hold"] = 1 - value[opponent, me + turn, 0]
    return found


def brute(goal, faces, dice=1):
    """Every state's exact value: policy iteration from always rolling, each policy solved
    by dense Gaussian elimination over all (me, opponent, turn) with me + turn < goal."""
    states = [(a, b, t) for a in range(goal) for b in range(goal) for t in range(goal - a)]
    index = {s: i for i, s in enumerate(states)}
    policy = {s: "roll" for s in states}
    while True:
        n = len(states)
        matrix = [[Fraction(0)] * (n + 1) for _ in range(n)]
        for i, (a, b, t) in enumerate(states):
            row = matrix[i]
            row[i] += 1
            if policy[a, b, t] == "hold":
                row[index[b, a + t, 0]] += 1
                row[n] += 1
                continue
            for (kind, points), p in throws(faces, dice):
                if kind in ("pass", "reset"):
                    row[index[b, a if kind == "pass" else 0, 0]] += p
                    row[n] += p
                elif a + t + points >= goal:
                    row[n] += p
                else:
                    row[index[a, b, t + points]] -= p
        value = dict(zip(states, _solve(matrix)))
        changed = False
        for s in states:
            q = action_values(goal, faces, dice, value, *s)
            best = max(q.values())
            if q[policy[s]] < best:
                policy[s] = next(a for a in ("roll", "hold") if q.get(a) == best)
                changed = True
        if not changed:
            return value


def _solve(matrix):
    """Gauss-Jordan elimination of an augmented matrix of fractions."""
    n = len(matrix)
    for col in range(n):
        pivot = next(r for r in range(col, n) if matrix[r][col] != 0)
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        top = matrix[col]
        inverse = 1 / top[col]
        for k in range(col, n + 1):
            top[k] *= inverse
        for r in range(n):
            if r != col and matrix[r][col] != 0:
                factor = matrix[r][col]
                row = matrix[r]
                for k in range(col, n + 1):
                    if top[k]:
                        row[k] -= factor * top[k]
    return [row[n] for row in matrix]


def solved(goal, faces=6, dice=1, exact=True):
    game = mdp.load_game("pig", goal=goal, faces=faces, dice=dice)
    return game, mdp.solve(mdp.compile(game), exact=exact)


def values_by_state(game, solution):
    """Every reachable playing state's value, by (me, opponent, turn)."""
    model = solution.model
    keys = np.asarray(model.states, dtype=np.int64)
    goal = game.params["goal"]
    found = {}
    for i, key in enumerate(keys.tolist()):
        if key != goal ** 3:
            rest, turn = divmod(key, goal)
            found[divmod(rest, goal) + (turn,)] = solution.value_of_id(i)
    return found


@pytest.mark.parametrize("faces", [2, 3, 6, 20])
def test_to_two_by_hand(faces):
    # To 2, one state: v = 1/f * (1 - v) + (f - 1)/f (a 1 passes the die, any other face
    # wins at once), so v = f / (f + 1): 6/7 with a six-sided die.
    _, solution = solved(2, faces)
    assert solution.value == Fraction(faces, faces + 1)


@settings(max_examples=8, deadline=None)
@given(goal=st.integers(2, 5), faces=st.integers(2, 5))
def test_every_state_against_the_brute_force(goal, faces):
    game, solution = solved(goal, faces)
    expected = brute(goal, faces)
    found = values_by_state(game, solution)
    assert found == {s: expected[s] for s in found}
    assert (0, 0, 0) in found


def test_two_dice_against_the_brute_force():
    game, solution = solved(4, 3, dice=2)
    expected = brute(4, 3, dice=2)
    found = values_by_state(game, solution)
    assert found == {s: expected[s] for s in found}


@pytest.mark.parametrize(("goal", "faces", "dice"), [(12, 6, 1), (9, 4, 2)])
def test_exact_values_meet_the_rules_at_every_state(goal, faces, dice):
    # The Bellman equations, from the rules alone: every play ends, so they have one solution.
    game, solution = solved(goal, faces, dice)
    value = values_by_state(game, solution)
    for state, v in value.items():
        assert v == max(action_values(goal, faces, dice, value, *state).values()), state


@pytest.mark.slow
def test_floats_agree_with_exact_to_twenty():
    _, exact = solved(20)
    _, floats = solved(20, exact=False)
    assert exact.value == Fraction(15116544, 24557443)
    assert floats.value == pytest.approx(float(exact.value), abs=1e-11)


class PerStatePig:
    """Pig to a goal with one die, one state at a time: a game of per-state hooks."""

    GAME_NAME = "pig-by-hand"

    def __init__(self, goal, faces):
        self.goal, self.faces = goal, faces

    @mdp.hookimpl
    def mdp_initial_state(self):
        return (0, 0, 0)

    @mdp.hookimpl
    def mdp_actions(self, state):
        return [] if state == "won" else ["roll", "hold"] if state[2] else ["roll"]

    @mdp.hookimpl
    def mdp_outcomes(self, state, action):
        me, opponent, turn = state
        if action == "hold":
            return [(1, (opponent, me + turn, 0))]
        p = Fraction(1, self.faces)
        return [(p, (opponent, me, 0))] + [
            (p, "won" if me + turn + face >= self.goal else (me, opponent, turn + face))
            for face in range(2, self.faces + 1)]

    @mdp.hookimpl
    def mdp_terminal_value(self, state):
        return 1

    @mdp.hookimpl
    def mdp_turns(self):
        return mdp.Turns(lambda states, nexts: [n != "won" and n[2] == 0 for n in nexts])


def test_a_game_of_per_state_hooks_gives_the_same():
    model = mdp.compile(mdp.load_game(PerStatePig(8, 4)))
    game, batch = solved(8, 4)
    walked = mdp.solve(model, exact=True)
    assert walked.value == batch.value
    assert {s: walked.value_of(s) for s in model.states if s != "won"} == values_by_state(game, batch)


def test_exact_solving_is_refused_past_its_size():
    model = mdp.compile(mdp.load_game("pig", goal=40))
    with pytest.raises(mdp.TooLarge, match="exact solving of a game whose states may come back "
                                           "takes at most 20,000 states"):
        mdp.solve(model, exact=True)


def test_turns_is_checked():
    with pytest.raises(TypeError, match="total must be an int or a Fraction"):
        mdp.Turns(lambda s, n: [], total=0.5)


@pytest.mark.slow
def test_to_one_hundred_against_the_reference():
    game, solution = solved(100, exact=False)
    assert solution.value == pytest.approx(REFERENCE_100, abs=1e-10)
    assert solution.residual <= 1e-12
    advice = mdp.advise(solution, game, me=0, opponent=0, turn=21)
    assert advice.actions["action"].to_list() == ["hold", "roll"]


@pytest.mark.slow
def test_a_strategy_is_valued_against_optimal_play():
    # Hold at 20 to 21, moving first against an optimal player, exactly; in floats too. The
    # optimum against itself is the optimal value, and any strategy is worth no more. To 21
    # suffices: holding at 20 is still a strategy of its own there (55.94% against the
    # optimum's 60.93%), and the exact solves cost a third of those to 30.
    game = mdp.load_game("pig", goal=21)
    model = mdp.compile(game)
    optimal = mdp.solve(model, exact=True)
    hold = mdp.solve(model, exact=True, policy=mdp.strategy_policy(model, "hold-at-20", game=game,
                                                                   exact=True))
    assert hold.value < optimal.value
    assert mdp.solve(model, exact=True, policy=optimal.as_policy()).value == optimal.value
    floats = mdp.solve(model, policy=mdp.strategy_policy(model, "hold-at-20", game=game))
    assert floats.value == pytest.approx(float(hold.value), abs=1e-9)
    # Games played with it by the first player, the other playing optimally, end with the
    # first player's win as often as its value says.
    chance = dict(zip(*mdp.distribution(floats, game).select("player", "probability")))
    assert chance["first"] == pytest.approx(float(hold.value), abs=1e-9)
    played = mdp.simulate(floats, game, games=20_000, seed=1)
    assert played.low <= float(hold.value) <= played.high


def test_a_strategy_against_optimal_play_meets_its_equations():
    # Independently: the values of both players' states, from the rules, when the player
    # to move at (0, 0, 0) holds at 2 and the other plays as the brute force's optimum.
    goal, faces = 5, 3
    game = mdp.load_game("pig", goal=goal, faces=faces)
    model = mdp.compile(game)
    hold = mdp.solve(model, exact=True, policy=mdp.strategy_policy(
        model, mdp.Strategy("hold-at-2", "", lambda g, m: _hold_at(g, m, 2)), game=game, exact=True))
    best = brute(goal, faces)
    mine, theirs = _duel(goal, faces, best, 2)
    assert hold.value == mine[0, 0, 0] == Fraction(98064, 274625)
    # Optimal play is worth at least the value against any play, here more.
    assert mine[0, 0, 0] < best[0, 0, 0] < theirs[0, 0, 0]


def _hold_at(game, model, threshold):
    keys = np.asarray(model.states, dtype=np.int64)[model.action_state()]
    labels = np.asarray(mdp.action_labels(model, game), dtype=np.int64)
    turn = keys % game.params["goal"]
    return np.where((labels == 1) == (turn >= threshold), 1, 0)


def _duel(goal, faces, best, threshold, second_holds=None):
    """Exact values with the holder to move (``mine``) and the optimal player to move
    (``theirs``; or one who holds at ``second_holds``): one dense linear system of both, solved in
    fractions."""
    states = list(best)
    n = len(states)
    index = {s: i for i, s in enumerate(states)}
    choice = {}
    for s in states:
        q = action_values(goal, faces, 1, best, *s)
        choice[s] = next(a for a in ("roll", "hold") if q.get(a) == max(q.values()))
    matrix = [[Fraction(0)] * (2 * n + 1) for _ in range(2 * n)]
    p = Fraction(1, faces)
    second = choice.get if second_holds is None else \
        (lambda s: "hold" if s[2] >= second_holds else "roll")
    for half, plays in ((0, lambda s: "hold" if s[2] >= threshold else "roll"), (1, second)):
        other = n * (1 - half)
        for (a, b, t), i in index.items():
            row = matrix[half * n + i]
            row[half * n + i] += 1
            if plays((a, b, t)) == "hold" and t > 0:  # 1 - theirs(b, a + t, 0)
                row[other + index[b, a + t, 0]] += 1
                row[2 * n] += 1
                continue
            row[other + index[b, a, 0]] += p
            row[2 * n] += p
            for face in range(2, faces + 1):
                if a + t + face >= goal:
                    row[2 * n] += p
                else:
                    row[half * n + index[a, b, t + face]] -= p
    values = _solve(matrix)
    return ({s: values[i] for s, i in index.items()},
            {s: values[n + i] for s, i in index.items()})


def _holding(game, model, threshold):
    return mdp.strategy_policy(model, mdp.Strategy(f"hold-at-{threshold}", "",
                                                   lambda g, m: _hold_at(g, m, threshold)),
                               game=game, exact=True)


@pytest.mark.slow
@pytest.mark.parametrize("first, second", [(2, 3), (3, 2), (2, 2), (2, None)])
def test_one_strategy_against_another_meets_the_equations(first, second):
    # To 5 with a die of 3 faces, the first player holding at ``first``, the other at
    # ``second`` (None: optimally): the value, and the chance of each end pushed forward
    # exactly, are the brute force's (its linear system of both players' states).
    goal, faces = 5, 3
    game = mdp.load_game("pig", goal=goal, faces=faces)
    model = mdp.compile(game)
    mine, _ = _duel(goal, faces, brute(goal, faces), first, second)
    against = None if second is None else _holding(game, model, second)
    played = mdp.solve(model, exact=True, policy=_holding(game, model, first), against=against)
    assert played.value == mine[0, 0, 0]
    assert played.opponent.name == ("optimal" if second is None else f"hold-at-{second}")
    frame = mdp.distribution(played, game)
    exact = dict(zip(*frame.select("player", "exact")))
    assert Fraction(exact["first"]) == mine[0, 0, 0]
    assert Fraction(exact["second"]) == 1 - mine[0, 0, 0]
    floats = mdp.evaluate(model, _holding(game, model, first), game=game,
                          against="optimal" if second is None else _holding(game, model, second))
    assert floats.value == pytest.approx(float(mine[0, 0, 0]), abs=1e-10)  # to the residual
    # Games played at random agree, within their 95% interval (seeded).
    simulated = mdp.simulate(floats, game, games=20_000, seed=3)
    assert simulated.low <= float(mine[0, 0, 0]) <= simulated.high


@pytest.mark.parametrize("second", [3, None])
@pytest.mark.slow
def test_the_value_of_each_action_under_a_strategy_meets_the_rules(second):
    # The first player's action values (advice, the policy table) with that player holding
    # at 2 after it, the other at ``second`` (None: optimally), from the brute force's
    # values of both players' states: hold is 1 - theirs(b, a + t, 0), roll the chance of
    # each face.
    goal, faces = 5, 3
    game = mdp.load_game("pig", goal=goal, faces=faces)
    model = mdp.compile(game)
    mine, theirs = _duel(goal, faces, brute(goal, faces), 2, second)
    played = mdp.solve(model, exact=True, policy=_holding(game, model, 2),
                       against=None if second is None else _holding(game, model, second))
    p = Fraction(1, faces)
    table = mdp.policy(played, game)
    for row in table.iter_rows(named=True):
        a, b, t = row["me"], row["opponent"], row["turn"]
        if row["action"] == "hold":
            expected = 1 - theirs[b, a + t, 0]
        else:
            expected = p * (1 - theirs[b, a, 0]) + sum(
                p if a + t + face >= goal else p * mine[a, b, t + face] for face in range(2, faces + 1))
        assert Fraction(row["value_exact"]) == expected, row
    advice = mdp.advise(played, game, me=0, opponent=2, turn=2).actions
    assert set(advice["action"]) == {"roll", "hold"}


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(goal=st.integers(2, 6), faces=st.integers(2, 4), first=st.integers(1, 6),
       second=st.one_of(st.none(), st.integers(1, 6)))
def test_the_ends_pushed_forward_are_the_values_solved_backward(goal, faces, first, second):
    # Two roads to one number, exactly: the first player's chance of winning solved
    # backward (both players' values, one system) and the chance of the first player's win
    # pushed forward from the start (the expected visits, the transpose system); the
    # lengths counted far enough and what is left add up to 1.
    game = mdp.load_game("pig", goal=goal, faces=faces)
    model = mdp.compile(game)
    played = mdp.solve(model, exact=True, policy=_holding(game, model, first),
                       against=None if second is None else _holding(game, model, second))
    frame = mdp.distribution(played, game)
    exact = dict(zip(*frame.select("player", "exact")))
    assert Fraction(exact.get("first", "0")) == played.value
    assert Fraction(exact.get("first", "0")) + Fraction(exact.get("second", "0")) == 1
    for count in ("moves", "turns"):
        found = mdp.lengths(played, count=count, up_to=12)
        assert sum(map(Fraction, found.table["exact"])) + found.beyond == 1


def test_to_two_strategies_make_no_difference():
    # To 2 there is no choice (a throw of 2 or more wins at once): whatever either plays,
    # the first player wins 6/7 (5/6 now, or after two 1s: 5/6 * 36/35), the second 1/7.
    game = mdp.load_game("pig", goal=2)
    model = mdp.compile(game)
    for first, second in [("hold-at-20", "hold-at-25"), ("optimal", "hold-at-20"),
                          ("hold-at-25", "optimal")]:
        played = mdp.evaluate(model, first, game=game, exact=True, against=second)
        assert played.value == Fraction(6, 7)
        frame = mdp.distribution(played, game)
        assert dict(zip(*frame.select("player", "exact"))) == {"first": "6/7", "second": "1/7"}


def test_against_is_refused_where_it_means_nothing():
    shut = mdp.load_game("shutbox", tiles="1-4")
    with pytest.raises(mdp.ParamError, match="played by one player: against names"):
        mdp.evaluate(mdp.compile(shut), "optimal", game=shut, against="random")
    game = mdp.load_game("pig", goal=2)
    model = mdp.compile(game)
    with pytest.raises(mdp.ParamError, match="no strategy 'hold'"):
        mdp.evaluate(model, "optimal", game=game, against="hold")
    with pytest.raises(mdp.ParamError, match="against= is the play of the other player"):
        mdp.solve(model, against=mdp.strategy_policy(model, "hold-at-20", game=game))


@pytest.mark.slow
def test_the_command_plays_one_strategy_against_another(capsys):
    import json

    from mdp.program.cli import main

    # To 30: holding at 20 against holding at 25, 59.53% for the first player, and the
    # games played agree (the value the distribution's, exactly the value of the solve).
    assert main(["distribution", "pig", "--set", "goal=30", "--strategy", "hold-at-20",
                 "--against", "hold-at-25", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["strategy"] == "hold-at-20" and shown["against"] == "hold-at-25"
    first = next(o for o in shown["outcomes"] if o["player"] == "first")
    assert first["probability"] == pytest.approx(shown["value"], abs=1e-10)
    assert shown["value"] == pytest.approx(0.5952903444, abs=1e-9)
    assert main(["simulate", "pig", "--set", "goal=30", "--strategy", "hold-at-20",
                 "--against", "hold-at-25", "--games", "20000", "--seed", "1", "--json"]) == 0
    played = json.loads(capsys.readouterr().out)
    assert played["low"] <= shown["value"] <= played["high"]
    assert main(["simulate", "shutbox", "--against", "random", "--games", "10"]) == 2
    assert "game shutbox is played by one player" in capsys.readouterr().err
    assert main(["advise", "pig", "me=0", "opponent=0", "turn=21", "--set", "goal=30",
                 "--strategy", "hold-at-20", "--against", "hold-at-25", "--json"]) == 0
    advised = json.loads(capsys.readouterr().out)["actions"]
    assert [a["action"] for a in advised] == ["hold", "roll"]
    assert advised[0]["value"] == pytest.approx(0.8529147766, abs=1e-9)
    assert main(["distribution", "pig", "--against", "hold"]) == 2
    assert "no strategy 'hold'" in capsys.readouterr().err


def _ending(goal, faces, holds, most):
    """Independently, from the rules: the chance that a game of Pig, the first player
    holding at ``holds[0]`` and the other at ``holds[1]``, ends after exactly k moves and
    after exactly k turns, for k up to ``most``, by recursion over the moves left."""
    import functools

    p = Fraction(1, faces)

    @functools.cache
    def ends(me, opponent, turn, player, moves, turns):
        # The chance of ending after exactly ``moves`` more moves and ``turns`` more turns
        # (this one counted) from here, ``player`` to move.
        if moves <= 0 or turns <= 0:
            return Fraction(0)
        if turn >= holds[player] and turn > 0:  # holds: the other's turn begins
            return ends(opponent, me + turn, 0, 1 - player, moves - 1, turns - 1)
        chance = p * ends(opponent, me, 0, 1 - player, moves - 1, turns - 1)
        for face in range(2, faces + 1):
            if me + turn + face >= goal:
                chance += p * (moves == 1 and turns == 1)
            else:
                chance += p * ends(me, opponent, turn + face, player, moves - 1, turns)
        return chance

    by_moves = [sum(ends(0, 0, 0, 0, k, t) for t in range(1, k + 1)) for k in range(1, most + 1)]
    by_turns = [sum(ends(0, 0, 0, 0, m, k) for m in range(k, 5 * most)) for k in range(1, most + 1)]
    return by_moves, by_turns


def test_the_lengths_of_one_strategy_against_another_meet_the_rules():
    goal, faces = 5, 3
    game = mdp.load_game("pig", goal=goal, faces=faces)
    model = mdp.compile(game)
    played = mdp.solve(model, exact=True, policy=_holding(game, model, 2),
                       against=_holding(game, model, 3))
    by_moves, by_turns = _ending(goal, faces, (2, 3), 8)
    moves = mdp.lengths(played, up_to=8)
    assert dict(zip(moves.table["moves"], map(Fraction, moves.table["exact"]))) == \
        {k: c for k, c in enumerate(by_moves, 1) if c}
    assert moves.beyond == 1 - sum(by_moves)
    turns = mdp.lengths(played, count="turns", up_to=4)
    assert dict(zip(turns.table["turns"], map(Fraction, turns.table["exact"]))) == \
        {k: c for k, c in enumerate(by_turns[:4], 1) if c}
    assert turns.beyond == 1 - sum(by_turns[:4])
    # The means, from the expected visits, against the lengths counted far enough.
    floats = mdp.evaluate(model, _holding(game, model, 2), game=game, against=_holding(game, model, 3))
    for count in ("moves", "turns"):
        found = mdp.lengths(floats, count=count)
        counted = sum(k * p for k, p in zip(found.table[count], found.table["probability"]))
        assert found.mean == pytest.approx(counted, rel=1e-7)
        assert float(found.mean) == pytest.approx(float(mdp.lengths(played, count=count, up_to=1).mean))


def test_the_lengths_on_the_command_line(capsys, tmp_path):
    import json

    from mdp.program.cli import main

    # To 2 every roll ends the game or passes the die: P(k moves) = P(k turns) = 5/6 (1/6)^(k-1).
    assert main(["lengths", "pig", "--set", "goal=2", "--exact", "--up-to", "3"]) == 0
    out = capsys.readouterr().out
    assert "moves: mean 1.2 = 6/5" in out and "longer than 3 moves: 0.00462963 = 1/216" in out
    assert main(["lengths", "pig", "--set", "goal=2", "--count", "turns", "--strategy",
                 "hold-at-20", "--against", "optimal", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["count"] == "turns" and shown["mean"] == pytest.approx(1.2)
    assert shown["lengths"][0] == {"turns": 1, "probability": pytest.approx(5 / 6)}
    assert main(["lengths", "pig", "--set", "goal=2", "--exact"]) == 2
    assert "--up-to N" in capsys.readouterr().err


@pytest.mark.slow
def test_the_hold_boundary_is_drawn(tmp_path):
    from mdp_games.pig.plot import hold_boundary, main

    game, solution = solved(50, exact=False)  # to 30 or 40, one nearly always rolls on to win
    frame = hold_boundary(solution, game)
    assert frame.columns == ["me", "opponent", "hold_at"]
    # At (me, opponent, hold_at) the first optimal action is to hold, and below it to roll.
    table = mdp.policy(solution, game)
    first = {(r["me"], r["opponent"], r["turn"]): r["action"] for r in
             table.filter(pl.col("optimal")).group_by(["me", "opponent", "turn"], maintain_order=True)
             .first().iter_rows(named=True)}
    assert len(frame) > 100
    for me, opponent, at in frame.iter_rows():
        assert first[me, opponent, at] == "hold"
        assert {first[me, opponent, t] for t in range(at) if (me, opponent, t) in first} == {"roll"}
    main([str(path := tmp_path / "hold.png"), "50"])
    assert path.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(("goal", "faces"), [(2, 6), (3, 3), (12, 4), (30, 6), (25, 20)])
def test_the_count_of_states_is_exact(goal, faces):
    # mdp_estimate_states must never be above the count: it is exactly the count here.
    game = mdp.load_game("pig", goal=goal, faces=faces)
    assert game.call("mdp_estimate_states") == mdp.compile(game).n_states


def test_what_is_not_worked_out_for_two_players_says_so_in_one_line():
    from mdp.outputs.prism import to_prism

    game, solution = solved(6, exact=False)
    for work, words in [(lambda: to_prism(solution.model), "a PRISM MDP has one player")]:
        with pytest.raises(mdp.ParamError, match=words):
            work()


def test_games_played_at_random_count_each_players_wins():
    # Each game's end is seen by the player to move there; the mean is the first player's
    # chance, whose exact value (7776/10961 to 10) lies in the 95% interval, and the wins
    # of the two players add up to the games.
    game, solution = solved(10, exact=False)
    played = mdp.simulate(solution, game, games=200_000, seed=1)
    assert played.low <= 7776 / 10961 <= played.high
    wins = dict(zip(played.outcomes["player"], played.outcomes["games"]))
    assert wins["first"] + wins["second"] == 200_000
    assert played.mean == wins["first"] / 200_000


def test_the_chance_of_each_end_is_each_players_chance():
    # The first player to move at the end won (the end is a win for the player who rolled):
    # their chance is the value, 7776/10961 to 10, and the second's the rest.
    game, solution = solved(10, exact=False)
    frame = solution.chances(game)
    chance = dict(zip(frame["player"], frame["probability"]))
    assert chance["first"] == pytest.approx(7776 / 10961, abs=1e-10)
    assert chance["second"] == pytest.approx(1 - 7776 / 10961, abs=1e-10)


@pytest.mark.slow
def test_the_report_of_a_game_past_exact_solving_is_in_floats():
    # To 40, 26,079 states: past the 20,000 of exact solving with cycles, so the page's value
    # is the float one, and the page has each player's chance and the strategies.
    game, solution = solved(40, exact=False)
    assert solution.model.n_states > 20_000
    page = mdp.report(solution, game, max_rows=1)
    assert f"{solution.value:.4%}"[:5] in page and "hold-at-20" in page and "second" in page


@pytest.mark.slow  # half a second or more of CPU
def test_the_residual_on_the_command_line(capsys):
    import json

    from mdp.program.cli import main

    assert main(["solve", "pig", "--set", "goal=30", "--residual", "1e-4", "--json"]) == 0
    rough = json.loads(capsys.readouterr().out)
    assert 0 < rough["residual"] <= 1e-4
    assert abs(rough["value"] - 52242776064 / 91990525991) > 1e-9  # rough, as asked
    with pytest.raises(SystemExit):
        main(["solve", "pig", "--residual", "0"])
    assert "residual='0': a number from 1e-15 (float64 reaches no closer) to 1" in capsys.readouterr().err
    # A strategy is valued to 1e-12 whatever the option says: the option is refused beside it.
    assert main(["solve", "pig", "--set", "goal=10", "--strategy", "hold-at-20", "--residual", "1e-4"]) == 2
    assert capsys.readouterr().err == ("mdp: error: --residual is for optimal play; a strategy is "
                                       "valued to the residual of 1e-12\n")
