"""A real uvicorn server on loopback for API tests: started in a thread, stopped
gracefully (the app's shutdown runs, so the audit log is flushed)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn
from verifier.api.app import create_app
from verifier.api.server import uvicorn_options
from verifier.api.settings import Settings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running(settings: Settings) -> Iterator[str]:
    """Serve ``create_app(settings)`` on a free loopback port; yields the base URL."""
    port = free_port()
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning",
                            lifespan="on", **uvicorn_options(settings))
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
