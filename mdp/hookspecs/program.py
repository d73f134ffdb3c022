"""The hooks of the mdp program: output formats, commands, analyses and model exports.

They are implemented on one plugin manager for the whole program
(:func:`mdp.analysis.registry.plugins`): mdp's own first (:mod:`mdp.outputs.formats`,
:mod:`mdp.analysis.builtins`, :mod:`mdp.outputs.exports`, :mod:`mdp.program.builtins`), the
way pytest registers its built-in plugins, then every plugin offered in the ``mdp.plugins``
entry-point group of an installed package:

.. code-block:: toml

   [project.entry-points."mdp.plugins"]
   tsv = "my_package.tsv_format"

A plugin adds a format, a command, an analysis or an export without touching ``mdp/``. The
hooks of a game are in :mod:`mdp.hookspecs.game`: an ``mdp.plugins`` plugin that implements
one of them is refused with a line that says where it belongs.

Every hook here takes no argument, and every implementation is called: the lists are
joined, the built-ins' first, and a name offered twice is an error. Each is called once, when
the program (or :func:`mdp.formats`, :func:`mdp.commands`, :func:`mdp.analyses`,
:func:`mdp.exports`) first asks, so an implementation should import nothing heavy: ``mdp
--help`` lists every command without numpy or Polars.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mdp.hookspecs import hookspec

if TYPE_CHECKING:
    import mdp


@hookspec
def mdp_formats() -> list[mdp.Format]:
    """Offer output formats for tables: return a list of :class:`mdp.Format`.

    ``--out FILE`` picks a format by the file's extension, ``--format NAME`` by name;
    ``mdp formats`` lists them, and :func:`mdp.write_table` writes with them in Python.

    .. code-block:: python

        @hookimpl
        def mdp_formats():
            return [mdp.Format("tsv", (".tsv",), lambda frame, file: frame.write_csv(file, separator="\\t"),
                               "tab-separated values")]

    The writer gets a binary file: it writes bytes (``file.write(text.encode())``), not text.
    One that raises is the plugin's fault, named so: ``mdp: error: plugin my_formats.py's
    format tsv raised TypeError: ...``.

    A large table (the policy of a large game) comes as :class:`mdp.Pieces`: a format with
    ``stream=`` writes each piece as it comes (iterate over the pieces, all of one set of
    columns, :attr:`mdp.Pieces.schema` their types); one without is given the whole table.
    """


@hookspec
def mdp_commands() -> list[mdp.Command]:
    """Offer commands of the ``mdp`` program: return a list of :class:`mdp.Command`.

    Called once when the program starts, before its arguments are read.

    .. code-block:: python

        from mdp.program import arguments

        @hookimpl
        def mdp_commands():
            def run(args):  # the game as mdp's commands load it: --set, --variant, -p
                print(arguments.load(args).describe())

            return [mdp.Command("rules", "the rules of a game in words", run,
                                lambda parser: arguments.add_game_arguments(parser, solving=False))]
    """


@hookspec
def mdp_analyses() -> list[mdp.Analysis]:
    """Offer analyses: return a list of :class:`mdp.Analysis`, each a table computed from a
    solved (or compiled) game.

    Each analysis is one call in Python (:func:`mdp.analyse`) and one command of the ``mdp``
    program, with the game's options, its own options (each made from its
    :class:`mdp.Param`) and the output options of ``mdp policy``. mdp's own analyses (``policy``,
    ``distribution``, ``simulate``, ``strategies``, ``advise``, ``match``) are registered
    through this hook too.

    .. code-block:: python

        @hookimpl
        def mdp_analyses():
            def choices(solution, game, at_least):
                table = mdp.policy(solution, game)
                counts = table.group_by(["open", "roll"], maintain_order=True).len("choices")
                return counts.filter(pl.col("choices") >= at_least)

            return [mdp.Analysis("choices", "how many choices each decision offers", choices,
                                 [mdp.Param("at_least", 1, mdp.parse_int(1), "keep those with this many")])]
    """


@hookspec
def mdp_exports() -> list[mdp.Export]:
    """Offer model exports, for other tools: return a list of :class:`mdp.Export`.

    ``mdp export GAME --format NAME --out FILE`` compiles the game and writes its model with
    the export ``NAME`` (the first offered, ``prism``, by default); :func:`mdp.exports` lists
    them in Python.

    .. code-block:: python

        @hookimpl
        def mdp_exports():
            def write(model, path):
                mdp.write_table(model.terminals, path, "csv")
                return [path]

            return [mdp.Export("terminals", "the terminal states' columns, as CSV", write)]
    """
