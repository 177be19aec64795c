"""Redaction of audit records (``VERIFIER_AUDIT_REDACT``).

A redacted record keeps no answer or question text: the answer and each flagged item's
text are kept as a keyed HMAC-SHA256 (``VERIFIER_REDACTION_KEY``), so whoever reads the
log cannot reverse a short figure ("1.4%") by hashing a dictionary of candidates, while
whoever holds the key can still check whether a given text was logged. Of the request's
``metadata`` only the allow-listed fields (``VERIFIER_AUDIT_METADATA_FIELDS``) are kept:
a ``conversation_id`` or a ``user_email`` is dropped unless listed.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from typing import Any

#: Metadata fields a redacted record keeps unless configured otherwise: what /v1/stats
#: groups by, nothing that names a user or a conversation.
DEFAULT_FIELDS = ("assistant", "model", "prompt_version", "route")


def text_bytes(text: str) -> bytes:
    # (a JSON body may carry a lone surrogate, "\ud800": hashed as sent, not refused)
    return text.encode("utf-8", "surrogatepass")


class Redactor:
    """Keyed digests and the metadata allow-list of redacted records."""

    def __init__(self, key: bytes, fields: Iterable[str] = DEFAULT_FIELDS):
        if not key:
            raise ValueError("a redaction key must not be empty")
        self._key = key
        self.fields = frozenset(fields)

    def digest(self, text: str) -> str:
        """HMAC-SHA256 of ``text`` under the key, as 64 hex digits."""
        return hmac.new(self._key, text_bytes(text), hashlib.sha256).hexdigest()

    def metadata(self, meta: dict[str, Any]) -> dict[str, Any]:
        """The allow-listed fields of ``meta``."""
        return {k: v for k, v in meta.items() if k in self.fields}
