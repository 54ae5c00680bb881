#!/usr/bin/python3
"""Compile latency, text to PTX, of the whole fuse-opt process.

For examples/add_relu.mlir and for generated single-function chains of 1, 10,
100 and 1000 elementwise ops on tensor<?xf32>, times (wall clock of the whole
process, median of --runs runs after one warm-up):

  fused    fuse-opt PROGRAM --emit=ptx                  (1 kernel)
  eager    fuse-opt PROGRAM --emit=ptx --fusion=off     (one kernel per op)
  mlir-opt upstream mlir-opt on the same program in linalg form
           (fuse-opt PROGRAM --fuse-pipeline=linalg) through the equivalent
           upstream passes (UPSTREAM_PASSES below)

and the bare start-up of each tool on an empty module. Every run of a
configuration is interleaved with the others, so that a change in the load
of the machine hits all of them alike. Before timing, it checks that the fused
report says 1 kernel (eager: one per op) and counts the `.entry` kernels in
the PTX each tool printed.

A configuration whose warm-up takes longer than --slow-seconds is timed
--slow-runs times only (the table marks it).

Prints one table (and a CPU-time one: user+sys of the process, less sensitive
to other jobs on a shared machine), says whether the time per op is constant
between 100 and 1000 ops, and checks the issue's targets. Writes the numbers
to bench/results/compile_time.json (--json to change).

--series runs one of two growth series instead, each size --runs times
(median), and prints seconds per size and how the time per unit grows from
each size to the next (1.0x: linear):

  cpu-eager  fuse-run CHAIN --target=cpu --fusion=off --input rand:1024 on
             chains of --ops unary ops (default 125,250,500,1000): one kernel
             per op, JIT-compiled by LLVM for the host; the run itself is
             1024 elements per kernel
  rank       fuse-opt ADD --emit=ptx on one add of two tensors of each rank
             in --ranks (default 4,8,16,32: fuse refuses a rank above 32),
             all sizes static (1x1x...x1) or all dynamic (?x?x...x?); and the CPU target's
             stage (fuse-opt ADD --fuse-lower=stage=cpu), dynamic sizes

and writes them to bench/results/compile_time_series.json (--json to change).

A case that fails (a tool's error, a wrong kernel count) is listed under
"Problems:" after the table, and the exit status is then 1.
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from common import (add_build_dir, build_tool, executable, fuse_version,  # noqa: E402
                    positive_int, positive_ints, print_table, tool_ids)
from chain_ops import CYCLE  # noqa: E402

UPSTREAM_PASSES = [
    "--linalg-fuse-elementwise-ops",
    "--one-shot-bufferize=bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map",
    "--convert-linalg-to-parallel-loops",
    "--scf-parallel-loop-tiling=parallel-loop-tile-sizes=256 "
    "no-min-max-bounds=true",
    "--gpu-map-parallel-loops",
    "--convert-parallel-loops-to-gpu",
    "--gpu-kernel-outlining",
    "--gpu-lower-to-nvvm-pipeline=cubin-format=isa cubin-chip=sm_90 "
    "cubin-features=+ptx80",
]


MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"

TARGET_ADD_RELU_MS = 40.0
TARGET_1000_OPS_MS = 1000.0

# fuse compiles tensors of rank 32 at most: fuse_max_rank() of the C API
# (python/tests/test_limits.py holds it to 32; docs/dialect.md). --ranks is
# checked against it at start-up, not after a run of failures.
MAX_RANK = 32




def chain_program(n):
    t = "tensor<?xf32>"
    lines = [f"// {n} elementwise ops in one chain (bench/compile_time.py)",
             f"func.func @chain{n}(%x: {t}, %y: {t}) -> {t} {{"]
    value = "%x"
    for i in range(n):
        op, other = CYCLE[i % len(CYCLE)]
        operands = value if other is None else f"{value}, {other}"
        lines.append(f"  %v{i} = fuse.{op} {operands} : {t}")
        value = f"%v{i}"
    lines += [f"  return {value} : {t}", "}", ""]
    return "\n".join(lines)


# Unary ops for the cpu-eager series, in a cycle in which no op follows
# itself.
UNARY_CYCLE = ["relu", "neg", "abs", "tanh", "exp", "sigmoid"]


def unary_chain_program(n):
    t = "tensor<?xf32>"
    lines = [f"// {n} unary ops in one chain (bench/compile_time.py)",
             f"func.func @unary{n}(%x: {t}) -> {t} {{"]
    value = "%x"
    for i in range(n):
        lines.append(f"  %v{i} = fuse.{UNARY_CYCLE[i % len(UNARY_CYCLE)]} "
                     f"{value} : {t}")
        value = f"%v{i}"
    lines += [f"  return {value} : {t}", "}", ""]
    return "\n".join(lines)


def rank_program(rank, dynamic):
    t = "tensor<" + ("?x" if dynamic else "1x") * rank + "f32>"
    return (f"// one add at rank {rank} (bench/compile_time.py)\n"
            f"func.func @rank{rank}(%x: {t}, %y: {t}) -> {t} {{\n"
            f"  %0 = fuse.add %x, %y : {t}\n"
            f"  return %0 : {t}\n}}\n")


def run_once(cmd, stdout_path=None):
    """Runs cmd; returns (wall s, cpu s, returncode, stderr text)."""
    with tempfile.TemporaryFile() as err:
        out = open(stdout_path, "wb") if stdout_path else subprocess.DEVNULL
        try:
            start = time.perf_counter()
            proc = subprocess.Popen(cmd, stdout=out, stderr=err)
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.perf_counter() - start
        finally:
            if stdout_path:
                out.close()
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode(errors="replace")
    return wall, usage.ru_utime + usage.ru_stime, proc.returncode, stderr


def count_kernels(path):
    text = Path(path).read_text(errors="replace")
    # fuse-opt prints PTX; mlir-opt embeds it in a gpu.binary string.
    return text.count(".entry ")


class Case:
    """One command to time: a row and column of the table."""

    def __init__(self, row, column, cmd, expect_kernels=None):
        self.row, self.column, self.cmd = row, column, cmd
        self.expect_kernels = expect_kernels
        # The chain length or rank, in --series.
        self.size = None
        self.walls, self.cpus = [], []
        self.kernels = None
        self.error = None
        self.warmup_s = None

    def warm_up(self, scratch):
        out = scratch / f"{self.row}.{self.column}.out".replace(" ", "_")
        wall, _, rc, stderr = run_once(self.cmd, out)
        self.warmup_s = wall
        if rc != 0:
            first = stderr.strip().splitlines()[:3]
            self.error = f"exit {rc}: " + " | ".join(first)
            return
        self.kernels = count_kernels(out)
        if self.expect_kernels is not None and \
                self.kernels != self.expect_kernels:
            self.error = (f"{self.kernels} kernels in the output, expected "
                          f"{self.expect_kernels}")

    def time_once(self):
        wall, cpu, rc, stderr = run_once(self.cmd)
        if rc != 0:
            self.error = f"exit {rc} while timing: {stderr.strip()[:200]}"
            return
        self.walls.append(wall * 1e3)
        self.cpus.append(cpu * 1e3)

    @property
    def ok(self):
        return self.error is None and bool(self.walls)

    def wall_ms(self):
        return statistics.median(self.walls) if self.ok else None

    def cpu_ms(self):
        return statistics.median(self.cpus) if self.ok else None


def fuse_report(fuse_opt, path):
    out = subprocess.run([fuse_opt, str(path), "--fuse-report=json"],
                         check=True, capture_output=True, text=True).stdout
    function = json.loads(out)["functions"][0]
    return function["fused"]["kernel_count"], function["eager"]["kernel_count"]


def fmt(ms, digits=1):
    return "-" if ms is None else f"{ms:.{digits}f}"


def run_series(args, fuse_opt, fuse_run):
    """The --series mode: seconds per size, and the growth per unit."""
    scratch_dir = tempfile.TemporaryDirectory(prefix="fuse-compile-series-")
    scratch = Path(scratch_dir.name)
    cases = []
    problems = []
    if args.series == "cpu-eager":
        unit = "op"
        for n in args.ops:
            path = scratch / f"unary{n}.mlir"
            path.write_text(unary_chain_program(n))
            _, eager = fuse_report(fuse_opt, path)
            if eager != n:
                problems.append(f"unary{n}: eager report says {eager} "
                                f"kernels, expected {n}")
            cases.append(Case(f"unary{n}", "eager", [
                fuse_run, str(path), "--target=cpu", "--fusion=off",
                "--input", "rand:1024"]))
            cases[-1].size = n
        columns = ["eager"]
    else:
        unit = "dim"
        for rank in args.ranks:
            for dynamic in (False, True):
                column = "dynamic" if dynamic else "static"
                path = scratch / f"rank{rank}{column[0]}.mlir"
                path.write_text(rank_program(rank, dynamic))
                cases.append(Case(f"rank{rank}", column, [
                    fuse_opt, str(path), "--emit=ptx", "-o", "/dev/null"]))
                cases[-1].size = rank
            # The CPU target's host and kernels in LLVM IR (what fuse-run
            # hands to the JIT), dynamic sizes.
            cases.append(Case(f"rank{rank}", "cpu", [
                fuse_opt, str(path), "--fuse-lower=stage=cpu", "-o",
                "/dev/null"]))
            cases[-1].size = rank
        columns = ["static", "dynamic", "cpu"]

    load_before = os.getloadavg()
    tools = tool_ids([fuse_opt, fuse_run])
    started = time.time()
    for case in cases:
        for _ in range(args.runs):
            case.time_once()
            if case.error:
                problems.append(f"{case.row} {case.column}: {case.error}")
                break
        print(f"  {case.row:10} {case.column:8} "
              f"{fmt(case.wall_ms() and case.wall_ms() / 1e3, 2):>8} s",
              file=sys.stderr)
    load_after = os.getloadavg()

    def find(row, column):
        return next(c for c in cases if c.row == row and c.column == column)

    rows_names = list(dict.fromkeys(c.row for c in cases))
    header = ["program", unit + "s"]
    for column in columns:
        header += [f"{column} s", f"{column} CPU s",
                   f"{column} CPU ms/{unit}", "growth"]
    rows = []
    previous = {}
    growth = {}
    for name in rows_names:
        size = find(name, columns[0]).size
        row = [name, size]
        for column in columns:
            case = find(name, column)
            if not case.ok:
                row += ["FAIL", "-", "-", "-"]
                continue
            per_unit = case.cpu_ms() / size
            ratio = per_unit / previous[column] if column in previous else None
            previous[column] = per_unit
            growth.setdefault(column, []).append(ratio)
            row += [fmt(case.wall_ms() / 1e3, 2), fmt(case.cpu_ms() / 1e3, 2),
                    fmt(per_unit, 3),
                    "-" if ratio is None else f"{ratio:.2f}x"]
        rows.append(row)

    print()
    print(f"Series {args.series}: median of {args.runs} run(s) of the whole "
          f"process; CPU = user + sys; growth = CPU ms/{unit} against the "
          f"previous size (1.00x: linear); load average "
          f"{load_before[0]:.2f} before, {load_after[0]:.2f} after")
    print()
    print_table(header, rows)
    if problems:
        print()
        print("Problems:")
        for p in problems:
            print("  " + p)

    result = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "commit": fuse_version(),
        "machine": platform.node(),
        "series": args.series,
        "tools": tools,
        "tools_changed_during_run": tool_ids([fuse_opt, fuse_run]) != tools,
        "load_average_before": load_before,
        "load_average_after": load_after,
        "seconds": time.time() - started,
        "runs": args.runs,
        "cases": [{"program": c.row, "config": c.column, "size": c.size,
                   "command": " ".join(Path(x).name if i == 0 else x
                                       for i, x in enumerate(c.cmd)),
                   "wall_ms": c.walls, "cpu_ms": c.cpus,
                   "median_wall_ms": c.wall_ms(), "median_cpu_ms": c.cpu_ms(),
                   "error": c.error} for c in cases],
        "growth": growth,
        "problems": problems,
    }
    path = args.json or ROOT / "bench/results/compile_time_series.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2) + "\n")
    print(f"\nwrote {path}")
    # A failed case is not a measurement: the run fails (the JSON keeps it).
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_build_dir(parser)
    parser.add_argument("--mlir-opt", default=MLIR_OPT,
                        help=f"upstream mlir-opt (default {MLIR_OPT})")
    parser.add_argument("--runs", type=positive_int, default=None,
                        help="timed runs per configuration, median (default "
                             "7; --series: 1)")
    parser.add_argument("--ops", type=positive_ints, default=None,
                        help="chain lengths, comma separated (default "
                             "1,10,100,1000; --series cpu-eager: "
                             "125,250,500,1000)")
    parser.add_argument("--series", choices=["cpu-eager", "rank"],
                        help="run a growth series instead (see above)")
    parser.add_argument("--ranks", type=positive_ints, default="4,8,16,32",
                        help="--series rank: ranks, comma separated "
                             f"(default 4,8,16,32; at most {MAX_RANK}, "
                             "fuse's limit)")
    parser.add_argument("--slow-seconds", type=float, default=10.0,
                        help="a warm-up longer than this is timed --slow-runs "
                             "times only (default 10)")
    parser.add_argument("--slow-runs", type=positive_int, default=1,
                        help="timed runs of such a slow configuration "
                             "(default 1)")
    parser.add_argument("--json", type=Path, default=None,
                        help="where to write the numbers (default "
                             "bench/results/compile_time.json; --series: "
                             "bench/results/compile_time_series.json)")
    args = parser.parse_args()
    too_big = [r for r in args.ranks if r > MAX_RANK]
    if args.series == "rank" and too_big:
        parser.error(f"argument --ranks: {','.join(map(str, too_big))}: fuse "
                     f"compiles tensors of rank {MAX_RANK} at most")
    fuse_opt = str(build_tool(parser, args.build_dir, "fuse-opt"))
    if args.series:
        fuse_run = str(build_tool(parser, args.build_dir, "fuse-run")
                       if args.series == "cpu-eager"
                       else args.build_dir / "bin/fuse-run")
        if args.runs is None:
            args.runs = 1
        if args.ops is None:
            args.ops = [125, 250, 500, 1000]
        return run_series(args, fuse_opt, fuse_run)
    if args.runs is None:
        args.runs = 7
    if args.ops is None:
        args.ops = [1, 10, 100, 1000]
    if args.json is None:
        args.json = ROOT / "bench/results/compile_time.json"

    mlir_opt = str(executable(parser, args.mlir_opt,
                              "--mlir-opt: the path of upstream mlir-opt"))
    chain_lengths = args.ops

    scratch_dir = tempfile.TemporaryDirectory(prefix="fuse-compile-time-")
    scratch = Path(scratch_dir.name)
    empty = scratch / "empty.mlir"
    empty.write_text("module {}\n")

    programs = [("add_relu", 2, ROOT / "examples/add_relu.mlir")]
    for n in chain_lengths:
        path = scratch / f"chain{n}.mlir"
        path.write_text(chain_program(n))
        programs.append((f"chain{n}", n, path))

    cases = [
        Case("start-up", "fused", [fuse_opt, str(empty)]),
        Case("start-up", "mlir-opt", [mlir_opt, str(empty)]),
        Case("empty, full pipeline", "fused",
             [fuse_opt, str(empty), "--emit=ptx"]),
        Case("empty, full pipeline", "mlir-opt",
             [mlir_opt, str(empty)] + UPSTREAM_PASSES),
    ]
    problems = []
    for name, ops, path in programs:
        fused_k, eager_k = fuse_report(fuse_opt, path)
        expected_eager = ops
        if fused_k != 1:
            problems.append(f"{name}: fused report says {fused_k} kernels, "
                            f"expected 1")
        if eager_k != expected_eager:
            problems.append(f"{name}: eager report says {eager_k} kernels, "
                            f"expected {expected_eager}")
        linalg = scratch / f"{name}.linalg.mlir"
        subprocess.run([fuse_opt, str(path), "--fuse-pipeline=linalg",
                        "-o", str(linalg)], check=True)
        cases += [
            Case(name, "fused", [fuse_opt, str(path), "--emit=ptx"], 1),
            Case(name, "eager", [fuse_opt, str(path), "--emit=ptx",
                                 "--fusion=off"], expected_eager),
            Case(name, "mlir-opt", [mlir_opt, str(linalg)] + UPSTREAM_PASSES,
                 1),
        ]

    load_before = os.getloadavg()
    commit_at_start = fuse_version()
    tools_before = tool_ids([fuse_opt, mlir_opt])
    started = time.time()
    for case in cases:
        case.warm_up(scratch)
        if case.error:
            problems.append(f"{case.row} {case.column}: {case.error}")
        print(f"  warm-up {case.row:22} {case.column:9} "
              f"{case.warmup_s * 1e3:10.1f} ms"
              + (f"  ({case.error})" if case.error else ""),
              file=sys.stderr)
    live = [c for c in cases if c.error is None]
    for i in range(args.runs):
        for case in live:
            slow = case.warmup_s > args.slow_seconds
            if slow and i >= args.slow_runs:
                continue
            case.time_once()
    load_after = os.getloadavg()
    tools_after = tool_ids([fuse_opt, mlir_opt])
    if tools_after != tools_before:
        print("warning: a tool changed during the run (rebuilt?); the "
              "numbers mix two builds:")
        for name in tools_before:
            print(f"  {name}: {tools_before[name]} -> {tools_after[name]}")

    def find(row, column):
        for c in cases:
            if c.row == row and c.column == column:
                return c
        return None

    startup = {"fused": find("start-up", "fused").wall_ms(),
               "mlir-opt": find("start-up", "mlir-opt").wall_ms()}
    startup["eager"] = startup["fused"]
    startup_cpu = {"fused": find("start-up", "fused").cpu_ms(),
                   "mlir-opt": find("start-up", "mlir-opt").cpu_ms()}
    startup_cpu["eager"] = startup_cpu["fused"]

    def cell(case, which="wall"):
        if case is None:
            return "-"
        if case.error:
            return "FAIL"
        ms = case.wall_ms() if which == "wall" else case.cpu_ms()
        text = fmt(ms)
        if len(case.walls) < args.runs:
            text += f" ({len(case.walls)} run)"
        return text

    def per_op(case, ops, base, which="wall"):
        if case is None or not case.ok or not ops:
            return None
        ms = case.wall_ms() if which == "wall" else case.cpu_ms()
        return (ms - base[case.column]) / ops

    header = ["program", "ops", "fuse-opt fused ms", "fuse-opt eager ms",
              "mlir-opt ms", "fused ms/op", "eager ms/op", "mlir-opt ms/op"]
    rows, cpu_rows = [], []
    for row, ops in [("start-up", 0), ("empty, full pipeline", 0)] + \
            [(name, ops) for name, ops, _ in programs]:
        f, e, u = find(row, "fused"), find(row, "eager"), find(row, "mlir-opt")
        rows.append([row, ops or "-", cell(f), cell(e), cell(u)] +
                    [fmt(per_op(c, ops, startup), 3) for c in (f, e, u)])
        cpu_rows.append([row, ops or "-", cell(f, "cpu"), cell(e, "cpu"),
                         cell(u, "cpu")] +
                        [fmt(per_op(c, ops, startup_cpu, "cpu"), 3)
                         for c in (f, e, u)])

    print()
    print(f"Compile latency, text -> PTX, whole process: wall clock, median "
          f"of {args.runs} runs after 1 warm-up")
    print(f"(ms/op = (time - that tool's bare start-up) / ops; load average "
          f"{load_before[0]:.2f} before, {load_after[0]:.2f} after)")
    print()
    print_table(header, rows)
    print()
    print("CPU time (user + sys) of the same processes, median")
    print()
    print_table(header, cpu_rows)
    print()
    print("kernels in the PTX (fused / eager / mlir-opt): " + ", ".join(
        f"{name} {find(name, 'fused').kernels}/{find(name, 'eager').kernels}/"
        f"{find(name, 'mlir-opt').kernels}" for name, _, _ in programs))
    if problems:
        print()
        print("Problems:")
        for p in problems:
            print("  " + p)

    # Linearity: ms per op (start-up excluded) at 100 vs 1000 ops, on the
    # wall clock and on CPU time.
    print()
    verdicts = {}
    if 100 in chain_lengths and 1000 in chain_lengths:
        for which, base in (("wall", startup), ("cpu", startup_cpu)):
            for column in ("fused", "eager", "mlir-opt"):
                key = f"{column} ({which})"
                a = per_op(find("chain100", column), 100, base, which)
                b = per_op(find("chain1000", column), 1000, base, which)
                if a is None or b is None or a <= 0:
                    verdicts[key] = None
                    print(f"growth {key}: not measured")
                    continue
                ratio = b / a
                # Roughly constant ms/op: within 1.5x either way (the machine
                # is noisy); over 2.5x the growth is clearly superlinear.
                if 1 / 1.5 <= ratio <= 1.5:
                    verdict = "linear"
                elif ratio < 1 / 1.5:
                    verdict = "sublinear (fixed costs dominate at 100)"
                elif ratio <= 2.5:
                    verdict = "slightly superlinear"
                else:
                    verdict = "superlinear"
                verdicts[key] = {"ms_per_op_100": a, "ms_per_op_1000": b,
                                 "ratio": ratio, "verdict": verdict}
                print(f"growth {key:16}: {a:8.3f} ms/op at 100 ops, "
                      f"{b:8.3f} ms/op at 1000 ops ({ratio:.2f}x): {verdict}")

    # The issue's targets.
    print()
    targets = {}
    add_relu = find("add_relu", "fused").wall_ms()
    upstream = find("add_relu", "mlir-opt").wall_ms()
    if add_relu is not None:
        met = add_relu <= TARGET_ADD_RELU_MS
        targets["add_relu_le_40ms"] = met
        print(f"target: add+relu text -> PTX <= {TARGET_ADD_RELU_MS:.0f} ms: "
              f"{add_relu:.1f} ms, {'MET' if met else 'NOT MET'}")
    if add_relu is not None and upstream is not None:
        met = add_relu < upstream
        targets["add_relu_faster_than_mlir_opt"] = met
        print(f"target: add+relu faster than the mlir-opt run: {add_relu:.1f} "
              f"vs {upstream:.1f} ms, {'MET' if met else 'NOT MET'}")
    if 1000 in chain_lengths:
        t = find("chain1000", "fused").wall_ms()
        if t is not None:
            met = t < TARGET_1000_OPS_MS
            targets["chain1000_lt_1s"] = met
            print(f"target: 1000 ops (fused) < 1 s: {t:.1f} ms, "
                  f"{'MET' if met else 'NOT MET'}")

    result = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "commit_at_start": commit_at_start,
        "commit_at_end": fuse_version(),
        "machine": platform.node(),
        "tools": tools_before,
        "tools_changed_during_run": tools_after != tools_before,
        "load_average_before": load_before,
        "load_average_after": load_after,
        "seconds": time.time() - started,
        "runs": args.runs,
        "upstream_passes": UPSTREAM_PASSES,
        "cases": [{"program": c.row, "config": c.column, "command":
                   " ".join(Path(x).name if i == 0 else x
                            for i, x in enumerate(c.cmd)),
                   "wall_ms": c.walls, "cpu_ms": c.cpus,
                   "median_wall_ms": c.wall_ms(), "median_cpu_ms": c.cpu_ms(),
                   "warmup_ms": None if c.warmup_s is None
                   else c.warmup_s * 1e3,
                   "kernels": c.kernels, "error": c.error} for c in cases],
        "growth": verdicts,
        "targets": targets,
        "problems": problems,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2) + "\n")
    print(f"\nwrote {args.json}")
    # A failed case is not a measurement: the run fails (the JSON keeps it).
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
