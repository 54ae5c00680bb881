#!/usr/bin/env python3
"""The machine code of fuse's kernels against Inductor-style Triton kernels,
measured in SASS without a GPU.

For each program below it compiles

  fused   fuse-opt PROGRAM --emit=ptx                (one kernel)
  eager   fuse-opt PROGRAM --emit=ptx --fusion=off   (one kernel per op)
  T16     the Triton kernel that PyTorch Inductor generates for the fused
          program (XBLOCK=1024, 4 warps, 32-bit indices), told that every
          size is a multiple of 16 (tt.divisibility, as Inductor does when
          the sizes it specialized on are)
  Tn      the same kernel, not told

assembles every PTX with the same ptxas (sm_90; Triton's is sm_90a), reads
`ptxas -v` (registers, spills) and disassembles the cubin with nvdisasm
(shipped in the Triton wheel). From the SASS of each kernel it counts

  sass      instructions, less the padding after the last EXIT
  path      instructions on the in-bounds path: the path from the entry to
            an EXIT that stores the most bytes and, among those, executes the
            fewest instructions. Every element of that thread is in bounds,
            and every branch to a slow path (a division's or a math
            function's special cases) is skipped. Predicated instructions
            count whether or not their predicate holds.
  elems     elements one thread writes on that path (bytes stored divided
            by the bytes each element of the kernel writes)
  ld, st    the widths of the global loads and stores on that path
  calls     CALL instructions anywhere in the kernel (subroutines: IEEE
            division's slow path, for one)

and a model of the H200: the time to issue the path's instructions (one warp
instruction per cycle on each of 132 SMs x 4 schedulers at 1.98 GHz) over
the time to move the kernel's bytes at 4.3 TB/s. Below 1 the kernel is
limited by memory; above 1 by instruction issue.

Needs Triton and matplotlib: run it with the virtual environment's Python,
bench/.venv/bin/python bench/sass.py (bench/README.md says how to make it).
Writes bench/results/sass.json, then bench/sass.png (without matplotlib, an
explicit --plot is refused at start-up and the default plot is left out,
with a note).
"""
import argparse
import datetime
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from common import (add_build_dir, build_tool, can_plot, draw_plot,  # noqa: E402
                    executable, fuse_version, names_of, print_table, size_at,
                    tool_ids, uncommitted_changes)
from compile_time import CYCLE, chain_program  # noqa: E402

# The model: H200 SXM.
SMS, SCHEDULERS, CLOCK_HZ, DRAM_BYTES_PER_S = 132, 4, 1.98e9, 4.3e12
WARP = 32

F32 = "tensor<?xf32>"

# Each program: fuse text, the Inductor-style Triton kernel (arguments and
# body), and its arguments' element types in the order of the kernel.
PROGRAMS = {}


def program(name, description, mlir, args, body, sizes=()):
    """args: (name, triton type) of the pointers, inputs then outputs;
    sizes: the extra size arguments (ks0, ...) that the body indexes with."""
    PROGRAMS[name] = dict(description=description, mlir=mlir, args=args,
                          body=body, sizes=list(sizes))


program("add_relu", "relu(a + b)",
        (ROOT / "examples/add_relu.mlir").read_text(),
        [("in_ptr0", "*fp32"), ("in_ptr1", "*fp32"), ("out_ptr0", "*fp32")],
        """
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.load(in_ptr1 + (x0), xmask)
    tmp2 = tmp0 + tmp1
    tmp3 = tl.maximum(tmp2, 0.0, propagate_nan=tl.PropagateNan.ALL)
    tl.store(out_ptr0 + (x0), tmp3, xmask)
""")

GELU_TANH = """
    {o}1 = {x} * 0.5
    {o}2 = {x} * {x}
    {o}3 = {o}2 * {x}
    {o}4 = {o}3 * 0.044715
    {o}5 = {x} + {o}4
    {o}6 = {o}5 * 0.7978845608028654
    {o}7 = libdevice.tanh({o}6)
    {o}8 = {o}7 + 1.0
    {o}9 = {o}1 * {o}8
"""

