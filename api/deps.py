"""Dependencies shared by the routers (``Annotated`` aliases, as in FastAPI's template)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from .audit import AuditLog
from .auth import check_key
from .service import VerifyService

_bearer = HTTPBearer(auto_error=False, description="The key set in VERIFIER_API_KEY, when one is set.")


def get_service(request: Request) -> VerifyService:
    return request.app.state.service  # type: ignore[no-any-return]


def get_audit(request: Request) -> AuditLog | None:
    return request.app.state.audit  # type: ignore[no-any-return]


def require_key(request: Request,
                _credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]) -> None:
    """With an API key configured, the request must carry it as a bearer token (the
    ``_bearer`` dependency only documents the scheme in OpenAPI)."""
    check_key(request)


ServiceDep = Annotated[VerifyService, Depends(get_service)]
AuditDep = Annotated[AuditLog | None, Depends(get_audit)]
