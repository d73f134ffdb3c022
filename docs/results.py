"""The figures of docs/results.rst, made by running each command the page shows.

    python docs/results.py    # run every command, check it, print the page's generated part

docs/conf.py writes the page's generated part (docs/_generated/results.inc, git-ignored) at
every build, and the build fails if a command no longer gives its published figure (or now
gives the one figure it does not reproduce); tests/docs/test_docs_results.py reads the page
built and tests the checks.
Each command runs in this process through mdp's own command line, so the page shows exactly
what ``mdp`` prints.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import re
import shlex
import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = Path(__file__).with_name("_generated") / "results.inc"


def run(command: str) -> str:
    """What ``command`` (``mdp ...``, run from the repository root) prints."""
    from mdp.program.cli import main

    # A text stream with a byte buffer below it, as a real standard output has (some formats
    # write bytes).
    out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="\n"), io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(shlex.split(command)[1:])
    finally:
        os.chdir(cwd)
    if code:
        raise RuntimeError(f"{command} exited {code}: {err.getvalue().strip()}")
    out.flush()
    return out.buffer.getvalue().decode("utf-8")


def exact(output: str) -> Fraction:
    """The ``exact: p/q`` line of ``mdp solve --exact``."""
    return Fraction(re.search(r"^exact: (\S+)$", output, re.M).group(1))


def percent(value: Fraction, digits: int = 4) -> str:
    return f"{float(value):.{digits}%}"


@dataclass(frozen=True)
class Figure:
    """One value: the command that reproduces it, the reference figure and where it is from.

    ``published`` is the reference figure as its source prints it (a published page, or where
    none exists the value an independent solver in the test suite checks), and ``ours`` turns the command's
    output into the same form, so that the two compare as text: a percentage to the source's
    digits, or an exact fraction. ``reproduced=False`` marks a figure we do not reproduce: the
    check then requires that we still differ, so the page cannot keep a stale claim either
    way."""

    key: str
    title: str
    command: str
    source: str
    published: str
    ours: callable
    note: str = ""
    reproduced: bool = True


def _exact_fraction(output: str) -> str:
    return str(exact(output))


def _chance_percent(digits: int):
    """The percentage of ``mdp solve``'s line ``...: 53.0593% (0.53...)``, to ``digits``."""
    def read(output: str) -> str:
        chance = float(re.search(r": ([0-9.]+)% \(", output).group(1))
        return f"{chance:.{digits}f}%"
    return read


def _exact_percent(digits: int):
    return lambda output: percent(exact(output), digits)


def _distribution_row(shut_sum: int, column: int, digits: int):
    """A percentage from the text table of ``mdp distribution``: probability (column 2) or
    cumulative (column 3) of a shut sum, to the source's digits."""
    def read(output: str) -> str:
        for line in output.splitlines():
            cells = line.split()
            if cells and cells[0] == str(shut_sum):
                return f"{float(cells[column].rstrip('%')):.{digits}f}%"
        raise ValueError(f"no row for shut_sum {shut_sum}")
    return read


DURANGO = "Durango Bill's *Shut the Box* analysis"
BRUTE = "an independent brute force, ``tests/brute_shutbox.py``"

