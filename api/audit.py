"""The audit log: every decision the service makes, written off the request path.

A request hands its record to :meth:`AuditLog.record` (a queue put, no I/O); one writer
thread inserts records in batches. :meth:`AuditLog.close` drains the queue, so a graceful
shutdown loses nothing; a killed process loses what was queued (at most ``flush_ms`` of
records). :meth:`AuditLog.write` commits records at once instead (the durable mode,
``VERIFIER_AUDIT_SYNC``). A batch the database refuses is retried row by row, so one bad
record costs only itself. SQLite (a file, the default) and PostgreSQL share one schema
through SQLAlchemy Core. With ``redact`` the answer and question are not kept (see
:mod:`api.redact`).
"""

from __future__ import annotations

import hashlib
import logging
import queue
import threading
import time
import uuid
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
    inspect,
    select,
)
from sqlalchemy.exc import DataError, DBAPIError, IntegrityError, SQLAlchemyError, StatementError

from verifier import Report, VerifierError

from .metrics import Metrics
from .redact import Redactor, text_bytes

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
    # added later (a log created before them gets them on open, see _add_columns): null in
    # the records written before
    Column("audit_id", String(36), unique=True, comment="the Report's audit_id: a UUID4"),
    Column("request_id", String(128), comment="the request's X-Request-ID"),
)

#: Columns added after the first release: an existing table gets them with ALTER TABLE.
_ADDED = ("audit_id", "request_id")

_STOP = object()

#: What ends a value cut to its column's length (the full value stays in ``metadata``).
TRUNCATED = "…[truncated]"


def _sha(text: str) -> str:
    return hashlib.sha256(text_bytes(text)).hexdigest()


def build_record(report: Report, answer: str, question: str | None, tool_names: list[str],
                 meta: dict[str, Any], locale: str, latency_ms: float,
                 redactor: Redactor | None = None, request_id: str | None = None) -> dict[str, Any]:
    """The row for one verification (cheap: plain dicts, no I/O); redacted when a
    ``redactor`` is given. Its ``audit_id`` is the report's, or a new UUID4."""
    items = []
    for item in report.items:
        if item.flagged:
            entry: dict[str, Any] = {"kind": item.kind, "status": item.status, "start": item.start,
                                     "end": item.end}
            if redactor is not None:
                entry["text_hmac"] = redactor.digest(item.text)
            else:
                entry.update(text=item.text, value=item.value, reason=item.reason)
            items.append(entry)
    judgements = [j.model_dump(mode="json") for j in getattr(report, "judgements", [])]
    if redactor is not None:
        meta = redactor.metadata(meta)
        for j in judgements:
            j.pop("sentence", None)
            j.pop("quote", None)
    return _fitted(_storable({
        "created_at": datetime.now(UTC).replace(tzinfo=None),
        "assistant": meta.get("assistant"), "model": meta.get("model"),
        "prompt_version": meta.get("prompt_version"), "conversation_id": meta.get("conversation_id"),
        "metadata": meta, "tools": tool_names, "locale": locale,
        "confidence": report.confidence, "score": report.score, "action": report.action,
        "checked": report.checked, "flagged": report.flagged,
        "answer": None if redactor is not None else answer,
        "answer_sha256": redactor.digest(answer) if redactor is not None else _sha(answer),
        "question": None if redactor is not None or question is None else question,
        "items": items,
        "suggestions": [{"tool": s.tool, "field": s.field, "expression": s.expression, "text": s.text}
                        for s in report.suggestions],
        "judgements": judgements,
        "latency_ms": round(latency_ms, 3),
        "audit_id": report.audit_id or str(uuid.uuid4()), "request_id": request_id,
    }))


#: The length of each bounded text column (PostgreSQL refuses a longer value).
_LENGTHS = {c.name: c.type.length for c in verifications.columns
            if isinstance(c.type, String) and not isinstance(c.type, Text) and c.type.length}


def _fitted(row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with a value longer than its column cut to fit, ending in TRUNCATED
    (a metadata.model of 300 characters would make PostgreSQL refuse the row)."""
    for name, length in _LENGTHS.items():
        value = row.get(name)
        if isinstance(value, str) and len(value) > length:
            row[name] = value[:length - len(TRUNCATED)] + TRUNCATED
    return row


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


def _add_columns(engine: Engine) -> None:
    """Give a table created by an earlier version the columns added since (nullable, so
    its old records stay as they are); a no-op on a current table."""
    have = {c["name"] for c in inspect(engine).get_columns(verifications.name)}
    missing = [verifications.c[name] for name in _ADDED if name not in have]
    if not missing:
        return
    with engine.begin() as conn:
        for column in missing:
            kind = column.type.compile(dialect=engine.dialect)
            conn.exec_driver_sql(f"ALTER TABLE {verifications.name} ADD COLUMN {column.name} {kind}")
            if column.unique:
                conn.exec_driver_sql(f"CREATE UNIQUE INDEX IF NOT EXISTS ix_{verifications.name}_{column.name} "
                                     f"ON {verifications.name} ({column.name})")
    log.info("audit: added columns %s to %s", ", ".join(c.name for c in missing), engine.url)


class AuditFailed(Exception):
    """A record the durable mode could not commit (the request answers 503)."""

    def __init__(self, reason: str):
        super().__init__(f"the audit record could not be written ({reason}); nothing was answered")


def _row_fault(exc: BaseException) -> bool:
    """A refusal that is a row's own fault (a value its column rejects, or one that
    cannot be sent at all), not the database's: its batch is written row by row."""
    if isinstance(exc, (DataError, IntegrityError, ValueError, TypeError)):
        return True
    return isinstance(exc, StatementError) and not isinstance(exc, DBAPIError)


