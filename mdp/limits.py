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
many to push forward exactly): the mean of Yahtzee to within about 0.4 points, in seconds."""

MAX_GAMES = 10**10
"""The most games ``mdp simulate`` plays: about ten thousand seconds of Shut the Box on one
core, and hours for a game of rounds; past it, exit 3 before any work."""

MAX_PLAYERS = 20
"""The most players of a match: with two results or more, 21 players would mean more than
MAX_PROFILES (:mod:`mdp.analysis.match`), a million lists of earlier results to solve for."""
