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

import csv
import io
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

import regex

from .._errors import InputError, JSONInputError, TranscriptError
from ..models import Report
from ..pipeline import verify
from ..policy import Policy
from .jsonio import loads

#: The formats ``verify_messages`` reads, besides ``"auto"``.
FORMATS = ("openai", "openai_responses", "anthropic", "langchain")

_TEXT_PARTS = frozenset({"text", "input_text", "output_text"})
#: Content parts that carry no text to verify (images, files, audio, reasoning, refusals).
_SKIPPED_PARTS = frozenset({
    "image", "image_url", "input_image", "input_audio", "input_file", "file", "document",
    "audio", "refusal", "thinking", "redacted_thinking", "reasoning", "search_result",
    "server_tool_use", "web_search_tool_result", "web_fetch_tool_result",
    "code_execution_tool_result", "mcp_tool_use", "mcp_tool_result", "container_upload",
})
_RESPONSES_CALLS = {"function_call": "arguments", "custom_tool_call": "input"}
_RESPONSES_OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output"})
#: Responses items with nothing to verify: reasoning and the hosted tools' calls.
_RESPONSES_SKIPPED = frozenset({
    "reasoning", "item_reference", "web_search_call", "file_search_call", "computer_call",
    "computer_call_output", "code_interpreter_call", "image_generation_call",
    "local_shell_call", "local_shell_call_output", "mcp_list_tools", "mcp_approval_request",
    "mcp_approval_response", "mcp_call",
})
_LC_TYPES = {
    "human": "human", "ai": "ai", "tool": "tool", "system": "system",
    "HumanMessageChunk": "human", "AIMessageChunk": "ai", "ToolMessageChunk": "tool",
    "SystemMessageChunk": "system",
}
_LC_CLASSES = {
    "HumanMessage": "human", "AIMessage": "ai", "ToolMessage": "tool", "SystemMessage": "system",
    "HumanMessageChunk": "human", "AIMessageChunk": "ai", "ToolMessageChunk": "tool",
    "SystemMessageChunk": "system",
}
_LC_ATTRIBUTES = ("type", "content", "tool_calls", "tool_call_id", "name", "status", "additional_kwargs")


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


@dataclass(frozen=True, slots=True)
class _Event:
    """One thing a message says: user or assistant text, a tool call, a tool result."""

    index: int  # the message it comes from
    kind: str  # "user" | "assistant" | "call" | "result"
    text: str = ""
    call_id: str = ""
    name: str = ""
    arguments: Any = None
    content: Any = None  # a result's content as the message holds it
    is_error: bool = False


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
    dicts = [_as_dict(message, i) for i, message in enumerate(messages)]
    fmt = detect_format(dicts) if format == "auto" else format
    read = _READERS[fmt]
    try:
        events = [event for i, message in enumerate(dicts) for event in read(i, message)]
        return _assemble(events, len(dicts), fmt)
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
    kind = _kind(message)
    if "lc" in message and "kwargs" in message:
        return "langchain", "a serialised LangChain message"
    if kind in _RESPONSES_CALLS or kind in _RESPONSES_OUTPUTS or kind in _RESPONSES_SKIPPED:
        return "openai_responses", f"type {kind!r}"
    if kind in _LC_TYPES and "role" not in message:
        return "langchain", f"type {kind!r}"
    if message.get("role") == "tool" or "tool_calls" in message or "tool_call_id" in message:
        return "openai", "role 'tool'" if message.get("role") == "tool" else "tool_calls"
    content = message.get("content")
    for part in content if isinstance(content, list) else ():
        part_type = _kind(part)
        if part_type in ("input_text", "output_text"):
            return "openai_responses", f"an {part_type!r} content part"
        if part_type in ("tool_use", "tool_result", "thinking", "redacted_thinking"):
            return "anthropic", f"a {part_type!r} content block"
    return None


def _as_dict(message: Any, i: int) -> dict[str, Any]:
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
    _fail(i, f"must be a message (a dict or a message object), got {type(message).__name__}")


def _fail(i: int, message: str) -> NoReturn:
    raise TranscriptError(message, i)


# -- readers: one per format, each yields the events of one message ---------------------


