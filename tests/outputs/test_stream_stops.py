"""A format's ``stream`` that returns before it has taken every piece of the table is
refused, and leaves no file: it had left a part of the table with "N rows written", exit 0."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.cli import main
from mdp.program.registry import plugins

ARGS = ["policy", "shutbox", "--set", "tiles=1-6"]


def _run(tmp_path, most):
    """``mdp policy`` into ``p.st`` by a stream that takes at most ``most`` pieces (``None``:
    all); its exit code, and the pieces the stream was given."""
    taken = []

    def stream(pieces, file):
        for piece in pieces:
            if most is not None and len(taken) == most:
                return
            taken.append(piece.height)
            file.write(piece.write_csv(include_header=len(taken) == 1).encode())

    class Stopping:
        @mdp.hookimpl
        def mdp_formats(self):
            return [mdp.Format("st", (".st",), lambda frame, file: None, stream=stream)]

    plugin = Stopping()
    plugins().register(plugin, name="stopping")
    try:
        return main([*ARGS, "--out", str(tmp_path / "p.st")]), taken
    finally:
        plugins().unregister(plugin)


@pytest.fixture(scope="module")
def pieces(tmp_path_factory):
    """How many pieces the whole table comes in, and its rows, by a stream that takes all."""
    folder = tmp_path_factory.mktemp("whole")
    code, taken = _run(folder, None)
    assert code == 0 and len(taken) >= 2  # the test needs a table of several pieces
    return len(taken), sum(taken)


@pytest.mark.slow
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_a_stream_that_stops_early_is_refused_and_leaves_no_file(tmp_path_factory, capsys, pieces, data):
    count, _ = pieces
    most = data.draw(st.integers(0, count - 1), label="pieces taken")
    folder = tmp_path_factory.mktemp("stops")
    capsys.readouterr()
    code, _ = _run(folder, most)
    said = capsys.readouterr()
    assert code == 2 and list(folder.iterdir()) == []
    assert said.err == ("mdp: error: plugin stopping's format st returned before it had taken every "
                        "piece of the policy table; a stream writes each piece it is given, to the "
                        "last (for piece in pieces: ...)\n")


@pytest.mark.slow
def test_a_stream_that_takes_every_piece_writes_the_table(tmp_path, capsys, pieces):
    _, rows = pieces
    assert _run(tmp_path, None)[0] == 0
    assert len((tmp_path / "p.st").read_text().splitlines()) == rows + 1  # and the header
    assert f"{rows:,} rows written to" in capsys.readouterr().err
