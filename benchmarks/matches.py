"""The sixteen-row fairness table of two-player Shut the Box, timed as whole processes.

Runs ``mdp match shutbox --vary one_die=... --vary shut_pays=1,2 --vary shut_wins=yes,no``
in exact rationals and in floats, best of ``--repeat`` runs each, checks the rows against
the three figures the "Possibly Wrong" blog's table is quoted with, and prints the times
beside the targets (exact at most 10 s, floats at most 2 s, on a 2-core machine).

    python benchmarks/matches.py [--repeat 5] [--rst]

Exit status 1 when a value is wrong; a missed target is reported, not an error.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import subprocess
import sys
import time

VARY = ["--vary", "one_die=never,always,max6,sum6", "--vary", "shut_pays=1,2",
        "--vary", "shut_wins=yes,no"]
PUBLISHED = {("never", "1", "yes"): "0.1071", ("sum6", "2", "yes"): "1.5767",
             ("always", "1", "no"): "-0.7747"}
TARGETS = {"exact": 10.0, "floats": 2.0}


def mdp_command() -> list[str]:
    here = os.path.join(os.path.dirname(sys.executable), "mdp")
    return [here] if os.path.exists(here) else [sys.executable, "-m", "mdp"]


def timed(argv: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of each, the best kept")
    parser.add_argument("--rst", action="store_true", help="print the table as reStructuredText")
    args = parser.parse_args()
    rows, wrong = [], False
    for mode, extra in (("exact", ["--exact"]), ("floats", [])):
        argv = mdp_command() + ["match", "shutbox", *VARY, *extra]
        best, out = min(timed(argv) for _ in range(args.repeat))
        table = list(csv.DictReader(io.StringIO(out)))
        for row in table:
            key = (row["one_die"], row["shut_pays"], row["shut_wins"])
            if key in PUBLISHED and f"{float(row['player_1_percent']):.4f}" != PUBLISHED[key]:
                print(f"{mode}: {key} gives {row['player_1_percent']}, published "
                      f"{PUBLISHED[key]}", file=sys.stderr)
                wrong = True
        if len(table) != 16:
            print(f"{mode}: {len(table)} rows, not 16", file=sys.stderr)
            wrong = True
        rows.append((mode, " ".join(["mdp", *argv[len(mdp_command()):]]), best, TARGETS[mode]))
    print(f"{os.cpu_count()} cores, Python {sys.version.split()[0]}, best of {args.repeat}")
    if args.rst:
        print("\n.. list-table::\n   :header-rows: 1\n\n   * - numbers\n     - process s\n"
              "     - target s")
        for mode, _, best, target in rows:
            print(f"   * - {mode}\n     - {best:.2f}\n     - {target:.0f}")
    else:
        for mode, command, best, target in rows:
            met = "met" if best <= target else "MISSED"
            print(f"{mode:<7} {best:6.2f} s  (target {target:.0f} s: {met})  {command}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
