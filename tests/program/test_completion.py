"""Shell completion: the completer behind ``mdp __complete`` for each kind of word, and the
scripts of ``mdp completion`` run in real bash, zsh and fish where they are installed."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_cli import heavy_imports

import mdp
import mdp.program.registry
from mdp.program.builtins.completion import SCRIPTS, complete
from mdp.program.cli import _parser, main
from mdp.program.registry import plugins

ROOT = Path(__file__).resolve().parents[2]
SHUTBOX = str(ROOT / "games" / "shutbox")


def words(*typed):
    """The candidate words for the last of ``typed``."""
    return [word for word, _ in complete(list(typed), _parser).words]


def test_a_command_is_completed_from_every_command_on_offer():
    assert words("s") == ["solve", "simulate", "strategies"]
    assert words("co") == ["completion"]
    assert words("-") == ["--help", "--version", "--plugin"]


def test_a_plugin_given_with_p_is_a_file_and_is_passed_over_wherever_it_stands():
    assert complete(["--plugin", ""], _parser).files
    assert complete(["policy", "shutbox", "-p", ""], _parser).files
    # The game is shutbox, not the plugin's file: its variants are offered.
    assert "twelve-box" in words("solve", "-p", "rule.py", "shutbox", "--variant", "")


def test_what_the_plugins_on_the_line_add_is_completed(tmp_path):
    # Round 32, P32-19: -p was passed over: a rule plugin's parameters, variants and
    # strategies, and a program plugin's commands, options and formats, were not offered.
    rule = tmp_path / "house.py"
    rule.write_text('import mdp\n\nGAME = "reroll"\n\n\n@mdp.hookimpl\ndef mdp_params():\n'
                    '    return [mdp.Param("bonus", 0, int, "points added")]\n\n\n@mdp.hookimpl\n'
                    'def mdp_variants():\n    return [mdp.Variant("two", {"rolls": "2"}, "two rolls")]\n\n\n'
                    '@mdp.hookimpl\ndef mdp_strategies():\n    return [mdp.Strategy.per_state('
                    '"first", "keeps the first roll", lambda state, action: [1, 0])]\n')
    reroll = str(ROOT / "docs" / "examples" / "reroll.py")
    assert words("solve", reroll, "-p", str(rule), "--variant", "") == ["two"]
    assert "bonus=" in words("solve", "-p", str(rule), reroll, "--set", "")
    assert "first" in words("solve", reroll, "--plugin", str(rule), "--strategy", "")
    blunders = str(ROOT / "docs" / "examples" / "blunders.py")
    assert "blunders" in words("-p", blunders, "")
    assert words("-p", blunders, "blunders", "shutbox", "--t") == ["--top"]
    assert "tsv" in words("policy", "shutbox", "-p", blunders, "--format", "")
    assert "blunders" not in words("")  # given for the line alone


def test_the_options_of_a_command_are_its_parser_s():
    # mdp policy: the game's options, the output options, its own --optimal-only.
    assert words("policy", "shutbox", "--o") == ["--out", "--optimal-only"]
    assert words("policy", "shutbox", "--ma") == ["--max-states", "--max-memory", "--maximize"]
    # Short options once typed; a long option's beginning as argparse takes it.
    assert words("policy", "shutbox", "-s") == ["-s"]
    assert words("simulate", "shutbox", "--gam") == ["--games"]
    sub = _parser("advise")._subparsers._group_actions[0].choices["advise"]
    longs = [s for a in sub._actions for s in a.option_strings if s.startswith("--")]
    assert words("advise", "shutbox", "--") == longs


def test_a_plugin_s_command_and_analysis_and_their_options_are_completed():
    class Plugin:
        @mdp.hookimpl
        def mdp_commands(self):
            def arguments(parser):
                parser.add_argument("game")
                parser.add_argument("--colour", choices=["red", "blue"], default="red",
                                    help="the colour (default: %(default)s)")

            return [mdp.Command("rules", "the rules in words", lambda args: None, arguments)]

        @mdp.hookimpl
        def mdp_analyses(self):
            return [mdp.Analysis("choices", "choices per decision", lambda s, g, at_least: None,
                                 [mdp.Param("at_least", 1, mdp.parse_int(1), "keep these")])]

    plugin = Plugin()
    plugins().register(plugin, name="completion-test")
    try:
        assert words("r") == ["report", "rules"]
        assert complete(["rules", "shutbox", "--c"], _parser).words == (
            ("--colour", "the colour (default: red)"),)
        assert words("rules", "shutbox", "--colour", "") == ["red", "blue"]
        assert words("rules", "shutbox", "--colour=b") == ["--colour=blue"]
        assert words("rules", "sh") == ["shutbox"]
        assert words("choices", "shutbox", "--at") == ["--at-least"]
    finally:
        plugins().unregister(plugin)


def test_a_game_is_an_installed_name_or_a_path():
    found = complete(["solve", "sh"], _parser)
    assert [w for w, _ in found.words] == ["shutbox"] and found.files and found.prefix == ""
    assert words("policy", "y") == ["yahtzee"]
    assert complete(["solve", "games/sh"], _parser).files


def test_variants_are_the_typed_game_s_plugins_ones_too():
    # games/shutbox/variants.toml, then those of the rule plugins: doubles-extra of doubles,
    # max-two-flips of flip_limit.
    assert words("solve", "shutbox", "--variant", "") == [
        "riddler", "durango", "two-dice", "fiddler", "ten-box", "twelve-box", "twelve-box-321",
        "doubles-extra", "max-two-flips"]
    assert words("solve", SHUTBOX, "--variant", "t") == [
        "two-dice", "ten-box", "twelve-box", "twelve-box-321"]
    assert words("solve", "shutbox", "--exact", "--variant=f") == ["--variant=fiddler"]


def test_set_and_vary_complete_the_game_s_parameter_names():
    assert words("solve", "shutbox", "--set", "one") == ["one_die=", "one_die_mode="]
    assert words("solve", "shutbox", "-s", "max") == ["max_flips="]  # the flip_limit plugin's
    assert words("solve", "shutbox", "--vary", "sh") == ["shut_pays=", "shut_wins="]
    assert words("solve", "yahtzee", "--set", "tiles") == []


def test_format_names_and_an_export_s_choices():
    assert words("policy", "shutbox", "--format", "") == ["csv", "parquet", "json", "ndjson", "markdown"]
    assert words("policy", "shutbox", "-f", "n") == ["ndjson"]
    assert words("export", "shutbox", "--format", "") == ["prism"]


def test_strategies_of_the_game_with_optimal_play():
    assert words("solve", "shutbox", "--strategy", "") == [
        "optimal", "random", "fewest-tiles", "shortest", "longest"]
    assert words("distribution", "shutbox", "--set", "tiles=1-6", "--strategy", "f") == ["fewest-tiles"]
    # A game played in rounds: the engine's greedy, then the game's own.
    assert words("simulate", "yahtzee", "--variant", "full", "--strategy", "") == [
        "optimal", "greedy", "greedy-bonus"]


def test_against_completes_the_strategies_as_strategy_does_in_every_command_taking_it():
    # Before: --against '' completed nothing.
    taking = [name for name, command in mdp.program.registry.commands_and_analyses().items()
              if any(getattr(o, "name", None) == "against" for o in getattr(command, "options", ()))]
    assert {"distribution", "simulate", "advise", "lengths"} <= set(taking)
    for name in taking:
        assert words(name, "pig", "--against", "") == words(name, "pig", "--strategy", "") == [
            "optimal", "hold-at-20", "hold-at-25"]
        assert words(name, "pig", "--against=h") == ["--against=hold-at-20", "--against=hold-at-25"]


def test_a_file_is_completed_where_a_file_is_asked_for():
    found = complete(["policy", "shutbox", "--out", "po"], _parser)
    assert found.words == () and found.files and found.prefix == ""
    found = complete(["report", "shutbox", "--out=po"], _parser)
    assert found.files and found.prefix == "--out="
    assert not complete(["solve", "shutbox", "--max-states", "1"], _parser).files
    assert words("completion", "") == ["bash", "zsh", "fish"]


def test_a_game_that_does_not_load_or_an_unknown_command_completes_nothing(capsys):
    assert words("solve", "nosuchgame", "--variant", "") == []
    assert words("solve", "shutbox", "--set", "tiles=0", "--strategy", "") == []
    assert main(["__complete", "solve", "nosuchgame", "--variant", ""]) == 0
    assert capsys.readouterr() == ("words\n", "")


def test_the_answer_is_a_head_line_then_a_word_and_its_description_a_line(capsys):
    assert main(["__complete", "solve", "shutbox", "--variant", "fid"]) == 0
    assert capsys.readouterr().out == "words\nfiddler\ttiles 1-6, always one die\n"
    assert main(["__complete", "report", "shutbox", "--out=x"]) == 0
    assert capsys.readouterr().out == "files\t--out=\n"


def test_completing_commands_options_and_formats_imports_neither_numpy_nor_polars(tmp_path):
    out = heavy_imports(tmp_path, "for typed in ([''], ['solve', '--'], ['policy', 'x', '--format', '']):\n"
                                  "    main(['__complete', *typed])")
    assert "markdown" in out and "--max-states" in out
    assert out.strip().splitlines()[-1] == "[]"


# The scripts, in the shells themselves: the mdp installed beside this Python is run.

BIN = Path(sys.executable).parent
ENV = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
needs_mdp = pytest.mark.skipif(not (BIN / "mdp").exists(), reason="mdp is not installed beside Python")


def test_the_completion_command_prints_the_script(capsys):
    assert main(["completion", "fish"]) == 0
    assert capsys.readouterr().out == SCRIPTS["fish"]


BASH_CASES = [
    # (COMP_WORDS after mdp, as bash splits them at "="; COMPREPLY)
    (["so"], ["solve"]),
    (["solve", "shutbox", "--variant", "t"], ["two-dice", "ten-box", "twelve-box", "twelve-box-321"]),
    (["solve", "shutbox", "--variant", "=", "fi"], ["fiddler"]),  # --variant=fi: after "=" alone
    (["solve", "shutbox", "--set", "one_die_"], ["one_die_mode="]),
    (["solve", "shutbox", "--set", "tiles", "="], []),
    (["policy", "shutbox", "-f", ""], ["csv", "parquet", "json", "ndjson", "markdown"]),
    (["policy", "shutbox", "--out", "=", "sub/fi"], ["sub/file.csv"]),
    (["solve", "sh"], ["shutbox"]),
    (["solve", "su"], ["sub"]),
]


@pytest.mark.slow
@needs_mdp
@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
@pytest.mark.parametrize(("typed", "expected"), BASH_CASES)
def test_bash_completes_from_the_script(tmp_path, typed, expected):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "file.csv").write_text("")
    script = ('eval "$(mdp completion bash)"\nCOMP_WORDS=(mdp "$@")\n'
              "COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))\n_mdp\nprintf '%s\\n' \"${COMPREPLY[@]}\"")
    done = subprocess.run(["bash", "-c", script, "bash", *typed], capture_output=True, text=True,
                          cwd=tmp_path, env=ENV, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == expected


@needs_mdp
@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_completes_from_the_script(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "file.csv").write_text("")
    script = ("mdp completion fish | source\n"
              "for line in 'mdp so' 'mdp solve shutbox --variant=fi' 'mdp solve shutbox --set one_die_' "
              "'mdp policy shutbox --out sub/f' 'mdp report shutbox --out=sub/f'\n"
              "    complete -C$line\nend")
    done = subprocess.run(["fish", "--no-config", "-c", script], capture_output=True, text=True,
                          cwd=tmp_path, env=ENV, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "solve\tthe value of a game under optimal play",
        "--variant=fiddler\ttiles 1-6, always one die",
        "one_die_mode=\tchoice: the player may roll one die; forced: the player must",
        "sub/file.csv", "--out=sub/file.csv"]


# An interactive zsh on a pseudo-terminal (zsh's own zpty) with the script as _mdp on $fpath:
# each line is typed with its Tabs, then run as the arguments of p, which prints them
# (GOT[...], written so that the shell's echo of the definition does not show it).
ZPTY = r"""
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "fpath=($1 \$fpath); autoload -Uz compinit; compinit -u; p() { print -r -- \"GOT\"\"[\$*]\" }"
shift
for typed in "$@"; do
    zpty -n -w z "$typed"$'\C-ap \n'
