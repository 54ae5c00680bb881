"""Checks that a screenshot of the report's page shows its pictures.

usage: check_screenshot.py PAGE.png

Decodes the PNG with zlib alone (8-bit RGB or RGBA, not interlaced, as
Chromium writes it) and counts pixels: those that are not white (the page
is not blank), those of the kernels' fill color #e8f0fe (Graphviz drew the
kernels and the browser rendered the SVG) and red ones near #d93025 (the
values that go through memory). Prints one line per finding and exits 1
when one is missing.
"""

import struct
import sys
import zlib

KERNEL_FILL = (0xE8, 0xF0, 0xFE)
MEMORY_RED = (0xD9, 0x30, 0x25)


def decode(path):
    """(width, height, rows of (r, g, b) tuples)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG file")
    position, chunks, header = 8, [], None
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        elif kind == b"IEND":
            break
    width, height, depth, color, _, _, interlace = header
    if depth != 8 or color not in (2, 6) or interlace:
        sys.exit(f"{path}: unsupported PNG (depth {depth}, color type {color}, interlace {interlace})")
    channels = 3 if color == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + ((left + up) >> 1)) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + predictor) & 0xFF
        rows.append([tuple(line[x : x + 3]) for x in range(0, stride, channels)])
        previous = line
    return width, height, rows


def near(pixel, color, tolerance=24):
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, color))


def main():
    width, height, rows = decode(sys.argv[1])
    total = width * height
    counts = {"not white": 0, "kernel fill": 0, "red": 0}
    for row in rows:
        for pixel in row:
            if pixel != (255, 255, 255):
                counts["not white"] += 1
            if pixel == KERNEL_FILL:
                counts["kernel fill"] += 1
            if near(pixel, MEMORY_RED):
                counts["red"] += 1
    print(f"screenshot: {width}x{height}")
    # Thresholds far below what the page shows and far above what text alone
    # or an empty page would give.
    findings = [
        ("not blank", counts["not white"] >= total // 20),
        ("kernels drawn", counts["kernel fill"] >= total // 100),
        ("red arrows drawn", counts["red"] >= 200),
    ]
    for name, ok in findings:
        print(f"{name}: {'yes' if ok else 'NO'}")
    print("pixels: " + ", ".join(f"{k} {v}" for k, v in counts.items()), file=sys.stderr)
    return 0 if all(ok for _, ok in findings) else 1


if __name__ == "__main__":
    sys.exit(main())
