"""Benchmark mdp against Storm (through stormpy), a hand-written C solver and a plain
recursive Python solver.

Usage:
    python benchmarks/run.py [--cases standard,sixteen,sixteen-exact,twelve-exact,twenty]
                             [--repeat N] [--markdown | --rst] [--smoke] [--storm-python PATH]
    python benchmarks/run.py --cases twenty,twentytwo   # twentytwo is opt-in
    python benchmarks/run.py --cases twentyfour --repeat 1   # so is twentyfour: minutes, 14 GB

Every solver runs as a whole process on the same machine in the same run, the tools
alternated, and each case is timed as the best of N runs. For each solver the table gives
the states, the whole-process seconds, the seconds the solver reports for its own work
(mdp: load + explore + solve; Storm: build + check; C and recursive: the solve), the peak memory
of the child process (its maximum resident set, from os.wait4), and the value, which must
agree across solvers: exact fractions exactly, floats to 1e-12 relative. The exit status
is 1 when they do not (or a solver fails), 0 otherwise; a speed target that is not met is
reported, not an error.

The processes are started without PYTHONDONTWRITEBYTECODE, even when the runner's own
environment sets it: with the variable set, Python writes no bytecode cache, so every
module without an up-to-date one (a fresh checkout, an edited file) is compiled again in
every process, which is not how an installed mdp runs. The untimed warm-up run that comes
first writes the caches.
"""

import argparse
import datetime
import importlib.util
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RELATIVE_TOLERANCE = 1e-12


@dataclass(frozen=True)
class Case:
    name: str
    rules: str
    tiles: str
    dice: int
    one_die: str = "never"
    exact: bool = False
    storm: bool = True  # run Storm unless told otherwise
    recursive: bool = True
    default: bool = True  # run when --cases is not given
    max_states: int | None = None  # mdp's --max-states, for cases past its default limit
    target: str = ""


CASES = {
    "standard": Case(
        "standard",
        "tiles 1-9, two dice; one die allowed (choice) once every open tile is 6 or less",
        "1-9", 2, "max6",
        target="mdp's whole process at least 1.3x faster than Storm's whole process"),
    "sixteen": Case(
        "sixteen", "tiles 1-16, three dice always", "1-16", 3,
        target="mdp's whole process within 8x of C's, and at least 20x faster than Storm's "
               "build + check"),
    "sixteen-exact": Case(
        "sixteen-exact", "tiles 1-16, three dice always, exact rationals", "1-16", 3,
        exact=True, storm=False, recursive=False,
        target="mdp's whole process at most 1.5x its float run (sixteen)"),
    "twelve-exact": Case(
        "twelve-exact", "tiles 1-12, two dice always, exact rationals", "1-12", 2, exact=True,
        target="mdp's whole process faster than Storm's exact mode (whole process)"),
    "twenty": Case(
        "twenty", "tiles 1-20, four dice always", "1-20", 4, storm=False, recursive=False,
        target="mdp's whole process within 3x of C's, with peak memory at most 1 GB"),
    "twentytwo": Case(
        "twentytwo", "tiles 1-22, four dice always", "1-22", 4, storm=False, recursive=False,
        default=False, max_states=200_000_000,
        target="mdp's whole process within 4x of C's, with peak memory at most 4 GB"),
    "twentyfour": Case(
        "twentyfour", "tiles 1-24, four dice always", "1-24", 4, storm=False, recursive=False,
        default=False, max_states=500_000_000,
        target="mdp solves it within the memory of a 24 GB machine, by its default budget"),
}
SMOKE_CASES = {
    "smoke": Case("smoke", "tiles 1-6, two dice; one die allowed (choice) once every open tile "
                  "is 6 or less", "1-6", 2, "max6"),
    "smoke-exact": Case("smoke-exact", "tiles 1-6, one die, exact rationals", "1-6", 1,
                        exact=True),
}


@dataclass
class Run:
    seconds: float  # wall clock of the whole process, as seen by the runner
    max_rss_kib: int  # of the child process, from os.wait4
    returncode: int
    timed_out: bool
    stdout: str
    stderr: str
    cpu_seconds: float | None = None  # user + system time of the child, from os.wait4


