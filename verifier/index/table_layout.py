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
- rows inside ``rows`` of a table of three or more columns that read as a header,
  not as data (:func:`_opens_section`): they rename the columns from there down (a run
  of names with no gap, "FY 2019 (%) | FY 2018 (%)", or a repeated header) or title
  them ("June 30, 2018" alone in the first cell; "| | | Fiscal 2018 |" with the first
  cell empty); a later such row replaces them.

Rows of data are left alone, even when they hold years or dates ("Maturity | 2025 |
2027", "Issue date | March 1, 2019 | June 1, 2020", "Period | FY2019" in a key-value
table), and so are headings without a period ("Expenses:", "First | Second | Third"),
which the derive stage reads as such (:mod:`verifier.derive.operands`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

#: Per column, the titles above it, top first.
Titles = tuple[tuple[str, ...], ...]


def spans(row: Sequence[Any], width: int) -> list[tuple[str, ...]]:
    """The title each of ``width`` columns sits under, from one title row: a list of
    one-title tuples (empty where none). Column 0 (the row labels) takes none.

    - One title covers every column ("Years Ended September 30,"; "Fiscal 2019"
      printed over the middle of the table).
    - A compact row of titles alone, shorter than the table (FinQA prints "| 2008 |
      2007" over six columns), splits the columns evenly, when they divide evenly.
    - Otherwise the columns split evenly between the titles when each title is printed
      at the same place within its share: all at its start ("| 2019 | | 2018 |" over
      "Carrying | Fair | Carrying | Fair"), all at its end, or all in its middle.
      Anything else (spans of unequal widths, "| A | | | B |"; "| F19 | F18 | |") titles
      its own column only, and a row shorter than the table nothing past its end: a
      wrong guess would date a column wrongly.

    >>> spans(["", "December 31, 2019", "", "December 31, 2018", ""], 5)
    [(), ('December 31, 2019',), ('December 31, 2019',), ('December 31, 2018',), ('December 31, 2018',)]
    >>> spans(["", "2008", "2007"], 5)
    [(), ('2008',), ('2008',), ('2007',), ('2007',)]
    >>> spans(["", "", "2019", "", "2018"], 5)  # printed at the end of each span
    [(), ('2019',), ('2019',), ('2018',), ('2018',)]
    >>> spans(["", "December 31, 2019", "", "December 31, 2018"], 7)  # trailing blanks not printed
    [(), ('December 31, 2019',), (), ('December 31, 2018',), (), (), ()]
    """
    out: list[tuple[str, ...]] = [() for _ in range(width)]
    titles = [(c, _text(cell)) for c, cell in enumerate(row) if 0 < c < width and _text(cell)]
    data, k = width - 1, len(titles)
    if not titles or data < 1:
        return out
    if k == 1:
        return [()] + [(titles[0][1],)] * data
    block = data // k if data % k == 0 else 0
    if len(row) - 1 == k and len(row) < width:  # compact: one cell per title
        return [()] + [(titles[(c - 1) // block][1],) for c in range(1, width)] if block else out
    offsets = {(c - 1) - i * block for i, (c, _) in enumerate(titles)} if block else set()
    if len(offsets) == 1 and 0 <= next(iter(offsets)) < block and len(row) >= width:
        return [()] + [(titles[(c - 1) // block][1],) for c in range(1, width)]
    for c, title in titles:
        out[c] = (title,)
    return out


def layout(rows: Sequence[Any], names: Sequence[str | None], header_rows: Any,
           is_period: Callable[[str], bool]) -> list[tuple[list[str | None], Titles]]:
    """For each of ``rows``, (the column names its cells sit under, the titles above
    each column). ``names`` is the table's ``columns``; ``is_period`` says whether a
    label only names when ("2019", "Dec 28, 2019", "FY 2019 (%)")."""
    width = max([len(names)] + [len(r) for r in rows if isinstance(r, (list, tuple))])
    current: list[str | None] = list(names) + [None] * (width - len(names))
    above: list[tuple[str, ...]] = [() for _ in range(width)]  # the titles header_rows print
    if isinstance(header_rows, (list, tuple)) and header_rows and not any(
            isinstance(r, (list, tuple)) for r in header_rows):
        header_rows = [header_rows]  # one header row, not nested in a list
    for printed in header_rows if isinstance(header_rows, (list, tuple)) else ():
        if isinstance(printed, (list, tuple)):
            for c, title in enumerate(spans(printed, width)):
                above[c] += title
    titles: Titles = tuple(above)  # one tuple per section, shared by its rows
    out: list[tuple[list[str | None], Titles]] = []
    for row in rows:
        out.append((current, titles))
        opened = _opens_section(row, current, is_period) if isinstance(row, (list, tuple)) and width >= 3 else None
        if opened == "names":
            current = [_text(cell) or current[c] if c > 0 else current[c] for c, cell in enumerate(row)]
            current += [None] * (width - len(current))
            titles = tuple(() for _ in range(width))
        elif opened == "section":  # a section's date over the columns' own titles
            first = _text(row[0])
            titles = tuple((first, *(t for t in title if not is_period(t))) for title in above)
        elif opened == "titles":
            titles = tuple(spans(row, width))
    return out


def _opens_section(row: Sequence[Any], names: Sequence[str | None],
                   is_period: Callable[[str], bool]) -> str | None:
    """How a row inside a table's rows reads: "names" for a header that renames the
    columns, "section" for a date alone in its first cell, "titles" for titles over
    the columns, None for a row of data or a heading without a period.

    - names: every filled cell after the first is a period or the name its column
      already has, with no gap between them; and the row repeats the header (the first
      cell is empty or the first column's name, or a cell is its column's name) or its
      periods are header-shaped ("FY 2019 (%)", "Fiscal 2018", not a bare year or a
      day's date, which rows of data hold: "Maturity | 2025 | 2027").
    - section: a period alone in the first cell, other than a bare year ("June 30,
      2018"; "2018:" as a heading; a lease schedule's "2021" row is data).
    - titles: the first cell empty, and every filled cell a period ("| | Fiscal 2018 |").
    """
    if not row or not all(isinstance(c, str) or c is None for c in row):
        return None  # a JSON number is a figure
    for i in range(1, len(row)):
        # most rows hold a figure that is no year ("1,234", "12.5%"): data, said at once
        # (the general test below asks is_period of every filled cell first)
        text = _text(row[i])
        if _FIGURE.match(text) and len(_NOT_DIGIT.sub("", text)) != 4 and not (i < len(names) and text == names[i]):
            return None
    cells = [_text(c) for c in row]
    filled = [i for i, c in enumerate(cells) if i > 0 and c]
    if not filled:
        first = cells[0]
        heading = isinstance(row[0], str) and row[0].strip().endswith(":")
        return "section" if first and is_period(first) and (heading or not _BARE_YEAR.match(first)) else None
    kept = [i for i in filled if i < len(names) and cells[i] == names[i]]
    periods = [i for i in filled if is_period(cells[i])]
    if not periods or len(kept) + len(periods) < len(filled):
        return None  # a figure, or words that are no period and no column's name
    if len(filled) >= 2 and filled[-1] - filled[0] + 1 == len(filled):
        repeats = not cells[0] or cells[0] == names[0] or bool(kept)
        if repeats or all(_header_shaped(cells[i]) for i in periods):
            return "names"
        return None
    return "titles" if not cells[0] and not kept else None


#: A bare year ("2021"), as a row label or a cell of data holds it.
_BARE_YEAR = re.compile(r"^(?:19|20)\d\d$")
#: A day of a month beside a year: "March 1, 2019", "30/06/2019" (a date as data holds it).
_DAY = re.compile(r"(?<!\d)\d{1,2}(?!\d)")


#: A cell that is a number: "1,234", "$(12.5)", "12%", "-3.5". One of other than four
#: digits is no year, so no period.
_FIGURE = re.compile(r"^[$€£(\-–—]*\s*\d[\d,]*(?:\.\d+)?\s*[)%]*$")
_NOT_DIGIT = re.compile(r"\D")


def _header_shaped(text: str) -> bool:
    """Whether a period reads as a column header rather than a value: "FY 2019 (%)",
    "Fiscal 2018", "Q3 2019"; not "2025" or "March 1, 2019"."""
    return not _BARE_YEAR.match(text) and not _DAY.search(text)


def _text(cell: Any) -> str:
    """A cell's text as a header reads it: stripped, without a heading's colon; a JSON
    integer as its digits (a year in a header row), anything else empty."""
    if isinstance(cell, int) and not isinstance(cell, bool):
        return str(cell)
    return cell.strip().rstrip(":").strip() if isinstance(cell, str) else ""
