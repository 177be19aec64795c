"""The audit log: every decision the service makes, written off the request path.

A request hands its record to :meth:`AuditLog.record` (a queue put, no I/O); one writer
thread inserts records in batches. :meth:`AuditLog.close` drains the queue, so a graceful
shutdown loses nothing. SQLite (a file, the default) and PostgreSQL share one schema
through SQLAlchemy Core. With ``redact`` the answer and question are not kept: only a
SHA-256 of each and, per flagged item, its kind, status, span and a hash of its text.
"""

from __future__ import annotations

import hashlib
import logging
import queue
import threading
import time
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Column,
    DateTime,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
)
from sqlalchemy.exc import SQLAlchemyError

from verifier import Report, VerifierError

log = logging.getLogger("verifier.audit")

metadata = MetaData()
verifications = Table(
    "verifications", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("created_at", DateTime, nullable=False, index=True, comment="UTC"),
    Column("assistant", String(200)),
    Column("model", String(200)),
    Column("prompt_version", String(200)),
    Column("conversation_id", String(200)),
    Column("metadata", JSON, nullable=False),
    Column("tools", JSON, nullable=False, comment="names of the tool results consulted"),
    Column("locale", String(40), nullable=False),
    Column("confidence", String(10), nullable=False),
    Column("score", Float, nullable=False),
    Column("action", String(20), nullable=False),
    Column("checked", Integer, nullable=False),
    Column("flagged", Integer, nullable=False),
    Column("answer", Text, comment="null when redacted"),
    Column("answer_sha256", String(64), nullable=False),
    Column("question", Text, comment="null when redacted"),
    Column("items", JSON, nullable=False, comment="flagged items: kind, status, span, value"),
    Column("suggestions", JSON, nullable=False),
    Column("judgements", JSON, nullable=False),
    Column("latency_ms", Float, nullable=False),
)

_STOP = object()


def _sha(text: str) -> str:
    # (a JSON body may carry a lone surrogate, "\ud800": hashed as sent, not refused)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def build_record(report: Report, answer: str, question: str | None, tool_names: list[str],
                 meta: dict[str, Any], locale: str, latency_ms: float, redact: bool) -> dict[str, Any]:
    """The row for one verification (cheap: plain dicts, no I/O)."""
    items = []
    for item in report.items:
        if item.flagged:
            entry: dict[str, Any] = {"kind": item.kind, "status": item.status, "start": item.start,
                                     "end": item.end}
            if redact:
                entry["text_sha256"] = _sha(item.text)
            else:
                entry.update(text=item.text, value=item.value, reason=item.reason)
            items.append(entry)
    judgements = [j.model_dump(mode="json") for j in getattr(report, "judgements", [])]
    if redact:
        for j in judgements:
            j.pop("sentence", None)
            j.pop("quote", None)
    return _storable({
        "created_at": datetime.now(UTC).replace(tzinfo=None),
        "assistant": meta.get("assistant"), "model": meta.get("model"),
        "prompt_version": meta.get("prompt_version"), "conversation_id": meta.get("conversation_id"),
        "metadata": meta, "tools": tool_names, "locale": locale,
        "confidence": report.confidence, "score": report.score, "action": report.action,
        "checked": report.checked, "flagged": report.flagged,
        "answer": None if redact else answer, "answer_sha256": _sha(answer),
        "question": None if redact or question is None else question,
        "items": items,
        "suggestions": [{"tool": s.tool, "field": s.field, "expression": s.expression, "text": s.text}
                        for s in report.suggestions],
        "judgements": judgements,
        "latency_ms": round(latency_ms, 3),
    })


def _storable(value: Any) -> Any:
    """``value`` with every string a database can store: a lone surrogate a JSON body
    escaped ("\\ud800") and a NUL (which PostgreSQL text refuses) are kept visible as
    their escapes, not dropped or refused. Walks with its own stack: metadata may nest
    as deep as the body reader allows."""
    if not isinstance(value, (dict, list)):
        return _storable_text(value) if isinstance(value, str) else value
    root: Any = {} if isinstance(value, dict) else []
    stack: list[tuple[Any, Any]] = [(value, root)]
    while stack:
        source, target = stack.pop()
        pairs = source.items() if isinstance(source, dict) else enumerate(source)
        for key, child in pairs:
            if isinstance(child, (dict, list)):
                copy: Any = {} if isinstance(child, dict) else []
                stack.append((child, copy))
            else:
                copy = _storable_text(child) if isinstance(child, str) else child
            if isinstance(target, dict):
                target[_storable_text(key) if isinstance(key, str) else key] = copy
            else:
                target.append(copy)
    return root