@dataclass
class Result:
    """A solver's answer, the same shape whichever solver gave it."""
    value: float
    exact: Fraction | None
    states: int
    inner_seconds: float
    build_seconds: float | None = None
    check_seconds: float | None = None


@dataclass
class Row:
    case: Case
    solver: str
    runs: list = field(default_factory=list)  # Run
    results: list = field(default_factory=list)  # Result, one per successful run
    error: str | None = None
    timed_out_after: float | None = None
    agrees: str = ""  # "ref", "yes", "NO", or "" when there is nothing to compare

    @property
    def best(self):
        return min(self.results, key=lambda r: r.inner_seconds) if self.results else None

    @property
    def process_seconds(self):
        return best_seconds(self.runs)

    @property
    def peak_mb(self):
        return peak_mb([run for run in self.runs if not run.timed_out])


# ---------------------------------------------------------------- running a child process


def child_env():
    """The environment of the timed processes: ours, less PYTHONDONTWRITEBYTECODE."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


# Linux counts, in a child's peak RSS, the memory of the process it was forked from (the
# runner, with its imports and results): so each solver is started by a small launcher
# (python -I -S, about 8 MB) that forks it, waits for it with os.wait4 and writes its wall
# time, peak RSS and exit status to a file. The launcher's start is not in the timing.
LAUNCHER = r"""
import os, sys, time
result, argv = sys.argv[1], sys.argv[2:]
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(argv[0], argv)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
seconds = time.perf_counter() - start
with open(result, "w") as f:
    f.write(f"{seconds!r} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)} "
            f"{usage.ru_utime + usage.ru_stime!r}")
"""


def run_process(argv, cap=None):
    """Run argv to completion (or until `cap` seconds pass); time it and read its peak RSS."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = [Path(tmp, name) for name in ("stdout", "stderr", "result")]
        with open(paths[0], "wb") as out, open(paths[1], "wb") as err:
            proc = subprocess.Popen([sys.executable, "-I", "-S", "-c", LAUNCHER, str(paths[2]),
                                     *argv], stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                    cwd=ROOT, env=child_env(), start_new_session=True)
            timed_out = threading.Event()

            def kill():
                timed_out.set()
                try:
                    os.killpg(proc.pid, signal.SIGKILL)  # the launcher and the solver
                except ProcessLookupError:
                    pass

            timer = threading.Timer(cap, kill) if cap else None
            if timer:
                timer.start()
            try:
                proc.wait()
            except BaseException:
                kill()
                proc.wait()
                raise
            finally:
                if timer:
                    timer.cancel()
        stdout, stderr = (p.read_text(errors="replace") for p in paths[:2])
        try:
            seconds, max_rss, returncode, cpu = paths[2].read_text().split()
        except (OSError, ValueError):  # the launcher was killed or failed
            return Run(cap or 0.0, 0, proc.returncode or -1, timed_out.is_set(), stdout, stderr)
        return Run(float(seconds), int(max_rss), int(returncode), False, stdout, stderr,
                   float(cpu))


def last_json_line(text):
    lines = [line for line in text.splitlines() if line.strip()]
    return json.loads(lines[-1])


# ---------------------------------------------------------------- the solvers


def mdp_command():
    """The mdp executable next to the running Python, else `python -m mdp.program.cli`."""
    exe = Path(sys.executable).parent / "mdp"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "mdp.program.cli"]


def mdp_argv(case):
    argv = mdp_command() + ["solve", "shutbox", "--set", f"tiles={case.tiles}",
                            "--set", f"dice={case.dice}", "--set", f"one_die={case.one_die}",
                            "--json"]
    if case.max_states:
        argv += ["--max-states", str(case.max_states)]
    return argv + (["--exact"] if case.exact else [])


def mdp_result(out):
    exact = Fraction(out["exact"]) if "exact" in out else None
    return Result(out["value"], exact, out["states"], out["seconds"])


def script_argv(python, script, case):
    argv = [python, str(HERE / script), "--tiles", case.tiles, "--dice", str(case.dice),
            "--one-die", case.one_die]
    return argv + (["--exact"] if case.exact else [])


