"""Benchmark writing the policy table against solving the same game.

Usage:
    python benchmarks/policy.py [--cases standard,sixteen,eighteen] [--format parquet]
                                [--repeat N] [--markdown | --rst] [--quiet]

`mdp policy shutbox ... --out FILE` solves the game and then writes every decision with the
value of each action: millions of rows for a large box. Each case runs, as whole processes
on the same machine in the same run and alternated (solve, policy, solve, ...), `mdp solve
shutbox --set ... --json` and `mdp policy shutbox --set ... --out FILE --json`, each timed
as the best of N runs, with the peak memory of its process (its maximum resident set, from
os.wait4). The table gives, per case, both processes' seconds and peak memory, the rows
written and the size of the file, then the policy's time and memory over the solve's.

The policy's first row is the initial state's action (Shut the Box starts with one: rolling
all the dice), whose value is the game's: the exit status is 1 when it differs from the
solve's value (or a command fails), 0 otherwise; a target that is not met is reported, not
an error.
"""

import argparse
import importlib.util
import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
CAP = 600.0  # seconds: a run past this is stopped and counts as a failure

# benchmarks/run.py, for its process timing (run_process: wall time and peak RSS through a
# small launcher) and its machine description.
_spec = importlib.util.spec_from_file_location("benchmark_run", HERE / "run.py")
RUNNER = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(RUNNER)


@dataclass(frozen=True)
class Case:
    name: str
    tiles: str
    dice: int
    default: bool = False
    target: tuple[float, float] | None = None  # most policy / solve: seconds, peak memory


CASES = {c.name: c for c in [
    Case("standard", "1-9", 2, default=True),
    Case("sixteen", "1-16", 3, default=True),
    Case("eighteen", "1-18", 3, default=True, target=(3.0, 2.0)),
]}


@dataclass
class Row:
    command: str
    runs: list = field(default_factory=list)  # run.py's Run
    results: list = field(default_factory=list)  # the parsed JSON of each good run
    error: str | None = None

    @property
    def seconds(self):
        return RUNNER.best_seconds(self.runs)

    @property
    def peak_mb(self):
        return RUNNER.peak_mb(self.runs)


def arguments(case):
    return ["shutbox", "--set", f"tiles={case.tiles}", "--set", f"dice={case.dice}"]


def measure(case, fmt, repeat, log):
    """Solve and write the policy of `case` `repeat` times each, alternated."""
    rows = {"solve": Row("solve"), "policy": Row("policy")}
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, f"policy.{fmt}")
        argv = {"solve": [*RUNNER.mdp_command(), "solve", *arguments(case), "--json"],
                "policy": [*RUNNER.mdp_command(), "policy", *arguments(case), "--out", out,
                           "--json"]}
        for attempt in range(repeat):
            for name, row in rows.items():
                if row.error:
                    continue
                log(f"  {case.name} {name} run {attempt + 1}")
                run = RUNNER.run_process(argv[name], cap=CAP)
                row.runs.append(run)
                if run.timed_out or run.returncode != 0:
                    row.error = (f"stopped after {CAP:g} s" if run.timed_out else
                                 f"exit {run.returncode}: {run.stderr.strip()[-500:]}")
                    continue
                result = RUNNER.last_json_line(run.stdout)
                if name == "policy":
                    result["bytes"] = os.path.getsize(out)
                    result["first"] = first_value(out, fmt)
                row.results.append(result)
    return rows


def first_value(path, fmt):
    """The value of the policy's first row, read back from the file."""
    import polars as pl

    if fmt in ("parquet", "csv"):
        read = pl.read_parquet if fmt == "parquet" else pl.read_csv
        return read(path, n_rows=1)["value"][0]
    return (pl.read_ndjson if fmt == "ndjson" else pl.read_json)(path)["value"][0]


HEADER = ["case", "tiles/dice", "rows", "file MB", "solve s", "policy s", "time ratio",
          "solve MB", "policy MB", "memory ratio", "value agrees"]
RIGHT = set(HEADER[2:-1])


def cells(case, rows):
    solve, policy = rows["solve"], rows["policy"]
    done = solve.seconds is not None and policy.seconds is not None
    last = policy.results[-1] if policy.results else None
    agrees = (abs(last["first"] - solve.results[-1]["value"]) <= 1e-12 * max(1.0, abs(last["first"]))
              if done else None)
    return [case.name, f"{case.tiles}/{case.dice}",
            f"{last['rows']:,}" if last else "-",
            f"{last['bytes'] / 1e6:,.1f}" if last else "-",
            f"{solve.seconds:.2f}" if solve.seconds else "FAILED",
            f"{policy.seconds:.2f}" if policy.seconds else "FAILED",
            f"{policy.seconds / solve.seconds:.2f}x" if done else "-",
            f"{solve.peak_mb:,.0f}" if solve.runs else "-",
            f"{policy.peak_mb:,.0f}" if policy.runs else "-",
            f"{policy.peak_mb / solve.peak_mb:.2f}x" if done else "-",
            {True: "yes", False: "NO", None: "-"}[agrees]], agrees


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", default=",".join(n for n, c in CASES.items() if c.default),
                    help=f"comma-separated, from {', '.join(CASES)} (default: all)")
    ap.add_argument("--format", default="parquet", choices=["parquet", "csv", "ndjson", "json"],
                    help="the policy's file format (default parquet)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs per command and case, best taken (default 3)")
    RUNNER.add_output_options(ap)
    args = ap.parse_args(argv)
    names = RUNNER.chosen_cases(ap, args, CASES)
    log = RUNNER.progress_log(args.quiet)

    log("warm-up")
    RUNNER.run_process([*RUNNER.mdp_command(), "solve", "shutbox", "--json"])
    measured = {name: measure(CASES[name], args.format, args.repeat, log) for name in names}
    bullet = "- " if args.markdown or args.rst else ""
    header = [line for line in RUNNER.machine_lines(None, "not run")
              if not line.startswith(("Storm:", "C:"))]
    header.append(f"policy written as {args.format}; timing: best of {args.repeat} runs per "
                  "command, commands alternated")
    print("\n".join(bullet + line for line in header), end="\n\n")
    results = [cells(CASES[name], rows) for name, rows in measured.items()]
    print(RUNNER.format_table([line for line, _ in results], "markdown" if args.markdown else
                              "rst" if args.rst else "text", HEADER, RIGHT))
    print()
    targets = []
    for name, rows in measured.items():
        target = CASES[name].target
        if target and rows["solve"].seconds and rows["policy"].seconds:
            time_ratio = rows["policy"].seconds / rows["solve"].seconds
            memory_ratio = rows["policy"].peak_mb / rows["solve"].peak_mb
            met = time_ratio <= target[0] and memory_ratio <= target[1]
            targets.append(f"{name}: the policy within {target[0]:g}x the solve's time and "
                           f"{target[1]:g}x its peak memory: {'met' if met else 'NOT met'} "
                           f"({time_ratio:.2f}x, {memory_ratio:.2f}x)")
    if targets:
        print("\n".join(bullet + line for line in ["targets:", *targets]), end="\n\n")
    failures = [f"{name} {row.command}: {row.error}" for name, rows in measured.items()
                for row in rows.values() if row.error]
    wrong = [name for (name, _), (_, agrees) in zip(measured.items(), results) if agrees is False]
    if failures or wrong:
        print("values: DISAGREE or a command FAILED")
        print("\n".join(f"  {line}" for line in failures + [f"{n}: first row's value" for n in wrong]))
        return 1
    print("values: the policy's first row holds the solve's value, in every case")
    return 0


if __name__ == "__main__":
    sys.exit(main())
