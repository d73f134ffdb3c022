"""A record of what was solved names the rule plugins played beside the game (round 34,
P34-12): ``--json`` of a game with a plugin's rules read as the plain game's, another value
and nothing to tell them apart, and the header of ``mdp export`` named no plugin. Each record
is replayed: loading the game with the plugins it names gives the value it holds."""

import json

import pytest
from models import COIN

from mdp.program.cli import main

# A wrapper of the older form: the state "mid" is worth twice as much (4/5, where the game's
# best is the coin's 1/2).
PLUGIN = '''import mdp

GAME = "coin"


@mdp.hookimpl(hookwrapper=True)
def mdp_terminal_value(params, state):
    outcome = yield
    if state == "mid":
        outcome.force_result(outcome.get_result() * 2)
'''


def _record(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.slow
def test_a_record_names_its_rule_plugins_and_replays_to_its_value(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "coin.py").write_text(COIN)
    (tmp_path / "double.py").write_text(PLUGIN)
    plain = _record(capsys, ["solve", "coin.py", "--exact", "--json"])
    played = _record(capsys, ["solve", "coin.py", "-p", "double.py", "--exact", "--json"])
    assert (plain["plugins"], plain["exact"]) == ([], "1/2")
    assert (played["plugins"], played["exact"]) == (["double.py"], "4/5")
    for record in (plain, played):
        again = _record(capsys, ["solve", "coin.py", *(w for p in record["plugins"] for w in ("-p", p)),
                                 "--exact", "--json"])
        assert again["exact"] == record["exact"]
    assert main(["export", "coin.py", "-p", "double.py", "--out", "coin.prism"]) == 0
    header = (tmp_path / "coin.prism").read_text().splitlines()
    assert "// rule plugins: double.py" in header and "// parameters: none" in header
    assert main(["export", "coin.py", "--out", "plain.prism"]) == 0
    assert not any("plugins" in line for line in (tmp_path / "plain.prism").read_text().splitlines())


def test_every_record_of_one_game_names_the_same_plugins(capsys):
    # (P35-2: simulate's and advise's records named no game, rules or plugins)
    solved = _record(capsys, ["solve", "shutbox", "--set", "tiles=1-3", "--json"])
    others = [_record(capsys, ["match", "shutbox", "--set", "tiles=1-3", "--json"]),
              _record(capsys, ["simulate", "shutbox", "--set", "tiles=1-3", "--games", "3", "--json"]),
              _record(capsys, ["advise", "shutbox", "--set", "tiles=1-3", "open=1 2 3", "roll=3",
                               "--json"])]
    recorded = ("game", "variant", "params", "plugins", "rules")
    assert all({k: other[k] for k in recorded} == {k: solved[k] for k in recorded} for other in others)
    assert solved["plugins"] == [name for name in solved["plugins"] if not name.startswith("shutbox")]
