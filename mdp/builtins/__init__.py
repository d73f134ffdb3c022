"""mdp's own commands, output formats and analyses: the built-in plugins of the ``mdp``
program, registered by name through the hooks any plugin uses (see :mod:`mdp.extensions`).

- :mod:`~mdp.builtins.core`: the formats, ``solve``, ``policy``, ``variants``, ``params``,
  ``games`` and ``formats``;
- :mod:`~mdp.builtins.analyses`: ``distribution``, ``simulate``, ``strategies``, ``advise``;
- :mod:`~mdp.builtins.matches`: ``match`` and the ``--vary`` tables;
- :mod:`~mdp.builtins.export`: ``export`` (PRISM);
- :mod:`~mdp.builtins.report`: ``report`` (one HTML page).
"""
