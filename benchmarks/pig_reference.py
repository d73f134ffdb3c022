"""Pig solved independently: score sums from the highest down, each pair of scores (i, j)
and (j, i) a fixed point (Neller and Presser 2004), found by crossing the two lines that
give each pair's chance at a turn total of 0 from the other's (Newton's method on the
pair), until a whole turn changes no chance by more than the tolerance."""
import json
import sys
import time

import numpy as np


def solve(goal=100, tol=1e-14):
    G = goal
    P = np.zeros((G, G, G))  # P[i, j, k], valid for i + k < G

    def turn(i, j, x):
        # P[i, j, k] for k = G-1-i down to 0, given x = P[j, i, 0] (the pass); vectorised over pairs.
        n = len(i)
        vals = np.zeros((n, G + 6))
        for k in range(G - 1, -1, -1):
            ok = i + k < G
            roll = (1 - x) / 6
            for r in range(2, 7):
                win = i + k + r >= G
                roll = roll + np.where(win, 1.0, vals[:, np.minimum(k + r, G + 5)]) / 6
            banked = np.minimum(i + k, G - 1)
            hold = np.where(i + k >= G, 1.0, 1 - P[j, banked, 0]) if k > 0 else 1 - x
            vals[:, k] = np.where(ok, np.maximum(roll, hold), 0.0)
        return vals[:, :G]

    sweeps = 0
    for s in range(2 * G - 2, -1, -1):
        i = np.arange(max(0, s - G + 1), min(s, G - 1) + 1)
        j = s - i
        y = np.full(len(i), 0.5)  # P[i, j, 0], and P[j, i, 0] is y of the mirrored pair
        mirror = np.argsort(j)  # position of (j, i) among the pairs
        while True:
            # Where the play does not change, P[i, j, 0] = a + b * P[j, i, 0] (a line):
            # measured at y and a little above it, then the pair's two lines crossed.
            sweeps += 2
            vals = turn(i, j, y[mirror])
            new = vals[:, 0]
            if np.abs(new - y).max() < tol:
                break
            h = 1e-7
            slope = (turn(i, j, y[mirror] + h)[:, 0] - new) / h
            offset = new - slope * y[mirror]
            crossed = (offset + slope * offset[mirror]) / (1 - slope * slope[mirror])
            y = np.where(np.isfinite(crossed), crossed, new)
        P[i, j, :] = vals
    return P, sweeps

if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--json"]
    goal = int(args[0]) if args else 100
    t = time.perf_counter()
    P, sweeps = solve(goal)
    seconds = time.perf_counter() - t
    if "--json" in sys.argv:
        print(json.dumps({"goal": goal, "value": float(P[0, 0, 0]), "sweeps": sweeps,
                          "seconds": round(seconds, 6)}))
    else:
        print(f"goal {goal}: first player wins {P[0,0,0]:.12f} ({sweeps} sweeps, {seconds:.1f} s)")
