"""mdp's own commands, output formats and analyses: the built-in plugins of the ``mdp``
program, registered by name through the hooks any plugin uses (see :mod:`mdp.program.registry`).

- :mod:`~mdp.program.builtins.core`: the formats, ``solve``, ``policy``, ``variants``, ``params``,
  ``games`` and ``formats``;
- :mod:`~mdp.program.builtins.analyses`: ``distribution``, ``simulate``, ``strategies``, ``advise``;
- :mod:`~mdp.program.builtins.matches`: ``match`` and the ``--vary`` tables;
- :mod:`~mdp.program.builtins.export`: ``export`` (PRISM);
- :mod:`~mdp.program.builtins.report`: ``report`` (one HTML page).
"""
