"""The errors a user or a plugin can cause.

Every class here derives from :class:`MdpError`. The command line turns an ``MdpError`` into
one line on stderr and exit code 2; anything else is a bug and keeps its traceback.
"""


class MdpError(Exception):
    """A mistake in the input: a game that cannot be found, a bad parameter, a bad model."""


class GameNotFound(MdpError):
    """No game answers to the name or path given."""


class ParamError(MdpError):
    """A parameter is unknown, or its value is not allowed."""


class ModelError(MdpError):
    """A game plugin produced something the engine cannot solve.

    The message names the game, and the state and action where it happened.
    """


class CycleError(ModelError):
    """The states of a game form a cycle: the engine solves acyclic, finite-horizon models."""


class TooLarge(MdpError):
    """A model would exceed the state limit set by the caller."""
