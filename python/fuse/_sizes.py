"""The sizes of `fuse-opt --fuse-report=json` (bytes, elements, rows): a
number when the shapes are static, else a polynomial in the function's
dynamic sizes, `{"terms": [{"coefficient": 8, "symbols": ["N", "M"]}, ...],
"text": "8*N*M + 12*N"}` (a symbol repeated for a power). A size with the
pieces of a row reduced in pieces, a count the kernel takes at run time,
defines it: `"where": {"P": {"pieces_of": <the row's length, a size>,
"piece_length": 1024, "at_most": 4096}}`, with `"rows": <a size>` when the
number of rows is dynamic too. This module has no imports:
bench/ and test/ scripts load it by its path."""


def pieces_at(pieces, values):
    """The value of a symbol of pieces (a report size's "where" entry) for
    {symbol: value}: ceil(length / piece_length) rounded up to a power of
    two, at most at_most, and with "rows" at most at_most / rows (rows
    rounded up to a power of two: the rows share at_most pieces)."""
    length = size_at(pieces["pieces_of"], values)
    rows = size_at(pieces["rows"], values) if "rows" in pieces else 1
    count = 1
    while (count * 2 * max(rows, 1) <= pieces["at_most"]
           and count * pieces["piece_length"] < length):
        count *= 2
    return count


def size_at(size, values):
    """The value of a report size for {symbol: value}."""
    if isinstance(size, int) and not isinstance(size, bool):
        return size
    if isinstance(size, dict) and size.get("too_large"):
        raise OverflowError(f"size_at: the size is {size['text']} (past int64, the "
                            f"report's arithmetic)")
    if not isinstance(size, dict) or "terms" not in size:
        raise TypeError(
            f"size_at takes a size of a report (a number, or a dict with "
            f"'terms' such as fuse.report(...)'s bytes), not {size!r}")
    if not hasattr(values, "items"):
        raise TypeError(
            f"size_at takes the sizes as a dict {{symbol: value}} (such as "
            f"{{'N': 1000}}), not {values!r}")
    for symbol, value in values.items():
        # An int or a numpy integer (no imports here: by its __index__).
        if (isinstance(value, bool) or type(value).__name__ == "bool_"
                or not hasattr(value, "__index__") or value < 0):
            raise ValueError(f"size_at: the size {symbol!r} must be a whole number of at "
                             f"least 0, not {value!r}")
    values = dict(values)
    for symbol, pieces in size.get("where", {}).items():
        if symbol not in values:
            values[symbol] = pieces_at(pieces, values)
    total = 0
    for term in size["terms"]:
        product = term["coefficient"]
        for symbol in term["symbols"]:
            if symbol not in values:
                raise KeyError(
                    f"size_at: {size.get('text', size)!r} needs a value for "
                    f"{symbol!r}; given {sorted(values)}")
            product *= values[symbol]
        total += product
    return total


def sizes_at(function, shapes):
    """{symbol: value} of a function of the report (its "sizes") for the
    shapes of its arguments: each dynamic size, then the pieces."""
    values = {s["name"]: shapes[s["argument"]][s["dimension"]]
              for s in function["sizes"] if "argument" in s}
    for s in function["sizes"]:
        if "pieces_of" in s:
            values[s["name"]] = pieces_at(s, values)
    return values


def launched_at(kernel, values):
    """Whether a kernel of the report launches at {symbol: value}:
    fuse-map-to-gpu launches none over 0 positions, which are the kernel's
    elements, or the rows of a kernel with reductions (a row of length 0
    still writes its empty reduction)."""
    positions = kernel["rows"]["count"] if "rows" in kernel else kernel["elements"]
    return size_at(positions, values) > 0


def variant_bytes_at(variant, values):
    """The bytes a variant of the report ("fused" or "eager") moves at
    {symbol: value}: those of each kernel that launches (launched_at) and of
    each copy. Its "bytes" polynomial counts every kernel, so at sizes of 0
    it can count a kernel that does not launch (the 4*M of a bias beside
    N x M with N = 0)."""
    kernels = sum(size_at(kernel["bytes"], values) for kernel in variant["kernels"]
                  if launched_at(kernel, values))
    copies = sum(size_at(copy["bytes_read"], values) + size_at(copy["bytes_written"], values)
                 for copy in variant["copies"])
    return kernels + copies


def size_text(size):
    """A report size as the text report writes it ('8*N*M + 12*N', '4096')."""
    return str(size) if isinstance(size, int) else size["text"]
