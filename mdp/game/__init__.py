"""Games as the engine meets them: loading a game and its plugins, parameters, named
variants, and the game's readable columns (the hooks a game implements are in
:mod:`mdp.hookspecs.game`)."""
