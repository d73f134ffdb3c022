"""The "Rule variants" page holds the table the code produces (docs/variants_table.py)."""

import importlib.util
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.slow
def test_variants_page_table_matches_the_code():
    spec = importlib.util.spec_from_file_location("variants_table", DOCS / "variants_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.current() == module.table(), (
        "docs/variants.rst is out of date: run python docs/variants_table.py --write")
