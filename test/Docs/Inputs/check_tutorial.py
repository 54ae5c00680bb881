"""Runs every command of docs/tutorial.md (or docs/NAME given third) and
compares its output with the doc.

usage: check_tutorial.py SRC_ROOT TOOLS_DIR [NAME]

Commands are the lines starting with `$ ` inside ```console blocks; the lines
after a command, up to the next command or the end of the block, are its
output as the doc shows it. Each command runs with bash from SRC_ROOT, with
`build/bin/` replaced by TOOLS_DIR, stdout and stderr together.

- A command with `--profile` prints times, which vary from run to run: only
  the profile table's rows (kernel name, calls and bytes per call, not the
  times) and the `kernels per run` line up to the copy bandwidth must match.
- Every other command must print exactly what the doc shows, ignoring
  trailing whitespace and trailing blank lines. A line `...` in the doc
  stands for any number of lines (the doc's cuts).
- A command must exit with status 0; a doc shows a failing command with
  `; echo "exit status $?"` after it.

Before any command runs, each ```mlir block that the text before it names
as `/tmp/fuse-docs/NAME.mlir` is saved there, as the doc asks its readers
to do.

Prints `ok N: COMMAND` or `MISMATCH N: COMMAND` with the difference for each
command, then a summary line, and exits 1 on any mismatch.
"""

import pathlib
import re
import subprocess
import sys

ELISION = "..."


def console_commands(markdown):
    """Yields (line number, command, expected output lines) in doc order."""
    in_console = False
    command = None
    for number, line in enumerate(markdown.splitlines(), 1):
        stripped = line.strip()
        if not in_console:
            in_console = stripped == "```console"
            continue
        if stripped == "```":
            if command:
                yield command
            in_console, command = False, None
        elif line.startswith("$ "):
            if command:
                yield command
            command = (number, line[2:], [])
        elif command:
            command[2].append(line)


PROGRAM_PATH = re.compile(r"/tmp/fuse-docs/[\w.-]+\.mlir")


def save_programs(markdown):
    """Writes each ```mlir block to the last `/tmp/fuse-docs/NAME.mlir` named
    in the text between the previous block and it."""
    text, fence, block = [], None, []
    for line in markdown.splitlines():
        stripped = line.strip()
        if fence is None:
            if stripped.startswith("```"):
                names = PROGRAM_PATH.findall("\n".join(text))
                fence = names[-1] if stripped == "```mlir" and names else ""
                block = []
            else:
                text.append(line)
        elif stripped == "```":
            if fence:
                path = pathlib.Path(fence)
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text("\n".join(block) + "\n")
            text, fence = [], None
        else:
            block.append(line)


def normalize(lines):
    lines = [line.rstrip() for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def matches_at(actual, start, segment):
    return actual[start : start + len(segment)] == segment


def first_difference(expected, actual):
    """The first line of `expected` that `actual` does not have in its place."""
    for want, got in zip(expected, actual):
        if want != got:
            return want
    if len(expected) > len(actual):
        return expected[len(actual)]
    return "(the end of the output; it has more lines)"


def match_elided(expected, actual):
    """Matches `actual` against `expected`, where a line `...` is any lines.

    Returns None on a match, else the first expected line not found."""
    segments = [[]]
    for line in expected:
        if line == ELISION:
            segments.append([])
        else:
            segments[-1].append(line)
    if len(segments) == 1:
        return None if expected == actual else first_difference(expected, actual)
    first, middle, last = segments[0], segments[1:-1], segments[-1]
    if not matches_at(actual, 0, first):
        return first_difference(first, actual[: len(first)])
    position = len(first)
    end = len(actual) - len(last)
    if end < position or not matches_at(actual, end, last):
        return first_difference(last, actual[max(end, position) :])
    for segment in middle:
        while position + len(segment) <= end and not matches_at(actual, position, segment):
            position += 1
        if position + len(segment) > end:
            return "the block of %d lines starting with %r" % (len(segment), segment[0])
        position += len(segment)
    return None


# Name, Calls, Total ms, Mean ms, Bytes/call, GB/s, % copy BW (names of
# copies have spaces; GB/s and % are whatever the times make them).
PROFILE_ROW = re.compile(r"^(\S.*?)\s+(\d+)\s+[\d.]+\s+[\d.]+\s+([\d.]+ [KMGT]?B)\s+\S+\s+\S+$")
KERNELS_PER_RUN = re.compile(r"^(kernels per run: .*?)(, copy bandwidth [\d.]+ GB/s)?$")


def profile_lines(lines):
    """The lines of a profile that do not depend on time: for each row, the
    name, calls and bytes per call; and the `kernels per run` line without
    the copy bandwidth."""
    kept = []
    for line in lines:
        row = PROFILE_ROW.match(line)
        if row:
            kept.append(f"{row.group(1)}  calls {row.group(2)}  {row.group(3)}/call")
        per_run = KERNELS_PER_RUN.match(line)
        if per_run:
            kept.append(per_run.group(1))
    return kept


def check(command, expected, root, tools):
    """Runs one command; returns a description of the mismatch, or None."""
    shell_command = command.replace("build/bin/", tools.rstrip("/") + "/")
    try:
        result = subprocess.run(
            ["bash", "-o", "pipefail", "-c", shell_command],
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=120,
        )
    except subprocess.TimeoutExpired:
        return "timed out after 120 s"
    actual = normalize(result.stdout.splitlines())
    expected = normalize(expected)
    if result.returncode != 0:
        return f"exit status {result.returncode}; output:\n" + "\n".join(actual)
    if "--profile" in command:
        want, got = profile_lines(expected), profile_lines(actual)
        if not want:
            return "the doc shows no profile rows for this command"
        if want != got:
            return "profile, doc:\n  " + "\n  ".join(want) + "\nprofile, run:\n  " + "\n  ".join(got)
        return None
    missing = match_elided(expected, actual)
    if missing is None:
        return None
    return f"not found in the output: {missing!r}\noutput:\n" + "\n".join(actual)


def main():
    root, tools = sys.argv[1], sys.argv[2]
    name = sys.argv[3] if len(sys.argv) > 3 else "tutorial.md"
    doc = pathlib.Path(root, "docs", name)
    markdown = doc.read_text()
    save_programs(markdown)
    commands = list(console_commands(markdown))
    mismatches = 0
    profiles = 0
    for index, (line, command, expected) in enumerate(commands, 1):
        profiles += "--profile" in command
        problem = check(command, expected, root, tools)
        if problem is None:
            print(f"ok {index}: {command}")
        else:
            mismatches += 1
            print(f"MISMATCH {index} (docs/{name}:{line}): {command}")
            print("  " + problem.replace("\n", "\n  "))
    print(
        f"{name}: {len(commands)} commands checked "
        f"({len(commands) - profiles} exact, {profiles} profiles), {mismatches} mismatches"
    )
    return 1 if mismatches or not commands else 0


if __name__ == "__main__":
    sys.exit(main())