FIGURES = [
    Figure("standard", "The standard box",
           "mdp solve games/shutbox --exact",
           "*The Riddler* (FiveThirtyEight): tiles 1-9, two dice, one die allowed once 7, 8 "
           "and 9 are shut", "9.7614%", _exact_percent(4),
           "Exactly 956177159/9795520512; Durango Bill's rules (one die forced once the open "
           "tiles sum to 6 or less, ``--variant durango``) give the same fraction."),
    Figure("two-dice", "Always two dice",
           "mdp solve games/shutbox --variant two-dice --exact",
           "*The Fiddler on the Proof*: tiles 1-9, two dice always, as an exact fraction",
           "466473281/6530347008", _exact_fraction),
    Figure("fiddler", "The Fiddler's box: tiles 1-6, one die",
           "mdp solve games/shutbox --variant fiddler --exact",
           "*The Fiddler on the Proof*: tiles 1-6 and a single die", "145/1944", _exact_fraction),
    Figure("max-two-flips", "At most two tiles per roll",
           "mdp solve games/shutbox --variant max-two-flips --exact",
           f"no published figure; checked against {BRUTE}", "8721267025/117546246144",
           _exact_fraction, "Durango Bill's rules with the flip-limit rule plugin."),
    Figure("ten-box", "The 10-tile box, always two dice",
           "mdp solve games/shutbox --variant ten-box --exact",
           DURANGO, "4.0361%", _exact_percent(4),
           "**Not reproduced.** We get 4.0438% (594167327/14693280768), and so does the "
           "independent brute force. No rule for one die gives 4.0361% either: the table "
           "below is every ``one_die`` rule and mode on tiles 1-10.", reproduced=False),
    Figure("twelve-box", "The 12-tile box, always two dice",
           "mdp solve games/shutbox --variant twelve-box --exact",
           f"Storm's exact mode agrees (``benchmarks/run.py``, case ``twelve-exact``), and {BRUTE}",
           "275901419419/76169967501312", _exact_fraction),
    Figure("twelve-box-321", "The 12-tile box with three, two, then one die",
           "mdp solve games/shutbox --variant twelve-box-321 --exact",
           f"no published figure (no one had computed it); checked against {BRUTE}",
           "6309925996346535317/113721152119718805504", _exact_fraction,
           "Three dice while the shut tiles sum to less than 50, two from 50 to 71, one from 72."),
    Figure("worst", "The worst play",
           "mdp solve games/shutbox --minimize --exact",
           f"no published figure; checked against {BRUTE}", "1074563927/117546246144",
           _exact_fraction, "The chance of shutting the box when every choice is the worst one."),
    Figure("least-score", "The least expected score",
           "mdp solve games/shutbox --set scoring=score --exact",
           f"no published figure; checked against {BRUTE}", "431363714383/39182082048",
           _exact_fraction, "The sum of the tiles left open, minimized: about 11.009. With "
           "two dice always (``--set one_die=never``) it is 27323400707/2448880128, about "
           "11.158, the figure of :doc:`quickstart`."),
    Figure("twelve-box-55", "12-tile box: a shut sum of at most 55",
           "mdp distribution games/shutbox --variant twelve-box",
           DURANGO + ", 12-tile table", "83.355%", _distribution_row(55, 3, 3),
           "The cumulative chance at shut sum 55 (the line ``55 23 ...`` of the output)."),
    Figure("twelve-box-45", "12-tile box: a shut sum of exactly 45",
           "mdp distribution games/shutbox --variant twelve-box",
           DURANGO + ", 12-tile table", "3.83%", _distribution_row(45, 2, 2),
           "The chance of shut sum 45 (the line ``45 33 ...``)."),
    Figure("pig", "Pig: the first player's chance",
           "mdp solve pig",
           "Neller and Presser, *Optimal Play of the Dice Game Pig* (The UMAP Journal 25(1), "
           "2004): to 100 with one die, the first player wins", "53.06%", _chance_percent(2),
           "Both players play optimally; a state is seen from the player to move, and the "
           "value is theirs. 0.530592725274 to 12 digits, as ``benchmarks/pig_reference.py`` "
           "(plain numpy, no mdp) gives it. The game's states come back (a 1 passes the die "
           "with the scores unchanged), so each sum of the scores is solved by value iteration "
           "to a residual of 1e-12."),
    Figure("pig-two", "Pig to 2, by hand",
           "mdp solve pig --set goal=2 --exact",
           "by hand: a 1 passes the die, any other face wins, so v = (1 - v)/6 + 5/6",
           "6/7", _exact_fraction,
           "Exact values of games whose states come back come from policy iteration with "
           "exact linear solves; to 20 the first player wins 15116544/24557443."),
    Figure("yahtzee", "Yahtzee: five of a kind in one turn",
           "mdp solve yahtzee --exact",
           "DataGenetics, *Yahtzee probability*: 2,783,176 in 6\\ :sup:`10`",
           "347897/7558272", _exact_fraction, "2,783,176/6\\ :sup:`10` in lowest terms; 4.6029%."),
]

# Rule sets tried on the 10-tile box for Durango Bill's 4.0361%.
TEN_BOX_RULES = [("never", None), ("max6", "choice"), ("max6", "forced"),
                 ("sum6", "choice"), ("sum6", "forced"), ("always", "choice")]

