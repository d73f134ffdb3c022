"""A plugin's export writes all or nothing, whatever it does (mdp/outputs/exports.py): it is
handed a path in a temporary folder, and the files it returns are put in place only when
each was written and every one written is returned; else one line names the export, and
the user's files are as they were (an export that failed after writing half its file, or
returned paths it had deleted, destroyed the old --out and said "written")."""

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
from mdp.outputs.exports import write_export
from mdp.program.cli import main

ROOT = Path(__file__).resolve().parents[2]
SUFFIXES = ["", ".a", ".b"]


@pytest.fixture(scope="module")
def model():
    return mdp.compile(mdp.load_game(str(ROOT / "docs" / "examples" / "reroll.py")))


def _export(writes, returns, raises):
    """An export that writes ``path + suffix`` for each suffix of ``writes``, then raises
    or returns ``returns``: suffixes (a list of paths), or a str, or None."""

    def write(model, path):
        for suffix in writes:
            Path(path + suffix).write_text(f"new{suffix}")
        if raises:
            raise ValueError("failed")
        if returns is None or isinstance(returns, str):
            return None if returns is None else path + returns
        return [path + suffix for suffix in returns]

    return mdp.Export("e", "an export", write, ((".a", "a"), (".b", "b")))


RETURNS = st.one_of(st.none(), st.sampled_from(SUFFIXES),
                    st.lists(st.sampled_from(SUFFIXES), unique=True, max_size=3))


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(SUFFIXES), unique=True, max_size=3), RETURNS, st.booleans())
def test_an_export_is_written_whole_or_the_old_files_stay(model, tmp_path_factory, writes, returns, raises):
    folder = tmp_path_factory.mktemp("out")
    out = str(folder / "model.txt")
    for suffix in SUFFIXES:
        Path(out + suffix).write_text("keep")
    fine = not raises and isinstance(returns, list) and returns[:1] == [""] and \
        sorted(returns) == sorted(writes)
    if fine:
        assert write_export(_export(writes, returns, raises), model, out) == \
            [out + suffix for suffix in returns]
    else:
        with pytest.raises(mdp.ModelError, match="^the e export (raised ValueError: failed$|returned)"):
            write_export(_export(writes, returns, raises), model, out)
    expected = {f"model.txt{s}": f"new{s}" if fine and s in writes else "keep" for s in SUFFIXES}
    assert {name: (folder / name).read_text() for name in os.listdir(folder)} == expected


def test_the_command_keeps_the_old_file_and_says_whose_fault(tmp_path, capsys):
    plugin = tmp_path / "half.py"
    plugin.write_text("import mdp\n"
                      "def write(model, path):\n"
                      "    open(path, 'w').write('half')\n"
                      "    return path\n"
                      "@mdp.hookimpl\n"
                      "def mdp_exports():\n"
                      "    return [mdp.Export('half', 'h', write)]\n")
    out = tmp_path / "model.txt"
    out.write_text("keep")
    assert main(["-p", str(plugin), "export", str(ROOT / "docs" / "examples" / "reroll.py"),
                 "--format", "half", "--out", str(out)]) == 2
    assert capsys.readouterr().err == (f"mdp: error: plugin {plugin}'s export half returned {str(out)!r}, not a "
                                       "list of the paths it wrote\n")
    assert out.read_text() == "keep"
    assert sorted(os.listdir(tmp_path)) == ["half.py", "model.txt"]


FOLDER_PLUGIN = """import os
import mdp


def write(model, path):
    for suffix in {files!r}:
        open(path + suffix, "w").write("new")
    os.makedirs(path + {folder!r})
    if {inside!r}:
        open(os.path.join(path + {folder!r}, "x"), "w").write("x")
    return [path + suffix for suffix in {returns!r}]


@mdp.hookimpl
def mdp_exports():
    return [mdp.Export("dir", "a folder", write, ((".a", "a"), (".b", "b")))]
"""


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(folder=st.sampled_from(SUFFIXES), files=st.lists(st.sampled_from(SUFFIXES), unique=True, max_size=2),
       inside=st.booleans(), returns=st.lists(st.sampled_from(SUFFIXES), unique=True, max_size=3),
       old=st.booleans())
