"""Benchmark `mdp targets` (the best chance of at least every total) on Yatzy, beside the
best-mean solve of the same game and an independent solver of the totals.

Usage:
    python benchmarks/targets.py [--cases yatzy-upper,yatzy,yahtzee] [--repeat N]
                                 [--markdown | --rst] [--quiet]

Each case runs, as whole processes on the same machine in the same run, alternated:
`mdp targets yahtzee ... --json` (every total, played best for each), `mdp solve yahtzee
... --json` (the best mean, the yardstick of the issue's ratios) and, for the Yatzy cases,
benchmarks/targets_reference.py (plain numpy, written from the rules alone, sharing no code
with mdp). Each is timed by its CPU seconds (user + system, from os.wait4: on a machine
shared with other work the wall clock says more about the others) and its wall seconds, the
best of N runs, with its peak memory (maximum resident set). The chances of every total of
mdp and the reference must agree within 1e-9; the ratios of CPU seconds are printed: targets
over the best-mean solve and over the reference. The exit status is 1 when the chances
disagree or a solver fails; a ratio past a target is reported, not an error.

Cases: yatzy-upper (the six upper boxes, chance and yatzy: seconds), yatzy (the whole card:
the issue's case, most of an hour on two cores), and, opt-in, yahtzee (the whole card of
Hasbro's Yahtzee, forced joker: totals 0 to 1575; no reference, mdp's two solves only) and
yatzy-200 (the whole card of Yatzy, one total alone: `mdp solve ... --at-least 200`, with
the chance under best-mean play beside it as the command prints it; no reference).
"""

import argparse
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOLERANCE = 1e-9
CAP = 4 * 3600.0  # seconds: a run past this is stopped and counts as a failure

_spec = importlib.util.spec_from_file_location("benchmark_run", HERE / "run.py")
RUNNER = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(RUNNER)


@dataclass(frozen=True)
class Case:
    name: str
    game: tuple  # the arguments of mdp naming the game
    boxes: str | None  # targets_reference.py --boxes; None: no reference
    about: str
    target: float | None = None  # the most CPU seconds of targets over the best-mean solve
    default: bool = False
    total: int | None = None  # one total alone (mdp solve --at-least TOTAL), not every total


UPPER = "ones,twos,threes,fours,fives,sixes,chance,yatzy"
CASES = {c.name: c for c in [
    Case("yatzy-upper", ("--variant", "yatzy", "--set", f"boxes={UPPER}"), UPPER,
         "Yatzy on the upper boxes, chance and yatzy (the bonus 50 at 63 in play)", default=True),
    Case("yatzy", ("--variant", "yatzy"), ",".join(
        ["ones", "twos", "threes", "fours", "fives", "sixes", "one-pair", "two-pairs",
         "three-of-a-kind", "four-of-a-kind", "small-straight", "large-straight",
         "full-house", "chance", "yatzy"]),
         "Scandinavian Yatzy, the whole card", target=60.0, default=True),
    Case("yahtzee", ("--variant", "full"), None,
         "Yahtzee, Hasbro's official rules, the whole card: totals 0 to 1575", target=150.0),
    Case("yatzy-200", ("--variant", "yatzy"), None,
         "Scandinavian Yatzy, the whole card: the best chance of at least 200 alone",
         target=20.0, total=200),
]}


def argv_of(case, solver):
    mdp = RUNNER.mdp_command()
    if solver == "targets" and case.total is not None:
        return [*mdp, "solve", "yahtzee", *case.game, "--at-least", str(case.total), "--json"]
    if solver == "targets":
        return [*mdp, "targets", "yahtzee", *case.game, "--json"]
    if solver == "solve":
        return [*mdp, "solve", "yahtzee", *case.game, "--json"]
    return [sys.executable, str(HERE / "targets_reference.py"), "--boxes", case.boxes, "--json"]


def chances(solver, out):
    """Every total's chance as (total, chance) pairs, from a solver's JSON (one pair for one
    total: its value)."""
    if solver == "targets" and "totals" not in out:
        return [(out["at_least"], out["value"])]
    if solver == "targets":
        return [(row["at_least"], row["chance"]) for row in out["totals"]]
    return [tuple(pair) for pair in out["totals"]]