program("bias_gelu", "gelu_tanh(x * w + b), b broadcast over the rows",
        """
func.func @bias_gelu(%x: tensor<?x?xf32>, %w: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = fuse.mul %x, %w : tensor<?x?xf32>
  %1 = fuse.add %0, %b : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %2 = fuse.gelu %1 {approximate = "tanh"} : tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}
""",
        [("in_ptr0", "*fp32"), ("in_ptr1", "*fp32"), ("in_ptr2", "*fp32"),
         ("out_ptr0", "*fp32")],
        """
    x1 = xindex % ks0
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.load(in_ptr1 + (x0), xmask)
    tmp2 = tl.load(in_ptr2 + (x1), xmask, eviction_policy='evict_last')
    tmp3 = tmp0 * tmp1
    tmp4 = tmp3 + tmp2
""" + GELU_TANH.format(o="tmp5_", x="tmp4") + """
    tl.store(out_ptr0 + (x0), tmp5_9, xmask)
""", sizes=["ks0"])

program("sigmoid_dag", "t = a * b; relu(t) + sigmoid(t) * t",
        f"""
func.func @sigmoid_dag(%a: {F32}, %b: {F32}) -> {F32} {{
  %t = fuse.mul %a, %b : {F32}
  %r = fuse.relu %t : {F32}
  %s = fuse.sigmoid %t : {F32}
  %st = fuse.mul %s, %t : {F32}
  %o = fuse.add %r, %st : {F32}
  return %o : {F32}
}}
""",
        [("in_ptr0", "*fp32"), ("in_ptr1", "*fp32"), ("out_ptr0", "*fp32")],
        """
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.load(in_ptr1 + (x0), xmask)
    tmp2 = tmp0 * tmp1
    tmp3 = tl.maximum(tmp2, 0.0, propagate_nan=tl.PropagateNan.ALL)
    tmp4 = tl.sigmoid(tmp2)
    tmp5 = tmp4 * tmp2
    tmp6 = tmp3 + tmp5
    tl.store(out_ptr0 + (x0), tmp6, xmask)
""")


def chain_body(n):
    """The Inductor form of compile_time.py's chain of n ops on x and y."""
    lines = ["    tmp_x = tl.load(in_ptr0 + (x0), xmask)",
             "    tmp_y = tl.load(in_ptr1 + (x0), xmask)"]
    value = "tmp_x"
    for i in range(n):
        op, other = CYCLE[i % len(CYCLE)]
        other = {"%x": "tmp_x", "%y": "tmp_y"}.get(other)
        expr = {
            "add": f"{value} + {other}",
            "sub": f"{value} - {other}",
            "mul": f"{value} * {other}",
            "max": f"tl.maximum({value}, {other}, "
                   "propagate_nan=tl.PropagateNan.ALL)",
            "relu": f"tl.maximum({value}, 0.0, "
                    "propagate_nan=tl.PropagateNan.ALL)",
            "tanh": f"libdevice.tanh({value})",
            "abs": f"tl_math.abs({value})",
            "neg": f"-{value}",
            "exp": f"tl_math.exp({value})",
            "sigmoid": f"tl.sigmoid({value})",
        }[op]
        lines.append(f"    tmp{i} = {expr}")
        value = f"tmp{i}"
    lines.append(f"    tl.store(out_ptr0 + (x0), {value}, xmask)")
    return "\n" + "\n".join(lines) + "\n"


for n in (20, 100):
    program(f"chain{n}", f"{n}-op chain (compile_time.py's)",
            chain_program(n),
            [("in_ptr0", "*fp32"), ("in_ptr1", "*fp32"),
             ("out_ptr0", "*fp32")], chain_body(n))

program("mixed_f16", "f16 out = f16(relu(f32(x16) * s + r)), s and r f32",
        """
func.func @mixed_f16(%x: tensor<?xf16>, %s: tensor<?xf32>, %r: tensor<?xf32>) -> tensor<?xf16> {
  %0 = fuse.cast %x : tensor<?xf16> to tensor<?xf32>
  %1 = fuse.mul %0, %s : tensor<?xf32>
  %2 = fuse.add %1, %r : tensor<?xf32>
  %3 = fuse.relu %2 : tensor<?xf32>
  %4 = fuse.cast %3 : tensor<?xf32> to tensor<?xf16>
  return %4 : tensor<?xf16>
}
""",
        [("in_ptr0", "*fp16"), ("in_ptr1", "*fp32"), ("in_ptr2", "*fp32"),
         ("out_ptr0", "*fp16")],
        """
    tmp0 = tl.load(in_ptr0 + (x0), xmask).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x0), xmask)
    tmp2 = tl.load(in_ptr2 + (x0), xmask)
    tmp3 = tmp0 * tmp1
    tmp4 = tmp3 + tmp2
    tmp5 = tl.maximum(tmp4, 0.0, propagate_nan=tl.PropagateNan.ALL)
    tmp6 = tmp5.to(tl.float16)
    tl.store(out_ptr0 + (x0), tmp6, xmask)
""")

