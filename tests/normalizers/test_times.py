"""Times of day: read with their zone and precision; every clock time round-trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from verifier.normalizers import NormalizeError, times


@pytest.mark.parametrize(("text", "key", "hour_only"), [
    ("9:30", "09:30", False), ("9:30 ET", "09:30 America/New_York", False), ("4 p.m.", "16:00", True),
    ("10:30 p.m. EST", "22:30 America/New_York", False), ("8.30am", "08:30", False), ("12 a.m.", "00:00", True),
    ("14:45 Uhr MEZ", "14:45 Europe/Berlin", False), ("08:02:15 UTC", "08:02 UTC", False), ("14.45 Uhr", "14:45", False),
])
def test_times_read_with_zone_and_precision(text, key, hour_only):
    parsed = times.parse(text)
    assert parsed.key == key and parsed.to_the_hour is hour_only


@pytest.mark.parametrize("text", ["25:00", "13 pm", "9:75", "0 a.m.", "noon", "9.30"])
def test_no_time_on_a_clock_is_refused(text):
    with pytest.raises(NormalizeError):
        times.parse(text)
    assert not times.is_valid(text)


@given(hour=st.integers(0, 23), minute=st.integers(0, 59))
def test_every_24_hour_time_round_trips(hour, minute):
    assert times.parse(f"{hour}:{minute:02d}").key == f"{hour:02d}:{minute:02d}"


@given(hour=st.integers(1, 12), minute=st.integers(0, 59), pm=st.booleans(),
       style=st.sampled_from(["{h}:{m:02d} {x}.m.", "{h}:{m:02d}{x}m", "{h}:{m:02d} {X}M"]))
def test_every_12_hour_time_reads_as_its_24_hour_twin(hour, minute, pm, style):
    text = style.format(h=hour, m=minute, x="p" if pm else "a", X="P" if pm else "A")
    assert times.parse(text).key == f"{hour % 12 + (12 if pm else 0):02d}:{minute:02d}"


def test_a_locales_country_gives_its_time_zones():
    assert times.locale_zones("it_IT") == ("Europe/Rome",)
    assert "Asia/Tokyo" in times.locale_zones("ja_JP")
    assert len(times.locale_zones("en_US")) > 2  # too many offsets to read a bare time by
    assert times.locale_zones("en") == () and times.locale_zones("xx-!!") == ()


def test_a_time_without_a_zone_is_read_in_the_answer_locales_country_too():
    from verifier import verify
    tools = [{"name": "q", "output": {"as_of": "2026-11-27T16:30:00Z", "yield": 3.52}}]
    def status(answer, locale):
        return next(i.status for i in verify(answer, tools, locale=locale, judge=False).items if i.kind == "time")
    assert status("Dati al 27 novembre 2026, ore 17:30.", "it_IT") == "normalized"  # Rome is UTC+1 then
    assert status("Dati al 27 novembre 2026, ore 18:30.", "it_IT") == "unsupported"
    assert status("As of 11:30 on Nov 27.", "en_US") == "unsupported"  # the US keeps many offsets