MATCH = ("mdp match games/shutbox --vary one_die=never,always,max6,sum6 --vary shut_pays=1,2 "
         "--vary shut_wins=yes,no")
# The Possibly Wrong blog's table, as quoted in the issue that asked for matches.
MATCH_PUBLISHED = {("never", "1", "yes"): "0.1071", ("sum6", "2", "yes"): "1.5767",
                   ("always", "1", "no"): "-0.7747"}
STRATEGIES = "mdp strategies games/shutbox --exact"


class Mismatch(AssertionError):
    pass


def check(figure: Figure, output: str) -> str:
    ours = figure.ours(output)
    if (ours == figure.published) != figure.reproduced:
        raise Mismatch(f"{figure.key}: {figure.command} gives {ours}, published "
                       f"{figure.published}, marked {'' if figure.reproduced else 'not '}reproduced")
    return ours


def _console(command: str, output: str, keep=None) -> list[str]:
    lines = output.rstrip("\n").splitlines()
    if keep is not None:
        kept = [line for line in lines if keep(line)]
        lines = [lines[0], "..."] + kept if kept != lines else lines
    command = command.replace(" --vary", " \\\n      --vary", 1) if len(command) > 70 else command
    return [".. code-block:: console", "", *[f"   $ {c}" if i == 0 else f"   {c}"
            for i, c in enumerate(command.splitlines())], *[f"   {line}" for line in lines], ""]


def _table(rows, widths=None, cls="results") -> list[str]:
    lines = [".. list-table::", "   :header-rows: 1", f"   :class: {cls}"]
    if widths:
        lines.append(f"   :widths: {widths}")
    lines.append("")
    for row in rows:
        lines.append(f"   * - {row[0]}")
        lines += [f"     - {cell}" for cell in row[1:]]
    return lines + [""]


def generate() -> str:
    """The generated part of the Results page (reStructuredText); raises Mismatch if any
    command no longer gives what the page says."""
    outputs = {}
    for figure in FIGURES:
        if figure.command not in outputs:
            outputs[figure.command] = run(figure.command)
    ours = {f.key: check(f, outputs[f.command]) for f in FIGURES}

    text = ["Every figure", "------------", "",
            "Each row links to its command below. *Agrees* compares mdp's value, rounded as the "
            "source prints it, with the reference: a published figure, or where none was "
            "published, the exact value of an independent solver.", ""]
    rows = [("figure", "reference and source", "mdp", "agrees")]
    for f in FIGURES:
        fraction = re.search(r"^exact: (\S+)$", outputs[f.command], re.M)
        mdp = ours[f.key] if fraction is None or fraction.group(1) == ours[f.key] else (
            f"{ours[f.key]} = {fraction.group(1)}")
        rows.append((f":ref:`{f.title} <result-{f.key}>`", f"**{f.published}**: {f.source}",
                     mdp, "yes" if f.reproduced else "**no**"))
    rows.append((":ref:`Strategies <result-strategies>`", "Vince Knight's rules of thumb; "
                 f"checked against {BRUTE}", "5 values", "yes"))
    rows.append((":ref:`The sixteen-row match table <result-match>`", "**0.1071, 1.5767, "
                 "-0.7747**: the *Possibly Wrong* blog", "16 rows", "yes"))
    text += _table(rows, "25 40 25 10")

    for f in FIGURES:
        text += [f".. _result-{f.key}:", "", f.title, "-" * len(f.title), "",
                 f"Reference: **{f.published}**, {f.source}. mdp: **{ours[f.key]}**.", ""]
        if f.note:
            text += [f.note, ""]
        keep = None
        if f.command.startswith("mdp distribution"):
            keep = lambda line: line.split()[:1] in (["shut_sum"], ["45"], ["55"], ["78"])  # noqa: E731
        text += _console(f.command, outputs[f.command], keep)
        if f.key == "ten-box":
            text += _ten_box()
        if f.key == "pig":
            text += [".. image:: _static/pig-hold.png",
                     "   :alt: Optimal Pig to 100: for each pair of scores, the least turn "
                     "total at which the player to move holds.",
                     "", "The hold boundary, as Neller and Presser draw it: for each pair of "
                     "scores, the least turn total at which optimal play holds (blank where it "
                     "never does: close to the goal it rolls on to win). Drawn by ``python -m "
                     "mdp_games.pig.plot pig-hold.png``; ``mdp advise pig me=0 opponent=0 "
                     "turn=21`` says to hold.", ""]
        if f.key == "twelve-box-45":
            text += [".. image:: _static/twelve-box.png",
                     "   :alt: The chance of each shut sum in the 12-tile box, and the cumulative chance.",
                     "", "The whole distribution, drawn by ``mdp distribution games/shutbox "
                     "--variant twelve-box --plot twelve-box.png``.", ""]

    text += [".. _result-strategies:", "", "Strategies", "----------", "",
             "The optimal play against simple ones, each evaluated exactly on the same model; "
             "``shortest`` and ``longest`` are Vince Knight's rules of thumb (\"Some analysis "
             "of the game Shut the Box\", 2013). Every value is checked against "
             f"{BRUTE} in ``tests/analysis/test_strategies.py``.", ""]
    text += _console(STRATEGIES, run(STRATEGIES))
    text += ["The page of ``mdp report games/shutbox`` (:doc:`report`) sets these beside the "
             "optimum and explores every position; the advice it shows is ``mdp advise``'s:",
             "", ".. image:: _static/report-explorer.png",
             "   :alt: The explorer of the standard box: tiles 1, 2, 3, 5 and 8 open, a roll of "
             "9; the best move is to shut 1 and 8, ahead of 1 3 5.", ""]
    text += _match()
    text += _score_to_beat()
    text += _second_player()
    text += _yahtzee()
    return "\n".join(text) + "\n"


