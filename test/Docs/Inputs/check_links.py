"""Checks the links of the project's Markdown pages: each relative link's
file exists, and each #anchor is a heading of its page (as GitHub makes
anchors: lower case, punctuation dropped, spaces as hyphens). Prints each
broken link and a count; exits 1 if any is broken."""

import os
import re
import sys

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def anchors(path):
    """The anchors of the headings of the page at `path`."""
    found, counts, fenced = set(), {}, False
    with open(path, encoding="utf-8") as page:
        for line in page:
            if FENCE.match(line):
                fenced = not fenced
                continue
            match = None if fenced else HEADING.match(line)
            if not match:
                continue
            text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", match.group(1))
            slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
            n = counts.get(slug, 0)
            counts[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def links(path):
    """(line number, target) of each link of the page, outside code."""
    fenced = False
    with open(path, encoding="utf-8") as page:
        for number, line in enumerate(page, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if fenced:
                continue
            # Inline code is not a link.
            line = re.sub(r"`[^`]*`", "", line)
            for match in LINK.finditer(line):
                yield number, match.group(1)


def main(root, pages):
    broken, checked = 0, 0
    for page in pages:
        path = os.path.join(root, page)
        for number, target in links(path):
            if re.match(r"^[a-z]+:", target):
                continue  # https:, mailto:
            checked += 1
            file, _, anchor = target.partition("#")
            linked = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
            if not os.path.exists(linked):
                print(f"BROKEN {page}:{number}: {target}: no file {os.path.relpath(linked, root)}")
                broken += 1
            elif anchor and linked.endswith(".md") and anchor not in anchors(linked):
                print(f"BROKEN {page}:{number}: {target}: no heading #{anchor} in "
                      f"{os.path.relpath(linked, root)}")
                broken += 1
    print(f"{checked} links checked, {broken} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
