"""JSON numbers read within bounds: a leaf's number as text and as a ``Decimal``, and a
small integer field (a quarter, a year), without ever building a huge integer.

A ``1e10000000`` leaf would take minutes to turn into an ``int`` (holding the GIL) and
an infinity raises ``OverflowError``: the walk reads every number through these."""

from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation
from typing import Any

from verifier.normalizers import numbers


def number_text(value: float | Decimal) -> tuple[str, Decimal | None]:
    """(raw text, Decimal or None when it cannot be a value: NaN, infinities, huge)."""
    if isinstance(value, float):
        if not math.isfinite(value):
            return ("NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")), None
        raw = repr(value)
    elif isinstance(value, int):
        if value.bit_length() > 140:  # more than ~42 digits: not a measured quantity
            return f"<integer of {value.bit_length()} bits>", None
        raw = str(value)
    else:
        if not value.is_finite():
            return str(value), None
        raw = str(value)
    try:
        number = Decimal(raw)
    except InvalidOperation:  # pragma: no cover - repr/str of finite numbers always parse
        return raw, None
    if len(number.as_tuple().digits) > numbers.MAX_DIGITS or abs(number.adjusted()) > MAX_EXPONENT:
        return raw, None  # (1e999999999: its integer alone would take minutes to build)
    return raw, number


#: Powers of ten past this are no measured quantity (a 1e-70 or a 1e70 is noise or an
#: attack): such a number stays text, never a value.
MAX_EXPONENT = numbers.MAX_DIGITS + 30


def small_int(value: Any, lo: int, hi: int, strip: str = "") -> int | None:
    """``value`` as an int in ``lo..hi``, or None. A number goes through the bounded
    reading of :func:`number_text` first: ``int()`` of a ``1e10000000`` leaf would
    build a ten-million-digit integer (minutes, holding the GIL), and of an infinity
    raises ``OverflowError``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        value = value.strip().lstrip(strip)
        if not (0 < len(value) <= 20 and value.isascii() and value.isdigit()):
            return None
        whole = int(value)
    elif isinstance(value, (int, float, Decimal)):
        number = number_text(value)[1]
        if number is None or number != number.to_integral_value():
            return None
        whole = int(number)  # bounded: at most MAX_DIGITS digits, exponent checked
    else:
        return None
    return whole if lo <= whole <= hi else None
