"""The rule options shared by the solver scripts the benchmark runs (storm.py, recursive.py)."""

import argparse


def parse_tiles(spec):
    """'1-9' -> [1..9]; '1,2,5' -> [1, 2, 5]; ranges and lists may be mixed."""
    tiles = []
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        tiles += range(int(lo), int(hi or lo) + 1)
    return tiles


def rule_parser(description):
    """An argument parser with the rules of Shut the Box both solvers understand."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--tiles", default="1-9", type=parse_tiles, help="e.g. 1-9 or 1,2,3,5")
    ap.add_argument("--dice", type=int, default=2)
    ap.add_argument("--faces", type=int, default=6)
    ap.add_argument("--one-die", default="never", choices=["never", "max6", "sum6", "always"])
    ap.add_argument("--one-die-mode", default="choice", choices=["choice", "forced"])
    ap.add_argument("--exact", action="store_true")
    return ap
