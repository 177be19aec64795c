"""Calendar dates as written in answers and data: ``2026-03-05``, ``March 5, 2026``,
``5 March 2026``, ``5. März 2026`` (de_DE), ``30 de octubre de 2026`` (es), ``2026年10月29日`` (ja, zh, ko), ``03/05/2026`` (month first in en_US, day
first in en_GB, de_DE, fr_FR...), ``05.03.2026``, ``Mar 2026``, ``March 5``, a bare
year ``2025``, and epoch timestamps in data (:func:`from_epoch`).

Day/month order and month names come from Babel for the given locale; English month
names are always understood as well.

>>> parse("March 5, 2026").key
'2026-03-05'
>>> parse("05/03/2026", "en_GB").key
'2026-03-05'
>>> parse("03/05/2026", "en_US").key
'2026-03-05'
>>> parse("Mar 2026").key
'2026-03'
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache

from ._errors import NormalizeError, require_text
from ._text import WORD_END, WORD_START, fold

KIND = "date"

YEAR_MIN, YEAR_MAX = 1900, 2100

#: Epoch bounds (2000-01-01 .. 2100-01-01) within which a number in data is read as a
#: timestamp in seconds, or, times 1000, in milliseconds.
EPOCH_MIN, EPOCH_MAX = 946_684_800, 4_102_444_800


@dataclass(frozen=True, slots=True)
class ParsedDate:
    """A date at the precision written: a day, a month, a year, or a day without year."""

    raw: str
    year: int | None
    month: int | None
    day: int | None

    @property
    def key(self) -> str:
        """ISO-like key at the written precision: ``2026-03-05``, ``2026-03``, ``2026``,
        or ``--03-05`` for a day without a year."""
        if self.year is None:
            return f"--{self.month:02d}-{self.day:02d}"
        if self.month is None:
            return f"{self.year:04d}"
        if self.day is None:
            return f"{self.year:04d}-{self.month:02d}"
        return f"{self.year:04d}-{self.month:02d}-{self.day:02d}"


def keys_of_day(day: dt.date) -> tuple[str, ...]:
    """Every key a full date in data can support: the day, its month, its year, and
    the day without year."""
    return (
        day.isoformat(),
        f"{day.year:04d}-{day.month:02d}",
        f"{day.year:04d}",
        f"--{day.month:02d}-{day.day:02d}",
    )


def from_epoch(value: float, milliseconds: bool | None = None) -> dt.date | None:
    """The UTC date of an epoch timestamp in seconds or milliseconds, or None when the
    number is outside 2000..2100 in both readings. ``milliseconds=None`` guesses from
    the magnitude."""
    instant = instant_of_epoch(value, milliseconds)
    return instant.date() if instant is not None else None


def instant_of_epoch(value: float, milliseconds: bool | None = None) -> dt.datetime | None:
    """The moment (UTC) of an epoch timestamp in seconds or milliseconds, or None when
    it is outside 2000..2100 (see :func:`from_epoch`)."""
    if milliseconds is None:
        milliseconds = value >= EPOCH_MAX
    seconds = value / 1000 if milliseconds else value
    if not EPOCH_MIN <= seconds < EPOCH_MAX:
        return None
    return dt.datetime.fromtimestamp(seconds, tz=dt.UTC)


def instant_of_text(text: str) -> dt.datetime | None:
    """The date-time an ISO 8601 string with a time of day states ("2026-10-29T13:45:00Z",
    "2026-10-29 09:30:00-04:00"): aware when it gives a zone or offset, naive when it
    gives none; None for a date without a time or text that is no ISO date-time."""
    text = text.strip()
    if len(text) < 16 or text[10:11] not in ("T", " ") or not text[:4].isdigit():
        return None
    try:
        return dt.datetime.fromisoformat(text)
    except ValueError:
        return None


@lru_cache(maxsize=64)
def month_names(locale: str) -> dict[str, int]:
    """Lower-cased month name or abbreviation (with and without a dot) -> month."""
    from babel.dates import get_month_names

    names: dict[str, int] = {}
    for loc in dict.fromkeys((locale, "en_US")):
        for width in ("wide", "abbreviated"):
            for ctx in ("format", "stand-alone"):
                for month, name in get_month_names(width, ctx, locale=loc).items():
                    name = name.lower()
                    names[name] = month
                    names[name.rstrip(".")] = month
    names["sept"] = 9
    return names


@lru_cache(maxsize=64)
def day_first(locale: str) -> bool:
    """Whether ``locale`` writes numeric dates day first (from Babel's short format)."""
    from babel.dates import get_date_format

    pattern = get_date_format("short", locale=locale).pattern
    return pattern.find("d") < pattern.find("M")


@lru_cache(maxsize=64)
def pattern(locale: str = "en_US") -> str:
    """Regex source for one date; the named groups say which form matched."""
    months = sorted(month_names(locale), key=len, reverse=True)
    mon = "|".join(re.escape(m) for m in months)
    return rf"""{WORD_START}(?:
        (?P<iso_y>\d{{4}})-(?P<iso_m>\d{{2}})-(?P<iso_d>\d{{2}})
          (?:[T ]\d{{2}}:\d{{2}}(?::\d{{2}}(?:\.\d+)?)?(?:Z|[+\-]\d{{2}}:?\d{{2}})?)?
      | (?P<n_a>\d{{1,2}})(?P<n_sep>[/.\-])(?P<n_b>\d{{1,2}})(?P=n_sep)(?P<n_y>\d{{4}}|\d{{2}})
      | (?P<md_m>{mon})\.?[ ](?P<md_d>\d{{1,2}})(?:st|nd|rd|th)?
          (?:,?[ ](?P<md_y>\d{{4}}))?
      | (?P<dm_d>\d{{1,2}})(?:st|nd|rd|th|\.)?[ ](?:of[ ]|de[ ])?(?P<dm_m>{mon})\.?   # 5 March, 30 de octubre
          (?:,?[ ](?:de[ ])?(?P<dm_y>\d{{4}}))?
      | (?P<my_m>{mon})\.?,?[ ](?:de[ ])?(?P<my_y>\d{{4}})
      | (?P<cjk_y>\d{{4}})[年년][ ]?(?:(?P<cjk_m>\d{{1,2}})[月월][ ]?(?:(?P<cjk_d>\d{{1,2}})[日일])?)?  # 2026年10月29日
      | (?P<cjkmd_m>\d{{1,2}})[月월][ ]?(?P<cjkmd_d>\d{{1,2}})[日일]       # 10月29日
    ){WORD_END}"""


@lru_cache(maxsize=64)
def _full(locale: str) -> re.Pattern[str]:
    return re.compile(rf"\s*{pattern(locale)}\s*", re.VERBOSE | re.IGNORECASE)


def _year(text: str) -> int:
    year = int(text)
    if len(text) == 2:
        year += 2000 if year < 70 else 1900
    return year


def from_groups(raw: str, g: dict[str, str | None], locale: str) -> ParsedDate:
    """Build a ParsedDate from the named groups of a :func:`pattern` match; raise
    NormalizeError for an impossible date (2026-02-30)."""
    year: int | None
    if g.get("iso_y"):
        year, month, day = int(g["iso_y"]), int(g["iso_m"]), int(g["iso_d"])  # type: ignore[arg-type]
    elif g.get("n_a"):
        a, b = int(g["n_a"]), int(g["n_b"])  # type: ignore[arg-type]
        day, month = (a, b) if day_first(locale) else (b, a)
        year = _year(g["n_y"])  # type: ignore[arg-type]
    elif g.get("md_m") or g.get("dm_m"):
        name = (g.get("md_m") or g.get("dm_m") or "").lower()
        month = month_names(locale)[name.rstrip(".")]
        day = int(g.get("md_d") or g.get("dm_d"))  # type: ignore[arg-type]
        y = g.get("md_y") or g.get("dm_y")
        year = int(y) if y else None
    elif g.get("cjk_y"):
        year = int(g["cjk_y"])  # type: ignore[arg-type]
        if not g.get("cjk_m"):
            return ParsedDate(raw, year, None, None)
        month = int(g["cjk_m"])  # type: ignore[arg-type]
        if not g.get("cjk_d"):
            if not 1 <= month <= 12:
                raise NormalizeError(KIND, raw, "no such month in the calendar")
            return ParsedDate(raw, year, month, None)
        day = int(g["cjk_d"])  # type: ignore[arg-type]
    elif g.get("cjkmd_m"):
        year, month, day = None, int(g["cjkmd_m"]), int(g["cjkmd_d"])  # type: ignore[arg-type]
    else:
        name = (g.get("my_m") or "").lower()
        month = month_names(locale)[name.rstrip(".")]
        return ParsedDate(raw, int(g["my_y"]), month, None)  # type: ignore[arg-type]
    try:
        dt.date(year if year is not None else 2000, month, day)  # 2000: a leap year
    except ValueError:
        raise NormalizeError(KIND, raw, "no such day in the calendar") from None
    return ParsedDate(raw, year, month, day)


def parse(text: str, locale: str = "en_US") -> ParsedDate:
    """Read ``text`` as a date (or a bare year) in ``locale``."""
    text = require_text(KIND, text)
    folded = fold(text).strip()
    if re.fullmatch(r"\d{4}", folded) and YEAR_MIN <= int(folded) <= YEAR_MAX:
        return ParsedDate(text, int(folded), None, None)
    m = _full(locale).fullmatch(folded)
    if m is None:
        raise NormalizeError(KIND, text, f"not a date in locale {locale}")
    return from_groups(text, m.groupdict(), locale)


def is_valid(text: object, locale: str = "en_US") -> bool:
    """Whether ``text`` reads as a date. Never raises."""
    try:
        parse(text, locale)  # type: ignore[arg-type]
    except NormalizeError:
        return False
    return True


def canonical_forms(value: ParsedDate) -> tuple[str, ...]:
    """The keys under which data can support this date (see :attr:`ParsedDate.key`)."""
    return (value.key,)
