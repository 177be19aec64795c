"""Reporting periods: quarters (``Q3 2026``, ``3Q26``, ``2026Q3``, ``Q3'26``,
``third quarter of 2026``), halves (``H1 2026``, ``1H26``, ``first half of 2026``) and
fiscal years (``FY2025``, ``FY25``, ``fiscal 2025``, ``fiscal year 2025``).

>>> parse("3Q26").key
'2026-Q3'
>>> parse("FY25").key
'FY2025'
>>> parse("first half of 2026").key
'2026-H1'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ._errors import NormalizeError, require_text
from ._text import fold

KIND = "period"

_ORD = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
_Y = r"(?:'|’|-|[ ])?(?:FY)?(?P<{n}>\d{{4}}|\d{{2}})"

PATTERN = rf"""(?<![\w])(?:
    Q(?P<q1>[1-4]){_Y.format(n="q1y")}?
  | (?P<q2>[1-4])Q{_Y.format(n="q2y")}
  | (?P<q3y>\d{{4}})[ \-]?Q(?P<q3>[1-4])
  | (?P<q4>first|second|third|fourth|1st|2nd|3rd|4th)[ ](?:fiscal[ ])?quarter
        (?:[ ](?:of[ ])?(?:fiscal[ ](?:year[ ])?)?(?P<q4y>\d{{4}}))?
  | H(?P<h1>[12]){_Y.format(n="h1y")}?
  | (?P<h2>[12])H{_Y.format(n="h2y")}
  | (?P<h3>first|second|1st|2nd)[ ]half(?:[ ](?:of[ ])?(?:fiscal[ ])?(?P<h3y>\d{{4}}))?
  | FY[ '’\-]?(?P<fy1>\d{{4}}|\d{{2}})(?![\d])
  | fiscal[ ](?:year[ ])?(?P<fy2>\d{{4}})
)(?![\w])"""


@cache
def _full() -> re.Pattern[str]:
    # compiled on the first parse: the extractor embeds PATTERN and never needs this one,
    # so ``import verifier`` does not pay for it (issue 21)
    return re.compile(rf"\s*{PATTERN}\s*", re.VERBOSE | re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ParsedPeriod:
    """A quarter, half or fiscal year; ``year`` is None when none was written."""

    raw: str
    kind: str  # "quarter", "half" or "fiscal_year"
    year: int | None
    index: int | None  # 1-4 for a quarter, 1-2 for a half

    @property
    def key(self) -> str:
        """``2026-Q3``, ``2026-H1``, ``FY2025``; ``Q3`` / ``H1`` without a year."""
        if self.kind == "fiscal_year":
            return f"FY{self.year}"
        letter = "Q" if self.kind == "quarter" else "H"
        return f"{self.year}-{letter}{self.index}" if self.year else f"{letter}{self.index}"


def _year(text: str | None) -> int | None:
    if not text:
        return None
    year = int(text)
    return year + 2000 if len(text) == 2 else year


def _index(text: str) -> int:
    return _ORD[text.lower()] if text.lower() in _ORD else int(text)


def from_groups(raw: str, g: dict[str, str | None]) -> ParsedPeriod:
    """Build a ParsedPeriod from the named groups of a :data:`PATTERN` match."""
    for n in ("q1", "q2", "q3", "q4"):
        if g.get(n):
            return ParsedPeriod(raw, "quarter", _year(g.get(n + "y")), _index(g[n]))  # type: ignore[arg-type]
    for n in ("h1", "h2", "h3"):
        if g.get(n):
            return ParsedPeriod(raw, "half", _year(g.get(n + "y")), _index(g[n]))  # type: ignore[arg-type]
    return ParsedPeriod(raw, "fiscal_year", _year(g.get("fy1") or g.get("fy2")), None)


def parse(text: str, locale: str = "en_US") -> ParsedPeriod:
    """Read ``text`` as a reporting period (``locale`` is accepted for a uniform API)."""
    text = require_text(KIND, text)
    m = _full().fullmatch(fold(text))
    if m is None:
        raise NormalizeError(KIND, text, "not a quarter, half or fiscal year")
    return from_groups(text, m.groupdict())


def is_valid(text: object, locale: str = "en_US") -> bool:
    """Whether ``text`` reads as a reporting period. Never raises."""
    try:
        parse(text, locale)  # type: ignore[arg-type]
    except NormalizeError:
        return False
    return True


def canonical_forms(value: ParsedPeriod) -> tuple[str, ...]:
    """Keys under which data can support this period: the period itself, and for a
    fiscal year the plain year as well."""
    if value.kind == "fiscal_year":
        return (value.key, str(value.year))
    return (value.key,)
