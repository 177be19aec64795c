"""The audit log keeps what it promises: the durable mode loses no answered record to a
kill -9, one bad row costs only itself, and failed writes and drops show in /metrics
and /readyz (issue 18, defect 5)."""

from __future__ import annotations

import os
import signal
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select, text
from verifier.api.audit import TRUNCATED, AuditLog, verifications
from verifier.api.metrics import Metrics
from verifier.api.settings import Settings

from tests._audit_db import empty_postgres_url
from tests._server import Load, running, serving

QUOTE = [{"name": "get_quote", "output": {"symbol": "NVDA", "price": 131.24, "change_pct": 1.87}}]


def body(conversation_id: str = "c", **meta: Any) -> dict:
    return {"answer": "NVDA closed at $131.24, up 1.87%.", "tool_results": QUOTE,
            "metadata": {"conversation_id": conversation_id, **meta}}


def stored(url: str, column: str = "conversation_id") -> list[Any]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return list(conn.execute(select(verifications.c[column]).order_by(verifications.c.id)).scalars())
    finally:
        engine.dispose()


def metric(metrics_text: str, name: str) -> float:
    return next(float(line.rsplit(" ", 1)[1]) for line in metrics_text.splitlines() if line.startswith(name + " "))


def test_with_audit_sync_a_kill_9_under_load_loses_no_record_that_got_a_200(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    env = {"VERIFIER_AUDIT_URL": url, "VERIFIER_AUDIT_SYNC": "true"}
    with serving(env, tmp_path) as served, Load(served.base, body) as load:
        load.wait_for(200)
        os.kill(served.proc.pid, signal.SIGKILL)  # mid-load: eight requests in flight
        served.proc.wait(10)
    answered = load.answered
    assert len(answered) >= 200
    missing = set(answered) - set(stored(url))
    assert not missing, f"{len(missing)} of {len(answered)} answered requests have no audit record"


def _row(n: int, **change: Any) -> dict[str, Any]:
    row = {"created_at": datetime(2026, 1, 1), "metadata": {}, "tools": [], "locale": "en_US",
           "confidence": "high", "score": 1.0, "action": "show", "checked": 1, "flagged": 0,
           "answer_sha256": "0" * 64, "items": [], "suggestions": [], "judgements": [],
           "latency_ms": 1.0, "conversation_id": f"c{n}", "model": "m-1"}  # (every row the same keys)
    return {**row, **change}


@pytest.mark.parametrize("bad", [
    {"score": None},  # NOT NULL: the database refuses the row (IntegrityError)
    {"metadata": {"x": object()}},  # a value the JSON column cannot take (refused before it is sent)
], ids=["refused-by-the-database", "refused-by-the-column-type"])
def test_one_bad_row_loses_only_itself_not_its_batch(tmp_path: Path, bad: dict[str, Any]):
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    metrics = Metrics()
    audit = AuditLog(url, batch=200, flush_ms=50, metrics=metrics)
    try:
        for n in range(200):
            audit.record(_row(n, **bad) if n == 117 else _row(n))
        audit.flush()
    finally:
        audit.close()
    assert stored(url) == [f"c{n}" for n in range(200) if n != 117]
    assert (audit.written, audit.failed, audit.last_error) == (199, 1, None)
    exposition = metrics.render().decode()
    assert metric(exposition, "verifier_audit_written_total") == 199
    assert metric(exposition, "verifier_audit_failed_total") == 1


def test_on_postgres_a_model_over_its_varchar_loses_only_its_row(tmp_path: Path):
    url = empty_postgres_url()
    audit = AuditLog(url, batch=200, flush_ms=50)
    try:  # (record() takes the row as given: build_record would have cut the model to fit)
        for n in range(50):
            audit.record(_row(n, model="m" * 300) if n == 7 else _row(n))
        audit.flush()
    finally:
        audit.close()
    assert stored(url) == [f"c{n}" for n in range(50) if n != 7] and audit.failed == 1


def test_a_value_longer_than_its_column_is_cut_with_a_marker_and_kept_whole_in_metadata(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    model = "m" * 300  # PostgreSQL's VARCHAR(200) refused it, and its whole batch with it
    with running(Settings(audit_url=url, audit_flush_ms=20)) as base:
        assert httpx.post(f"{base}/v1/verify", json=body("c1", model=model)).status_code == 200
    (kept,) = stored(url, "model")
    assert len(kept) == 200 and kept.endswith(TRUNCATED) and kept.startswith("m" * 150)
    assert stored(url, "metadata")[0]["model"] == model


def _drop_table(url: str) -> None:
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE verifications"))
    engine.dispose()


def test_failed_writes_show_in_metrics_and_make_readyz_not_ready_until_writes_succeed(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    with running(Settings(audit_url=url, audit_flush_ms=20)) as base:
        assert httpx.get(f"{base}/readyz").status_code == 200
        _drop_table(url)  # the database answers a ping but refuses every insert
        assert httpx.post(f"{base}/v1/verify", json=body("lost")).status_code == 200
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            ready = httpx.get(f"{base}/readyz")
            if ready.status_code == 503:
                break
            time.sleep(0.05)
        assert ready.status_code == 503 and ready.json()["status"] == "not_ready"
        writer = ready.json()["checks"]["audit_writer"]
        assert writer["status"].startswith("error: writes failing") and "no such table" in writer["status"]
        deadline = time.monotonic() + 5
        while metric(httpx.get(f"{base}/metrics").text, "verifier_audit_failed_total") < 1:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        # the table back: the next write succeeds and the service is ready again
        from verifier.api.audit import metadata
        engine = create_engine(url)
        metadata.create_all(engine)
        engine.dispose()
        assert httpx.post(f"{base}/v1/verify", json=body("kept")).status_code == 200
        httpx.get(f"{base}/v1/stats")  # (waits for the writer)
        ready = httpx.get(f"{base}/readyz")
        assert ready.status_code == 200 and ready.json()["checks"]["audit_writer"]["failed"] == 1
        exposition = httpx.get(f"{base}/metrics").text
        assert metric(exposition, "verifier_audit_written_total") == 1
        assert metric(exposition, "verifier_audit_dropped_total") == 0
    assert stored(url) == ["kept"]


def test_with_audit_sync_a_record_that_cannot_be_written_answers_503_not_200(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    with running(Settings(audit_url=url, audit_sync=True)) as base:
        assert httpx.post(f"{base}/v1/verify", json=body("first")).status_code == 200
        assert stored(url) == ["first"]  # committed before the answer: no flush needed
        _drop_table(url)
        r = httpx.post(f"{base}/v1/verify", json=body("refused"), timeout=10)
        assert r.status_code == 503 and r.json()["error"] == "audit_unavailable"
        assert set(r.json()) == {"error", "message", "field", "errors"}
        assert "verifier_verifications_total{" in httpx.get(f"{base}/metrics").text  # the first only
        assert metric(httpx.get(f"{base}/metrics").text, "verifier_audit_failed_total") == 1


def test_a_full_queue_drops_and_counts_and_readyz_says_so(tmp_path: Path):
    metrics = Metrics()
    audit = AuditLog(f"sqlite:///{tmp_path / 'audit.db'}", flush_ms=10, max_queue=1, metrics=metrics)
    release = threading.Event()
    insert = audit._insert
    audit._insert = lambda rows: (release.wait(10), insert(rows))  # type: ignore[method-assign]
    try:
        audit.record(_row(0))
        deadline = time.monotonic() + 5
        while not audit.queue.empty():  # the writer holds row 0, blocked
            assert time.monotonic() < deadline
            time.sleep(0.005)
        audit.record(_row(1))  # queued
        audit.record(_row(2))  # dropped
        assert audit.health()["status"] == "error: queue full, records are dropped"
        assert audit.health()["dropped"] == 1
        assert metric(metrics.render().decode(), "verifier_audit_dropped_total") == 1
    finally:
        release.set()
        audit.close()
    assert audit.written == 2 and audit.health()["status"] != "ok"  # (closed: the thread stopped)
