"""Prometheus metrics of the service (``GET /metrics``).

Each app has its own registry (tests build several apps in one process). With several
worker processes (``verifier serve --workers N``) the figures of every worker are
summed: the server sets ``PROMETHEUS_MULTIPROC_DIR`` before the workers start, so each
writes its values to files there (prometheus_client's multiprocess mode), and
:meth:`Metrics.render` reads them all, whichever worker answers the scrape.

Names follow Prometheus' conventions: counters end in ``_total``, durations are
``_duration_seconds``, ``verifier_build_info`` is 1 with the version as a label, and the
``_created`` series prometheus_client adds by default are off (they double the series
count and no query here uses them).
"""

from __future__ import annotations

import os
import platform
import time
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
    multiprocess,
)
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from verifier import Report, __version__

disable_created_metrics()  # (a process-wide switch of prometheus_client)

#: Latency buckets in seconds: the service aims at a few milliseconds per answer.
_BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    """The service's collectors, on one registry."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.build_info = Gauge("verifier_build_info", "Always 1: the verifier's version and Python's.",
                                ["version", "python"], registry=self.registry, multiprocess_mode="max")
        self.build_info.labels(__version__, platform.python_version()).set(1)
        self.latency = Histogram("verifier_request_duration_seconds", "HTTP request latency.",
                                 ["route", "method", "status"], buckets=_BUCKETS, registry=self.registry)
        self.verifications = Counter("verifier_verifications_total", "Verifications by confidence.",
                                     ["confidence"], registry=self.registry)
        self.flagged = Counter("verifier_flagged_items_total", "Flagged items by kind and status.",
                               ["kind", "status"], registry=self.registry)
        self.audit_written = Counter("verifier_audit_written_total", "Audit records written.",
                                     registry=self.registry)
        self.audit_failed = Counter("verifier_audit_failed_total", "Audit records lost: the database "
                                    "refused them or did not answer.", registry=self.registry)
        self.audit_dropped = Counter("verifier_audit_dropped_total", "Audit records dropped: the "
                                     "writer's queue was full.", registry=self.registry)
        # summed over the live workers in multiprocess mode
        self.audit_queue = Gauge("verifier_audit_queue", "Audit records waiting to be written.",
                                 registry=self.registry, multiprocess_mode="livesum")

    def observe(self, report: Report) -> None:
        """Count one verification and its flagged items."""
        self.verifications.labels(report.confidence).inc()
        for item in report.items:
            if item.flagged:
                self.flagged.labels(item.kind, item.status).inc()

    def render(self) -> bytes:
        """The text exposition format: this process's figures, or every worker's
        summed in multiprocess mode."""
        if os.environ.get(MULTIPROC_ENV):
            registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(registry)
            return generate_latest(registry)
        return generate_latest(self.registry)

    @staticmethod
    def worker_exit() -> None:
        """Drop this worker's live gauges from the sums (multiprocess mode only)."""
        if os.environ.get(MULTIPROC_ENV):
            multiprocess.mark_process_dead(os.getpid())


#: prometheus_client reads this when it is imported: set it before workers start.
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


class LatencyMiddleware:
    """Times every HTTP request into the latency histogram (a plain ASGI middleware:
    cheaper than Starlette's BaseHTTPMiddleware, which adds a task per request)."""

    def __init__(self, app: ASGIApp, metrics: Metrics):
        self.app, self.metrics = app, metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start, status = time.perf_counter(), [500]
        where = {"path": scope.get("path"), "root_path": scope.get("root_path", "")}  # a Mount rewrites them

        async def send_status(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            route: Any = scope.get("route")
            path = getattr(route, "path", None) or _route_of({**scope, **where})
            self.metrics.latency.labels(path, scope["method"], str(status[0])).observe(
                time.perf_counter() - start)


def _route_of(scope: Scope) -> str:
    """The route template of a request Starlette did not tag with its route (the
    OpenAPI and docs pages, mounted static files); "unmatched" for a 404. Looked up only
    for those, so API routes pay nothing; the label stays one of the app's templates,
    never the raw path, so a scanner's random URLs cannot grow the metric."""
    from starlette.routing import Match

    app = scope.get("app")
    for candidate in getattr(getattr(app, "router", None), "routes", ()):
        match, _ = candidate.matches(scope)
        if match == Match.FULL:
            return str(getattr(candidate, "path", "unmatched")) or "unmatched"
    return "unmatched"
