"""An extension of the mdp program, for any game: an output format, an analysis and a model
export (see docs/writing-a-game.rst, "Extending the mdp program")."""

import mdp


@mdp.hookimpl
def mdp_formats():
    return [mdp.Format("tsv", (".tsv",), lambda frame, file: frame.write_csv(file, separator="\t"),
                       "tab-separated values")]


def blunders(solution, game, top):
    """The costliest mistakes: the actions that lose the most against the best, worst first."""
    return mdp.policy(solution, game).sort("regret", descending=True, maintain_order=True).head(top)


def show(table, solution, game):
    """``mdp blunders GAME`` on a terminal: one line per mistake."""
    print(game.describe())
    for row in table.iter_rows(named=True):
        where = ", ".join(f"{name} {value}" for name, value in row.items()
                          if name not in ("value", "optimal", "regret") and value is not None)
        print(f"{row['regret']:.4f} lost: {where}")


@mdp.hookimpl
def mdp_analyses():
    return [mdp.Analysis("blunders", "the costliest mistakes, worst first", blunders,
                         [mdp.Param("top", 5, mdp.parse_int(1), "how many to show")], show=show)]


def write_terminals(model, path):
    mdp.write_table(model.terminals, path, "csv")
    return [path]


@mdp.hookimpl
def mdp_exports():
    return [mdp.Export("terminals", "the terminal states' columns, as CSV", write_terminals)]
