"""A format's writer that wraps the file it is handed (gzip, bz2, lzma, a text or buffered
wrapper) and returns with the wrapper still open, or an export that returns with a file it
wrote still open, or wrote nothing, is refused in one line that blames it, and no file is put
in place: what the wrapper still holds would never reach it (round 28: a gzip file of its
header alone, a text file short of every row, a model file of 0 bytes, each "written", exit
0). Closed, or flushed and detached, the same wrappers write the whole table."""

import bz2
import csv
import gzip
import io
import lzma

import pytest

from mdp.program.cli import main

WRAPPERS = {  # how each wraps the file handed, and reads the table back
    "gzip": ("gzip.GzipFile(fileobj=file, mode='wb')", gzip.decompress),
    "bz2": ("bz2.BZ2File(file, mode='wb')", bz2.decompress),
    "lzma": ("lzma.LZMAFile(file, mode='wb')", lzma.decompress),
    "buffered": ("io.BufferedWriter(file)", bytes),
    "text": ("io.TextIOWrapper(file, encoding='utf-8')", bytes),
}
ENDS = {  # what the writer does with its wrapper before it returns, and what mdp says
    "kept open": "KEPT.append(wrapper)",
    "closed": "wrapper.close()",  # (io's wrappers close the file they wrap too)
    "flushed and detached": "wrapper.flush(); wrapper.detach(); KEPT.append(wrapper)",
}
FORMAT = '''
import bz2, gzip, io, lzma
import mdp
KEPT = []

def write(frame, file):
    wrapper = WRAPPER
    text = frame.write_csv()
    wrapper.write(text if isinstance(wrapper, io.TextIOBase) else text.encode())
    END

@mdp.hookimpl
def mdp_formats():
    return [mdp.Format("wrapped", (".wrapped",), write, "a wrapped CSV", binary=True)]
'''


@pytest.mark.slow
@pytest.mark.parametrize(("wrapper", "end"), [
    (wrapper, end) for wrapper in WRAPPERS for end in ENDS
    if not (end == "flushed and detached" and wrapper in ("gzip", "bz2", "lzma"))])  # (none)
def test_a_format_returning_with_its_wrapper_open_is_refused(tmp_path, capsys, monkeypatch,
                                                              wrapper, end):
    made, read = WRAPPERS[wrapper]
    (tmp_path / "wrapped.py").write_text(FORMAT.replace("WRAPPER", made).replace("END", ENDS[end]))
    monkeypatch.chdir(tmp_path)
    status = main(["policy", "shutbox", "--set", "tiles=1-3", "-p", "wrapped.py",
                   "--out", "p.wrapped"])
    err = capsys.readouterr().err
    named = "mdp: error: plugin wrapped.py's format wrapped "
    if end == "kept open":
        assert status == 2 and err.startswith(f"{named}returned with a ") and "still open" in err, err
    elif end == "closed" and wrapper in ("buffered", "text"):
        assert status == 2 and err.startswith(f"{named}closed the file it was writing"), err
    else:
        assert status == 0, err
        rows = list(csv.reader(io.StringIO(read((tmp_path / "p.wrapped").read_bytes()).decode())))
        assert err == f"{len(rows) - 1} rows written to p.wrapped\n"
        return
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wrapped.py"]


EXPORT = '''
import mdp
KEPT = []

def write(model, path):
    WRITE
    return [path]

@mdp.hookimpl
def mdp_exports():
    return [mdp.Export("mine", "a model", write)]
'''
WRITES = {
    "open(path, 'w').write('model\\n')": None,  # (closed as it goes: CPython counts references)
    "KEPT.append(open(path, 'w')); KEPT[-1].write('model\\n')": "still open",
    "KEPT.append(open(path, 'wb', buffering=0)); KEPT[-1].write(b'')": "still open",
    "open(path, 'w').close()": "wrote nothing to m.out",
}


@pytest.mark.slow
@pytest.mark.parametrize("write", WRITES)
def test_an_export_returning_its_file_open_or_empty_is_refused(tmp_path, capsys, monkeypatch,
                                                                write):
    (tmp_path / "mine.py").write_text(EXPORT.replace("WRITE", write))
    monkeypatch.chdir(tmp_path)
    status = main(["export", "shutbox", "--set", "tiles=1-3", "-p", "mine.py", "--format",
                   "mine", "--out", "m.out"])
    err = capsys.readouterr().err
    if WRITES[write] is None:
        assert status == 0 and (tmp_path / "m.out").read_text() == "model\n", err
    else:
        assert status == 2 and WRITES[write] in err and err.count("\n") == 1, err
        assert not (tmp_path / "m.out").exists()
