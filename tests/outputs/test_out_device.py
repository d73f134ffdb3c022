"""A device is written into, never replaced, whatever the format: ``--out /dev/null`` takes a
table of every format and says how many rows went there, exit 0 (round 18, R18-N12: every
format was refused as having "written nothing", a device's size being 0 whatever it was given,
since round 17's check of a writer that empties its file; that check is for regular files)."""

import os

import pytest

import mdp
from mdp.outputs.registry import formats
from mdp.program.cli import main


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="no /dev/null here")
@pytest.mark.parametrize("name", sorted(formats()))
@pytest.mark.parametrize("command", [["policy", "shutbox", "--set", "tiles=1-3"],
                                     ["simulate", "shutbox", "--games", "50", "--seed", "1"]])
def test_every_format_writes_into_dev_null(name, command, capsys):
    assert main([*command, "--out", "/dev/null", "--format", name]) == 0
    err = capsys.readouterr().err
    assert "rows written to /dev/null" in err and "error" not in err


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="no /dev/null here")
def test_an_export_with_a_file_beside_is_refused_a_device(capsys, monkeypatch):
    # Before: --out /dev/null made a regular file /dev/null.props beside the device (R19-N14).
    monkeypatch.setattr(mdp, "compile", lambda *a, **k: pytest.fail("compiled before the refusal"))
    assert main(["export", "shutbox", "--set", "tiles=1-3", "--out", "/dev/null"]) == 2
    assert capsys.readouterr().err == ("mdp: error: --out /dev/null is no file, and export prism "
                                       "writes /dev/null.props beside it too: name a file\n")
    assert not os.path.exists("/dev/null.props")
