"""A parameter whose parser is no parser is the declaring plugin's fault, refused as the game
loads, naming the plugin and the parameter: mdp.parse_int itself (the maker of a parser,
not one) made the value a function, and --set bonus=3 was blamed on the user ("mdp.parse_int:
minimum is '3'"). Generated plugins whose parser returns what no parameter's value is (a
function, a class, a module, an iterator), or is a maker of parsers, with or without a
default."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp

NOT_VALUES = {  # a parser's answer that no value of a parameter is
    "a function": "lambda value: (lambda: value)", "a class": "lambda value: int",
    "a module": "lambda value: math", "an iterator": "lambda value: iter([value])",
    "a generator": "lambda value: (v for v in [value])",
    "the maker itself": "mdp.parse_int", "a maker of choices": "mdp.parse_choice",
}
PLUGIN = '''import math
import mdp

GAME = "shutbox"


@mdp.hookimpl
def mdp_params():
    return [mdp.Param("bonus", {default}, {parser}, "a bonus")]
'''
_written = itertools.count()


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(NOT_VALUES)), st.sampled_from(["0", "'3'", "None"]),
       st.sampled_from([None, "3"]))
def test_a_parser_that_reads_no_value_is_the_plugin_s_fault_at_load(tmp_path_factory, kind, default, given_value):
    path = tmp_path_factory.mktemp("p") / f"p{next(_written)}.py"
    path.write_text(PLUGIN.format(default=default, parser=NOT_VALUES[kind]))
    settings_ = {} if given_value is None else {"bonus": given_value}
    maker = kind.startswith(("the maker", "a maker"))
    if default == "None" and not maker and given_value is None:
        mdp.load_game("shutbox", plugins=[str(path)], tiles="1-3")  # nothing read: nothing wrong
        return
    with pytest.raises(mdp.ModelError) as refused:
        mdp.load_game("shutbox", plugins=[str(path)], tiles="1-3", **settings_)
    said = str(refused.value)
    assert "\n" not in said and "parameter bonus" in said
    if default != "None" or maker:  # read as the game loads: the plugin named
        assert said.startswith(f"game shutbox: plugin {path}'s mdp_params declared parameter bonus badly")
    assert ("which makes a parser" in said) if maker else ("which no value of a parameter is" in said)