def measure(case, repeat, log):
    solvers = ["targets", "solve"] + (["reference"] if case.boxes else [])
    runs = {s: [] for s in solvers}
    found, errors = {}, {}
    for attempt in range(repeat):
        for solver in solvers:
            if solver in errors:
                continue
            run = RUNNER.run_process(argv_of(case, solver), cap=CAP)
            if run.timed_out or run.returncode != 0:
                errors[solver] = (f"stopped after {CAP:g} s" if run.timed_out else
                                  f"exit {run.returncode}: {run.stderr.strip()[-500:]}")
            else:
                runs[solver].append(run)
                out = RUNNER.last_json_line(run.stdout)
                if solver != "solve":
                    found[solver] = chances(solver, out)
            log(f"  {case.name} {attempt + 1}/{repeat} {solver}: " + (errors.get(solver) or
                f"{run.cpu_seconds:.1f} CPU s, {run.seconds:.1f} s, "
                f"{run.max_rss_kib / 1024:.0f} MiB"))
    return runs, found, errors


def difference(found):
    """The largest difference of the chance of a total between mdp and the reference, or
    None when there is nothing to compare; infinite when they give other totals."""
    if "targets" not in found or "reference" not in found:
        return None
    mine, theirs = found["targets"], found["reference"]
    if [t for t, _ in mine] != [t for t, _ in theirs]:
        return float("inf")
    return max(abs(a - b) for (_, a), (_, b) in zip(mine, theirs))


def best(runs, key):
    return min(getattr(r, key) for r in runs) if runs else None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", default=",".join(n for n, c in CASES.items() if c.default),
                    help=f"comma-separated, from {', '.join(CASES)} (default: "
                         f"{', '.join(n for n, c in CASES.items() if c.default)})")
    ap.add_argument("--repeat", type=int, default=1, help="runs per solver, best taken (default 1)")
    RUNNER.add_output_options(ap)
    args = ap.parse_args(argv)
    names = RUNNER.chosen_cases(ap, args, CASES)
    log = RUNNER.progress_log(args.quiet)
    header = [line for line in RUNNER.machine_lines(None, "not run")
              if not line.startswith(("Storm:", "C:"))]
    try:
        header.append("load average at the start: " + Path("/proc/loadavg").read_text().split(
            " ", 3)[0] + " (1 minute)")
    except OSError:
        pass
    cells, lines, failed = [], [], []
    for name in names:
        case = CASES[name]
        log(f"{name}: {case.about}")
        runs, found, errors = measure(case, args.repeat, log)
        for solver, some in runs.items():
            cpu, wall = best(some, "cpu_seconds"), best(some, "seconds")
            peak = RUNNER.peak_mb(some)
            shown = f"at least {case.total}" if solver == "targets" and case.total else solver
            cells.append([name, shown, f"{cpu:.1f}" if cpu is not None else "FAILED",
                          f"{wall:.1f}" if wall is not None else "-",
                          f"{peak:,.0f}" if peak is not None else "-"])
        failed += [f"{name} {solver}: {error}" for solver, error in errors.items()]
        cpu = {s: best(some, "cpu_seconds") for s, some in runs.items()}
        if cpu["targets"] and cpu["solve"]:
            ratio = cpu["targets"] / cpu["solve"]
            met = "" if case.target is None else \
                f" (target at most {case.target:g}: {'met' if ratio <= case.target else 'NOT met'})"
            lines.append(f"{name}: targets / best-mean solve: {ratio:.1f}x CPU seconds{met}")
        if cpu.get("targets") and cpu.get("reference"):
            lines.append(f"{name}: targets / reference: {cpu['targets'] / cpu['reference']:.2f}x "
                         "CPU seconds")
        gap = difference(found)
        if gap is not None:
            lines.append(f"{name}: chances of every total, mdp against the reference: largest "
                         f"difference {gap:.2g}")
            if not gap <= TOLERANCE:
                failed.append(f"{name}: mdp and the reference disagree by {gap:.2g}")
    bullet = "- " if args.markdown or args.rst else ""
    print("\n".join(bullet + line for line in header), end="\n\n")
    style = "markdown" if args.markdown else "rst" if args.rst else "text"
    print(RUNNER.format_table(cells, style, ["case", "solver", "CPU s", "process s", "peak MB"],
                              {"CPU s", "process s", "peak MB"}))
    print()
    print("\n".join(bullet + line for line in lines))
    print()
    if failed:
        print("values: DISAGREE or a solver FAILED")
        print("\n".join(f"  {line}" for line in failed))
        return 1
    print("values: all agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
