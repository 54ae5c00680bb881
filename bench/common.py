"""What both benchmarks record about the run: the commit and the tools."""
import datetime
import hashlib
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
