"""The example game of docs/writing-a-game.rst: its values, and the errors the page shows."""

import re
import shlex
import types
from fractions import Fraction
from pathlib import Path

import pytest

import mdp

DOCS = Path(__file__).resolve().parents[2] / "docs"
REROLL = DOCS / "examples" / "reroll.py"


@pytest.mark.parametrize(
    ("rolls", "expected", "states"),
    # The derivation "By hand" on docs/writing-a-game.rst: one roll left is worth the mean
    # face 7/2; with two, keep 4-6: (4+5+6)/6 + 3/6 * 7/2 = 17/4; with three, keep 5-6:
    # (5+6)/6 + 4/6 * 17/4 = 14/3. States: the start, then six faces per roll (1 + 6 * rolls).
    [(1, Fraction(7, 2), 7), (2, Fraction(17, 4), 13), (3, Fraction(14, 3), 19)],
)
def test_reroll_has_the_values_derived_by_hand(rolls, expected, states):
    game = mdp.load_game(REROLL, rolls=str(rolls))
    exact = mdp.solve(mdp.compile(game), exact=True)
    assert exact.value == expected
    assert exact.model.n_states == states == game.call("mdp_estimate_states")
    # Float mode carries the rounding of 1/6: within a few units in the last place.
    assert mdp.solve(mdp.compile(game)).value == pytest.approx(float(expected), rel=1e-15, abs=0)


def test_default_reroll_is_the_three_roll_game_solved_on_the_page():
    assert mdp.solve(mdp.compile(mdp.load_game(REROLL)), exact=True).value == Fraction(14, 3)


def test_reroll_refuses_zero_rolls():
    with pytest.raises(mdp.ParamError, match="at least 1 roll"):
        mdp.load_game(REROLL, rolls="0")


class _Unmarked:
    """A hook written without ``@mdp.hookimpl``."""

    def __init__(self, function):
        self.function = function


def _reroll_with(**broken):
    """Reroll's own hooks, with some replaced (``None``: left out): a misbehaving copy of the game."""
    module = mdp.load_game(REROLL).plugins.get_plugin("reroll")
    hooks = {name: getattr(module, name) for name in dir(module) if name.startswith("mdp_")}
    hooks.update({name: function.function if isinstance(function, _Unmarked) else mdp.hookimpl(function)
                  for name, function in broken.items() if function is not None})
    hooks = {name: hook for name, hook in hooks.items() if broken.get(name, hook) is not None}
    return mdp.load_game(types.SimpleNamespace(GAME_NAME="reroll", **hooks))


def _die(rolls_left, faces=range(1, 7), p=Fraction(1, 6)):
    return [(p, (rolls_left - 1, face)) for face in faces]


BROKEN = {
    "probabilities sum to": dict(mdp_outcomes=lambda state, action: _die(state[0], range(1, 6))),
    "negative probability": dict(
        mdp_outcomes=lambda state, action: [(Fraction(-1, 6), (state[0] - 1, 1))] + _die(state[0], p=Fraction(7, 36))
    ),
    "mdp_outcomes raised": dict(mdp_outcomes=lambda state, action: {}["x"]),
    "mdp_actions returned nothing": dict(mdp_actions=lambda state: None),
    "cycle": dict(mdp_outcomes=lambda state, action: [(1, state)]),
    "exact solving needs": dict(mdp_outcomes=lambda state, action: _die(state[0], p=1 / 6)),
    "twice": dict(mdp_actions=lambda state: ["roll", "roll"]),
    "not hashable": dict(mdp_actions=lambda state: [["roll"]]),
    "every state gives the same columns": dict(mdp_state_columns=lambda state: (
        {"rolls_left": state[0]} if state[1] is None else {"rolls_left": state[0], "face": state[1]})),
    "not marked": dict(mdp_actions=_Unmarked(lambda state: [])),
    "no mdp_terminal_value hook": dict(mdp_terminal_value=None),
}


def _page_errors():
    page = (DOCS / "writing-a-game.rst").read_text()
    section = page[page.index("When a game misbehaves"):]
    return re.findall(r"^   mdp: error: (.*)$", section, flags=re.MULTILINE)


def test_page_shows_one_error_line_per_broken_game():
    lines = _page_errors()
    assert len(lines) == len(BROKEN)
    for key in BROKEN:
        assert sum(key in line for line in lines) == 1, key


@pytest.mark.parametrize("key", BROKEN)
def test_broken_reroll_fails_with_the_line_on_the_page(key):
    (shown,) = [line for line in _page_errors() if key in line]
    with pytest.raises(mdp.ModelError) as raised:  # loading it, or compiling it
        mdp.solve(mdp.compile(_reroll_with(**BROKEN[key])), exact=True)
    assert str(raised.value) == shown


def test_reroll_policy_keeps_five_or_six_with_two_rolls_left():
    # From the derivation on the page: with two rolls left a face beats 17/4 only at 5 or 6.
    policy = mdp.policy(mdp.solve(mdp.compile(game := mdp.load_game(REROLL)), exact=True), game)
    kept = policy.filter((policy["rolls_left"] == 2) & (policy["action"] == "keep") & policy["optimal"])
    assert sorted(kept["face"].to_list()) == [5, 6]


