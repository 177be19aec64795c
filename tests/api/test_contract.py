"""The smaller contract gaps of issue 18 (defect 7), over real HTTP: what is not UTF-8 JSON
is 415, /v1/stats reads and echoes ISO 8601 with an offset only, and a client that is slow
to send its body or idles on a kept-alive connection does not hold it."""

from __future__ import annotations

import json
import logging
import re
import socket
import time

import httpx
import pytest
from verifier.api.settings import Settings

from tests._server import running

BODY = {"answer": "NVDA closed at $131.24.", "tool_results": [{"name": "q", "output": {"price": 131.24}}]}
SHAPE = {"error", "message", "field", "errors"}


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('contract') / 'audit.db'}"
    with running(Settings(audit_url=url, audit_flush_ms=20, body_timeout_s=0.5, keep_alive_s=1)) as served:
        yield served


def _is_415(r: httpx.Response, words: str) -> None:
    assert r.status_code == 415, r.text
    assert set(r.json()) == SHAPE and r.json()["error"] == "unsupported_media_type" and r.json()["field"] == "body"
    assert words in r.json()["message"] and r.json()["errors"][0]["field"] == "body"


def test_form_and_multipart_bodies_are_415_not_422(base):
    _is_415(httpx.post(f"{base}/v1/verify", data={"answer": "x", "tool_results": "[]"}),
            "'application/x-www-form-urlencoded'")
    _is_415(httpx.post(f"{base}/v1/verify", files={"file": ("b.json", json.dumps(BODY))}), "'multipart/form-data'")
    _is_415(httpx.post(f"{base}/v1/verify/batch", data={"requests": "[]"}), "application/json")


@pytest.mark.parametrize("content_type, payload, words", [
    ("application/json; charset=latin-1", json.dumps(BODY).encode("latin-1"), "charset='latin-1'"),
    ('application/json; charset="UTF-16"', json.dumps(BODY).encode("utf-16"), "charset='utf-16'"),
    ("application/json", json.dumps(BODY).encode("utf-16"), "UTF-16"),  # with its BOM
    ("application/json", json.dumps(BODY).encode("utf-16-le"), "UTF-16"),  # without one
    ("application/json", json.dumps(BODY).encode("utf-32"), "UTF-16 or UTF-32"),
    ("application/json", json.dumps({**BODY, "question": "café"}, ensure_ascii=False).encode("latin-1"),
     "not UTF-8"),
], ids=["latin-1", "charset-utf-16", "utf-16-bom", "utf-16-le", "utf-32", "latin-1-bytes"])
def test_a_body_that_is_not_utf8_is_415(base, content_type, payload, words):
    _is_415(httpx.post(f"{base}/v1/verify", content=payload, headers={"content-type": content_type}), words)


@pytest.mark.parametrize("content_type", ["application/json; charset=utf-8", "application/json;charset=UTF8",
                                          "application/problem+json"])
def test_utf8_json_is_read_whatever_the_spelling(base, content_type):
    r = httpx.post(f"{base}/v1/verify", content=json.dumps({**BODY, "question": "café?"}, ensure_ascii=False),
                   headers={"content-type": content_type})
    assert r.status_code == 200, r.text
    bom = httpx.post(f"{base}/v1/verify", content=b"\xef\xbb\xbf" + json.dumps(BODY).encode(),
                     headers={"content-type": "application/json"})
    assert bom.status_code == 200  # RFC 8259: a parser may ignore a UTF-8 byte order mark


def test_stats_echoes_its_window_in_iso_8601_with_the_offset(base):
    r = httpx.get(f"{base}/v1/stats", params={"since": "2026-01-01T05:00:00+05:00", "until": "2026-02-01T00:00:00"})
    assert r.status_code == 200
    assert (r.json()["since"], r.json()["until"]) == ("2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z")
    assert httpx.get(f"{base}/v1/stats", params={"since": "2026-01-01"}).json()["since"] == "2026-01-01T00:00:00Z"
    assert httpx.get(f"{base}/v1/stats").json()["since"] is None


@pytest.mark.parametrize("value", ["0.5", "1700000000", "1700000000.5", "-1", "tomorrow"])
def test_stats_refuses_a_time_that_is_no_iso_8601_text(base, value):
    r = httpx.get(f"{base}/v1/stats", params={"until": value})
    assert r.status_code == 422 and set(r.json()) == SHAPE
    assert r.json()["field"] == "query.until" and "ISO 8601" in r.json()["message"]


def _raw(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=5)


def _read_all(sock: socket.socket, within: float) -> bytes:
    sock.settimeout(within)
    out = b""
    try:
        while chunk := sock.recv(65536):
            out += chunk
    except TimeoutError:
        pass
    return out


def test_a_body_sent_too_slowly_is_408_in_the_error_shape_and_the_connection_closes(base):
    payload = json.dumps(BODY).encode()
    with _raw(base) as sock:
        sock.sendall(b"POST /v1/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(payload) + payload[:10])  # and then nothing
        start = time.monotonic()
        answer = _read_all(sock, 3)  # the server answers and closes: recv returns b""
        took = time.monotonic() - start
    head, _, rest = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408") and b"connection: close" in head.lower(), answer
    assert set(json.loads(rest)) == SHAPE and json.loads(rest)["error"] == "timeout"
    assert 0.4 < took < 2.0
    assert httpx.get(f"{base}/healthz").status_code == 200


def test_an_idle_kept_alive_connection_is_closed_after_keep_alive_s(base):
    with _raw(base) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        sock.settimeout(5)
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        start = time.monotonic()
        sock.settimeout(4)
        assert sock.recv(65536) == b""  # closed by the server, not by our timeout (4 s)
        assert time.monotonic() - start < 2.5


def test_a_client_that_hangs_up_mid_body_is_logged_as_gone_not_as_a_failure(base, caplog):
    payload = json.dumps(BODY).encode()
    caplog.set_level(logging.INFO, logger="verifier.api")
    with _raw(base) as sock:
        sock.sendall(b"POST /v1/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(payload) + payload[:10])
        time.sleep(0.1)
    deadline = time.monotonic() + 3
    while not any("hung up" in r.getMessage() for r in caplog.records) and time.monotonic() < deadline:
        time.sleep(0.02)
    ours = [r for r in caplog.records if r.name == "verifier.api"]
    assert not [r for r in ours if r.levelno >= logging.ERROR], [r.getMessage() for r in ours]
    gone = [r for r in ours if "hung up" in r.getMessage()]
    assert gone and gone[0].levelno == logging.INFO and "10 of" in gone[0].getMessage(), [r.getMessage() for r in ours]
    assert re.search(r"\(request [0-9a-f-]{8,}\)", gone[0].getMessage()), gone[0].getMessage()  # traceable
    # counted as the 499 proxies log for a client that hung up, not as a 5xx
    metrics = httpx.get(f"{base}/metrics").text
    assert re.search(r'verifier_request_duration_seconds_count\{[^}]*status="499"[^}]*\} [1-9]', metrics), \
        [line for line in metrics.splitlines() if "duration_seconds_count" in line]
    assert not re.search(r'verifier_request_duration_seconds_count\{[^}]*status="5\d\d"', metrics)
    assert httpx.post(f"{base}/v1/verify", json=BODY).status_code == 200
