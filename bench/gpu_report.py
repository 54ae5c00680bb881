"""The GPU check's table, in the format of bench/RESULTS.md.

usage: gpu_report.py --harness FILE [--torch FILE] [--accuracy LINE]
                     [--gpu TEXT] [--commit TEXT] [--seconds S] --out FILE

Reads the rows of fuse-gpu-harness --json (one per program, fusion and
size; `name` is PROGRAM/on or PROGRAM/off) and of bench/gpu_torch.py --json,
and writes one Markdown section: every program and size with fuse fused and
eager (kernel time, kernels, GB/s, the GPU's results against the CPU
build's), PyTorch eager and torch.compile where they ran, and the ratios
(above 1x: fused is faster). Exit status 1 when a harness row failed, or
with an error and no report when a file cannot be read, a line is not a JSON
object with the fields the table needs, or --harness has no rows; 2 when
the --harness file is missing. A missing --torch file (PyTorch did not run)
leaves the PyTorch columns empty.

Stands alone (no bench/common.py): scripts/gpu-check copies it into the
bundle by itself.
"""

import argparse
import datetime
import json
import os
import sys

# The fields the table reads from each row of each file, and the row's writer.
HARNESS = (("name", "size", "kernel_ms", "gbps", "ok", "status", "max_error"),
           "fuse-gpu-harness --json")
TORCH = (("name", "size", "variant", "status"), "bench/gpu_torch.py --json")


def fail(message):
    sys.exit(f"gpu_report.py: error: {message}")


def read_rows(path, kind):
    """The rows of a JSON-lines file written by kind's writer; fail()s on a
    line that is not one."""
    fields, writer = kind
    rows = []
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        fail(f"cannot read {path}: {e}")
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        where = f"{path}, line {number}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            fail(f"{where}: not JSON ({e})")
        if not isinstance(row, dict):
            fail(f"{where}: not a JSON object")
        lacking = [k for k in fields if k not in row]
        if lacking:
            fail(f"{where}: lacks {', '.join(lacking)}: not a row of {writer}")
        if not isinstance(row["name"], str) or \
                not isinstance(row["size"], int):
            fail(f"{where}: name is not a string or size not an integer")
        rows.append(row)
    return rows


def count(n):
    """1e6 for 1000000, 1048576 as it is."""
    if n >= 1000 and n == 10 ** (len(str(n)) - 1):
        return f"1e{len(str(n)) - 1}"
    return str(n)


def ms(value):
    return "–" if value is None else f"{value:.4f}"


