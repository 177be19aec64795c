"""Reading JSON from users: numbers as Decimal (142.30 keeps its trailing zero, no
float rounding), clear errors for malformed or absurdly nested input."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

from .._errors import InputError, JSONInputError
from ..deadline import check as _check_deadline

#: Integers longer than this are kept as Decimal text rather than converted to int
#: (Python refuses int() of more than 4,300 digits; the haystack ignores such numbers).
_INT_DIGITS = 40


def _int(text: str) -> int | Decimal:
    return int(text) if len(text) <= _INT_DIGITS else Decimal(text)


class _NotJSON(ValueError):
    def __init__(self, token: str):
        super().__init__(token)
        self.token = token


def _constant(token: str) -> Any:
    # Python's json reads NaN and Infinity; JSON has neither, and a value that is no
    # number would otherwise pass through as text no tool result can support
    raise _NotJSON(token)


#: A JSON string (skipped) or a bare NaN / Infinity (found).
_CONSTANT = re.compile(r'"(?:[^"\\]|\\.)*"|(?P<bare>NaN|-?Infinity)')


def loads(text: str | bytes, where: str = "input") -> Any:
    """Parse JSON text; raise JSONInputError naming ``where``, the line and the column."""
    try:
        return json.loads(text, parse_float=Decimal, parse_int=_int, parse_constant=_constant)
    except _NotJSON as exc:
        raise JSONInputError(f"not valid JSON: {exc.token} is not a JSON number (send it as a string or null)"
                             + _position(text, exc.token), where) from None
    except json.JSONDecodeError as exc:
        raise JSONInputError(f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}", where) from None
    except RecursionError:
        raise JSONInputError("JSON is nested too deeply to read", where) from None
    except UnicodeDecodeError as exc:
        raise JSONInputError(f"not UTF-8 text ({exc.reason})", where) from None


def _position(text: str | bytes, token: str) -> str:
    """" at line L, column C" of the first bare ``token``, outside strings."""
    decoded = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    for m in _CONSTANT.finditer(decoded):
        if m.group("bare") == token:
            line = decoded.count("\n", 0, m.start()) + 1
            return f" at line {line}, column {m.start() - decoded.rfind(chr(10), 0, m.start())}"
    return ""


def load_path(path: str | Path) -> Any:
    """Parse the JSON file at ``path``."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror})", str(path)) from None
    return loads(data, str(path))


def read_jsonl(path: str | Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """(``file:line``, object) for each non-blank line of a JSONL file; a line that is
    not a JSON object is an error naming it."""
    for n, line in enumerate(read_text(path).splitlines(), 1):
        if line.strip():
            where = f"{path}:{n}"
            record = loads(line, where)
            if not isinstance(record, dict):
                raise InputError("each line must be a JSON object", where)
            yield where, record


def read_text(path: str | Path) -> str:
    """The UTF-8 text of ``path``, with a clear error."""
    path = Path(path)
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror})", str(path)) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason})", str(path)) from None


def dumps(value: Any) -> str:
    """Compact JSON text for values that may hold Decimals, written exactly as they
    were read (``142.30`` stays ``142.30``). The standard encoder would go through
    float, which is why this small encoder exists; it walks with its own stack, so any
    depth the reader accepted is written (a recursive writer fails near 1,000 levels)."""
    out: list[str] = []
    stack: list[Any] = [value]
    while stack:
        _check_deadline()  # the service writes a cache key of every body: a 2.6 MB one is 0.7 s
        item = stack.pop()
        if isinstance(item, _Token):
            out.append(item.text)
        elif isinstance(item, Decimal):
            if not item.is_finite():
                raise InputError(f"{item} is not a JSON number", "value")
            out.append(str(item))
        elif isinstance(item, dict):
            parts: list[Any] = [_Token("{")]
            for i, (k, v) in enumerate(item.items()):
                _check_deadline()
                parts += [_Token((", " if i else "") + json.dumps(str(k), ensure_ascii=False) + ": "), v]
            stack.extend(reversed([*parts, _Token("}")]))
        elif isinstance(item, (list, tuple)):
            parts = [_Token("[")]
            for i, v in enumerate(item):
                parts += ([_Token(", ")] if i else []) + [v]
            stack.extend(reversed([*parts, _Token("]")]))
        else:
            out.append(json.dumps(item, ensure_ascii=False))
    return "".join(out)


class _Token:
    """Literal text for :func:`dumps`'s stack."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


def count_leaves(value: Any, limit: int) -> int:
    """The scalars inside ``value`` (dicts' values and lists' items, walked without
    recursion), counted only up to ``limit + 1``: a cheap look before indexing, so an
    oversized input is refused at once rather than after seconds of indexing. A lower
    bound of a Haystack's leaves (which count keys that name something too)."""
    count, stack = 0, [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        else:
            count += 1
            if count > limit:
                break
    return count