def _console_blocks(section):
    """``(command, output lines)`` of each ``$ mdp ...`` in the section's console blocks."""
    blocks = re.findall(r"\.\. code-block:: console\n\n((?:   .*\n|\n)+)", section)
    found = []
    for block in blocks:
        lines = [line[3:] for line in block.rstrip().splitlines()]
        for i, line in enumerate(lines):
            if line.startswith("$ "):
                end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("$ ")), len(lines))
                found.append((line[2:], lines[i + 1:end]))
    return found


def _run_shown(command, cwd):
    """What a command prints as the page shows it run in ``cwd``: ``mdp`` run in this process
    (as tests/docs/test_docs_console.py runs every example; the program's own process is
    tested in tests/program), its pipe (``head -N``, ``grep PATTERN``) applied here."""
    import contextlib
    import io

    from mdp.program.cli import main

    first, *pipes = command.split(" | ")
    # A text stream with a byte buffer below it, as a real standard output has (some formats
    # write bytes), as docs/results.py runs the Results page's commands.
    out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="\n"), io.StringIO()
    with contextlib.chdir(cwd), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(shlex.split(first)[1:])
    assert code == 0, err.getvalue()
    out.flush()
    lines = out.buffer.getvalue().decode("utf-8").splitlines()
    for pipe in pipes:
        words = shlex.split(pipe)
        if words[0] == "head":
            lines = lines[:int(words[1].lstrip("-n "))]
        elif words[0] == "grep" and len(words) == 2:
            lines = [line for line in lines if re.search(words[1], line)]
        else:
            raise AssertionError(f"a pipe the test does not know: {pipe}")
    return lines


def _same_but_time(shown, real):
    """Equal, but for the seconds of a "states, solved in" line."""
    assert len(shown) == len(real), (shown, real)
    for a, b in zip(shown, real):
        if "solved in" in a:
            a, b = a.partition(" solved in")[0], b.partition(" solved in")[0]
        assert a == b


def _section(title, next_title):
    page = (DOCS / "writing-a-game.rst").read_text()
    return page[page.index(title):page.index(next_title)]


def test_the_four_hook_file_on_the_page_solves_as_shown(tmp_path):
    section = _section("From an empty file to", "A complete game\n~~~")
    code = re.search(r"\.\. code-block:: python\n\n((?:   .*\n|\n)+)", section).group(1)
    (tmp_path / "reroll.py").write_text("\n".join(line[3:] for line in code.splitlines()))
    ((command, shown),) = _console_blocks(section)
    assert command == "mdp solve reroll.py --exact"
    _same_but_time(shown, _run_shown(command, tmp_path))


@pytest.mark.slow
def test_the_yahtzee_commands_on_the_page_print_what_it_shows(yahtzee_full_free_joker, monkeypatch, capsys):
    commands = _console_blocks(_section("Five dice: Yahtzee\n---", "The hooks\n---"))
    assert len(commands) == 5  # the whole game last: 254.5896, then advice in it
    for command, shown in commands[:3]:
        _same_but_time(shown, _run_shown(command, DOCS.parent))
    # The whole game, run in this process on the solve of the session (tests/conftest.py;
    # tests/games/test_yahtzee_card.py checks its value): solved once, not once a command.
    from mdp.program.cli import main

    whole, solve, reused = yahtzee_full_free_joker.solution, mdp.solve, []

    def shared(model, **options):
        same = (model.info.game, model.info.params) == (whole.model.info.game, whole.model.info.params)
        if same and not options.get("exact") and options.get("sense") is None:
            reused.append(model)
            return whole
        return solve(model, **options)

    monkeypatch.setattr(mdp, "solve", shared)
    for command, shown in commands[3:]:
        assert "--variant full-free-joker" in command
        words, _, pipe = command.partition(" | ")
        assert main(shlex.split(words)[1:]) == 0
        printed = capsys.readouterr().out.splitlines()
        _same_but_time(shown, printed[:6] if pipe == "head -6" else printed)
    assert len(reused) == 2


def test_two_boxes_has_the_values_derived_by_hand():
    # "Games of rounds" on docs/writing-a-game.rst: EVEN left is worth 6, FACE left 17/4 (Reroll
    # with two throws), and the whole game 571/48.
    game = mdp.load_game(DOCS / "examples" / "two_boxes.py")
    rounds = mdp.compile(game)
    exact = mdp.solve(rounds, exact=True)
    assert exact.value == Fraction(571, 48)
    assert (exact.value_of(0b01), exact.value_of(0b10), exact.value_of(0b11)) == (6, Fraction(17, 4), 0)
    assert mdp.solve(rounds).value == pytest.approx(571 / 48, rel=1e-15)
    commands = _console_blocks(_section("Games of rounds\n~~~", "Three dice, hook by hook\n---"))
    assert [command.split()[1] for command, _ in commands] == ["solve", "advise", "distribution",
                                                            "strategies"]
    for command, shown in commands:
        _same_but_time(shown, _run_shown(command, DOCS.parent))