def ratio(other, fused):
    if other is None or not fused:
        return "–"
    return f"{other / fused:.2f}×"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--harness", required=True,
                        help="fuse-gpu-harness --json's rows")
    parser.add_argument("--torch", help="bench/gpu_torch.py --json's rows "
                        "(when missing: no PyTorch columns)")
    parser.add_argument("--accuracy", default="", help="the accuracy check's summary line")
    parser.add_argument("--gpu", default="a GPU")
    parser.add_argument("--commit", default="unknown")
    parser.add_argument("--seconds", type=float, help="how long the check ran")
    # A table regenerated later from recorded rows keeps the run's date.
    parser.add_argument("--date", default=datetime.date.today().isoformat(),
                        help="the date of the run, in the title (default today)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    if not os.path.isfile(args.harness):
        parser.error(f"--harness {args.harness}: no such file")
    harness = read_rows(args.harness, HARNESS)
    if not harness:
        fail(f"{args.harness}: no rows (did fuse-gpu-harness run?)")
    torch_rows = []
    if args.torch and os.path.exists(args.torch):
        torch_rows = read_rows(args.torch, TORCH)
    elif args.torch:
        print(f"note: no {args.torch}: no PyTorch columns", file=sys.stderr)
    fuse = {}  # (program, size) -> {"on": row, "off": row}
    order = []
    for row in harness:
        program, _, fusion = row["name"].partition("/")
        key = (program, row["size"])
        if key not in fuse:
            fuse[key] = {}
            order.append(key)
        fuse[key][fusion or "on"] = row
    torch = {(r["name"], r["size"], r["variant"]): r for r in torch_rows}
    for r in torch_rows:
        if (r["name"], r["size"]) not in fuse:
            fuse[(r["name"], r["size"])] = {}
            order.append((r["name"], r["size"]))

    copy = max((r.get("copy_gbps", 0) for r in harness), default=0)
    lines = [f"## GPU check, {args.date} (`scripts/gpu-check`)", ""]
    lines.append(f"- GPU: {args.gpu}; device-to-device copy bandwidth {copy:.0f} GB/s "
                 "(fuse's runtime, 256 MiB copies).")
    lines.append(f"- fuse at commit `{args.commit}`, compiled ahead of time "
                 "(`scripts/gpu-check build`); each program fused and eager on the GPU "
                 "against its CPU build, every element (rtol 1e-5, atol 1e-5); kernel "
                 "time is the mean of 20 runs after a warm-up (CUDA events around each "
                 "kernel).")
    versions = sorted({r.get("torch", "") for r in torch_rows} - {""})
    lines.append("- PyTorch" + (f" {', '.join(versions)}" if versions else "") +
                 ": median of 20 calls after warm-up (CUDA events around the call), "
                 "kernels counted by torch.profiler; torch.compile specialized on each "
                 "size. GB/s everywhere: the bytes fuse's report counts for the fused "
                 "program (each input read and each result written once) over the time.")
    host = [sum(r.get("host_s", {}).get(k, 0) for r in harness)
            for k in ("inputs", "reference", "compare")]
    lines.append(f"- Host work of the harness: inputs {host[0]:.1f} s, CPU references "
                 f"{host[1]:.1f} s, comparisons {host[2]:.1f} s" +
                 (f"; the whole check {args.seconds:.0f} s." if args.seconds else "."))
    if args.accuracy:
        lines.append(f"- Accuracy (`accuracy.md`, GPU section): {args.accuracy}")
    lines.append("")
    lines.append("| program | elements | fused ms | eager ms | torch eager ms | "
                 "torch.compile ms | kernels fused / eager / torch / compile | fused GB/s "
                 "| fused % copy | fused vs torch eager | fused vs torch.compile | "
                 "GPU vs CPU |")
    lines.append("|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|")
    failed = 0
    for program, size in order:
        runs = fuse[(program, size)]
        on, off = runs.get("on"), runs.get("off")
        eager_t = torch.get((program, size, "torch eager"), {})
        compiled = torch.get((program, size, "torch.compile"), {})
        # Times count where the kernels ran, even if their values were wrong
        # (the last column says so).
        fused_ms = on["kernel_ms"] if on and on["kernel_ms"] > 0 else None
        elements = (on or off or eager_t or compiled).get("elements", size)
        kernels = " / ".join(str(r.get("kernels", "–"))
                             for r in (on or {}, off or {}, eager_t, compiled))
        checks = []
        for fusion, row in (("fused", on), ("eager", off)):
            if row is None:
                continue
            if row["ok"]:
                error = row["max_error"]
                checks.append(f"{fusion} ok" + (f" ({error:.1e})" if error else ""))
            else:
                failed += 1
                checks.append(f"{fusion} **{row['status']}**")
        for row in (eager_t, compiled):
            if row and row.get("status") != "ok":
                checks.append(f"{row['variant']}: {row['status']}")
        eager_ms = off["kernel_ms"] if off and off["kernel_ms"] > 0 else None
        cells = [program, count(elements), ms(fused_ms), ms(eager_ms),
                 ms(eager_t.get("ms")), ms(compiled.get("ms")), kernels,
                 f"{on['gbps']:.1f}" if fused_ms else "–",
                 f"{100 * on['gbps'] / copy:.0f}%" if fused_ms and copy else "–",
                 ratio(eager_t.get("ms"), fused_ms), ratio(compiled.get("ms"), fused_ms),
                 "; ".join(checks) or "–"]
        lines.append("| " + " | ".join(cells) + " |")
    compile_s = [r["compile_s"] for r in torch_rows if "compile_s" in r]
    if compile_s:
        lines.append("")
        lines.append(f"torch.compile's first call per program and size took "
                     f"{min(compile_s):.1f} to {max(compile_s):.1f} s (compiling).")
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
