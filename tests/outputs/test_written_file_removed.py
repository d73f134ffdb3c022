"""A file being written that is removed, renamed or replaced: a plugin's format is blamed for
it, mdp's own never is (another program did it: round 18, R18-N17, "the csv format removed or
renamed the file it was writing" for a folder removed by the user mid-write)."""

import os

import pytest

import mdp
from mdp.outputs import files_kinds


@pytest.mark.parametrize("writer", ["the csv format", "plugin fmt.py's format pipe"])
@pytest.mark.parametrize("how", ["removed", "replaced"])
def test_who_is_blamed_for_a_file_gone_mid_write(tmp_path, monkeypatch, writer, how):
    temporary = tmp_path / ".p.csv.abc"
    file = open(temporary, "wb")
    os.remove(temporary)
    if how == "replaced":
        temporary.write_bytes(b"other")
    monkeypatch.setattr(files_kinds, "writers", [writer])
    with pytest.raises(mdp.MdpError) as refused:
        files_kinds.kept(file, str(temporary), "p.csv")
    said = str(refused.value)
    if writer.startswith("plugin "):
        assert isinstance(refused.value, mdp.ModelError) and said.startswith(writer)
    else:
        assert not isinstance(refused.value, mdp.ModelError) and "csv format" not in said
        assert said.startswith("cannot write to p.csv: the file being written (.p.csv.abc, or "
                               f"its folder) was {'removed or renamed' if how == 'removed' else 'replaced'}")
