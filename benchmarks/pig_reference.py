"""Pig solved independently: score sums from the highest down, each pair of scores (i, j)
and (j, i) a fixed point found by iteration (Neller and Presser 2004)."""
import sys, time
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
            sweeps += 1
            vals = turn(i, j, y[mirror])
            new = vals[:, 0]
            if np.abs(new - y).max() < tol:
                break
            y = new
        P[i, j, :] = vals
    return P, sweeps

if __name__ == "__main__":
    goal = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    t = time.perf_counter(); P, sweeps = solve(goal)
    print(f"goal {goal}: first player wins {P[0,0,0]:.12f} ({sweeps} sweeps, {time.perf_counter()-t:.1f} s)")