def _ten_box() -> list[str]:
    rows = [("one_die", "one_die_mode", "chance", "exact")]
    for rule, mode in TEN_BOX_RULES:
        # (one_die=never has no mode: one_die_mode is refused beside it, as doing nothing)
        command = (f"mdp solve games/shutbox --variant ten-box --set one_die={rule} "
                   + ("" if mode is None else f"--set one_die_mode={mode} ") + "--exact")
        value = exact(run(command))
        if percent(value) == "4.0361%":
            raise Mismatch(f"{command} gives Durango Bill's 4.0361%: the page says none does")
        rows.append((rule, mode or "-", percent(value), str(value)))
    return (["Every rule for one die, on tiles 1-10 (``mdp solve games/shutbox --variant "
             "ten-box --set one_die=RULE --set one_die_mode=MODE --exact``):", ""]
            + _table(rows) + ["``always`` with ``forced`` never rolls two dice, so it cannot "
                              "make 7 to 10 and never shuts the box; it is left out.", ""])


def _match() -> list[str]:
    output = run(MATCH)
    rows = list(csv.DictReader(io.StringIO(output)))
    table = [("one die", "shut pays", "shut wins", "player 1, % of stake", "published")]
    for row in rows:
        key = (row["one_die"], row["shut_pays"], row["shut_wins"])
        ours = f"{float(row['player_1_percent']):.4f}"
        published = MATCH_PUBLISHED.get(key, "")
        if published and published != ours:
            raise Mismatch(f"match {key}: {ours}, published {published}")
        table.append((*key, ours, published))
    if len(rows) != 16 or {k for k in MATCH_PUBLISHED} - {
            (r["one_die"], r["shut_pays"], r["shut_wins"]) for r in rows}:
        raise Mismatch("the match table does not have its sixteen rule sets")
    return ([".. _result-match:", "", "The sixteen-row match table", "---------------------------", "",
             "Two players, each playing best against the other, for a stake; the *Possibly "
             "Wrong* blog's table of player 1's expected winnings (the issue that asked for "
             "matches quotes 0.1071, 1.5767 and -0.7747). The test suite checks all sixteen "
             "exactly against a plain recursion (``tests/analysis/test_match.py``); :doc:`matches` "
             "reads the table.", "", ".. code-block:: console", "", f"   $ {MATCH}", ""]
            + _table(table))