program("bcast3d", "x * s + b: x [A,B,C], s [A,1,C], b [C]",
        """
func.func @bcast3d(%x: tensor<?x?x?xf32>, %s: tensor<?x1x?xf32>, %b: tensor<?xf32>) -> tensor<?x?x?xf32> {
  %0 = fuse.mul %x, %s : tensor<?x?x?xf32>, tensor<?x1x?xf32> -> tensor<?x?x?xf32>
  %1 = fuse.add %0, %b : tensor<?x?x?xf32>, tensor<?xf32> -> tensor<?x?x?xf32>
  return %1 : tensor<?x?x?xf32>
}
""",
        [("in_ptr0", "*fp32"), ("in_ptr1", "*fp32"), ("in_ptr2", "*fp32"),
         ("out_ptr0", "*fp32")],
        """
    x1 = xindex % ks0
    x2 = xindex // (ks0 * ks1)
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.load(in_ptr1 + (x1 + ks0 * x2), xmask)
    tmp2 = tl.load(in_ptr2 + (x1), xmask, eviction_policy='evict_last')
    tmp3 = tmp0 * tmp1
    tmp4 = tmp3 + tmp2
    tl.store(out_ptr0 + (x0), tmp4, xmask)
""", sizes=["ks0", "ks1"])

program("channel_bias", "relu(x + b): x [N,C,7,7], b [1,C,1,1]; rows of 49",
        """
func.func @channel_bias(%x: tensor<?x?x7x7xf32>, %b: tensor<1x?x1x1xf32>) -> tensor<?x?x7x7xf32> {
  %0 = fuse.add %x, %b : tensor<?x?x7x7xf32>, tensor<1x?x1x1xf32> -> tensor<?x?x7x7xf32>
  %1 = fuse.relu %0 : tensor<?x?x7x7xf32>
  return %1 : tensor<?x?x7x7xf32>
}
""",
        [("in_ptr0", "*fp32"), ("in_ptr1", "*fp32"), ("out_ptr0", "*fp32")],
        """
    x1 = (xindex // 49) % ks0
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.load(in_ptr1 + (x1), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp3 = tl.maximum(tmp2, 0.0, propagate_nan=tl.PropagateNan.ALL)
    tl.store(out_ptr0 + (x0), tmp3, xmask)
""", sizes=["ks0"])

program("two_outputs", "g = sigmoid(x + y), o = (x + y) * g",
        (ROOT / "examples/two_outputs.mlir").read_text(),
        [("in_ptr0", "*fp32"), ("in_ptr1", "*fp32"), ("out_ptr0", "*fp32"),
         ("out_ptr1", "*fp32")],
        """
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.load(in_ptr1 + (x0), xmask)
    tmp2 = tmp0 + tmp1
    tmp3 = tl.sigmoid(tmp2)
    tmp4 = tmp2 * tmp3
    tl.store(out_ptr0 + (x0), tmp4, xmask)
    tl.store(out_ptr1 + (x0), tmp3, xmask)
""")

program("mlp_epilogue", "(gelu_tanh(x + bias) + residual) * 0.5",
        (ROOT / "examples/mlp_epilogue.mlir").read_text(),
        [("in_ptr0", "*fp32"), ("in_ptr1", "*fp32"), ("in_ptr2", "*fp32"),
         ("out_ptr0", "*fp32")],
        """
    x1 = xindex % ks0
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.load(in_ptr1 + (x1), xmask, eviction_policy='evict_last')
    tmp2 = tl.load(in_ptr2 + (x0), xmask)
    tmp3 = tmp0 + tmp1
""" + GELU_TANH.format(o="tmp4_", x="tmp3") + """
    tmp5 = tmp4_9 + tmp2
    tmp6 = tmp5 * 0.5
    tl.store(out_ptr0 + (x0), tmp6, xmask)
""", sizes=["ks0"])

