"""Games shipped with mdp, one folder each."""
