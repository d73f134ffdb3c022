"""Solve Shut the Box with Storm (via stormpy) for speed/accuracy comparison.

Usage:
    python benchmarks/storm.py --tiles 1-9 --dice 2 --one-die max6 [--exact]

prints one JSON line: value, states, build_seconds, check_seconds, total_seconds.
stormpy is imported inside the functions so this module loads without it.
"""

import json
import os
import sys
import tempfile
import time
from fractions import Fraction


def storm_solve(prism_text, prop, exact=False, precision=1e-15):
    """Parse, build and check `prop` on the PRISM MDP `prism_text` with Storm.

    exact=True builds a rational model and checks it with Storm's exact
    environment; otherwise doubles with Storm's sound (interval) methods,
    to relative precision `precision` (Storm's own default is 1e-6).
    Returns {value, states, transitions, build_seconds, check_seconds, total_seconds};
    in exact mode value is a "p/q" string and value_float its float.
    """
    import stormpy

    start = time.perf_counter()
    # stormpy 2.0 parses PRISM programs from files only.
    with tempfile.NamedTemporaryFile("w", suffix=".prism", delete=False) as f:
        f.write(prism_text)
        path = f.name
    try:
        program = stormpy.parse_prism_program(path)
    finally:
        os.unlink(path)
    properties = stormpy.parse_properties(prop, program)
    value_type = stormpy.Rational if exact else float
    # Rolled states with no legal move are deadlocks; Storm's builder gives them a
    # self-loop (label "deadlock"). They are not "shut", so the value is unaffected.
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
    # Allow running as a plain script (python benchmarks/storm.py) from the repo root.
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from benchmarks.options import rule_parser
    from benchmarks.prism import shutbox_prism

    ap = rule_parser(__doc__.splitlines()[0])
    ap.add_argument("--max-flips", type=int, default=None)
    ap.add_argument("--precision", type=float, default=1e-15)
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    text, prop = shutbox_prism(args.tiles, args.dice, faces=args.faces,
                               one_die=args.one_die, one_die_mode=args.one_die_mode,
                               max_flips=args.max_flips)
    generated = time.perf_counter()
    import stormpy  # noqa: F401  (timed separately: the import alone is noticeable)
    imported = time.perf_counter()
    out = storm_solve(text, prop, exact=args.exact, precision=args.precision)
    out["generate_seconds"] = generated - t0
    out["import_seconds"] = imported - generated
    print(json.dumps(out))


if __name__ == "__main__":
    main()
