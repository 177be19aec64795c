"""How tool data declares the scale of its figures: a key that names it
(``revenue_millions``, ``$M``), a unit field ("millions", "百万円"), a table's corner or
title ("(In millions)", "($ in thousands, except per share data)", "$'000") and which
rows and columns such a unit leaves alone (per-share rows, price and count columns).
The haystack applies what these functions read."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from functools import lru_cache
from typing import Any

import regex

from verifier import stoplists
from verifier.normalizers import numbers

from .percent_words import UNIT_FIELDS

_DIGIT = regex.compile(r"\d")

_SCALE_KEY_WORDS = (
    (regex.compile(r"(?i)(trillion|(?<![a-z])tn(?![a-z]))"), Decimal("1E12")),
    (regex.compile(r"(?i)(billion|(?<![a-z])bn(?![a-z])|_b$|(?<![a-z])usd_?b(?![a-z]))"), Decimal("1E9")),
    # (a currency glued to its scale, as annual reports head columns: "2019 €m", "£m",
    # "$M", "USDm", "RMB'Million", "2019 US$'000")
    (regex.compile(r"(?i)(million|(?<![a-z])(mn|mm|mio)(?![a-z])|_m$|_mm$|(?<![a-z])usd_?m(?![a-z])"
                   r"|(?:[$€£¥]|(?<![a-z])(?:usd|eur|gbp|rmb|sgd|aud|cad))\s*m(?![a-z]))"), Decimal("1E6")),
    (regex.compile(r"(?i)(thousand|(?<![a-z])(k|000s)(?![a-z])|_k$|(?:[$€£¥]|(?<![a-z])(?:usd|eur|gbp|rmb))\s*['’]?000)"),
     Decimal("1E3")),
)


@lru_cache(maxsize=8192)
def key_scale(key: str | None) -> Decimal | None:
    """The scale a key or column header names: ``revenue_millions`` -> 1E6."""
    if not key:
        return None
    for pattern, scale in _SCALE_KEY_WORDS:
        if pattern.search(key):
            return scale
    return None


#: A table's corner cell or title that states the unit of its figures: the cell opens
#: with it ("(In millions)", "($ in thousands, except per share data)", "(Dollar amounts
#: in millions)", "$'000", "Millions of dollars") or ends with it in brackets ("Years
#: ended December 31, (Dollars in millions)"). Not a unit said of one thing: "Shares in
#: thousands", "Revenue (in millions) and margin (%)".
_UNIT_WORDS = r"(?:(?:us\s*)?[$€£]\s*|(?:us\s+)?dollars?\s+(?:amounts?\s+)?|euros?\s+|amounts?\s+)?"
_TABLE_UNIT = regex.compile(
    rf"""(?ix)
    ^\W*{_UNIT_WORDS}in\s*(?:thousands?|millions?|billions?)\b
    | ^\W*(?:us|s|a|c)?(?:[$€£¥]|usd|eur|gbp|rmb)\s*(?:['’]000|000s?|thousands?|millions?|billions?|m|mn|bn|k)(?![\w'’])
    | ^\W*(?:thousands|millions|billions)(?:\s+of\s+(?:us\s+)?(?:dollars|euros|pounds|[$€£]))?\W*$
    | ^\W*(?:thousands|millions|billions)\s+of\s+(?:us\s+)?(?:dollars|euros|pounds|[$€£])
    | \(\s*{_UNIT_WORDS}in\s*(?:thousands?|millions?|billions?)[^()]*\)\s*$""")


def tool_unit(key: str | None, text: str) -> Decimal | None:
    """The scale a string of a tool result states for the tool's plain numbers: a unit
    field's ({"unit": "millions"}), or any short text that states a whole table's or
    statement's unit ({"title": "(in millions, except per share amounts; unaudited)"}
    over a page that prints the statement); None when it states none."""
    if key and key.lower() in UNIT_FIELDS:
        return unit_field_scale(text)
    stated = _TABLE_UNIT.search(text) if len(text) <= 120 else None
    return unit_field_scale(stated.group()) if stated else None  # the unit it states, not any scale word


#: Rows (and columns, and rows under such a heading) a table's unit never scales,
#: whatever its corner says: per-share and per-unit figures, prices, headcounts. A cell
#: printed with "%" is never scaled either; "4.5% Senior notes" and "Loans to employees"
#: are amounts.
_UNSCALED_ROW = regex.compile(
    r"(?i)\bper\s+(?:share|unit|diluted|basic|common|square|sq|day|month|hour|employee|store|customer|subscriber"
    r"|user|barrel|ton|tonne|vessel)\b|\beps\b|\bheadcount\b|^\W*(?:number\s+of\s+)?employees\W*$|-days\b"
    r"|\bnumber\s+of\s+(?:employees|stores|locations|customers|subscribers|restaurants|countries)\b"
    r"|%\s*$|\(%\)")
#: Column headers whose cells a table's unit leaves alone: prices per share or unit,
#: counts and durations ("Stores", "Remaining term (years)").
_UNSCALED_COLUMN = regex.compile(
    r"(?i)\bper\s+(?:share|unit)\b|\beps\b|\bprice\s+per\b"
    r"|\b(?:share|stock|unit|exercise|strike|grant|closing|opening|average|sales?|offer(?:ing)?|high|low)\s+price\b"
    r"|\bstores\b|\bemployees\b|\bheadcount\b|\(years\)|\bterm\b|\bcount\b|%|\bpercent")
#: A heading over per-share amounts ("Earnings per share:", "Per share data:"); not one
#: over share counts ("Shares used in per share computation:").
_PER_SHARE_HEADING = regex.compile(r"(?i)^(?!.*\bshares\b).*(?:\bper\s+(?:common\s+)?share\b|\beps\b)")


#: A title over some columns that states their unit: "(In millions)", "(Shares in
#: thousands)", "(Dollars in millions)".
COLUMN_UNIT = regex.compile(r"(?i)^\W*(?:[\w$€£]+\s+){0,2}in\s*(?:thousands|millions|billions)\W*$")


@lru_cache(maxsize=4096)
def unscaled_column(header: str | None) -> bool:
    """Whether a column header keeps its cells out of a table's unit (cached: asked per cell)."""
    return bool(header and _UNSCALED_COLUMN.search(header))


