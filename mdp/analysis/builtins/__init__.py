"""mdp's own analyses, built-in plugins registered by name through the hook any plugin uses
(see :mod:`mdp.analysis.registry`):

- :mod:`~mdp.analysis.builtins.analyses`: ``policy``, ``distribution``, ``simulate``,
  ``strategies`` and ``advise``;
- :mod:`~mdp.analysis.builtins.matches`: ``match``, with its ``--vary`` table.

Each is one call in Python (:func:`mdp.analyse`) and one command of the ``mdp`` program; the
parts only the program calls (arguments, checks, what is shown) import the program's
helpers when called.
"""
