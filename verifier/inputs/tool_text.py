"""A text tool result read as a haystack value: JSON parsed (numbers as ``Decimal``),
else a markdown pipe table or a CSV table as ``{"columns", "rows"}``, else the text.

Used for transcripts' tool messages and for the agent integrations' tool outputs, which
arrive as text.
"""

from __future__ import annotations

import csv
import io
from typing import Any

import regex

from .._errors import JSONInputError
from .jsonio import loads

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
