"""Limits that the command line needs before any work (kept apart from the numpy modules, so
that ``mdp --help`` starts without them)."""

DEFAULT_MAX_STATES = 50_000_000
"""The state limit unless the caller sets another; a model this large takes several GB."""

REPORT_MAX_ROWS = 250_000
"""The most policy rows (actions) a report embeds for its explorer: about 50 bytes each, so
some 12 MB at most, which a phone still opens. A larger game gets a page without the
explorer, and a line saying to ask ``mdp advise`` instead."""

REPORT_GAMES = 100_000
"""Games a report plays at random to show how a game of rounds ends (its outcomes are too
many to push forward exactly): a mean to within 0.6% of a standard deviation (95%), in seconds."""

MAX_GAMES = 10**10
"""The most games ``mdp simulate`` plays: about ten thousand seconds of Shut the Box on one
core, and hours for a game of rounds; past it, exit 3 before any work."""

MAX_COMBINATIONS = 10_000
"""The most rule sets a table over rule sets (``--vary``) solves, one game each: ten
thousand solves of a small game take minutes, of a large one days; past it, exit 3 before any
game is loaded."""

MAX_PLAYERS = 20
"""The most players of a match: with two results or more, 21 players would mean more than
MAX_PROFILES (:mod:`mdp.analysis.match`), a million lists of earlier results to solve for."""

MEMORY_SHARE = 0.75
"""The share of the memory mdp may use that a model may take by default (``--max-memory``):
the rest is for Python, numpy and what the analyses make of the model."""


OPEN_FILES = 64
"""The fewest open files (``ulimit -n``) a command starts with: Polars takes a dozen of its
own as it writes a table (a Parquet file failed under 10 and 11 on two cores, its threads'
more with more cores), besides mdp's files and the modules Python opens as it imports them;
below it, a command would fail in the middle of its work, in Polars' threads."""


def too_few_open_files() -> str | None:
    """What is wrong with the open-files limit (``RLIMIT_NOFILE``, ``ulimit -n``), said as an
    error, where it is below :data:`OPEN_FILES`; else ``None``."""
    try:
        import resource
    except ImportError:  # not on this system
        return None
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY or soft >= OPEN_FILES:
        return None
    return (f"the open-files limit (ulimit -n) is {soft}, and mdp needs at least {OPEN_FILES} "
            f"(Polars' threads take a dozen as it writes a table); raise it: ulimit -n {OPEN_FILES}")


def fit_allocator() -> None:
    """Under an address-space limit (``ulimit -v``), have C's allocator (glibc's ``malloc``)
    share one arena among the threads: each thread that allocates gets an arena of its own
    otherwise, 64 MB of address space reserved and never used, a dozen of them once Polars'
    threads write a table (1.1 GB mapped for a table of 7,675 rows, of which 0.1 GB in use),
    and the limit runs out in Polars, which aborts the process. Left alone where the user
    chose (``MALLOC_ARENA_MAX``), and where there is no such limit, or no glibc."""
    import os

    if "MALLOC_ARENA_MAX" in os.environ or address_space() is None:
        return
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
    except (ImportError, OSError, AttributeError):  # no C library to ask, or not glibc's
        return
    mallopt(_M_ARENA_MAX, 1)


_M_ARENA_MAX = -8  # glibc's malloc.h


def default_max_memory() -> int | None:
    """The memory budget unless the caller sets another: three quarters of
    :func:`memory_limit`, of the address space counting only what is not in use yet
    (``None``, no budget, where no figure can be had)."""
    limit = memory_limit(left=True)
    return None if limit is None else int(MEMORY_SHARE * limit)


def memory_limit(left: bool = False) -> int | None:
    """The memory this process may use, in bytes: the least of the machine's memory, the
    limit of its control group (cgroup v2 or v1, its own and every enclosing one's), and its
    address space (``RLIMIT_AS``, ``ulimit -v``; with ``left``, what of it is not in use
    yet); ``None`` where none is known."""
    figures = (physical_memory(), cgroup_memory(), address_space(left))
    return min((figure for figure in figures if figure is not None), default=None)


def physical_memory() -> int | None:
    """The machine's memory, in bytes."""
    import os

    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # no such figure here
        return None


def cgroup_memory(root: str = "/sys/fs/cgroup", own: str = "/proc/self/cgroup") -> int | None:
    """The least memory limit of this process's control group and those that enclose it:
    ``memory.max`` (cgroup v2) or ``memory.limit_in_bytes`` (v1) under ``root``, for the group
    that ``own`` names; ``None`` where there is no limit, or no control group to read."""
    import os

    try:
        with open(own) as file:
            lines = file.read().splitlines()
    except OSError:
        return None
    limits = []
    for line in lines:
        controllers, _, path = line.partition(":")[2].partition(":")
        if controllers == "":  # v2: one hierarchy
            folder, name = root, "memory.max"
        elif "memory" in controllers.split(","):
            folder, name = os.path.join(root, "memory"), "memory.limit_in_bytes"
        else:
            continue
        # A container sees its own group as the root: where the full path is missing, the
        # files above it (the root's among them) are still read.
        parts = [part for part in path.split("/") if part]
        for depth in range(len(parts), -1, -1):
            limits.append(_read_size(os.path.join(folder, *parts[:depth], name)))
    return min((limit for limit in limits if limit is not None), default=None)


def _read_size(path: str) -> int | None:
    """A number of bytes from a control group's file; ``None`` for ``max`` or no file."""
    try:
        with open(path) as file:
            return int(file.read().strip())
    except (OSError, ValueError):  # no such file, or "max": no limit
        return None


def address_space(left: bool = False) -> int | None:
    """This process's limit of address space (``RLIMIT_AS``, ``ulimit -v``), or with ``left``
    what of it is not in use yet; ``None`` when there is no limit."""
    try:
        import resource
    except ImportError:  # not on this system
        return None
    limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    if limit == resource.RLIM_INFINITY or limit < 0:
        return None
    return max(0, limit - _address_space_used()) if left else limit


def _address_space_used() -> int:
    """The address space this process maps now, in bytes (0 where it cannot be read)."""
    import os

    try:
        with open("/proc/self/statm") as file:
            return int(file.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0

MAX_ROUNDS = 10_000
"""The most rounds a game of rounds may last: past it, round states that keep coming (a
round rule that never ends the game) are refused with exit 3 in seconds, not found for hours."""

MAX_TABLE_ROWS = 2_000_000_000
"""The most rows a policy table written a piece at a time may have (``mdp policy --within``
of a game of rounds): some 100 GB of Parquet; past it, exit 3 before any work."""

RESIDUAL = 1e-12
"""Value iteration (:mod:`mdp.engine.cycles`) stops when a bound of the error of every value
is within this (relative to the largest terminal value, at least 1): the default
``residual`` of :func:`mdp.solve`."""

LEAST_RESIDUAL = 1e-15
"""The smallest ``residual`` taken: some 5 units in the last place of a value of 1, about
where float64 sweeps stop changing values (a value of 1 is stored to 1.1e-16)."""
