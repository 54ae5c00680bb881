#!/usr/bin/env python3
"""Checks that every op of the fuse dialect is in every place that a new op
must be added to (docs/extending.md, "A new elementwise op").

usage: check_op_coverage.py OPS_MD SOURCE_ROOT

OPS_MD is the op reference that mlir-doc generates from the ODS
(build/docs/Dialects/FuseOps.md): its `### \`fuse.NAME\`` headings are the
list of ops. SOURCE_ROOT is the repository. For every place that places()
lists and every op, prints `MISSING fuse.NAME in PATH: WHAT` when the place
lacks the op (`MISSING in PATH: WHAT; making its programs failed with
KeyError: 'NAME'` when a script's table lacks one), then `N ops in M places, K missing`, and exits 1 when K > 0.
The tables below say where the Python package names an op differently and
which ops a place needs not have, and why.

The test scripts are asked what they run rather than searched for the op's
name: check_ops.py and scripts/accuracy build their cases (all_cases()) and
difftest.py generates the programs of the seeds test/Fuzz/difftest.test
runs; an op is there when one of those programs contains it. The Python
package's tracer is asked too: the op's function or operator, traced, must
give a program with the op. Nothing is run.
"""

import importlib.machinery
import importlib.util
import os
import re
import sys
import warnings

import numpy as np

# The scripts it loads are read, not cached next to their sources.
sys.dont_write_bytecode = True

# The Python package's name of an op, where it is not the op's mnemonic.
PYTHON_NAME = {"max": "maximum", "min": "minimum", "select": "where"}
# Ops with no function of their own in the Python package, and how a traced
# function makes them.
NO_PYTHON_FUNCTION = {
    "cmp": "the comparison operators of fuse.Tensor",
    "constant": "Python and numpy scalars in a traced function",
}
# Ops that python/tests/test_ops.py reaches through an operator of
# fuse.Tensor, with the lambda body that spells it there.
OPERATOR = {"add": "a + b", "sub": "a - b", "mul": "a * b", "div": "a / b",
            "pow": "a ** b", "neg": "-x", "cmp": "a < b"}
# Compiler-internal ops: the pipelines make and remove them, and fuse
# programs do not use them, so no place for users' ops needs them.
INTERNAL = {"opaque": "a guard of fuse-guard-target-math"}
# Ops that scripts/accuracy does not measure, and what they return: they
# round nothing.
EXACT = {"cmp": "a boolean", "select": "one of its operands",
         "constant": "its own value"}


def scalar_only(op):
    """Whether the Python package makes `op` from scalars only, with neither
    a function nor an operator."""
    return op in NO_PYTHON_FUNCTION and op not in OPERATOR


def read(root, path):
    with open(os.path.join(root, path), encoding="utf-8",
              errors="replace") as f:
        return f.read()


