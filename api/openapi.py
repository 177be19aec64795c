"""What the OpenAPI document says beyond what FastAPI derives from the routes: every
response carries ``X-Request-ID`` (see :mod:`api.request_id`), and any operation may
answer 500 in the error shape.

The document is what clients are generated from and what schemathesis checks responses
against (tests/api/test_schemathesis.py), so it states what the service really sends.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from .request_id import HEADER, MAX_LENGTH
from .schemas import ErrorBody

#: For FastAPI(responses=...): the answer to a bug, on every route.
SERVER_ERROR: dict[int | str, dict[str, Any]] = {
    500: {"model": ErrorBody, "description": "An unexpected failure (internal_error); it was logged."}}

_ERROR_BODY = {"$ref": "#/components/schemas/ErrorBody"}
_REQUEST_ID = {
    "description": f"The request's id: the client's {HEADER} when it sent one of 1 to {MAX_LENGTH} "
                   "visible ASCII characters, else a new one (32 hex digits).",
    "required": True,
    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_LENGTH, "pattern": "^[!-~]+$"},
}


def install(app: FastAPI) -> None:
    """Make ``app.openapi()`` document the request id header on every response."""
    derived = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = derived()
            for item in schema.get("paths", {}).values():
                for operation in item.values():
                    for status, response in operation.get("responses", {}).items():
                        response.setdefault("headers", {})[HEADER] = _REQUEST_ID
                        if status == "500":  # JSON even where the route answers text (/metrics)
                            response["content"] = {"application/json": {"schema": _ERROR_BODY}}
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
