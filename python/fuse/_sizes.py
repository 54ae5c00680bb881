"""The sizes of `fuse-opt --fuse-report=json` (bytes, elements, rows): a
number when the shapes are static, else a polynomial in the function's
dynamic sizes, `{"terms": [{"coefficient": 8, "symbols": ["N", "M"]}, ...],
"text": "8*N*M + 12*N"}` (a symbol repeated for a power). This module has
no imports: bench/ and test/ scripts load it by its path."""


def size_at(size, values):
    """The value of a report size for {symbol: value}."""
    if isinstance(size, int):
        return size
    total = 0
    for term in size["terms"]:
        product = term["coefficient"]
        for symbol in term["symbols"]:
            product *= values[symbol]
        total += product
    return total


def size_text(size):
    """A report size as the text report writes it ('8*N*M + 12*N', '4096')."""
    return str(size) if isinstance(size, int) else size["text"]