def _read_openai(i: int, message: dict[str, Any]) -> Iterator[_Event]:
    """Chat Completions: system/developer/user/assistant/tool messages."""
    role = message.get("role")
    if role in ("system", "developer"):
        return
    if role == "user":
        yield _Event(i, "user", _text(message.get("content"), i))
    elif role == "assistant":
        yield _Event(i, "assistant", _text(message.get("content"), i))
        calls = message.get("tool_calls") or []
        if not isinstance(calls, list):
            _fail(i, f"'tool_calls' must be a list, got {type(calls).__name__}")
        for j, call in enumerate(calls):
            function = call.get("function") if isinstance(call, dict) else None
            if not isinstance(function, dict):
                _fail(i, f"tool_calls[{j}] must be {{'id', 'type': 'function', 'function': {{'name', "
                         f"'arguments'}}}}, got {call!r}")
            yield _Event(i, "call", call_id=_string(call, "id", i), name=_string(function, "name", i),
                         arguments=_arguments(function.get("arguments")))
    elif role == "tool":
        if message.get("content") is None:
            _fail(i, "tool message has no 'content'")
        yield _Event(i, "result", call_id=_string(message, "tool_call_id", i), content=message["content"])
    else:
        _fail(i, f"unknown role {role!r} (an OpenAI chat message is system, developer, user, "
                 "assistant or tool; the legacy 'function' role is not read)")


def _read_responses(i: int, item: dict[str, Any]) -> Iterator[_Event]:
    """Responses API items: messages, function calls and their outputs."""
    kind = _kind(item) or ("message" if "role" in item and "type" not in item else None)
    if kind == "message":
        role = item.get("role")
        if role in ("system", "developer"):
            return
        if role not in ("user", "assistant"):
            _fail(i, f"unknown role {role!r} (a Responses message is system, developer, user or assistant)")
        yield _Event(i, "user" if role == "user" else "assistant", _text(item.get("content"), i))
    elif kind in _RESPONSES_CALLS:
        yield _Event(i, "call", call_id=_string(item, "call_id", i), name=_string(item, "name", i),
                     arguments=_arguments(item.get(_RESPONSES_CALLS[kind])))
    elif kind in _RESPONSES_OUTPUTS:
        if item.get("output") is None:
            _fail(i, f"{kind} has no 'output'")
        yield _Event(i, "result", call_id=_string(item, "call_id", i), content=item["output"])
    elif kind not in _RESPONSES_SKIPPED:
        _fail(i, f"unknown item type {kind!r} (read: message, function_call, function_call_output, "
                 "custom_tool_call, custom_tool_call_output; skipped: reasoning and hosted tool calls)")


def _read_anthropic(i: int, message: dict[str, Any]) -> Iterator[_Event]:
    """Messages API: user and assistant messages with text, tool_use and tool_result blocks."""
    role, content = message.get("role"), message.get("content")
    if role == "system":
        return
    if role not in ("user", "assistant"):
        _fail(i, f"unknown role {role!r} (an Anthropic message is user or assistant)")
    if isinstance(content, str):
        yield _Event(i, role, content)
        return
    if not isinstance(content, list):
        _fail(i, f"content must be a string or a list of content blocks, got {type(content).__name__}")
    for j, block in enumerate(content):
        kind = _kind(block)
        if kind == "text":
            yield _Event(i, role, _string(block, "text", i))
        elif kind == "tool_use" and role == "assistant":
            yield _Event(i, "call", call_id=_string(block, "id", i), name=_string(block, "name", i),
                         arguments=_arguments(block.get("input")))
        elif kind == "tool_result" and role == "user":
            yield _Event(i, "result", call_id=_string(block, "tool_use_id", i),
                         content=block.get("content", ""), is_error=block.get("is_error") is True)
        elif kind in ("tool_use", "tool_result"):
            _fail(i, f"content[{j}] is a {kind!r} block in a {role!r} message")
        elif kind not in _SKIPPED_PARTS:
            _fail(i, f"content[{j}] is not a known content block: {block!r}")


def _read_langchain(i: int, message: dict[str, Any]) -> Iterator[_Event]:
    """LangChain messages: human, ai (with tool_calls), tool and system."""
    message = _langchain_fields(i, message)
    kind = _LC_TYPES.get(_kind(message) or "")
    if kind == "system":
        return
    if kind == "human":
        yield _Event(i, "user", _text(message.get("content"), i))
    elif kind == "ai":
        yield _Event(i, "assistant", _text(message.get("content"), i))
        calls, extra = message.get("tool_calls") or [], message.get("additional_kwargs")
        if not calls and isinstance(extra, dict) and extra.get("tool_calls"):
            # older serialised AIMessages keep the provider's OpenAI-shaped calls only
            openai = {"role": "assistant", "tool_calls": extra["tool_calls"]}
            yield from (e for e in _read_openai(i, openai) if e.kind == "call")
            return
        if not isinstance(calls, list):
            _fail(i, f"'tool_calls' must be a list, got {type(calls).__name__}")
        for call in calls:
            if not isinstance(call, dict):
                call = {name: getattr(call, name, None) for name in ("name", "args", "id")}
            yield _Event(i, "call", call_id=_string(call, "id", i), name=_string(call, "name", i),
                         arguments=_arguments(call.get("args")))
    elif kind == "tool":
        if message.get("content") is None:
            _fail(i, "tool message has no 'content'")
        yield _Event(i, "result", call_id=_string(message, "tool_call_id", i), content=message["content"],
                     is_error=message.get("status") == "error")
    else:
        _fail(i, f"unknown message type {message.get('type')!r} (a LangChain message is human, ai, "
                 "tool or system)")


