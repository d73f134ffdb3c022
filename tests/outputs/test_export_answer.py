"""An export's answer is checked in one place, its line true and in the user's names: a path
returned twice is said so (it was "returned the paths [...] but wrote [...]", which it had), a
tuple is refused as the documented list (it was taken), and a path spelt with ``..`` or
relative names the file it is (a refusal quoted mdp's temporary folder)."""

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
from mdp.outputs.exports import write_export

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def model():
    return mdp.compile(mdp.load_game(str(ROOT / "docs" / "examples" / "reroll.py")))


def _spelt(path: str, how: str) -> str:
    """``path`` spelt another way that names the same file."""
    folder, name = os.path.split(path)
    if how == "dotdot":
        return os.path.join(folder, "..", os.path.basename(folder), name)
    if how == "relative":
        return os.path.relpath(path)
    return path


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(suffixes=st.lists(st.sampled_from(["", ".a"]), min_size=1, max_size=3),
       hows=st.lists(st.sampled_from(["plain", "dotdot", "relative"]), min_size=3, max_size=3),
       container=st.sampled_from([list, tuple]))
@pytest.mark.slow  # half a second or more of CPU
def test_an_exports_answer_is_refused_for_what_is_wrong_with_it(model, tmp_path_factory, suffixes,
                                                                 hows, container):
    folder = tmp_path_factory.mktemp("out")
    out = str(folder / "model.txt")

    def write(model, path):
        for suffix in set(suffixes):
            Path(path + suffix).write_text("x")
        return container(_spelt(path + s, how) for s, how in zip(suffixes, hows, strict=False))

    export = mdp.Export("e", "an export", write, ((".a", "a"),))
    twice = len(set(suffixes)) < len(suffixes)
    if container is tuple:
        expected = "not a list of the paths it wrote"
    elif twice:
        again = next(s for n, s in enumerate(suffixes) if s in suffixes[:n])
        expected = f"returned {out + again} twice"
    elif suffixes[0] != "":
        expected = "it returns each file it wrote, " + out + " first"
    else:
        assert write_export(export, model, out) == [out + s for s in suffixes]
        assert sorted(os.listdir(folder)) == sorted(f"model.txt{s}" for s in suffixes)
        return
    with pytest.raises(mdp.ModelError) as raised:
        write_export(export, model, out)
    said = str(raised.value)
    assert expected in said, said
    assert ".model.txt." not in said  # never mdp's temporary folder
    assert os.listdir(folder) == []
