"""Games as the engine meets them: loading a game and its plugins, the hook specifications,
parameters, named variants, and the game's readable columns."""
