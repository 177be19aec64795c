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

router = APIRouter()


@router.get("/healthz", tags=["ops"], summary="The process is up")
async def healthz() -> dict[str, str]:
    return {"status": "ok", "version": __version__}


@router.get("/readyz", tags=["ops"], summary="The service can verify and write its audit log")
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


@router.get("/metrics", tags=["ops"], summary="Prometheus metrics",
            response_class=PlainTextResponse)  # documented as text/plain, what it sends
async def metrics(request: Request) -> Response:
    state = request.app.state
    if state.audit is not None:
        state.metrics.audit_queue.set(state.audit.queue.qsize())
    return Response(state.metrics.render(), media_type=CONTENT_TYPE_LATEST)


@router.get("/v1/schema", tags=["verify"], summary="The Report's JSON Schema (the UI contract)")
async def schema() -> dict[str, Any]:
    return Report.model_json_schema()
