"""A deadline for one verification: a monotonic expiry that long loops check.

::

    with Deadline(300).active():   # 300 ms from now, for this thread's work
        report = verify(...)       # raises DeadlineExceeded once it runs out

``verify()`` sets one from ``Policy.deadline_ms`` (None by default: no deadline); the
service sets one from its time budget. The active deadline lives in a context variable,
so the stages, the haystack's walk, extraction and the derive search call the module's
:func:`check` without it being passed down; nested deadlines keep the sooner one. An
expired deadline stays expired, so every later check raises again: work that outruns it
stops at the next check (a few milliseconds at most), not at the end.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from ._errors import DeadlineExceeded

__all__ = ["Deadline", "DeadlineExceeded", "check", "current"]

_CURRENT: ContextVar[Deadline | None] = ContextVar("verifier_deadline", default=None)


class Deadline:
    """``ms`` milliseconds from now (``time.monotonic``)."""

    __slots__ = ("expires", "ms", "started")

    def __init__(self, ms: float):
        self.ms = ms
        self.started = time.monotonic()
        self.expires = self.started + ms / 1000

    def __repr__(self) -> str:
        return f"Deadline({self.ms:g} ms, {self.remaining() * 1000:.0f} ms left)"

    def remaining(self) -> float:
        """Seconds left (negative once past)."""
        return self.expires - time.monotonic()

    def expired(self) -> bool:
        return time.monotonic() >= self.expires

    def check(self) -> None:
        """Raise :class:`DeadlineExceeded` if the deadline has passed."""
        now = time.monotonic()
        if now >= self.expires:
            raise DeadlineExceeded(round((now - self.started) * 1000), round(self.ms))

    @contextmanager
    def active(self) -> Iterator[Deadline]:
        """Make this the deadline :func:`check` enforces in this context (the sooner of it
        and one already active); yields the one in force."""
        outer = _CURRENT.get()
        inner = self if outer is None or self.expires < outer.expires else outer
        token = _CURRENT.set(inner)
        try:
            yield inner
        finally:
            _CURRENT.reset(token)


def current() -> Deadline | None:
    """The deadline in force here, or None."""
    return _CURRENT.get()


def check() -> None:
    """Raise :class:`DeadlineExceeded` if the deadline in force has passed (no deadline:
    nothing to do). Cheap enough for every leaf of a walk."""
    deadline = _CURRENT.get()
    if deadline is not None:
        deadline.check()
