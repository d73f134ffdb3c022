"""The hooks of a game: implemented by the game's module and the rule plugins registered
beside it, on the game's own plugin manager (:func:`mdp.load_game`).

A game is a module (or any object) whose functions carry the :data:`mdp.hookimpl` marker and
the names below. The engine calls them through `pluggy <https://pluggy.readthedocs.io>`_,
so a rule plugin registered after a game can override or wrap any of the game's hooks. The
hooks of the mdp program (output formats, commands, analyses, exports) are in
:mod:`mdp.hookspecs.program`: a game that implements one of them is refused with a line that
says where it belongs.

The hooks come in seven groups, in the order the engine meets them:

1. **Loading** a game: :func:`mdp_configure`, :func:`mdp_params`, :func:`mdp_variants`,
   :func:`mdp_check`.
2. **The problem, one state at a time**: :func:`mdp_initial_state`, :func:`mdp_actions`,
   :func:`mdp_outcomes`, :func:`mdp_terminal_value`, :func:`mdp_estimate_states`. The plain
   way to describe a game; the engine walks the states depth-first.
3. **The problem in batch**: :func:`mdp_stage` and :func:`mdp_expand`, the fast way: the
   engine expands a whole frontier of states at once as arrays. A game gives either group 2
   or group 3 (with :func:`mdp_initial_state`); both feed the same compile step.
4. **Presentation and analysis**: :func:`mdp_describe`, :func:`mdp_objective`,
   :func:`mdp_state_columns`, :func:`mdp_action_columns`, :func:`mdp_columns` (the game's
   words for its rules, states and actions), :func:`mdp_outcome_columns`,
   :func:`mdp_strategies`, :func:`mdp_report_controls` and :func:`mdp_round_ends_script`.
5. **Matches**: :func:`mdp_match_rules`, how players taking turns at a one-player game are scored.
6. **Rounds**: :func:`mdp_round_start`, :func:`mdp_round_rule`, :func:`mdp_round_columns`, for a game
   played in rounds: the hooks of groups 2 or 3 describe one round, played again between round states.
7. **Two players**: :func:`~mdp.hookspecs.turns.mdp_turns` (kept in :mod:`mdp.hookspecs.turns`).

Hooks that take them receive ``params``, a read-only mapping from each parameter name to its
resolved value (see :func:`mdp_params`), and ``game``, the :class:`mdp.Game` itself, through
which a hook can call other hooks (``game.call("hook_name", ...)``) or keep data derived from
the parameters (:meth:`mdp.Game.memo`). An implementation names only the arguments it uses.
States and actions are any hashable values the game likes (64-bit integers in batch). The
arrays a hook or its function is handed are read-only: one that writes into them is named.

Unless a hook says *every implementation is called*, it is ``firstresult``: implementations
are called from the most recently registered plugin back to the game itself, and the first
one that returns something other than ``None`` wins. An exception raised by a hook is
reported as an :class:`mdp.ModelError` naming the game, the hook, and the state and action.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from mdp.hookspecs import hookspec
from mdp.hookspecs.turns import mdp_turns  # noqa: F401 - a game's hook, kept there

if TYPE_CHECKING:
    from fractions import Fraction

    import numpy as np
    import pluggy

    import mdp


# 1. Loading a game.


@hookspec
def mdp_configure(plugins: pluggy.PluginManager) -> None:
    """Register further plugins before parameters are resolved.

    ``plugins`` is the :class:`pluggy.PluginManager` of the game being loaded. Called once,
    right after the game module is registered, so that a game can add hook specifications of
    its own and register its default rule plugins (:func:`mdp.register_plugins`), as pytest
    does. Every implementation is called once, a plugin's registered here (or by -p) too.
    """


@hookspec
def mdp_params() -> list[mdp.Param]:
    """Declare parameters: return a list of :class:`mdp.Param`.

    Every implementation is called and the lists are joined, the game's first. A name (a word:
    no space, ``=`` or ``,``) declared twice, or a default its parser refuses, names the plugin.

    .. code-block:: python

        @hookimpl
        def mdp_params():
            return [mdp.Param("rounds", 3, parse=mdp.parse_int(1, 10), help="rounds to play")]
    """


@hookspec
def mdp_variants() -> list[mdp.Variant]:
    """Declare named rule sets: return a list of :class:`mdp.Variant`.

    Every implementation is called and the lists are joined, the game's first; ``mdp variants
    GAME`` lists them, ``--variant NAME`` plays one (without it, the parameters' defaults are
    played, whatever the first sets); :func:`mdp.read_variants` reads them from TOML.
    """


@hookspec
def mdp_check(params: Mapping[str, Any], game: mdp.Game) -> None:
    """Check the parameters together, once they are resolved (a minimum above its maximum,
    say): raise :class:`mdp.ParamError` saying what is wrong, else return ``None`` (anything
    else, or an empty ParamError, is the game's fault). Each is called as a game loads."""


# 2. The problem, one state at a time.


@hookspec(firstresult=True)
def mdp_initial_state(params: Mapping[str, Any], game: mdp.Game) -> Hashable:
    """Return the state the game starts in. Required (in batch too, as an ``int``)."""


@hookspec(firstresult=True)
def mdp_actions(params: Mapping[str, Any], game: mdp.Game, state: Hashable) -> list[Hashable]:
    """Return the actions in ``state`` as a list; an empty list makes it terminal.

    Called once for every reachable state, and again for the states of a table (the model
    keeps no labels), so it must give the same actions in the same order (a tie goes to the
    first; a set, having none, is refused) each time: a game that does not is refused.
    """


@hookspec(firstresult=True)
def mdp_outcomes(params: Mapping[str, Any], game: mdp.Game, state: Hashable,
                 action: Hashable) -> list[tuple[int | Fraction | float, Hashable]]:
    """Return what ``action`` in ``state`` leads to: a list of ``(probability, next_state)``.

    Probabilities are non-negative and sum to 1: ``int`` or :class:`fractions.Fraction` keep
    exact solving exact (a ``float``, floats only). A certain one is ``[(1, next_state)]``.
    """


@hookspec(firstresult=True)
def mdp_terminal_value(params: Mapping[str, Any], game: mdp.Game, state: Hashable) -> int | Fraction | float:
    """Return the value of the terminal ``state`` (one with no actions).

    An ``int`` or :class:`fractions.Fraction` keeps exact solving exact; :func:`mdp.solve`
    can replace these values (``terminal=``).
    """


@hookspec(firstresult=True)
def mdp_estimate_states(params: Mapping[str, Any], game: mdp.Game) -> int | None:
    """Return a number of states the game is sure to have at least, before any is explored
    (optional; an exact count is best).

    The engine refuses before any work a model that even this many states would take past
    its state limit or memory budget. Never return a guess that may be too high.
    """


# 3. The problem in batch.


@hookspec(firstresult=True)
def mdp_stage(params: Mapping[str, Any], game: mdp.Game, states: np.ndarray) -> np.ndarray:
    """Return the stage of each state in the integer array ``states``, as an integer array.

    Required with :func:`mdp_expand`. Every transition must lead to a lower stage (a count of moves
    left, say), or the same one where states may come back (:mod:`mdp.engine.closure`): the engine
    expands all states of a stage at once, then the next, and so never meets a state twice.
    """


@hookspec(firstresult=True)
def mdp_expand(params: Mapping[str, Any], game: mdp.Game, states: np.ndarray,
               labels: bool) -> mdp.Expansion:
    """Expand many states at once: return an :class:`mdp.Expansion` for ``states``.

    ``states`` is a sorted read-only array of distinct 64-bit state keys, all of one stage.
    A game that implements it is explored with it (the hooks of group 2 but
    :func:`mdp_initial_state` are not called), and its initial state must be an ``int``.

    ``labels`` says whether the actions' labels are wanted. While the model is built they
    are not (it keeps none): the game may then give ``actions=None`` and save making them.
    It is called again with ``labels=True`` for the states of a table
    (:func:`mdp.action_labels`), or of an error message, with some states of one stage, and
    must then give the same actions in the same order (an action whose outcomes differ from
    those compiled is refused). An implementation that does not take
    ``labels`` is called without it and always gives the labels.
    """


# 4. Presentation and analysis.


@hookspec(firstresult=True)
def mdp_describe(params: Mapping[str, Any], game: mdp.Game) -> str:
    """Return the rules in force as one short line of text, for people (cut past 500):
    ``return f"a coin with {params['faces']} faces"``."""


@hookspec(firstresult=True)
def mdp_objective(params: Mapping[str, Any], game: mdp.Game) -> mdp.Objective:
    """Return the :class:`mdp.Objective`: what a value means and whether to maximize it.

    Without an implementation the engine maximizes an unnamed value.
    """


@hookspec(firstresult=True)
def mdp_state_columns(params: Mapping[str, Any], game: mdp.Game, state: Hashable) -> dict[str, Any]:
    """Return the readable columns of ``state``: ``{name: scalar}``.

    Used for policy tables and for :attr:`mdp.CompiledModel.terminals`. Every state must give
    the same names, and a state the same columns each time; ``None`` for a value that does
    not apply. Without an implementation a table shows ``str(state)`` in a column ``state``.
    The names mdp's tables add themselves (``value``, ``regret``, ``probability`` ... or shown
    alike: ``mdp.game.columns.TABLE_COLUMNS``) are refused, as is a name both give (a table
    holds one of each), and one no one types as ``COLUMN=VALUE``.
    """


@hookspec(firstresult=True)
def mdp_action_columns(params: Mapping[str, Any], game: mdp.Game, state: Hashable,
                       action: Hashable) -> dict[str, Any]:
    """Return the readable columns of ``action`` taken in ``state``: ``{name: scalar}``.

    The same rules as :func:`mdp_state_columns`; the default is a column ``action``.
    """


@hookspec(firstresult=True)
def mdp_columns(params: Mapping[str, Any], game: mdp.Game, states: Sequence[Hashable],
                actions: Sequence[Hashable | None] | None) -> dict[str, Any]:
    """Return readable columns for many states at once: ``{name: values}``, the values a
    list, a numpy array or a Polars Series (with nulls where nothing applies).

    ``states`` is a sequence of states. ``actions`` is ``None`` when only the states' own
    columns are wanted (the terminal states of a model), else a parallel sequence, one action
    per row, some of which may be ``None`` (a state named alone, in an error message).
    Optional; a batch game should implement it, since the per-state column hooks would be
    called once per row otherwise. A column may also be an :class:`mdp.LazyColumn`, made
    only when a table is: the terminal states' columns are asked for at every compile, and
    kept in the model until :attr:`mdp.CompiledModel.terminals` is read. Names as
    :func:`mdp_state_columns`'s; a state's columns the same whatever else is asked with it.
    """


@hookspec(firstresult=True)
def mdp_outcome_columns(params: Mapping[str, Any], game: mdp.Game) -> list[str]:
    """Return the names of the readable columns of a terminal state that make its outcome
    (a list of one or more distinct names from :attr:`mdp.CompiledModel.terminals`).

    ``mdp distribution`` and ``mdp simulate`` group the games by them (by default the
    terminal ``value``); ``player`` is refused in a game two players take in turns (the
    tables add it). A game of rounds does not ask it: its outcomes are totals.

    .. code-block:: python

        @hookimpl
        def mdp_outcome_columns():
            return ["score"]
    """


@hookspec
def mdp_strategies(params: Mapping[str, Any], game: mdp.Game) -> list[mdp.Strategy | mdp.RoundsStrategy]:
    """Name ways to play other than the optimal one: return a list of :class:`mdp.Strategy`
    (or, for a game of rounds, :class:`mdp.RoundsStrategy`).

    Every implementation is called and the lists are joined, the game's first. A strategy's
    ``weights(game, model)`` gives one weight per action of the compiled ``model`` (see
    :class:`mdp.Strategy`), computed at once from ``model.states`` and
    :func:`mdp.action_labels`, or one state at a time with :meth:`mdp.Strategy.per_state`.
    A game of rounds gives :class:`mdp.RoundsStrategy` instead, whose ``aims`` give the
    worth aimed at for each end of a round; every game of rounds has ``greedy`` too. A
    strategy of the wrong kind for the game is refused.
    ``--strategy NAME`` evaluates one exactly; ``mdp strategies GAME`` lists them.

    .. code-block:: python

        @hookimpl
        def mdp_strategies():
            return [mdp.Strategy("first", "always the first action",
                                 lambda game, model: first_action_of_each_state(model))]
    """


@hookspec(firstresult=True)
def mdp_report_controls(params: Mapping[str, Any], game: mdp.Game) -> list[dict[str, Any]]:
    """Return controls for the strategy explorer of ``mdp report`` (optional): a list of
    dicts, one per readable state column the game wants drawn its own way.

    Each names its ``column`` (a state column of :func:`mdp_columns`), its ``kind`` and a
    ``label``. Kinds:

    - ``"select"``: pick one of the values the column takes (the default for every column
      the hook does not name); ``none`` is the text shown for a state where the column does
      not apply (``None``).
    - ``"toggles"``: one button per text of ``items``, each on or off; the column's value
      is the texts switched on (each an item, every item held by some value), in the order
      of ``items``, joined by ``separator`` (default ``" "``); ``hint``, a line under them.
      The items switched off are struck through, or, with ``strike`` ``"on"``, those on.
    - ``"multiset"``: items picked with repeats, up to ``most``: a button per item adds one,
      a picked item is taken away when pressed; the value is the items picked in the order
      of ``items``, joined by ``separator``; ``none`` is a button for a state where the
      column does not apply (``None``).
    - ``"derived"``: no control: the column follows from the others (a count of what
      another column holds), so the page names a state by the other columns alone.

    A control only changes how the user names a state, not the page's policy table.

    .. code-block:: python

        @hookimpl
        def mdp_report_controls(params):
            return [{"column": "held", "kind": "toggles", "label": "cards held",
                     "items": [str(c) for c in params["cards"]]}]
    """


@hookspec(firstresult=True)
def mdp_round_ends_script(params: Mapping[str, Any], game: mdp.Game) -> str | None:
    """Return, for a game of rounds, the JavaScript twin of :func:`mdp_round_rule`, which the
    explorer of ``mdp report`` runs to solve the round of the round state the player sets
    (optional; without it the page of a game of rounds has no explorer).

    The text is a JavaScript function expression ``function (key, ends) {...}`` giving
    ``{next: [...], points: [...]}`` for one round state: ``key`` is its integer key (below
    2**53; JavaScript's bit operators work on 32 bits), ``ends`` the round's terminal states
    as JSON (tuples as arrays), and the arrays hold, per end, what the rule of
    :func:`mdp_round_rule` gives in that round state's row. The page carries that rule's
    answers for some round states of every round and checks the script against them when it
    opens; with a JavaScript engine installed (the extra ``report``), ``mdp report`` checks
    before it writes the page and refuses a script that disagrees, naming the round state
    and the end.

    .. code-block:: python

        @hookimpl
        def mdp_round_ends_script():            # a round state counts the rounds left
            return ("function (key, ends) { return {"
                    "next: ends.map(function () { return key > 0 ? key - 1 : -1; }),"
                    "points: ends.map(function (end) { return end[1]; })}; }")
    """


# 5. Matches.


@hookspec(firstresult=True)
def mdp_match_rules(params: Mapping[str, Any], game: mdp.Game) -> mdp.MatchRules | None:
    """Return the rules of a match: an :class:`mdp.MatchRules`, or ``None`` for a game that
    is not played in matches.

    In a match, players take turns at the same one-player game, each knowing the results of
    the players before, and money changes hands at the end. The rules name the column of
    :attr:`mdp.CompiledModel.terminals` that is a player's result (``outcome``) and say
    who pays whom (``payoff``): given an integer array of results (the column must hold an
    integer at every terminal state, or the match is refused; past 64 bits, Python ints in
    an object array), one row per match and one column per player in the order they play,
    ``payoff`` returns an array of the same shape, what each player receives (negative:
    pays; each row adds up to 0, or it is refused), as integers or fractions for exact
    values, called once for all the rows; each row's answer is by that row alone (a few rows
    are asked again alone, and a payoff that answers otherwise is refused). ``params`` names
    the parameters that only the match reads, so that a table over them compiles it once;
    ``ignores`` those only a game alone reads (how it is scored): set, the match is refused.

    .. code-block:: python

        @hookimpl
        def mdp_match_rules(params):
            def payoff(results):           # the higher score wins one from the other
                first, second = results[:, 0], results[:, 1]
                won = np.sign(second - first)
                return np.stack([-won, won], axis=1)
            return mdp.MatchRules("score", payoff)
    """


# 6. Rounds.


@hookspec(firstresult=True)
def mdp_round_start(params: Mapping[str, Any], game: mdp.Game) -> int | None:
    """Return the round state before the first round, as an ``int`` key of at least 0, for a
    game played in rounds; ``None`` (or no implementation) for a game that is not.

    In a game of rounds the other hooks describe *one round*: it is compiled once and played
    again in every round, and its terminal states are the ways a round can end. Between
    rounds the game is in a *round state*, which the round's hooks never see: it only
    changes what each end is worth (:func:`mdp_round_rule`). :func:`mdp.compile` then gives
    an :class:`mdp.Rounds`, and :func:`mdp.solve` its value from this round state.

    Where several actions of a round are equally good from a round state, the first in the
    order of :func:`mdp_actions` is taken (in floats, those within
    :data:`~mdp.engine.policy.FLOAT_TIE` of the best, relative, count as equal), by advice,
    simulation, the distribution, strategies and the report alike.
    """


@hookspec(firstresult=True)
def mdp_round_rule(params: Mapping[str, Any], game: mdp.Game,
                   ends: Sequence[Hashable]) -> Callable[[np.ndarray], mdp.RoundEnds]:
    """Return the round rule of a game of rounds: a function of many round states at once.

    Called once, at compile, with ``ends``, the round's terminal states as the game writes
    them, a tuple in the round model's order (work that depends on the ends alone goes here). The
    function it returns is called again and again, in the compile and every solve, with an
    ``int64`` array of round states that all follow the same number of rounds, and returns an
    :class:`mdp.RoundEnds`, a row per round state and a column per end: ``next``, the round
    state that follows (a key of 0 or more, or ``-1`` where that end cannot close a round
    from that state: the player is never let choose it; other negatives are refused), and
    ``points``, what the end earns there (``int`` up to about 1.8e308, numpy integers and
    :class:`~fractions.Fraction` keep exact solving exact; floats are solved in floats;
    finite at every end). A row of ``-1`` ends the game. The function must be pure: a round
    state's answer the same whatever else is asked with it (checked). A fault is laid at the
    rule plugin whose implementation (a wrapper) made it.

    Every way to a round state must take the same number of rounds, and an end that a round
    state does not allow must be one the player can avoid (reached by a choice, never only
    by chance).

    .. code-block:: python

        @hookimpl
        def mdp_round_rule(ends):              # a round state counts the rounds left
            score = np.array([end[1] for end in ends])

            def rule(states):
                left = states[:, None] - np.ones(len(ends), dtype=np.int64)
                return mdp.RoundEnds(np.where(states[:, None] > 0, left, -1),
                                     np.broadcast_to(score, left.shape))

            return rule
    """


@hookspec(firstresult=True)
def mdp_round_columns(params: Mapping[str, Any], game: mdp.Game,
                      states: np.ndarray) -> dict[str, Sequence[Any]]:
    """Return readable columns of many round states at once, as ``{name: values}`` with one
    value per state of the integer array ``states`` (optional; without it, a column
    ``round_state`` holds the key). Refused: the names :func:`mdp_state_columns` refuses,
    ``round``, ``points`` and those of the round's state and action columns (a table has them
    all). A value ``None`` is named by leaving its column out, as a state's is; checked as
    :func:`mdp_columns` is.

    :func:`mdp.advise` finds a round state by these columns, beside a state of the round's,
    and :func:`mdp.simulate` counts games by those of the round state they end in.

    .. code-block:: python

        @hookimpl
        def mdp_round_columns(states):          # the boxes filled, as bits
            return {"filled": [" ".join(b for i, b in enumerate(BOXES) if s >> i & 1)
                               for s in states.tolist()]}
    """
