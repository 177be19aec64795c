"""The API docs pages, offline: ``/docs`` (Swagger UI) and ``/redoc`` (ReDoc) load their
JavaScript and CSS from the fastapi-offline package, served under :data:`ASSETS`, never
from a CDN (FastAPI's own pages do, and draw a blank page without the network).

ReDoc's sidebar still shows Redocly's logo from Redocly's CDN; /redoc is served here with
a Content-Security-Policy that allows images from this origin only, so the browser does not
even try (the page draws the same, without the logo).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html
from fastapi.responses import HTMLResponse
from fastapi_offline import FastAPIOffline

#: Where fastapi-offline serves the Swagger UI and ReDoc assets it bundles.
ASSETS = "/static-offline-docs"


def docs_app(**kwargs: Any) -> FastAPI:
    """A FastAPI app (``kwargs`` as for FastAPI) with the offline /docs and /redoc."""
    app = FastAPIOffline(redoc_url=None, static_url=ASSETS, **kwargs)

    @app.get("/redoc", include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        page = get_redoc_html(openapi_url=f"{root}{app.openapi_url}", title=f"{app.title} - ReDoc",
                              redoc_js_url=f"{root}{ASSETS}/redoc.standalone.js",
                              redoc_favicon_url=f"{root}{ASSETS}/favicon.png", with_google_fonts=False)
        page.headers["Content-Security-Policy"] = "img-src 'self' data:"
        return page

    return app