def storm_result(out):
    exact = Fraction(out["value"]) if isinstance(out["value"], str) else None
    value = out["value_float"] if exact is not None else out["value"]
    return Result(value, exact, out["states"], out["total_seconds"],
                  out["build_seconds"], out["check_seconds"])


def c_argv(binary, case):
    """The C solver's arguments: tile values, dice, faces, one-die rule and mode."""
    tiles = []
    for part in case.tiles.split(","):
        low, _, high = part.partition("-")
        tiles += range(int(low), int(high or low) + 1)
    tiles = ",".join(map(str, tiles))
    return [str(binary), tiles, str(case.dice), "6", case.one_die, "choice"]


def build_c_solver(folder):
    """Compile benchmarks/shutbox.c with the system's cc -O2 into `folder`:
    (path of the binary, None), or (None, why the C rows are skipped)."""
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None, "no C compiler (cc) on this machine"
    binary = Path(folder) / "shutbox"
    done = subprocess.run([compiler, "-O2", "-o", str(binary), str(HERE / "shutbox.c")],
                          capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        return None, f"{compiler} failed on shutbox.c ({last})"
    return binary, None


def recursive_result(out):
    exact = Fraction(out["value"]) if isinstance(out["value"], str) else None
    value = out["value_float"] if exact is not None else out["value"]
    return Result(value, exact, out["states"], out["seconds"])


@dataclass(frozen=True)
class Solver:
    name: str
    argv: object  # Case -> list[str]
    result: object  # parsed JSON -> Result
    cap: float | None = None


def find_storm_python(option):
    """(python that imports stormpy, None) or (None, why Storm is skipped)."""
    if importlib.util.find_spec("stormpy") is not None:
        return sys.executable, None
    if option is None:
        return None, ("stormpy is not importable by this Python and no --storm-python was "
                      "given (pip install '.[bench]')")
    try:
        check = subprocess.run([option, "-c", "import stormpy"], capture_output=True, text=True)
    except OSError as exc:
        return None, f"cannot run {option}: {exc}"
    if check.returncode != 0:
        last = (check.stderr.strip().splitlines() or ["?"])[-1]
        return None, f"{option} cannot import stormpy ({last})"
    return option, None


# ---------------------------------------------------------------- values


def relative_difference(a, b):
    scale = max(abs(a), abs(b))
    return abs(a - b) / scale if scale else 0.0


def values_agree(a, b):
    """Exact fractions must be equal; otherwise floats within RELATIVE_TOLERANCE."""
    if a.exact is not None and b.exact is not None:
        return a.exact == b.exact
    return relative_difference(a.value, b.value) <= RELATIVE_TOLERANCE


# ---------------------------------------------------------------- measuring


def measure(case, solvers, repeat, budget, log):
    """Run each solver on `case` up to `repeat` times, alternating them; one Row per solver.

    A solver is not run again once its runs for this case have taken `budget` seconds in
    all (a slow solver gets fewer runs), nor after it failed or ran past its cap.
    """
    rows = {s.name: Row(case, s.name) for s in solvers}
    spent = {s.name: 0.0 for s in solvers}
    for attempt in range(repeat):
        for solver in solvers:
            row = rows[solver.name]
            if row.error or row.timed_out_after or (attempt and spent[solver.name] >= budget):
                continue
            run = run_process(solver.argv(case), cap=solver.cap)
            spent[solver.name] += run.seconds
            row.runs.append(run)
            if run.timed_out:
                row.timed_out_after = solver.cap
                log(f"  {case.name}: {solver.name} stopped after {solver.cap:g} s")
                continue
            if run.returncode != 0:
                row.error = f"exit {run.returncode}: {run.stderr.strip()[-500:]}"
                log(f"  {case.name}: {solver.name} FAILED ({row.error})")
                continue
            try:
                row.results.append(solver.result(last_json_line(run.stdout)))
            except (ValueError, KeyError, IndexError) as exc:
                row.error = f"unreadable output ({exc}): {run.stdout[-300:]!r}"
                log(f"  {case.name}: {solver.name} FAILED ({row.error})")
                continue
            log(f"  {case.name}: {solver.name} run {attempt + 1}: {run.seconds:.3f} s, "
                f"{run.max_rss_kib / 1024:.0f} MiB")
    return list(rows.values())


def compare(rows):
    """Set each row's `agrees`; return False if any value disagrees (within or across solvers)."""
    ok = True
    for row in rows:
        if row.error:
            ok = False
        if row.results and any(not values_agree(r, row.results[0]) for r in row.results):
            row.error = "values differ between runs"
            ok = False
    ref = next((r for r in rows if r.solver == "mdp" and r.results and not r.error), None)
    for row in rows:
        if not row.results or row.error:
            continue
        if row is ref:
            row.agrees = "ref"
        elif ref is not None:
            row.agrees = "yes" if values_agree(row.results[0], ref.results[0]) else "NO"
            ok = ok and row.agrees == "yes"
    return ok


# ---------------------------------------------------------------- the report


def best_seconds(runs):
    """The least wall time of the runs that ended well (exit 0, in time), or None."""
    ok = [run.seconds for run in runs if run.returncode == 0 and not run.timed_out]
    return min(ok) if ok else None


def peak_mb(runs):
    """The largest peak resident memory of the runs, in MB (10^6 bytes), or None."""
    return max(run.max_rss_kib for run in runs) * 1024 / 1e6 if runs else None


def seconds_text(s):
    if s is None:
        return "-"
    return f"{s:.3f}" if s < 10 else f"{s:.2f}" if s < 100 else f"{s:.1f}"


def row_cells(row, mdp_row):
    best = row.best
    if row.timed_out_after is not None:
        process = f"> {row.timed_out_after:g}"
    elif row.error:
        process = "FAILED"
    else:
        process = seconds_text(row.process_seconds)
    inner = "-"
    if best is not None:
        inner = seconds_text(min(r.inner_seconds for r in row.results))
        if best.build_seconds is not None:
            inner += f" ({seconds_text(best.build_seconds)} + {seconds_text(best.check_seconds)})"
    ratio = "-"
    if mdp_row is not None and row is not mdp_row and mdp_row.process_seconds:
        if row.process_seconds is not None:
            ratio = f"{row.process_seconds / mdp_row.process_seconds:.1f}x"
        elif row.timed_out_after is not None:
            ratio = f"> {row.timed_out_after / mdp_row.process_seconds:.0f}x"
    peak = f"{row.peak_mb:,.0f}" if row.peak_mb is not None and not row.timed_out_after else "-"
    return [
        row.case.name,
        row.solver,
        f"{best.states:,}" if best else "-",
        str(len(row.runs)),
        process,
        inner,
        ratio,
        peak,
        f"{best.value:#.17g}" if best else "-",
        f"{best.exact.numerator}/{best.exact.denominator}" if best and best.exact is not None
        else "-",
        row.agrees or "-",
    ]


HEADER = ["case", "solver", "states", "runs", "process s", "inner s", "vs mdp", "peak MB",
          "value", "exact", "agrees"]
RIGHT = {"states", "runs", "process s", "inner s", "vs mdp", "peak MB"}


def format_table(cells, style="text", header=HEADER, right=RIGHT):
    """The table as aligned text, Markdown ("markdown") or a reStructuredText simple table:
    ``header`` its column names, ``right`` those aligned right (this runner's by default;
    yahtzee.py and policy.py give their own)."""
    if style == "rst":
        cells = [[c if c != "-" else "" for c in row] for row in cells]  # "-" is a bullet
    if style == "markdown":
        lines = ["| " + " | ".join(header) + " |",
                 "|" + "|".join("---:" if h in right else "---" for h in header) + "|"]
        lines += ["| " + " | ".join(row) + " |" for row in cells]
        return "\n".join(lines)
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(header)]

    def line(row):
        return "  ".join(c.rjust(w) if h in right else c.ljust(w)
                         for c, w, h in zip(row, widths, header)).rstrip()

    if style == "rst":
        border = "  ".join("=" * w for w in widths)
        return "\n".join([border, line(header), border] + [line(r) for r in cells] + [border])
    return "\n".join([line(header), line(["-" * w for w in widths])] + [line(r) for r in cells])


