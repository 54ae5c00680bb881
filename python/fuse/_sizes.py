"""The sizes of `fuse-opt --fuse-report=json` (bytes, elements, rows): a
number when the shapes are static, else a polynomial in the function's
dynamic sizes, `{"terms": [{"coefficient": 8, "symbols": ["N", "M"]}, ...],
"text": "8*N*M + 12*N"}` (a symbol repeated for a power). This module has
no imports: bench/ and test/ scripts load it by its path."""


def size_at(size, values):
    """The value of a report size for {symbol: value}."""
    if isinstance(size, int) and not isinstance(size, bool):
        return size
    if not isinstance(size, dict) or "terms" not in size:
        raise TypeError(
            f"size_at takes a size of a report (a number, or a dict with "
            f"'terms' such as fuse.report(...)'s bytes), not {size!r}")
    for symbol, value in values.items():
        # An int or a numpy integer (no imports here: by its __index__).
        if (isinstance(value, bool) or type(value).__name__ == "bool_"
                or not hasattr(value, "__index__") or value < 0):
            raise ValueError(f"size_at: the size {symbol!r} must be a whole number of at "
                             f"least 0, not {value!r}")
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


def size_text(size):
    """A report size as the text report writes it ('8*N*M + 12*N', '4096')."""
    return str(size) if isinstance(size, int) else size["text"]
