"""The errors a user or a plugin can cause, and the hint that goes with a misspelt name.

Every class here derives from :class:`MdpError`. The command line turns an ``MdpError`` into
one line on stderr and exit code 2; anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any


class MdpError(Exception):
    """A mistake in the input: a game that cannot be found, a bad parameter, a bad model.

    Its message is one line, whatever text it quotes (a value typed with a new line in it).
    """

    def __str__(self) -> str:
        # One line, whatever the input quoted in it holds (a value given with a line break),
        # and no character a terminal acts on (ESC turned it red): each as its escape.
        return super().__str__().translate(_ESCAPES)


_ESCAPES = {**{code: f"\\x{code:02x}" for code in (*range(32), *range(127, 160))},
            ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t",
            0x2028: "\\u2028", 0x2029: "\\u2029"}
"""Control characters, and Unicode's line and paragraph separators, as their escapes."""


class GameNotFound(MdpError):
    """No game answers to the name or path given."""


class ParamError(MdpError):
    """A parameter is unknown, or its value is not allowed."""


class InRounds(ParamError):
    """Work that reads a game of one model (a policy table, a policy of its actions, an
    export) was asked of a game played in rounds."""

    def __init__(self, game: str, what: str) -> None:
        super().__init__(f"game {game} is played in rounds, and {what} reads a game of one "
                         "model; advise gives the actions at a position of a game of rounds, "
                         "policy the value of every round state, distribution the chance of "
                         "each total, targets the best chance of reaching each, simulate "
                         "plays it, strategies values its strategies, and match plays it "
                         "against a second player who knows the total to beat")


class ModelError(MdpError):
    """A game plugin produced something the engine cannot solve, or a hook raised.

    The message names the game, and the state and action where it happened.
    """

    state: Any = None
    """The key of the state the engine names in the message (``state KEY``, by :func:`said`),
    where it has no game to say it in the game's words; with :attr:`info`."""
    info: Any = None
    """The :class:`~mdp.ModelInfo` of the model whose state :attr:`state` is."""

    def at(self, state: Any, info: Any) -> ModelError:
        """This error, naming ``state`` of the model of ``info`` as ``state KEY``: where the
        game is known, the command line says it in the game's words instead."""
        self.state, self.info = state, info
        return self


class Named(str):
    """A text that names a state of a model by its key (``the value of state 17``), the key
    and the model's :class:`~mdp.ModelInfo` with it, for the error raised with it:
    ``raise ModelError(f"{named} ...").at(named.state, named.info)``."""

    state: Any
    info: Any

    def __new__(cls, text: str, state: Any, info: Any) -> Named:
        named = super().__new__(cls, text)
        named.state, named.info = state, info
        return named


class NotWhole(ModelError):
    """An end of a round reached earns points that are not a whole number of 64 bits: the
    totals of a game of rounds are not followed in floats then
    (:func:`mdp.engine.rounds.totals.rounds_distribution` says what it does)."""


class CycleError(ModelError):
    """The states of a game form a cycle: the engine solves acyclic, finite-horizon models."""


class TooLarge(MdpError):
    """A model would exceed the state limit set by the caller."""


class UnboundedWarning(UserWarning):
    """Warned, once, while :func:`mdp.compile` walks a game one state at a time under a state
    limit the caller set, when after a few seconds its paths still grow deeper: a game with
    no end on some path (Pig without a cap) runs until the limit (under the default limit it
    is refused instead). The command line prints it as one line, ``mdp: warning: ...``."""


PLUGIN_FAULTS = (BaseException,)
"""What code of a plugin may raise that is the plugin's fault, reported as a
:class:`ModelError`: any exception, ``SystemExit`` and ``KeyboardInterrupt`` too, since a
plugin must not end mdp (silently, exit 0), nor pass for the user's Ctrl-C, and
``GeneratorExit`` or a class of the plugin's own made from ``BaseException``. Every
``except PLUGIN_FAULTS`` words the error through :func:`fault`, which raises again what is
no fault of the plugin's: memory running out, and the user's interruption."""


