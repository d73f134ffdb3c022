"""The ``mdp`` program: a thin layer over the Python API.

Its commands are the :class:`mdp.Command` s and :class:`mdp.Analysis` es that plugins offer,
mdp's own among them (:mod:`mdp.program.builtins.core`).
"""

from __future__ import annotations

import argparse
import atexit
import errno
import gc
import os
import sys

from mdp.program import arguments
from mdp.errors import MdpError, TooLarge
from mdp.program.registry import Analysis, Command, analyse, analyses, commands


EXIT_ERROR = 2
"""A mistake in the input, or a plugin that misbehaves: one line on stderr."""
EXIT_TOO_LARGE = 3
"""The model would pass the state limit or the memory budget."""
EXIT_INTERRUPTED = 130


def main(argv: list[str] | None = None) -> int:
    _freeze_at_exit()
    _numpy_settings()
    if sys.stdout is None:  # started with standard output closed (mdp ... >&-)
        sys.stdout = _Closed()
    try:
        args = _parser(_command_named(sys.argv[1:] if argv is None else argv)).parse_args(argv)
        code = args.command.run(args) or 0
        sys.stdout.flush()  # a full standard output fails here, not silently at exit
        return code
    except TooLarge as error:
        return _error(error, EXIT_TOO_LARGE)
    except MdpError as error:
        return _error(error, EXIT_ERROR)
    except KeyboardInterrupt:
        print("mdp: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (mdp policy ... | head): stop quietly, as Unix tools do.
        _drop_stdout()
        return 0
    except OSError as error:
        if error.errno not in _OUTPUT_ERRORS:
            raise
        _drop_stdout()
        return _error(MdpError(f"cannot write to standard output: {error.strerror}"), EXIT_ERROR)


def _freeze_at_exit() -> None:
    """Have the interpreter leave the objects made so far out of its last garbage collection.

    At exit Python collects garbage once more, walking every object it still holds: nearly
    all of them modules, classes and functions (numpy's thousands) that live to the end
    anyway. The walk costs about 15 ms, more than solving a small game. Frozen
    (:func:`gc.freeze`) as the exit handlers run, they are left to the operating system.
    Exit handlers still run, modules are still cleared (so open files are flushed and
    closed), and Python never promised to finalize what is still alive at exit. Registered
    once, however often ``main`` runs.
    """
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)


# The variables by which OpenBLAS (numpy's matrix library) is told how many threads to start.
_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


def _numpy_settings() -> None:
    """Settings numpy reads as it loads (so none once it is loaded), each unless the user
    set it.

    - One OpenBLAS thread: mdp multiplies no matrices, and OpenBLAS starts a thread for
      each other core as numpy loads, each spinning for about 0.1 s in wait for work. On a
      busy machine they take the solve's core: ``mdp solve shutbox`` took 0.166 s against
      0.117 s on two shared cores. Set ``OPENBLAS_NUM_THREADS`` for a plugin that
      multiplies large matrices.
    - No huge pages (``NUMPY_MADVISE_HUGEPAGE=0``): numpy asks the kernel for them for
      every array of 4 MB or more, and where the kernel then compacts memory on the spot
      (transparent huge pages with ``defrag`` set to ``madvise``, a common default) a fresh
      array costs six times the time: 1.0 s against 0.16 s for 400 MB on the benchmark
      machine, and 5.6 s against 4.7 s for the 23 million states of the benchmark's
      ``twenty`` case.
    """
    if "numpy" in sys.modules:
        return
    if not any(os.environ.get(name) for name in _BLAS_THREADS):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
    os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")


# What a full, closed or broken standard output raises when written to.
_OUTPUT_ERRORS = {errno.ENOSPC, errno.EBADF, errno.EIO, errno.EDQUOT, errno.EFBIG}


def _error(error: MdpError, code: int) -> int:
    print(f"mdp: error: {error}", file=sys.stderr)
    return code


