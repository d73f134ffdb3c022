"""``mdp export``: a compiled model written for other tools, by any export on offer
(:func:`mdp.exports`; mdp's own, PRISM, is in :mod:`mdp.outputs.exports`), a built-in plugin
(see :mod:`mdp.program.registry`)."""

from __future__ import annotations

import argparse
import os

import mdp
from mdp.errors import ParamError
from mdp.hookspecs import hookimpl
from mdp.outputs.exports import write_export
from mdp.outputs.files import say_when_written
from mdp.program import arguments
from mdp.program.helptext import as_written
from mdp.program.registry import Command


def _arguments(parser: argparse.ArgumentParser) -> None:
    exports = mdp.exports()
    beside = "; ".join(f"FILE{suffix} beside it, for {export.name}"
                       for export in exports.values() for suffix, _ in export.beside)
    default = next(iter(exports), None)
    arguments.add_game_arguments(parser, solving=False)
    parser.add_argument("--out", "-o", metavar="FILE", required=True,
                        help=as_written("the file to write" + (f" (and {beside})" if beside else "")))
    parser.add_argument("--format", "-f", metavar="NAME", default=default, choices=exports,
                        help=as_written("the format to write: " + "; ".join(
                            f"{name}: {export.help}" for name, export in exports.items())
                        + f" [default: {default}]"))
    arguments.add_limit_arguments(parser)


def _export(args: argparse.Namespace) -> None:
    if args.format is None:  # a plugin's wrapper of mdp_exports left none
        raise ParamError("no export is registered (a plugin's mdp_exports left none): there is "
                         "no format to write")
    export = mdp.exports()[args.format]
    arguments.check_target(args.out, "--out")  # before any work
    if export.beside and os.path.exists(args.out) and not os.path.isfile(args.out):
        raise ParamError(f"--out {args.out} is no file, and export {export.name} writes "
                         f"{args.out}{export.beside[0][0]} beside it too: name a file")
    for suffix, _ in export.beside:
        arguments.check_target(args.out + suffix, f"--out{suffix}")
    game = arguments.load(args, one_model="mdp export")
    with arguments.Progress() as progress:
        model = arguments.compiled(args, game, progress).single("mdp export")
    written = write_export(export, model, args.out)
    named = {args.out + suffix: what for suffix, what in export.beside}
    others = "".join(f", {named[path]} to {path}" if path in named else f", {path}"
                     for path in written[1:])
    say_when_written(f"the model of {model.n_states:,} states exported to {written[0]}{others}")


@hookimpl
def mdp_commands() -> list[Command]:
    return [Command("export", "write a game's model for another tool (PRISM)", _export,
                    _arguments, "Compile a game and write its model in a format other tools "
                    "read: a PRISM MDP, whose property Rmax=? [ F \"done\" ] (Rmin for a "
                    "minimizing game), written to FILE.props, is the game's value.")]
