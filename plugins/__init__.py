"""Optional plugins shipped with mdp: rule variants and analyses."""