def _langchain_fields(i: int, message: dict[str, Any]) -> dict[str, Any]:
    """The fields of a LangChain message in any of its dict forms."""
    if "lc" in message:
        ids, kwargs = message.get("id"), message.get("kwargs")
        name = ids[-1] if isinstance(ids, list) and ids and isinstance(ids[-1], str) else None
        if name not in _LC_CLASSES or not isinstance(kwargs, dict):
            _fail(i, f"not a serialised LangChain message (id {ids!r})")
        return {**kwargs, "type": _LC_CLASSES[name]}
    if isinstance(message.get("data"), dict) and "content" not in message:  # messages_to_dict
        return {**message["data"], "type": message.get("type")}
    return message


_READERS = {
    "openai": _read_openai, "openai_responses": _read_responses,
    "anthropic": _read_anthropic, "langchain": _read_langchain,
}


# -- field readers ----------------------------------------------------------------------


def _kind(obj: Any) -> str | None:
    """The ``type`` of a message, item or part, when it is a string."""
    kind = obj.get("type") if isinstance(obj, dict) else None
    return kind if isinstance(kind, str) else None


def _string(obj: dict[str, Any], key: str, i: int) -> str:
    value = obj.get(key)
    if not isinstance(value, str) or not value:
        _fail(i, f"{key!r} must be a non-empty string, got {value!r}")
    return value


def _text(content: Any, i: int) -> str:
    """The text of message content: a string, None, or a list of parts (text parts kept,
    images and other media skipped, text parts of one message joined as they are)."""
    if content is None or isinstance(content, str):
        return content or ""
    if not isinstance(content, list):
        _fail(i, f"content must be a string or a list of content parts, got {type(content).__name__}")
    return "".join(_part_texts(content, i))


def _part_texts(parts: list[Any], i: int) -> Iterator[str]:
    for j, part in enumerate(parts):
        kind = _kind(part)
        if isinstance(part, str):
            yield part
        elif kind in _TEXT_PARTS and isinstance(part.get("text"), str):
            yield part["text"]
        elif kind not in _SKIPPED_PARTS and kind not in ("tool_use", "tool_call"):
            _fail(i, f"content[{j}] is not a known content part: {part!r}")


def _arguments(arguments: Any) -> Any:
    """Call arguments as context: JSON text parsed (Decimal numbers), else as given."""
    if isinstance(arguments, str):
        try:
            return loads(arguments) if arguments.strip() else {}
        except JSONInputError:
            return arguments
    return {} if arguments is None else arguments


# -- assembly ---------------------------------------------------------------------------


def _assemble(events: list[_Event], count: int, fmt: str) -> Transcript:
    """Split the events into turns and pick out question, answer, results and history."""
    users = [e.index for e in events if e.kind == "user" and e.text.strip()]
    turn = users[-1] if users else 0
    question = "".join(e.text for e in events if e.kind == "user" and e.index == turn) if users else None
    calls: dict[str, _Event] = {}
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
                _fail(e.index, f"tool result for call id {e.call_id!r} has no matching tool call before it")
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
            _fail(tail.index, f"the transcript ends at a call of {tail.name!r} (id {tail.call_id!r}) "
                              "with no result: there is no final assistant answer")
        _fail(count - 1, f"no final assistant answer: no assistant text follows the tool calls and "
                         f"results of the current turn (which starts at message {turn})")
    return Transcript(fmt, question, answer, current, history, turn, frozenset(errors))


def _output(e: _Event) -> Any:
    """A tool result's content as a haystack value: each text part read with
    :func:`parse_text` (a tool error stays text); several parts become a list."""
    if isinstance(e.content, str):
        texts = [e.content]
    elif isinstance(e.content, list):
        texts = list(_part_texts(e.content, e.index))
    else:
        _fail(e.index, "tool result content must be a string or a list of content parts, "
                       f"got {type(e.content).__name__}")
    outputs = [text if e.is_error else parse_text(text) for text in texts]
    return outputs[0] if len(outputs) == 1 else outputs or ""