@lru_cache(maxsize=4096)
def titles_scale(titles: tuple[str, ...], header: str | None) -> Decimal | None:
    """The scale a unit title over a column states for it (cached: asked per cell)."""
    return next((unit_field_scale(t) for t in titles if COLUMN_UNIT.search(t) and _unit_over(t, header)), None)


def _unit_over(title: str, header: str | None) -> bool:
    """Whether a unit title is over this column: a bare unit ("(In millions)") is over
    every column it spans; one said of something ("(Shares in thousands)") only over
    columns whose header names it ("Shares purchased", not "Grant-date fair value")."""
    if _TABLE_UNIT.search(title):
        return True
    subject = {w.rstrip("s") for w in regex.findall(r"[a-z]{3,}", title.lower())} - _UNIT_TITLE_WORDS
    named = {w.rstrip("s") for w in regex.findall(r"[a-z]{3,}", (header or "").lower())}
    return bool(subject & named)


#: Words of a unit title that say nothing of what the figures are (stoplists/unit_title_words.txt).
_UNIT_TITLE_WORDS = stoplists.load("unit_title_words")


def table_scale(headers: list[str | None], header_rows: Any) -> Decimal | None:
    """The scale a printed table states for its figures, in its corner (its first
    column's header, or a header row's first cell) or in a header row whose one title
    is the unit ("| | (in millions) |": printed over a narrow table, it is the whole
    table's)."""
    texts = [headers[0]] if headers and headers[0] else []
    if isinstance(header_rows, (list, tuple)):
        for row in header_rows:
            row = row if isinstance(row, (list, tuple)) else [row]
            cells = [c for c in row if isinstance(c, str) and c.strip()]
            if len(cells) == 1:
                texts.append(cells[0])
            elif row and isinstance(row[0], str):
                texts.append(row[0])  # the upper header's corner ("(dollars in millions) | Payments due")
    for text in texts:
        if _TABLE_UNIT.search(text):
            return unit_field_scale(text) or key_scale(text) or Decimal(1000)  # (only "$'000" says none)
    return None


def unscaled_rows(rows: Sequence[Any]) -> list[bool]:
    """For each printed row, whether a table's unit leaves it unscaled: a per-share or
    per-unit row, a count or percentage row, or an item a per-share heading lists
    ("Earnings per share:" over "Basic", "Diluted"; the heading ends at the first row
    that is none of its items)."""
    out, heading = [], False
    for row in rows:
        label = row[0] if isinstance(row, (list, tuple)) and row and isinstance(row[0], str) else ""
        figures = isinstance(row, (list, tuple)) and any(
            isinstance(c, (int, float, Decimal)) and not isinstance(c, bool) or isinstance(c, str) and _DIGIT.search(c)
            for c in row[1:])
        if label.strip() and not figures:
            heading = bool(_PER_SHARE_HEADING.search(label))
        elif heading and not _PER_SHARE_ITEM.match(label):
            heading = False  # past the items it lists ("Total assets" printed below)
        out.append(heading or bool(_UNSCALED_ROW.search(label)))
    return out


#: The rows a per-share heading lists: "Basic", "Diluted", "Net income", "From
#: continuing operations" (not "Total assets" or "4.5% Senior notes" printed below).
_PER_SHARE_ITEM = regex.compile(r"(?i)^\W*(?:basic|diluted|net\s+(?:income|earnings|loss)|(?:from\s+)?continuing"
                                r"|(?:from\s+)?discontinued|income|earnings|loss|(?:cash\s+)?dividends?|book\s+value)\b")


def unit_field_scale(value: str) -> Decimal | None:
    """The scale a unit field's text names: ``"millions"``, ``"in thousands"``, ``"百万円"``."""
    words = numbers.scale_words()
    for word in regex.findall(r"[A-Za-z.]+", value):
        for candidate in (word, word.lower(), word.rstrip("s"), word.lower().rstrip("s")):
            if candidate in words and len(candidate) > 1:
                return words[candidate][0]
    # scripts without spaces glue the scale to the currency: "百万円" is millions of yen
    for word in sorted((w for w in words if not w.isascii()), key=len, reverse=True):
        if word in value:
            return words[word][0]
    return None
