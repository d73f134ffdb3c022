"""What several tests need and is costly to make, made once a session and shared: the whole
game of Yahtzee on each score card (loaded, compiled, solved, its distribution of totals), the
docs built as CI builds them, and the headless Chromium that the pages of reports are read in.

The tests that take one are slow (marked so in their files). Side by side (pytest-xdist,
``--dist loadgroup``, see pyproject.toml) each worker has a session of its own: the tests of
one of these fixtures are sent to one worker, so that it is made once, not once per worker."""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path

import pytest

# Hypothesis, rewritten by pytest for its asserts as a plugin of pytest's, kept as bytecode
# where Python is told to write none (PYTHONDONTWRITEBYTECODE, as in CI), as the test modules
# are (pytest_collection below): rewriting it again took each process 1.5 s of CPU at start.
sys.dont_write_bytecode, _told = False, sys.dont_write_bytecode
try:
    from hypothesis import settings
finally:
    sys.dont_write_bytecode = _told

import mdp  # noqa: E402

# No deadline on a generated case's time: on a busy machine a case of 1 ms once took 263 (a
# deadline of 200 ms, the default) and its test failed as "flaky". How long mdp may take is
# tested where it is a promise, by the work done.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

ROOT = Path(__file__).resolve().parent.parent


class WholeYahtzee:
    """The whole game of Yahtzee on one score card, each piece made when first asked for.
    Tests read them and must not change them."""

    def __init__(self, card: str) -> None:
        self.card = card

    @functools.cached_property
    def game(self) -> mdp.Game:
        return mdp.load_game("yahtzee", card=self.card)

    @functools.cached_property
    def model(self) -> mdp.Rounds:
        return mdp.compile(self.game)

    @functools.cached_property
    def solution(self) -> mdp.RoundsSolution:
        """The best play, solved in floats."""
        return mdp.solve(self.model)

    @functools.cached_property
    def distribution(self):
        """The chance of every total under the best play: mdp.distribution of the solution."""
        return mdp.distribution(self.solution)


@pytest.fixture
def saved_figures(monkeypatch) -> list:
    """Every matplotlib figure saved while the test runs, as it was when saved."""
    import matplotlib.figure

    kept: list = []
    save = matplotlib.figure.Figure.savefig

    def saving(figure, *args, **kwargs):
        done = save(figure, *args, **kwargs)
        kept.append(figure)
        return done

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", saving)
    return kept


@pytest.fixture(scope="session")
def yahtzee_full() -> WholeYahtzee:
    """Yahtzee's official rules: the Yahtzee bonus and the forced joker (variant full)."""
    return WholeYahtzee("yahtzee")


@pytest.fixture(scope="session")
def yahtzee_full_free_joker() -> WholeYahtzee:
    """Verhoeff's reading of the joker, free in any open box (variant full-free-joker)."""
    return WholeYahtzee("free-joker")


@pytest.fixture(scope="session")
def yahtzee_full_no_bonus() -> WholeYahtzee:
    """No Yahtzee bonus and no joker (variant full-no-bonus)."""
    return WholeYahtzee("no-bonus")


@pytest.fixture(scope="session")
def yahtzee_yatzy() -> WholeYahtzee:
    """The Scandinavian game of Yatzy (variant yatzy)."""
    return WholeYahtzee("yatzy")


@pytest.fixture(scope="session")
def built_docs(tmp_path_factory) -> Path:
    """The docs built as CI builds them (warnings are errors): the folder of the HTML pages."""
    out = tmp_path_factory.mktemp("docs") / "html"
    build = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b",
                            "html", str(ROOT / "docs"), str(out)], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr[-3000:]
    return out


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    """Headless Chromium (tests/browser.py), its scroll bars hidden: started once a session for
    every test of a report's page (a start takes a second or two of CPU). Each test sets the
    window's size and opens its page; the docs' tests, which measure scroll bars, start their
    own."""
    from browser import chromium

    driver = chromium(tmp_path_factory.mktemp("chromium"), "--hide-scrollbars")
    yield driver
    driver.quit()


