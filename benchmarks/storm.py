"""Solve a PRISM model written by `mdp export` with Storm (via stormpy), for comparison.

Usage:
    mdp export shutbox --set tiles=1-9 --out shutbox.prism
    python benchmarks/storm.py shutbox.prism [--exact]

reads the model and the property beside it (shutbox.prism.props) and prints one JSON line:
value, states, transitions, build_seconds, check_seconds, total_seconds. It needs stormpy,
not mdp, so that it runs in any Python that has stormpy (benchmarks/run.py --storm-python).
stormpy is imported inside the functions so this module loads without it.
"""

import argparse
import json
import time
from fractions import Fraction


def storm_solve(path, prop, exact=False, precision=1e-15):
    """Parse, build and check `prop` on the PRISM MDP in the file `path` with Storm.

    exact=True builds a rational model and checks it with Storm's exact
    environment; otherwise doubles with Storm's sound (interval) methods,
    to relative precision `precision` (Storm's own default is 1e-6).
    Returns {value, states, transitions, build_seconds, check_seconds, total_seconds};
    in exact mode value is a "p/q" string and value_float its float.
    """
    import stormpy

    start = time.perf_counter()
    program = stormpy.parse_prism_program(path)
    properties = stormpy.parse_properties(prop, program)
    value_type = stormpy.Rational if exact else float
    model = stormpy.build_model[value_type](program, properties)
    built = time.perf_counter()

    if exact:
        env = stormpy.environments.exact()
    else:
        env = stormpy.environments.sound()
        env.solver().min_max().precision = stormpy.Rational(repr(precision))
    result = stormpy.model_checking(model, properties[0], only_initial_states=True, environment=env)
    value = result.get_value(model.initial_states[0])
    done = time.perf_counter()

    out = {}
    if exact:
        frac = Fraction(str(value))
        out["value"] = f"{frac.numerator}/{frac.denominator}"
        out["value_float"] = float(frac)
    else:
        out["value"] = float(value)
    out.update(
        states=model.nr_states,
        transitions=model.nr_transitions,
        build_seconds=built - start,
        check_seconds=done - built,
        total_seconds=done - start,
    )
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", help="a PRISM model; its property is read from MODEL.props")
    ap.add_argument("--exact", action="store_true", help="Storm's exact mode (rationals)")
    ap.add_argument("--precision", type=float, default=1e-15)
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    with open(args.model + ".props") as f:
        prop = f.read()
    import stormpy  # noqa: F401  (timed separately: the import alone is noticeable)
    imported = time.perf_counter()
    out = storm_solve(args.model, prop, exact=args.exact, precision=args.precision)
    out["import_seconds"] = imported - t0
    print(json.dumps(out))


if __name__ == "__main__":
    main()
