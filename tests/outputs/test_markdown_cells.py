"""Each cell of a Markdown table stays in its cell whatever its text: a ``|`` is escaped and
a line break written ``<br>`` (a game's labels may hold either; before, a label with ``|``
made a row of one cell more, and one with a line break a row of its own)."""

import io
import re

import polars as pl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mdp.outputs.formats import _apart, _markdown

texts = st.text(alphabet=st.sampled_from(list("ab |\\\n\r-")), min_size=1, max_size=12)
DELIMITER = re.compile(r"(?<!\\)\|")


@settings(max_examples=100, deadline=None)
@given(names=st.lists(texts, min_size=1, max_size=3, unique=True), data=st.data())
@example(names=["\\", "-", "\\\\"], data=None)  # wide cells: once wrapped to a second line
@pytest.mark.slow
def test_every_cell_stays_in_its_cell(names, data):
    # Names written alike ('\r' and '\n' are both <br>) are told apart: '<br> (2)'.
    rows = data.draw(st.integers(1, 4), "rows") if data else 1
    columns = {name: data.draw(st.lists(texts, min_size=rows, max_size=rows), name) if data else
               [name * 3 + "\r" * 7] for name in names}
    file = io.BytesIO()
    _markdown(pl.DataFrame(columns), file)
    lines = file.getvalue().decode().splitlines()
    assert len(lines) == rows + 2  # the names, the rule, a line per row
    cells = [[cell.strip() for cell in DELIMITER.split(line)[1:-1]] for line in lines]
    assert all(len(row) == len(names) for row in cells)

    def written(text):  # escaped, a line break as <br>
        return re.sub(r"\r\n|\r|\n", "<br>", text.replace("|", r"\|"))

    def shown(text):  # as read in its cell: space around it trimmed
        return written(text).strip()

    assert cells[0] == [name.strip() for name in _apart([written(name) for name in names])]
    for i in range(rows):
        assert cells[2 + i] == [shown(columns[name][i]) for name in names]


def test_long_text_and_many_columns_are_written_whole_a_row_a_line():
    frame = pl.DataFrame({f"c{i}": ["x" * 3000] for i in range(40)})
    file = io.BytesIO()
    _markdown(frame, file)
    lines = file.getvalue().decode().splitlines()
    assert len(lines) == 3 and lines[2].count("x" * 3000) == 40


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x2030,
                                               blacklist_categories=("Cs",)), max_size=8),
                min_size=1, max_size=4))
@pytest.mark.slow  # half a second or more of CPU
def test_no_control_character_reaches_the_reader_raw(values):
    # An escape (\x1b[31m) in a game's value turned the reader's terminal red; every control
    # character but the line ends of the table is written as its escape, as labels are shown.
    file = io.BytesIO()
    _markdown(pl.DataFrame({"s": values, "v": list(range(len(values)))}), file)
    text = file.getvalue().decode()
    assert all(c.isprintable() or c in " \n" for c in text)
