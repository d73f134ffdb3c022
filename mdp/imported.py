"""The files read while a game's or plugin's code was imported, in this process: listed by
:func:`mdp.outputs.files.recording` (the files a command then reads, which it may not write),
and read by :func:`mdp.errors.raised_in_plugin` (whose code raised). Here, below every room
of mdp, as both need them: this module imports nothing of mdp."""

PRIVATE = "_mdp_file_"
"""How the private name of a module imported from a game's or plugin's file begins
(``_mdp_file_3_coin``, :func:`mdp.game.files.import_path`; its submodules' too)."""

RECORDING: list[list[str]] = []
"""The files read so far by each import under way, the innermost last."""

IMPORTED: set[str] = set()
"""Every file read while code was imported, once its import is done."""

INSTALLED: set[str] = set()
"""The top-level packages (or modules) of installed games and plugins, imported through their
entry points: their code is theirs, as a file's is."""


def is_private(name: str) -> bool:
    """Whether the module of this name is of a game or plugin imported from its file, or one
    of its submodules."""
    return name.startswith(PRIVATE)


def installed(name: str) -> bool:
    """Whether the module of this name is of an installed game or plugin's package."""
    return name.partition(".")[0] in INSTALLED


def games_and_plugins() -> set[str]:
    """Every file read while a game's or plugin's code was imported, done or under way."""
    return {*IMPORTED, *(file for files in RECORDING for file in files)}
