"""Period labels: what a key, column header, row label or title says about when its
figures are for ("2025-Q3", "FY2019 €m", "Year ended December 31, 2018" -> a year and
maybe a quarter), and which record fields name a period.

The walk reads table headers with :func:`is_period_label`; the records read the period
of a leaf with :func:`year_quarter`. Both are cached: the same headers repeat across
thousands of rows."""

from __future__ import annotations

from functools import lru_cache

import regex

from verifier import stoplists
from verifier.normalizers import NormalizeError, amounts, dates, periods

from .. import yearquarter
from ..deadline import check as _check_deadline

_QUARTER_KEY = regex.compile(r"(?i)^(fiscal_?)?(quarter|qtr|fiscalquarter|fq)$")
_YEAR_KEY = regex.compile(r"(?i)^(fiscal_?)?(year|yr|fiscalyear|fy)$")

#: Fields that name the period a record's figures are for. Not snapshot dates (as_of,
#: date, report_date): a quote or estimate taken on 2025-06-10 is not a 2025 figure.
PERIOD_FIELD = regex.compile(r"(?i)^(fiscal_?)?(period|period_?end(ing)?|fiscal_?period|quarter_?end|year_?end)$")
_YEAR_QUARTER = regex.compile(r"^(?:FY)?(\d{4})(?:-Q([1-4]))?(?:-\d\d(?:-\d\d)?)?$")


#: A column header that is a year and the unit of the figures under it ("2019 €m",
#: "FY2019 $'000", "2018 US$ million"), as annual reports print them: the year, then
#: words that :func:`_is_unit_word` accepts.
_YEAR_THEN = regex.compile(r"^(?:FY ?)?(\d{4})((?: [^ ]+){0,2})$")
#: Scale words a year's header may carry after the year (stoplists/header_scale_words.txt).
_SCALE_WORDS = stoplists.load("header_scale_words")
#: Marks a year's column header may end with: percentages, and "`", which is how text
#: extracted from Indian filings renders the rupee sign ("FY 2019 `": the Rupee Foradian
#: font maps ₹ to the backtick key).
_UNIT_MARKS = frozenset({"%", "(%)", "`"})
#: A column header that is a reporting date: "April 26, 2019", "Year ended December 31,
#: 2018", "As of Dec. 31, 2019" (the date itself is read by normalizers.dates).
_DATE_HEADER = regex.compile(
    r"""^(?:(?:as\ of|as\ at|at|(?:fiscal\ )?years?\ ended|twelve\ months\ ended|for\ the\ year\ ended)\ +)?
        (?P<date>.{6,24})$""",
    regex.IGNORECASE | regex.VERBOSE)


def _is_unit_word(word: str) -> bool:
    """A scale ("m", "'000"), a currency (Babel's codes and symbols: "€", "US$", "EUR"),
    a currency glued to a scale ("€m", "$'000"), or a percent mark ("2019 (%)")."""
    if word.lower() in _SCALE_WORDS or word in _UNIT_MARKS:
        return True
    table = amounts.symbol_table()
    return any(word[:i] in table and (i == len(word) or word[i:].lower() in _SCALE_WORDS)
               for i in range(len(word), 0, -1))


#: A footnote mark after a column header: "April 27, 2019 (1)", "FY19**", "2018¹".
_HEADER_MARK = regex.compile(r"\s*(?:\(\d{1,2}\)|\*+|[¹²³⁴⁵⁶⁷⁸⁹]+)$")


@lru_cache(maxsize=8192)
def year_quarter(key: str) -> tuple[int, int | None] | None:
    """"2025-Q3", "Q3 2025", "3Q25" -> (2025, 3); "2025", "FY2025", "2025-03-31",
    "2025 €m", "H1 2025", "April 26, 2025", "April 26, 2025 (1)" -> (2025, None)."""
    key = _HEADER_MARK.sub("", key) or key
    m = _YEAR_QUARTER.match(key)
    if m is None:
        m = _YEAR_THEN.match(key)
        if m is not None and not all(_is_unit_word(w) for w in m.group(2).split()):
            m = None
    if m is not None:
        if not 1900 <= int(m.group(1)) <= 2100:  # "1000" shares is not a year
            return None
        return int(m.group(1)), int(m.group(2)) if m.re is _YEAR_QUARTER and m.group(2) else None
    dated = _DATE_HEADER.match(key) if any(ch.isalpha() for ch in key) else None
    if dated is not None:
        try:
            day = dates.parse(dated.group("date"))
        except NormalizeError:
            day = None
        if day is not None and day.year is not None and day.month is not None:
            # a reporting date: its year, unless it falls in January or February
            return yearquarter.of_date(day.year, day.month)
    if len(key) > 16 or not any(ch.isdigit() for ch in key):
        return None
    try:
        period = periods.parse(key)
    except NormalizeError:
        return None
    if period.year is None:
        return None
    return period.year, period.index if period.kind == "quarter" else None


@lru_cache(maxsize=8192)
def is_period_label(key: str) -> bool:
    """Whether a column header only names when ("2019", "Q3 2025", "January 31, 2020",
    "Year ended December 31, 2018"), whichever fiscal year a January date belongs to."""
    _check_deadline()  # a miss costs a few regex searches; 150,000 distinct keys, seconds
    if year_quarter(key) is not None:
        return True
    key = _HEADER_MARK.sub("", key)
    dated = _DATE_HEADER.match(key) if any(ch.isalpha() for ch in key) and any(ch.isdigit() for ch in key) else None
    if dated is None:
        return False
    try:
        day = dates.parse(dated.group("date"))
    except NormalizeError:
        return False
    return day.year is not None


@lru_cache(maxsize=8192)
def period_role(key: str) -> str | None:
    """"quarter" for a quarter field (``fiscal_quarter``, ``qtr``), "year" for a year
    field (``fy``, ``fiscal_year``), else None."""
    if _QUARTER_KEY.match(key):
        return "quarter"
    return "year" if _YEAR_KEY.match(key) else None
