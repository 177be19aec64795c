"""``verifier serve``: the service under uvicorn, with a deadline on request headers.

uvicorn times out an idle keep-alive connection but not a request that is being sent:
a client that opens a connection and dribbles its request line and headers a byte at a
time holds it (and its socket) for as long as it likes; on a fresh connection the
httptools protocol has no timer at all. The protocols here close such a connection
``header_timeout_s`` after it opened, or after its previous response ended, with a 408
in the API's error shape when part of a request had come. The body has its own
deadline (``body_timeout_s``, api/body.py). A graceful stop does not wait for a body
still coming either, and waits ``shutdown_timeout_s`` at most for the rest.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import sys
import tempfile
import time
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from verifier import VerifierError

from . import request_id
from .app import create_app
from .audit import check_audit
from .metrics import MULTIPROC_ENV
from .settings import Settings, get_settings

_log = logging.getLogger("verifier.api")


class _HeaderDeadline:
    """A mixin for uvicorn's HTTP/1.1 protocols: the request line and headers must be in
    within ``header_timeout_s`` of the connection opening or of the previous response
    ending. ``self.cycle`` is uvicorn's current request; a new one exists once its
    headers are parsed, so "waiting for headers" is: no request, or the last one done."""

    cycle: Any
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport

    def __init__(self, *args: Any, header_timeout_s: float = 10.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.header_timeout_s = header_timeout_s
        self._header_timer: asyncio.TimerHandle | None = None
        self._header_bytes = False  # part of a request came since the timer was armed

    def _arm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
        self._header_bytes = False
        self._header_timer = self.loop.call_later(self.header_timeout_s, self._headers_late)

    def _waiting_for_headers(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _headers_late(self) -> None:
        self._header_timer = None
        if self.transport.is_closing() or not self._waiting_for_headers():
            return
        if self._header_bytes:  # an idle connection is closed silently, as keep-alive does
            self.transport.write(_timeout_response(self.header_timeout_s))
        self.transport.close()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._waiting_for_headers():
            self._header_bytes = True
        super().data_received(data)  # type: ignore[misc]
        if self._header_timer is not None and not self._waiting_for_headers():
            self._header_timer.cancel()  # the headers are in
            self._header_timer = None

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        if not self.transport.is_closing():
            self._arm()  # the next request's headers, from now

    def shutdown(self) -> None:
        """A graceful stop: as uvicorn's (an idle or half-sent connection is closed, a request
        being answered is let finish), but a request whose body is still coming is cut now:
        a client dripping its body would hold the stop for ``body_timeout_s``."""
        if self.cycle is not None and not self.cycle.response_complete and self.cycle.more_body:
            self.transport.close()
        else:
            super().shutdown()  # type: ignore[misc]

    def connection_lost(self, exc: Exception | None) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None
        super().connection_lost(exc)  # type: ignore[misc]


class _RateLimitedLog:
    """One INFO line per ``interval`` seconds for the header-timeout 408s, the others at
    DEBUG and counted into the next INFO line: a slow-headers flood (a thousand idle
    connections) must not flood the log too, while each 408's request id stays findable
    at DEBUG. Called on the event loop's thread only."""

    def __init__(self, interval: float = 1.0):
        self.interval, self._last, self._held = interval, float("-inf"), 0

    def log(self, message: str, rid: str) -> None:
        now = time.monotonic()
        if now - self._last < self.interval:
            self._held += 1
            _log.debug("%s: answered 408 (request %s)", message, rid)
            return
        more = f"; {self._held} more since the last such line (at DEBUG)" if self._held else ""
        _log.info("%s: answered 408 (request %s)%s", message, rid, more)
        self._last, self._held = now, 0


_TIMEOUT_LOG = _RateLimitedLog()


def _timeout_response(seconds: float) -> bytes:
    """The 408 for headers that came too late, with a fresh X-Request-ID like every other
    answer (the client's own, if it sent one, is in the headers that never arrived whole);
    logged with that id, so a client's report of it can be found."""
    rid = request_id.new_id()
    message = f"the request line and headers did not arrive within {seconds:g} s"
    _TIMEOUT_LOG.log(message, rid)
    body = json.dumps({"error": "timeout", "message": message, "field": "headers", "errors": []}).encode()
    return (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
            b"content-length: %d\r\nx-request-id: %s\r\nconnection: close\r\n\r\n%s"
            % (len(body), rid.encode(), body))


class H11HeaderDeadline(_HeaderDeadline, H11Protocol):
    """uvicorn's h11 protocol with the header deadline."""


try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # httptools (uvicorn[standard]) missing: h11 only, as uvicorn's "auto"
    HttpToolsHeaderDeadline: type[_HeaderDeadline] | None = None
else:
    class _HttpTools(_HeaderDeadline, HttpToolsProtocol):
        """uvicorn's httptools protocol with the header deadline."""

    HttpToolsHeaderDeadline = _HttpTools


def uvicorn_options(settings: Settings, http: str = "auto") -> dict[str, Any]:
    """The uvicorn settings the service's own settings decide: how long an idle keep-alive
    connection is held, how long a graceful stop waits for requests in flight, and the
    HTTP/1.1 protocol, which holds request headers to
    ``header_timeout_s``: httptools when installed (as uvicorn's "auto" picks), else h11,
    or the one ``http`` names."""
    base: type[_HeaderDeadline] = H11HeaderDeadline
    if http in ("auto", "httptools") and HttpToolsHeaderDeadline is not None:
        base = HttpToolsHeaderDeadline
    elif http == "httptools":
        raise VerifierError("the httptools protocol is not installed (pip install 'uvicorn[standard]')")
    # a partial of a module-level class pickles, so --workers N's processes get it too
    return {"timeout_keep_alive": settings.keep_alive_s,
            "timeout_graceful_shutdown": settings.shutdown_timeout_s,
            "http": functools.partial(base, header_timeout_s=settings.header_timeout_s)}


def run(host: str = "127.0.0.1", port: int = 8000, workers: int = 1) -> None:
    """Serve until interrupted; a graceful stop (Ctrl-C, SIGTERM) flushes the audit log."""
    try:
        settings = get_settings()
    except ValueError as exc:  # a malformed VERIFIER_* variable
        raise VerifierError(f"settings: {exc} (list settings take JSON, e.g. "
                            "VERIFIER_CORS_ORIGINS='[\"https://app.example\"]')") from None
    settings.check()
    if settings.audit_url:  # fail here with one line, not inside uvicorn's startup
        check_audit(settings.audit_url)
    if workers > 1:  # uvicorn needs an import string to start worker processes
        with tempfile.TemporaryDirectory(prefix="verifier-metrics-") as shared:
            # every worker writes its metrics here; /metrics sums them (api/metrics.py)
            os.environ.setdefault(MULTIPROC_ENV, shared)
            # uvicorn logs at warning level here (its info lines repeat per worker): say it once
            print(f"serving on http://{host}:{port} with {workers} workers", file=sys.stderr, flush=True)
            uvicorn.run("verifier.api.app:create_app", factory=True, host=host, port=port, workers=workers,
                        log_level="warning", **uvicorn_options(settings))
    else:
        uvicorn.run(create_app(settings), host=host, port=port, log_level="info", **uvicorn_options(settings))