TRITON_HEADER = """
import triton
import triton.language as tl
from triton.language.extra import libdevice
tl_math = tl
"""


def triton_source(name, spec):
    params = [a for a, _ in spec["args"]] + ["xnumel"] + spec["sizes"]
    return (f"\n@triton.jit\ndef {name}({', '.join(params)}, "
            "XBLOCK: tl.constexpr):\n"
            "    xoffset = tl.program_id(0) * XBLOCK\n"
            "    xindex = xoffset + tl.arange(0, XBLOCK)[:]\n"
            "    xmask = xindex < xnumel\n"
            "    x0 = xindex\n" + spec["body"])


def compile_triton(scratch, told16):
    """Compiles every program's Triton kernel; returns name -> PTX."""
    # Inductor compiles with floating-point contraction (mul + add -> fma).
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    source = TRITON_HEADER + "".join(
        triton_source(name, spec) for name, spec in PROGRAMS.items())
    path = scratch / "inductor_kernels.py"
    path.write_text(source)
    module_spec = importlib.util.spec_from_file_location("inductor_kernels",
                                                         path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    ptx = {}
    for name, spec in PROGRAMS.items():
        signature = {a: t for a, t in spec["args"]}
        signature["xnumel"] = "i32"
        for size in spec["sizes"]:
            signature[size] = "i32"
        signature["XBLOCK"] = "constexpr"
        # Inductor tells Triton that its pointers are 16-byte aligned, and
        # the sizes too when they are multiples of 16.
        told = list(range(len(spec["args"])))
        if told16:
            told += list(range(len(spec["args"]),
                               len(spec["args"]) + 1 + len(spec["sizes"])))
        attrs = {(i,): [["tt.divisibility", 16]] for i in told}
        compiled = triton.compile(
            ASTSource(fn=getattr(module, name), signature=signature,
                      constexprs={"XBLOCK": 1024}, attrs=attrs),
            target=GPUTarget("cuda", 90, 32),
            # PTX 9.0, which CUDA 13.0's ptxas (the one fuse's tests use)
            # takes.
            options={"num_warps": 4, "ptx_version": 90})
        ptx[name] = compiled.asm["ptx"]
    return ptx


def triton_bin():
    import triton
    return Path(triton.__file__).parent / "backends/nvidia/bin"


@dataclass
class Instruction:
    address: int
    predicate: str
    opcode: str
    text: str
    target: str = None


@dataclass
class Kernel:
    name: str
    registers: int = 0
    spill_bytes: int = 0
    instructions: list = field(default_factory=list)
    labels: dict = field(default_factory=dict)


def ptxas(ptx_path, cubin_path, arch):
    out = subprocess.run(
        [str(PTXAS), f"-arch={arch}", "-v", str(ptx_path), "-o",
         str(cubin_path)], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"ptxas failed on {ptx_path}:\n{out.stderr}")
    kernels = {}
    current = None
    for line in out.stderr.splitlines():
        m = re.search(r"Compiling entry function '(\w+)'", line)
        if m:
            current = kernels.setdefault(m.group(1), Kernel(m.group(1)))
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads",
                      line)
        if m and current:
            current.spill_bytes = int(m.group(1)) + int(m.group(2))
        m = re.search(r"Used (\d+) registers", line)
        if m and current:
            current.registers = int(m.group(1))
    return kernels


INSTRUCTION = re.compile(
    r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][\w.]*)(.*?);")


