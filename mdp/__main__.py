"""``python -m mdp``: the same as the ``mdp`` command."""

import sys

from mdp.program import main

sys.exit(main())
