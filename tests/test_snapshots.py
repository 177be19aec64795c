"""Every benchmark case's report is what tests/snapshots/reports.json recorded: a change
meant to keep behaviour (a restructuring, a speed-up) must leave every digest as it was.
A change meant to alter behaviour re-records them with ``python -m benchmarks.snapshot
--write`` in the same commit, beside its benchmark figures."""

from __future__ import annotations

import json

import pytest

from benchmarks import snapshot

STORED = json.loads(snapshot.SNAPSHOT.read_text())
SETS = snapshot.sets()


@pytest.mark.parametrize("name", sorted(SETS))
def test_reports_are_unchanged(name):
    source = SETS[name]
    if isinstance(source, str):
        pytest.skip(f"{name}: {source} (the snapshot reads ../shared beside the repository)")
    assert name in STORED, f"no snapshot of {name}: run python -m benchmarks.snapshot --write"
    done, _ = snapshot.compute({name})
    changed = snapshot.differences(STORED[name], done[name])
    assert not changed, (f"{len(changed)} of {len(done[name])} {name} reports changed (first: {changed[:8]}); "
                         "if the change is meant, re-record with python -m benchmarks.snapshot --write")


def test_a_changed_report_changes_its_digest():
    from verifier import verify

    tools = [{"name": "q", "output": {"symbol": "AAPL", "price": 142.3}}]
    same = snapshot.digest(verify("AAPL at $142.30.", tools, judge=False))
    assert same == snapshot.digest(verify("AAPL at $142.30.", tools, judge=False))
    assert same != snapshot.digest(verify("AAPL at $142.31.", tools, judge=False))
    assert snapshot.differences({"a": "1", "b": "2"}, {"a": "1", "b": "3", "c": "4"}) == ["b", "c"]
