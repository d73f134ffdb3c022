"""Benchmark mdp against an independent reference solver on full solitaire Yahtzee.

Usage:
    python benchmarks/yahtzee.py [--cases free-joker,forced-joker,no-bonus,yatzy]
                                 [--boxes B,B,...] [--repeat N] [--markdown | --rst] [--quiet]

Each case solves the whole game (13 turns; Yatzy 15) for the optimal expected score twice:
with `python -m mdp solve yahtzee --variant VARIANT --json`, and with
benchmarks/yahtzee_reference.py (plain numpy, written from the rules alone, sharing no code
with mdp), at its default threads. Both run as whole processes on the same machine in the
same run, alternated (mdp, reference, mdp, ...), and each is timed as the best of N runs.
The table gives per solver the round states (score cards) it reports, the whole-process
seconds, the seconds it reports for its own work (mdp: load + explore + solve; reference:
the solve), the peak memory of the process (its maximum resident set, from os.wait4) and the
value, which must agree to 1e-9 relative; then mdp's process time over the reference's.
With --boxes (e.g. fours,fives,sixes,chance) both solvers play those boxes of the card only,
a quick check that they run and agree (mdp --set boxes=..., the reference --boxes ...).
The exit status is 1 when the values disagree (or a solver fails), 0 otherwise; a target
that is not met is reported, not an error.

The processes run without PYTHONDONTWRITEBYTECODE (see run.py); a small untimed warm-up of
each solver first writes the bytecode caches and brings the files into the page cache.
"""

import argparse
import importlib.util
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
RELATIVE_TOLERANCE = 1e-9
CAP = 900.0  # seconds: a run past this is stopped and counts as a failure


# benchmarks/run.py, for its process timing (run_process: wall time and peak RSS through a
# small launcher) and its machine description.
_spec = importlib.util.spec_from_file_location("benchmark_run", HERE / "run.py")
RUNNER = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(RUNNER)


@dataclass(frozen=True)
class Case:
    name: str
    variant: str  # mdp solve yahtzee --variant ...
    rules: str  # yahtzee_reference.py --rules ...
    about: str
    default: bool = False
    target: str = ""


CASES = {c.name: c for c in [
    Case("free-joker", "full-free-joker", "free-joker",
         "Yahtzee, 100 per extra Yahtzee, joker in any open box; published 254.5896 "
         "(Verhoeff 1999, Glenn 2006)", default=True,
         target="mdp's whole process at most 10 s and peak memory at most 1 GB"),
    Case("forced-joker", "full", "forced-joker",
         "Yahtzee, Hasbro's official rules: 100 per extra Yahtzee, forced joker"),
    Case("no-bonus", "full-no-bonus", "no-bonus",
         "Yahtzee without Yahtzee bonus or joker; published 245.87"),
    Case("yatzy", "yatzy", "yatzy",
         "Scandinavian Yatzy: 15 boxes, 50 bonus at 63, no joker; published 248.44"),
]}


@dataclass(frozen=True)
class Solver:
    name: str
    argv: object  # (Case, boxes or None) -> list[str]
    states_key: str  # the JSON key of its count of round states


MDP = Solver("mdp", lambda c, boxes: [sys.executable, "-m", "mdp", "solve", "yahtzee",
                                      "--variant", c.variant, "--json"]
             + (["--set", f"boxes={boxes}"] if boxes else []), "round_states")
REFERENCE = Solver("reference", lambda c, boxes: [sys.executable, str(HERE / "yahtzee_reference.py"),
                                                  "--rules", c.rules, "--json"]
                   + (["--boxes", boxes] if boxes else []), "states")
WARM_UP = [[sys.executable, "-m", "mdp", "solve", "yahtzee", "--variant", "yahtzee", "--json"],
           [sys.executable, str(HERE / "yahtzee_reference.py"), "--help"]]


@dataclass
class Row:
    case: Case
    solver: Solver
    runs: list = field(default_factory=list)  # run.py's Run
    results: list = field(default_factory=list)  # the parsed JSON, one per successful run
    error: str | None = None
    agrees: str = ""  # "ref", "yes", "NO", or "" when there is nothing to compare

    @property
    def best(self):
        return min(self.results, key=lambda r: r["seconds"]) if self.results else None

    @property
    def process_seconds(self):
        return RUNNER.best_seconds(self.runs)

    @property
    def peak_mb(self):
        return RUNNER.peak_mb(self.runs)


def measure(case, repeat, log, boxes=None):
    """Run mdp and the reference on `case` (on `boxes` only, if given) `repeat` times each,
    alternated."""
    rows = [Row(case, MDP), Row(case, REFERENCE)]
    for attempt in range(repeat):
        for row in rows:
            if row.error:
                continue
            run = RUNNER.run_process(row.solver.argv(case, boxes), cap=CAP)
            row.runs.append(run)
            if run.timed_out or run.returncode != 0:
                row.error = (f"stopped after {CAP:g} s" if run.timed_out else
                             f"exit {run.returncode}: {run.stderr.strip()[-500:]}")
            else:
                try:
                    out = RUNNER.last_json_line(run.stdout)
                    row.results.append({k: out[k] for k in ("value", "seconds",
                                                            row.solver.states_key)})
                except (ValueError, KeyError, IndexError, TypeError) as exc:
                    row.error = f"unreadable output ({exc}): {run.stdout[-300:]!r}"
            log(f"  {case.name} {attempt + 1}/{repeat} {row.solver.name}: "
                + (row.error or f"{run.seconds:.2f} s, {run.max_rss_kib / 1024:.0f} MiB"))
    mdp, ref = rows
    if mdp.best and ref.best:
        ref.agrees = "ref"
        difference = RUNNER.relative_difference(mdp.best["value"], ref.best["value"])
        mdp.agrees = "yes" if difference <= RELATIVE_TOLERANCE else "NO"
    return rows