def disassemble(cubin_path, kernels):
    text = subprocess.run([str(NVDISASM), "-c", str(cubin_path)],
                          capture_output=True, text=True, check=True).stdout
    current = None
    for line in text.splitlines():
        m = re.match(r"\s*\.section\s+\.text\.(\w+),", line)
        if m:
            current = kernels[m.group(1)]
            continue
        if current is None:
            continue
        m = re.match(r"(\.L_x_\d+):", line.strip())
        if m:
            current.labels[m.group(1)] = len(current.instructions)
            continue
        m = INSTRUCTION.search(line)
        if m:
            target = re.search(r"`\((\.L_x_\d+)\)", m.group(4))
            current.instructions.append(Instruction(
                int(m.group(1), 16), (m.group(2) or "").strip(), m.group(3),
                m.group(3) + m.group(4), target and target.group(1)))
    for kernel in kernels.values():
        # The padding: the branch to itself after the last EXIT, and NOPs.
        code = kernel.instructions
        while code and (code[-1].opcode == "NOP" or (
                code[-1].opcode == "BRA" and
                kernel.labels.get(code[-1].target) == len(code) - 1)):
            code.pop()


def access_bytes(instruction):
    """Bytes of a global load or store, from its width suffix."""
    for suffix, size in ((".128", 16), (".64", 8), (".U16", 2), (".S16", 2),
                         (".U8", 1), (".S8", 1)):
        if suffix in instruction.opcode:
            return size
    return 4


PREDICATE = re.compile(r"^(!?)(U?P[0-6])$")


def operands(ins):
    return [o.strip() for o in ins.text[len(ins.opcode):].split(",")
            if o.strip()]


def predicate_writes(ins):
    """The predicate registers an instruction writes: the destinations of
    the compare and predicate-logic instructions, the carry-outs after the
    first destination of the others."""
    ops = operands(ins)
    base = ins.opcode.split(".")[0]
    if base.endswith("SETP") or base in ("PLOP3", "UPLOP3", "R2P", "UR2UP"):
        candidates = ops[:2]
    else:
        candidates = ops[1:3]
    writes = set()
    for op in candidates:
        m = PREDICATE.match(op)
        if not m:
            break
        writes.add(m.group(2))
    return writes


def guard(text):
    """(register, value it must have) for a guard like @!P0, or None."""
    m = PREDICATE.match(text.lstrip("@")) if text else None
    return (m.group(2), not m.group(1)) if m else None


def in_bounds_path(kernel):
    """The instructions of the path from the entry to an EXIT that stores
    the most bytes and, among those, executes the fewest instructions.
    The path assumes a value for each predicate that it needs (a branch
    taken or not, a guarded store that stores or not) and keeps to it until
    the predicate is written again, so that it is a path a thread can take.
    Back edges are left out: each instruction runs once on the path."""
    code = kernel.instructions

    def successors(i):
        """(next instruction or "exit", the guard that edge needs)."""
        ins = code[i]
        after = i + 1 if i + 1 < len(code) else None
        if ins.opcode.startswith("BRA"):
            target = kernel.labels[ins.target]
            # The predicate is in front (@P0 BRA) or, for a uniform branch,
            # the first operand (BRA.U !UP0, target).
            condition = guard(ins.predicate)
            if condition is None and ins.opcode.startswith("BRA.U"):
                condition = guard(operands(ins)[0])
            if condition is None:
                return [(target, None)]
            register, value = condition
            return [(target, condition), (after, (register, not value))]
        if ins.opcode.startswith(("EXIT", "RET")):
            condition = guard(ins.predicate)
            if condition is None:
                return [("exit", None)]
            register, value = condition
            return [("exit", condition), (after, (register, not value))]
        return [(after, None)] if after is not None else []

    # Reverse postorder of a depth-first walk; an edge to an earlier
    # instruction is a back edge.
    order, seen = [], {0}
    stack = [(0, iter(successors(0)))]
    while stack:
        node, it = stack[-1]
        nxt = next(it, None)
        if nxt is None:
            stack.pop()
            order.append(node)
        elif nxt[0] != "exit" and nxt[0] not in seen:
            seen.add(nxt[0])
            stack.append((nxt[0], iter(successors(nxt[0]))))
    order.reverse()
    position = {node: n for n, node in enumerate(order)}

    def assume(facts, condition):
        """facts with condition added, or None if they contradict it."""
        if condition is None:
            return facts
        register, value = condition
        known = dict(facts)
        if known.get(register, value) != value:
            return None
        known[register] = value
        return frozenset(known.items())

    # best[i][facts]: (bytes stored, -instructions, predecessor state) of
    # the best path from the entry to just before instruction i on which
    # the predicates have the values in facts.
    best = {0: {frozenset(): (0, 0, None)}}
    final = None
    for i in order:
        ins = code[i]
        for facts, (stored, negcount, _) in best.get(i, {}).items():
            choices = [(facts, 0)]
            if ins.opcode.startswith("STG"):
                condition = guard(ins.predicate)
                size = access_bytes(ins)
                if condition is None:
                    choices = [(facts, size)]
                else:
                    register, value = condition
                    choices = [(assume(facts, condition), size),
                               (assume(facts, (register, not value)), 0)]
            for now, size in choices:
                if now is None:
                    continue
                here = (stored + size, negcount - 1, (i, facts))
                if ins.opcode.startswith(("BRA", "EXIT", "RET")):
                    edges = successors(i)
                else:
                    written = predicate_writes(ins)
                    if written:
                        now = frozenset((r, v) for r, v in now
                                        if r not in written)
                    edges = successors(i)
                for target, condition in edges:
                    then = assume(now, condition)
                    if then is None:
                        continue
                    state = (here[0], here[1], here[2])
                    if target == "exit":
                        if final is None or state[:2] > final[:2]:
                            final = state
                    elif position[target] > position[i]:
                        slot = best.setdefault(target, {})
                        if then not in slot or state[:2] > slot[then][:2]:
                            slot[then] = state
    path = []
    state = final[2]
    while state is not None:
        i, facts = state
        path.append(code[i])
        state = best[i][facts][2]
    path.reverse()
    return path


