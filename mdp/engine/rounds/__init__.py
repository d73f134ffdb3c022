"""Games played in rounds: one model of a round, played again and again between *round
states*, solved backward by rounds.

A game of rounds (:func:`~mdp.hookspecs.game.mdp_round_start`) describes one round with the
usual hooks: it is compiled once, and its terminal states are the ways a round can *end*.
Between rounds the game is in a round state, an integer key. For each round state and each
end, :func:`~mdp.hookspecs.game.mdp_round_rule` says which round state follows and what the
end earns, or that the end cannot close a round from that state. The value of a round state
is then the round's value with each end worth its points plus the value of the round state
that follows: every round state of one round is a column of terminal values of the one
round model, and a round's states are solved many columns at a time, the last round first.

A round state with no end allowed is the end of the game, worth nothing more: whatever the
game pays, it pays at the end of a round.

The game's round rule is read once, at compile: a function of round states that the
compiled :class:`Rounds` holds, checked where what it gives enters the engine.

A way to play other than the best is a game's *aims* (:class:`Aims`, a strategy): what the
player aims at for each end of a round. Within a round the player plays best toward those
worths; the round's play so fixed is then valued with each end's true worth, its points and
the value under the same aims of the round state that follows.

The package, a module per concept: :mod:`~mdp.engine.rounds.rule` (the rule and its checks),
:mod:`~mdp.engine.rounds.model` (the compiled game and finding its round states),
:mod:`~mdp.engine.rounds.values` (values by key), :mod:`~mdp.engine.rounds.choose` (play
within a round), :mod:`~mdp.engine.rounds.backward` (the solve),
:mod:`~mdp.engine.rounds.solution` (what it gives), :mod:`~mdp.engine.rounds.sample`
(games at random), :mod:`~mdp.engine.rounds.totals` (the chance of every total),
:mod:`~mdp.engine.rounds.reach` (the best chance of at least every total, the same solve
with a column per round state and points still needed), :mod:`~mdp.engine.rounds.toward`
(play toward a total, followed forward) and :mod:`~mdp.engine.rounds.table` (round states
by their columns, the policy table).
"""

from mdp.engine.rounds.backward import solve_rounds
from mdp.engine.rounds.choose import Aims
from mdp.engine.rounds.kinds import WORK
from mdp.engine.rounds.model import Rounds, compile_rounds
from mdp.engine.rounds.rule import RoundEnds, RoundRule
from mdp.engine.rounds.solution import RoundsSolution

__all__ = ["WORK", "Aims", "RoundEnds", "RoundRule", "Rounds", "RoundsSolution", "compile_rounds",
           "solve_rounds"]