def _storable_text(value: str) -> str:
    if "\x00" in value:
        value = value.replace("\x00", "\\x00")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    return value


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL (readers do not block the writer) and a busy
    timeout (several worker processes may share the file)."""
    try:
        engine = create_engine(url, pool_pre_ping=True)
    except (SQLAlchemyError, ImportError, ValueError) as exc:
        raise VerifierError(f"audit log: cannot use {url!r}: {exc}") from None
    if engine.dialect.name == "sqlite":
        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(conn: Any, _record: Any) -> None:
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA busy_timeout=5000")
            cur.close()
    return engine


def check_audit(url: str) -> None:
    """Raise VerifierError with one clear line unless the audit database at ``url`` can
    be opened and answers."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        raise VerifierError(f"audit log: cannot open {engine.url!r}: {reason}") from None
    finally:
        engine.dispose()


class AuditLog:
    """A batching background writer over one database."""

    def __init__(self, url: str, *, batch: int = 200, flush_ms: int = 200, max_queue: int = 100_000):
        self.engine = make_engine(url)
        for attempt in range(5):
            try:
                metadata.create_all(self.engine)
                break
            except SQLAlchemyError as exc:
                # worker processes starting together race to create the table: the loser
                # sees "already exists" (or a lock) and finds the table on the next try
                if attempt == 4:
                    raise VerifierError(f"audit log: cannot open {self.engine.url!r}: {exc}") from None
                time.sleep(0.1 * (attempt + 1))
        self.batch, self.flush_s = batch, flush_ms / 1000
        self.queue: queue.Queue[Any] = queue.Queue(maxsize=max_queue)
        self.written = self.dropped = self.failed = 0
        self._thread = threading.Thread(target=self._run, name="audit-writer", daemon=True)
        self._thread.start()

    def record(self, row: dict[str, Any]) -> None:
        """Queue ``row`` for writing; never blocks (a full queue drops it and counts it)."""
        try:
            self.queue.put_nowait(row)
        except queue.Full:
            self.dropped += 1

    def flush(self, timeout: float = 10.0) -> None:
        """Wait until every queued record is written (for readers that need them now)."""
        deadline = time.monotonic() + timeout
        while self.queue.unfinished_tasks and time.monotonic() < deadline:
            time.sleep(0.005)

    def close(self) -> None:
        """Write what is queued and stop the writer."""
        self.queue.put(_STOP)
        self._thread.join()
        self.engine.dispose()

    def rows(self, since: datetime | None = None, until: datetime | None = None) -> list[dict[str, Any]]:
        """Records in [since, until), oldest first."""
        query = select(verifications).order_by(verifications.c.id)
        if since is not None:
            query = query.where(verifications.c.created_at >= since)
        if until is not None:
            query = query.where(verifications.c.created_at < until)
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def _run(self) -> None:
        stopping = False
        while not stopping:
            pending: list[dict[str, Any]] = []
            try:
                first = self.queue.get(timeout=self.flush_s)
            except queue.Empty:
                continue
            deadline = time.monotonic() + self.flush_s
            item = first
            while True:
                if item is _STOP:
                    stopping = True
                else:
                    pending.append(item)
                if stopping or len(pending) >= self.batch:
                    break
                try:
                    item = self.queue.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    break
            if pending:
                self._write(pending)
            for _ in range(len(pending) + (1 if stopping else 0)):
                self.queue.task_done()

    def _write(self, rows: list[dict[str, Any]]) -> None:
        for attempt in range(3):
            try:
                with self.engine.begin() as conn:
                    conn.execute(insert(verifications), rows)
                self.written += len(rows)
                return
            except (SQLAlchemyError, ValueError) as exc:  # (the writer thread must outlive any one batch)
                log.warning("audit write of %d records failed (attempt %d): %s", len(rows), attempt + 1, exc)
                time.sleep(0.2 * (attempt + 1))
        self.failed += len(rows)
        log.error("audit: %d records could not be written", len(rows))
