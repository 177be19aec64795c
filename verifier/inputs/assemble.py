"""A transcript's events put together: the current turn found, and its question, answer,
tool results and history picked out (:class:`Transcript`, :func:`assemble`).

The current turn starts at the last user message that is not only tool results: its
text is the question, the assistant text after the turn's last tool call or result is
the answer, the turn's tool results are ``tool_results`` and earlier turns' results are
``history``. Each result is ``{"name", "id", "output", "arguments"}``: the name and
arguments come from the call, the id is the call id, the output is the content parsed
(:func:`~verifier.inputs.tool_text.parse_text`; a tool error result stays text).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .events import Event, fail, part_texts
from .tool_text import parse_text


@dataclass(frozen=True)
class Transcript:
    """A transcript read into the arguments of ``verify`` (see the module docstring)."""

    format: str
    question: str | None
    answer: str
    tool_results: list[dict[str, Any]]  # the current turn's: {"name", "id", "output", "arguments"}
    history: list[dict[str, Any]]  # earlier turns' results, the same shape
    turn_start: int  # index of the message that starts the current turn
    errors: frozenset[str] = frozenset()  # call ids whose result is a tool error


def assemble(events: list[Event], count: int, fmt: str) -> Transcript:
    """Split the events into turns and pick out question, answer, results and history."""
    users = [e.index for e in events if e.kind == "user" and e.text.strip()]
    turn = users[-1] if users else 0
    question = "".join(e.text for e in events if e.kind == "user" and e.index == turn) if users else None
    calls: dict[str, Event] = {}
    answered: set[str] = set()
    current: list[dict[str, Any]] = []
    history: list[dict[str, Any]] = []
    errors: set[str] = set()
    last_tool = -1  # position in events of the current turn's last call or result
    for n, e in enumerate(events):
        if e.kind == "call":
            calls[e.call_id] = e
        elif e.kind == "result":
            call = calls.get(e.call_id)
            if call is None:
                fail(e.index, f"tool result for call id {e.call_id!r} has no matching tool call before it")
            answered.add(e.call_id)
            if e.is_error:
                errors.add(e.call_id)
            (current if e.index >= turn else history).append(
                {"name": call.name, "id": e.call_id, "output": _output(e), "arguments": call.arguments})
        if e.kind in ("call", "result") and e.index >= turn:
            last_tool = n
    answer = _join_texts([e for e in events[last_tool + 1:] if e.kind == "assistant" and e.index >= turn])
    if not answer.strip():
        tail = events[last_tool] if last_tool >= 0 else None
        if tail is not None and tail.kind == "call" and tail.call_id not in answered:
            fail(tail.index, f"the transcript ends at a call of {tail.name!r} (id {tail.call_id!r}) "
                              "with no result: there is no final assistant answer")
        fail(count - 1, f"no final assistant answer: no assistant text follows the tool calls and "
                         f"results of the current turn (which starts at message {turn})")
    return Transcript(fmt, question, answer, current, history, turn, frozenset(errors))


def _output(e: Event) -> Any:
    """A tool result's content as a haystack value: each text part read with
    :func:`parse_text` (a tool error stays text); several parts become a list."""
    if isinstance(e.content, str):
        texts = [e.content]
    elif isinstance(e.content, list):
        texts = list(part_texts(e.content, e.index))
    else:
        fail(e.index, "tool result content must be a string or a list of content parts, "
                       f"got {type(e.content).__name__}")
    outputs = [text if e.is_error else parse_text(text) for text in texts]
    return outputs[0] if len(outputs) == 1 else outputs or ""


def _join_texts(events: list[Event]) -> str:
    """Assistant text: parts of one message joined as they are, messages by a blank line."""
    by_message: dict[int, str] = {}
    for e in events:
        by_message[e.index] = by_message.get(e.index, "") + e.text
    return "\n\n".join(text for text in by_message.values() if text.strip())
