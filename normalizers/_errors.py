"""The one error every normalizer raises."""

from __future__ import annotations


class NormalizeError(ValueError):
    """A text could not be read as a value of the expected kind.

    Carries the offending input (``text``), the kind that was expected and, where one
    can be guessed, a ``suggestion``. Subclasses ``ValueError`` so callers that
    already catch that keep working.
    """

    def __init__(self, kind: str, text: object, reason: str, suggestion: str | None = None):
        self.kind = kind
        self.text = text
        self.reason = reason
        self.suggestion = suggestion
        message = f"cannot read {text!r} as {kind}: {reason}"
        if suggestion:
            message += f" (did you mean {suggestion!r}?)"
        super().__init__(message)


def require_text(kind: str, text: object, max_len: int = 10_000) -> str:
    """``text`` as a non-empty ``str`` of bounded length, or a NormalizeError."""
    if not isinstance(text, str):
        raise NormalizeError(kind, text, f"expected a string, got {type(text).__name__}")
    if not text.strip():
        raise NormalizeError(kind, text, "empty text")
    if len(text) > max_len:
        raise NormalizeError(kind, text[:40] + "...", f"longer than {max_len} characters")
    return text