HEADER = ["case", "solver", "round states", "process s", "own s", "peak MB", "value", "agrees"]
RIGHT = {"round states", "process s", "own s", "peak MB", "value"}


def row_cells(row):
    best, secs, peak = row.best, row.process_seconds, row.peak_mb
    return [row.case.name, row.solver.name,
            f"{best[row.solver.states_key]:,}" if best else "-",
            f"{secs:.3f}" if secs is not None else "FAILED",
            f"{best['seconds']:.3f}" if best else "-",
            f"{peak:,.0f}" if peak is not None else "-",
            f"{best['value']:.6f}" if best else "-",
            row.agrees or "-"]


LEGEND = [
    "round states: the score cards each solver reports (mdp: round_states; reference: "
    "states); mdp merges the cards whose upper total can no longer matter, so the counts "
    "differ by design and are not compared.",
    "process s: best whole-process wall time over the runs; own s: the seconds the solver "
    "reports for its own work in its best run (mdp: load + explore + solve; reference: the "
    "solve); peak MB: the largest maximum resident set of the process over the runs "
    "(10^6 bytes).",
    f"agrees: mdp's value equals the reference's within {RELATIVE_TOLERANCE:g} relative.",
]


def target_line(case, mdp):
    secs, peak = mdp.process_seconds, mdp.peak_mb
    if secs is None:
        return f"{case.name}: {case.target}: NOT met (mdp failed)"
    met = secs <= 10 and peak <= 1000
    return (f"{case.name}: {case.target}: {'met' if met else 'NOT met'} "
            f"(process {secs:.3f} s, peak {peak:,.0f} MB)")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", default=",".join(n for n, c in CASES.items() if c.default),
                    help=f"comma-separated, from {', '.join(CASES)} (default: free-joker)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs per solver and case, best taken (default 3)")
    ap.add_argument("--boxes", help="comma-separated boxes of the card, e.g. "
                    "fours,fives,sixes,chance: both solvers play these only (default: all)")
    RUNNER.add_output_options(ap)
    args = ap.parse_args(argv)
    names = RUNNER.chosen_cases(ap, args, CASES)
    log = RUNNER.progress_log(args.quiet)

    header = [line for line in RUNNER.machine_lines(None, "not run")
              if not line.startswith(("Storm:", "C:"))]
    header.insert(3, "reference: benchmarks/yahtzee_reference.py (numpy; its default threads)")
    header.append(f"timing: best of {args.repeat} runs per solver, solvers alternated"
                  if args.repeat > 1 else "timing: one run per solver, solvers alternated")
    log("warm-up")
    for warm in WARM_UP:
        RUNNER.run_process(warm)
    rows_by_case = {}
    for name in names:
        log(f"{name}: {CASES[name].about}")
        rows_by_case[name] = measure(CASES[name], args.repeat, log, args.boxes)

    bullet = "- " if args.markdown or args.rst else ""
    print("\n".join(bullet + line for line in header), end="\n\n")
    played = f", boxes {args.boxes} only" if args.boxes else ""
    print("\n".join(f"{bullet}{n}: {CASES[n].about} (mdp --variant {CASES[n].variant}, "
                    f"reference --rules {CASES[n].rules}){played}" for n in names), end="\n\n")
    cells = [row_cells(row) for rows in rows_by_case.values() for row in rows]
    print(RUNNER.format_table(cells, "markdown" if args.markdown else "rst" if args.rst else "text",
                              HEADER, RIGHT))
    print()
    for name, (mdp, ref) in rows_by_case.items():
        if mdp.process_seconds and ref.process_seconds:
            ratio = mdp.process_seconds / ref.process_seconds
            print(f"{bullet}{name}: mdp / reference: {ratio:.2f}x (process seconds)")
    print()
    print("\n".join(bullet + line for line in LEGEND))
    targets = [target_line(CASES[n], rows[0]) for n, rows in rows_by_case.items()
               if CASES[n].target and not args.boxes]  # the targets are the whole game's
    if targets:
        print("\nTargets:\n" if args.rst else "\nTargets:" if args.markdown else "\ntargets:")
        print("\n".join(f"- {line}" for line in targets))
    print()
    failures = [f"{r.case.name} {r.solver.name}: {r.error}" for rows in rows_by_case.values()
                for r in rows if r.error]
    mismatches = [f"{r.case.name}: mdp {r.best['value']!r}, reference {ref.best['value']!r}"
                  for r, ref in rows_by_case.values() if r.agrees == "NO"]
    if failures or mismatches or any(not r.results for rows in rows_by_case.values()
                                     for r in rows):
        print("values: DISAGREE or a solver FAILED")
        print("\n".join(f"  {line}" for line in mismatches + failures))
        return 1
    print("values: all agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
