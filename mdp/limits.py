"""Limits that the command line needs before any work (kept apart from the numpy modules, so
that ``mdp --help`` starts without them)."""

DEFAULT_MAX_STATES = 50_000_000
"""The state limit unless the caller sets another; a model this large takes several GB."""
