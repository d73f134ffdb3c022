"""Two scoring rules of one name, or a name that is not one word, are refused, blamed on the
rule plugin that offers it: a plugin's rule named like the game's would replace it without a
word (the default ``win`` too), and ``--set scoring=NAME`` could not reach a name with a comma
or a space."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdp

RULE = '''
import mdp
import numpy as np
from mdp_games.shutbox.scoring import ScoringRule

@mdp.hookimpl
def shutbox_scoring_rules():
    return [ScoringRule({name!r}, "tiles open", "max",
                        lambda box, masks: np.ones(len(masks), dtype=np.int64))]
'''


@pytest.fixture(autouse=True)
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # plugins named by the file name given


def offer(name, file="house.py"):
    """Shut the Box on tiles 1-4 with the plugin ``file``, offering a rule named ``name``."""
    with open(file, "w") as out:
        out.write(RULE.format(name=name))
    return mdp.load_game("shutbox", plugins=[file], tiles="1-4")


@pytest.mark.parametrize("name", ["win", "score", "payout"])
def test_a_rule_named_like_the_games_own_is_refused_naming_the_plugin(tmp_path, name):
    with pytest.raises(mdp.ModelError) as error:
        mdp.compile(offer(name))
    assert str(error.value) == (
        f"game shutbox: plugin house.py's shutbox_scoring_rules offers a scoring rule named "
        f"{name!r}, as another rule is: give each scoring rule a name of its own")


def test_two_plugins_offering_one_name_blame_the_second():
    offer("count", "one.py")
    offer("count", "two.py")
    with pytest.raises(mdp.ModelError, match="plugin two.py's shutbox_scoring_rules offers a "
                                             "scoring rule named 'count', as another"):
        mdp.load_game("shutbox", plugins=["one.py", "two.py"])


@settings(max_examples=30, deadline=None)
@given(st.text(st.sampled_from("ab ,\t\n"), max_size=4).filter(
    lambda n: not n or any(c == "," or c.isspace() for c in n)))
def test_a_name_that_is_not_one_word_is_refused(name):
    with pytest.raises(mdp.ModelError, match=r"plugin house.py's shutbox_scoring_rules offers a "
                                             r"scoring rule named .*, not a name: give a word"):
        mdp.compile(offer(name))


def test_a_rule_of_a_name_of_its_own_is_solved():
    # Every final position worth 1: the value is 1 whatever is played.
    game = offer("count")
    assert mdp.solve(mdp.compile(mdp.load_game("shutbox", plugins=["house.py"], tiles="1-4",
                                               scoring="count")), exact=True).value == 1
    assert mdp.solve(mdp.compile(game), exact=True).value == mdp.solve(
        mdp.compile(mdp.load_game("shutbox", tiles="1-4")), exact=True).value  # still the win
