"""Files asked for are written whatever happens to standard output: a reader that goes away
before reading (a pipe closed), after a line (``| head -1``) or without reading (``| true``)
takes nothing with it; and a hang-up or SIGTERM in the middle of a write leaves no temporary
file."""

import contextlib
import io
import signal
import subprocess
import sys
from pathlib import Path

import pytest

# On one worker: the module's fixture (written) runs every command once.
pytestmark = pytest.mark.xdist_group("stdout-gone")

MDP = [sys.executable, "-m", "mdp.program.cli"]
SMALL = ["shutbox", "-s", "tiles=1-5"]

# Every command that writes files, with each file it writes (--out, --plot, beside them).
COMMANDS = {
    "policy": (["policy", *SMALL, "--out", "p.csv", "--json"], ["p.csv"]),
    "distribution": (["distribution", *SMALL, "--out", "d.csv", "--plot", "d.svg"], ["d.csv", "d.svg"]),
    "simulate": (["simulate", *SMALL, "--games", "50", "--seed", "1", "--out", "s.csv",
                  "--plot", "s.png"], ["s.csv", "s.png"]),
    "strategies": (["strategies", *SMALL, "--json"], []),
    "solve --vary": (["solve", "shutbox", "--vary", "tiles=1-4,1-5", "--out", "v.csv", "--json"], ["v.csv"]),
    "match --vary": (["match", "shutbox", "--vary", "tiles=1-4,1-5", "--out", "m.csv", "--json"], ["m.csv"]),
    "export": (["export", *SMALL, "--out", "e.prism"], ["e.prism", "e.prism.props"]),
    "report": (["report", *SMALL, "--out", "r.html"], ["r.html"]),
}

# How the reader of standard output goes away.
READERS = {
    "closed": None,  # the pipe's reading end closed before mdp starts
    "head": "head -1",
    "true": "true",
}


def _run(argv: list[str], folder: Path, reader: str | None, closed: bool) -> tuple[int, str]:
    """Run mdp in ``folder``; its exit code and standard error."""
    if closed:
        process = subprocess.Popen([*MDP, *argv], cwd=folder, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        process.stdout.close()
        return process.wait(timeout=120), process.stderr.read()
    # The shell's pipe: mdp's exit code, not the reader's; its stderr on a file.
    command = " ".join(map(_quoted, [*MDP, *argv])) + f" 2>stderr.txt | {reader}; exit ${{PIPESTATUS[0]}}"
    done = subprocess.run(["bash", "-c", command], cwd=folder, capture_output=True, text=True, timeout=120)
    return done.returncode, (folder / "stderr.txt").read_text()


def _quoted(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


def _complete(path: Path) -> bool:
    """Whether a picture or page is whole: it ends as its format ends."""
    data = path.read_bytes()
    if path.suffix == ".png":
        return data.startswith(b"\x89PNG") and data.endswith(b"IEND\xaeB`\x82")
    if path.suffix == ".svg":
        return data.rstrip().endswith(b"</svg>")
    return data.rstrip().endswith(b"</html>")


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """What each command writes when its standard output is read to the end: run in this
    process (a process of its own adds nothing to a reference the files are compared with)."""
    from mdp.program.cli import main

    found = {}
    for name, (argv, files) in COMMANDS.items():
        folder = tmp_path_factory.mktemp("reference")
        with contextlib.chdir(folder), contextlib.redirect_stdout(io.StringIO()):
            assert main(list(argv)) == 0, name
        found[name] = {file: (folder / file).read_bytes() for file in files}
    return found


# A process per case. A reader closed before mdp starts (every write fails) and one that
# reads a line first (the writes fail part way) differ in kind: every command with each.
# ``| true`` goes away at a moment no one knows, so it is one of those two each time: the
# shell's idiom, once.
CASES = [(name, reader) for name in COMMANDS for reader in ("closed", "head")] + [("policy", "true")]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "reader"), CASES)
def test_files_are_written_when_standard_output_goes_away(tmp_path, written, name, reader):
    argv, files = COMMANDS[name]
    code, err = _run(argv, tmp_path, READERS[reader], reader == "closed")
    assert code == 0, err
    assert "Traceback" not in err
    for file in files:
        path = tmp_path / file
        assert path.exists(), f"{file} was not written ({err})"
        if path.suffix in (".png", ".svg", ".html"):  # whole (drawn anew, they may differ)
            assert _complete(path), file
        else:  # the same bytes as with standard output read to the end
            assert path.read_bytes() == written[name][file], file
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


SLOW_FORMAT = '''
import sys, time
import mdp

def _write(frame, file):
    file.write(b"begun\\n")
    file.flush()
    print("writing", file=sys.stderr, flush=True)
    time.sleep(60)
    file.write(b"done\\n")

@mdp.hookimpl
def mdp_formats():
    return [mdp.Format("slow", (".slow",), _write, "a format that takes a minute")]
'''


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM])
def test_a_hang_up_in_the_middle_of_a_write_leaves_no_temporary_file(tmp_path, signum):
    (tmp_path / "slow.py").write_text(SLOW_FORMAT)
    process = subprocess.Popen([*MDP, "-p", "slow.py", "policy", *SMALL, "--out", "p.slow"],
                               cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        assert process.stderr.readline() == "writing\n"  # the temporary file is half-written
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".p.slow.")]
        process.send_signal(signum)
        code = process.wait(timeout=30)
    finally:
        process.kill()
    assert code == 130
    assert process.stderr.read() == "mdp: interrupted\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["slow.py"]


@pytest.mark.slow
def test_a_hang_up_ignored_is_ignored(tmp_path):
    # nohup mdp ...: SIGHUP ignored, the write goes on to its end.
    (tmp_path / "quick.py").write_text(SLOW_FORMAT.replace("time.sleep(60)", "time.sleep(1)"))
    process = subprocess.Popen(["nohup", *MDP, "-p", "quick.py", "policy", *SMALL, "--out", "p.slow"],
                               cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    assert process.stderr.readline().endswith("writing\n")
    process.send_signal(signal.SIGHUP)
    assert process.wait(timeout=30) == 0
    assert (tmp_path / "p.slow").read_text() == "begun\ndone\n"
