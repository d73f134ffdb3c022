"""What a plugin names (a parameter, a variant, a format, a command...) is a word of text,
given on the command line, and a format's extensions are a tuple of ".word": anything else
is refused in one line when the plugin's list is read (an int name was a TypeError traceback
in mdp params, an empty name or one with a space was taken, and an extension given as a
str, ("nodot") for ("nodot",), was read letter by letter)."""

from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp
from mdp.program.registry import plugins

NAMES = st.one_of(st.text(max_size=6), st.sampled_from(["a=b", "a,b", "=", "ok_name", "-h", "--exact", "a-b"]),
                  st.integers(), st.none())


def _word(name):
    return isinstance(name, str) and name != "" and name.isprintable() and \
        not any(c.isspace() or c in "=," for c in name) and name[0] != "-"  # --set NAME=VALUE, lists
    # by ",", and "-h" is an option (--strategy -h asked for help)


@settings(max_examples=60, deadline=None)
@given(NAMES)
def test_a_parameter_is_named_by_a_word_or_refused(name):
    def mdp_params():
        return [mdp.Param(name, 1, mdp.parse_int(1), "a count")]

    def mdp_initial_state():
        return 0

    def mdp_actions(state):
        return []

    def mdp_terminal_value(state):
        return 0

    hooks = (mdp_params, mdp_initial_state, mdp_actions, mdp_terminal_value)
    module = SimpleNamespace(GAME_NAME="named", **{f.__name__: mdp.hookimpl(f) for f in hooks})
    if _word(name):
        try:
            mdp.load_game(module)
        except mdp.MdpError as error:  # a name refused for another reason: a reserved one
            assert "a word of text" not in str(error)
    else:
        with pytest.raises(mdp.ModelError, match=r"^game named: mdp_params returned an mdp.Param "
                           r"named .*; a name is a word of text, no spaces, '=' or ',', not starting with '-'$"):
            mdp.load_game(module)


EXTENSIONS = st.one_of(st.text(max_size=5), st.tuples(st.text(max_size=5)),
                       st.lists(st.sampled_from([".tsv", ".", "tsv", ".t v", ".TSV2"]), max_size=2))


@settings(max_examples=60, deadline=None)
@given(NAMES, EXTENSIONS)
def test_a_format_is_named_by_a_word_with_extensions_of_a_dot_and_a_word(name, extensions):
    class Offering:
        @mdp.hookimpl
        def mdp_formats(self):
            return [mdp.Format(name, extensions, lambda frame, file: None)]

    offering = Offering()
    plugins().register(offering, name="offering")
    try:
        good = isinstance(extensions, (list, tuple)) and all(
            isinstance(e, str) and len(e) > 1 and e[0] == "." and _word(e) and "/" not in e
            and "\\" not in e for e in extensions)
        if _word(name) and good:
            try:
                found = mdp.formats()
            except mdp.ModelError as error:  # a clash with a built-in's name or extension
                assert "both" in str(error) or "offered" in str(error) or "twice" in str(error), error
            else:
                assert found[name].extensions == extensions
        else:
            with pytest.raises(mdp.ModelError, match=r"^(a plugin of mdp: plugin offering.s mdp_formats returned an "
                               r"mdp.Format named .*; a name is a word|format .*: extensions .*: "
                               r"expected a tuple of extensions)"):
                mdp.formats()
    finally:
        plugins().unregister(offering)


TEXTS = st.one_of(st.text(max_size=6), st.sampled_from(["two\nlines", "bonus\x1b[2Jcleared", "tab\there",
                                                        "ok words", "\u2028"]))
DECLARED = {  # each hook with a text in each place a declaration holds one for people
    "variant rules": ("mdp_variants", lambda text: [mdp.Variant("b", {"rounds": "2"}, text)]),
    "variant value": ("mdp_variants", lambda text: [mdp.Variant("b", {"word": text}, "rules")]),
    "param help": ("mdp_params", lambda text: [mdp.Param("word", "a", str, text)]),
}  # (a game's parameter has no metavar: tests/game/test_param_option_fields.py)


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(sorted(DECLARED)), TEXTS)
def test_every_declared_text_is_one_line_or_refused_naming_the_hook(where, text):
    # A variant's rules were printed raw by mdp variants: a line break forged a line of
    # mdp's own ("mdp: error: ..."), an escape code cleared the terminal. Every text a plugin
    # declares for people is checked in one place, as a Param's help was: printable, or
    # refused naming the hook (a declaration stays valid otherwise: rounds and word exist).
    hook, declared = DECLARED[where]

    def mdp_params():
        return declared(text) if hook == "mdp_params" else [
            mdp.Param("rounds", 1, mdp.parse_int(1), "rounds"), mdp.Param("word", "a", str, "a word")]

    def mdp_variants():
        return declared(text) if hook == "mdp_variants" else []

    def mdp_initial_state():
        return 0

    def mdp_actions(state):
        return []

    def mdp_terminal_value(state):
        return 0

    hooks = (mdp_params, mdp_variants, mdp_initial_state, mdp_actions, mdp_terminal_value)
    module = SimpleNamespace(GAME_NAME="texts", **{f.__name__: mdp.hookimpl(f) for f in hooks})
    if text.isprintable() and (where != "variant rules" or text.strip()):  # a variant's rules said
        mdp.load_game(module)
        return
    with pytest.raises(mdp.ModelError) as error:
        mdp.load_game(module)
    message = str(error.value)
    assert message.startswith(f"game texts: {hook} returned an mdp.") and "\n" not in message
    assert message.endswith(f"is {text!r}, not one line of text" if not text.isprintable() else
                            "with no rules: say what it plays in a few words")
