"""The header over a cell of a Markdown table in the answer: what a column says its
cells are ("| CUSIP |" over "| 912810UM3 |"), for readers that need a name beside a
value and find it above it instead."""

from __future__ import annotations

import bisect
import itertools
import re

_SEPARATOR = re.compile(r"\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")


class Headers:
    """Column headers of every Markdown table in one text, looked up by offset."""

    def __init__(self, text: str) -> None:
        self._starts: list[int] = []
        self._cells: list[tuple[int, int, str]] = []  # (start, end, header), sorted by start
        header: list[str] | None = None
        previous: str | None = None
        at = 0
        for line in text.splitlines(keepends=True):
            body = line.strip()
            if not body.startswith("|"):
                header = None
            elif _SEPARATOR.fullmatch(body) and previous is not None:
                header = [c.strip() for c in previous.strip().strip("|").split("|")]
            elif header is not None:
                self._add_row(line, at, header)
            previous = line if body.startswith("|") else None
            at += len(line)

    def _add_row(self, line: str, at: int, header: list[str]) -> None:
        bars = [i for i, ch in enumerate(line) if ch == "|"]
        for column, (left, right) in enumerate(itertools.pairwise(bars)):
            if column < len(header):
                self._starts.append(at + left)
                self._cells.append((at + left, at + right, header[column]))

    def at(self, offset: int) -> str | None:
        """The header of the cell holding ``offset``, or None outside any table cell."""
        i = bisect.bisect_right(self._starts, offset) - 1
        if i < 0:
            return None
        start, end, header = self._cells[i]
        return header if start < offset < end else None
