"""The audit-log tests' databases: an empty PostgreSQL (or a skip saying how to get one)
and the rows a log holds, in the order written."""

from __future__ import annotations

import os

import pytest
from sqlalchemy import create_engine, select, text
from verifier.api.audit import verifications


def empty_postgres_url() -> str:
    """The test PostgreSQL's URL with no verifications table; skips where there is none."""
    url = os.environ.get("VERIFIER_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("no PostgreSQL: set VERIFIER_TEST_POSTGRES_URL (.ci/run starts a server and sets it)")
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE IF EXISTS verifications"))
    engine.dispose()
    return url


def audit_rows(url: str) -> list[dict]:
    """Every record of the audit log at ``url``, oldest first."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(select(verifications).order_by(verifications.c.id))]
    finally:
        engine.dispose()