def add_output_options(ap):
    """--markdown or --rst, and --quiet: the options of a benchmark's report (yahtzee.py,
    policy.py)."""
    style = ap.add_mutually_exclusive_group()
    style.add_argument("--markdown", action="store_true", help="print the table in Markdown")
    style.add_argument("--rst", action="store_true",
                       help="print the table as a reStructuredText simple table")
    ap.add_argument("--quiet", action="store_true", help="no progress lines on stderr")


def chosen_cases(ap, args, cases):
    """The names of ``--cases`` (each of ``cases``, at least one) and a ``--repeat`` of 1 or
    more, else the parser's error."""
    names = [n.strip() for n in args.cases.split(",") if n.strip()]
    unknown = [n for n in names if n not in cases]
    if unknown or not names:
        ap.error(f"unknown case(s) {', '.join(unknown)}; choose from {', '.join(cases)}")
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    return names


def progress_log(quiet):
    """A function that prints a line of progress on stderr, unless ``quiet``."""
    def log(message):
        if not quiet:
            print(message, file=sys.stderr, flush=True)

    return log


LEGEND = [
    "process s: best whole-process wall time over the runs (start to exit, as the runner "
    "sees it); inner s: the time the solver reports for its own work (mdp: load + explore + "
    "solve from `mdp solve --json`; Storm: build + check, in brackets build + check; "
    "C and recursive: the solve); vs mdp: process s divided by mdp's process s; peak MB: the "
    "largest maximum resident set of the child process over the runs (10^6 bytes).",
    "states: mdp and Storm count every state of the model (open tiles before a roll, and "
    "open tiles with the roll just made); C and the recursive solver count their memoized "
    "positions "
    "(sets of open tiles before a roll).",
    f"agrees: the value equals mdp's (exact fractions exactly, floats within "
    f"{RELATIVE_TOLERANCE:g} relative).",
]


