"""mdp's own commands: the built-in plugins of the ``mdp`` program, registered by name through
the hooks any plugin uses (see :mod:`mdp.program.registry`). They do not import each other:
what commands share is in :mod:`mdp.program.arguments`. The formats, analyses and exports
they write with are the library's (:mod:`mdp.outputs.formats`,
:mod:`mdp.analysis.builtins`, :mod:`mdp.outputs.exports`).

- :mod:`~mdp.program.builtins.core`: ``solve``, ``variants``, ``params``, ``games`` and
  ``formats``;
- :mod:`~mdp.program.builtins.export`: ``export``;
- :mod:`~mdp.program.builtins.report`: ``report`` (one HTML page);
- :mod:`~mdp.program.builtins.completion`: ``completion`` (a shell's completion script) and
  the completer it calls back.
"""
