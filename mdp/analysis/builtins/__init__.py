"""mdp's own analyses, built-in plugins registered by name through the hook any plugin uses
(see :mod:`mdp.analysis.registry`):

- :mod:`~mdp.analysis.builtins.analyses`: ``policy``, ``distribution``, ``simulate`` and
  ``strategies``; :mod:`~mdp.analysis.builtins.advise`: ``advise`` (what differs by the
  model's kind in :mod:`~mdp.analysis.builtins.later`);
- :mod:`~mdp.analysis.builtins.matches`: ``match``, with its ``--vary`` table;
- :mod:`~mdp.analysis.builtins.targets`: ``targets``, what ``mdp solve --at-least`` prints,
  and the play toward a total of ``advise``, ``distribution`` and ``simulate``
  (``--at-least``); :mod:`~mdp.analysis.builtins.options` parses options several take.

Each is one call in Python (:func:`mdp.analyse`) and one command of the ``mdp`` program; the
parts only the program calls (arguments, checks, what is shown) import the program's
helpers when called.
"""
