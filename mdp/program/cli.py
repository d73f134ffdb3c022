"""The ``mdp`` program, a thin layer over the Python API: its commands are the
:class:`mdp.Command` s and :class:`mdp.Analysis` es that plugins offer, mdp's own among them
(:mod:`mdp.program.builtins`, :mod:`mdp.analysis.builtins`)."""

from __future__ import annotations

import argparse
import atexit
import errno
import gc
import inspect
import os
import sys
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any, NoReturn

import mdp
from mdp.analysis.registry import Analysis, builtins_only
from mdp.checks import shown
from mdp.engine.cluster import on_cluster
from mdp.engine.parallel import unpin
from mdp.errors import (
    Ended,
    MdpError,
    ModelError,
    ParamError,
    TooLarge,
    UnboundedWarning,
    by_user,
    did_you_mean,
    fault,
    passed_on,
    raised_in_plugin,
    say,
    say_interrupted,
    watch_interruptions,
)
from mdp.outputs.files import together
from mdp.program import EXIT_INTERRUPTED, arguments, guard, helptext, parsing, registry, repeated, stdout
from mdp.program.analysis_command import command as analysis_command
from mdp.program.analysis_command import whose
from mdp.program.environment import (
    check_environment,
    check_numpy_environment,
    clear_polars_environment,
    numpy_settings,
)
from mdp.program.helptext import Formatter as _Formatter
from mdp.program.registry import COMPLETE, Command, commands_and_analyses
from mdp.program.states import command_warnings

if TYPE_CHECKING:
    pass

EXIT_ERROR = 2
"""A mistake in the input, or a plugin that misbehaves: one line on stderr."""
EXIT_TOO_LARGE = 3
"""The model would pass the state limit or the memory budget."""


def _worded(error: BaseException, args: argparse.Namespace) -> BaseException:
    """``error`` with the round state it names in words (:func:`mdp.analysis.labels.worded`),
    or as it is where the words cannot be had: the import of what words it (numpy) fails in a
    process whose modules a game broke, and the refusal is still one line."""
    try:
        from mdp.analysis.labels import worded  # (numpy: only where an error came)
    except ImportError:
        return error
    return worded(error, getattr(args, "loaded", None), varied=bool(getattr(args, "vary", None)))


