"""The common reading of transcript messages: the :class:`Event` each message yields (user
or assistant text, a tool call, a tool result), a message object as a dict, and the
field readers every format's reader shares (:mod:`.readers`).

A field that cannot be read raises :class:`~verifier._errors.TranscriptError` naming the
message (:func:`fail`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from .._errors import JSONInputError, TranscriptError
from .jsonio import loads

_TEXT_PARTS = frozenset({"text", "input_text", "output_text"})
#: Content parts that carry no text to verify (images, files, audio, reasoning, refusals).
SKIPPED_PARTS = frozenset({
    "image", "image_url", "input_image", "input_audio", "input_file", "file", "document",
    "audio", "refusal", "thinking", "redacted_thinking", "reasoning", "search_result",
    "server_tool_use", "web_search_tool_result", "web_fetch_tool_result",
    "code_execution_tool_result", "mcp_tool_use", "mcp_tool_result", "container_upload",
})
_LC_ATTRIBUTES = ("type", "content", "tool_calls", "tool_call_id", "name", "status", "additional_kwargs")


@dataclass(frozen=True, slots=True)
class Event:
    """One thing a message says: user or assistant text, a tool call, a tool result."""

    index: int  # the message it comes from
    kind: str  # "user" | "assistant" | "call" | "result"
    text: str = ""
    call_id: str = ""
    name: str = ""
    arguments: Any = None
    content: Any = None  # a result's content as the message holds it
    is_error: bool = False


def as_dict(message: Any, i: int) -> dict[str, Any]:
    """A message as a dict: dicts as they are, SDK (pydantic) objects dumped, other
    objects with LangChain's attributes read attribute by attribute."""
    if isinstance(message, Mapping):
        return dict(message)
    dump = getattr(message, "model_dump", None)
    if callable(dump):
        dumped = dump()
        if isinstance(dumped, dict):
            return dumped
    if hasattr(message, "type") and hasattr(message, "content"):
        return {name: getattr(message, name) for name in _LC_ATTRIBUTES if hasattr(message, name)}
    fail(i, f"must be a message (a dict or a message object), got {type(message).__name__}")


def fail(i: int, message: str) -> NoReturn:
    raise TranscriptError(message, i)


def kind_of(obj: Any) -> str | None:
    """The ``type`` of a message, item or part, when it is a string."""
    kind = obj.get("type") if isinstance(obj, dict) else None
    return kind if isinstance(kind, str) else None


def string_field(obj: dict[str, Any], key: str, i: int) -> str:
    value = obj.get(key)
    if not isinstance(value, str) or not value:
        fail(i, f"{key!r} must be a non-empty string, got {value!r}")
    return value


def content_text(content: Any, i: int) -> str:
    """The text of message content: a string, None, or a list of parts (text parts kept,
    images and other media skipped, text parts of one message joined as they are)."""
    if content is None or isinstance(content, str):
        return content or ""
    if not isinstance(content, list):
        fail(i, f"content must be a string or a list of content parts, got {type(content).__name__}")
    return "".join(part_texts(content, i))


def part_texts(parts: list[Any], i: int) -> Iterator[str]:
    for j, part in enumerate(parts):
        kind = kind_of(part)
        if isinstance(part, str):
            yield part
        elif kind in _TEXT_PARTS and isinstance(part.get("text"), str):
            yield part["text"]
        elif kind not in SKIPPED_PARTS and kind not in ("tool_use", "tool_call"):
            fail(i, f"content[{j}] is not a known content part: {part!r}")


def call_arguments(arguments: Any) -> Any:
    """Call arguments as context: JSON text parsed (Decimal numbers), else as given."""
    if isinstance(arguments, str):
        try:
            return loads(arguments) if arguments.strip() else {}
        except JSONInputError:
            return arguments
    return {} if arguments is None else arguments
