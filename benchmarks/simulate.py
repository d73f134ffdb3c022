"""Time ``mdp simulate games/shutbox --games N`` as a whole process (start-up, compile,
solve, simulation and output), the figure the target of ten million games in 5 s is about.

    python benchmarks/simulate.py [--games N] [--repeat R]
"""

import argparse
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    command = [sys.executable, "-m", "mdp", "simulate", os.path.join(ROOT, "games", "shutbox"),
               "--games", str(args.games), "--seed", "1", "--json"]
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    print(f"mdp simulate games/shutbox --games {args.games:,}: best {min(times):.2f} s, "
          f"median {sorted(times)[len(times) // 2]:.2f} s over {args.repeat} runs "
          f"({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