def fault(error: BaseException, *, hook: bool = False) -> str:
    """``Type: message`` of an exception that plugin code raised, for a :class:`ModelError`:
    one line, even where making the message raises in its turn.

    ``error`` is raised again, not worded, where it is no fault of the plugin's: a
    :class:`MemoryError` (the work is too large for the memory there is, exit 3), but from a
    game's ``hook`` (called on one state or one batch, where mdp makes none of its arrays: its
    own allocation ran out) or raised in the plugin's own code (:func:`raised_in_plugin`),
    or the user's interruption (:func:`by_user`); once the user interrupted, any error is
    taken for the interruption that code made into an error of its own (a writer in Rust
    does)."""
    if isinstance(error, MemoryError) and not (hook or raised_in_plugin(error)) or \
            by_user(error):
        raise error
    if _Signals.watched and _Signals.interrupted:
        raise KeyboardInterrupt from error
    if isinstance(error, Ended):
        return str(error)
    try:
        text = str(error)
    except Exception:  # noqa: BLE001  (a broken __str__ must not hide the fault)
        text = "(its message could not be made)"
    if isinstance(error, ValueError) and "read-only" in text:  # see mdp.handed
        text += " (it wrote into an array mdp handed it, which is read-only: write into a copy)"
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def raised_in_plugin(error: BaseException) -> bool:
    """Whether a game's or plugin's own code raised ``error`` (an import, a format's writer,
    an analysis, a trace function of its), not mdp's: the innermost frame of its traceback
    that is either mdp's or in a file imported as a game's or plugin's
    (:func:`mdp.outputs.files.recording`), or in the package of an installed one
    (:func:`mdp.imported.installed`), is the latter."""
    from mdp.imported import games_and_plugins, installed

    files = games_and_plugins()
    trace, frames = error.__traceback__, []
    while trace is not None:
        frames.append(trace.tb_frame)
        trace = trace.tb_next
    for frame in reversed(frames):
        name = str(frame.f_globals.get("__name__", ""))
        if name == "mdp" or name.startswith("mdp."):
            if _public_call(error):  # mdp's function refusing what the plugin's code gave it
                continue
            return False
        if frame.f_code.co_filename in files or frame.f_globals.get("__file__") in files or \
                installed(name) or \
                "__name__" not in frame.f_globals:  # (code it ran with its globals or none:
            return True  # exec, which mdp and Python's own make with a module's)
    return False


def _public_call(error: BaseException) -> bool:
    """Whether ``error`` is a public function of mdp refusing an argument it was given
    (``mdp.parse_choice: allowed is [1, 2]; expected ...``): the fault of whose code called
    it, a plugin's where that is the plugin's."""
    return isinstance(error, ParamError) and str(error).startswith("mdp.") and "; expected " in str(error)


def passed_on(error: BaseException, owner: str, *, refusal: type | None = None) -> bool:
    """Whether ``error``, raised while the code of a plugin ``owner`` (``"game mis"``) ran, is
    passed on as it is rather than reported as the plugin's fault: an :class:`MdpError` that
    mdp's own code raised (a hook asking another through ``game.call``, say), a ``refusal`` the
    hook is to raise (``mdp_check``'s :class:`ParamError`), or a :class:`ModelError` of the
    plugin's own that names it (a game's check of its own rule plugins). Any other, ``raise
    mdp.TooLarge(...)`` in ``mdp_actions`` say, is the plugin's fault like any exception: the
    exit code and the words are not the plugin's to give as mdp's."""
    if not isinstance(error, MdpError):
        return False
    if not raised_in_plugin(error) or (refusal is not None and isinstance(error, refusal)
                                       and not _public_call(error)):  # (its own refusal)
        return True
    return isinstance(error, ModelError) and str(error).startswith(f"{owner}: ")


class Ended(BaseException):
    """What ``os._exit(code)`` raises where game or plugin code may run (the command, and
    the exit callbacks; :mod:`mdp.program.guard`): it would end mdp with the code's status,
    its files unwritten and nothing said. A ``BaseException``, which an ``except Exception``
    of the plugin's own does not take for one of its errors."""

    def __str__(self) -> str:
        return f"os._exit({self.args[0] if self.args else 0!r}), which is refused: the exit code is mdp's"


class Replaced(Ended):
    """What ``os.execv`` and ``os.execve`` raise where game or plugin code may run: another
    program would take mdp's place, its answer and exit status passing for mdp's."""

    def __str__(self) -> str:
        return f"{self.args[0]}, which is refused: the process is mdp's"


class _Signals:
    """Whether Ctrl-C is watched (:func:`watch_interruptions`), and whether the user
    interrupted since: then, and only then, a ``KeyboardInterrupt`` is the user's."""

    watched = False
    interrupted = False
    said = False  # "mdp: interrupted" said (say_interrupted): the command is ending
    deferred = 0  # within deferring(): a signal is held until it ends
    held = False


def said(value: Any) -> str:
    """A game's object (a state, an action) as a message shows it: its ``repr``, on one line
    and at most 200 characters; one whose ``repr`` raises must not hide the fault reported. A
    number of numpy's (a batch game's key as mdp stores it, ``np.uint8(101)``) is shown as the
    number it is (``101``)."""
    if type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 0:
        value = value.item()
    try:
        text = repr(value)
    except PLUGIN_FAULTS as error:  # a game's broken __repr__, SystemExit or Ctrl-C of its own too
        fault(error)  # raises again the user's interruption
        return f"(a {type(value).__name__} whose repr raised {type(error).__name__})"
    text = " ".join(text.split()) if "\n" in text else text
    if len(text) <= 200:
        return text
    return f"{text[:150]}... (a {type(value).__name__} of {len(text):,} characters)"