done
zpty -w z 'print DONE-$((6*7))'
zpty -r -m z all '*DONE-42*'
print -r -- "$all"
"""


@needs_mdp
@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_zsh_completes_from_the_script(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "file.csv").write_text("")
    (tmp_path / "functions").mkdir()
    (tmp_path / "functions" / "_mdp").write_text(SCRIPTS["zsh"])
    assert subprocess.run(["zsh", "-n", str(tmp_path / "functions" / "_mdp")], timeout=60).returncode == 0
    typed = ["mdp so\tshutbox", "mdp solve shutbox --variant fid\t--exact",
             "mdp solve shutbox --set one_die_m\tchoice",
             "mdp report shutbox --out=sub/f\t"]
    done = subprocess.run(["zsh", "-f", "-c", ZPTY, "zsh", str(tmp_path / "functions"),
                           *typed],
                          capture_output=True, text=True, cwd=tmp_path, env=ENV, timeout=60)
    assert done.returncode == 0, done.stderr
    assert re.findall(r"GOT\[(.*?)\]", done.stdout) == [
        "mdp solve shutbox", "mdp solve shutbox --variant fiddler --exact",
        "mdp solve shutbox --set one_die_mode=choice", "mdp report shutbox --out=sub/file.csv"]


NOISY = '''
import mdp

@mdp.hookimpl
def mdp_commands():
    print("echo PRINTED-BY-A-PLUGIN")
    return []

@mdp.hookimpl
def mdp_analyses():
    print("echo PRINTED-BY-A-PLUGIN")
    return []
'''


@pytest.mark.slow  # its cases take a second of CPU or more in all
@pytest.mark.parametrize("argv", [["completion", "bash"], ["completion", "zsh"], ["completion", "fish"], []])
def test_what_a_plugin_prints_never_joins_the_script_or_the_list(tmp_path, capsys, argv):
    # Before: the plugin's lines followed the script on standard output, where the documented
    # eval "$(mdp completion bash)" ran them as commands (R19-F22); and mdp alone listed them.
    plugin = tmp_path / "noisy.py"
    plugin.write_text(NOISY)
    assert main(argv) == 0
    alone = capsys.readouterr().out
    assert main(["-p", str(plugin), *argv]) == 0
    out, err = capsys.readouterr()
    assert "PRINTED-BY-A-PLUGIN" not in out and "PRINTED-BY-A-PLUGIN" in err
    assert out == alone
