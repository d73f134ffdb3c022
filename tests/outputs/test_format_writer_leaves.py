"""A plugin's format whose writer does something else to the file it is given than write it
(closes it, removes or renames it, leaves a folder or a link in its place) is refused in one
line that blames the format, and nothing is left. Before, a folder or a link in place of the
temporary file gave "2 rows written", exit 0, and no table; the others blamed the user's
target ("p.weird: cannot write: Bad file descriptor")."""

import itertools
import os
from pathlib import Path

import pytest

from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]

PLUGIN = """import os
import mdp


def write(frame, file):
    {wrote}
    file.flush()
    name = os.readlink(f"/proc/self/fd/{{file.fileno()}}")  # the name, as a writer finds it
    {misdeed}


@mdp.hookimpl
def mdp_formats():
    return [mdp.Format("weird", (".weird",), write, "a weird format")]
"""

# What the writer does, and what the line says it did.
MISDEEDS = {
    "os.unlink(name); os.mkdir(name)": "made a folder where it was to write a file",
    "os.unlink(name); os.symlink('/etc/hostname', name)": "made a symbolic link where it was to write a file",
    "os.unlink(name); os.mkfifo(name)": "made a named pipe (FIFO) where it was to write a file",
    "os.unlink(name)": "removed or renamed the file it was writing",
    "os.unlink(name); open(name, 'w').write('other')": "replaced the file it was writing",
    "os.close(file.fileno())": "closed the file it was writing",
    "file.detach()": "closed the file it was writing",  # was a traceback (raw stream detached)
}

# How it wrote first: through the file object, or past it through its descriptor (then closed,
# that was "wrote nothing of a table of 33 rows").
WROTE = ["frame.write_csv(file)", "os.write(file.fileno(), frame.write_csv().encode())"]


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="the writer finds its file's name in /proc")
@pytest.mark.parametrize(("misdeed", "wrote", "old"),
                         [(misdeed, wrote, n % 2 == 0) for n, (misdeed, wrote) in
                          enumerate(itertools.product(sorted(MISDEEDS), WROTE))])
@pytest.mark.slow  # half a second or more of CPU
def test_a_writer_that_does_other_than_write_its_file_is_blamed(tmp_path_factory, capsys, misdeed,
                                                                 old, wrote):
    where = tmp_path_factory.mktemp("weird")
    plugin = where / "fmt.py"
    plugin.write_text(PLUGIN.format(misdeed=misdeed, wrote=wrote))
    out = where / "p.weird"
    if old:
        out.write_text("keep")
    code = main(["policy", str(ROOT / "docs" / "examples" / "reroll.py"), "-p", str(plugin),
                 "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err == (f"mdp: error: plugin {plugin}'s format weird {MISDEEDS[misdeed]}; it writes "
                   f"{out} through the file it is given\n")
    assert sorted(os.listdir(where)) == sorted(["fmt.py", *(["p.weird"] if old else [])])
    if old:
        assert out.read_text() == "keep"


EMPTIED = ["file.seek(0); file.truncate()",  # was "2 rows written", exit 0, the old file lost
           "open(file.fileno(), 'wb').close()",  # a file of its own on mdp's descriptor, closed
           "file.truncate(0)"]


@pytest.mark.slow
@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="the writer finds its file's name in /proc")
@pytest.mark.parametrize("misdeed", EMPTIED)
def test_a_writer_that_empties_its_file_wrote_nothing(tmp_path, capsys, misdeed):
    plugin = tmp_path / "fmt.py"
    plugin.write_text(PLUGIN.format(misdeed=misdeed, wrote=WROTE[0]))
    out = tmp_path / "p.weird"
    out.write_text("keep")
    code = main(["policy", str(ROOT / "docs" / "examples" / "reroll.py"), "-p", str(plugin),
                 "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.startswith(f"mdp: error: plugin {plugin}'s format weird "), err
    assert "Traceback" not in err and "p.weird: cannot write" not in err
    assert sorted(os.listdir(tmp_path)) == ["fmt.py", "p.weird"]
    assert out.read_text() == "keep"


STREAM = """import mdp


def write(frame, file):
    frame.write_csv(file)


def stream(pieces, file):
    for _ in range({times}):
        for piece in pieces:
            piece.write_csv(file)


@mdp.hookimpl
def mdp_formats():
    return [mdp.Format("twice", (".twice",), write, "a stream", stream=stream)]
"""


@pytest.mark.parametrize("times", [2, 3])
def test_a_stream_that_takes_the_pieces_more_than_once_is_refused(tmp_path, capsys, times):
    """Every row written twice was "N rows written", exit 0."""
    plugin = tmp_path / "fmt.py"
    plugin.write_text(STREAM.format(times=times))
    out = tmp_path / "p.twice"
    code = main(["policy", str(ROOT / "docs" / "examples" / "reroll.py"), "-p", str(plugin),
                 "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err == (f"mdp: error: plugin {plugin}'s format twice took the pieces of the policy "
                   f"table {times} times; a stream writes each piece it is given once (for piece "
                   "in pieces: ...)\n")
    assert not out.exists()