def _drop_stdout() -> None:
    """Send what is left in standard output's buffer nowhere, so that Python's own flush at
    exit does not fail again with a traceback."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        sys.stdout = open(os.devnull, "w")


class _Closed:
    """Standard output when it was closed before mdp started: writing to it is one error."""

    def write(self, text: str) -> int:
        raise MdpError("standard output is closed; redirect it to a file, or use --out")

    def flush(self) -> None:
        pass

    @property
    def buffer(self):
        return self

    def isatty(self) -> bool:
        return False


def _command_named(argv: list[str]) -> str | None:
    """The command the arguments name, if the first that is not an option names one."""
    return next((a for a in argv if not a.startswith("-")), None)


def _parser(only: str | None = None) -> argparse.ArgumentParser:
    """The program's parser; with ``only`` a command's name, that command's alone (the others
    cost start-up time to build), else every command's (for ``mdp --help`` and a mistyped
    command)."""
    parser = argparse.ArgumentParser(
        prog="mdp", formatter_class=_Formatter,
        description="Solve finite-horizon Markov decision processes exactly: "
        "the best play and its value, for games of chance and choice.",
        epilog="Examples: mdp solve games/shutbox --exact; mdp policy shutbox --out policy.parquet",
    )
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    subparsers = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")
    offered = {**commands(), **{name: _command(a) for name, a in analyses().items()}}
    if only in offered:
        offered = {only: offered[only]}
    for command in offered.values():
        sub = subparsers.add_parser(command.name, help=command.help, formatter_class=_Formatter,
                                    description=command.description or command.help)
        if command.arguments:
            command.arguments(sub)
        sub.set_defaults(command=command)
    return parser


class _Formatter(argparse.HelpFormatter):
    """argparse's help formatter, as wide as the terminal as it would make it, but without
    importing :mod:`shutil` for the width: that module and the compression modules it imports
    cost 2 ms of start-up, and argparse makes a formatter for every argument added."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        if width is None:  # shutil.get_terminal_size().columns - 2, as argparse has it
            width = _terminal_columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)


def _terminal_columns() -> int:
    """The columns of :func:`shutil.get_terminal_size`: ``$COLUMNS``, else the terminal's,
    else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):  # no standard output, or not a terminal
        return 80


def _command(analysis: Analysis) -> Command:
    """An analysis as a command: solve the game, run the analysis, write the table."""

    def add_arguments(parser: argparse.ArgumentParser) -> None:
        arguments.add_game_arguments(parser)
        arguments.add_output_arguments(parser)
        for option in analysis.options:
            flag = "--" + option.name.replace("_", "-")
            if option.default is False:
                parser.add_argument(flag, dest=f"option_{option.name}", action="store_true",
                                    help=option.help)
            else:
                parser.add_argument(flag, dest=f"option_{option.name}", metavar="VALUE",
                                    help=f"{option.help} [default: {option.shown(option.default)}]")
        parser.add_argument("--json", action="store_true", help="print a JSON summary on stdout "
                            "(with --out; without it, the table is not printed)")

    def run(args: argparse.Namespace) -> None:
        fmt = arguments.output_format(args) if args.out or not args.json else None
        options = {o.name: getattr(args, f"option_{o.name}") for o in analysis.options
                   if getattr(args, f"option_{o.name}") is not None}
        game, solution = arguments.solved(args)
        table = analyse(analysis.name, solution, game, **options)
        if fmt is not None:
            arguments.emit(table, args, fmt)
        if args.json:
            arguments.print_json({**solution.summary(), "rows": table.height,
                                  "columns": table.columns, "out": args.out})
        elif args.out:
            print(f"{table.height:,} rows written to {args.out}", file=sys.stderr)

    return Command(analysis.name, analysis.help, run, add_arguments, analysis.description)


class _Version(argparse.Action):
    """Looks the version up only when asked: package metadata is slow to import."""

    def __call__(self, parser, namespace, values, option_string=None):
        from importlib.metadata import PackageNotFoundError, version

        try:
            parser.exit(message=f"mdp {version('exact-mdp')}\n")
        except PackageNotFoundError:
            parser.exit(message="mdp (not installed)\n")


if __name__ == "__main__":
    sys.exit(main())
