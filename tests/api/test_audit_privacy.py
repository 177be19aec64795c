"""A redacted audit log cannot be read back by hashing guesses and keeps no user or
conversation identifiers (issue 18, defect 6)."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from verifier.api.app import create_app
from verifier.api.settings import Settings

from tests._audit_db import audit_rows
from tests._server import running
from verifier import VerifierError

KEY = "a-test-key-of-32-characters-long"
QUOTE = [{"name": "get_quote", "output": {"symbol": "NVDA", "price": 131.24, "change_pct": 1.87}}]
META = {"assistant": "desk", "model": "m-1", "prompt_version": "v7", "route": "chat",
        "conversation_id": "conv-8f2c", "user_email": "jane@example.com"}




def verify_redacted(url: str, answer: str = "NVDA closed at $139.40, up 1.87%.", **settings) -> dict:
    with running(Settings(audit_url=url, audit_redact=True, redaction_key=KEY, **settings)) as base:
        r = httpx.post(f"{base}/v1/verify", json={"answer": answer, "tool_results": QUOTE, "metadata": META})
        assert r.status_code == 200
    (row,) = audit_rows(url)
    return row


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_a_redacted_flagged_text_does_not_reverse_from_a_dictionary(tmp_path: Path):
    row = verify_redacted(f"sqlite:///{tmp_path / 'a.db'}")
    (item,) = row["items"]  # "$139.40": not in the data
    dictionary = [f"${p / 100:.2f}" for p in range(10_000, 20_000)]
    assert item["text_hmac"] not in {_sha(word) for word in dictionary}
    # whoever holds the key can still tell which text it was
    assert item["text_hmac"] == hmac.new(KEY.encode(), b"$139.40", hashlib.sha256).hexdigest()
    answer = "NVDA closed at $139.40, up 1.87%."
    assert row["answer"] is None and row["answer_sha256"] != _sha(answer)
    assert row["answer_sha256"] == hmac.new(KEY.encode(), answer.encode(), hashlib.sha256).hexdigest()


def test_a_redacted_record_keeps_only_the_allow_listed_metadata(tmp_path: Path):
    row = verify_redacted(f"sqlite:///{tmp_path / 'a.db'}")
    assert row["metadata"] == {"assistant": "desk", "model": "m-1", "prompt_version": "v7", "route": "chat"}
    assert row["conversation_id"] is None and (row["assistant"], row["model"]) == ("desk", "m-1")
    stored = json.dumps(row, default=str)
    assert "jane@example.com" not in stored and "conv-8f2c" not in stored


def test_the_allow_list_is_configurable(tmp_path: Path):
    row = verify_redacted(f"sqlite:///{tmp_path / 'a.db'}", audit_metadata_fields=["conversation_id"])
    assert row["metadata"] == {"conversation_id": "conv-8f2c"} and row["conversation_id"] == "conv-8f2c"
    assert row["model"] is None


def test_without_redaction_the_record_is_kept_whole(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'a.db'}"
    with running(Settings(audit_url=url)) as base:
        httpx.post(f"{base}/v1/verify", json={"answer": "NVDA closed at $139.40.", "tool_results": QUOTE,
                                            "metadata": META})
    (row,) = audit_rows(url)
    assert row["metadata"] == META and row["items"][0]["text"] == "$139.40"


def test_redaction_without_a_key_is_refused_at_start(tmp_path: Path):
    with pytest.raises(VerifierError, match="VERIFIER_REDACTION_KEY"):
        create_app(Settings(audit_url="sqlite:///x.db", audit_redact=True))
    with pytest.raises(VerifierError, match="at least 16"):
        create_app(Settings(audit_url="sqlite:///x.db", audit_redact=True, redaction_key="short"))
    create_app(Settings(audit_url="", audit_redact=True))  # no audit log: nothing to redact, no key needed
    env = {**os.environ, "VERIFIER_AUDIT_URL": f"sqlite:///{tmp_path / 'a.db'}", "VERIFIER_AUDIT_REDACT": "true"}
    env.pop("VERIFIER_REDACTION_KEY", None)
    done = subprocess.run([sys.executable, "-m", "verifier.cli", "serve", "--port", "1"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode != 0 and "VERIFIER_REDACTION_KEY" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
