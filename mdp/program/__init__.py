"""The ``mdp`` program: the command line, its arguments, the registry of formats, commands,
analyses and exports, and the built-in plugins."""
