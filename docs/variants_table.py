"""Writes the table of Shut the Box variants in docs/variants.rst from the code itself.

    python docs/variants_table.py          # print the table
    python docs/variants_table.py --write  # update docs/variants.rst in place

The test suite checks that the page holds exactly this table, so it cannot drift.
"""

import sys
from pathlib import Path

import mdp

PAGE = Path(__file__).with_name("variants.rst")
BEGIN, END = ".. begin generated table\n", ".. end generated table\n"
GAME = str(Path(__file__).resolve().parent.parent / "games" / "shutbox")


def table() -> str:
    rows = [("variant", "rules", "chance of shutting the box", "exact")]
    for variant in mdp.load_game(GAME).variants():
        value = mdp.solve(mdp.compile(mdp.load_game(GAME, variant=variant.name)), exact=True).value
        rows.append((f"``{variant.name}``", variant.rules, f"{float(value):.4%}",
                     f"{value.numerator}/{value.denominator}"))
    lines = [".. list-table::", "   :header-rows: 1", ""]
    for row in rows:
        lines.append(f"   * - {row[0]}")
        lines += [f"     - {cell}" for cell in row[1:]]
    return "\n".join(lines) + "\n"


def current() -> str:
    text = PAGE.read_text()
    return text[text.index(BEGIN) + len(BEGIN):text.index(END)].strip("\n") + "\n"


if __name__ == "__main__":
    generated = table()
    if "--write" in sys.argv:
        text = PAGE.read_text()
        head, tail = text[:text.index(BEGIN) + len(BEGIN)], text[text.index(END):]
        PAGE.write_text(f"{head}\n{generated}\n{tail}")
    else:
        print(generated, end="")
