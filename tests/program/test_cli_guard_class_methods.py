"""A method (or other descriptor) of a class in a module mdp computes with, replaced by a
game's or plugin's code, is refused like the module's own functions: round 18,
``fractions.Fraction.__str__`` replaced changed every exact value in tables (exit 0), and
``polars.DataFrame.write_csv`` replaced wrote one row of two ("2 rows written")."""

import importlib
import random

import pytest
from models import WALK, run_changes

import mdp
from mdp.errors import ModelError
from mdp.program import guard

MODULES = ("fractions", "decimal", "polars", "numpy", "mdp")


def _members():
    """Every (class, attribute) that a class among these modules' attributes has of its own,
    a function or another descriptor, where the class's attributes can be set at all."""
    found = {}
    for name in MODULES:
        for value in vars(importlib.import_module(name)).values():
            if not isinstance(value, type):
                continue
            try:
                value._probe = None  # a type none can change: passed over
                del value._probe
            except (TypeError, AttributeError):
                continue
            for attribute, member in list(vars(value).items()):
                if callable(member) or hasattr(type(member), "__get__"):
                    try:
                        setattr(value, attribute, member)  # (one no code can set: passed over)
                    except (TypeError, AttributeError):
                        continue
                    found[f"{value.__module__}.{value.__qualname__}.{attribute}"] = (value, attribute)
    return found


MEMBERS = _members()


@pytest.mark.slow  # half a second or more of CPU
def test_every_method_of_a_class_is_watched_and_a_sample_replaced_is_refused():
    """Every one of some 2,000 methods is among those the guard records; a sample of them
    (a new one each run, and the two of round 18), each replaced in turn, is refused by its
    name, and nothing once put back: a check takes milliseconds, and all 2,000 took half a
    minute."""
    assert {"fractions.Fraction.__str__", "polars.dataframe.frame.DataFrame.write_csv"} <= set(MEMBERS)
    unseen, unwatched = [], []
    guard.record()
    try:
        classes = guard._recorded["classes"]
        for name, (cls, attribute) in MEMBERS.items():
            if id(cls) not in classes or attribute not in classes[id(cls)][1][0]:
                unwatched.append(name)
        guard.check("game g")  # nothing changed: nothing said
        sample = random.Random().sample(sorted(MEMBERS), 200)
        for name in ["fractions.Fraction.__str__", "polars.dataframe.frame.DataFrame.write_csv", *sample]:
            cls, attribute = MEMBERS[name]
            was = vars(cls)[attribute]
            setattr(cls, attribute, lambda *args, **kwargs: None)
            try:
                guard.check("game g")
                unseen.append(name)
            except ModelError as error:
                assert str(error).startswith(f"game g replaced {name} while"), str(error)
            finally:
                setattr(cls, attribute, was)
            guard.check("game g")  # put back: nothing said
    finally:
        guard.forget()
    assert unwatched == [] and unseen == []


# The game (value 3, walking away) replaces a method where its hook runs.
GAME = WALK.replace("import mdp", "import fractions, polars\nimport mdp").replace(
    '    return {"walk": WORTH', '    CHANGE\n    return {"walk": 3')
CHANGES = {
    "fractions.Fraction.__str__ = lambda self: '7/3'": "fractions.Fraction.__str__",
    "polars.DataFrame.write_csv = lambda self, *a, **k: None":
        "polars.dataframe.frame.DataFrame.write_csv",
}


@pytest.mark.slow  # a process of mdp, a command each
def test_a_game_that_replaces_a_method_is_refused_and_writes_nothing(tmp_path):
    results, out = run_changes(tmp_path, GAME, CHANGES, ["policy", "game.py", "--exact", "--out", "p.csv"],
                               restore=("fractions.Fraction", "polars.DataFrame"))
    for (code, names, err), replaced in zip(results, CHANGES.values(), strict=True):
        assert code == 2, err
        assert err == (f"mdp: error: game walk replaced {replaced} while its code ran; a game or "
                       "plugin must leave the process as it found it")
        assert names == ["game.py"]
    assert out == ""


assert mdp  # the package's classes are among those swept
