"""Checks that the report's HTML page needs nothing but itself.

usage: check_page.py PAGE.html

Prints the number of inline SVG pictures and every reference to something
outside the page (scripts, style sheets, images, fonts, frames, links, web
addresses other than the SVG namespaces), then `external references: N`.
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


if __name__ == "__main__":
    main()