def load(name, path):
    """The module in `path` (which need not end in .py), as `name`."""
    loader = importlib.machinery.SourceFileLoader(name, path)
    spec = importlib.util.spec_from_loader(name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def ops_in(text):
    return set(re.findall(r"\bfuse\.(\w+)", text))


def ops_of_dialect(ops_md):
    with open(ops_md, encoding="utf-8") as f:
        ops = re.findall(r"^### `fuse\.(\w+)`", f.read(), re.MULTILINE)
    for op in INTERNAL:
        if op not in ops:
            sys.exit(f"check_op_coverage: {ops_md} has no fuse.{op}, which "
                     f"INTERNAL lists")
    ops = [op for op in ops if op not in INTERNAL]
    if not ops:
        sys.exit(f"check_op_coverage: {ops_md} has no op "
                 f"(no '### `fuse.NAME`' heading)")
    return ops


#===-----------------------------------------------------------------------===#
# Places: (path, what an op needs there, test(op) -> bool)
#===-----------------------------------------------------------------------===#

def tracer_place(root):
    """The Python package's tracer, asked what it emits: each op's function
    (or operator, or a scalar for constant) traced on small arrays must
    give a program with that op (a quoted name anywhere in _trace.py passed
    before, whether or not anything emitted it)."""
    sys.path.insert(0, os.path.join(root, "python"))
    try:
        import fuse
    except Exception as error:  # noqa: BLE001 - reported as MISSING
        return ("python/fuse/_trace.py", "the op in the tracer's programs",
                lambda op: False, f"{type(error).__name__}: {error}")
    x = np.linspace(0.25, 2.0, 8, dtype=np.float32).reshape(2, 4)
    mask = x > 1.0

    def calls(op):
        """The ways to make `op` from Python: its operator, its function
        with the arguments it may take, or a scalar (constant)."""
        if op in OPERATOR:
            expr = OPERATOR[op]
            names = sorted(set(re.findall(r"\b[a-z]\b", expr)))
            yield eval(f"lambda {', '.join(names)}: {expr}"), [x] * len(names)
        if op == "constant":
            yield (lambda a: a * 3.0), [x]
        function = getattr(fuse, PYTHON_NAME.get(op, op), None)
        if function is None:
            return
        for args in ([x], [x, x], [mask, x, x], [x, "float16"], [x, 0.5, 1.5]):
            yield (lambda *a, f=function: f(*a)), args

    def emitted(op):
        for fn, args in calls(op):
            arrays = [a for a in args if isinstance(a, np.ndarray)]
            others = [a for a in args if not isinstance(a, np.ndarray)]
            try:
                text = fuse.jit(lambda *a: fn(*a, *others)).trace(*arrays)
            except Exception:  # noqa: BLE001 - a call that does not fit
                continue
            if op in ops_in(text):
                return True
        return False

    return ("python/fuse/_trace.py",
            "the op in the program its Python function or operator traces "
            "to", emitted)


def places(root):
    def text_place(path, what, pattern):
        text = read(root, path)
        return (path, what,
                lambda op: re.search(pattern(re.escape(op)), text,
                                     re.MULTILINE) is not None)

    def program_place(path, what, programs, exempt=None):
        found = set()
        try:
            for program in programs():
                found |= ops_in(program)
        except Exception as error:
            # A table of the script that lacks an op (its reference, its
            # range) stops it making its cases: one missing place, which op
            # for the error to say.
            return (path, what, None, f"{type(error).__name__}: {error}")
        exempt = exempt or {}
        return (path, what, lambda op: op in found or op in exempt)

    # The table of "## Operations", not the other tables of the page (the
    # formulas of Semantics have rows that start with an op too).
    table = re.search(r"^## Operations\n(.*?)^#", read(root, "docs/dialect.md"),
                      re.DOTALL | re.MULTILINE).group(1)
    yield ("docs/dialect.md", 'a row in the table of ops ("Operations")',
           lambda op: re.search(rf"^\| `{re.escape(op)}` \|", table,
                                re.MULTILINE) is not None)
    yield text_place("test/Dialect/Fuse/ops.mlir", "a round-trip test",
                     lambda op: rf"\bfuse\.{op}\b")

    inputs = os.path.join(root, "test", "Run", "Inputs")
    check_ops = load("check_ops", os.path.join(inputs, "check_ops.py"))
    yield program_place(
        "test/Run/Inputs/check_ops.py",
        "a case of all_cases(), its numpy reference and its tolerance",
        lambda: (case.program() for case in check_ops.all_cases()))

    accuracy = load("accuracy", os.path.join(root, "scripts", "accuracy"))
    yield program_place(
        "scripts/accuracy",
        "a case of all_cases() (its UNARY or BINARY list) and its ulp bound",
        lambda: (case.program() for case in accuracy.all_cases(1)), EXACT)

    # The seeds the lit test runs.
    seeds = re.search(r"--seed (\d+) --count (\d+)",
                      read(root, "test/Fuzz/difftest.test"))
    first, count = int(seeds.group(1)), int(seeds.group(2))
    difftest = load("difftest", os.path.join(root, "test", "Fuzz",
                                             "difftest.py"))
    yield program_place(
        "test/Fuzz/difftest.py",
        f"the generator's OPS (and WEIGHTS), its reference and tolerance: no "
        f"program of seeds {first} to {first + count - 1} has the op",
        lambda: (difftest.generate(seed).mlir()
                 for seed in range(first, first + count)))

    corpus = os.path.join(root, "test", "Fuzz", "corpus")
    seeded = set()
    for directory, _, files in os.walk(corpus):
        for name in files:
            seeded |= ops_in(read(directory, name))
    yield ("test/Fuzz/corpus/", "a seed (parse/ops.mlir has every op)",
           lambda op: op in seeded)
    yield text_place("test/Fuzz/mlir.dict", 'an entry "fuse.NAME "',
                     lambda op: rf'^"fuse\.{op} "$')

    yield tracer_place(root)
    public = re.search(r"__all__ = \[(.*?)\]",
                       read(root, "python/fuse/__init__.py"), re.DOTALL)
    exported = set(re.findall(r"\"(\w+)\"", public.group(1)))
    yield ("python/fuse/__init__.py", "a function in __all__",
           lambda op: (op in NO_PYTHON_FUNCTION or
                       PYTHON_NAME.get(op, op) in exported))
    section = re.search(r"^### Operations on Tensors\n(.*?)^#",
                        read(root, "python/README.md"),
                        re.DOTALL | re.MULTILINE)
    documented = set()
    for row in re.findall(r"^\|.*\|$", section.group(1), re.MULTILINE):
        for code in re.findall(r"`([^`]*)`", row):
            documented |= set(re.findall(r"\w+", code))
    yield ("python/README.md",
           'a row of the table in "Operations on Tensors"',
           lambda op: op in documented or scalar_only(op))
    tests = read(root, "python/tests/test_ops.py")

    def tested(op):
        if scalar_only(op):
            return True
        name = re.escape(PYTHON_NAME.get(op, op))
        if re.search(rf"\bfuse\.{name}\b", tests):
            return True
        return op in OPERATOR and re.search(
            rf"lambda [\w, ]+: {re.escape(OPERATOR[op])}\b", tests) is not None
    yield ("python/tests/test_ops.py",
           "a test against numpy through the op's Python function or "
           "operator", tested)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    ops_md, root = sys.argv[1], sys.argv[2]
    ops = ops_of_dialect(ops_md)
    missing = 0
    count = 0
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for path, what, present, *failed in places(root):
            count += 1
            if failed:
                print(f"MISSING in {path}: {what}; making its programs failed "
                      f"with {failed[0]}")
                missing += 1
                continue
            for op in ops:
                if not present(op):
                    print(f"MISSING fuse.{op} in {path}: {what}")
                    missing += 1
    print(f"{len(ops)} ops in {count} places, {missing} missing")
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