def main(argv: list[str] | None = None) -> int:
    _freeze_at_exit()
    numpy_settings()
    # Exact numbers written whole, however many digits (PYTHONINTMAXSTRDIGITS: 4,300 by default)
    previous_digits = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    cleared = clear_polars_environment()  # mdp decides how Polars runs for its own work
    previous = stdout.take()  # mdp's alone; started closed (mdp ... >&-), or its reader gone
    filters = command_warnings()  # mdp's own, which the guard then records
    guard.record()  # before any plugin's or game's code runs
    try:
        check_numpy_environment()
        argv = sys.argv[1:] if argv is None else argv
        if argv[:1] == [COMPLETE]:  # a shell's completion script asks (mdp completion), as
            from mdp.program.builtins.completion import answer  # the words are typed: -p too

            return answer(argv[1:], _parser)
        # a plugin's print as it is imported: no output of mdp's; its KeyboardInterrupt: its fault
        with stdout.shielded(), watch_interruptions():
            given, rule_plugins = _plugins_given(argv)
            parser = _parser_asked(given) if given else None
            if parser is None:  # mdp alone: what it can do (a plugin's print: standard error)
                _parser().print_help(stdout.stdout())
                return stdout.ended(0)
        try:
            args = parsing.parsed(parser, given)
        except SystemExit:  # --help, --version: printed, and there; a mistake: said
            stdout.ended(0)
            raise
        files, takes_out = _files(parser, args)
        stdout.settle(bool(files), takes_out)
        check_environment()
        stdout.check_alone(args, files)
        _hand_over(args, rule_plugins)
        # Ctrl-C told apart from a plugin's KeyboardInterrupt; the files written one set.
        with watch_interruptions(), together():
            # Named as what they are where a target is one, before it is taken for a module.
            arguments.reading_given(args)
            if getattr(args, "scheduler", None):  # (its import changes the import machinery)
                guard.own_import("distributed", whose(args))
            try:  # a plugin's print must not spoil the JSON or a table on standard output
                with stdout.shielded(stdout.machine_output(args)), \
                        on_cluster(getattr(args, "scheduler", None)):
                    code = _exit_code(args.command, args.command.run(args))
                    guard.check(whose(args))
            except SystemExit as exited:  # a plugin's command must not end mdp, silently
                by = registry.offered_by(args.command.name)
                who = f"plugin {by[0]}'s {by[1]}" if by else "command"
                raise ModelError(f"{who} {args.command.name} raised SystemExit({exited.code!r}); " + (
                    "an analysis never ends mdp" if by and by[1] == "analysis" else
                    "a command returns its exit code")) from None
            except (KeyboardInterrupt, Ended) as error:  # a game's or plugin's, past its hooks
                if by_user(error):
                    raise
                raise ModelError(f"{whose(args)} raised {fault(error)}" + (", and no one interrupted "
                                 "it" if isinstance(error, KeyboardInterrupt) else "")) from None
            except (MdpError, OSError) as error:  # (the game's str, say, failed mdp's own checks)
                guard.builtins_first(lambda: whose(args))
                offered = registry.offered_by(args.command.name)
                if offered is not None and raised_in_plugin(error) and \
                        not passed_on(error, f"plugin {offered[0]}", refusal=ParamError) and \
                        not (isinstance(error, BrokenPipeError) and stdout.reader_gone()):
                    # its own (a pipe of its own broken, mdp.TooLarge raised): not mdp's word
                    raise ModelError(f"plugin {offered[0]}'s {offered[1]} {args.command.name} "
                                     f"raised {fault(error)}") from None
                # (no name kept for the error: a frame's name would hold it, and the game's
                # objects its frames hold, to the program's end, never finalized)
                raise followable(_worded(error, args), args.command.name,
                                 parsing.takes(parser, args, "--exact")) from None
            except UnboundedWarning as warned:  # mdp's own, which a filter made an error
                raise TooLarge(str(warned)) from None
            except RuntimeWarning as warned:
                offered = registry.offered_by(args.command.name)
                if offered is not None and raised_in_plugin(warned):  # its own arithmetic
                    raise ModelError(f"plugin {offered[0]}'s {offered[1]} {args.command.name} "
                                     f"raised {fault(warned)}") from None
                advice = "; where the numbers are exact, solve exactly (--exact)" \
                    if getattr(args, "exact", None) is False else ""
                raise ModelError(f"a number went past what a float holds or divided by zero "
                                 f"(numpy: {warned}){advice}") from None
            except BaseException as error:  # a plugin's command or analysis that breaks: its fault
                guard.check(lambda: whose(args), error)  # a game that broke the process: not mdp's bug
                offered = registry.offered_by(args.command.name)
                if offered is None:  # mdp's own: a bug, shown with its traceback
                    raise
                plugin, kind = offered
                raise ModelError(f"plugin {plugin}'s {kind} {args.command.name} raised "
                                 f"{fault(error)}") from error
        return stdout.ended(code)
    except TooLarge as error:
        return _error(error, EXIT_TOO_LARGE)
    except MemoryError:
        return _error(TooLarge(_out_of_memory()), EXIT_TOO_LARGE)
    except MdpError as error:
        return _error(error, EXIT_ERROR)
    except KeyboardInterrupt:
        say_interrupted()
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # A plugin's command that wrote to standard output's buffer, whose reader went away
        # (mdp COMMAND ... | head): stop quietly, as Unix tools do.
        stdout.drop()
        return 0
    except OSError as error:
        if error.errno not in _OUTPUT_ERRORS:
            raise
        stdout.drop()
        return _error(MdpError(f"cannot write to standard output: {error.strerror}"), EXIT_ERROR)
    finally:
        registry.drop_given()
        guard.forget()
        unpin()
        os.environ.update(cleared)
        stdout.unbind(previous)
        sys.set_int_max_str_digits(previous_digits)
        filters.__exit__()


def _freeze_at_exit() -> None:
    """Have the interpreter leave the objects made so far out of its last garbage collection:
    at exit Python collects garbage once more, walking every object it still holds: nearly
    all of them modules, classes and functions (numpy's thousands) that live to the end
    anyway, a walk longer than solving a small game takes. Frozen (:func:`gc.freeze`) as the
    exit handlers run, they are left to the operating system. Exit handlers still run,
    modules are still cleared (so open files are flushed and closed), and Python never
    promised to finalize what is still alive at exit. Registered once, however often ``main``
    runs."""
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)


# What a full, closed or broken standard output raises when written to.
_OUTPUT_ERRORS = {errno.ENOSPC, errno.EBADF, errno.EIO, errno.EDQUOT, errno.EFBIG}