def interrupt(signum: int, frame: object) -> None:
    """The handler of the signals by which the user interrupts mdp (Ctrl-C; SIGTERM and
    SIGHUP while files are written): it records that the user did, and raises
    ``KeyboardInterrupt``. Once the user's interruption is taken, later signals are ignored
    (two Ctrl-C, or Ctrl-C then SIGTERM, milliseconds apart): one that comes while it is handled
    on its way out (an ``except``, ``finally`` or ``with``'s exit it runs through) or once
    ``mdp: interrupted`` was said would cut that handling short, a traceback or the line said
    twice."""
    import sys

    if _Signals.interrupted and (_Signals.said or isinstance(sys.exc_info()[1], KeyboardInterrupt)):
        return
    _Signals.interrupted = True
    if _Signals.deferred:
        _Signals.held = True
        return
    raise KeyboardInterrupt


def interrupted_before() -> None:
    """Raise the user's interruption again where game or plugin code swallowed it (a hook's
    ``except BaseException``), as control comes back into mdp: it came while Ctrl-C was
    watched, and the command has not ended since."""
    if _Signals.watched and _Signals.interrupted and not _Signals.said and not _Signals.deferred:
        raise KeyboardInterrupt


class deferring:
    """While in effect, an interruption (:func:`interrupt`) waits for its end, where it is
    raised: a step that must not be cut in two (a temporary file made and its name kept, so
    that it is removed) is done whole first."""

    def __enter__(self) -> deferring:
        _Signals.deferred += 1
        return self

    def __exit__(self, *exc: object) -> None:
        _Signals.deferred -= 1
        if not _Signals.deferred and _Signals.held:
            _Signals.held = False
            raise KeyboardInterrupt


def by_user(error: BaseException) -> bool:
    """Whether ``error`` is the user's interruption: a ``KeyboardInterrupt`` raised after the
    user interrupted, or any while Ctrl-C is not watched (mdp used from Python, where Ctrl-C
    is Python's own), never one that plugin code raised of itself."""
    return isinstance(error, KeyboardInterrupt) and (_Signals.interrupted or not _Signals.watched)


def _keep_ignoring(signal: Any) -> None:
    """Keep an ignored SIGINT ignored. Polars, imported, sets a handler of its own below
    Python's (the signal module still says ignored), which stops a Polars call that is
    running with a ``KeyboardInterrupt``: a SIGINT that mdp was started to ignore (a
    background job's) then ended a writer in Polars, blamed on its format. Imported here, its
    handler is undone by ignoring SIGINT again for the operating system."""
    import polars  # noqa: F401  (its handler is set as it is imported)

    signal.signal(signal.SIGINT, signal.SIG_IGN)


# The signals whose default is not to end the process, or that mdp leaves be: SIGKILL and
# SIGSTOP cannot be caught; SIGINT is Ctrl-C's (watch_interruptions); the ones ignored or that
# stop it by default; the faults of the process's own code (a handler would return to the
# faulting instruction); SIGPIPE and SIGXFSZ, which Python ignores (a write fails instead).
# A name the platform lacks is passed over.
_NOT_TERMINATIONS = frozenset({
    "SIGKILL", "SIGSTOP", "SIGINT",
    "SIGCHLD", "SIGCLD", "SIGCONT", "SIGURG", "SIGWINCH", "SIGTSTP", "SIGTTIN", "SIGTTOU",
    "SIGINFO",
    "SIGSEGV", "SIGBUS", "SIGFPE", "SIGILL", "SIGABRT", "SIGIOT", "SIGEMT",
    "SIGPIPE", "SIGXFSZ",
})


def _terminations() -> tuple[int, ...]:
    import signal

    left = {getattr(signal, name) for name in _NOT_TERMINATIONS if hasattr(signal, name)}
    return tuple(sorted(int(number) for number in signal.valid_signals() if number not in left))


TERMINATIONS = _terminations()
"""The numbers of the signals besides Ctrl-C whose default ends the process, derived from
those the platform has (:func:`signal.valid_signals`): SIGTERM, SIGHUP, SIGQUIT (Ctrl-\\),
SIGALRM, SIGUSR1/2, SIGXCPU (a CPU-time limit), SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSYS,
SIGTRAP, the real-time signals... Each interrupts a command as Ctrl-C does, so that no
temporary file is left."""


