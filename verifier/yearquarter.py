"""Periods as (year, quarter or None) pairs: read from mentions and dates, compared,
printed. One place for the rules every period check shares (attribution, the
question's cells, figures in prose, column headers)."""

from __future__ import annotations

import re

from .extract import Mention

Period = tuple[int, int | None]

#: A year written in running text or a label ("2019", "Fiscal 2019 Net Sales").
YEAR_IN_TEXT = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
_VALUE = re.compile(r"(?:FY)?(\d{4})(?:-Q([1-4]))?")
_DAY = re.compile(r"(\d{4})-(\d\d)-\d\d")


def of_date(year: int, month: int) -> Period | None:
    """The period a day names: its year, except for January and February, when a
    period ending then is usually the fiscal year before (a retailer's "February 1,
    2020" is fiscal 2019) and the year says nothing certain."""
    return None if month <= 2 else (year, None)


def of_mention(mention: Mention, days: bool = False) -> Period | None:
    """The period a year, quarter or fiscal-year mention names ("2025", "Q3 2025",
    "FY2025"); with ``days``, a full date names its year too (:func:`of_date`)."""
    if mention.kind not in ("date", "period") or not mention.value:
        return None
    m = _VALUE.fullmatch(mention.value)
    if m is not None:
        return int(m.group(1)), int(m.group(2)) if m.group(2) else None
    day = _DAY.fullmatch(mention.value) if days else None
    return of_date(int(day.group(1)), int(day.group(2))) if day is not None else None


def same(a: Period, b: Period) -> bool:
    """Whether two periods can be the same: a year matches any of its quarters."""
    return a[0] == b[0] and (a[1] is None or b[1] is None or a[1] == b[1])


def text(period: Period) -> str:
    """"Q3 2025" or "2025"."""
    return f"Q{period[1]} {period[0]}" if period[1] else str(period[0])


#: A run of years: "from 2020 to 2024", "between 2017 and 2019", "2020-2024", "fiscal
#: 2020 through fiscal 2024". "In 2020 and 2024" lists two years, no run.
_FISCAL = r"(?:(?:fiscal|fy)\s*)?"
_RUN = re.compile(r"(?i)(?:\bbetween\s+" + _FISCAL + r"((?:19|20)\d\d)\s+and\s+" + _FISCAL + r"((?:19|20)\d\d)"
                  r"|(?<!\d)((?:19|20)\d\d)\s*(?:-|–|to|through|thru)\s*" + _FISCAL + r"((?:19|20)\d\d))(?!\d)")

#: Longer runs than this name no years in between ("1990 to 2020" is no list of thirty).
MAX_RUN = 10


def years_between(text: str) -> frozenset[str]:
    """The years a run of years leaves unwritten: "the sum from 2020 to 2024" asks
    about 2021, 2022 and 2023 too.

    >>> sorted(years_between("What is the sum of finance leases from 2020 to 2024?"))
    ['2021', '2022', '2023']
    >>> sorted(years_between("the total between fiscal 2019 and fiscal 2016"))
    ['2017', '2018']
    >>> sorted(years_between("the sum of finance leases in 2020 and 2024"))
    []
    """
    years: set[str] = set()
    for m in _RUN.finditer(text):
        ends = [int(y) for y in m.groups() if y]
        low, high = min(ends), max(ends)
        if 1 < high - low <= MAX_RUN:
            years.update(str(y) for y in range(low + 1, high))
    return frozenset(years)