TARGETS = ROOT / "docs" / "_static" / "yatzy-targets.csv"
TARGETS_COMMAND = "mdp targets yahtzee --variant yatzy --out yatzy-targets.csv --plot yatzy-targets.png"
# dlangk/yatzy (an open Rust solver of every total): P(score > 200) under the play best for
# more than 200, and under best-mean play.
TARGETS_PUBLISHED = ("94.3%", "90.9%")


def _kept_targets(path: Path) -> list[tuple[int, float, float]]:
    """The rows of a table of targets kept in docs/_static (at least, chance, best-mean
    play's chance), checked: every total from 0, both chances 1 at 0, the chance never rising
    and never below best-mean play's."""
    rows = [(int(r["at_least"]), float(r["chance"]), float(r["chance_best_mean"]))
            for r in csv.DictReader(path.open(encoding="utf-8"))]
    totals = [t for t, _, _ in rows]
    if totals != list(range(len(rows))) or rows[0][1:] != (1.0, 1.0):
        raise Mismatch(f"{path.name}: not every total from 0, or a chance of 0 or more below 1")
    for (_, best, mean), (total, after, _) in zip(rows, rows[1:]):
        if after > best + 1e-12 or best < mean - 1e-12:  # floats: rounding apart
            raise Mismatch(f"{path.name}: at {total} a chance rises, or is below best-mean play's")
    return rows


def _score_to_beat() -> list[str]:
    """Yatzy's chance of at least every total, from the table the sweep wrote (kept in
    docs/_static: the sweep takes many CPU minutes), checked: 1 at 0, never rising, never
    below best-mean play's, and the published chances of more than 200."""
    rows = _kept_targets(TARGETS)
    ours = tuple(f"{value:.1%}" for value in rows[201][1:])
    if ours != TARGETS_PUBLISHED:
        raise Mismatch(f"{TARGETS.name}: more than 200 with chances {ours}, published {TARGETS_PUBLISHED}")
    table = [("at least", "played for that total", "best-mean play", "gain")]
    table += [(str(t), f"{best:.4%}", f"{mean:.4%}", f"{100 * (best - mean):+.2f} points")
              for t, best, mean in (rows[t] for t in (150, 201, 250, 300))]
    gain, at = max((best - mean, total) for total, best, mean in rows)
    return ([".. _result-targets:", "", "Score to beat: Yatzy", "--------------------", "",
             "The best chance of finishing Scandinavian Yatzy with at least each total, each "
             "total played for on its own, beside the chance under best-mean play. "
             f"Reference: **{TARGETS_PUBLISHED[0]}** and **{TARGETS_PUBLISHED[1]}** for more than "
             "200 points (dlangk/yatzy, an open solver in Rust). mdp: "
             f"**{ours[0]}** and **{ours[1]}**. Playing for the total gains most at {at} points "
             f"or more, {100 * gain:.2f} percentage points.", "",
             "The sweep of every total takes too long for a docs build: its table is kept in "
             "``docs/_static/yatzy-targets.csv``, written by the command below (2026-11-27, AMD "
             "EPYC, 2 cores: 67 CPU minutes and 4.5 GB at first; run again later that day, 26 CPU "
             "minutes and 1.92 GB, 68 times the best-mean solve, every chance the same bit for "
             "bit: see :ref:`Performance <perf-targets>`), and every build checks the figures "
             "above against it. Whole Yahtzee's are :ref:`below <result-yahtzee-targets>`.", "",
             ".. code-block:: console", "", f"   $ {TARGETS_COMMAND}", ""]
            + _table(table)
            + [".. image:: _static/yatzy-targets.png",
               "   :alt: Yatzy: the chance of at least each total, played for that total and under "
               "best-mean play, and the gap between them, largest near 250 points.", ""])


DISTRIBUTION = ROOT / "docs" / "_static" / "yatzy-distribution.csv"
DISTRIBUTION_COMMAND = "mdp distribution yahtzee --variant yatzy --out yatzy-distribution.csv"
# dlangk/yatzy: the second player's chance against a first who plays for the best mean, and
# the best mean of Yatzy (Larsson and Sjoberg, 248.44).
SECOND_PUBLISHED, MEAN_PUBLISHED = "55.3%", "248.44"


