"""``X-Request-ID`` on every response: the client's own when it sent a sane one, a new
one otherwise, so a log line, an audit record and a user's bug report can be matched.

asgi-correlation-id's middleware does the work (reads the header, generates, echoes, and
keeps the id in a context variable for the request); this module decides what is sane: 1
to 128 visible ASCII characters. Anything else (empty, too long, spaces, control or
non-ASCII bytes) is replaced, not refused: a request is never failed for its trace id.
"""

from __future__ import annotations

import re
from uuid import uuid4

from asgi_correlation_id import CorrelationIdMiddleware, correlation_id
from fastapi import FastAPI

HEADER = "X-Request-ID"
MAX_LENGTH = 128
_SANE = re.compile(rf"[!-~]{{1,{MAX_LENGTH}}}")


def sane(value: str) -> bool:
    """Whether a client's request id is echoed as it is."""
    return _SANE.fullmatch(value) is not None


def new_id() -> str:
    """A fresh request id: 32 hex digits (a UUID4 without dashes)."""
    return uuid4().hex


def current() -> str | None:
    """The id of the request being served (None outside one)."""
    return correlation_id.get()


def install(app: FastAPI) -> None:
    """Add the middleware (call it last, so it is the outermost and every answer has the id)."""
    app.add_middleware(CorrelationIdMiddleware, header_name=HEADER, validator=sane, generator=new_id)
