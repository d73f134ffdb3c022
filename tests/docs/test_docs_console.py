"""Every ``$ mdp ...`` example of the docs' console blocks that shows what it prints prints
that (round 18, R18-N16: the quick start's policy rows, Reroll's policy and the list of games
had drifted from what the commands print). Each runs in this process, in a folder where
``games`` and ``docs`` are the tree's, its pipe (``head``, ``tail``, ``sed -n``, ``grep -E``,
``python -m json.tool``) applied here; the seconds a command took are not compared. Examples
that take minutes (whole Yahtzee, a million games) are left to their own tests."""

import json
import re
import shlex
from pathlib import Path

import pytest

from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]
# (``mdp solve reroll.py`` is run in the reader's own folder, where they wrote the file.)
SLOW = ("--variant full", "--games 1000000", "--variant yatzy", "report yahtzee",
        "export yahtzee", "--games 100000")


def _examples():
    for page in sorted((ROOT / "docs").glob("*.rst")):
        text = page.read_text()
        for block in re.finditer(r"^( *)\.\. code-block:: console\n\n((?:\1   .*\n|\n)+)", text,
                                 re.MULTILINE):
            indent = block.group(1) + "   "
            lines = [line[len(indent):] for line in block.group(2).rstrip("\n").split("\n")]
            command, shown = None, []
            for line in [*lines, "$ "]:
                if line.startswith("$ "):
                    if command and shown and command.startswith("mdp ") and \
                            not command.startswith("mdp solve reroll.py") and \
                            not any(slow in command for slow in SLOW) and "\\" not in command:
                        yield pytest.param(command, shown, id=f"{page.name}: {command[:60]}")
                    command, shown = line[2:], []
                elif command is not None:
                    shown.append(line)


def _piped(text, pipe):
    lines = text.splitlines()
    words = shlex.split(pipe)
    if words[0] == "head":
        return lines[:int(words[1].lstrip("-n "))]
    if words[0] == "tail":
        return lines[-int(words[1].lstrip("-n ")):]
    if words[:2] == ["sed", "-n"]:
        return [lines[int(words[2].rstrip("p")) - 1]]
    if words[0] == "grep":
        return [line for line in lines if re.search(words[-1], line)]
    if words[:3] == ["python", "-m", "json.tool"]:
        return json.dumps(json.loads(text), indent=4).splitlines()
    raise AssertionError(f"a pipe the test does not know: {pipe}")


def _plain(lines):
    """The lines without the seconds a command took, blanks at their ends or blank lines
    after them, and each long float to 12 digits (a value iteration's last digits)."""
    def digits(found):
        return f"{float(found.group()):.12g}"

    lines = [re.sub(r"\d\.\d{12,}", digits, re.sub(r'\b\d+\.\d+ s\b|"seconds": [\d.]+', "N s",
                                                     line)).rstrip() for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


@pytest.mark.slow
@pytest.mark.parametrize("command, shown", list(_examples()))
def test_every_console_example_prints_what_its_page_shows(command, shown, tmp_path, monkeypatch,
                                                          capsys):
    monkeypatch.chdir(tmp_path)
    for name in ("games", "docs"):
        (tmp_path / name).symlink_to(ROOT / name)
    command = command.split("  #")[0]
    first, *pipes = command.split(" | ")
    code = main(shlex.split(first)[1:])
    out, err = capsys.readouterr()
    text = "\n".join(out.splitlines() + err.splitlines())
    for pipe in pipes:
        text = "\n".join(_piped(text, pipe))
    assert code in (0, 2, 3) and _plain(text.splitlines()) == _plain(shown)
