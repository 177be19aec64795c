"""Real servers on loopback for the API tests and the benchmarks.

``running(settings)``: uvicorn in a thread of this process, stopped gracefully (the app's
shutdown runs, so the audit log is flushed). ``serving(command, env)``: the service in a
process of its own (``verifier serve`` by default), for what a thread cannot show: several
workers, a signal, a kill -9; waits until /healthz answers, stops it with a signal.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Self

import httpx
import uvicorn
from verifier.api.app import create_app
from verifier.api.server import uvicorn_options
from verifier.api.settings import Settings

#: ``python -m`` this, with ``--port N`` added: the service as an operator starts it.
SERVE = ("verifier.cli", "serve")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running(settings: Settings, http: str = "auto") -> Iterator[str]:
    """Serve ``create_app(settings)`` on a free loopback port; yields the base URL.
    ``http`` picks uvicorn's HTTP/1.1 protocol (auto, h11 or httptools)."""
    port = free_port()
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning",
                            lifespan="on", **uvicorn_options(settings, http))
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


class Served:
    """A service process: its base URL, port and ``subprocess.Popen``."""

    def __init__(self, proc: subprocess.Popen[bytes], port: int):
        self.proc, self.port, self.base = proc, port, f"http://127.0.0.1:{port}"

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 60) -> float:
        """Send ``sig`` (SIGTERM, SIGINT: graceful) and wait for the exit; the seconds it took."""
        start = time.monotonic()
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        self.proc.wait(timeout)
        return time.monotonic() - start


@contextmanager
def serving(env: dict[str, str], cwd: Path | str, command: Sequence[str] = SERVE,
            stop: int = signal.SIGTERM, start_timeout: float = 60,
            stderr: int | IO[Any] | None = subprocess.DEVNULL) -> Iterator[Served]:
    """``python -m <command> --port N`` with ``env`` over this process's environment (no
    inherited PROMETHEUS_MULTIPROC_DIR unless ``env`` sets one), in ``cwd``; yields once
    /healthz answers 200. On leaving, ``stop`` is sent (unless the test already stopped or
    killed it) and the exit awaited; a process that will not exit is killed."""
    port = free_port()
    full = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"} | env
    proc = subprocess.Popen([sys.executable, "-m", *command, "--port", str(port)], env=full, cwd=cwd,
                            stdout=subprocess.DEVNULL, stderr=stderr)
    served = Served(proc, port)
    try:
        deadline = time.monotonic() + start_timeout
        while True:
            try:
                if httpx.get(f"{served.base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the service did not start: {' '.join(command)} (exit {proc.poll()})")
            time.sleep(0.1)
        yield served
    finally:
        try:
            served.stop(stop)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


class Load:
    """``workers`` client threads that POST ``body(conversation_id)`` to /v1/verify one
    after another, each id new, until the server goes away or the block ends; ``answered``
    holds the ids that got a 200 (so a test can look for their audit records)."""

    def __init__(self, base: str, body: Callable[[str], dict[str, Any]], workers: int = 8):
        self.base, self.body, self.answered = base, body, list[str]()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._client, args=(w,), daemon=True) for w in range(workers)]

    def _client(self, worker: int) -> None:
        with httpx.Client(timeout=30) as http:
            k = 0
            while not self._stop.is_set():
                cid, k = f"w{worker}-{k}", k + 1
                try:
                    r = http.post(f"{self.base}/v1/verify", json=self.body(cid))
                except httpx.TransportError:
                    return  # the server is gone
                if r.status_code == 200:
                    self.answered.append(cid)

    def wait_for(self, answered: int, timeout: float = 30) -> None:
        """Until ``answered`` requests got a 200 (or ``timeout`` seconds passed)."""
        deadline = time.monotonic() + timeout
        while len(self.answered) < answered and time.monotonic() < deadline:
            time.sleep(0.005)

    def __enter__(self) -> Self:
        for t in self._threads:
            t.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(35)
