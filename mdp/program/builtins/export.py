"""``mdp export``: a compiled model written for other tools (a built-in plugin, see
:mod:`mdp.program.registry`)."""

from __future__ import annotations

import argparse
import sys

import mdp
from mdp.program import arguments
from mdp.program.registry import Command
from mdp.game.hookspecs import hookimpl

EXPORTS = {"prism": "a PRISM MDP with explicit states, and its property in FILE.props"}
"""The formats ``mdp export`` writes, with what each is."""


def _arguments(parser: argparse.ArgumentParser) -> None:
    arguments.add_game_arguments(parser, solving=False)
    parser.add_argument("--out", "-o", metavar="FILE", required=True,
                        help="the file to write (and FILE.props beside it, for prism)")
    parser.add_argument("--format", "-f", metavar="NAME", default="prism", choices=EXPORTS,
                        help="the format to write: " + "; ".join(
                            f"{name}: {what}" for name, what in EXPORTS.items())
                        + " [default: prism]")
    arguments.add_limit_arguments(parser)


def _export(args: argparse.Namespace) -> None:
    from mdp.outputs.files import check_target
    from mdp.outputs.prism import write_prism

    for target in (args.out, args.out + ".props"):
        check_target(target)  # before any work
    game = arguments.load(args)
    with arguments.Progress() as progress:
        model = arguments.compiled(args, game, progress)
    model_path, props = write_prism(model, args.out)
    print(f"{model.n_states:,} states written to {model_path}, the property to {props}",
          file=sys.stderr)


@hookimpl
def mdp_commands() -> list[Command]:
    return [Command("export", "write a game's model for another tool (PRISM)", _export,
                    _arguments, "Compile a game and write its model in a format other tools "
                    "read: a PRISM MDP, whose property Rmax=? [ F \"done\" ] (Rmin for a "
                    "minimizing game), written to FILE.props, is the game's value.")]
