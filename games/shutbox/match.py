"""Shut the Box played for money: the pub rules of a match (see :func:`mdp.match`).

Each player takes a whole turn; the lowest sum left open (``open_sum``) wins, and each
other player pays the winner the stake, or ``shut_pays`` stakes when the winner shut the
box. Players tied for the lowest sum pay nothing. With ``shut_wins=yes`` the first player
to shut the box wins at once: the players after do not play.
"""

from __future__ import annotations

import numpy as np

import mdp


@mdp.hookimpl
def mdp_match_rules(params):
    shut_wins = params["shut_wins"] == "yes"
    return mdp.MatchRules("open_sum", lambda results: payoff(
        results, shut_pays=params["shut_pays"], shut_wins=shut_wins),
        params=("shut_pays", "shut_wins"), decided=lambda results: decided(results, shut_wins),
        ignores=("scoring", "payout"))


def decided(results: tuple[int, ...], shut_wins: bool) -> str | None:
    """Why the players after ``results`` do not play: one of them shut the box and, with
    shut_wins, won at once."""
    shut = next((k for k, result in enumerate(results, start=1) if result == 0), None)
    return None if not shut_wins or shut is None else f"player {shut} shut the box and won at once"


def payoff(results: np.ndarray, *, shut_pays: int, shut_wins: bool) -> np.ndarray:
    """What each player receives: ``results`` holds the open sums, one row per match and
    one column per player in playing order."""
    results = np.asarray(results, dtype=np.int64)
    rows, players = results.shape
    low = results.min(axis=1)
    lowest = results == low[:, None]
    winner = lowest.argmax(axis=1)  # the first of the lowest
    alone = lowest.sum(axis=1) == 1
    if shut_wins:
        # Nobody after the first player to shut the box plays: they win alone.
        alone |= low == 0
    stake = np.where(low == 0, shut_pays, 1) * alone
    paid = np.repeat(-stake[:, None], players, axis=1)
    paid[np.arange(rows), winner] = stake * (players - 1)
    return paid
