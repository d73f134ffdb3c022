"""mdp's own commands, output formats, analyses and exports: the built-in plugins of the
``mdp`` program, registered by name through the hooks any plugin uses (see
:mod:`mdp.program.registry`). They do not import each other: what commands share is in
:mod:`mdp.program.arguments`.

- :mod:`~mdp.program.builtins.core`: the formats, the ``policy`` analysis, and ``solve``,
  ``variants``, ``params``, ``games`` and ``formats``;
- :mod:`~mdp.program.builtins.analyses`: the analyses ``distribution``, ``simulate``,
  ``strategies`` and ``advise``;
- :mod:`~mdp.program.builtins.matches`: the analysis ``match``, with its ``--vary`` table;
- :mod:`~mdp.program.builtins.export`: the ``export`` command and the PRISM export;
- :mod:`~mdp.program.builtins.report`: ``report`` (one HTML page);
- :mod:`~mdp.program.builtins.completion`: ``completion`` (a shell's completion script) and
  the completer it calls back.
"""
