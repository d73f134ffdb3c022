"""A command's help and completion offer only the options it takes: ``mdp strategies``
values every strategy (no ``--strategy`` or ``--residual``), ``mdp variants`` solves every
variant (no ``--variant``), ``mdp simulate`` plays at random (no ``--exact``). Each listed
them and then refused them in every case ("does not apply"); now each is unknown to it, as
the arguments of every command that an analysis declares it never takes
(``Analysis.without``)."""

import pytest

import mdp
from mdp.analysis.registry import analyses
from mdp.program.cli import _parser, main

FLAGS = {"variant": ["--variant", "riddler"], "exact": ["--exact"], "strategy": ["--strategy", "random"],
         "residual": ["--residual", "0.001"]}
NEVER = [(name, flag) for name, analysis in analyses().items() for flag in analysis.without] + \
    [("variants", "variant")]


def _help(name):
    return _parser(name)._subparsers._group_actions[0].choices[name].format_help()


def test_each_of_the_known_cases_is_declared():
    assert {("strategies", "strategy"), ("strategies", "residual"), ("simulate", "exact"),
            ("variants", "variant")} <= set(NEVER)


@pytest.mark.parametrize(("name", "flag"), NEVER)
def test_an_option_a_command_never_takes_is_not_offered(capsys, name, flag):
    assert f"--{flag}" not in _help(name)
    assert main(["__complete", name, "shutbox", f"--{flag[:3]}"]) == 0
    assert f"--{flag}" not in capsys.readouterr().out.split()
    with pytest.raises(SystemExit) as exit_:  # argparse's own refusal of an unknown option
        main([name, "shutbox", "--games", "10", *FLAGS[flag]] if name == "simulate"
             else [name, "shutbox", *FLAGS[flag]])
    assert exit_.value.code == 2
    assert f"unrecognized arguments: --{flag}" in capsys.readouterr().err


@pytest.mark.parametrize("name", sorted({name for name, _ in NEVER}))
def test_the_options_left_are_offered(name):
    offered = {flag for flag in FLAGS if f"--{flag} " in _help(name) or f"--{flag}\n" in _help(name)
               or f"--{flag}]" in _help(name)}
    assert offered == set(FLAGS) - {flag for n, flag in NEVER if n == name}, _help(name)


@pytest.mark.parametrize("name", ["--exact", "nosuch", "out", "json", "game", "max_states"])
def test_an_analysis_leaves_out_only_the_options_it_may(name):
    # Before: a name that is no such option was taken and did nothing (the option stayed).
    with pytest.raises(ValueError, match=rf"without names '{name}', none of the options a "
                       r"command may leave out \(variant, exact, residual, strategy\)"):
        mdp.Analysis("odd", "an analysis", lambda solution, game: None, without=(name,))


HELPS = '''
import mdp

def _run(args):
    return 0

@mdp.hookimpl
def mdp_commands():
    return [mdp.Command("pc", HELP, _run)]  # its own arguments' help: argparse's, with %(default)s

@mdp.hookimpl
def mdp_analyses():
    return [mdp.Analysis("pa", HELP, lambda solution, game, y: None,
                         [mdp.Param("y", "5", str, HELP)])]
'''


@pytest.mark.parametrize("text", ["share in %", "100% sure", "%(prog)s", "50%%", "%s %d %(default)s"])
def test_a_plugins_help_is_shown_as_written(tmp_path, capsys, text):
    # Before: "share in %" was a traceback of argparse's format, "100% sure" showed argparse's
    # own record of the option ("100{'option_strings': ...").
    plugin = tmp_path / "pct.py"
    plugin.write_text(HELPS.replace("HELP", repr(text)))
    for argv in (["--help"], ["pc", "--help"], ["pa", "--help"]):
        with pytest.raises(SystemExit) as exit_:
            main(["-p", str(plugin), *argv])
        assert exit_.value.code == 0
        out = capsys.readouterr().out
        assert "option_strings" not in out, out
        if "%(prog)" not in text or argv[0] == "--help":  # a description's %(prog)s: argparse's
            assert text in out, out
