"""One place that maps errors to HTTP answers, all shaped as :class:`api.schemas.ErrorBody`.

InputError -> 422 (with the field); LimitError and an oversized body -> 413; a body that
is not UTF-8 JSON -> 415; a body slower than ``body_timeout_s`` -> 408; a client that
hangs up mid-body -> 499 (logged at INFO: nobody reads it); a request
over its time budget, or whose record the durable audit log could not commit -> 503; bad
credentials -> 401; FastAPI's validation errors -> 422 with the field path and a human
message.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from verifier import InputError, LimitError, VerifierError

from . import request_id
from .audit import AuditFailed
from .body import BodyTimeout, BodyTooLarge, ClientGone, UnsupportedMediaType
from .service import OverBudget

_log = logging.getLogger("verifier.api")


def error_response(status: int, error: str, message: str, field: str | None = None,
                   errors: list[dict[str, Any]] | None = None,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    """An error in the API's one shape."""
    return JSONResponse({"error": error, "message": message, "field": field, "errors": errors or []},
                        status_code=status, headers=headers)


def _field(loc: tuple[Any, ...] | list[Any]) -> str:
    parts = [str(p) for p in loc if p != "body"]
    out = ""
    for p in parts:
        out += f"[{p}]" if p.isdigit() else (f".{p}" if out else p)
    return out or "body"


async def _validation(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if request.method == "POST" and kind != "application/json" and not kind.endswith("+json"):
        # a JSON body sent as text/plain, or with no content type, is not read as JSON
        # (FastAPI is strict about it): say what is wrong, not "not a valid dictionary"
        message = ("the body must be JSON sent with content-type: application/json "
                   f"({f'got {kind!r}' if kind else 'none was sent'})")
        return error_response(415, "unsupported_media_type", message, "body",
                              [{"field": "body", "message": message, "type": "content_type"}])
    errors = [{"field": _field(e["loc"]), "message": e["msg"], "type": e["type"]} for e in exc.errors()]
    first = errors[0] if errors else {"field": "body", "message": "invalid request"}
    message = f"{first['field']}: {first['message']}"
    if len(errors) > 1:
        message += f" (and {len(errors) - 1} more)"
    return error_response(422, "invalid_request", message, first["field"], errors)


#: The request field each limit is about (LimitError names the quantity in words).
_LIMIT_FIELDS = (("answer length", "answer"), ("leaves", "tool_results"), ("batch", "requests"),
                 ("nested", "tool_results"))


async def _verifier_error(_: Request, exc: Exception) -> JSONResponse:
    if isinstance(exc, LimitError):
        prefix = exc.what.split(": ", 1)[0] + "." if exc.what.startswith("requests[") else ""
        field = next((f for words, f in _LIMIT_FIELDS if words in exc.what), "body")
        return error_response(413, "too_large", str(exc), prefix + field,
                              [{"field": prefix + field, "message": str(exc), "type": "limit"}])
    where = exc.where if isinstance(exc, InputError) else None
    message = str(exc).removeprefix(f"{where}: ") if where else str(exc)
    return error_response(422, "invalid_input", str(exc), where,
                          [{"field": where or "body", "message": message, "type": "invalid_input"}])


async def _too_large(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, BodyTooLarge)
    return error_response(413, "too_large", str(exc), "body")


async def _unsupported(_: Request, exc: Exception) -> JSONResponse:
    return error_response(415, "unsupported_media_type", str(exc), "body",
                          [{"field": "body", "message": str(exc), "type": "content_type"}])


async def _body_timeout(_: Request, exc: Exception) -> JSONResponse:
    # the rest of the body may still be on its way: the connection is not reused
    return error_response(408, "timeout", str(exc), "body", headers={"Connection": "close"})


async def _client_gone(request: Request, exc: Exception) -> JSONResponse:
    # nobody reads this answer; 499 is the status proxies log for a client that hung up
    _log.info("%s on %s %s (request %s)", exc, request.method, request.url.path, request_id.current())
    return error_response(499, "client_disconnected", str(exc), "body", headers={"Connection": "close"})


async def _over_budget(_: Request, exc: Exception) -> JSONResponse:
    return error_response(503, "timeout", str(exc), headers={"Retry-After": "1"})


async def _audit_failed(_: Request, exc: Exception) -> JSONResponse:
    _log.error("durable audit: %s", exc)
    return error_response(503, "audit_unavailable", str(exc), headers={"Retry-After": "1"})


async def _http(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    codes = {401: "unauthorized", 404: "not_found", 405: "method_not_allowed"}
    return error_response(exc.status_code, codes.get(exc.status_code, "http_error"), str(exc.detail),
                          headers=getattr(exc, "headers", None))


async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    """Any other exception: a bug. Logged with its traceback, answered in the error shape
    (a plain-text 500 would break clients that parse every answer as JSON)."""
    rid = request_id.current()
    _log.error("unexpected error on %s %s (request %s)", request.method, request.url.path, rid, exc_info=exc)
    # (answered outside the middleware that adds the id to every other response)
    return error_response(500, "internal_error", "the service failed on this request; it was logged",
                          headers={request_id.HEADER: rid} if rid else None)


def install(app: FastAPI) -> None:
    """Register the handlers on ``app``."""
    app.add_exception_handler(Exception, _unexpected)
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(VerifierError, _verifier_error)
    app.add_exception_handler(BodyTooLarge, _too_large)
    app.add_exception_handler(UnsupportedMediaType, _unsupported)
    app.add_exception_handler(BodyTimeout, _body_timeout)
    app.add_exception_handler(ClientGone, _client_gone)
    app.add_exception_handler(OverBudget, _over_budget)
    app.add_exception_handler(AuditFailed, _audit_failed)
    app.add_exception_handler(StarletteHTTPException, _http)
