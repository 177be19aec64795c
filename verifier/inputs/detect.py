"""Which format a transcript is in (``format="auto"``): the first message that shows one
unmistakably decides; plain ``{role, content}`` chat reads as ``openai``, and two formats
shown by different messages is an error naming both.
"""

from __future__ import annotations

from typing import Any

from .._errors import TranscriptError
from .events import kind_of
from .readers import LC_TYPES, RESPONSES_CALLS, RESPONSES_OUTPUTS, RESPONSES_SKIPPED


def detect_format(messages: list[dict[str, Any]]) -> str:
    """The format the messages show; plain ``{role, content}`` chat reads as ``openai``.

    Two formats shown by different messages is an error naming both."""
    seen: dict[str, tuple[int, str]] = {}
    for i, message in enumerate(messages):
        signal = _signal(message)
        if signal is not None and signal[0] not in seen:
            seen[signal[0]] = (i, signal[1])
    if len(seen) > 1:
        (fmt1, (i1, why1)), (fmt2, (i2, why2)) = list(seen.items())[:2]
        raise TranscriptError(
            f"mixes formats: message {i1} looks like {fmt1} ({why1}), message {i2} like {fmt2} "
            f"({why2}); pass format= to read it as one", i2)
    return next(iter(seen), "openai")


def _signal(message: dict[str, Any]) -> tuple[str, str] | None:
    """The format one message shows unmistakably, and why; None for plain chat."""
    kind = kind_of(message)
    if "lc" in message and "kwargs" in message:
        return "langchain", "a serialised LangChain message"
    if kind in RESPONSES_CALLS or kind in RESPONSES_OUTPUTS or kind in RESPONSES_SKIPPED:
        return "openai_responses", f"type {kind!r}"
    if kind in LC_TYPES and "role" not in message:
        return "langchain", f"type {kind!r}"
    if message.get("role") == "tool" or "tool_calls" in message or "tool_call_id" in message:
        return "openai", "role 'tool'" if message.get("role") == "tool" else "tool_calls"
    content = message.get("content")
    for part in content if isinstance(content, list) else ():
        part_type = kind_of(part)
        if part_type in ("input_text", "output_text"):
            return "openai_responses", f"an {part_type!r} content part"
        if part_type in ("tool_use", "tool_result", "thinking", "redacted_thinking"):
            return "anthropic", f"a {part_type!r} content block"
    return None
