"""Pig solved by mdp beside the independent plain-numpy solver (benchmarks/pig_reference.py),
each as a whole process on the same machine in one run, best of N.

Usage:
    python benchmarks/pig.py [--goals 100,50] [--exact-goals 20] [--repeat 3]

For each goal: mdp's ``mdp solve pig --set goal=G --json`` (value iteration in floats, to a
residual of 1e-12) and the reference's ``pig_reference.py G --json`` (Newton's method on each
pair of scores), their whole-process seconds, the seconds each reports for its own work, and
the first player's chance, which must agree to 1e-10. An exact goal runs ``--exact`` too and
compares its fraction with the reference's float. Exit status 1 when they disagree.
"""

import argparse
import json
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOLERANCE = 1e-10


def timed(argv):
    """The best whole-process seconds is kept by the caller; one run here."""
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, json.loads(done.stdout.strip().splitlines()[-1])


def best_of(argv, repeat):
    runs = [timed(argv) for _ in range(repeat)]
    return min(s for s, _ in runs), runs[-1][1]


def mdp_argv(goal, exact):
    mdp = Path(sys.executable).with_name("mdp")
    return [str(mdp), "solve", "pig", "--set", f"goal={goal}", "--json"] + (["--exact"] if exact else [])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--goals", default="100")
    ap.add_argument("--exact-goals", default="20")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    rows, ok = [], True
    cases = [(int(g), False) for g in args.goals.split(",") if g] + \
            [(int(g), True) for g in args.exact_goals.split(",") if g]
    for goal, exact in cases:
        ref_s, ref = best_of([sys.executable, str(HERE / "pig_reference.py"), str(goal), "--json"],
                             args.repeat)
        mdp_s, got = best_of(mdp_argv(goal, exact), args.repeat)
        value = Fraction(got["exact"]) if exact else got["value"]
        agree = abs(float(value) - ref["value"]) <= TOLERANCE
        ok &= agree
        rows.append((f"{goal}{' exact' if exact else ''}", got["states"], f"{mdp_s:.2f}",
                     f"{got['seconds']:.2f}", f"{ref_s:.2f}", f"{ref['seconds']:.2f}",
                     got.get("exact", f"{got['value']:.12f}"), f"{ref['value']:.12f}",
                     "yes" if agree else "NO"))
    header = ("goal", "mdp states", "mdp process s", "mdp inner s", "reference process s",
              "reference inner s", "mdp value", "reference value", "agree")
    widths = [max(len(str(r[k])) for r in [header, *rows]) for k in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(str(c).rjust(w) for c, w in zip(row, widths)))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