def widths(instructions, prefix):
    """{bits: count} of the global accesses whose opcode starts with
    prefix."""
    counts = {}
    for ins in instructions:
        if ins.opcode.startswith(prefix):
            bits = access_bytes(ins) * 8
            counts[bits] = counts.get(bits, 0) + 1
    return counts


def format_widths(counts):
    return " ".join(f"{n}x{bits}" for bits, n in sorted(
        counts.items(), key=lambda item: -int(item[0]))) or "-"


def add_widths(rows, key):
    total = {}
    for row in rows:
        for bits, n in row[key].items():
            total[bits] = total.get(bits, 0) + n
    return total


def evaluate(size, value=1 << 20):
    """A report size at every dynamic size = value."""
    symbols = {} if isinstance(size, int) else {
        s: value for term in size["terms"] for s in term["symbols"]}
    return size_at(size, symbols)


def measure(kernels, per_kernel_bytes):
    """per_kernel_bytes: name -> (bytes written per element, bytes moved per
    element, elements relative to the largest kernel)."""
    rows = []
    for kernel in kernels.values():
        path = in_bounds_path(kernel)
        written, moved, scale = per_kernel_bytes[kernel.name]
        stored = sum(access_bytes(i) for i in path
                     if i.opcode.startswith("STG"))
        elements = stored / written
        per_element = len(path) / elements
        issue = per_element / WARP / (SMS * SCHEDULERS * CLOCK_HZ)
        memory = moved / DRAM_BYTES_PER_S
        rows.append(dict(
            kernel=kernel.name, registers=kernel.registers,
            spill_bytes=kernel.spill_bytes,
            sass=len(kernel.instructions), path=len(path),
            elements_per_thread=elements, per_element=per_element,
            loads=widths(path, "LDG"), stores=widths(path, "STG"),
            calls=sum(i.opcode.startswith("CALL")
                      for i in kernel.instructions),
            scale=scale, issue_s=issue * scale, memory_s=memory * scale))
    total = dict(
        kernels=len(rows), registers=max(r["registers"] for r in rows),
        spill_bytes=sum(r["spill_bytes"] for r in rows),
        sass=sum(r["sass"] for r in rows),
        per_element=sum(r["per_element"] * r["scale"] for r in rows),
        elements_per_thread=min(r["elements_per_thread"] for r in rows),
        loads=add_widths(rows, "loads"), stores=add_widths(rows, "stores"),
        calls=sum(r["calls"] for r in rows),
        issue_over_memory=sum(r["issue_s"] for r in rows) /
        sum(r["memory_s"] for r in rows))
    return total, rows


