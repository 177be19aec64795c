"""Times of day in text, each with its zone and, when a date is written beside it, its
day: the extractor's date-time pass."""

from __future__ import annotations

import re

from verifier.normalizers import NormalizeError, times

from .mention import Mention, claim, is_claimed

#: Between a date and the time of day it goes with: "Dec 10, 10:00", "Dec 10 at 10:00".
_DATE_TIME_GAP = re.compile(r"[ ,]*(?:at|um|alle|à|a las|,)?[ ]*", re.IGNORECASE)
#: Between a time of day and the date after it: "12:00 on 5 November", "14:45 am 29. Oktober".
_TIME_DATE_GAP = re.compile(r"[ ,]*(?:on|am|le|il|el|del)?[ ]*", re.IGNORECASE)
#: A time zone said in brackets for the times around it: "(times ET)", "(ET)", "(all times UTC)".
_ZONE_NOTE = re.compile(r"""(?x)
    \([^()]{0,20}?(?<![\w])([A-Z]{1,4})\)                                 # "(ET)", "(times ET)"
  | (?i:\b(?:all[ ])?(?:times?|zeiten|heures?|orari|horas?)(?:[ ]in)?[ ]+)  # "all times in", "Zeiten"
    ([A-Z]{1,4})\b                                                        # the zone: "UTC"
""")


def _zone_before(folded: str, start: int, earlier: list[Mention]) -> str | None:
    """The zone of the times before ``start``: the last zone said for them ("(ET)",
    "(times ET)", "all times UTC", "Zeiten MEZ"), or the zone written with the last time
    that wrote one, whichever comes later."""
    noted = [(m.start(), times.zones()[zone]) for m in _ZONE_NOTE.finditer(folded, 0, start)
             if (zone := m.group(1) or m.group(2)) in times.zones()]
    written = [(m.start, m.unit) for m in earlier if m.unit and times.ZONE_WRITTEN.search(m.text)]
    found = max(noted + written, default=None)
    return found[1] if found else None


def time_mentions(pattern: re.Pattern[str], text: str, folded: str, claimed: bytearray,
              found: list[Mention]) -> list[Mention]:
    """Times of day ("9:30 ET", "4 p.m.", "14:45 Uhr MEZ"). A time with no zone takes
    the zone the text names last before it ("(times ET): ... 10:30 p.m."); a date
    written right before or after it ("Dec 10, 10:00 a.m.", "12:00 on 5 November
    2026") makes one date-time mention spanning both (the date's own mention is
    removed from ``found``): ``keys`` is (HH:MM, the date's key)."""
    out: list[Mention] = []
    if ":" not in folded and "m" not in folded.lower():
        return out
    dated = {m.end: m for m in found if m.kind == "date" and m.value}
    dated_after = {m.start: m for m in found if m.kind == "date" and m.value}
    for m in pattern.finditer(folded):
        if is_claimed(claimed, m.start(), m.end()):
            continue
        raw = text[m.start():m.end()]
        try:
            parsed = times.from_groups(raw, m.groupdict())
        except NormalizeError:
            continue  # "25:00", "13 pm": no time of day; a ratio or score like it is no claim either
        zone = parsed.zone or _zone_before(folded, m.start(), out)
        keys: tuple[str, ...] = (f"{parsed.hour:02d}:{parsed.minute:02d}",)
        day = next((d for end, d in dated.items() if 0 <= m.start() - end <= 6
                    and _DATE_TIME_GAP.fullmatch(folded[end:m.start()])), None)
        if day is None:  # "12:00 on 5 November 2026"
            day = next((d for start, d in dated_after.items() if 0 <= start - m.end() <= 5
                        and _TIME_DATE_GAP.fullmatch(folded[m.end():start])), None)
        start, end = m.start(), m.end()
        if day is not None and day.value:  # one date-time: the date is checked with the time
            keys += (day.value,)
            found.remove(day)
            start, end = min(start, day.start), max(end, day.end)
        claim(claimed, start, end)
        out.append(Mention("time", text[start:end], start, end, keys[0], unit=zone, keys=keys,
                           within_minutes=30 if parsed.to_the_hour else 1))
    return out