@pytest.fixture(scope="session")
def yahtzee_turn_page(tmp_path_factory) -> tuple[Path, mdp.Game, mdp.Solution]:
    """The page ``mdp report yahtzee`` writes (one turn), the game and its solution: written
    once a session for the tests that read it in the browser. Tests must not change them."""
    from mdp.program.cli import main

    out = tmp_path_factory.mktemp("yahtzee-turn") / "yahtzee.html"
    assert main(["report", "yahtzee", "--out", str(out)]) == 0
    game = mdp.load_game("yahtzee")
    return out, game, mdp.solve(mdp.compile(game))


SHARED = ["yahtzee_full", "yahtzee_full_free_joker", "yahtzee_full_no_bonus", "yahtzee_yatzy",
          "built_docs", "browser", "yahtzee_turn_page"]
"""The fixtures above: each one's tests run on one worker side by side. A test of two goes
with the one named first here: a whole game or the docs take tens of seconds to make, a
browser a second or two (a worker that runs a test of a whole game in a browser starts one)."""


def shared(item: pytest.Item) -> list[str]:
    """The fixtures of SHARED a test takes, in SHARED's order: by name, or as a parameter that
    names one (for a test that asks for it with request.getfixturevalue)."""
    params = item.callspec.params.values() if hasattr(item, "callspec") else ()
    asked = set(item.fixturenames) | {value for value in params if isinstance(value, str)}
    return [name for name in SHARED if name in asked]


def pytest_configure(config: pytest.Config) -> None:
    """mdp's packages compiled to bytecode once, before the workers start: many tests run
    mdp in a process of its own, which would otherwise compile every module it imports
    from source each time where Python is told to write no bytecode (PYTHONDONTWRITEBYTECODE,
    as in CI): 0.2 s of CPU more a run of ``mdp policy``. An installed mdp has them."""
    if hasattr(config, "workerinput"):  # a worker: the run's first process compiled them
        return
    import compileall

    for package in ("mdp", "games", "plugins"):
        compileall.compile_dir(ROOT / package, quiet=1)


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session):
    """The test modules, rewritten by pytest for its asserts, kept as bytecode from one run
    to the next (tests/**/__pycache__) where Python is told to write none: rewriting them
    all again took each worker some 4 s of CPU at every run. Only while they are collected:
    the tests themselves run as they are told."""
    told = sys.dont_write_bytecode
    sys.dont_write_bytecode = False
    try:
        return (yield)
    finally:
        sys.dont_write_bytecode = told


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Side by side, the tests of a shared fixture go to one worker, and the files of slow
    tests come first (whole, so that a fixture of a file is made once; the rest in their
    order): pytest-xdist hands out the groups of most tests first, then the other tests in
    this order as the workers run short, so the last tests of the run are quick ones, and
    neither worker waits long at the end for the other."""
    if config.pluginmanager.hasplugin("xdist"):
        for item in items:
            if fixtures := shared(item):  # a test of two goes with the first (SHARED)
                item.add_marker(pytest.mark.xdist_group(fixtures[0]))
        if config.getoption("dist") != "no":  # -n 0 keeps the order of the files
            slow = {item.path for item in items if item.get_closest_marker("slow")}
            items.sort(key=lambda item: item.path not in slow)


@pytest.hookimpl(trylast=True)  # after pytest-xdist has named the groups
def pytest_collection_finish(session: pytest.Session) -> None:
    """Stop a run side by side whose groups did not take: each worker would make every shared
    fixture again, the whole suite taking half as long again, without a word."""
    if getattr(session.config.option, "loadgroup", False):
        lost = [item.nodeid for item in session.items
                if item.get_closest_marker("xdist_group") and "@" not in item.nodeid]
        if lost:  # said on standard error too: pytest-xdist reports only that collection failed
            message = (f"pytest-xdist did not group {len(lost)} tests (the first: {lost[0]}), "
                       f"under pytest {pytest.__version__}: install the versions pyproject.toml "
                       "names (pip install -e '.[test]')")
            print(message, file=sys.__stderr__, flush=True)
            raise pytest.UsageError(message)