class terminations_interrupt:
    """While in effect (in the main thread), SIGTERM, SIGHUP (the terminal closed) and the
    other :data:`TERMINATIONS` run :func:`interrupt`, as Ctrl-C does: the command that is
    killed cleans up (its files) and says it was interrupted. One that is ignored
    (``nohup``) stays ignored. Every set of files is written in it."""

    ctrl_c = False  # SIGINT too
    ending = False  # at the end, the signals ignored, not their handlers put back

    def __enter__(self) -> terminations_interrupt:
        import signal
        import threading

        self.signal, self.previous = signal, {}
        if threading.current_thread() is threading.main_thread():
            if all(signal.getsignal(number) is not interrupt for number in TERMINATIONS):
                _Signals.interrupted = _Signals.said = False  # a watch of its own: none taken yet
            for number in (signal.SIGINT, *TERMINATIONS) if self.ctrl_c else TERMINATIONS:
                if signal.getsignal(number) not in (signal.SIG_IGN, None):
                    self.previous[number] = signal.signal(number, interrupt)
        return self

    def __exit__(self, *exc: object) -> None:
        for number, previous in self.previous.items():
            self.signal.signal(number, self.signal.SIG_IGN if self.ending else previous)


class commanding(terminations_interrupt):
    """The whole of a command (:func:`mdp.program.main`): from its first line, Ctrl-C too
    runs :func:`interrupt`, so that a signal while mdp starts is an interruption, and a
    second one while the first is handled is ignored. Run as the program (``ending``), the
    signals are ignored at its end, to the exit: one then changes nothing."""

    ctrl_c = True

    def __init__(self, *, ending: bool) -> None:
        self.ending = ending

    def __enter__(self) -> commanding:
        _Signals.interrupted = _Signals.said = False
        super().__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        super().__exit__(*exc)
        if not self.ending:  # in Python, the next signal is Python's again, or mdp's next command's
            _Signals.interrupted = _Signals.said = False


def say_interrupted() -> None:
    """Say ``mdp: interrupted``, the one line of the user's interruption; a signal from now
    on is ignored (:func:`interrupt`)."""
    _Signals.said = True
    say("mdp: interrupted")


class watch_interruptions:
    """While in effect (in the main thread), Ctrl-C runs :func:`interrupt`, so that a
    ``KeyboardInterrupt`` is known to be the user's (:func:`by_user`); an ignored SIGINT
    (a command started in the background) stays ignored. One within another is the outer's."""

    def __enter__(self) -> watch_interruptions:
        import signal
        import threading

        self.signal, self.previous = signal, None
        # (within another: that one's)
        self.main = threading.current_thread() is threading.main_thread() and not _Signals.watched
        if self.main:  # elsewhere no signal handler can be set, nor is any signal received
            _Signals.watched, _Signals.interrupted, _Signals.said = True, False, False
            if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
                self.previous = signal.signal(signal.SIGINT, interrupt)
            else:
                _keep_ignoring(signal)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.previous is not None:
            self.signal.signal(self.signal.SIGINT, self.previous)
        if self.main:
            _Signals.watched = False


def say(line: Any, *, flush: bool = False) -> None:
    """One line of mdp's own on standard error, at the start of a line: where a game's
    print left one open there (``print("working...", end="")``), or on standard output to the
    same place, it is ended first, and a colour it left set is reset
    (:meth:`mdp.program.stdout.Errors.line_start`). What its encoding cannot write (a file's
    name with a byte that is not UTF-8) is written as its escape, a byte as ``\\xff``."""
    import sys

    from mdp.shown import bytes_shown

    text, encoding = bytes_shown(str(line)), getattr(sys.stderr, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        text = text.encode("ascii", "backslashreplace").decode("ascii")
    with _SAYING:  # a line whole, where threads of a game's say theirs at once
        start = getattr(sys.stderr, "line_start", None)
        if start is not None:
            start()
        print(text, file=sys.stderr, flush=flush)


_SAYING = threading.RLock()


def did_you_mean(wanted: str, known: Iterable[str], *, n: int = 1) -> str:
    """``"; did you mean X?"`` when a known name is close to ``wanted``, else ``""``.

    For error messages about misspelt names: ``f"unknown rule {name!r}{did_you_mean(...)}"``.
    The engine's own, unchecked; ``mdp.did_you_mean`` (:func:`mdp.checks.did_you_mean`)
    checks its arguments first.
    """
    import difflib  # only on the error path: it costs start-up time

    # Options compared without their dashes: "--" alike would make "--at-least" close to
    # "--against" (difflib's 0.63), which it is not.
    bare = {str(name).lstrip("-"): str(name) for name in reversed(list(known))}
    close = difflib.get_close_matches(wanted.lstrip("-"), list(bare)[::-1], n=n)
    return f"; did you mean {' or '.join(bare[c] for c in close)}?" if close else ""