def _out_of_memory() -> str:
    """What to say when memory ran out: how much mdp may use here, and what to do."""
    from mdp.engine.budget import size
    from mdp.limits import memory_limit

    limit = memory_limit()
    shown = f" (mdp may use {size(limit)} here)" if limit else ""
    return (f"out of memory{shown}; solve a smaller game, or set --max-memory lower so that a "
            "game too large is refused before the work (it bounds the model, not the digits of "
            "--exact's numbers, which a deep game makes long)")


def _exit_code(command: Command, code: Any) -> int:
    """What a command's ``run`` returned as its exit code: ``None`` is 0, a whole number of
    0 to 255 itself; anything else (text, a float, true or false, 300) is the command's
    fault, since the shell would see another number or none."""
    if code is None:
        return 0
    if hasattr(code, "dtype") and getattr(code, "shape", None) == ():  # a numpy integer
        code = code.item() if code.dtype.kind in "iu" else code
    if isinstance(code, int) and not isinstance(code, bool) and 0 <= code <= 255:
        return code
    if inspect.isgenerator(code) or inspect.iscoroutine(code) or inspect.isasyncgen(code):
        getattr(code, "close", lambda: None)()  # (a coroutine never awaited, said here alone)
        raise ModelError(f"command {command.name} returned a {type(code).__name__}: its run is a "
                         "generator or async function, whose body never ran; a command's run "
                         "does its work and returns None or its exit code, a whole number of 0 "
                         "to 255")
    raise ModelError(f"command {command.name} returned {shown(code)} ({type(code).__name__}); "
                     "a command returns None or its exit code, a whole number of 0 to 255")


def _error(error: MdpError, code: int) -> int:
    closed = guard.standard_error_back()  # by game code: the line would go nowhere
    error, code = (error, code) if closed is None else (closed, EXIT_ERROR)
    say(f"mdp: error: {error}")
    return code


def _plugins_given(argv: list[str]) -> tuple[list[str], list[str]]:
    """The arguments without ``-p FILE`` (:func:`mdp.program.arguments.plugins_given`), and
    the rule plugins among those given (:func:`mdp.program.registry.add_given` registers the
    program's plugins)."""
    rest, specs = arguments.plugins_given(argv)
    return rest, registry.add_given(specs)


def _hand_over(args: argparse.Namespace, rule_plugins: list[str]) -> None:
    """Give the rule plugins of ``-p`` to the game the command loads
    (:func:`mdp.program.arguments.load`); a command that loads no game refuses them."""
    args.plugins = rule_plugins
    if rule_plugins and not hasattr(args, "game"):
        from mdp.game.found import load_plugin
        from mdp.game.plugins import hook_names

        spec = rule_plugins[0]
        hooks = ", ".join(hook_names(load_plugin(spec)[1]))
        raise ParamError(f"plugin {spec} implements no hook of the mdp program (its hooks: {hooks}), "
                       f"and mdp {args.command.name} loads no game for it to extend")


_ASKING = {"-h", "--help", "--version"}  # how a user finds what is wrong: they always answer


def _parser_asked(given: list[str]) -> argparse.ArgumentParser:
    """The parser of the command ``given`` names; where an installed plugin is broken,
    ``--help`` and ``--version`` answer with mdp's own commands, after a line naming it."""
    try:
        return _parser(_known_command(given))
    except MdpError as error:
        if _ASKING.isdisjoint(given):
            raise
        with builtins_only():
            try:
                parser = _parser(_known_command(given))
            except MdpError:  # not the installed plugins' fault alone
                raise error from None
        say(f"mdp: warning: {error}; mdp's own commands alone are offered")
        return parser


