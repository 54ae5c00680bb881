"""What the benchmarks share: the commit and the tools of a run, tables,
and the checks of their arguments and of what they need."""
import argparse
import datetime
import hashlib
import importlib.util
import os
import platform
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BUILD_HINT = ("build fuse first with scripts/setup, or point --build-dir or "
              "BUILD_DIR at a build")


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
sizes_at = _sizes.sizes_at


def git(*a):
    """git's output on the source tree, stripped; "" where it fails (no
    repository, such as a copy without .git, or no git at all)."""
    try:
        return subprocess.run(["git", "-C", str(ROOT)] + list(a),
                              capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""


def package_version():
    """The fuse package's version, `__version__` in python/fuse/__init__.py
    (which pyproject.toml and CMake read), or None. The top-level
    CMakeLists.txt gives the project no VERSION, so this is the one version
    number the source tree has."""
    try:
        text = (ROOT / "python" / "fuse" / "__init__.py").read_text()
    except OSError:
        return None
    match = re.search(r"^__version__\s*=\s*[\"']([^\"']+)[\"']", text, re.M)
    return match.group(1) if match else None


def fuse_version():
    """What names this source tree's fuse: `git describe --always --dirty`,
    or without a git repository the package version, marked as such, or
    "unknown (no git)"."""
    described = git("describe", "--always", "--dirty")
    if described:
        return described
    version = package_version()
    if version:
        return f"{version} (python/fuse/__init__.py; no git)"
    return "unknown (no git)"


def uncommitted_changes():
    """Whether tracked files differ from HEAD (`git status`), or None where
    git cannot tell (no repository, such as a copy without .git, or no git
    at all): a run records null then, not a "no changes" nobody checked."""
    try:
        proc = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain",
                               "--untracked-files=no"],
                              capture_output=True, text=True)
    except OSError:
        return None
    if proc.returncode != 0:
        return None
    return bool(proc.stdout.strip())


def cpu_model():
    """The CPU's model name, as /proc/cpuinfo gives it."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def add_build_dir(parser):
    """--build-dir: the build to measure, $BUILD_DIR or ./build."""
    parser.add_argument("--build-dir", type=Path,
                        default=Path(os.environ.get("BUILD_DIR", ROOT / "build")),
                        help="the build (default $BUILD_DIR, else ./build)")


def fuse_library(parser, build_dir):
    """`build_dir`'s libfuse_capi.so, or the parser's error saying how to
    make it."""
    library = Path(build_dir) / "lib" / "libfuse_capi.so"
    if not library.is_file():
        parser.error(f"{library}: no such file ({BUILD_HINT})")
    return library


def import_fuse(library):
    """The fuse package of the source tree, over `library` (fuse_library)."""
    os.environ["FUSE_LIB_DIR"] = str(Path(library).parent)
    sys.path.insert(0, str(ROOT / "python"))
    import fuse
    return fuse


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


def positive_int(text):
    """argparse type: a whole number >= 1, as 1000 or 1e3."""
    try:
        value = int(text)
    except ValueError:
        try:
            value = float(text)
        except ValueError:
            value = None
        if value is not None and value.is_integer():
            value = int(value)
    if not isinstance(value, int) or value < 1:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a whole number >= 1")
    return value


def positive_ints(text):
    """argparse type: comma-separated whole numbers >= 1 (1000 or 1e3), in
    their order, each once."""
    items = [s.strip() for s in text.split(",") if s.strip()]
    if not items:
        raise argparse.ArgumentTypeError(
            "expected whole numbers >= 1, comma separated")
    return list(dict.fromkeys(positive_int(s) for s in items))


def names_of(choices, what):
    """argparse type: comma-separated names, each one of choices (what: a
    program, a system), in their order, each once."""
    def parse(text):
        names = [s.strip() for s in text.split(",") if s.strip()]
        unknown = [n for n in names if n not in choices]
        if unknown or not names:
            raise argparse.ArgumentTypeError(
                (f"unknown {what} {', '.join(map(repr, unknown))}" if unknown
                 else f"no {what} given") +
                f"; {what}s: {', '.join(choices)}")
        return list(dict.fromkeys(names))
    return parse


def executable(parser, path, hint):
    """path, once it is an executable file; else parser.error, which says
    how to get one (hint)."""
    path = Path(path)
    if not (path.is_file() and os.access(path, os.X_OK)):
        why = "not an executable file" if path.exists() else "no such file"
        parser.error(f"{path}: {why} ({hint})")
    return path


def build_tool(parser, build_dir, name):
    """The build's bin/NAME, once it is there (executable())."""
    return executable(parser, Path(build_dir) / "bin" / name, BUILD_HINT)


def can_plot(parser, option, given, install):
    """At start-up, before any work: whether the run can draw its plot, that
    is, whether this Python imports matplotlib. Without it, `option` given
    on the command line is an error (parser.error, saying what to do:
    install, or leave the option out); the default plot is left out, with a
    note."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot  # noqa: F401
    except ImportError as e:
        why = f"matplotlib, which {sys.executable} cannot import ({e})"
        if given:
            parser.error(f"{option} needs {why}: {install}, or leave out "
                         f"{option}")
        print(f"note: no plot: it needs {why}; {install} for one",
              file=sys.stderr)
        return False
    return True


def draw_plot(plotting, draw, path):
    """Draws the plot with draw(path) when the run can (can_plot), and says
    where it went or that it was left out."""
    if plotting:
        draw(path)
        print(f"wrote {path}")
    else:
        print(f"no plot: {path} not written")
