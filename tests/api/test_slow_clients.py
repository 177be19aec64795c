"""Clients that send their request line and headers slowly do not hold the service (issue
18, defect 7): over real TCP against a real uvicorn server, with both of uvicorn's HTTP/1.1
protocols. A connection whose headers are not in ``header_timeout_s`` after it opened (or
after its previous response) gets a 408 in the error shape and is closed, while /healthz
keeps answering; a request whose headers came in time is not cut, however long it takes.
A graceful stop does not wait for a client still sending its body.
"""

from __future__ import annotations

import json
import logging
import re
import selectors
import socket
import threading
import time

import httpx
import pytest
from verifier.api.server import HttpToolsHeaderDeadline
from verifier.api.settings import Settings

from tests._server import running

HEADER_TIMEOUT = 1.0
SLOW_CLIENTS = 50
SHAPE = {"error", "message", "field", "errors"}
BODY = json.dumps({"answer": "NVDA closed at $131.24.",
                   "tool_results": [{"name": "q", "output": {"price": 131.24}}]}).encode()


@pytest.fixture(scope="module", params=["h11", "httptools"])
def base(request):
    if request.param == "httptools" and HttpToolsHeaderDeadline is None:
        pytest.skip("httptools is not installed (it comes with uvicorn[standard])")
    settings = Settings(audit_url="", header_timeout_s=HEADER_TIMEOUT, body_timeout_s=5, keep_alive_s=5)
    with running(settings, http=request.param) as url:
        yield url


def _connect(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=5)


def _until_closed(sock: socket.socket, within: float) -> tuple[bytes, float]:
    """What the server sends until it closes the connection, and when it closed (seconds
    from now; ``within`` if it did not)."""
    start, out = time.monotonic(), b""
    sock.settimeout(within)
    try:
        while chunk := sock.recv(65536):
            out += chunk
    except TimeoutError:
        return out, within
    return out, time.monotonic() - start


def _is_408(answer: bytes) -> None:
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408") and b"connection: close" in head.lower(), answer
    assert re.search(rb"\r\nx-request-id: [0-9a-f]{32}\r\n", head.lower()), head  # like every answer
    error = json.loads(body)
    assert set(error) == SHAPE and (error["error"], error["field"]) == ("timeout", "headers"), error


def test_fifty_clients_dripping_their_headers_are_cut_off_while_healthz_answers(base):
    request = b"POST /v1/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Pad: " + b"a" * 200
    socks = [_connect(base) for _ in range(SLOW_CLIENTS)]
    opened = time.monotonic()
    stop = threading.Event()

    def drip() -> None:  # one byte per client every 50 ms: each alone would last 12 s
        for k in range(len(request)):
            for s in socks:
                try:
                    s.send(request[k:k + 1])
                except OSError:
                    pass  # that one was closed already
            if stop.wait(0.05):
                return

    dripper = threading.Thread(target=drip, daemon=True)
    dripper.start()
    try:
        healthz = []
        while time.monotonic() - opened < HEADER_TIMEOUT * 0.8:  # all fifty hanging
            start = time.monotonic()
            assert httpx.get(f"{base}/healthz", timeout=2).status_code == 200
            healthz.append(time.monotonic() - start)
            time.sleep(0.05)
        assert len(healthz) >= 5 and max(healthz) < 0.5, healthz
        selector = selectors.DefaultSelector()
        answers = {s: b"" for s in socks}
        for s in socks:
            s.setblocking(False)
            selector.register(s, selectors.EVENT_READ)
        closed_at = {}
        while len(closed_at) < len(socks) and time.monotonic() - opened < HEADER_TIMEOUT + 4:
            for key, _ in selector.select(0.1):
                try:
                    chunk = key.fileobj.recv(65536)  # type: ignore[union-attr]
                except ConnectionResetError:  # the dripper's next byte hit the closed socket:
                    chunk = b""  # closed all the same; the 408 must still have arrived (below)
                answers[key.fileobj] += chunk  # type: ignore[index]
                if not chunk:
                    closed_at[key.fileobj] = time.monotonic() - opened
                    selector.unregister(key.fileobj)
    finally:
        stop.set()
        dripper.join(5)
        for s in socks:
            s.close()
    assert len(closed_at) == SLOW_CLIENTS, f"{SLOW_CLIENTS - len(closed_at)} slow clients still connected"
    assert HEADER_TIMEOUT - 0.05 < min(closed_at.values()) and max(closed_at.values()) < HEADER_TIMEOUT + 1.5
    for answer in answers.values():
        _is_408(answer)
    assert httpx.get(f"{base}/healthz").status_code == 200