class AuditLog:
    """A batching background writer over one database (or, in the durable mode, the
    caller's own commits through :meth:`write`)."""

    def __init__(self, url: str, *, batch: int = 200, flush_ms: int = 200, max_queue: int = 100_000,
                 metrics: Metrics | None = None, retry_s: float = 0.2):
        self.engine = make_engine(url)
        for attempt in range(5):
            try:
                metadata.create_all(self.engine)
                _add_columns(self.engine)
                break
            except SQLAlchemyError as exc:
                # worker processes starting together race to create the table: the loser
                # sees "already exists" (or a lock) and finds the table on the next try
                if attempt == 4:
                    raise VerifierError(f"audit log: cannot open {self.engine.url!r}: {exc}") from None
                time.sleep(0.1 * (attempt + 1))
        self.batch, self.flush_s, self.retry_s = batch, flush_ms / 1000, retry_s
        self.metrics = metrics
        self.queue: queue.Queue[Any] = queue.Queue(maxsize=max_queue)
        self.written = self.dropped = self.failed = 0
        #: why the last write failed, while the database refuses writes (None once one succeeds)
        self.last_error: str | None = None
        self._lock = threading.Lock()  # the counters: the writer thread and the verify threads
        self._thread = threading.Thread(target=self._run, name="audit-writer", daemon=True)
        self._thread.start()

    def record(self, row: dict[str, Any]) -> None:
        """Queue ``row`` for writing; never blocks (a full queue drops it and counts it)."""
        try:
            self.queue.put_nowait(row)
        except queue.Full:
            self._count("dropped", 1)

    def write(self, rows: list[dict[str, Any]]) -> None:
        """Commit ``rows`` now (the durable mode); raise AuditFailed unless every one of
        them is in the database when this returns."""
        if self._write(rows) < len(rows):
            raise AuditFailed(self.last_error or "a record was refused")

    def health(self) -> dict[str, Any]:
        """The writer's state for /readyz: ``ok`` unless its thread died, its last write
        failed or its queue is full (records are being dropped)."""
        if not self._thread.is_alive():
            status = "error: the writer thread stopped"
        elif self.last_error is not None:
            status = f"error: writes failing ({self.last_error})"
        elif self.queue.full():
            status = "error: queue full, records are dropped"
        else:
            status = "ok"
        return {"status": status, "queued": self.queue.qsize(), "written": self.written,
                "failed": self.failed, "dropped": self.dropped}

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
                try:
                    self._write(pending)
                except Exception:  # (the writer thread must outlive any one batch)
                    log.exception("audit: %d records could not be written", len(pending))
                    self._count("failed", len(pending))
            for _ in range(len(pending) + (1 if stopping else 0)):
                self.queue.task_done()

    def _insert(self, rows: list[dict[str, Any]]) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(verifications), rows)

    def _write(self, rows: list[dict[str, Any]]) -> int:
        """Insert ``rows``; the number written. A batch the database refuses for a
        reason of its own (down, locked) is tried three times, then counted as failed;
        a batch with a value a column refuses is written row by row at once, so one bad
        row loses only itself."""
        for attempt in range(3):
            try:
                self._insert(rows)
            except Exception as exc:
                if _row_fault(exc):
                    break
                if not isinstance(exc, SQLAlchemyError):
                    raise
                self.last_error = _reason(exc)
                log.warning("audit write of %d records failed (attempt %d): %s", len(rows), attempt + 1,
                            self.last_error)
                if attempt < 2:
                    time.sleep(self.retry_s * (attempt + 1))
            else:
                self.last_error = None
                self._count("written", len(rows))
                return len(rows)
        else:
            self._count("failed", len(rows))
            log.error("audit: %d records could not be written (%s)", len(rows), self.last_error)
            return 0
        written = 0
        for row in rows:
            try:
                self._insert([row])
            except Exception as exc:
                if not _row_fault(exc) and not isinstance(exc, SQLAlchemyError):
                    raise
                self._count("failed", 1)
                log.error("audit: a record was refused and is lost (%s)", _reason(exc))
                if not _row_fault(exc):
                    self.last_error = _reason(exc)
            else:
                written += 1
                self.last_error = None
        self._count("written", written)
        return written

    def _count(self, what: str, n: int) -> None:
        with self._lock:
            setattr(self, what, getattr(self, what) + n)
        if self.metrics is not None:
            getattr(self.metrics, f"audit_{what}").inc(n)


def _reason(exc: BaseException) -> str:
    """The first line of a database error, without SQLAlchemy's parameter dump."""
    orig = getattr(exc, "orig", None) if isinstance(exc, DBAPIError) else None
    return (str(orig or exc).splitlines() or [type(exc).__name__])[0][:300]
