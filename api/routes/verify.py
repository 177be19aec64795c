"""POST /v1/verify and /v1/verify/batch: three lines each over the service."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from fastapi.responses import Response

from verifier import Report
from verifier.models import json_text

from ..body import ExactJSONRoute
from ..deps import ServiceDep, require_key
from ..schemas import BatchRequest, BatchResponse, ErrorBody, VerifyRequest, example_report

router = APIRouter(prefix="/v1", tags=["verify"], route_class=ExactJSONRoute,
                   dependencies=[Depends(require_key)])

_ERRORS: dict[int | str, dict[str, object]] = {
    401: {"model": ErrorBody, "description": "An API key is configured and the request lacks it."},
    413: {"model": ErrorBody, "description": "Body, answer or tool results over a limit."},
    415: {"model": ErrorBody, "description": "The body was not sent as application/json."},
    408: {"model": ErrorBody, "description": "The body did not arrive within VERIFIER_BODY_TIMEOUT_S."},
    422: {"model": ErrorBody, "description": "Malformed JSON, wrong types or unusable input; names the field."},
    503: {"model": ErrorBody, "description": "The request took longer than the time budget (timeout), "
          "or the durable audit log could not commit its record (audit_unavailable)."},
}


def _json(text: str) -> Response:
    # the Report is already valid; serialising it directly skips FastAPI's re-validation
    return Response(content=text, media_type="application/json")


_EXAMPLE = example_report()


@router.post("/verify", response_model=None, responses={
    200: {"model": Report, "content": {"application/json": {"example": _EXAMPLE}}}, **_ERRORS},
             operation_id="verify", summary="Verify one answer against the tool results it consulted")
async def verify_one(request: VerifyRequest, service: ServiceDep) -> Response:
    report = await service.verify(request)
    return _json(json_text(report))


@router.post("/verify/batch", response_model=None, responses={
    200: {"model": BatchResponse, "content": {"application/json": {"example": {"reports": [_EXAMPLE]}}}},
    **_ERRORS},
             operation_id="verifyBatch",
             summary="Verify many answers (the same tool results are indexed once)")
async def verify_batch(batch: BatchRequest, service: ServiceDep) -> Response:
    reports = await service.batch(batch.requests)
    return _json('{"reports": [' + ", ".join(json_text(r) for r in reports) + "]}")
