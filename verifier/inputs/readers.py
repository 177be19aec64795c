"""One reader per transcript format: each turns one message (or Responses item) into the
:class:`~verifier.inputs.events.Event` list it says, and raises
:class:`~verifier._errors.TranscriptError` naming the message when it cannot.

- ``openai``: Chat Completions messages; ``assistant`` ``tool_calls``, ``tool`` messages.
- ``openai_responses``: Responses API items (``function_call``, ``function_call_output``,
  ``message`` with ``input_text`` / ``output_text`` parts).
- ``anthropic``: Messages API; ``tool_use`` and ``tool_result`` content blocks.
- ``langchain``: message objects' dict form, ``messages_to_dict`` form, or the
  ``{"lc": 1, ...}`` serialised form. LangChain itself is not imported.

The item and message types named here are also what :mod:`.detect` tells formats apart by.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .events import SKIPPED_PARTS, Event, call_arguments, content_text, fail, kind_of, string_field

RESPONSES_CALLS = {"function_call": "arguments", "custom_tool_call": "input"}
RESPONSES_OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output"})
#: Responses items with nothing to verify: reasoning and the hosted tools' calls.
RESPONSES_SKIPPED = frozenset({
    "reasoning", "item_reference", "web_search_call", "file_search_call", "computer_call",
    "computer_call_output", "code_interpreter_call", "image_generation_call",
    "local_shell_call", "local_shell_call_output", "mcp_list_tools", "mcp_approval_request",
    "mcp_approval_response", "mcp_call",
})
LC_TYPES = {
    "human": "human", "ai": "ai", "tool": "tool", "system": "system",
    "HumanMessageChunk": "human", "AIMessageChunk": "ai", "ToolMessageChunk": "tool",
    "SystemMessageChunk": "system",
}
_LC_CLASSES = {
    "HumanMessage": "human", "AIMessage": "ai", "ToolMessage": "tool", "SystemMessage": "system",
    "HumanMessageChunk": "human", "AIMessageChunk": "ai", "ToolMessageChunk": "tool",
    "SystemMessageChunk": "system",
}


def _read_openai(i: int, message: dict[str, Any]) -> Iterator[Event]:
    """Chat Completions: system/developer/user/assistant/tool messages."""
    role = message.get("role")
    if role in ("system", "developer"):
        return
    if role == "user":
        yield Event(i, "user", content_text(message.get("content"), i))
    elif role == "assistant":
        yield Event(i, "assistant", content_text(message.get("content"), i))
        calls = message.get("tool_calls") or []
        if not isinstance(calls, list):
            fail(i, f"'tool_calls' must be a list, got {type(calls).__name__}")
        for j, call in enumerate(calls):
            function = call.get("function") if isinstance(call, dict) else None
            if not isinstance(function, dict):
                fail(i, f"tool_calls[{j}] must be {{'id', 'type': 'function', 'function': {{'name', "
                         f"'arguments'}}}}, got {call!r}")
            yield Event(i, "call", call_id=string_field(call, "id", i), name=string_field(function, "name", i),
                         arguments=call_arguments(function.get("arguments")))
    elif role == "tool":
        if message.get("content") is None:
            fail(i, "tool message has no 'content'")
        yield Event(i, "result", call_id=string_field(message, "tool_call_id", i), content=message["content"])
    else:
        fail(i, f"unknown role {role!r} (an OpenAI chat message is system, developer, user, "
                 "assistant or tool; the legacy 'function' role is not read)")


def _read_responses(i: int, item: dict[str, Any]) -> Iterator[Event]:
    """Responses API items: messages, function calls and their outputs."""
    kind = kind_of(item) or ("message" if "role" in item and "type" not in item else None)
    if kind == "message":
        role = item.get("role")
        if role in ("system", "developer"):
            return
        if role not in ("user", "assistant"):
            fail(i, f"unknown role {role!r} (a Responses message is system, developer, user or assistant)")
        yield Event(i, "user" if role == "user" else "assistant", content_text(item.get("content"), i))
    elif kind in RESPONSES_CALLS:
        yield Event(i, "call", call_id=string_field(item, "call_id", i), name=string_field(item, "name", i),
                     arguments=call_arguments(item.get(RESPONSES_CALLS[kind])))
    elif kind in RESPONSES_OUTPUTS:
        if item.get("output") is None:
            fail(i, f"{kind} has no 'output'")
        yield Event(i, "result", call_id=string_field(item, "call_id", i), content=item["output"])
    elif kind not in RESPONSES_SKIPPED:
        fail(i, f"unknown item type {kind!r} (read: message, function_call, function_call_output, "
                 "custom_tool_call, custom_tool_call_output; skipped: reasoning and hosted tool calls)")


def _read_anthropic(i: int, message: dict[str, Any]) -> Iterator[Event]:
    """Messages API: user and assistant messages with text, tool_use and tool_result blocks."""
    role, content = message.get("role"), message.get("content")
    if role == "system":
        return
    if role not in ("user", "assistant"):
        fail(i, f"unknown role {role!r} (an Anthropic message is user or assistant)")
    if isinstance(content, str):
        yield Event(i, role, content)
        return
    if not isinstance(content, list):
        fail(i, f"content must be a string or a list of content blocks, got {type(content).__name__}")
    for j, block in enumerate(content):
        kind = kind_of(block)
        if kind == "text":
            yield Event(i, role, string_field(block, "text", i))
        elif kind == "tool_use" and role == "assistant":
            yield Event(i, "call", call_id=string_field(block, "id", i), name=string_field(block, "name", i),
                         arguments=call_arguments(block.get("input")))
        elif kind == "tool_result" and role == "user":
            yield Event(i, "result", call_id=string_field(block, "tool_use_id", i),
                         content=block.get("content", ""), is_error=block.get("is_error") is True)
        elif kind in ("tool_use", "tool_result"):
            fail(i, f"content[{j}] is a {kind!r} block in a {role!r} message")
        elif kind not in SKIPPED_PARTS:
            fail(i, f"content[{j}] is not a known content block: {block!r}")


def _read_langchain(i: int, message: dict[str, Any]) -> Iterator[Event]:
    """LangChain messages: human, ai (with tool_calls), tool and system."""
    message = _langchain_fields(i, message)
    kind = LC_TYPES.get(kind_of(message) or "")
    if kind == "system":
        return
    if kind == "human":
        yield Event(i, "user", content_text(message.get("content"), i))
    elif kind == "ai":
        yield Event(i, "assistant", content_text(message.get("content"), i))
        calls, extra = message.get("tool_calls") or [], message.get("additional_kwargs")
        if not calls and isinstance(extra, dict) and extra.get("tool_calls"):
            # older serialised AIMessages keep the provider's OpenAI-shaped calls only
            openai = {"role": "assistant", "tool_calls": extra["tool_calls"]}
            yield from (e for e in _read_openai(i, openai) if e.kind == "call")
            return
        if not isinstance(calls, list):
            fail(i, f"'tool_calls' must be a list, got {type(calls).__name__}")
        for call in calls:
            if not isinstance(call, dict):
                call = {name: getattr(call, name, None) for name in ("name", "args", "id")}
            yield Event(i, "call", call_id=string_field(call, "id", i), name=string_field(call, "name", i),
                         arguments=call_arguments(call.get("args")))
    elif kind == "tool":
        if message.get("content") is None:
            fail(i, "tool message has no 'content'")
        yield Event(i, "result", call_id=string_field(message, "tool_call_id", i), content=message["content"],
                     is_error=message.get("status") == "error")
    else:
        fail(i, f"unknown message type {message.get('type')!r} (a LangChain message is human, ai, "
                 "tool or system)")


def _langchain_fields(i: int, message: dict[str, Any]) -> dict[str, Any]:
    """The fields of a LangChain message in any of its dict forms."""
    if "lc" in message:
        ids, kwargs = message.get("id"), message.get("kwargs")
        name = ids[-1] if isinstance(ids, list) and ids and isinstance(ids[-1], str) else None
        if name not in _LC_CLASSES or not isinstance(kwargs, dict):
            fail(i, f"not a serialised LangChain message (id {ids!r})")
        return {**kwargs, "type": _LC_CLASSES[name]}
    if isinstance(message.get("data"), dict) and "content" not in message:  # messages_to_dict
        return {**message["data"], "type": message.get("type")}
    return message


READERS = {
    "openai": _read_openai, "openai_responses": _read_responses,
    "anthropic": _read_anthropic, "langchain": _read_langchain,
}