def _second_player() -> list[str]:
    """The match of Yatzy where the second player knows the total to beat, bracketed from two
    kept tables: the first player's totals under best-mean play (checked: they sum to 1, their
    mean is the published best mean, and they give targets' best-mean column), and the best
    chance of at least every total. Against a total t, the second player's best chance of
    winning with ties counted half, max over play of (P(> t) + P(>= t)) / 2, is at least the
    best chance of at least t + 1 (play for it) and at most the mean of the best chances of
    at least t and of at least t + 1 (each part played best on its own)."""
    totals = {int(r["points"]): float(r["probability"])
              for r in csv.DictReader(DISTRIBUTION.open(encoding="utf-8"))}
    chance = {int(r["at_least"]): (float(r["chance"]), float(r["chance_best_mean"]))
              for r in csv.DictReader(TARGETS.open(encoding="utf-8"))}
    mean = sum(t * p for t, p in totals.items())
    if abs(sum(totals.values()) - 1) > 1e-9 or f"{mean:.2f}" != MEAN_PUBLISHED:
        raise Mismatch(f"{DISTRIBUTION.name}: chances summing to {sum(totals.values())}, mean "
                       f"{mean:.4f}, not the published {MEAN_PUBLISHED}")
    for total, (_, best_mean) in chance.items():
        if abs(sum(p for t, p in totals.items() if t >= total) - best_mean) > 1e-9:
            raise Mismatch(f"{DISTRIBUTION.name} and {TARGETS.name} disagree on best-mean play's "
                           f"chance of at least {total}")

    def best(total: int) -> float:
        return chance.get(total, (0.0,))[0]

    low = sum(p * best(t + 1) for t, p in totals.items())
    high = sum(p * (best(t) + best(t + 1)) / 2 for t, p in totals.items())
    published = float(SECOND_PUBLISHED.rstrip("%")) / 100
    if not low - 0.0005 <= published <= high + 0.0005:  # to the published rounding
        raise Mismatch(f"the second player's chance lies from {low:.4%} to {high:.4%}, and "
                       f"{SECOND_PUBLISHED} is published")
    tie = sum(p * (chance[t][1] - chance.get(t + 1, (0.0, 0.0))[1]) for t, p in totals.items())
    return ([".. _result-second-player:", "", "The second player knows the score: Yatzy",
             "----------------------------------------", "",
             "Two players of Yatzy; the first plays for the best mean, the second sees the "
             "first's total and plays to beat it. Reference: the second player wins "
             f"**{SECOND_PUBLISHED}** (dlangk/yatzy). mdp brackets it from the two tables kept "
             "here, ties counted half: against a total *t*, the second player's best chance is "
             "at least the best chance of at least *t* + 1, and at most the mean of the best "
             "chances of at least *t* and of at least *t* + 1. Over the first player's totals: "
             f"**from {low:.2%} to {high:.2%}**. Were both to play for the best mean, each "
             f"would win {(1 - tie) / 2:.2%}, with a tie {tie:.2%} of the time. The first "
             "player's totals, checked at every build (they sum to 1, their mean is the "
             f"published {MEAN_PUBLISHED}, and they give the best-mean column above to 1e-9), "
             "were written by the command below; ``mdp match yahtzee --variant yatzy`` plays "
             "the match itself, three sweeps of every total, and is not yet run here.", "",
             ".. code-block:: console", "", f"   $ {DISTRIBUTION_COMMAND}", ""])


YAHTZEE_TARGETS = ROOT / "docs" / "_static" / "yahtzee-targets.csv"
YAHTZEE_COMMAND = ("mdp targets yahtzee --variant full --out yahtzee-targets.csv "
                   "--plot yahtzee-targets.png")
YAHTZEE_MATCH = ROOT / "docs" / "_static" / "yahtzee-match.txt"
YAHTZEE_MATCH_COMMAND = "mdp match yahtzee --variant full"
# The best mean of Yahtzee under Hasbro's rules (forced joker), from
# benchmarks/yahtzee_reference.py, an independent solver (see docs/performance.rst), and the
# most points a game can earn (13 Yahtzees: 1,575).
YAHTZEE_MEAN, YAHTZEE_MOST = "254.5877", 1575