def machine_lines(storm_python, storm_note, c_line="not run"):
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = platform.processor() or cpu
    memory = "unknown memory"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = f"{int(line.split()[1]) / 1024**2:.1f} GiB memory"
    except OSError:
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    try:
        import numpy
        numpy_version = numpy.__version__
    except ImportError:
        numpy_version = "not installed"
    try:
        from importlib.metadata import version
        mdp_version = version("exact-mdp")
    except Exception:  # noqa: BLE001  (a report line, not a reason to stop)
        mdp_version = "unknown"
    mdp_version += f" ({mdp_install()})"
    if storm_python:
        probe = subprocess.run(
            [storm_python, "-c", "import platform, stormpy, stormpy.info; print("
             "stormpy.__version__, stormpy.info.storm_version(), platform.python_version())"],
            capture_output=True, text=True)
        sp, storm, py = (probe.stdout.split() + ["?"] * 3)[:3]
        storm_line = f"stormpy {sp} (Storm {storm}), Python {py} at {storm_python}"
    else:
        storm_line = f"skipped: {storm_note}"
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return [
        f"date: {now}",
        f"machine: {cpu}, {os.cpu_count()} cores ({usable} usable), {memory}, "
        f"{platform.system()} {platform.release()}",
        f"mdp {mdp_version}: Python {platform.python_version()} at {sys.executable}, "
        f"numpy {numpy_version}",
        f"Storm: {storm_line}",
        f"C: {c_line}",
        "processes run without PYTHONDONTWRITEBYTECODE (so Python reuses compiled bytecode)",
    ]


def mdp_install():
    """How the mdp that runs is installed: "regular install" (pip install .), or "editable
    install" (pip install -e ., as PEP 610's direct_url.json records it). An editable install
    adds setuptools' import finder, and the modules it imports, to every process's start."""
    try:
        from importlib.metadata import distribution
        direct = json.loads(distribution("exact-mdp").read_text("direct_url.json") or "{}")
    except Exception:  # noqa: BLE001  (a report line, not a reason to stop)
        return "install unknown"
    if direct.get("dir_info", {}).get("editable"):
        return "editable install, slower to start: see benchmarks/README.md"
    return "regular install"


