"""A plugin's analysis named like one of mdp's commands or analyses in other capitals or
shown alike (``Solve``, full-width ``ＳＯＬＶＥ``), and an analysis's option named like an
argument the command has already (``Exact`` beside ``--exact``), are refused naming the
plugin, as the same names written the same way were: they were taken side by side (``mdp
Solve`` ran the plugin's table where the user meant the solve; ``--Exact 3`` beside
``--exact``)."""

import pytest

from mdp.program import main
from mdp.program.cli import _parser, commands_and_analyses
from mdp.program.registry import add_given, drop_given

FULL_WIDTH = {c: chr(ord(c) + 0xFEE0) for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"}
PLUGIN = '''
import mdp


@mdp.hookimpl
def mdp_analyses():
    return [mdp.Analysis({name!r}, "a plugin's table", lambda solution, game, **options: None,
                         [mdp.Param({option!r}, 5, mdp.parse_int(1), "an option")])]
'''


def _forms(name):
    return [name.upper(), name.title(), "".join(FULL_WIDTH.get(c, c) for c in name)]


def _plugin(tmp_path, name, option="top"):
    path = tmp_path / "alike.py"
    path.write_text(PLUGIN.format(name=name, option=option))
    return str(path)


def _error(capsys, argv):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert not out and err.count("\n") == 1, err
    return err


@pytest.mark.slow  # its cases take a second of CPU or more in all
@pytest.mark.parametrize("name", sorted(commands_and_analyses()))
def test_an_analysis_alike_a_command_or_analysis_of_mdp_is_refused(tmp_path, capsys, name):
    for form in _forms(name):
        if form == name:
            continue
        err = _error(capsys, ["-p", _plugin(tmp_path, form), "formats"])
        assert f"{name!r} and {form!r}, which read alike" in err, err
        assert f"plugin {tmp_path / 'alike.py'}" in err, err


def _arguments(tmp_path):
    """The arguments the command of the plugin's analysis has (their values' names)."""
    add_given([_plugin(tmp_path, "tabled")])
    try:
        program = _parser("tabled")
    finally:
        drop_given()
    command = next(a for a in program._actions if a.choices).choices["tabled"]
    return sorted({a.dest for a in command._actions} - {"help", "top"})


@pytest.mark.slow  # its cases take a second of CPU or more in all
def test_an_option_alike_an_argument_of_the_command_is_refused(tmp_path, capsys):
    arguments = _arguments(tmp_path)
    assert {"exact", "out", "json", "game", "format"} <= set(arguments), arguments
    for argument, form in ((a, f) for a in arguments for f in _forms(a) if f != a):
        err = _error(capsys, ["-p", _plugin(tmp_path, "tabled", form), "tabled", "--help"])
        assert f"option {form} clashes with the command's argument" in err, err
        assert f"(read alike: {form} and {argument})" in err, err
