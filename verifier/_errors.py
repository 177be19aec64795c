"""Errors the verifier raises. Every one is a ``ValueError`` with a human message.

::

    VerifierError (ValueError)
    ├── InputError           the answer, tool results or options are not usable
    │   ├── JSONInputError   a file or body is not valid JSON (line and column given)
    │   └── TranscriptError  a message transcript cannot be read (message index given)
    └── LimitError           an input is over a configured limit (size, leaves, length)
        └── DeadlineExceeded the verification ran past its deadline (Policy.deadline_ms)

Normalizers raise ``normalizers.NormalizeError`` (also a ``ValueError``) on bad values;
the verifier never lets one escape from ``verify``: an unreadable value in an answer
becomes an unsupported item, not an exception.
"""

from __future__ import annotations


class VerifierError(ValueError):
    """Base of every error raised by the verifier."""


class InputError(VerifierError):
    """An input is unusable; ``where`` names the argument or JSON path at fault."""

    def __init__(self, message: str, where: str | None = None):
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)


class JSONInputError(InputError):
    """Text that should be JSON is not."""


class TranscriptError(InputError):
    """A message transcript cannot be read; ``index`` is the message at fault (None: the list)."""

    def __init__(self, message: str, index: int | None = None):
        self.index = index
        super().__init__(message, "messages" if index is None else f"messages[{index}]")


class LimitError(VerifierError):
    """An input is larger than the configured limit."""

    def __init__(self, what: str, size: int, limit: int):
        self.what, self.size, self.limit = what, size, limit
        super().__init__(f"{what} is {size:,}, over the limit of {limit:,}")


class DeadlineExceeded(LimitError):
    """The verification ran past its deadline (``Policy.deadline_ms``, or the service's
    time budget): ``size`` is the milliseconds spent, ``limit`` the deadline's."""

    def __init__(self, elapsed_ms: int, limit_ms: int):
        super().__init__("time spent in milliseconds", elapsed_ms, limit_ms)
