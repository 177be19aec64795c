"""How a printed table's header reads, cell by cell: the column name each row's cells
sit under, and the titles that span columns above them.

Filings print two-level headers ("December 31, 2019" over "Carrying Amount | Fair
Value", then "December 31, 2018" over the same two) and tables in sections, each
opened by a row of its own ("June 30, 2018", or a repeated header "(In Millions) |
Dec 30, 2017 | Acquisitions | ... | Dec 29, 2018"). A flat ``columns`` list says none
of that, so without this a cell of the 2018 section reads as the column's 2019.

Two sources, both optional:

- ``header_rows``: rows printed above ``columns``. Each non-empty cell after the first
  is a title over a run of columns (see :func:`spans`).
- rows inside ``rows`` with no figures and at least one period ("FY 2019 (%)",
  "Fiscal 2018", "June 30, 2018" alone in the first cell). From there down they
  rename the columns (a run of names with no gap: "FY 2019 (%) | FY 2018 (%)") or
  title them (one title, or titles with gaps between them: "| 2019 | | 2018 |"); a
  later such row replaces them.

Rows without a period are left alone: "Expenses:" or "First | Second | Third" rows are
headings the derive stage reads as such (:mod:`verifier.operands`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

#: Per column, the titles above it, top first.
Titles = tuple[tuple[str, ...], ...]


def spans(row: Sequence[Any], width: int) -> list[tuple[str, ...]]:
    """The title each of ``width`` columns sits under, from one title row: a list of
    one-title tuples (empty where none). Column 0 (the row labels) takes none.

    - One title covers every column ("Years Ended September 30,"; "Fiscal 2019"
      printed over the middle of the table).
    - A row shorter than the table (FinQA prints "| 2008 | 2007" over six columns)
      splits the columns evenly between its titles, when they divide evenly.
    - Otherwise titles that each fall in one of equal blocks ("| 2019 | | 2018 |" over
      "Carrying | Fair | Carrying | Fair") cover their block: titles printed at the
      start or in the middle of what they span both read right.
    - Anything else ("| F19 | F18 | |" over four columns) titles its own column only:
      a guess at a span could date a column wrongly.

    >>> spans(["", "December 31, 2019", "", "December 31, 2018", ""], 5)
    [(), ('December 31, 2019',), ('December 31, 2019',), ('December 31, 2018',), ('December 31, 2018',)]
    >>> spans(["", "2008", "2007"], 5)
    [(), ('2008',), ('2008',), ('2007',), ('2007',)]
    """
    out: list[tuple[str, ...]] = [() for _ in range(width)]
    titles = [(c, _text(cell)) for c, cell in enumerate(row) if c > 0 and _text(cell)]
    data = width - 1
    if not titles or data < 1:
        return out
    if len(titles) == 1:
        for c in range(1, width):
            out[c] = (titles[0][1],)
        return out
    k, short = len(titles), len(row) < width
    if data % k == 0:
        block = data // k
        if short or all((c - 1) // block == i for i, (c, _) in enumerate(titles)):
            for i, (_, title) in enumerate(titles):
                for c in range(1 + i * block, 1 + (i + 1) * block):
                    out[c] = (title,)
            return out
    if short:  # where a shorter row's titles sit says nothing of what they span
        return out
    for c, title in titles:
        if c < width:
            out[c] = (title,)
    return out


def layout(rows: Sequence[Any], names: Sequence[str | None], header_rows: Any,
           is_period: Callable[[str], bool]) -> list[tuple[list[str | None], Titles]]:
    """For each of ``rows``, (the column names its cells sit under, the titles above
    each column). ``names`` is the table's ``columns``; ``is_period`` says whether a
    label only names when ("2019", "Dec 28, 2019", "FY 2019 (%)")."""
    width = max([len(names)] + [len(r) for r in rows if isinstance(r, (list, tuple))])
    current: list[str | None] = list(names) + [None] * (width - len(names))
    titles: list[tuple[str, ...]] = [() for _ in range(width)]
    if isinstance(header_rows, (list, tuple)):
        for above in header_rows:
            if isinstance(above, (list, tuple)):
                for c, title in enumerate(spans(above, width)):
                    titles[c] += title
    out: list[tuple[list[str | None], Titles]] = []
    for row in rows:
        out.append((current, tuple(titles)))
        opened = _opens_section(row, is_period) if isinstance(row, (list, tuple)) else None
        if opened == "names":
            current = [_text(cell) or None if c > 0 else current[c] for c, cell in enumerate(row)]
            current += [None] * (width - len(current))
            titles = [() for _ in range(width)]
        elif opened == "titles":
            first = _text(row[0])
            titles = ([(first,)] * width if first and not any(_text(c) for c in row[1:])
                      else spans(row, width))
    return out


def _opens_section(row: Sequence[Any], is_period: Callable[[str], bool]) -> str | None:
    """"names" for a row that renames the columns, "titles" for one that titles them,
    None for any other row (a row of figures, a heading without a period)."""
    if not row or not all(isinstance(c, str) or c is None for c in row):
        return None  # a JSON number is a figure
    cells = [_text(c) for c in row]
    filled = [i for i, c in enumerate(cells) if i > 0 and c]
    if not filled:
        return "titles" if cells[0] and is_period(cells[0]) else None
    if not any(is_period(cells[i]) for i in filled) or any(
            _is_figure(cells[i]) and not is_period(cells[i]) for i in filled):
        return None
    if len(filled) >= 2 and filled[-1] - filled[0] + 1 == len(filled):
        return "names"
    return "titles"


def _text(cell: Any) -> str:
    return cell.strip().rstrip(":").strip() if isinstance(cell, str) else ""


def _is_figure(text: str) -> bool:
    """Whether a cell reads as a number ("$1,234", "(2.3)", "12%", "—" is none)."""
    bare = text.strip("$€£()%-–— ").replace(",", "").replace(".", "", 1)
    return bare.isdigit()
