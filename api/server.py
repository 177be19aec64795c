"""``verifier serve``: the service under uvicorn."""

from __future__ import annotations

import os
import sys
import tempfile
from typing import Any

import uvicorn

from verifier import VerifierError

from .app import create_app
from .audit import check_audit
from .metrics import MULTIPROC_ENV
from .settings import Settings, get_settings


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The uvicorn settings the service's own settings decide: how long an idle keep-alive
    connection is held."""
    return {"timeout_keep_alive": settings.keep_alive_s}


def run(host: str = "127.0.0.1", port: int = 8000, workers: int = 1) -> None:
    """Serve until interrupted; a graceful stop (Ctrl-C, SIGTERM) flushes the audit log."""
    try:
        settings = get_settings()
    except ValueError as exc:  # a malformed VERIFIER_* variable
        raise VerifierError(f"settings: {exc} (list settings take JSON, e.g. "
                            "VERIFIER_CORS_ORIGINS='[\"https://app.example\"]')") from None
    settings.check()
    if settings.audit_url:  # fail here with one line, not inside uvicorn's startup
        check_audit(settings.audit_url)
    if workers > 1:  # uvicorn needs an import string to start worker processes
        with tempfile.TemporaryDirectory(prefix="verifier-metrics-") as shared:
            # every worker writes its metrics here; /metrics sums them (api/metrics.py)
            os.environ.setdefault(MULTIPROC_ENV, shared)
            # uvicorn logs at warning level here (its info lines repeat per worker): say it once
            print(f"serving on http://{host}:{port} with {workers} workers", file=sys.stderr, flush=True)
            uvicorn.run("verifier.api.app:create_app", factory=True, host=host, port=port, workers=workers,
                        log_level="warning", **uvicorn_options(settings))
    else:
        uvicorn.run(create_app(settings), host=host, port=port, log_level="info", **uvicorn_options(settings))
