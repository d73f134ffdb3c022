"""What is asked of a solved game: policies and strategies, the outcome distribution,
simulation, advice, matches and tables over rule sets."""
