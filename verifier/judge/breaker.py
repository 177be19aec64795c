"""The judge client's circuit breaker (see :class:`verifier.judge.client.OpenAIJudge`)."""

from __future__ import annotations

import threading
import time


class CircuitBreaker:
    """Stops calling a failing judge: after ``threshold`` failures in a row it opens for
    ``cooldown`` seconds (calls fail at once), then lets one trial call through."""

    def __init__(self, threshold: int = 5, cooldown: float = 30.0) -> None:
        self.threshold, self.cooldown = threshold, cooldown
        self.failures = 0
        self.opened_at: float | None = None
        self._lock = threading.Lock()

    def allow(self) -> bool:
        """Whether a call may go out now."""
        with self._lock:
            if self.opened_at is None:
                return True
            if time.monotonic() - self.opened_at >= self.cooldown:
                self.opened_at = time.monotonic()  # half-open: this one call, then wait again
                return True
            return False

    def success(self) -> None:
        """Record a call that worked: the breaker closes."""
        with self._lock:
            self.failures, self.opened_at = 0, None

    def failure(self) -> None:
        """Record a failed call; the threshold-th in a row opens the breaker."""
        with self._lock:
            self.failures += 1
            if self.failures >= self.threshold:
                self.opened_at = time.monotonic()

    @property
    def is_open(self) -> bool:
        """Whether calls are being refused."""
        return self.opened_at is not None
