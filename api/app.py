"""The FastAPI application: ``create_app(settings)`` wires settings, the audit log,
metrics, routers, error handlers, CORS, request ids, the docs and the demo page.

``/docs`` and ``/redoc`` work offline (see :mod:`api.docs`).

Run it with ``verifier serve`` (see :mod:`api.server`) or any ASGI server:
``uvicorn --factory api.app:create_app``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from verifier import __version__

from . import errors, openapi, request_id
from .audit import AuditLog
from .docs import docs_app
from .metrics import LatencyMiddleware, Metrics
from .routes import health, stats, verify
from .service import VerifyService
from .settings import Settings, get_settings

STATIC = Path(__file__).parent / "static"

DESCRIPTION = """Checks an assistant's answer against the tool results it consulted, before
the answer is rendered. Every number, ticker, date and security code in the answer is
looked up in the tool data; the Report says how each is supported (with the JSON path of
the evidence), a confidence (high / medium / low), an action, and the UI payload (badge,
message, highlighted spans, a retry hint). Numbers in requests are read exactly.

Every response carries `X-Request-ID` (the client's own, when it sends a sane one); a
verified answer's Report carries `audit_id`, the id of its record in the audit log."""


def create_app(settings: Settings | None = None) -> FastAPI:
    """A new app; ``settings`` default to the ``VERIFIER_*`` environment."""
    settings = settings or get_settings()
    settings.check()
    metrics = Metrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        audit = (AuditLog(settings.audit_url, batch=settings.audit_batch, flush_ms=settings.audit_flush_ms,
                          max_queue=settings.audit_queue, metrics=metrics) if settings.audit_url else None)
        app.state.audit = audit
        app.state.service = VerifyService(settings, metrics, audit)
        try:
            yield
        finally:
            app.state.service.close()
            if audit is not None:
                audit.close()  # writes every queued record before the process exits
            metrics.worker_exit()

    app = docs_app(title="finverify", version=__version__, description=DESCRIPTION, lifespan=lifespan,
                   responses=openapi.SERVER_ERROR)
    openapi.install(app)
    app.state.settings, app.state.metrics, app.state.audit = settings, metrics, None
    errors.install(app)
    app.include_router(verify.router)
    app.include_router(stats.router)
    app.include_router(health.router)
    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")

        @app.get("/", include_in_schema=False)
        async def demo() -> FileResponse:
            return FileResponse(STATIC / "index.html")

    if settings.cors_origins:
        app.add_middleware(CORSMiddleware, allow_origins=settings.cors_origins, allow_methods=["GET", "POST"],
                           allow_headers=["Authorization", "Content-Type", request_id.HEADER],
                           expose_headers=[request_id.HEADER])
    app.add_middleware(LatencyMiddleware, metrics=metrics)
    request_id.install(app)  # outermost: even a 401 from CORS's preflight carries the id
    return app