@pytest.mark.slow  # half a second or more of CPU
def test_an_export_that_makes_a_folder_is_named_for_it(tmp_path_factory, capsys, folder, files, inside,
                                                       returns, old):
    # A folder at --out's path: "the dir export returned ['./zzz.csv'] but wrote ['./zzz.csv']",
    # or, with an old --out, the user's --out blamed as "a file the command reads" (round ten).
    files = [suffix for suffix in files if suffix != folder]
    where = tmp_path_factory.mktemp("out")
    plugin = where / f"folder_{len(list(tmp_path_factory.getbasetemp().iterdir()))}.py"
    plugin.write_text(FOLDER_PLUGIN.format(files=files, folder=folder, inside=inside, returns=returns))
    out = where / "model.csv"
    if old:
        out.write_text("keep")
    assert main(["-p", str(plugin), "export", str(ROOT / "docs" / "examples" / "reroll.py"),
                 "--format", "dir", "--out", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"mdp: error: plugin {plugin}'s export dir made a folder, model.csv{folder}, where it was to "
        f"write a file; it writes {out}, {out}.a and {out}.b, each a file\n")
    assert sorted(os.listdir(where)) == sorted([plugin.name, *(["model.csv"] if old else [])])
    if old:
        assert out.read_text() == "keep"


@pytest.mark.slow
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["ValueError('odd')", "TypeError('no')", "KeyError(3)", "SystemExit(1)",
                        "KeyboardInterrupt()", "RuntimeError()"]), st.booleans())
