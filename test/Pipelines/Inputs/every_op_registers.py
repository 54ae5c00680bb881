#!/usr/bin/env python3
"""Checks that every elementwise op, on every element type it takes, fits
the registers its kernel asks for, without spilling.

usage: every_op_registers.py FUSE_OPT PTXAS WORKDIR

The programs are those of test/Run/Inputs/check_ops.py (every op on every
type, with its broadcast and scalar variants) with every static size made
dynamic, as programs of unknown sizes compile; a case is one function of a
module that fuse-opt compiles to PTX for sm_90. ptxas assembles it; each
kernel's budget is what its `.maxntid` and `.minnctapersm` leave a thread
of the SM's 64K registers (fuse-full-occupancy sets them: 32 at full
occupancy on sm_90, 64 at half). Prints `FAIL KERNEL: R registers, S
bytes spilled; its budget is B (.minnctapersm M)` for a kernel that spills
or takes more (KERNEL is the op's name and a number), then `N kernels of
M ops (C cases), K over their budgets`, and exits 1 when K > 0.

So a new op whose kernel needs more registers (a long math function, a
wide integer routine) fails here until fuse-full-occupancy gives it half
occupancy (lib/Pipelines/Pipelines.cpp).
"""
import importlib.util
import os
import re
import subprocess
import sys

REGISTERS_PER_SM = 65536
# ptxas allocates a thread's registers in steps of 8.
REGISTER_STEP = 8
MAX_REGISTERS = 255


def check_ops():
    path = os.path.join(os.path.dirname(__file__), "..", "..", "Run", "Inputs",
                        "check_ops.py")
    spec = importlib.util.spec_from_file_location("check_ops", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def programs():
    """The functions of every elementwise case of check_ops.py, one each
    (@c0, @c1, ...)."""
    ops = check_ops()
    functions = []
    for generate in (ops.unary_float_cases, ops.unary_int_cases, ops.clamp_cases,
                     ops.binary_cases, ops.cmp_cases, ops.select_cases,
                     ops.cast_cases):
        for case in generate():
            name = f"c{len(functions)}"
            text = re.sub(r"tensor<((?:\d+x)+)",
                          lambda m: "tensor<" + "?x" * m.group(1).count("x"),
                          case.program())
            functions.append(text.replace("func.func @f(", f"func.func @{name}(", 1))
    return functions


def budgets(ptx):
    """Each kernel's register budget, from its .maxntid and .minnctapersm."""
    found = {}
    for entry in re.finditer(r"\.entry (\w+)\((.*?)\n\{", ptx, re.S):
        name, head = entry.group(1), entry.group(2)
        threads = re.search(r"\.maxntid (\d+)", head)
        blocks = re.search(r"\.minnctapersm (\d+)", head)
        if not threads or not blocks:
            found[name] = (MAX_REGISTERS, "no .maxntid or .minnctapersm")
            continue
        per_thread = REGISTERS_PER_SM // (int(threads.group(1)) * int(blocks.group(1)))
        found[name] = (min(MAX_REGISTERS, per_thread // REGISTER_STEP * REGISTER_STEP),
                       f".minnctapersm {blocks.group(1)}")
    return found


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    fuse_opt, ptxas, workdir = sys.argv[1:]
    os.makedirs(workdir, exist_ok=True)
    functions = programs()
    source = os.path.join(workdir, "every-op.mlir")
    ptx_file = os.path.join(workdir, "every-op.ptx")
    with open(source, "w") as f:
        f.write("".join(functions))
    subprocess.run([fuse_opt, source, "--emit=ptx", "--chip=sm_90", "-o", ptx_file],
                   check=True)
    log = subprocess.run([ptxas, "-arch=sm_90", "-v", ptx_file, "-o",
                          os.path.join(workdir, "every-op.cubin")],
                         check=True, capture_output=True, text=True).stderr
    with open(ptx_file) as f:
        limits = budgets(f.read())
    # Each kernel's registers and spilled bytes (stores and loads), from
    # ptxas's report.
    used = {}
    for block in re.split(r"(?=ptxas info\s+: Compiling entry function)", log):
        name = re.search(r"Compiling entry function '(\w+)'", block)
        registers = re.search(r"Used (\d+) registers", block)
        spills = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", block)
        if name and registers and spills:
            used[name.group(1)] = (int(registers.group(1)),
                                   int(spills.group(1)) + int(spills.group(2)))
    over = 0
    for kernel, (budget, why) in sorted(limits.items()):
        if kernel not in used:
            print(f"FAIL {kernel}: ptxas did not report it")
            over += 1
            continue
        registers, spilled = used[kernel]
        if spilled or registers > budget:
            print(f"FAIL {kernel}: {registers} registers, {spilled} bytes spilled; "
                  f"its budget is {budget} ({why})")
            over += 1
    ops = {re.sub(r"_\d+$", "", kernel) for kernel in limits}
    print(f"{len(limits)} kernels of {len(ops)} ops ({len(functions)} cases), "
          f"{over} over their budgets")
    sys.exit(1 if over else 0)


if __name__ == "__main__":
    main()
