"""Checks that the report's HTML page needs nothing but itself.

usage: check_page.py PAGE.html

Prints the number of inline SVG pictures and every reference to something
outside the page (scripts, style sheets, images, fonts, frames, links, web
addresses other than the SVG namespaces), then `external references: N`;
then the element ids that occur more than once (`duplicate ids: N`: the two
pictures' Graphviz ids, `graph0`, `node1`, ..., were the same) and the count
of control characters, which no HTML or SVG may hold.
"""

import re
import sys

# Elements and attributes that load or link to something else.
EXTERNAL = re.compile(
    r"<script|<link|<img|<iframe|<object|<embed|<audio|<video|@import|@font-face|url\(|"
    r"\bsrc\s*=|\bhref\s*=",
    re.IGNORECASE,
)
ADDRESS = re.compile(r"(?:https?|ftp)://[^\s\"'<>]*", re.IGNORECASE)
NAMESPACES = {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}


def main():
    page = open(sys.argv[1], encoding="utf-8").read()
    found = [m.group(0) for m in EXTERNAL.finditer(page)]
    found += [a for a in ADDRESS.findall(page) if a not in NAMESPACES]
    print(f"pictures: {len(re.findall(r'<svg[ >]', page))}")
    for reference in found:
        print(f"external reference: {reference}")
    print(f"external references: {len(found)}")
    ids = re.findall(r'\bid="([^"]*)"', page)
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    for name in duplicates:
        print(f"duplicate id: {name}")
    print(f"duplicate ids: {len(duplicates)}")
    controls = [c for c in page if ord(c) < 0x20 and c not in "\n\t\r"]
    print(f"control characters: {len(controls)}")


if __name__ == "__main__":
    main()
