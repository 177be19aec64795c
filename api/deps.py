"""Dependencies shared by the routers (``Annotated`` aliases, as in FastAPI's template)."""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import Depends, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from .audit import AuditLog
from .service import VerifyService
from .settings import Settings

_bearer = HTTPBearer(auto_error=False, description="The key set in VERIFIER_API_KEY, when one is set.")


def get_settings(request: Request) -> Settings:
    return request.app.state.settings  # type: ignore[no-any-return]


def get_service(request: Request) -> VerifyService:
    return request.app.state.service  # type: ignore[no-any-return]


def get_audit(request: Request) -> AuditLog | None:
    return request.app.state.audit  # type: ignore[no-any-return]


def require_key(settings: Annotated[Settings, Depends(get_settings)],
                credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]) -> None:
    """With an API key configured, the request must carry it as a bearer token."""
    if settings.api_key is None:
        return
    expected = settings.api_key.get_secret_value().encode()
    if credentials is None or not secrets.compare_digest(credentials.credentials.encode(), expected):
        raise HTTPException(401, "missing or wrong API key: send 'Authorization: Bearer <key>'",
                            headers={"WWW-Authenticate": "Bearer"})


SettingsDep = Annotated[Settings, Depends(get_settings)]
ServiceDep = Annotated[VerifyService, Depends(get_service)]
AuditDep = Annotated[AuditLog | None, Depends(get_audit)]
