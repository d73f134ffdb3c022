"""The engine: discovery of a game's states, the compile into a model, the model and its two
sweeps over the layers, the arithmetic of floats and exact rationals, threads and memory.
It knows nothing of any particular game."""
