"""An audit log created before the ``audit_id`` and ``request_id`` columns (issue 22) is
opened, not refused: the columns are added, the old records kept, and new records carry
both ids. Several workers opening one old file at once all start."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import (
    Column,
    Integer,
    MetaData,
    Table,
    create_engine,
    insert,
    inspect,
    select,
)
from verifier.api.audit import AuditFailed, AuditLog, build_record, verifications

from tests._audit_db import empty_postgres_url
from verifier import verify

TOOLS = [{"name": "q", "output": {"symbol": "NVDA", "price": 131.24}}]


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'old.db'}"
    return empty_postgres_url()


def _old_log(url: str) -> None:
    """The verifications table as the earlier version created it, with one record."""
    old = MetaData()
    columns = [Column(c.name, c.type, primary_key=c.primary_key, nullable=c.nullable)
               for c in verifications.columns if c.name not in ("audit_id", "request_id")]
    assert len(columns) == len(verifications.columns) - 2 and isinstance(columns[0].type, Integer)
    table = Table(verifications.name, old, *columns)
    engine = create_engine(url)
    old.create_all(engine)
    row = build_record(verify("NVDA at $131.24.", TOOLS), "NVDA at $131.24.", None, ["q"], {}, "en_US", 1.0)
    with engine.begin() as conn:
        conn.execute(insert(table), [{k: v for k, v in row.items() if k not in ("audit_id", "request_id")}])
    engine.dispose()


def test_an_old_log_gets_the_new_columns_and_keeps_its_records(url: str):
    _old_log(url)
    log = AuditLog(url, flush_ms=10)
    try:
        assert {"audit_id", "request_id"} <= {c["name"] for c in inspect(log.engine).get_columns("verifications")}
        report = verify("NVDA at $131.24.", TOOLS).model_copy(update={"audit_id": "a-1"})
        log.write([build_record(report, "NVDA at $131.24.", None, ["q"], {}, "en_US", 1.0, request_id="r-1")])
        with log.engine.connect() as conn:
            rows = conn.execute(select(verifications.c.audit_id, verifications.c.request_id)
                                .order_by(verifications.c.id)).all()
        assert [tuple(r) for r in rows] == [(None, None), ("a-1", "r-1")]
        # the id is unique: a second record under it is refused (and counted), not stored twice
        again = build_record(report, "x", None, [], {}, "en_US", 1.0)
        with pytest.raises(AuditFailed):
            log.write([again])
        assert log.failed == 1
    finally:
        log.close()


def test_workers_opening_one_old_log_together_all_start(url: str):
    _old_log(url)
    with ThreadPoolExecutor(4) as pool:
        logs = list(pool.map(lambda _: AuditLog(url), range(4)))
    for log in logs:
        log.close()
    engine = create_engine(url)
    names = [c["name"] for c in inspect(engine).get_columns("verifications")]
    engine.dispose()
    assert names.count("audit_id") == 1 and names.count("request_id") == 1


def test_a_record_without_a_report_id_gets_a_new_one():
    report = verify("NVDA at $131.24.", TOOLS)
    ids = {build_record(report, "a", None, [], {}, "en_US", 1.0)["audit_id"] for _ in range(3)}
    assert len(ids) == 3
