"""Times of day against the data's moments: a time written with a zone is read in it;
one without, in UTC, in each moment's own offset and in the time of the answer
locale's country ("ore 17:30" in it_IT against "2026-11-27T16:30:00Z")."""

from __future__ import annotations

import datetime as dt
import functools
import zoneinfo

from verifier.normalizers import times

from ..extract import Mention
from ..index.haystack import Haystack, LeafId


def time_leaves(mention: Mention, hay: Haystack) -> list[LeafId]:
    """The leaves stating the moment or time of day of a time mention."""
    return [leaf for leaf, _ in time_hits(mention, hay)]


def time_hits(mention: Mention, hay: Haystack) -> list[tuple[LeafId, str]]:
    """(leaf, the leaf's time as read) of every leaf whose time is the mention's."""
    hh, mm = (int(x) for x in mention.keys[0].split(":"))
    within = mention.within_minutes or 1
    day = mention.keys[1] if len(mention.keys) > 1 else None
    hits: list[tuple[LeafId, str]] = []
    for leaf, instant in hay.instants:
        for zone in _zones_to_read(mention.unit, instant, hay.locale):
            local = instant.astimezone(zone)
            minutes = abs((local.hour * 60 + local.minute) - (hh * 60 + mm))
            if min(minutes, 1440 - minutes) <= within and (day is None or _on_day(local, day)):
                hits.append((leaf, f"{local:%H:%M} {local.tzname()}"))
                break
    if day is None:
        for leaf, clock, zone_name in hay.clock_times:
            if clock == mention.keys[0] and (zone_name is None or mention.unit in (None, zone_name)):
                hits.append((leaf, clock))
    return hits


def _zones_to_read(written: str | None, instant: dt.datetime, locale: str) -> list[dt.tzinfo]:
    """The written zone; else UTC, the moment's own offset and the locale's country's
    time, where that country keeps at most two offsets (Italy, Japan; not the US)."""
    if written:
        return [_zone(written)]
    own = instant.tzinfo
    return [dt.UTC] + ([own] if own is not None and instant.utcoffset() != dt.timedelta(0) else []) + _local(locale)


@functools.lru_cache(maxsize=64)
def _local(locale: str) -> list[dt.tzinfo]:
    """The zones of ``locale``'s country if they keep at most two offsets in winter and
    summer together (read once per locale: asked for every moment of the data)."""
    zones = [_zone(name) for name in times.locale_zones(locale)]
    offsets = {dt.datetime(2026, month, 1, tzinfo=dt.UTC).astimezone(z).utcoffset() for z in zones for month in (1, 7)}
    return zones[:4] if len(offsets) <= 2 else []


@functools.lru_cache(maxsize=64)
def _zone(name: str) -> dt.tzinfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):  # no tz database on this machine
        return dt.UTC


def _on_day(local: dt.datetime, day: str) -> bool:
    """Whether ``local`` falls on ``day`` (a date key: 2026-12-10, 2026-12, --12-10)."""
    if day.startswith("--"):
        return f"--{local:%m-%d}" == day
    return local.date().isoformat().startswith(day)