def test_a_connection_that_sends_nothing_is_closed_silently_at_the_header_timeout(base):
    with _connect(base) as sock:
        answer, took = _until_closed(sock, HEADER_TIMEOUT + 3)
    assert answer == b"" and HEADER_TIMEOUT - 0.05 < took < HEADER_TIMEOUT + 1


def test_the_next_request_on_a_kept_alive_connection_has_the_same_deadline(base):
    with _connect(base) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHo")  # and no more
        answer, took = _until_closed(sock, HEADER_TIMEOUT + 3)
    _is_408(answer)
    assert took < HEADER_TIMEOUT + 1


def test_a_request_whose_headers_came_in_time_is_not_cut_by_the_header_deadline(base):
    with _connect(base) as sock:
        sock.sendall(b"POST /v1/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(BODY))
        for k in range(4):  # the body over twice the header timeout (within body_timeout_s)
            time.sleep(HEADER_TIMEOUT / 2)
            sock.sendall(BODY[k * len(BODY) // 4:(k + 1) * len(BODY) // 4])
        head = sock.recv(65536)
        assert head.startswith(b"HTTP/1.1 200"), head
        # the connection lives on: a second request on it is answered
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")


@pytest.mark.parametrize("http", ["h11", "httptools"])
def test_a_graceful_stop_does_not_wait_for_a_body_still_coming(http):
    """uvicorn would wait for it (up to ``body_timeout_s``, then ``shutdown_timeout_s``); it
    is cut at once, while a request being answered is still let finish."""
    if http == "httptools" and HttpToolsHeaderDeadline is None:
        pytest.skip("httptools is not installed (it comes with uvicorn[standard])")
    settings = Settings(audit_url="", body_timeout_s=30, shutdown_timeout_s=20)
    with running(settings, http=http) as base:
        sock = _connect(base)
        sock.sendall(b"POST /v1/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(BODY) + BODY[:20])
        assert httpx.get(f"{base}/healthz").status_code == 200  # (the request is in)
        start = time.monotonic()
    took = time.monotonic() - start
    with sock:
        answer, _ = _until_closed(sock, 5)
    assert took < 2, f"the stop waited {took:.1f} s for a body still coming"
    assert b" 200 " not in answer


def test_a_burst_of_header_timeouts_logs_one_info_line_and_counts_the_rest(base, caplog):
    caplog.set_level(logging.DEBUG, logger="verifier.api")
    socks = [_connect(base) for _ in range(10)]  # ten clients that never finish their headers
    for s in socks:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHo")
    for s in socks:
        _is_408(_until_closed(s, HEADER_TIMEOUT + 3)[0])
        s.close()
    lines = [r for r in caplog.records if "answered 408" in r.getMessage()]
    info = [r for r in lines if r.levelno == logging.INFO]
    assert len(lines) == 10, [r.getMessage() for r in lines]  # every 408 is logged, with its id
    assert len(info) <= 2, [r.getMessage() for r in info]  # the burst lasts about a second
    time.sleep(1.1)  # the next one after the interval is at INFO and says how many were held back
    with _connect(base) as late:
        late.sendall(b"GET /healthz HTTP/1.1\r\nHo")
        _is_408(_until_closed(late, HEADER_TIMEOUT + 3)[0])
    last = [r for r in caplog.records if "answered 408" in r.getMessage()][-1]
    assert last.levelno == logging.INFO and re.search(r"; \d+ more since the last such line", last.getMessage())
