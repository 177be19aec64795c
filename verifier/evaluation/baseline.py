"""The naive baseline every figure is compared with: the seeds' verify pass.

Numbers and ticker-shaped words are pulled from the answer with a regex and
substring-searched in the JSON text of the tool results, after stripping thousands
separators and trailing zeros (142.30 -> 142.3) and trying a percent as a fraction
(1.4% -> 0.014). Nothing else: no locales, scales, dates, rounding or paths.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from verifier import stoplists

_GROUPS = re.compile(r"(\d)[,](?=\d{3}\b)")
_NUMBER = re.compile(r"\d+(?:\.\d+)?%?")
_TICKER = re.compile(r"(?<![\w$])\$?[A-Z]{1,5}(?:\.[A-Z])?\b")


def _plain(text: str) -> str:
    return _GROUPS.sub(r"\1", text)


def _variants(token: str) -> list[str]:
    pct = token.endswith("%")
    digits = token.rstrip("%")
    out = [digits]
    if "." in digits:
        out.append(digits.rstrip("0").rstrip("."))
    if pct:
        try:
            out.append(format((Decimal(digits) / 100).normalize(), "f"))
        except InvalidOperation:  # pragma: no cover - the regex only passes digits
            pass
    return out


def haystack_text(tool_results: Any) -> str:
    """The JSON text of the tool results, separators stripped."""
    return _plain(json.dumps(tool_results, default=str))


def unsupported(answer: str, tool_results: Any, haystack: str | None = None) -> list[tuple[int, int, str]]:
    """(start, end, token) of every number or ticker not found in the JSON text."""
    hay = haystack if haystack is not None else haystack_text(tool_results)
    stop = stoplists.ticker_stoplist()
    missing: list[tuple[int, int, str]] = []
    for m in _NUMBER.finditer(answer):
        token = _plain(m.group())
        if not any(v in hay for v in _variants(token)):
            missing.append((m.start(), m.end(), m.group()))
    for m in _TICKER.finditer(answer):
        symbol = m.group().lstrip("$")
        if symbol not in stop and symbol not in hay:
            missing.append((m.start(), m.end(), m.group()))
    return missing