def _files(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[dict[str, str], bool]:
    """The files the command is asked to write, by option (its options of ``metavar="FILE"``:
    ``--out``, ``--plot``), and whether it takes ``--out`` as asked (a command of ``--vary``
    takes it with ``--vary`` alone: :func:`~mdp.program.arguments.check_table_options`)."""
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    actions = subparsers.choices[args.command.name]._actions
    files = {a.option_strings[0]: str(getattr(args, a.dest)) for a in actions
             if a.metavar == "FILE" and a.option_strings and getattr(args, a.dest, None)}
    flags = {flag for a in actions for flag in a.option_strings}
    for option, name in files.items():  # (the shell's word for standard output, not a name)
        if name == "-":
            printed = "; to print on standard output leave --out out (--format NAME for its " \
                "format)" if option == "--out" and "--format" in flags else ""
            raise ParamError(f"{option} -: '-' names no file here{printed}; ./- is a file named -")
    return files, "--out" in flags and ("--vary" not in flags or bool(getattr(args, "vary", None)))


def _known_command(argv: list[str]) -> str | None:
    """The command the arguments name (the first that is not an option), checked: one that
    is not a command is one line naming the nearest and every command."""
    name = next((a for a in argv if not a.startswith("-")), None)
    if name is None:
        return None
    known = list(commands_and_analyses())
    if name not in known:
        raise ParamError(f"unknown command {name!r}{did_you_mean(name, known)} "
                       f"(commands: {', '.join(known)}; mdp --help says what each does)")
    return name


def _parser(only: str | None = None) -> argparse.ArgumentParser:
    """The program's parser; with ``only`` a command's name, that command's alone (the others
    cost start-up time to build), else every command's (for ``mdp --help`` and a mistyped
    command)."""
    parser = _Parser(
        prog="mdp", formatter_class=_Formatter, allow_abbrev=False,  # --plug is no -p: see _plugins_given
        description="Solve finite-horizon Markov decision processes exactly: "
        "the best play and its value, for games of chance and choice.",
        epilog="Examples: mdp solve games/shutbox --exact; mdp policy shutbox --out policy.parquet",
    )
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    parser.add_argument(*arguments.PLUGIN_OPTIONS, metavar="FILE", action="append",
                        help="load a plugin without installing it (repeatable, anywhere among the "
                        "arguments): a .py file, a package folder or a module's name; a rule "
                        "plugin of the game, or a plugin of the mdp program")
    subparsers = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")
    offered = {name: analysis_command(c) if isinstance(c, Analysis) else c
               for name, c in commands_and_analyses().items()}
    if only in offered:
        offered = {only: offered[only]}
    for command in offered.values():
        sub = subparsers.add_parser(command.name, help=helptext.as_written(command.help),
                                    description=command.description or command.help,
                                    formatter_class=_Formatter)
        if command.arguments:
            by = registry.offered_by(command.name)
            try:
                # a plugin's: its own KeyboardInterrupt told apart from the user's Ctrl-C
                with watch_interruptions() if by else nullcontext():
                    try:
                        command.arguments(sub)
                    except KeyboardInterrupt as error:
                        if by is None or by_user(error):
                            raise
                        raise ModelError(f"plugin {by[0]}'s {by[1]} {command.name}: adding its "
                                         "arguments raised KeyboardInterrupt, and no one "
                                         "interrupted it") from None
            except argparse.ArgumentError as error:  # a plugin's option named like ours
                raise ModelError(f"command {command.name}: its argument {error.argument_name} "
                               f"clashes with one the command has already ({error.message}); "
                               "name it otherwise") from None
            except (Exception, SystemExit) as error:  # a plugin's arguments that break
                if by is None or passed_on(error, f"plugin {by[0]}"):  # mdp's own: a bug,
                    raise  # shown with its traceback; or mdp's word
                raise ModelError(f"plugin {by[0]}'s {by[1]} {command.name}: adding its "
                                 f"arguments raised {fault(error)}") from None
        arguments.check_own(sub, parser, command.name)
        sub.set_defaults(command=command)
    return repeated.said_once(parser)


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose mistakes are one line, as every other is: no usage block."""

    def error(self, message: str) -> NoReturn:
        hint = f" ({self.prog} --help lists every option)"
        if message.startswith("the following arguments are required"):
            hint = f" (required: {self._required()}; {self.prog} --help lists every option)"
        elif "(choose from " in message:  # the choices said already
            hint = ""
        self.exit(EXIT_ERROR, f"{self.prog}: error: {MdpError(message)}{hint}\n")

    def _required(self) -> str:
        """The arguments this parser cannot do without, as its usage shows them."""
        shown = [(f"{action.option_strings[0]} {action.metavar or action.dest.upper()}"
                  if action.option_strings else str(action.metavar or action.dest))
                 for action in self._actions if action.required]
        return " ".join(shown)


class _Version(argparse.Action):
    """Prints the version, as asked (``mdp.__version__`` reads the metadata only then)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        print(f"mdp {mdp.__version__}")
        parser.exit()


def followable(error: BaseException, command: str, exact: bool) -> BaseException:
    """``error`` as the command ``command`` can follow it: where its advice is ``--exact``, an
    option the command has not (``exact``: it has), the commands that have it are named."""
    if exact or not isinstance(error, MdpError) or "(--exact)" not in str(error):
        return error
    import copy

    told = copy.copy(error)
    told.args = (str(error).replace("(--exact)", f"(mdp {command} computes in floats: mdp solve, "
                                                 "policy and distribution take --exact)"),)
    return told


if __name__ == "__main__":
    sys.exit(main())

