"""The optional API key: with ``VERIFIER_API_KEY`` set, protected routes need it as a
bearer token. Compared in constant time."""

from __future__ import annotations

import secrets

from fastapi import HTTPException, Request


def check_key(request: Request) -> None:
    """Raise 401 unless the request carries the configured key (no key configured: pass)."""
    key = request.app.state.settings.api_key
    if key is None:
        return
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not secrets.compare_digest(token.strip().encode(),
                                                                key.get_secret_value().encode()):
        raise HTTPException(401, "missing or wrong API key: send 'Authorization: Bearer <key>'",
                            headers={"WWW-Authenticate": "Bearer"})
