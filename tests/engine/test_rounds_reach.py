"""The best chance of finishing a game of rounds with at least a total (mdp.at_least,
mdp/engine/rounds/reach.py), against brute forces written here: plain recursions over the
dice of small games, in exact rationals, playing each total for itself. The published
figure of five of a kind in three rolls (347897/7558272) is the chance of at least 50 with
the Yahtzee box alone."""

import importlib.util
import itertools
import json
import math
from collections import Counter
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_rounds_properties import card_game

import mdp
from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]

# Brute force of the small cards of the properties' test: a die of `faces` faces thrown,
# and thrown again while throws are left if the player likes, then scored in an open box.


def brute_best(points, faces, throws, end, over=()):
    """``best(filled, earned)``: the best expected ``end(total)`` with the boxes of the bits
    of ``filled`` filled and ``earned`` points so far, a die of ``faces`` faces thrown up to
    ``throws`` times a round, its face scored in an open box; the game ends early with the
    boxes of ``over`` filled."""
    boxes = len(points)
    full = (1 << boxes) - 1

    @cache
    def best(filled, earned):
        if filled == full or filled in over:
            return Fraction(end(earned))

        @cache
        def at(face, left):  # a face thrown, ``left`` throws left
            options = [best(filled | 1 << b, earned + points[b][face - 1])
                       for b in range(boxes) if not filled >> b & 1]
            if left:
                options.append(thrown(left - 1))
            return max(options)

        def thrown(left):
            return sum(Fraction(1, faces) * at(f, left) for f in range(1, faces + 1))

        return thrown(throws - 1)

    return best


def brute_card(points, faces, throws):
    """``best(filled, need)``: the best chance of at least ``need`` more points with the
    boxes of the bits of ``filled`` filled."""
    toward = cache(lambda need: brute_best(points, faces, throws, lambda total: total >= need))
    return lambda filled, need: toward(need)(filled, 0)


whole_cards = st.integers(1, 3).flatmap(lambda n: st.integers(2, 3).flatmap(lambda faces: st.tuples(
    st.lists(st.lists(st.integers(-4, 9), min_size=faces, max_size=faces), min_size=n, max_size=n),
    st.just(faces), st.integers(1, 2))))


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(whole_cards)
def test_every_total_against_a_brute_force(card):
    points, faces, throws = card
    model = mdp.compile(card_game(points, faces, throws))
    reach = mdp.at_least(model, exact=True)
    best = brute_card(points, faces, throws)
    floats = mdp.at_least(model)
    low = sum(min(row) for row in points) - 2
    for total in range(low, sum(max(row) for row in points) + 3):
        assert reach.chance(total) == best(0, total), total
        assert abs(floats.chance(total) - float(best(0, total))) < 1e-12
    for filled in range(1 << len(points)):  # from every round state too
        for total in range(-5, 12):
            assert reach.chance(total, key=filled) == best(filled, total)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(whole_cards.filter(lambda card: min(min(row) for row in card[0]) >= 0))
@pytest.mark.slow  # half a second or more of CPU
def test_the_chance_is_1_at_0_never_rises_and_beats_best_mean_play(card):
    points, faces, throws = card
    game = card_game(points, faces, throws)
    for exact in (True, False):
        # Given a solution, mdp.analyse solves as it was solved: exact or not.
        frame = mdp.analyse(mdp.solve(mdp.compile(game), exact=exact), "targets", game)
        chance, mean = frame["chance"].to_list(), frame["chance_best_mean"].to_list()
        assert chance[0] == 1 and mean[0] == 1
        # In floats, two totals of one chance may be summed in other orders (0.6419753086419752
        # and ...753 for the card ([[3, 0, 0], [7, 0, 6]], 3, 2)): never rising is exact below.
        assert all(a >= b - 1e-12 for a, b in zip(chance, chance[1:]))
        assert all(a >= b - 1e-12 for a, b in zip(chance, mean))
        if exact:
            best = [Fraction(c) for c in frame["chance_exact"]]
            by_mean = [Fraction(c) for c in frame["chance_best_mean_exact"]]
            assert all(a >= b for a, b in zip(best, best[1:]))
            assert all(a >= b for a, b in zip(best, by_mean))
            assert best == [brute_card(points, faces, throws)(0, t) for t in frame["at_least"]]
            # Best-mean play's chances are those of its distribution of totals.
            shares = mdp.distribution(mdp.solve(mdp.compile(game), exact=True), game)
            for total, chance_of in zip(frame["at_least"], by_mean):
                assert chance_of == sum(Fraction(p) for t, p in zip(shares["points"], shares["exact"])
                                        if t >= total)
        # The last row is the most a game can earn: a chance of more than 0.
        assert chance[-1] > 0
        assert frame["at_least"][-1] == sum(max(row) for row in points)


