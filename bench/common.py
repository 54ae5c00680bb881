"""What both benchmarks share: the commit and the tools of a run, and tables."""
import datetime
import hashlib
import importlib.util
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _sizes_module():
    """python/fuse/_sizes.py (no imports of its own), loaded by its path:
    the one reader of the report's JSON sizes."""
    spec = importlib.util.spec_from_file_location(
        "fuse_report_sizes", ROOT / "python" / "fuse" / "_sizes.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_sizes = _sizes_module()
size_at = _sizes.size_at
size_text = _sizes.size_text


def git(*a):
    return subprocess.run(["git", "-C", str(ROOT)] + list(a),
                          capture_output=True, text=True).stdout.strip()


def tool_ids(paths):
    """sha256 (first 12 hex digits) and mtime of each tool, to notice a
    rebuild during the run on a shared machine."""
    ids = {}
    for p in paths:
        p = Path(p)
        try:
            digest = hashlib.sha256(p.read_bytes()).hexdigest()[:12]
            mtime = datetime.datetime.fromtimestamp(
                p.stat().st_mtime, datetime.timezone.utc).isoformat()
            ids[p.name] = f"{digest} {mtime}"
        except OSError as e:
            ids[p.name] = f"unreadable: {e}"
    return ids


def print_table(header, rows):
    """Prints rows under header, the first column left-aligned, the others
    right-aligned, with a rule below the header."""
    widths = [max(len(str(r[i])) for r in [header] + rows)
              for i in range(len(header))]
    line = "  ".join(h.ljust(w) if i == 0 else h.rjust(w)
                     for i, (h, w) in enumerate(zip(header, widths)))
    print(line)
    print("-" * len(line))
    for r in rows:
        print("  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                        for i, (c, w) in enumerate(zip(r, widths))))