def target_lines(rows_by_case):
    """One line per case with a target: what was measured and whether it was met."""
    lines = []
    for name, rows in rows_by_case.items():
        case = rows[0].case
        if not case.target:
            continue
        by = {r.solver: r for r in rows}
        mdp, storm, c = by.get("mdp"), by.get("Storm"), by.get("C")
        checks = []  # (met, detail)
        if mdp is None or mdp.process_seconds is None:
            lines.append(f"{name}: {case.target}: NOT MET (mdp failed)")
            continue
        secs, peak = mdp.process_seconds, mdp.peak_mb
        limits = {"sixteen": 8, "twenty": 3, "twentytwo": 4}
        if name in limits:
            if c is not None and c.process_seconds:
                ratio = secs / c.process_seconds
                checks.append((ratio <= limits[name], f"mdp process {secs:.3f} s / C process "
                               f"{c.process_seconds:.3f} s = {ratio:.1f}x"))
            else:
                checks.append((None, "C not run"))
        if name in ("twenty", "twentytwo"):
            most = 1000 if name == "twenty" else 4000
            checks.append((peak <= most, f"peak {peak:,.0f} MB"))
        if name == "twentyfour":  # solved at all (no --max-memory: the default budget let it)
            checks.append((peak <= 24_000, f"peak {peak:,.0f} MB"))
        if name == "sixteen-exact":
            float_run = rows_by_case.get("sixteen")
            float_mdp = next((r for r in float_run or [] if r.solver == "mdp"), None)
            if float_mdp is not None and float_mdp.process_seconds:
                ratio = secs / float_mdp.process_seconds
                checks.append((ratio <= 1.5, f"exact {secs:.3f} s / float "
                               f"{float_mdp.process_seconds:.3f} s = {ratio:.2f}x"))
            else:
                checks.append((None, "the float case sixteen not run"))
        if name == "sixteen" and storm is not None and storm.best is not None:
            ratio = storm.best.inner_seconds / secs
            checks.append((ratio >= 20, f"Storm build + check {storm.best.inner_seconds:.2f} s "
                           f"/ mdp process {secs:.3f} s = {ratio:.1f}x"))
        if name in ("standard", "twelve-exact") and storm is not None:
            if storm.process_seconds is not None:
                ratio = storm.process_seconds / secs
                checks.append((ratio >= (1.3 if name == "standard" else 1.0),
                               f"Storm process {storm.process_seconds:.3f} s / mdp process "
                               f"{secs:.3f} s = {ratio:.2f}x"))
            elif storm.timed_out_after is not None:
                checks.append((True, f"Storm did not finish in {storm.timed_out_after:g} s"))
        measured = [met for met, _ in checks if met is not None]
        verdict = "not measured" if not measured else "met" if all(measured) else "NOT MET"
        detail = "; ".join(text for _, text in checks)
        lines.append(f"{name}: {case.target}: {verdict}" + (f" ({detail})" if detail else ""))
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", default=",".join(n for n, c in CASES.items() if c.default),
                    help=f"comma-separated, from {', '.join(CASES)} (default: all but "
                         f"{', '.join(n for n, c in CASES.items() if not c.default)})")
    ap.add_argument("--repeat", type=int, default=None,
                    help="runs per solver and case, best taken (default 7; 1 with --smoke)")
    ap.add_argument("--budget", type=float, default=60.0,
                    help="stop repeating a solver on a case once its runs took this many "
                         "seconds (default 60)")
    ap.add_argument("--recursive-cap", type=float, default=120.0,
                    help="stop the recursive solver after this many seconds (default 120)")
    ap.add_argument("--storm-python", metavar="PATH",
                    help="a Python with stormpy, used when this one cannot import it")
    ap.add_argument("--no-storm", action="store_true", help="skip Storm")
    ap.add_argument("--no-c", action="store_true", help="skip the C solver")
    ap.add_argument("--with-storm-twenty", action="store_true",
                    help="run Storm on the twenty case too (slow: over 5 minutes)")
    ap.add_argument("--storm-cap", type=float, default=1800.0,
                    help="stop Storm after this many seconds (default 1800)")
    ap.add_argument("--smoke", action="store_true",
                    help="tiny cases only, one run each (for CI)")
    ap.add_argument("--markdown", action="store_true", help="print the table in Markdown")
    ap.add_argument("--rst", action="store_true",
                    help="print the table as a reStructuredText simple table (for docs/)")
    ap.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = ap.parse_args(argv)

    if args.smoke:
        cases = list(SMOKE_CASES.values())
        repeat = args.repeat or 1
    else:
        names = [n.strip() for n in args.cases.split(",") if n.strip()]
        unknown = [n for n in names if n not in CASES]
        if unknown:
            ap.error(f"unknown case(s) {', '.join(unknown)}; choose from {', '.join(CASES)}")
        cases = [CASES[n] for n in names]
        repeat = args.repeat or 7
    if repeat < 1:
        ap.error("--repeat must be at least 1")

    def log(message):
        if not args.quiet:
            print(message, file=sys.stderr, flush=True)

    storm_python, storm_note = (None, "--no-storm") if args.no_storm else \
        find_storm_python(args.storm_python)

    mdp = Solver("mdp", mdp_argv, mdp_result)
    storm = Solver("Storm", lambda c: script_argv(storm_python, "storm.py", c), storm_result,
                   cap=args.storm_cap) if storm_python else None
    recursive = Solver("recursive", lambda c: script_argv(sys.executable, "recursive.py", c),
                       recursive_result, cap=args.recursive_cap)
    build = tempfile.TemporaryDirectory()
    binary, c_note = (None, "--no-c") if args.no_c else build_c_solver(build.name)
    c_solver = Solver("C", lambda case: c_argv(binary, case), recursive_result) \
        if binary else None
    c_line = ("benchmarks/shutbox.c, compiled with cc -O2 for this run; not run on exact "
              "cases (doubles only)") if binary else f"skipped: {c_note}"

    header = machine_lines(storm_python, storm_note, c_line)
    header.append(f"timing: best of up to {repeat} runs per solver, solvers alternated; a "
                  f"solver is not repeated once its runs on a case took {args.budget:g} s")

    if not args.smoke:
        # Untimed warm-up: compile bytecode and bring every file into the page cache.
        warm = Case("warm-up", "", "1-4", 2)
        log("warm-up")
        for solver in filter(None, (mdp, storm, c_solver, recursive)):
            run_process(solver.argv(warm))

    rows_by_case = {}
    for case in cases:
        log(f"{case.name}: {case.rules}")
        solvers = [mdp]
        if storm and (case.storm or (case.name == "twenty" and args.with_storm_twenty)):
            solvers.append(storm)
        if c_solver and not case.exact:
            solvers.append(c_solver)
        if case.recursive:
            solvers.append(recursive)
        rows_by_case[case.name] = measure(case, solvers, repeat, args.budget, log)

    ok = True
    cells = []
    for rows in rows_by_case.values():
        ok = compare(rows) and ok
        mdp_row = next((r for r in rows if r.solver == "mdp"), None)
        cells += [row_cells(row, mdp_row) for row in rows]

    bullet = "- " if args.markdown or args.rst else ""
    print("\n".join(bullet + line for line in header))
    print()
    print("\n".join(f"{bullet}{c.name}: {c.rules}" for c in cases))
    skipped = [c.name for c in cases if storm and not c.storm
               and not (c.name == "twenty" and args.with_storm_twenty)]
    if skipped:
        print(f"{bullet}Storm not run on {', '.join(skipped)} (--with-storm-twenty runs it)")
    not_recursive = [c.name for c in cases if not c.recursive]
    if not_recursive:
        print(f"{bullet}recursive solver not run on {', '.join(not_recursive)}")
    print()
    print(format_table(cells, "markdown" if args.markdown else "rst" if args.rst else "text"))
    print()
    print("\n".join(bullet + line for line in LEGEND))
    if not args.smoke:
        targets = target_lines(rows_by_case)
        if targets:
            print()
            print("Targets:\n" if args.rst else "Targets:" if args.markdown else "targets:")
            print("\n".join(f"- {line}" for line in targets))
    print()
    failures = [f"{r.case.name} {r.solver}: {r.error}" for rows in rows_by_case.values()
                for r in rows if r.error]
    mismatches = [f"{r.case.name} {r.solver}" for rows in rows_by_case.values()
                  for r in rows if r.agrees == "NO"]
    if ok:
        print("values: all agree")
    else:
        print("values: DISAGREE or a solver FAILED")
        for line in mismatches:
            print(f"  value differs from mdp's: {line}")
        for line in failures:
            print(f"  {line}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
