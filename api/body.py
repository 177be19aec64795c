"""Reading request bodies: a size cap (413) and exact numbers.

FastAPI parses JSON bodies with ``json.loads``, which turns 142.30 into the float 142.3
and 1e400 into infinity. The verifier compares Decimals, so the routes here read the
body with :func:`verifier.jsonio.loads` (Decimal numbers, clear errors) instead: the
documented way to change that is a custom ``APIRoute`` with its own ``Request``.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

from verifier.jsonio import loads

from .auth import check_key


class BodyTooLarge(Exception):
    """The body is over ``max_body_bytes``."""

    def __init__(self, size: int, limit: int):
        self.size, self.limit = size, limit
        super().__init__(f"request body is over the limit of {limit:,} bytes")


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
            async for chunk in self.stream():
                size += len(chunk)
                if size > limit:
                    raise BodyTooLarge(size, limit)
                chunks.append(chunk)
            self._body = b"".join(chunks)
        return self._body

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = loads(await self.body(), "body")
        return self._json


class ExactJSONRoute(APIRoute):
    """A route that reads its body through :class:`ExactJSONRequest`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def exact_handler(request: Request) -> Response:
            exact = ExactJSONRequest(request.scope, request.receive)
            check_key(exact)  # a missing key is 401 before anything is read
            if request.method in ("POST", "PUT", "PATCH"):
                # read here, so a malformed or oversized body reaches the app's error
                # handlers (422 with line and column, 413) instead of FastAPI's bare 400
                await exact.json()
            return await handler(exact)

        return exact_handler
