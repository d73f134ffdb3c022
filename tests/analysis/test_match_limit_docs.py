"""The limit of a match's work is one figure: what matches.rst and the CHANGELOG say is what
the refusal compares against and names (the whole match's backups, every sweep of it)."""

import re
from pathlib import Path

from mdp.analysis.targets import MOST_MATCH_WORK

ROOT = Path(__file__).resolve().parents[2]


def test_the_docs_give_the_limit_the_match_takes():
    said = re.findall(r"([\d,]+) billion backups", (ROOT / "docs" / "matches.rst").read_text())
    assert said and {int(n.replace(",", "")) * 1_000_000_000 for n in said[:1]} == {MOST_MATCH_WORK}
    assert f"{MOST_MATCH_WORK // 1_000_000_000:,} billion backups" in (ROOT / "CHANGELOG.md").read_text()
