"""An error's line is said whole where the words for the round state it names cannot be had:
the import of what words it (mdp.analysis.labels, which loads numpy) may fail in a process
whose modules a game broke (U35-17: the refusal became two tracebacks, exit 1). The line is
then the error as it came, exit 2."""

import sys

from models import ONE_MOVE

from mdp.program.cli import main

BAD = ONE_MOVE.format(imports="", name="bad-value", value='"ten"')


def test_the_line_is_said_when_its_words_cannot_be_imported(tmp_path, capsys, monkeypatch):
    (tmp_path / "bad.py").write_text(BAD)
    assert main(["solve", str(tmp_path / "bad.py")]) == 2
    worded = capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "mdp.analysis.labels", None)  # its import fails
    assert main(["solve", str(tmp_path / "bad.py")]) == 2
    assert capsys.readouterr().err == worded and worded.startswith("mdp: error: game bad-value: ")
    assert worded.count("\n") == 1
