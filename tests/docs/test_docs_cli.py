"""docs/cli.rst against mdp/cli.py: every command, option, JSON key and exit code, both ways."""

import json
import os
import re
import signal
import time
from pathlib import Path

import pytest

import mdp
import mdp.program.cli

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "cli.rst").read_text()
REROLL = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "reroll.py")
HELP = {"-h", "--help"}


def _sections(text: str) -> dict[str, str]:
    """Each section's title mapped to its text up to the next title of any level."""
    titles = list(re.finditer(r"^(\S.*)\n([-=~^'])\2+$", text, flags=re.MULTILINE))
    ends = [m.start() for m in titles[1:]] + [len(text)]
    return {m.group(1): text[m.end():end] for m, end in zip(titles, ends)}


def _documented_options(section: str) -> set[str]:
    """The options named in the terms of the section's definition lists (``--exact``)."""
    terms = re.findall(r"^``-.*$", section, flags=re.MULTILINE)
    return {option for term in terms for option in re.findall(r"``(-[-\w]+)", term)}


def _options(parser) -> list[tuple[object, list[str]]]:
    return [(action, action.option_strings) for action in parser._actions if action.option_strings]


SECTIONS = _sections(PAGE)
PARSER = mdp.program.cli._parser()
COMMANDS = PARSER._subparsers._group_actions[0].choices
PAGE_COMMANDS = {
    match.group(1): body
    for title, body in SECTIONS.items()
    if (match := re.fullmatch(r"``mdp (\w+)(?: GAME| SHELL)?``", title))
}


def test_page_has_a_section_for_every_command_and_no_other():
    assert set(PAGE_COMMANDS) == set(COMMANDS)


def test_global_options_are_documented():
    documented = _documented_options(SECTIONS["Global options"])
    top = {option for _, options in _options(PARSER) for option in options}
    assert top | HELP == documented


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_option_of_a_command_is_in_its_section(name):
    """An option shared with ``mdp solve`` (the game's arguments of :mod:`mdp.program.arguments`) is
    documented once under solve; the command's section must then say so."""
    own = _documented_options(PAGE_COMMANDS[name])
    shared = _documented_options(PAGE_COMMANDS["solve"])
    solve_options = {option for _, options in _options(COMMANDS["solve"]) for option in options}
    for _, options in _options(COMMANDS[name]):
        for option in options:
            if option in HELP:
                continue  # every command takes --help: documented under Global options
            if name != "solve" and option in solve_options and option not in own:
                assert "every option of ``mdp solve``" in PAGE_COMMANDS[name], (name, option)
                assert option in shared, (name, option)
            else:
                assert option in own, (name, option)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_no_documented_option_is_missing_from_the_parser(name):
    real = {option for _, options in _options(COMMANDS[name]) for option in options}
    assert _documented_options(PAGE_COMMANDS[name]) <= real


def _json_keys(section: str) -> list[str]:
    return re.findall(r"^``(\w+)``$", section, flags=re.MULTILINE)


def test_json_keys_on_the_page_are_those_printed(capsys):
    documented = _json_keys(SECTIONS["JSON output"])
    assert mdp.program.cli.main(["solve", REROLL, "--exact", "--json"]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert mdp.program.cli.main(["policy", REROLL, "--exact", "--json"]) == 0
    policy = json.loads(capsys.readouterr().out)
    assert list(solved) == [key for key in documented if key in solved]
    assert list(policy) == documented  # the solve keys in order, then rows, columns, out


def test_exit_codes_on_the_page_are_the_real_ones(capsys, monkeypatch):
    codes = set(re.findall(r"^``(\d+)``$", SECTIONS["Exit codes"], flags=re.MULTILINE))
    assert codes == {"0", "1", "2", "3", "130"}  # 1: a bug, a traceback
    assert mdp.program.cli.main(["solve", REROLL]) == 0
    assert mdp.program.cli.main(["policy", REROLL, "--out", "policy.txt"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("mdp: error: policy.txt: unknown file type") and error.count("\n") == 1

    def interrupted(*args, **kwargs):  # the user's Ctrl-C, while it solves
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)

    monkeypatch.setattr(mdp, "solve", interrupted)
    assert mdp.program.cli.main(["solve", REROLL]) == 130
    assert capsys.readouterr().err == "mdp: interrupted\n"


# docs/examples/reroll.py with one hook broken, as the page's section on faults says.
_BEFORE_ROLL = "    rolls_left, face = state\n    if face is None:"
BROKEN_REROLL = {
    "raises": ("        return [(1, (0, face))]", "        return [(1, (0, face / 0))]"),
    "exits": (_BEFORE_ROLL, "    rolls_left, face = state\n    if rolls_left == 1:\n"
              "        raise SystemExit(1)\n    if face is None:"),
    "interrupts": (_BEFORE_ROLL, "    rolls_left, face = state\n    if rolls_left == 1:\n"
                   "        raise KeyboardInterrupt\n    if face is None:"),
    "wrong kind": ('        return ["roll"]', '        return "roll"'),
    "not finite": ("    return face\n", '    return float("nan") if face == 6 else face\n'),
    # The other order the second time a state is asked.
    "reorders": ('    return ["keep", "roll"] if rolls_left > 0 else []',
                 '    actions = ["keep", "roll"] if rolls_left > 0 else []\n'
                 '    ASKED[state] = ASKED.get(state, 0) + 1\n'
                 '    return actions[::-1] if ASKED[state] == 2 and state == (1, 2) else actions'),
}


@pytest.mark.parametrize("fault", BROKEN_REROLL)
def test_each_fault_on_the_page_is_the_line_printed(tmp_path, capsys, fault):
    old, new = BROKEN_REROLL[fault]
    source = Path(REROLL).read_text()
    assert old in source
    path = tmp_path / f"reroll_{fault.replace(' ', '_')}.py"
    path.write_text(source.replace(old, new) + "\nASKED = {}\n")
    assert mdp.program.cli.main(["policy", str(path), "--out", str(tmp_path / "p.csv")]) == 2
    line = capsys.readouterr().err
    assert line.count("\n") == 1
    assert f"\n      {line}" in SECTIONS["What each fault reports"], line
    assert not (tmp_path / "p.csv").exists()


# Lines the page shows, each with the arguments and environment that print it.
_THOUSAND = ",".join(["1"] * 1000)
PAGE_LINES = {
    "vary": ("Exit codes", ["solve", "shutbox", "--vary", f"dice={_THOUSAND}", "--vary",
                            f"faces={_THOUSAND}"], {}, 3),
    "state twice": ("Exit codes", ["advise", "shutbox", "open=1 2", "open=1 2 3", "roll=3"], {}, 2),
    "MDP_THREADS": ("Environment", ["solve", REROLL], {"MDP_THREADS": "²"}, 2),
    "POLARS_MAX_THREADS": ("Environment", ["solve", REROLL], {"POLARS_MAX_THREADS": "0"}, 2),
}


@pytest.mark.parametrize("case", PAGE_LINES)
def test_each_line_on_the_page_is_the_line_printed(capsys, monkeypatch, case):
    section, argv, environment, code = PAGE_LINES[case]
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert mdp.program.cli.main(argv) == code
    line = capsys.readouterr().err
    assert line.count("\n") == 1
    assert f"\n      {line}" in SECTIONS[section], line