def _yahtzee() -> list[str]:
    """Yahtzee's chance of at least every total and its match, from what the sweeps wrote
    (kept in docs/_static), checked: the table as Yatzy's is, with every total to 1,575, and
    its best-mean column's mean the best mean of an independent solver; the match's three
    chances summing to 1 and each player's winnings their chance of winning less the
    other's."""
    rows = _kept_targets(YAHTZEE_TARGETS)
    mean = sum(chance for total, _, chance in rows if total > 0)
    if len(rows) != YAHTZEE_MOST + 1 or f"{mean:.4f}" != YAHTZEE_MEAN:
        raise Mismatch(f"{YAHTZEE_TARGETS.name}: totals 0 to {len(rows) - 1}, best-mean play's "
                       f"mean {mean:.4f}, where the game's totals run to {YAHTZEE_MOST} and its "
                       f"best mean is {YAHTZEE_MEAN}")
    table = [("at least", "played for that total", "best-mean play", "gain")]
    table += [(str(t), f"{best:.4%}", f"{best_mean:.4%}", f"{100 * (best - best_mean):+.2f} points")
              for t, best, best_mean in (rows[t] for t in (200, 250, 300, 400, 500))]
    gain, at = max((best - best_mean, total) for total, best, best_mean in rows)
    printed = YAHTZEE_MATCH.read_text(encoding="utf-8")
    said = dict(re.findall(r"^(player \d|player \d wins|a tie):? ([-+]?[\d.]+)", printed, re.M))
    if len(said) != 5:
        raise Mismatch(f"{YAHTZEE_MATCH.name}: not a match's winnings and three chances")
    wins = [float(said[k]) for k in ("player 1 wins", "player 2 wins", "a tie")]  # percent
    if abs(sum(wins) - 100) > 0.0002 or any(
            abs(100 * float(said[f"player {i}"]) - (wins[i - 1] - wins[2 - i])) > 0.0002
            for i in (1, 2)):
        raise Mismatch(f"{YAHTZEE_MATCH.name}: chances {wins} that do not sum to 100%, or "
                       "winnings that are not a player's chance of winning less the other's")
    return ([".. _result-yahtzee-targets:", "", "Score to beat: Yahtzee", "----------------------",
             "",
             "The best chance of finishing Yahtzee (Hasbro's rules, the forced joker: ``--variant "
             f"full``) with at least each total from 0 to {YAHTZEE_MOST:,}, each total played for "
             "on its own, beside the chance under best-mean play. No figures of these have been "
             "published that we know of. Checked at every build: the chances fall from 1 and "
             "are never below best-mean play's, and best-mean play's chances add up to its mean, "
             f"**{mean:.4f}**, the best mean that ``benchmarks/yahtzee_reference.py``, an "
             "independent solver, gives for these rules (254.587729: :doc:`performance`). "
             "Playing for the "
             f"total gains most at {at} points or more, {100 * gain:.2f} percentage points.", "",
             "The table is kept in ``docs/_static/yahtzee-targets.csv``, written by the command "
             "below (2026-11-29, a 2-core Intel Xeon: 455 CPU seconds, 98 times the best-mean "
             "solve, 2.3 GB at most; see :ref:`Performance <perf-yahtzee-targets>`).", "",
             ".. code-block:: console", "", f"   $ {YAHTZEE_COMMAND}", ""]
            + _table(table)
            + [".. image:: _static/yahtzee-targets.png",
               "   :alt: Yahtzee: the chance of at least each total, played for that total and "
               "under best-mean play, and the gap between them (past 628 points every chance "
               "is under 0.05%, and the picture stops there).", "",
               "Two players of Yahtzee, the second knowing the first's total (see "
               ":doc:`matches`): each plays for money, the first for the best of what the "
               "second leaves them. Its output is kept in ``docs/_static/yahtzee-match.txt`` "
               "(2026-11-29, the 2-core Intel Xeon: 86 CPU minutes, 49 minutes, 5.8 GB at most; "
               "see :ref:`Performance <perf-match-rounds>`); every build checks that the three "
               "chances sum to 1 and that each "
               "player's winnings are their chance of winning less the other's.", ""]
            + _console(YAHTZEE_MATCH_COMMAND, printed))


def write(path: Path = OUTPUT) -> None:
    path.parent.mkdir(exist_ok=True)
    text = generate()
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    print(generate(), end="")