# docs/examples/two_boxes.py: a die thrown up to twice a round, two boxes, two rounds.


def _example():
    spec = importlib.util.spec_from_file_location("two_boxes_example", ROOT / "docs" / "examples" / "two_boxes.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return mdp.load_game(module)


def test_the_example_of_two_boxes_by_hand_and_by_brute_force():
    # Its rules again: FACE scores the face, EVEN twice the face if even, else nothing.
    points = [[f for f in range(1, 7)], [2 * f if f % 2 == 0 else 0 for f in range(1, 7)]]
    best = brute_card(points, 6, 2)
    reach = mdp.at_least(mdp.compile(_example()), exact=True)
    assert reach.most == 18  # 6 in FACE, 12 in EVEN
    for total in range(-1, 21):
        assert reach.chance(total) == best(0, total)
    # By hand: FACE left, at least 6 more: a six in two throws, 1 - (5/6)**2.
    assert reach.chance(6, key=0b10) == Fraction(11, 36)
    # EVEN left, at least 9: a six (12) in two throws, taking it when it comes.
    assert reach.chance(9, key=0b01) == Fraction(11, 36)
    # Both left, at least 18: a six in each round, each in two throws.
    assert reach.chance(18) == Fraction(11, 36) ** 2
    assert reach.chance(19) == 0 and reach.chance(0) == 1


# Yahtzee's score card, on a few boxes: five dice, a brute force of the card's rules.


@cache
def _rolls(n):
    """Each sorted hand of ``n`` dice, with how many of the 6**n throws give it (the same list
    each time)."""
    return list(Counter(tuple(sorted(r)) for r in itertools.product(range(1, 7), repeat=n)).items())


@cache
def _keeps(hand):
    """The dice that may be kept of a hand (all of them too: the hand is then as it was)."""
    return {tuple(sorted(c)) for k in range(6) for c in itertools.combinations(hand, k)}


def _score(box, hand):
    upper = {"fours": 4, "fives": 5, "sixes": 6}
    if box in upper:
        return upper[box] * hand.count(upper[box])
    if box == "yahtzee":
        return 50 if len(set(hand)) == 1 else 0
    return sum(hand)  # chance


def brute_yahtzee(boxes, rolls):
    """``best(open, upper, need)`` on a card without Yahtzee bonus nor joker (no-bonus): 35
    more when the upper boxes' total comes to 63."""

    @cache
    def best(open_, upper, need):
        if need <= 0:  # no points are taken away
            return Fraction(1)
        if not open_:
            return Fraction(0)

        def final(hand):
            options = []
            for box in open_:
                got = _score(box, hand)
                after = upper + got if box in ("fours", "fives", "sixes") else upper
                bonus = 35 if upper < 63 <= after else 0
                options.append(best(open_ - {box}, after, need - got - bonus))
            return max(options)

        finals = {hand: final(hand) for hand, _ in _rolls(5)}
        # The turn in whole numbers of 1/scale (exact, as fractions are, and quicker): a
        # throw's chance is a count over 6**n, ``rolls`` throws at most a turn.
        scale = math.lcm(*(f.denominator for f in finals.values())) * 6 ** (5 * rolls)

        def thrown(keep, left):  # the dice kept, the others thrown, then ``left`` rolls after
            ways, rest = divmod(sum(count * play(tuple(sorted(keep + more)), left)
                                    for more, count in _rolls(5 - len(keep))), 6 ** (5 - len(keep)))
            assert rest == 0  # a whole number of 1/scale still
            return ways

        @cache
        def kept(keep, left):
            return thrown(keep, left)

        def play(hand, left):
            if not left:
                value = finals[hand] * scale
                assert value.denominator == 1
                return value.numerator
            return max(kept(keep, left - 1) for keep in _keeps(hand))

        return Fraction(thrown((), rolls - 1), scale)

    return lambda total: best(frozenset(boxes), 0, total)


def _card(boxes, rolls):
    return mdp.compile(mdp.load_game("yahtzee", card="no-bonus", boxes=",".join(boxes), rolls=rolls))


@pytest.mark.slow
def test_the_upper_section_and_its_bonus_against_a_brute_force():
    boxes = ("fours", "fives", "sixes")  # 75 at most: the bonus of 35 at 63 is in reach
    reach = mdp.at_least(_card(boxes, 1), exact=True)
    best = brute_yahtzee(boxes, 1)
    assert reach.most == 75 + 35
    for total in (0, 1, 40, 63, 64, 98, 99, 110, 111):
        assert reach.chance(total) == best(total), total


@pytest.mark.slow
def test_two_boxes_of_yahtzee_against_a_brute_force():
    boxes = ("yahtzee", "chance")
    reach = mdp.at_least(_card(boxes, 2), exact=True)
    best = brute_yahtzee(boxes, 2)
    for total in (0, 5, 6, 30, 31, 50, 55, 56, 80, 81):
        assert reach.chance(total) == best(total), total


@pytest.mark.slow
def test_the_yahtzee_box_alone_at_50_is_five_of_a_kind(capsys):
    # The published chance of five of a kind in three rolls (the README's mdp solve yahtzee).
    main(["solve", "yahtzee", "--set", "card=yahtzee", "--set", "boxes=yahtzee", "--at-least",
          "50", "--exact"])
    out = capsys.readouterr().out
    assert "exact: 347897/7558272" in out.splitlines()
    main(["solve", "yahtzee", "--set", "card=yahtzee", "--set", "boxes=yahtzee", "--at-least",
          "50", "--exact", "--json"])
    summary = json.loads(capsys.readouterr().out)
    # Best-mean play takes five of a kind too: there is nothing else to score.
    assert summary["exact"] == summary["chance_best_mean_exact"] == "347897/7558272"
    assert summary["value"] == pytest.approx(347897 / 7558272, abs=1e-15)
    assert summary["at_least"] == 50


# Refused, in one line, before any work.


@pytest.mark.parametrize("argv, said", [
    (["solve", "shutbox", "--at-least", "3"],
     "game shutbox is of one model, and --at-least is for a game played in rounds"),
    (["targets", "shutbox"], "game shutbox is of one model, and mdp targets is for a game "
     "played in rounds"),
    (["solve", "yahtzee", "--set", "card=yahtzee", "--at-least", "+3"],
     "--at-least +3: expected a whole number"),
    (["solve", "yahtzee", "--set", "card=yahtzee", "--at-least", "3", "--minimize"],
     "--at-least plays for the chance of the total"),
    (["solve", "yahtzee", "--set", "card=yahtzee", "--at-least", "3", "--vary", "rolls=1,2"],
     "--at-least solves one rule set; --vary does not apply"),
])
def test_refused_before_any_work(argv, said, capsys, monkeypatch):
    _refused(argv, said, capsys, monkeypatch)


def _refused(argv, said, capsys, monkeypatch):
    """``mdp ARGV`` stops with exit code 2 and says ``said``, before compiling the game."""
    def compile(*args, **kwargs):
        raise AssertionError("compiled before the refusal")

    monkeypatch.setattr(mdp, "compile", compile)
    try:
        code = main(argv)
    except SystemExit as ended:  # argparse's own refusal
        code = ended.code
    assert code == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_points_not_whole_are_refused_in_one_line():
    model = mdp.compile(card_game([[1, Fraction(1, 2)]], 2, 1))
    with pytest.raises(mdp.ModelError, match=r"^game card: mdp_round_rule gave points 1/2 from "
                       r"round state 0; the chance of at least a total is for whole points"):
        mdp.at_least(model, exact=True)
    with pytest.raises(mdp.ParamError, match="is of one model"):
        mdp.at_least(mdp.compile(mdp.load_game("shutbox")))


# Played toward a total: advice, and the chance of every final total.


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(whole_cards, st.integers(-3, 20))
def test_the_totals_played_toward_T_reach_it_with_the_best_chance(card, total):
    points, faces, throws = card
    game = card_game(points, faces, throws)
    solution = mdp.solve(mdp.compile(game), exact=True)
    frame = mdp.analyse(solution, "distribution", game, at_least=max(total, 0))
    chances = [Fraction(p) for p in frame["exact"]]
    assert sum(chances) == 1
    reached = sum(p for t, p in zip(frame["points"], chances) if t >= max(total, 0))
    assert reached == brute_card(points, faces, throws)(0, max(total, 0))


def test_advice_toward_a_total_by_hand(capsys):
    game = _example()
    solution = mdp.solve(mdp.compile(game), exact=True)
    # Both boxes open, a 4 thrown, one throw left, at least 12 wanted. EVEN takes 8, and 4
    # more must come from FACE in two throws: a face of 4 or more, 1 - (1/2)**2 = 3/4. FACE
    # takes 4, and 8 more must come from EVEN: a 4 or a 6, 1 - (2/3)**2 = 5/9.
    advice = mdp.analyse(solution, "advise", game, state={"filled": "", "throws_left": 1, "face": 4},
                         at_least=12)
    exact = dict(zip(advice["action"], advice["value_exact"]))
    assert exact["EVEN"] == "3/4" and exact["FACE"] == "5/9"
    assert advice["action"][0] == "EVEN" and advice["optimal"].to_list()[0]
    # With 3 already in FACE, 9 more are needed from EVEN: 8 is not enough, a six is, 1/6.
    main(["advise", str(ROOT / "docs" / "examples" / "two_boxes.py"), "filled=FACE",
          "throws_left=1", "face=4", "--at-least", "12", "--points", "3", "--exact", "--json"])
    actions = {a["action"]: a for a in json.loads(capsys.readouterr().out)["actions"]}
    assert actions["again"]["value_exact"] == "1/6" and actions["again"]["optimal"]
    assert actions["EVEN"]["value_exact"] == "0"


@pytest.mark.parametrize("argv, said", [
    (["advise", "EXAMPLE", "filled=", "throws_left=1", "face=4", "--points", "3"],
     "--points is the points earned so far toward --at-least T (or, advising, to beat --after's "
     "total); give --at-least too"),
    (["advise", "EXAMPLE", "filled=", "throws_left=1", "face=4", "--at-least", "3", "--minimize"],
     "--at-least plays for the chance of the total"),
    (["distribution", "EXAMPLE", "--at-least", "3", "--tie-break", "face"],
     "--at-least plays for the chance of the total: --strategy, --maximize, --minimize and "
     "--tie-break do not apply"),
    (["distribution", "EXAMPLE", "--at-least", "1_0"], "--at-least 1_0: expected a whole number"),
])
def test_play_toward_a_total_refuses_before_any_work(argv, said, capsys, monkeypatch):
    argv = [str(ROOT / "docs" / "examples" / "two_boxes.py") if a == "EXAMPLE" else a for a in argv]
    _refused(argv, said, capsys, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("boxes, rolls, total", [(("yahtzee", "chance"), 2, 56),
                                                 (("fours", "fives", "sixes"), 1, 20)])
def test_games_played_toward_a_total_reach_it_as_often_as_its_best_chance(boxes, rolls, total):
    model = _card(boxes, rolls)
    game = mdp.load_game("yahtzee", card="no-bonus", boxes=",".join(boxes), rolls=rolls)
    solution = mdp.solve(model)
    games = 20_000
    played = mdp.analyse(solution, "simulate", game, games=games, seed=1, at_least=total)
    reached = played.filter(played["points"] >= total)["games"].sum() / games
    chance = mdp.at_least(model).chance(total)
    # Within four standard errors (a seed: the same games each time), and above best-mean
    # play's share, which is further off than that.
    assert abs(reached - chance) < 4 * (chance * (1 - chance) / games) ** 0.5
    shares = mdp.distribution(solution, game)
    by_mean = shares.filter(shares["points"] >= total)["probability"].sum()
    assert chance - by_mean > 4 * (chance * (1 - chance) / games) ** 0.5


def test_what_cannot_be_held_is_refused_before_the_work(monkeypatch):
    model = _card(("fours", "fives", "sixes"), 1)
    with pytest.raises(mdp.TooLarge, match=r"^game yahtzee: the chance of at least every total "
                       r"may take up to .*, past the budget of 1 kB; raise it with --max-memory"):
        mdp.at_least(model, max_memory=1000)
    monkeypatch.setattr("mdp.engine.rounds.reach.MOST_EXACT_COLUMNS", 10)
    with pytest.raises(mdp.TooLarge, match=r"round states and totals to solve, too many in exact "
                       r"numbers \(at most 10\)"):
        mdp.at_least(model, exact=True)


@pytest.mark.slow
def test_mdp_targets_writes_every_total_and_draws_them(tmp_path, capsys):
    example = str(ROOT / "docs" / "examples" / "two_boxes.py")
    out = tmp_path / "targets.csv"
    assert main(["targets", example, "--exact", "--out", str(out)]) == 0
    import polars as pl

    table = pl.read_csv(out)
    assert table.columns == ["at_least", "chance", "chance_best_mean", "chance_exact",
                             "chance_best_mean_exact"]
    assert table["at_least"].to_list() == list(range(19))  # 6 in FACE and 12 in EVEN at most
    best = brute_card([[f for f in range(1, 7)], [2 * f if f % 2 == 0 else 0 for f in range(1, 7)]], 6, 2)
    assert [Fraction(c) for c in table["chance_exact"]] == [best(0, t) for t in range(19)]
    assert capsys.readouterr().out == ""  # the table goes to its file alone
    assert main(["targets", example, "--exact"]) == 0
    assert "totals 0 to 18: playing for each total gains most" in capsys.readouterr().out
    pytest.importorskip("matplotlib")
    picture = tmp_path / "targets.png"
    assert main(["targets", example, "--plot", str(picture), "--json"]) == 0
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    summary = json.loads(capsys.readouterr().out)
    assert [row["at_least"] for row in summary["totals"]] == list(range(19))


def _bust(rounds):
    """Up to ``rounds`` rounds of one throw of a three-faced die, each earning its face; a 1
    ends the game at once (a round state whose ends are all refused)."""
    from types import SimpleNamespace

    import numpy as np

    hooks = dict(
        mdp_initial_state=mdp.hookimpl(lambda: "throw"),
        mdp_actions=mdp.hookimpl(lambda state: ["throw"] if state == "throw" else []),
        mdp_outcomes=mdp.hookimpl(lambda state, action: [(Fraction(1, 3), f) for f in (1, 2, 3)]),
        mdp_terminal_value=mdp.hookimpl(lambda state: 0),
        mdp_round_start=mdp.hookimpl(lambda: 0),
    )

    @mdp.hookimpl
    def mdp_round_rule(ends):
        faces = np.array(ends)

        def rule(states):  # round state: rounds played, plus 100 once bust
            played = states[:, None] % 100
            going = (states[:, None] < 100) & (played < rounds)
            following = np.where(faces == 1, 100 + played + 1, played + 1)
            return mdp.RoundEnds(np.where(going, following, -1),
                                 np.broadcast_to(faces, (len(states), len(ends))))
        return rule

    return mdp.load_game(SimpleNamespace(GAME_NAME="bust", mdp_round_rule=mdp_round_rule, **hooks))


def test_a_game_that_can_end_early_by_hand():
    reach = mdp.at_least(mdp.compile(_bust(2)), exact=True)

    @cache
    def chance(left, need):  # no choice: each face a third
        if need <= 0:
            return Fraction(1)
        if not left:
            return Fraction(0)
        return sum(Fraction(1, 3) * (Fraction(int(need <= 1)) if f == 1 else chance(left - 1, need - f))
                   for f in (1, 2, 3))

    assert [reach.chance(t) for t in range(-1, 8)] == [chance(2, t) for t in range(-1, 8)]
    assert reach.chance(6) == Fraction(1, 9) and reach.most == 6
    # Played toward a total, games that ended early stay ended, followed or played at random.
    game = _bust(3)
    solution = mdp.solve(mdp.compile(game), exact=True)
    frame = mdp.analyse(solution, "distribution", game, at_least=5)
    assert sum(Fraction(p) for t, p in zip(frame["points"], frame["exact"]) if t >= 5) == \
        mdp.at_least(solution.model, exact=True).chance(5)
    played = mdp.analyse(solution, "simulate", game, games=3000, seed=2, at_least=5)
    assert played["games"].sum() == 3000 and set(played["points"]) <= {1, 2, 3, 4, 5, 6, 7, 8, 9}


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(whole_cards.filter(lambda card: min(min(row) for row in card[0]) >= 0), st.booleans())
def test_the_targets_headline_says_plainly_when_nothing_is_gained(card, flat):
    # Before: "gains most over best-mean play at 0 or more, +0.0000 percentage points".
    # With each box's points the same whatever the face (flat), no play differs from
    # another: nothing is gained at any total, exactly or in floats.
    from mdp.analysis.builtins.targets import _gain
    from mdp.analysis.targets import targets

    points, faces, throws = card
    if flat:
        points = [[row[0]] * faces for row in points]
    model = mdp.compile(card_game(points, faces, throws))
    frame = targets(model, None, exact=True)
    gaps = [Fraction(a) - Fraction(b) for a, b in zip(frame["chance_exact"], frame["chance_best_mean_exact"])]
    nothing = "playing for each total gains nothing over best-mean play"
    if flat or max(gaps) == 0:
        assert max(gaps) == 0
        assert _gain(frame) == _gain(targets(model, None)) == nothing
    else:
        widest = gaps.index(max(gaps))
        assert _gain(frame).startswith(f"playing for each total gains most over best-mean play at "
                                       f"{widest} or more, +")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(-3, 20), st.sampled_from([Fraction, np.int64, np.int16, int, float, np.float64]),
       st.one_of(st.fractions().filter(lambda f: f.denominator != 1),
                 st.floats(-5, 20).filter(lambda x: not x.is_integer()), st.just(float("nan")),
                 st.booleans(), st.integers(0, 9).map(str)))
def test_a_total_is_any_number_equal_to_a_whole_number(total, kind, other):
    # Before: Fraction(7, 1) was refused, "total is a Fraction; expected a whole number"; and
    # 8.0, which a parameter reads as 8 (mdp.game.parsers.whole: one reading of both).
    points, faces, throws = ((1, 2, 3), (0, 2, 4)), 3, 2
    reach = _small_reach(points, faces, throws)
    best = brute_card(points, faces, throws)
    assert reach.chance(kind(total)) == reach.chance(total) == best(0, total)
    assert reach.at(None, kind(total)).value == best(0, total)
    with pytest.raises(mdp.ParamError, match=r"^mdp\.Reach\.chance: total is .*; expected a whole number$"):
        reach.chance(other)


@cache
def _small_reach(points, faces, throws):
    return mdp.at_least(mdp.compile(card_game(points, faces, throws)), exact=True)


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(whole_cards, st.sets(st.integers(1, 7), max_size=2))
def test_the_round_at_a_round_state_is_worth_its_chance_where_the_game_ends_too(card, over):
    # Before: at a round state that ends the game, .at(key, 0).value was 0 (every end worth
    # 0) while .chance(0, key) was 1. Now each round state's round is worth its chance, for
    # every total: 1 for at least 0 more where the game is over, 0 for more.
    points, faces, throws = card
    over = {state for state in over if state < 2 ** len(points) - 1}
    model = mdp.compile(card_game(points, faces, throws, over=over))
    reach = mdp.at_least(model, exact=True)
    for key in np.concatenate(model.keys).tolist():
        ends = model.rule(np.array([key]))
        for total in range(-1, reach.most + 2):
            value = reach.at(key, total).value
            assert value == reach.chance(total, key)
            if ends.over[0]:
                assert value == (1 if total <= 0 else 0)
