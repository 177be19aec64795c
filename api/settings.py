"""The service's settings: one object, read from ``VERIFIER_*`` environment variables.

Every field can be set as ``VERIFIER_<FIELD>`` (``VERIFIER_API_KEY=...``,
``VERIFIER_CORS_ORIGINS='["https://app.example"]'``); tests build a Settings directly.
"""

from __future__ import annotations

from functools import lru_cache

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from verifier import VerifierError

from .redact import DEFAULT_FIELDS


class Settings(BaseSettings):
    """Configuration of the HTTP service. Safe defaults: no auth, SQLite audit log."""

    model_config = SettingsConfigDict(env_prefix="VERIFIER_", extra="ignore")

    api_key: SecretStr | None = Field(
        None, description="When set, /v1/* requires 'Authorization: Bearer <key>'.")
    cors_origins: list[str] = Field(
        default_factory=list, description="Origins allowed to call the API from a browser.")
    audit_url: str | None = Field(
        "sqlite:///verifier-audit.db",
        description="SQLAlchemy URL of the audit log: sqlite:///file.db (default, in the working "
        "directory) or postgresql+psycopg://user:pass@host/db. Empty turns the audit log off.")
    audit_redact: bool = Field(
        False, description="Store answers redacted: keyed hashes (HMAC-SHA256 under redaction_key) "
        "and spans only, no answer or question text, and only the metadata fields in "
        "audit_metadata_fields. Needs redaction_key: the service refuses to start without it.")
    redaction_key: SecretStr | None = Field(
        None, description="The secret of the redacted log's HMAC-SHA256 (at least 16 characters; "
        "the same in every worker and across restarts, so equal texts keep equal hashes).")
    audit_metadata_fields: list[str] = Field(
        default_factory=lambda: list(DEFAULT_FIELDS), description="The metadata fields a "
        "redacted record keeps (the rest, such as conversation_id or user_email, are dropped).")
    audit_sync: bool = Field(
        False, description="Durable audit log: each record is committed before its response "
        "is sent (a failed write answers 503). Off, records are written in batches off the "
        "request path and a killed process loses up to audit_flush_ms of them.")
    audit_batch: int = Field(200, ge=1, description="Most records the audit writer inserts at once.")
    audit_flush_ms: int = Field(200, ge=1, description="Longest a record waits before it is written.")
    audit_queue: int = Field(100_000, ge=1, description="Records held in memory while the database "
                             "is slow; beyond it records are dropped and counted.")
    body_timeout_s: float = Field(
        10.0, gt=0, description="Longest a request body may take to arrive (408 beyond): a "
        "client that drips its body cannot hold a connection.")
    header_timeout_s: float = Field(
        10.0, gt=0, description="Longest a request line and its headers may take to arrive, from "
        "the connection opening or the previous response ending (408, connection closed): a "
        "client that drips its headers cannot hold a connection.")
    keep_alive_s: int = Field(
        5, ge=1, description="Longest an idle keep-alive connection stays open (uvicorn's "
        "timeout_keep_alive).")
    shutdown_timeout_s: float = Field(
        2.0, gt=0, description="Longest a graceful stop (SIGTERM, Ctrl-C) waits for the requests "
        "being answered (uvicorn's timeout_graceful_shutdown); those still running then are cut "
        "(their clients get no answer) and the process ends, after writing every queued audit "
        "record. A request whose body is still arriving is cut at once.")
    max_body_bytes: int = Field(5_000_000, ge=1, description="Largest request body (413 beyond).")
    max_answer_chars: int = Field(100_000, ge=1, description="Longest answer (413 beyond).")
    max_leaves: int = Field(200_000, ge=1, description="Most haystack leaves per request (413 beyond).")
    max_batch: int = Field(100, ge=1, description="Most answers in one batch request.")
    time_budget_ms: int = Field(
        5_000, ge=1, description="Longest one request may take, from its arrival (503 beyond). It "
        "is the verification's deadline: past it the work stops, and the judge gets what is left.")
    derive_max_work: int = Field(
        100_000, ge=0, description="Most derive work per answer (Policy.derive_max_work); a "
        "request's policy may lower it, a higher value is lowered to this.")
    max_derive_items: int = Field(
        50, ge=0, description="Most values per answer the derive stage searches "
        "(Policy.max_derive_items); a request's policy may lower it, not raise it.")
    judge_max_sentences: int = Field(
        8, ge=0, description="Most sentences judged per answer (Policy.judge_max_sentences); a "
        "request's policy may lower it, not raise it.")
    verify_threads: int = Field(
        1, ge=1, le=64, description="Threads per worker process that run verifications. "
        "Verification is CPU work under the GIL, so one thread is fastest; a second lets a "
        "short request pass one that is over its time budget. Scale with --workers instead.")
    haystack_cache: int = Field(
        256, ge=0, description="Haystacks kept by a hash of their tool results, so repeated "
        "verifications over the same results (retries, variants) do not re-index. 0 turns it off.")

    def check(self) -> None:
        """Raise VerifierError with one line when the settings cannot work together: a
        redacted audit log needs its key (one made up at start would differ per worker and
        per restart, so the hashes of one text would not match, silently)."""
        if self.audit_redact and self.audit_url:
            key = self.redaction_key.get_secret_value() if self.redaction_key else ""
            if len(key) < 16:
                raise VerifierError("settings: VERIFIER_AUDIT_REDACT needs VERIFIER_REDACTION_KEY, a "
                                    "secret of at least 16 characters (e.g. `python -c 'import secrets; "
                                    "print(secrets.token_hex(32))'`)")


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The settings from the environment, read once."""
    return Settings()
