"""Liveness, readiness, metrics and the published Report schema."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from verifier import Report, __version__

from ..schemas import Health, Readiness

router = APIRouter()

#: The Prometheus text exposition format, as /metrics is documented (its exact media type,
#: ``text/plain; version=0.0.4; charset=utf-8``, is text/plain with parameters).
_EXPOSITION = {200: {"description": "Prometheus text exposition format (version 0.0.4).", "content": {
    "text/plain": {"example": (
        "# HELP verifier_verifications_total Verifications by confidence.\n"
        "# TYPE verifier_verifications_total counter\n"
        'verifier_verifications_total{confidence="high"} 12.0\n')}}}}


@router.get("/healthz", tags=["ops"], operation_id="getHealth", summary="The process is up")
async def healthz() -> Health:
    return Health(status="ok", version=__version__)


@router.get("/readyz", tags=["ops"], operation_id="getReadiness", response_model=Readiness,
            responses={503: {"model": Readiness, "description": "Not ready: the audit database does "
                             "not answer, or its writer is failing, full or stopped."}},
            summary="The service can verify and write its audit log")
async def readyz(request: Request) -> JSONResponse:
    """Ready (200) when the audit database answers and its writer is keeping up: 503 while
    its writes fail, its queue is full or its thread has stopped (records are being lost)."""
    audit = request.app.state.audit
    checks: dict[str, Any] = {"audit": "off"}
    if audit is not None:
        def ping() -> str:
            try:
                with audit.engine.connect() as conn:
                    conn.execute(text("SELECT 1"))
            except SQLAlchemyError as exc:
                return f"error: {type(exc).__name__}"
            return "ok"

        checks["audit"] = await asyncio.to_thread(ping)
        # the database answers a ping, but are the records getting in?
        checks["audit_writer"] = audit.health()
    ready = checks["audit"] in ("ok", "off") and checks.get("audit_writer", {}).get("status", "ok") == "ok"
    return JSONResponse({"status": "ready" if ready else "not_ready", "checks": checks},
                        status_code=200 if ready else 503)


@router.get("/metrics", tags=["ops"], operation_id="getMetrics", summary="Prometheus metrics",
            response_class=PlainTextResponse, responses=_EXPOSITION)  # type: ignore[arg-type]
async def metrics(request: Request) -> Response:
    state = request.app.state
    if state.audit is not None:
        state.metrics.audit_queue.set(state.audit.queue.qsize())
    return Response(state.metrics.render(), media_type=CONTENT_TYPE_LATEST)


@router.get("/v1/schema", tags=["verify"], operation_id="getReportSchema",
            summary="The Report's JSON Schema (the UI contract)")
async def schema() -> dict[str, Any]:
    return Report.model_json_schema()