def fuse_variant(scratch, name, spec, fusion):
    src = scratch / f"{name}.mlir"
    src.write_text(spec["mlir"])
    tag = "fused" if fusion else "eager"
    ptx = scratch / f"{name}.{tag}.ptx"
    flags = ([] if fusion else ["--fusion=off"]) + FUSE_FLAGS
    subprocess.run([str(FUSE_OPT), str(src), "--emit=ptx", "-o", str(ptx)] +
                   flags, check=True)
    report = json.loads(subprocess.run(
        [str(FUSE_OPT), str(src), "--fuse-report=json"], capture_output=True,
        text=True, check=True).stdout)["functions"][0][tag]
    largest = max(evaluate(k["elements"]) for k in report["kernels"])
    per_kernel = {}
    for k in report["kernels"]:
        elements = evaluate(k["elements"])
        per_kernel[k["name"]] = (evaluate(k["bytes_written"]) / elements,
                                 evaluate(k["bytes"]) / elements,
                                 elements / largest)
    cubin = ptx.with_suffix(".cubin")
    kernels = ptxas(ptx, cubin, "sm_90")
    disassemble(cubin, kernels)
    return measure(kernels, per_kernel), per_kernel


def triton_variant(scratch, name, ptx_text, fused_bytes, tag):
    ptx = scratch / f"{name}.{tag}.ptx"
    ptx.write_text(ptx_text)
    cubin = ptx.with_suffix(".cubin")
    arch = re.search(r"^\.target\s+(\w+)", ptx_text, re.M).group(1)
    kernels = ptxas(ptx, cubin, arch)
    disassemble(cubin, kernels)
    (written, moved, _), = fused_bytes.values()
    return measure(kernels, {name: (written, moved, 1.0)})


