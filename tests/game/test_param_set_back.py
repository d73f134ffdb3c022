"""A parameter's value is recorded as the text ``--set`` takes back, and ``--set`` gives a
value's text without spaces at either end (round 32, P32-04): a default ``" x"`` was
recorded as ``" x"`` and set back as ``"x"``, another game; ``mdp.parse_choice`` took choices
that no ``--set`` gives (``"a "``), given twice, or alike (``"ﬁ"`` beside ``"fi"``); and (round
34, P34-02 and -13) choices that ``--vary`` cannot give (``"a;b"``) or gives as two, and ``"x"``
beside ``"X"``. Generated: lists of choices and defaults of text, each refused in one line or
set back as the same game, by ``--set`` and by ``--vary``."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import DECLARES

import mdp
from mdp.analysis.vary import parse_vary
from mdp.shown import seen

WORDS = st.sampled_from(["a", "a ", " a", "b", "ﬁ", "fi", "", "a\nb", "x y", "A", "a;b", "a,b", "Ｂ"])
_written = itertools.count()


def game_of(where, default, parser):
    path = where / f"chooses{next(_written)}.py"
    path.write_text(DECLARES.format(name="chooses", declared=f'mdp.Param("mode", {default!r}, {parser}, "a mode")'))
    return str(path)


@settings(max_examples=40, deadline=None)
@given(st.lists(WORDS, min_size=1, max_size=4), WORDS)
def test_choices_and_defaults_are_what_set_gives_back(tmp_path_factory, choices, default):
    plain = all(c and c == c.strip() and c.isprintable() and not {",", ";"} & set(c) for c in choices) \
        and len({seen(c).casefold() for c in choices}) == len(choices)
    path = game_of(tmp_path_factory.mktemp("chooses"), default, f"mdp.parse_choice({choices!r})")
    try:
        game = mdp.load_game(path)
    except mdp.ModelError as refused:
        said = str(refused)
        assert "\n" not in said and said.startswith("game chooses: "), said
        if not plain:
            assert "mdp_params raised ParamError: mdp.parse_choice: allowed is " in said, said
        else:  # the default is no choice, or one that --set gives otherwise
            assert default not in choices or default != default.strip(), said
        return
    assert plain and default in choices and default == default.strip()
    again = mdp.load_game(path, mode=game.params["mode"].strip())  # as --set gives it back
    assert again.params == game.params
    for choice in choices:  # --vary gives each choice back, alone and among the others
        assert parse_vary([f"mode={choice}"]) == {"mode": [choice]}
        assert parse_vary([f"mode={','.join(choices)}"]) == {"mode": list(choices)}


@pytest.mark.parametrize("default", [" x", "x ", " x "])
def test_a_text_default_with_spaces_at_either_end_is_refused(tmp_path, default):
    with pytest.raises(mdp.ModelError, match=r"^game chooses: parameter mode: its value .* has a space at "
                       r"either end, which --set reads as mode='x'; a value is shown as the text --set"):
        mdp.load_game(game_of(tmp_path, default, "str"))