def test_a_plugin_format_that_raises_is_named_with_its_plugin(tmp_path_factory, capsys, raised, wrote):
    where = tmp_path_factory.mktemp("format")
    plugin = where / "raising.py"
    first = "file.write(b'half')" if wrote else "pass"
    plugin.write_text("import mdp\n\n\ndef write(frame, file):\n"
                      f"    {first}\n    raise {raised}\n\n\n"
                      "@mdp.hookimpl\ndef mdp_formats():\n"
                      "    return [mdp.Format('odd', ('.odd',), write)]\n")
    out = where / "policy.odd"
    assert main(["-p", str(plugin), "policy", str(ROOT / "docs" / "examples" / "reroll.py"),
                 "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mdp: error: plugin {plugin}'s format odd raised {raised.split('(')[0]}"), err
    assert len(err.splitlines()) == 1 and sorted(os.listdir(where)) == ["raising.py"]


ODD_PLUGIN = """import os
import mdp


def write(model, path):
    open(path, "w").write("new")
    {make}
    return [path, path + ".x"]


@mdp.hookimpl
def mdp_exports():
    return [mdp.Export("odd", "an odd one", write, ((".x", "x"),))]
"""
# What the export makes beside its file, and the words the line says of it.
ODD = {"os.mkfifo(path + '.x')": "a named pipe (FIFO)",
       "os.symlink(path, path + '.x')": "a symbolic link",
       "os.mkdir(path + '.x')": "a folder",
       "import socket; socket.socket(socket.AF_UNIX).bind(path + '.x')": "a socket"}


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(make=st.sampled_from(sorted(ODD)), old=st.booleans())
@pytest.mark.slow
def test_an_export_that_makes_what_is_no_file_beside_its_own_says_what(tmp_path_factory, capsys,
                                                                         make, old):
    # A FIFO beside it: "returned ['./m.ex', './m.ex.f'] but wrote ['./m.ex', './m.ex.f']".
    where = tmp_path_factory.mktemp("odd")
    plugin = where / "odd_export.py"
    plugin.write_text(ODD_PLUGIN.format(make=make))
    out = where / "m.ex"
    if old:
        out.write_text("keep")
    assert main(["-p", str(plugin), "export", str(ROOT / "docs" / "examples" / "reroll.py"),
                 "--format", "odd", "--out", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"mdp: error: plugin {plugin}'s export odd made {ODD[make]}, m.ex.x, where it was to "
        f"write a file; it writes {out} and {out}.x, each a file\n")
    assert sorted(os.listdir(where)) == sorted([plugin.name, *(["m.ex"] if old else [])])


NAMED_PLUGIN = """import mdp
def write(model, path):
    for name in (path, path + {suffix!r}):
        open(name, 'w').write('x')
    return [path, path + {suffix!r}]
@mdp.hookimpl
def mdp_exports():
    return [mdp.Export('named', 'n', write, (({suffix!r}, 'odd'),))]
"""


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(suffix=st.one_of(st.sampled_from([".\x1b[31m", ".p\nq", ".\t", " ", "/x", ".", "", "props", ".a b",
                                         ".ｃｓｖ", "..x", ".x/", ".props", ".tar.gz", ".x-1_2"]),
                        st.text(min_size=0, max_size=6)))
@pytest.mark.slow  # half a second or more of CPU
def test_a_suffix_declared_beside_is_a_dot_and_a_word(tmp_path_factory, capsys, suffix):
    """Round 19, F29: an export's declared companion could be any suffix: a name with a line
    break or an escape was put in place, ``/x`` blamed on the user's folder. A suffix is a dot
    and a word of ASCII letters, digits, '_' or '-' (or more of them: ``.tar.gz``), refused
    otherwise as the plugin's exports are read, in one line naming the plugin, nothing
    written; by a brute check of each character here."""
    import string

    where = tmp_path_factory.mktemp("named")
    plugin = where / "named.py"
    plugin.write_text(NAMED_PLUGIN.format(suffix=suffix))
    out = where / "m.ex"
    words = suffix.split(".")
    allowed = len(words) > 1 and words[0] == "" and all(
        word and set(word) <= set(string.ascii_letters + string.digits + "_-") for word in words[1:])
    code = main(["-p", str(plugin), "export", str(ROOT / "docs" / "examples" / "reroll.py"),
                 "--format", "named", "--out", str(out)])
    err = capsys.readouterr().err
    if allowed:
        assert code == 0 and err.endswith(f"exported to {out}, odd to {out}{suffix}\n")
        assert sorted(os.listdir(where)) == sorted(["named.py", "m.ex", "m.ex" + suffix])
    else:
        assert code == 2 and err.count("\n") == 1, err
        assert err.startswith(f"mdp: error: plugin {plugin}'s export named declares a file beside it "
                              "with the suffix "), err
        assert err.endswith("a suffix is a dot and a word of ASCII letters, digits, '_' or '-' "
                            "('.props', '.tar.gz')\n")
        assert os.listdir(where) == ["named.py"]


BESIDE_PLUGIN = """import os
import mdp


def write(model, path):
    open(path, "w").write("model")
    open(path + {suffix!r}, "w").write("clobbered")
    return [path, path + {suffix!r}]


@mdp.hookimpl
def mdp_exports():
    return [mdp.Export("two", "two files", write, (({suffix!r}, "a copy"),))]
"""


@pytest.mark.parametrize("read", ["game", "plugin", "payout"])
def test_a_file_an_export_writes_beside_out_is_never_one_the_command_reads(tmp_path, capsys,
                                                                          monkeypatch, read):
    """Each file an export declares beside --out is a target as --out is: the game's file, a
    plugin's, a file read (round 18, P37: --out vg.csv had the export's vg.py replace the game
    just loaded). Refused in one line before the work, every file as it was."""
    import shutil

    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "docs" / "examples" / "reroll.py", tmp_path / "game.py")
    (tmp_path / "pay.csv").write_text("0:1\n")
    names = {"game": ("game", ".py"), "plugin": ("plug", ".py"), "payout": ("pay", ".csv")}
    stem, suffix = names[read]
    (tmp_path / "plug.py").write_text(BESIDE_PLUGIN.format(suffix=suffix))
    game, more = ("game.py", []) if read != "payout" else \
        ("shutbox", ["--set", "tiles=1-2", "--set", "scoring=payout", "--set", "payout=pay.csv"])
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    assert main(["-p", "plug.py", "export", game, *more, "--format", "two", "--out", stem]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ("which the command reads" in err or "a file the command reads" in err)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before


UNDECLARED_PLUGIN = """import os
import mdp


def write(model, path):
    open(path, "w").write("model")
    other = os.path.join(os.path.dirname(path), {name!r})
    open(other, "w").write("clobbered")
    return [path, other]


@mdp.hookimpl
def mdp_exports():
    return [mdp.Export("two", "two files", write, ((".props", "the property"),))]
"""


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.one_of(st.sampled_from(["important.txt", ".hidden", "m.x.prop", "m.xprops", "m.props",
                                       "m.x.props.x", "m.x.props"]),
                      st.text("abcxmp.-_", min_size=1, max_size=10).filter(lambda n: n not in (".", ".."))))
@pytest.mark.slow  # half a second or more of CPU
def test_an_export_writes_out_and_the_files_it_declares_beside_it_and_no_other(tmp_path_factory, capsys,
                                                                                name):
    """A file an export returns beside --out is one it declares (mdp.Export's beside, --out's
    name and a suffix), checked before the work; any other, an unrelated file of the user's in
    that folder, is refused in one line, nothing put in place (round 19, F5: important.txt
    was replaced, exit 0)."""
    where = tmp_path_factory.mktemp("beside")
    plugin = where / "plug.py"
    plugin.write_text(UNDECLARED_PLUGIN.format(name=name))
    for old in {"m.x", name}:
        (where / old).write_text("keep")
    before = {p.name: p.read_bytes() for p in where.iterdir()}
    code = main(["-p", str(plugin), "export", str(ROOT / "docs" / "examples" / "reroll.py"),
                 "--format", "two", "--out", str(where / "m.x")])
    err = capsys.readouterr().err
    if name == "m.x":  # the export returned --out twice
        assert code == 2 and err.count("\n") == 1
    elif name == "m.x.props":  # the one it declares, put in place with --out
        assert code == 0 and (where / name).read_text() == "clobbered"
        assert err.endswith(f"exported to {where / 'm.x'}, the property to {where / name}\n")
    else:
        assert code == 2 and err == (
            f"mdp: error: plugin {plugin}'s export two wrote {name!r}, a file it does not declare; it "
            f"writes {where / 'm.x'} and {where / 'm.x'}.props (mdp.Export's beside)\n")
        assert {p.name: p.read_bytes() for p in where.iterdir()} == before


def test_an_export_that_removes_the_folder_it_was_handed_is_named(tmp_path, capsys):
    """Round 19, F4: an export that removed its temporary folder was a FileNotFoundError
    traceback; it is the plugin's fault, in one line, and the old --out stays."""
    plugin = tmp_path / "rm.py"
    plugin.write_text("import os, shutil\nimport mdp\n"
                      "def write(model, path):\n"
                      "    open(path, 'w').write('x')\n"
                      "    shutil.rmtree(os.path.dirname(path))\n"
                      "    return [path]\n"
                      "@mdp.hookimpl\n"
                      "def mdp_exports():\n"
                      "    return [mdp.Export('rm', 'r', write)]\n")
    out = tmp_path / "m.x"
    out.write_text("keep")
    assert main(["-p", str(plugin), "export", str(ROOT / "docs" / "examples" / "reroll.py"),
                 "--format", "rm", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mdp: error: plugin {plugin}'s export rm removed or changed the folder it was "
                          f"handed to write {out} in (FileNotFoundError") and err.count("\n") == 1, err
    assert sorted(os.listdir(tmp_path)) == ["m.x", "rm.py"] and out.read_text() == "keep"
