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

    return mdp.Export("e", "an export", write)


RETURNS = st.one_of(st.none(), st.sampled_from(SUFFIXES),
                    st.lists(st.sampled_from(SUFFIXES), unique=True, max_size=3))


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
    assert capsys.readouterr().err == (f"mdp: error: the half export returned {str(out)!r}, not a "
                                       "list of the paths it wrote\n")
    assert out.read_text() == "keep"
    assert sorted(os.listdir(tmp_path)) == ["half.py", "model.txt"]
