"""What mdp writes: table formats and atomic files, the PRISM export, the report page and
plots."""
