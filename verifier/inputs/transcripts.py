"""Transcripts: an assistant's message history, as its SDK holds it, read into the
arguments of :func:`verify` and verified.

>>> messages = [
...     {"role": "user", "content": "Where is AAPL trading?"},
...     {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function",
...      "function": {"name": "get_quote", "arguments": '{"symbol": "AAPL"}'}}]},
...     {"role": "tool", "tool_call_id": "call_1", "content": '{"symbol": "AAPL", "price": 142.30}'},
...     {"role": "assistant", "content": "AAPL trades at $142.30."},
... ]
>>> report = verify_messages(messages)
>>> [(i.text, i.status, i.evidence[0].tool_id, i.evidence[0].path) for i in report.items]
[('AAPL', 'exact', 'call_1', '$.symbol'), ('$142.30', 'exact', 'call_1', '$.price')]

Formats (``format="auto"`` tells them apart by the first message that shows one):

- ``openai``: Chat Completions messages; ``assistant`` ``tool_calls``, ``tool`` messages.
- ``openai_responses``: Responses API items (``function_call``, ``function_call_output``,
  ``message`` with ``input_text`` / ``output_text`` parts).
- ``anthropic``: Messages API; ``tool_use`` and ``tool_result`` content blocks.
- ``langchain``: message objects (duck-typed: ``.type``, ``.content``, ``.tool_calls``,
  ``.tool_call_id``), their dict form, ``messages_to_dict`` form, or the ``{"lc": 1, ...}``
  serialised form. LangChain itself is not imported.

The current turn starts at the last user message that is not only tool results: its
text is the question, the assistant text after the turn's last tool call or result is
the answer, the turn's tool results are ``tool_results`` and earlier turns' results are
``history`` (a value found only there is ``stale``). Each result is
``{"name", "id", "output", "arguments"}``: the name and arguments come from the call, the
id is the call id (so ``Evidence.tool_id`` points back to the message), the output is
the content parsed: JSON (numbers as ``Decimal``), else a CSV or markdown table as
``{"columns", "rows"}``, else the text. A tool error result stays text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._errors import InputError, TranscriptError
from ..models import Report
from ..pipeline import verify
from ..policy import Policy
from .assemble import Transcript, assemble
from .detect import detect_format
from .events import as_dict
from .readers import READERS
from .tool_text import csv_table, markdown_tables, parse_text

__all__ = ["FORMATS", "Transcript", "csv_table", "detect_format", "markdown_tables", "parse_text",
           "read_transcript", "verify_messages"]

#: The formats ``verify_messages`` reads, besides ``"auto"``.
FORMATS = ("openai", "openai_responses", "anthropic", "langchain")


def verify_messages(
    messages: Any,
    *,
    format: str = "auto",
    locale: str = "en_US",
    policy: Policy | dict[str, Any] | None = None,
) -> Report:
    """Verify the final answer of an assistant transcript against its current turn's
    tool results (earlier turns' results as ``history``), and return the :class:`Report`.

    Raises :class:`TranscriptError` naming the message at fault when the transcript
    cannot be read, and what ``verify`` raises for unusable input.
    """
    t = read_transcript(messages, format=format)
    return verify(t.answer, t.tool_results, question=t.question, locale=locale, policy=policy,
                  history=t.history or None)


def read_transcript(messages: Any, *, format: str = "auto") -> Transcript:
    """The question, answer, tool results and history a transcript holds."""
    if format != "auto" and format not in FORMATS:
        raise InputError(f"unknown format {format!r}; use 'auto' or one of {', '.join(FORMATS)}", "format")
    if isinstance(messages, Mapping):
        if not isinstance(messages.get("messages"), (list, tuple)):
            raise TranscriptError("must be a list of messages, got a dict without a 'messages' list")
        messages = messages["messages"]  # a chat request body, or a saved transcript file
    if not isinstance(messages, (list, tuple)):
        raise TranscriptError(f"must be a list of messages, got {type(messages).__name__}")
    if not messages:
        raise TranscriptError("is empty: there is no answer to verify")
    dicts = [as_dict(message, i) for i, message in enumerate(messages)]
    fmt = detect_format(dicts) if format == "auto" else format
    read = READERS[fmt]
    try:
        events = [event for i, message in enumerate(dicts) for event in read(i, message)]
        return assemble(events, len(dicts), fmt)
    except TranscriptError as exc:
        if format == "auto":
            raise
        try:
            looks = detect_format(dicts)
        except TranscriptError:
            raise exc from None
        if looks == fmt:
            raise
        # a wrong explicit format fails on some field; say what the messages look like
        message = str(exc).removeprefix(f"{exc.where}: ")
        raise TranscriptError(f"{message} (read as {fmt!r}, but the messages look like {looks!r}: "
                              "try format='auto')", exc.index) from None