def plot(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = list(results)
    variants = ["fused", "T16", "Tn"]
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    metrics = [("per_element", "instructions per element, in-bounds path"),
               ("registers", "registers per thread"),
               ("sass", "SASS instructions")]
    for ax, (metric, title) in zip(axes, metrics):
        width = 0.27
        for j, variant in enumerate(variants):
            values = [results[n][variant]["total"][metric] for n in names]
            ax.bar([i + (j - 1) * width for i in range(len(names))], values,
                   width, label="fuse" if variant == "fused" else
                   f"Triton {variant}")
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(names, rotation=35, ha="right", fontsize=8)
        ax.set_title(title, fontsize=10)
        if metric != "registers":
            ax.set_yscale("log")
        else:
            ax.axhline(32, color="grey", linewidth=0.8, linestyle="--")
    axes[0].legend(fontsize=8)
    fig.suptitle("fuse vs Inductor-style Triton, sm_90 SASS (ptxas "
                 f"{PTXAS_VERSION})", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    global FUSE_OPT, FUSE_FLAGS, PTXAS, NVDISASM, PTXAS_VERSION
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_build_dir(parser)
    parser.add_argument("--ptxas", type=Path,
                        default=Path("/usr/local/cuda/bin/ptxas"))
    parser.add_argument("--programs", type=names_of(PROGRAMS, "program"),
                        default=",".join(PROGRAMS),
                        help="comma separated, of " + ", ".join(PROGRAMS))
    parser.add_argument("--json", type=Path,
                        default=ROOT / "bench/results/sass.json")
    parser.add_argument("--plot", type=Path,
                        help="the plot (default bench/sass.png)")
    parser.add_argument("--kernels", action="store_true",
                        help="also print one row per eager kernel")
    parser.add_argument("--keep", type=Path,
                        help="write the PTX and cubins into this folder")
    parser.add_argument("--fuse-flags", default="",
                        help="more fuse-opt flags for fuse's kernels, "
                             "space separated (--approx-exp)")
    parser.add_argument("--export", type=Path, metavar="DIR",
                        help="only write each program's fuse text to "
                             "DIR/NAME.mlir (for scripts/gpu-check) and stop")
    args = parser.parse_args()
    if args.export:
        args.export.mkdir(parents=True, exist_ok=True)
        for name in args.programs:
            (args.export / f"{name}.mlir").write_text(PROGRAMS[name]["mlir"])
        return
    FUSE_FLAGS = args.fuse_flags.split()
    FUSE_OPT = build_tool(parser, args.build_dir, "fuse-opt")
    PTXAS = executable(parser, args.ptxas, "--ptxas: CUDA's ptxas")
    try:
        importlib.import_module("triton")
    except ImportError:
        sys.exit("sass.py needs Triton: run it with bench/.venv/bin/python "
                 "(see bench/README.md)")
    plotting = can_plot(parser, "--plot", args.plot is not None,
                        f"{sys.executable} -m pip install matplotlib")
    args.plot = args.plot or ROOT / "bench/sass.png"
    NVDISASM = triton_bin() / "nvdisasm"
    PTXAS_VERSION = re.search(r"release ([\d.]+)", subprocess.run(
        [str(PTXAS), "--version"], capture_output=True,
        text=True).stdout).group(1)
    selected = args.programs
    for name in list(PROGRAMS):
        if name not in selected:
            del PROGRAMS[name]
    tools = tool_ids([FUSE_OPT])

    with tempfile.TemporaryDirectory() as tmp:
        scratch = args.keep or Path(tmp)
        scratch.mkdir(parents=True, exist_ok=True)
        t16 = compile_triton(scratch, told16=True)
        tn = compile_triton(scratch, told16=False)
        results = {}
        for name, spec in PROGRAMS.items():
            (fused, fused_rows), fused_bytes = fuse_variant(scratch, name,
                                                            spec, True)
            (eager, eager_rows), _ = fuse_variant(scratch, name, spec, False)
            results[name] = {
                "description": spec["description"],
                "fused": {"total": fused, "kernels": fused_rows},
                "eager": {"total": eager, "kernels": eager_rows},
                "T16": dict(zip(("total", "kernels"), triton_variant(
                    scratch, name, t16[name], fused_bytes, "t16"))),
                "Tn": dict(zip(("total", "kernels"), triton_variant(
                    scratch, name, tn[name], fused_bytes, "tn"))),
            }

    header = ["program", "variant", "kernels", "regs", "spill B", "SASS",
              "path/elem", "elems/thread", "loads", "stores", "calls",
              "issue/mem"]
    rows = []
    for name, result in results.items():
        for variant in ("fused", "eager", "T16", "Tn"):
            t = result[variant]["total"]
            rows.append([name, variant, t["kernels"], t["registers"],
                         t["spill_bytes"], t["sass"],
                         f"{t['per_element']:.2f}",
                         f"{t['elements_per_thread']:g}",
                         format_widths(t["loads"]),
                         format_widths(t["stores"]), t["calls"],
                         f"{t['issue_over_memory']:.2f}"])
            if args.kernels and variant == "eager":
                for k in result[variant]["kernels"]:
                    rows.append(["", "  " + k["kernel"], 1, k["registers"],
                                 k["spill_bytes"], k["sass"],
                                 f"{k['per_element']:.2f}",
                                 f"{k['elements_per_thread']:g}",
                                 format_widths(k["loads"]),
                                 format_widths(k["stores"]), k["calls"], ""])
    print_table(header, rows)

    print("\nTargets (fuse fused against Triton):")
    targets = {}
    for name, result in results.items():
        f, t16r, tnr = (result[v]["total"] for v in ("fused", "T16", "Tn"))
        checks = {
            "registers <= 32": f["registers"] <= 32,
            "no spills": f["spill_bytes"] == 0,
            "path/elem <= T16": f["per_element"] <= t16r["per_element"],
            "SASS <= Tn": f["sass"] <= tnr["sass"],
            "no calls": f["calls"] == 0,
        }
        targets[name] = checks
        missed = [k for k, ok in checks.items() if not ok]
        print(f"  {name}: " + ("all met" if not missed else
                               "missed " + ", ".join(missed)))

    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "commit": fuse_version(),
        "dirty": uncommitted_changes(),
        "tools": tools, "ptxas": PTXAS_VERSION, "fuse_flags": FUSE_FLAGS,
        "model": dict(sms=SMS, schedulers=SCHEDULERS, clock_hz=CLOCK_HZ,
                      dram_bytes_per_s=DRAM_BYTES_PER_S),
        "results": results, "targets": targets}, indent=2) + "\n")
    print(f"\nwrote {args.json}")
    draw_plot(plotting, lambda path: plot(results, path), args.plot)
    if tool_ids([FUSE_OPT]) != tools:
        print("warning: fuse-opt changed during the run")


if __name__ == "__main__":
    main()
