"""Text in a column a table shows, with a control character (a line break, an escape code, a
format character), would forge or wipe what the table shows and could not be typed back to
name the state: refused in one line naming the game, the column and the value, as a
column's name is. Which characters: those of Unicode's categories Cc, Cf, Zl and Zp, found
here with unicodedata (the engine asks Polars)."""

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import coin

import mdp

TEXT = st.text(st.characters(codec="utf-8") | st.sampled_from("\n\r\t\x1b\x7f\u200b\u2028 é"),
               max_size=6)


@settings(max_examples=60, deadline=None)
@given(texts=st.lists(TEXT, min_size=3, max_size=3, unique=True))
def test_text_with_a_control_character_is_refused(texts):
    table = coin()  # states start, won, lost, walked
    shown = dict(zip(("won", "lost", "walked"), texts))
    table.mdp_state_columns = mdp.hookimpl(lambda state: {"s": shown.get(state, "start")})
    model = mdp.compile(mdp.load_game(table))
    odd = [t for t in texts if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in t)]
    if not odd:  # the terminal states' table shows each as given
        assert sorted(model.terminals["s"].to_list()) == sorted(texts)
        return
    with pytest.raises(mdp.ModelError) as raised:
        model.terminals  # noqa: B018  (made as it is read)
    message = str(raised.value)
    assert message.startswith("game table: column 's' holds ") and "\n" not in message, message
    assert "text with a control character" in message
