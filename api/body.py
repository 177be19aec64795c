"""Reading request bodies: JSON in UTF-8 only (415), a size cap (413), a time limit
(408) and exact numbers.

FastAPI parses JSON bodies with ``json.loads``, which turns 142.30 into the float 142.3
and 1e400 into infinity. The verifier compares Decimals, so the routes here read the
body with :func:`verifier.inputs.jsonio.loads` (Decimal numbers, clear errors) instead: the
documented way to change that is a custom ``APIRoute`` with its own ``Request``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute
from starlette.requests import ClientDisconnect

from verifier.inputs.jsonio import loads

from .auth import check_key


class BodyTooLarge(Exception):
    """The body is over ``max_body_bytes``."""

    def __init__(self, size: int, limit: int):
        self.size, self.limit = size, limit
        super().__init__(f"request body is over the limit of {limit:,} bytes")


class BodyTimeout(Exception):
    """The body did not arrive within ``body_timeout_s`` (a client dripping it)."""

    def __init__(self, limit_s: float):
        self.limit_s = limit_s
        super().__init__(f"the request body did not arrive within {limit_s:g} s")


class ClientGone(Exception):
    """The client closed the connection before its whole body arrived: nobody is left to
    answer, and it is no failure of the service (logged at INFO, counted as 499)."""

    def __init__(self, received: int, declared: str | None):
        self.received, self.declared = received, declared
        of = f" of {declared}" if declared else ""
        super().__init__(f"the client hung up after {received:,}{of} body bytes")


class UnsupportedMediaType(Exception):
    """The body is not JSON in UTF-8: another content type, another charset, UTF-16."""


def check_media_type(content_type: str | None) -> None:
    """Raise UnsupportedMediaType unless ``content_type`` is JSON (``application/json``
    or ``application/*+json``) with no charset or UTF-8: JSON is UTF-8 (RFC 8259), and a
    form or multipart body is no JSON at all."""
    kind, *params = (content_type or "").split(";")
    kind = kind.strip().lower()
    if kind != "application/json" and not (kind.startswith("application/") and kind.endswith("+json")):
        raise UnsupportedMediaType("the body must be JSON sent with content-type: application/json "
                                   f"({f'got {kind!r}' if kind else 'none was sent'})")
    for param in params:
        name, _, value = param.partition("=")
        charset = value.strip().strip('"').lower()
        if name.strip().lower() == "charset" and charset not in ("utf-8", "utf8"):
            raise UnsupportedMediaType(f"the body must be UTF-8 JSON (RFC 8259); got charset={charset!r}")


def utf8_text(body: bytes) -> str:
    """``body`` decoded as UTF-8 (a leading byte order mark ignored, as RFC 8259 allows);
    UnsupportedMediaType for UTF-16 or UTF-32 (which ``json.loads`` would detect and read)
    or bytes that are not UTF-8."""
    if body[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in body[:4]:
        raise UnsupportedMediaType("the body must be UTF-8 JSON (RFC 8259); it looks like UTF-16 or UTF-32")
    try:
        return body.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UnsupportedMediaType(f"the body must be UTF-8 JSON (RFC 8259): byte {exc.start} is not "
                                   "UTF-8") from None


class ExactJSONRequest(Request):
    """A request whose body is capped and whose JSON numbers are Decimals."""

    async def body(self) -> bytes:
        if not hasattr(self, "_body"):
            limit = self.app.state.settings.max_body_bytes
            declared = self.headers.get("content-length")
            # (a header of thousands of digits is over any limit: int() of it would
            # raise past Python's 4,300-digit cap)
            if declared is not None and declared.isascii() and declared.isdigit() and (
                    len(declared) > 18 or int(declared) > limit):
                raise BodyTooLarge(int(declared) if len(declared) <= 18 else limit + 1, limit)
            chunks, size = [], 0
            timeout = self.app.state.settings.body_timeout_s
            try:
                async with asyncio.timeout(timeout):  # the whole body, not each read
                    async for chunk in self.stream():
                        size += len(chunk)
                        if size > limit:
                            raise BodyTooLarge(size, limit)
                        chunks.append(chunk)
            except TimeoutError:
                raise BodyTimeout(timeout) from None
            except ClientDisconnect:
                raise ClientGone(size, declared) from None
            self._body = b"".join(chunks)
        return self._body

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = loads(utf8_text(await self.body()), "body")
        return self._json


class ExactJSONRoute(APIRoute):
    """A route that reads its body through :class:`ExactJSONRequest`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def exact_handler(request: Request) -> Response:
            exact = ExactJSONRequest(request.scope, request.receive)
            check_key(exact)  # a missing key is 401 before anything is read
            if request.method in ("POST", "PUT", "PATCH"):
                # a form, multipart or latin-1 body is 415 before it is read
                check_media_type(exact.headers.get("content-type"))
                # read here, so a malformed, oversized or slow body reaches the app's error
                # handlers (422 with line and column, 413, 408) instead of FastAPI's bare 400
                await exact.json()
            return await handler(exact)

        return exact_handler
