"""One input line read as a verify request, validated by the API's own request model.

:class:`verifier.api.schemas.VerifyRequest` imports pydantic and the verifier only (no
FastAPI), so a batch line is validated exactly as a ``POST /v1/verify`` body is, without
the ``[server]`` extra: explicit ``answer`` and ``tool_results`` (with ``question``,
``history``, ``locale``, ``policy``), or ``messages`` read by
:func:`verifier.inputs.transcripts.read_transcript` as ``verifier check --messages`` reads them,
plus ``metadata``. A line holding a saved transcript file or a chat request body
(``messages`` beside keys such as ``id`` or ``model``) keeps only the request's fields, as
the CLI does. A line that is not a valid request raises :class:`BadLine` with the API's
error body (``{error, message, field, errors}``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from .._errors import InputError
from ..api.schemas import VerifyRequest
from ..inputs.jsonio import loads
from ..policy import Policy


class BadLine(Exception):
    """A line that is not a valid request; ``body`` is the API's error shape."""

    def __init__(self, body: dict[str, Any], metadata: Any = None):
        self.body, self.metadata = body, metadata
        super().__init__(body["message"])


@dataclass(frozen=True)
class Case:
    """What one line asks to verify."""

    answer: str
    tool_results: Any
    question: str | None
    history: Any
    locale: str
    policy: Policy
    metadata: dict[str, Any]


def error_body(error: str, message: str, field: str | None, errors: list[dict[str, Any]] | None = None,
               ) -> dict[str, Any]:
    """An error in the API's one shape."""
    return {"error": error, "message": message, "field": field,
            "errors": errors if errors is not None else [{"field": field or "body", "message": message,
                                                          "type": error}]}


def _field(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in (str(p) for p in loc):
        out += f"[{part}]" if part.isdigit() else (f".{part}" if out else part)
    return out or "body"


def _invalid_request(exc: ValidationError, prefix: str = "") -> dict[str, Any]:
    """A pydantic error as the API's 422 ``invalid_request`` body."""
    errors = [{"field": prefix + _field(e["loc"]), "message": e["msg"], "type": e["type"]} for e in exc.errors()]
    first = errors[0]
    message = f"{first['field']}: {first['message']}" + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else "")
    return error_body("invalid_request", message, first["field"], errors)


def _metadata_of(obj: Any) -> dict[str, Any]:
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    return meta if isinstance(meta, dict) else {}


def parse(text: bytes, where: str) -> Case:
    """The case a line holds; BadLine with the error body when it holds none."""
    try:
        obj = loads(text, where)
    except InputError as exc:  # JSON, UTF-8
        raise BadLine(error_body("invalid_input", str(exc).removeprefix(f"{where}: "), "body")) from None
    metadata = _metadata_of(obj)
    try:  # (a transcript file or chat body: VerifyRequest drops its wrapper's other keys)
        request = VerifyRequest.model_validate(obj)
    except ValidationError as exc:
        raise BadLine(_invalid_request(exc), metadata) from None
    metadata = request.metadata.model_dump(exclude_none=True)
    try:
        return _case_of(request, metadata)
    except InputError as exc:
        where_ = exc.where
        message = str(exc).removeprefix(f"{where_}: ") if where_ else str(exc)
        raise BadLine(error_body("invalid_input", str(exc), where_, [
            {"field": where_ or "body", "message": message, "type": "invalid_input"}]), metadata) from None


def _policy(request: VerifyRequest) -> Policy:
    try:
        return Policy.model_validate(request.policy or {})
    except ValidationError as exc:
        first = exc.errors()[0]
        raise InputError(first["msg"], ".".join(["policy", *(str(p) for p in first["loc"])])) from None


def _case_of(request: VerifyRequest, metadata: dict[str, Any]) -> Case:
    """As the service reads a request (``VerifyRequest.parts``), with its locale, policy and metadata."""
    policy = _policy(request)
    answer, tool_results, question, history = request.parts()
    return Case(answer, tool_results, question, history, request.locale, policy, metadata)