def _join_texts(events: list[_Event]) -> str:
    """Assistant text: parts of one message joined as they are, messages by a blank line."""
    by_message: dict[int, str] = {}
    for e in events:
        by_message[e.index] = by_message.get(e.index, "") + e.text
    return "\n\n".join(text for text in by_message.values() if text.strip())


# -- text tool results: JSON, markdown tables, CSV ---------------------------------------

_MD_SEPARATOR = regex.compile(r"""
    ^\s*\|?                             # an optional leading pipe
    \s*:?-+:?\s*                        # the first column's dashes, colons for alignment
    (\|\s*:?-+:?\s*)*                   # more columns
    \|?\s*$                             # an optional trailing pipe
""", regex.VERBOSE)
_MD_CELL_SPLIT = regex.compile(r"(?<!\\)\|")  # a pipe not escaped as \|
_CSV_DELIMITERS = ",\t;|"
_CSV_SNIFF_LINES = 20
_MAX_HEADER_CHARS = 64  # a longer first "cell" is prose, not a column name


def parse_text(text: str) -> Any:
    """A non-error tool result's text as a haystack value: JSON parsed (numbers as
    Decimal), else markdown pipe tables, else CSV, as ``{"columns", "rows"}`` with
    string cells; anything else stays the string.

    >>> parse_text("symbol,price\\nAAPL,142.30\\nMSFT,411.22")
    {'columns': ['symbol', 'price'], 'rows': [['AAPL', '142.30'], ['MSFT', '411.22']]}
    """
    stripped = text.strip()
    if stripped[:1] in ("{", "["):
        try:
            return loads(stripped)
        except JSONInputError:
            pass  # not JSON after all (truncated, or a bracketed note): read as text
    found = markdown_tables(text)
    if found is not None:
        return found
    table = csv_table(stripped)
    return table if table is not None else text


def markdown_tables(text: str) -> dict[str, Any] | None:
    """Markdown pipe tables in ``text``: one table alone is ``{"columns", "rows"}``; tables
    with prose around them are ``{"text": prose, "tables": [...]}``; None without one."""
    lines = text.splitlines()
    tables: list[dict[str, Any]] = []
    prose: list[str] = []
    i = 0
    while i < len(lines):
        header = _md_cells(lines[i]) if "|" in lines[i] else None
        if header is not None and i + 1 < len(lines) and _MD_SEPARATOR.match(lines[i + 1]) \
                and "|" in lines[i + 1] and len(_md_cells(lines[i + 1])) == len(header):
            rows = []
            i += 2
            while i < len(lines) and "|" in lines[i] and lines[i].strip():
                cells = _md_cells(lines[i])
                rows.append((cells + [""] * len(header))[:len(header)])
                i += 1
            tables.append({"columns": header, "rows": rows})
        else:
            prose.append(lines[i])
            i += 1
    if not tables:
        return None
    remaining = "\n".join(prose).strip()
    if len(tables) == 1 and not remaining:
        return tables[0]
    return {"text": remaining, "tables": tables} if remaining else {"tables": tables}


def _md_cells(line: str) -> list[str]:
    line = line.strip().removeprefix("|")
    if line.endswith("|") and not line.endswith("\\|"):
        line = line[:-1]
    return [cell.strip().replace("\\|", "|") for cell in _MD_CELL_SPLIT.split(line)]


def csv_table(text: str) -> dict[str, Any] | None:
    """``text`` as a CSV table (the first row names the columns), or None: the delimiter
    (``,`` tab ``;`` ``|``, sniffed with ``csv.Sniffer``) must give every row the same
    number of cells, at least two, over at least two rows."""
    if "\n" not in text:
        return None
    sample = "\n".join(text.splitlines()[:_CSV_SNIFF_LINES])
    candidates: list[Any] = []
    try:
        candidates.append(csv.Sniffer().sniff(sample, delimiters=_CSV_DELIMITERS))
    except csv.Error:
        pass
    candidates += [d for d in _CSV_DELIMITERS if d in sample]
    for dialect in candidates:
        rows = _csv_rows(text, dialect)
        if rows is not None:
            return {"columns": rows[0], "rows": rows[1:]}
    return None


def _csv_rows(text: str, dialect: Any) -> list[list[str]] | None:
    try:
        if isinstance(dialect, str):
            reader = csv.reader(io.StringIO(text), delimiter=dialect)
        else:
            reader = csv.reader(io.StringIO(text), dialect)
        rows = [[cell.strip() for cell in row] for row in reader if any(cell.strip() for cell in row)]
    except csv.Error:
        return None
    width = len(rows[0]) if rows else 0
    if len(rows) < 2 or width < 2 or any(len(row) != width for row in rows):
        return None
    if any(len(cell) > _MAX_HEADER_CHARS for cell in rows[0]):
        return None
    return rows
