"""The benchmark runs end to end on tiny cases (no timing is asserted: speed is a
benchmark's business, not a test's), and its value check catches a disagreement."""

import importlib.util
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUN = ROOT / "benchmarks" / "run.py"


def load_runner():
    spec = importlib.util.spec_from_file_location("benchmark_run", RUN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def table_rows(stdout):
    """{(case, solver): cells} from the plain-text table."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("case "))
    rows = {}
    for line in lines[start + 2:]:
        if not line.strip():
            break
        cells = line.split()
        rows[cells[0], cells[1]] = cells
    return rows


@pytest.mark.slow
def test_smoke_run_prints_agreeing_rows():
    done = subprocess.run([sys.executable, str(RUN), "--smoke", "--quiet"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = table_rows(done.stdout)
    solvers = ["mdp", "recursive"]
    if importlib.util.find_spec("stormpy") is not None:
        solvers.append("Storm")
    else:
        assert "Storm: skipped" in done.stdout
    for case in ("smoke", "smoke-exact"):
        for solver in solvers:
            assert (case, solver) in rows, f"no row for {case} / {solver}:\n{done.stdout}"
            assert rows[case, solver][-1] in ("ref", "yes")
    # 145/1944: tiles 1-6 with one die, by mdp (README's tour) and by the recursive solver.
    assert rows["smoke-exact", "mdp"][-2] == "145/1944"
    assert rows["smoke-exact", "recursive"][-2] == "145/1944"
    assert "values: all agree" in done.stdout


def test_value_check_rejects_disagreement():
    run = load_runner()
    a = run.Result(0.1, None, 1, 0.0)
    assert run.values_agree(a, run.Result(0.1 * (1 + 1e-13), None, 1, 0.0))
    assert not run.values_agree(a, run.Result(0.1 * (1 + 1e-11), None, 1, 0.0))
    # Exact values must be equal as fractions, however close their floats are.
    x = run.Result(0.1, Fraction(1, 10), 1, 0.0)
    y = run.Result(0.1, Fraction(10**17 + 1, 10**18), 1, 0.0)
    assert not run.values_agree(x, y)
    rows = [run.Row(run.SMOKE_CASES["smoke"], "mdp", results=[a]),
            run.Row(run.SMOKE_CASES["smoke"], "recursive",
                    results=[run.Result(0.2, None, 1, 0.0)])]
    assert run.compare(rows) is False
    assert [r.agrees for r in rows] == ["ref", "NO"]


def test_the_report_says_how_mdp_is_installed(monkeypatch):
    # An editable install starts slower (setuptools' finder): the header must say which ran.
    import importlib.metadata

    run = load_runner()

    class Installed:
        def __init__(self, direct_url):
            self.direct_url = direct_url

        def read_text(self, name):
            return self.direct_url if name == "direct_url.json" else None

    for direct_url, expected in [('{"dir_info": {"editable": true}, "url": "file:///x"}',
                                  "editable install"),
                                 ('{"dir_info": {}, "url": "file:///x"}', "regular install"),
                                 (None, "regular install")]:  # from an index: no direct_url.json
        monkeypatch.setattr(importlib.metadata, "distribution",
                            lambda name, d=direct_url: Installed(d))
        assert run.mdp_install().startswith(expected)


@pytest.mark.slow
def test_yahtzee_benchmark_runs_both_solvers_and_they_agree():
    # Three boxes of the card (--boxes), without and with the Yahtzee bonus and the forced
    # joker: a second for each solver. The values are the exact ones of the brute force of
    # tests/games/test_yahtzee_card.py, brute_force(("threes", "full-house", "yahtzee"),
    # None and "forced"): 30713693425410700034678935/1119186718586212624367616 and
    # 104830429196244922768007035/3777255175228467607240704. (The whole game's published
    # figures are solved in tests/games/test_yahtzee_card.py.)
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "yahtzee.py"),
                           "--cases", "no-bonus,forced-joker", "--boxes", "threes,full-house,yahtzee",
                           "--repeat", "1", "--quiet"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = table_rows(done.stdout)
    for case, value in [("no-bonus", "27.442868"), ("forced-joker", "27.753071")]:
        mdp, reference = rows[case, "mdp"], rows[case, "reference"]
        assert (mdp[-1], reference[-1]) == ("yes", "ref"), done.stdout
        assert mdp[-2] == reference[-2] == value, done.stdout
    assert "values: all agree" in done.stdout


def test_the_reference_refuses_a_box_not_on_its_card():
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "yahtzee_reference.py"),
                           "--rules", "yatzy", "--boxes", "ones,yahtzee"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--boxes: 'yahtzee' is not a box of yatzy" in done.stderr.splitlines()[-1]


@pytest.mark.slow
def test_policy_benchmark_writes_the_policy_beside_the_solve_and_checks_its_value():
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "policy.py"), "--cases", "standard",
                           "--repeat", "1", "--format", "csv", "--quiet"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    row = table_rows(done.stdout)["standard", "1-9/2"]
    assert row[2] == "7,675"  # rows: the standard box's actions (tests/analysis/test_policy_table.py)
    assert row[-1] == "yes", done.stdout
    assert "values: the policy's first row holds the solve's value, in every case" in done.stdout


@pytest.mark.slow
def test_pig_beside_its_reference_agrees_on_small_goals():
    # The reference shares no code with mdp: to 12 in floats, and to 6 exactly, the first
    # player's chance agrees to 1e-10 (the exact fraction against the reference's float).
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "pig.py"), "--goals", "12",
                           "--exact-goals", "6", "--repeat", "1"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line.split() for line in done.stdout.splitlines()[1:]]
    assert [row[-1] for row in rows] == ["yes", "yes"]
