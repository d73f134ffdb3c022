"""Names a game or plugin declares (parameters and their choices, variants, strategies, an
analysis's options, formats) are compared as tables show text (NFKC: the ligature "ﬁ" is
"fi", a full-width "ｒ" is "r") and as a user may type them (capitals are not told apart):
two alike are refused, naming the game or the plugins (round 19, F8: `first` and `ﬁrst`
were two parameters, and `--set ｒｏｌｌｓ=7` set the other; round 34: `k` and `K` were two
parameters, and `x` and `X` two choices, where `third` and `Third` were refused as
variants). Whether two read alike is judged here by unicodedata and str.casefold themselves."""

import itertools
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]
NUMBER = itertools.count()
WORDS = st.text("abfilr", min_size=1, max_size=5)


def _alike(word):
    """``word`` in another form: a ligature for "fi", or full-width letters, or as it is."""
    return st.sampled_from([word, word.replace("fi", "\ufb01"), word.upper(), word[:1].upper() + word[1:],
                            "".join(chr(ord(c) + 0xFEE0) for c in word.upper()), word[:1] + "\uff41"])


def _one(a, b):
    """Whether names ``a`` and ``b`` are one: NFKC's forms, in any capitals."""
    return unicodedata.normalize("NFKC", a).casefold() == unicodedata.normalize("NFKC", b).casefold()


PAIRS = WORDS.flatmap(lambda word: st.tuples(st.just(word), _alike(word))).filter(lambda p: p[0] != p[1])

GAME = '''from fractions import Fraction
import mdp

GAME_NAME = "alike"


@mdp.hookimpl
def mdp_initial_state(params):
    return 0


@mdp.hookimpl
def mdp_actions(params, state):
    return ["go", "stop"] if state == 0 else []


@mdp.hookimpl
def mdp_outcomes(params, state, action):
    return [(1, 1 if action == "go" else 2)]


@mdp.hookimpl
def mdp_terminal_value(params, state):
    return state
'''
KINDS = {
    "param": ("@mdp.hookimpl\ndef mdp_params():\n    return [mdp.Param({a!r}, 1, int, 'one'), "
              "mdp.Param({b!r}, 2, int, 'two')]\n", ["params"]),
    "variant": ("@mdp.hookimpl\ndef mdp_variants():\n    return [mdp.Variant({a!r}, {{}}, 'one'), "
                "mdp.Variant({b!r}, {{}}, 'two')]\n", ["variants"]),
    "choice": ("@mdp.hookimpl\ndef mdp_params():\n    return [mdp.Param('mode', {a!r}, "
               "mdp.parse_choice([{a!r}, {b!r}]), 'mode')]\n", ["params"]),
    "strategy": ("@mdp.hookimpl\ndef mdp_strategies():\n    import numpy as np\n"
                 "    return [mdp.Strategy({a!r}, 'one', lambda game, model: np.zeros(model.n_states, int)), "
                 "mdp.Strategy({b!r}, 'two', lambda game, model: np.zeros(model.n_states, int))]\n",
                 ["strategies"]),
}


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pair=PAIRS, kind=st.sampled_from(sorted(KINDS)))
def test_a_game_s_names_alike_are_refused(tmp_path_factory, capsys, pair, kind):
    where = tmp_path_factory.mktemp("alike")
    game = where / f"alike{next(NUMBER)}.py"
    code, command = KINDS[kind]
    game.write_text(GAME + "\n\n" + code.format(a=pair[0], b=pair[1]))
    got = main([*command, str(game)])
    err = capsys.readouterr().err
    if _one(*pair):
        assert got == 2 and err.count("\n") == 1 and err.startswith("mdp: error: game alike: "), err
        assert f"{'' if kind == 'choice' else 'named '}{pair[0]!r} and {pair[1]!r}, which read alike" in err, err
    else:
        assert got == 0, err


FORMAT = '''import mdp


@mdp.hookimpl
def mdp_formats():
    return [mdp.Format({name!r}, (), lambda frame, file: None, help="a format")]
'''
OPTIONS = '''import polars as pl
import mdp


@mdp.hookimpl
def mdp_analyses():
    return [mdp.Analysis("an", "an analysis", lambda solution, game, **options: pl.DataFrame({{"a": [1]}}),
                         options=(mdp.Param({a!r}, 1, int, "one"), mdp.Param({b!r}, 2, int, "two")))]
'''


@pytest.mark.slow
@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pair=PAIRS, kind=st.sampled_from(["format", "option"]))
def test_a_plugin_s_names_alike_are_refused(tmp_path_factory, capsys, pair, kind):
    where = tmp_path_factory.mktemp("alike")
    number = next(NUMBER)
    if kind == "format":
        plugins = [where / f"one{number}.py", where / f"two{number}.py"]
        for plugin, name in zip(plugins, pair, strict=True):
            plugin.write_text(FORMAT.format(name=name))
        command = ["formats"]
    else:
        plugins = [where / f"opt{number}.py"]
        plugins[0].write_text(OPTIONS.format(a=pair[0], b=pair[1]))
        command = ["an", str(ROOT / "docs" / "examples" / "reroll.py"), "--json"]
    got = main([arg for plugin in plugins for arg in ("-p", str(plugin))] + command)
    err = capsys.readouterr().err
    if _one(*pair):
        assert got == 2 and err.count("\n") == 1, err
        assert f"{pair[0]!r} and {pair[1]!r}, which read alike" in err, err
        assert all(str(plugin) in err for plugin in plugins), err
    else:
        assert got == 0, err


WEIRD = '''import mdp

@mdp.hookimpl
def mdp_formats():
    return [mdp.Format("weird", EXTENSIONS, lambda frame, file: frame.write_csv(file), "weird")]
'''


@pytest.mark.parametrize("extensions", [(".tsv.gz",), (".tar.csv",), ("..",), (".ｃｓｖ",), (".CSV",)])
def test_a_format_extension_no_file_is_read_by_or_alike_anothers_is_refused(tmp_path, capsys, extensions):
    """Round 26: ``.tsv.gz`` was taken as the plugin loaded, and a file of it refused in a line
    that listed it; ``.tar.csv`` had mdp's own csv written; a full-width ``.ｃｓｖ`` beside
    ``.csv``. A file's type is read from its last extension: each is a dot and one word, and
    none alike another's."""
    (tmp_path / "fmt.py").write_text(WEIRD.replace("EXTENSIONS", repr(extensions)), encoding="utf-8")
    out = tmp_path / "t.csv"
    assert main(["solve", "shutbox", "--vary", "tiles=1-2,1-3", "-p", str(tmp_path / "fmt.py"),
                 "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mdp: error: format 'weird': extensions ") and "a dot and a word" in err \
        or "both claim the extension" in err, err
    assert not out.exists()
