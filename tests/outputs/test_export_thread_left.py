"""A plugin's export that leaves part of its work to a thread or a process it started, still
running as it returns, is refused as a format is, and nothing is put in place: what is
written later may come after its files are moved into place, or never. Before: "19 states
written", half a model, exit 0, and the thread's traceback after it. What such a thread
raises later is one line naming the plugin, never Python's traceback."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]
GAME = str(ROOT / "docs" / "examples" / "reroll.py")

PLUGIN = """import subprocess
import sys
import threading
import time
import mdp


def write(model, path):
    open(path, "w").write("the model\\n")

    def late():  # more of the model, after the export returned
        time.sleep({delay})
        open(path, "a").write("more of the model\\n")

    {start}
    return [path]


@mdp.hookimpl
def mdp_exports():
    return [mdp.Export("late", "an export that leaves its work running", write)]
"""

STARTS = {
    "thread": "threading.Thread(target=late, name='late-writer').start()",
    "process": "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(0.5)'])",
    "joined": "thread = threading.Thread(target=late); thread.start(); thread.join()",
}


@pytest.mark.parametrize("left", sorted(STARTS))
def test_an_export_that_leaves_its_work_running_is_refused(tmp_path, capsys, left):
    if left == "process" and not os.path.isdir("/proc/self/task"):
        pytest.skip("children are listed in /proc")
    plugin = tmp_path / "late.py"
    plugin.write_text(PLUGIN.format(delay=0.01 if left == "joined" else 0.3, start=STARTS[left])
                      .replace('open(path, "a")',  # (a folder removed by then: its own)
                               '(open(path, "a") if os.path.exists(path) else open(os.devnull, "a"))')
                      .replace("import sys\n", "import os\nimport sys\n", 1))
    out = tmp_path / "m.out"
    code = main(["export", GAME, "-p", str(plugin), "--format", "late", "--out", str(out)])
    err = capsys.readouterr().err
    if left == "joined":  # waited for: the whole model, put in place
        assert code == 0, err
        assert out.read_text() == "the model\nmore of the model\n"
        return
    assert code == 2, err
    assert err.startswith(f"mdp: error: plugin {plugin}'s export late returned with a "
                          f"{'thread (late-writer)' if left == 'thread' else 'process (python'}")
    assert "it started still running; an export writes all of its files before it returns" in err
    assert sorted(os.listdir(tmp_path)) == ["late.py"]


@pytest.mark.slow  # a process of mdp: the thread raises as the program ends
def test_what_the_thread_of_a_refused_writer_raises_later_is_one_line_naming_it(tmp_path):
    plugin = tmp_path / "late.py"
    plugin.write_text(PLUGIN.format(delay=0.3, start=STARTS["thread"]))
    done = subprocess.run([sys.executable, "-m", "mdp", "export", GAME, "-p", "late.py",
                           "--format", "late", "--out", "m.out"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and len(lines) == 2, done.stderr
    assert lines[1].startswith("mdp: warning: plugin late.py's export late: its thread "
                               "late-writer raised FileNotFoundError: "), done.stderr
    assert sorted(os.listdir(tmp_path)) == ["late.py"]


def test_a_thread_started_later_with_a_refused_thread_s_ident_is_not_blamed_on_its_plugin(capsys):
    """A thread's ident is given again to a thread started once it has ended (in one process:
    the Python API's, or a test run's): a game's own thread that raised was named as the
    plugin's export whose thread, refused, had had its ident."""
    import threading
    from types import SimpleNamespace

    from mdp.program import guard

    refused = threading.Thread(target=lambda: None, name="late-writer")
    refused.start()
    refused.join()
    guard.started(refused, "plugin late.py's export late")
    later = threading.Thread(target=lambda: None, name="game-thread")
    later._ident = refused.ident  # as the system may give it again
    for thread, who in [(later, "game walk"), (refused, "plugin late.py's export late"), (None, "game walk")]:
        guard._who[0] = "game walk"
        try:
            guard._thread_raised(SimpleNamespace(exc_type=ZeroDivisionError, exc_value=ZeroDivisionError("x"),
                                                 thread=thread))
        finally:
            guard._who[0] = "a game or plugin"
        assert capsys.readouterr().err.startswith(f"mdp: warning: {who}: its thread "), who
