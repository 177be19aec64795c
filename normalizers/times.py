"""Times of day as written in answers and data: ``9:30``, ``9:30 ET``, ``4 p.m.``,
``10:30 p.m. EST``, ``8.30am``, ``14:45 Uhr MEZ``, ``17:30 CET``, ``08:02:15 UTC``.

A time keeps its zone when one is written (an abbreviation from ``time_zones.txt``,
mapped to an IANA zone) and its precision: to the minute, or to the hour ("4 p.m."),
within which a data timestamp matches it.

>>> t = parse("10:30 p.m. ET")
>>> (t.hour, t.minute, t.zone)
(22, 30, 'America/New_York')
>>> parse("4 p.m.").to_the_hour
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ._errors import NormalizeError, require_text
from ._text import WORD_END, WORD_START, fold

KIND = "time"


@lru_cache(maxsize=1)
def zones() -> dict[str, str]:
    """Time-zone abbreviation -> IANA zone name, from ``time_zones.txt``."""
    text = resources.files(__package__).joinpath("time_zones.txt").read_text(encoding="utf-8")
    return {parts[0]: parts[1] for parts in (line.split() for line in text.splitlines())
            if len(parts) >= 2 and not parts[0].startswith("#")}


#: A time's text that writes its zone ("9:30 ET", "14:45 Uhr MEZ").
ZONE_WRITTEN = re.compile(r"[A-Z]{1,4}$")


@lru_cache(maxsize=1)
def _zone_alternation() -> str:
    return "|".join(re.escape(z) for z in sorted(zones(), key=len, reverse=True) if z != "Z")


@lru_cache(maxsize=1)
def pattern() -> str:
    """Regex source for one time of day (groups ``t_h``, ``t_m``, ``t_s``, ``t_ampm``,
    ``t_zone``)."""
    zone = _zone_alternation()
    return rf"""{WORD_START}(?<!\d[.,:])(?:
        (?P<t_h>\d{{1,2}})(?::(?P<t_m>\d{{2}})(?::(?P<t_s>\d{{2}}))?)               # 9:30, 14:45:10
          (?:[ ]?(?P<t_ampm>[ap]\.m\.|[ap]m{WORD_END}|[AP]M{WORD_END}))?
      | (?P<t_h2>\d{{1,2}})(?:\.(?P<t_m2>\d{{2}}))?[ ]?(?P<t_ampm2>[ap]\.m\.|[ap]m{WORD_END}|[AP]M{WORD_END})  # 4 p.m., 8.30am
      | (?P<t_h3>\d{{1,2}})[.:](?P<t_m3>\d{{2}})[ ](?=Uhr{WORD_END})                # 14.45 Uhr
    )(?:[ ]?Uhr{WORD_END})?(?:[ ]?(?P<t_zone>{zone}){WORD_END})?"""


@lru_cache(maxsize=1)
def _full() -> re.Pattern[str]:
    return re.compile(rf"\s*{pattern()}\s*", re.VERBOSE)


@dataclass(frozen=True, slots=True)
class ParsedTime:
    """A time of day, its zone (an IANA name) when written, and its precision."""

    raw: str
    hour: int  # 0..23
    minute: int
    zone: str | None
    to_the_hour: bool  # written without minutes ("4 p.m."): matches within half an hour

    @property
    def key(self) -> str:
        """``HH:MM``, with the zone after a space when written."""
        return f"{self.hour:02d}:{self.minute:02d}" + (f" {self.zone}" if self.zone else "")


def from_groups(raw: str, g: dict[str, str | None]) -> ParsedTime:
    """Build a ParsedTime from the named groups of a :func:`pattern` match; raise
    NormalizeError for an hour or minute no clock shows."""
    hour_text = g.get("t_h") or g.get("t_h2") or g.get("t_h3")
    assert hour_text is not None
    minute_text = g.get("t_m") or g.get("t_m2") or g.get("t_m3")
    ampm = (g.get("t_ampm") or g.get("t_ampm2") or "").lower().replace(".", "")
    hour, minute = int(hour_text), int(minute_text) if minute_text else 0
    if ampm:
        if not 1 <= hour <= 12:
            raise NormalizeError(KIND, raw, "an hour past 12 with a.m. or p.m.")
        hour = hour % 12 + (12 if ampm == "pm" else 0)
    if hour > 23 or minute > 59:
        raise NormalizeError(KIND, raw, "no such time on a clock")
    written = g.get("t_zone")
    zone = zones().get(written) if written else None
    return ParsedTime(raw, hour, minute, zone, minute_text is None)


def parse(text: str, locale: str = "en_US") -> ParsedTime:
    """Read ``text`` as one time of day (``locale`` is accepted for the common API)."""
    text = require_text(KIND, text)
    m = _full().fullmatch(fold(text))
    if m is None:
        raise NormalizeError(KIND, text, "not a time of day (9:30, 4 p.m., 14:45 Uhr)")
    return from_groups(text, m.groupdict())


def is_valid(text: object, locale: str = "en_US") -> bool:
    """Whether ``text`` reads as a time of day. Never raises."""
    try:
        parse(text, locale)  # type: ignore[arg-type]
    except NormalizeError:
        return False
    return True


def canonical_forms(value: ParsedTime) -> tuple[str, ...]:
    """The keys a data time can support this one under: ``HH:MM`` (the zone is applied
    when data timestamps are compared, not by key)."""
    return (f"{value.hour:02d}:{value.minute:02d}",)


@lru_cache(maxsize=64)
def locale_zones(locale: str) -> tuple[str, ...]:
    """The time zones of ``locale``'s territory (CLDR, through Babel): where a time
    written without a zone in that locale is most likely read ("ore 17:30" in it_IT is
    Rome's). Empty for a locale without a territory."""
    from babel.core import Locale, UnknownLocaleError, get_global

    try:
        territory = Locale.parse(locale).territory
    except (ValueError, UnknownLocaleError):
        return ()
    return tuple(get_global("territory_zones").get(territory or "", ()))
