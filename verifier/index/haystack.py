"""Haystack: tool results flattened once into leaves with their JSON paths, and
indexed so that every lookup is a hash or a bisect, never a scan of the JSON text.

- Numbers (JSON numbers, and numbers inside strings: ``"1,234.50"``, ``"$3.4M"``,
  ``"12.3%"``, ``"(1,234)"``) are indexed by canonical ``Decimal``; a key or a unit
  field that names a scale (``revenue_millions``, ``"unit": "millions"``) adds the
  scaled value too.
- Dates (ISO strings, dates in text, epoch seconds/milliseconds under date-like keys,
  13-digit epoch milliseconds anywhere), periods (``"Q3 2026"``, or a record with a
  quarter and a year field), tickers (symbol-shaped strings, words in text, object
  keys), security codes, array lengths, and the text of every string (for quotes).
- Column tables ``{"columns": [...], "rows": [[...]]}`` (also ``headers``/``fields``
  with ``data``/``values``) are leaves like any other: ``$.rows[2][3]``, with the
  column header as the leaf's key. Titles printed above the columns (``header_rows``)
  and rows that open a section ("June 30, 2018") date the cells below them, see
  :mod:`verifier.index.table_layout`.

The walk is iterative (no recursion limit) and paths are built only for leaves that
become evidence: each node keeps its parent and its key.
"""

from __future__ import annotations

import bisect
import datetime as dt
import math
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any, NamedTuple

import regex

from verifier.normalizers import (
    NormalizeError,
    amounts,
    dates,
    fold,
    numbers,
    periods,
    quotes,
    ratings,
    tickers,
)

from .. import yearquarter
from .._errors import InputError, LimitError
from ..deadline import check as _check_deadline
from ..extract import Extractor, extractor
from ..inputs.jsonio import count_leaves
from . import percent_units, table_layout
from .percent_words import is_percent_key as _is_percent_key
from .scales import (
    COLUMN_UNIT,
    key_scale,
    table_scale,
    titles_scale,
    tool_unit,
    unscaled_column,
    unscaled_rows,
)

#: A leaf's position: an index into Haystack.leaves.
LeafId = int


@dataclass(frozen=True, slots=True)
class Tool:
    """One tool result: its name, optional call id, and output."""

    index: int
    name: str
    id: str | None
    output: Any


class Leaf(NamedTuple):
    """A scalar in a tool's output (or an object key that names something).

    A NamedTuple rather than a frozen dataclass: a haystack holds up to millions of
    these and tuple construction is several times cheaper."""

    tool: int
    node: int  # index into Haystack._parent / _segment
    key: str | None  # the object key or column header that labels the value
    raw: str  # the value as text (JSON text for numbers, the string itself, the key)


class NumRef(NamedTuple):
    """A numeric value found at a leaf, and how it was read."""

    leaf: LeafId
    how: str  # "value", "in text", "scaled by key", "scaled by unit field", ...
    digits: str  # the number as it appears at the leaf, for exact comparisons


_IDENT = regex.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TABLE_COLUMNS = ("columns", "headers", "header", "fields")
_HEADER_KEYS = frozenset(_TABLE_COLUMNS + ("header_rows",))
_TABLE_ROWS = ("rows", "data", "values")
_DATE_KEY = regex.compile(r"(?i)(date|time|timestamp|(?<![a-z])ts(?![a-z])|_at$|At$|epoch|day|released|period)")
_QUARTER_KEY = regex.compile(r"(?i)^(fiscal_?)?(quarter|qtr|fiscalquarter|fq)$")
_YEAR_KEY = regex.compile(r"(?i)^(fiscal_?)?(year|yr|fiscalyear|fy)$")
_SYMBOL_KEYS = frozenset({"symbol", "ticker", "sym", "tickersymbol", "ticker_symbol", "code"})
_CURRENCY_KEYS = frozenset({"currency", "currency_code", "ccy", "cur", "currencycode", "iso_currency"})
_CODE_KEYS = frozenset({"isin", "cusip", "sedol", "lei", "figi", "security_id", "securityid"})
_UPPER_OR_DIGIT = regex.compile(r"[A-Z0-9]")
_UPPER = regex.compile(r"[A-Z]{1,7}(?![a-z])")
_DIGIT = regex.compile(r"\d")
#: A cell that is only a dash: financial tables print nil as "-" or "—".
_NIL_CELLS = frozenset({"-", "–", "—", "−", "--", "$-", "$ -", "$—", "$ —"})


def as_tools(tool_results: Any) -> list[Tool]:
    """Normalize the ``tool_results`` argument of ``verify`` to a list of Tools.

    A list of ``{"name", "output"[, "id"]}`` objects is a list of tool results; any
    other JSON value is one anonymous tool result named ``"tool"``.
    """
    if isinstance(tool_results, Haystack):
        raise InputError("pass a Haystack as haystack=, not as tool_results", "tool_results")
    if isinstance(tool_results, dict) and "output" in tool_results and "name" in tool_results \
            and set(tool_results) <= {"name", "output", "id", "arguments"}:
        tool_results = [tool_results]
    if isinstance(tool_results, (list, tuple)) and tool_results and all(
        isinstance(t, dict) and "name" in t and set(t) <= {"name", "id", "arguments", "output"}
        for t in tool_results
    ):  # every element shaped like a tool result: one without "output" is a mistake, not data
        tools = []
        for i, t in enumerate(tool_results):
            if "output" not in t:
                raise InputError("tool result has a name but no 'output'", f"tool_results[{i}]")
            name, call_id = t["name"], t.get("id")
            if not isinstance(name, str):
                raise InputError(f"'name' must be a string, got {type(name).__name__}", f"tool_results[{i}].name")
            if call_id is not None and not isinstance(call_id, str):
                call_id = str(call_id)
            tools.append(Tool(i, name, call_id, t["output"]))
        return tools
    return [Tool(0, "tool", None, tool_results)]


class Haystack:
    """The indexed tool results. Build once, pass to many ``verify`` calls.

    >>> h = Haystack([{"name": "quote", "output": {"symbol": "AAPL", "price": 142.3}}])
    >>> [h.path(r.leaf) for r in h.numbers[Decimal("142.30")]]
    ['$.price']
    """

    def __init__(
        self, tool_results: Any, *, locale: str = "en_US", max_leaves: int = 2_000_000
    ) -> None:
        self.locale = locale
        self.tools = as_tools(tool_results)
        self.max_leaves = max_leaves
        self.leaves: list[Leaf] = []
        self._parent: list[int] = []
        self._segment: list[str | int | None] = []
        self.numbers: dict[Decimal, list[NumRef]] = defaultdict(list)
        self.dates: dict[str, list[LeafId]] = defaultdict(list)
        self.periods: dict[str, list[LeafId]] = defaultdict(list)
        self.tickers: dict[str, list[LeafId]] = defaultdict(list)
        self.codes: dict[str, list[LeafId]] = defaultdict(list)
        self.ratings: dict[str, list[LeafId]] = defaultdict(list)  # a string leaf that is a grade: "BBB+"
        self.counts: dict[int, list[tuple[int, int]]] = defaultdict(list)  # length -> (tool, node)
        #: moments the data states (ISO date-times with a zone or offset, epoch timestamps)
        self.instants: list[tuple[LeafId, dt.datetime]] = []
        #: times of day the data states without a moment: (leaf, "HH:MM", IANA zone or None)
        self.clock_times: list[tuple[LeafId, str, str | None]] = []
        self._strings: list[LeafId] = []
        self._string_set: frozenset[LeafId] | None = None
        self._paths: dict[int, str] = {}
        self._periods_by_node: dict[int, tuple[int, int | None]] | None = None
        self._sorted: list[Decimal] | None = None
        self._text: str | None = None
        self._text_starts: list[int] = []
        try:
            self._extractor: Extractor = extractor(locale)
        except NormalizeError as exc:
            raise InputError(str(exc), "locale") from None
        self._mentions_cache: dict[tuple[str, bool], list[Any]] = {}
        self.tool_scale: dict[int, Decimal] = {}  # tool index -> scale from a unit field
        self.key_leaves: set[LeafId] = set()  # leaves that are object keys, not values
        self._header_nodes: set[int] = set()  # a table's header lists ("columns" beside "rows")
        #: a table cell's titles, top first: spanning header rows and section rows
        #: ("December 31, 2018" over "Carrying Amount"), see verifier.index.table_layout
        self._titles: dict[int, tuple[str, ...]] = {}
        #: a table row's node -> the scale its table's corner or title states for it
        #: ("(In millions)"; not for an "except per share" row)
        self._table_scales: dict[int, Decimal] = {}
        self._unscaled_cells: set[int] = set()  # cells of such a row its unit leaves alone (a price)
        self._titled_cells: dict[int, Decimal] = {}  # cells under a title that states a unit
        self._plain: list[tuple[Decimal, NumRef]] = []  # the tool being read's numbers as written
        #: each numeric leaf's own number as written (a percent string "4.00%" -> 4.00):
        #: the operands the derive stage combines
        self.leaf_value: dict[LeafId, Decimal] = {}
        #: figures in running text, as written, each with the scale its own words give it
        #: ("$60.3 million" -> (60.3, 1E+6)) or None (then its tool's unit applies)
        self.text_values: dict[LeafId, list[tuple[Decimal, Decimal | None]]] = defaultdict(list)
        #: leaves that hold a percentage: a "12.3%" string, or a number under a key or
        #: column header that says so (change_pct, "Change (%)", yield, rate)
        self.percent_leaves: set[LeafId] = set()
        self.derive_cache: Any = None  # built by verifier.derive.core on first use
        self._children: dict[int, list[LeafId]] | None = None
        self._pct_columns: set[tuple[int, str | int | None]] | None = None
        self._entities: dict[int, str] | None = None
        if count_leaves([t.output for t in self.tools], max_leaves) > max_leaves:  # before any indexing
            raise LimitError("number of leaves in the tool results", max_leaves + 1, max_leaves)
        for tool in self.tools:
            self._walk(tool)
        self._mentions_cache = {}

    # -- building ---------------------------------------------------------------------

    def _node(self, parent: int, segment: str | int | None) -> int:
        _check_deadline()  # every node of the walk: an object's 150,000 keys before a leaf
        self._parent.append(parent)
        self._segment.append(segment)
        return len(self._parent) - 1

    def _add_leaf(self, tool: int, node: int, key: str | None, raw: str) -> LeafId:
        if len(self.leaves) >= self.max_leaves:
            raise LimitError("number of leaves in the tool results", len(self.leaves) + 1, self.max_leaves)
        self.leaves.append(Leaf(tool, node, key, raw))
        return len(self.leaves) - 1

    def _walk(self, tool: Tool) -> None:
        self._plain = []
        root = self._node(-1, None)
        first_leaf = len(self.leaves)
        unit_scale: Decimal | None = None
        # stack of (value, node, key label, scale named by an enclosing key)
        stack: list[tuple[Any, int, str | None, Decimal | None]] = [(tool.output, root, None, None)]
        while stack:
            _check_deadline()
            value, node, label, scale = stack.pop()
            if isinstance(value, dict):
                self._walk_object(tool, value, node, scale, stack)
            elif isinstance(value, (list, tuple)):
                self.counts[len(value)].append((tool.index, node))
                for i in range(len(value) - 1, -1, -1):
                    stack.append((value[i], self._node(node, i), label, scale))
            else:
                leaf = self._add_scalar(tool.index, node, label, value, scale)
                if leaf is not None and isinstance(value, str) and isinstance(self.segment(node), str):
                    unit_scale = tool_unit(label, value) or unit_scale  # a field's, not a table cell's
        if unit_scale is not None:
            self.tool_scale[tool.index] = unit_scale
            self._apply_unit_scale(first_leaf, unit_scale)
        self._plain = []

    def _walk_object(
        self, tool: Tool, obj: dict[Any, Any], node: int, scale: Decimal | None,
        stack: list[tuple[Any, int, str | None, Decimal | None]],
    ) -> None:
        headers = self._table_headers(obj)
        items = list(obj.items())
        self._record_period(tool.index, node, obj)
        for key, child in reversed(items):
            if not isinstance(key, str):
                key = str(key)
            child_node = self._node(node, key)
            if headers is not None and key in _HEADER_KEYS and isinstance(child, (list, tuple)):
                self._header_nodes.add(child_node)
            if _may_name_something(key):
                self._index_key(tool.index, child_node, key)
            child_scale = key_scale(key) or scale
            if headers is not None and key in _TABLE_ROWS and isinstance(child, (list, tuple)):
                self.counts[len(child)].append((tool.index, child_node))
                read = table_layout.layout(child, headers, obj.get("header_rows"), is_period_label)
                stated = table_scale(headers, obj.get("header_rows"))
                # which rows a unit leaves alone: asked only of a table that states one
                # (its corner, or a title over some columns; sections share their titles)
                sections = {id(titles): titles for _, titles in read}.values()
                units = stated is not None or any(COLUMN_UNIT.search(t) for titles in sections
                                                  for column in titles for t in column)
                exempt = unscaled_rows(child) if units else [False] * len(child)
                for r in range(len(child) - 1, -1, -1):
                    row, row_node = child[r], self._node(child_node, r)
                    if isinstance(row, (list, tuple)):
                        self.counts[len(row)].append((tool.index, row_node))
                        names, titles = read[r]
                        row_scale = None
                        if stated:
                            # a row the unit does not cover (per share) is stated unscaled:
                            # its $2.97 is no "$2.97 million"
                            self._table_scales[row_node] = Decimal(1) if exempt[r] else stated
                            row_scale = None if exempt[r] else stated
                        for c in range(len(row) - 1, -1, -1):
                            header = names[c] if c < len(names) else None
                            cell_node = self._node(row_node, c)
                            if c < len(titles) and titles[c]:
                                self._titles[cell_node] = titles[c]
                            # a title over the column that states a unit ("(Shares in
                            # thousands)" over two of five columns) is the column's
                            titled = titles_scale(titles[c], header) if (
                                c < len(titles) and titles[c] and not exempt[r]) else None
                            # a share is no amount ("10%" even under "2019 S$ million"), nor a
                            # price a count of thousands
                            marked = isinstance(row[c], str) and "%" in row[c]
                            plain = marked or unscaled_column(header)
                            if plain and row_scale is not None:
                                self._unscaled_cells.add(cell_node)
                            if titled is not None and not plain:
                                self._titled_cells[cell_node] = titled
                            stack.append((row[c], cell_node, header, None if marked else key_scale(header) or (
                                None if plain else titled or row_scale) or child_scale))
                    else:
                        stack.append((row, row_node, key, child_scale))
            else:
                stack.append((child, child_node, key, child_scale))

    @staticmethod
    def _table_headers(obj: dict[Any, Any]) -> list[str | None] | None:
        for name in _TABLE_COLUMNS:
            cols = obj.get(name)
            if isinstance(cols, list) and any(k in obj for k in _TABLE_ROWS):
                return [
                    c if isinstance(c, str) else
                    (str(c.get("name") or c.get("key") or c.get("id")) if isinstance(c, dict) else
                     None if c is None else str(c))
                    for c in cols
                ]
        return None

    def _record_period(self, tool: int, node: int, obj: dict[Any, Any]) -> None:
        """A record with a quarter field and a year field supports ``2026-Q3``."""
        quarter = year = None
        for key, value in obj.items():
            role = _period_role(key) if isinstance(key, str) else None
            if role == "quarter":
                quarter = _small_int(value, 1, 4, strip="Qq")
                qkey = key
            elif role == "year":
                year = _small_int(value, 1900, 2100, strip="FYfy")
        if quarter is not None:
            leaf = self._add_leaf(tool, self._node(node, qkey), qkey, str(obj[qkey]))
            self.periods[f"Q{quarter}"].append(leaf)
            if year is not None:
                self.periods[f"{year}-Q{quarter}"].append(leaf)

    def _add_scalar(
        self, tool: int, node: int, key: str | None, value: Any, scale: Decimal | None
    ) -> LeafId | None:
        if isinstance(value, str):
            leaf = self._add_leaf(tool, node, key, value)
            self._index_string(leaf, value, key, scale)
            return leaf
        if isinstance(value, bool) or value is None:
            self._add_leaf(tool, node, key, "true" if value is True else "false" if value is False else "null")
            return None
        if isinstance(value, (int, float, Decimal)):
            raw, number = _number_text(value)
            leaf = self._add_leaf(tool, node, key, raw)
            if number is not None:
                self._index_number(leaf, number, raw, key, scale)
            return leaf
        raise InputError(
            f"{type(value).__name__} is not a JSON value (use str, int, float, Decimal, bool, None, list, dict)",
            f"tool_results[{tool}] at {self.path_of_node(node)}",
        )

    def _index_number(
        self, leaf: LeafId, number: Decimal, raw: str, key: str | None, scale: Decimal | None
    ) -> None:
        self._add_plain(number, NumRef(leaf, "value", raw))
        self.leaf_value[leaf] = number
        if key is not None and _is_percent_key(key):  # {"change_pct": 1.43} is 0.0143 too
            self.percent_leaves.add(leaf)
            self.numbers[numbers.CONTEXT.divide(number, 100)].append(NumRef(leaf, "percent field as fraction", raw))
        if scale is not None:
            self.numbers[numbers.CONTEXT.multiply(number, scale)].append(NumRef(leaf, "scaled by key", raw))
        if number == number.to_integral_value():
            whole = int(number)
            if dates.YEAR_MIN <= whole <= dates.YEAR_MAX:
                self.dates[str(whole)].append(leaf)
            elif whole >= dates.EPOCH_MIN:
                dated_key = key is not None and _is_date_key(key)
                if dated_key or dates.EPOCH_MAX <= whole < dates.EPOCH_MAX * 1000:
                    instant = dates.instant_of_epoch(whole)
                    if instant is not None:
                        self.instants.append((leaf, instant))
                        for k in dates.keys_of_day(instant.date()):
                            self.dates[k].append(leaf)

    def _is_label(self, leaf: LeafId) -> bool:
        """Whether a string labels a printed table's row (its first cell) or column (an
        entry of its ``columns``)."""
        node = self.leaves[leaf].node
        parent = self._parent[node]
        if parent < 0:
            return False
        return (self._segment[node] == 0 and isinstance(self._segment[parent], int)) or self._segment[parent] == "columns"

    def _index_string(self, leaf: LeafId, value: str, key: str | None, scale: Decimal | None) -> None:
        self._strings.append(leaf)
        if len(value) <= 5 and value.strip() in _NIL_CELLS:
            node = self.leaves[leaf].node
            column = self._segment[node]
            if isinstance(column, int) and column > 0 and isinstance(self._segment[self._parent[node]], int):
                # a table cell (a row list's element after its label): "0" may cite it,
                # but it is no operand (derive's "x - 0" would explain any x). A dash in
                # a field ({"pe_ratio": "—"}) means "not available", not zero
                self.numbers[Decimal(0)].append(NumRef(leaf, "dash read as zero", value.strip()))
            return
        if len(value) > 1_000_000:
            return  # kept for quotes; too long to read for values
        if _DIGIT.search(value) is not None:
            label = self._is_label(leaf)
            mentions = self._mentions_cache.get((value, label))
            if mentions is None:
                mentions = self._extractor.extract(value, quoted=False, data=True, label=label)
                if len(value) <= 64 and len(self._mentions_cache) < 100_000:
                    self._mentions_cache[(value, label)] = mentions  # repeated cells read once
            for mention in (m for m in mentions if not m.descriptor):  # "10-year": no value of the data
                self._index_mention(leaf, mention, key, scale, whole=_is_whole(mention.text, value))
        elif _UPPER.search(value) is not None:  # no digits: only tickers can be in it
            for symbol in self._extractor.ticker_symbols(value):
                self._add_ticker(leaf, symbol)
        if len(value) <= 16 and ratings.is_valid(value):
            self.ratings[ratings.grade_of(value.strip())].append(leaf)
        if key is not None and key.lower() in _CODE_KEYS and 0 < len(value.strip()) <= 24:
            self.codes[value.strip().upper().replace(" ", "")].append(leaf)  # {"cusip": "037833100"}
        if key is not None and key.lower() in _SYMBOL_KEYS and 0 < len(value.strip()) <= 16:
            self._add_ticker(leaf, value.strip())  # {"symbol": "brk-b"}: any case

    def _index_mention(self, leaf: LeafId, mention: Any, key: str | None,
                       scale: Decimal | None, whole: bool) -> None:
        if mention.num_forms:
            if mention.kind == "percent" or (whole and key is not None and _is_percent_key(key)):
                self.percent_leaves.add(leaf)
            how = "value" if whole else "in text"
            digits = mention.digits or mention.text
            for form in mention.num_forms:
                ref = NumRef(leaf, how if form.how == "as written" else form.how, digits)
                if ref.how in ("value", "in text"):
                    self._add_plain(form.value, ref)
                else:
                    self.numbers[form.value].append(ref)
            if mention.kind not in ("basis_points", "percentage_points"):
                # a percent cell "4.00%" is the operand 4.00; an amount "$3.4M" is 3.4E+6
                operand = mention.written if mention.kind == "percent" else mention.num_forms[0].value
                if whole:
                    self.leaf_value[leaf] = operand
                else:  # a figure in running text: an operand among its paragraph's figures
                    written = mention.written
                    if mention.kind == "percent" or not written or written == operand:
                        self.text_values[leaf].append((operand, None))
                    else:  # "$60.3 million": 60.3 in millions, beside its paragraph's other millions
                        self.text_values[leaf].append((written, numbers.CONTEXT.divide(operand, written)))
            if scale is not None and mention.kind in ("number", "amount") and len(mention.num_forms) == 1:
                scaled = numbers.CONTEXT.multiply(mention.num_forms[0].value, scale)
                self.numbers[scaled].append(NumRef(leaf, "scaled by key", digits))
        elif mention.kind == "time" and mention.value:
            self.clock_times.append((leaf, mention.value, mention.unit))  # "08:30 ET" as a string
        elif mention.kind == "date" and mention.value:
            instant = dates.instant_of_text(mention.text)  # "2026-10-29T13:45:00Z": a moment too
            if instant is not None:
                if instant.tzinfo is not None:
                    self.instants.append((leaf, instant))
                else:
                    self.clock_times.append((leaf, f"{instant.hour:02d}:{instant.minute:02d}", None))
            keys: tuple[str, ...] = (mention.value,)
            if len(mention.value) == 10:
                keys = dates.keys_of_day(_iso_date(mention.value))
            for k in keys:
                self.dates[k].append(leaf)
        elif mention.kind == "period" and mention.value:
            self.periods[mention.value].append(leaf)
            if "-" in mention.value:
                self.periods[mention.value.split("-", 1)[1]].append(leaf)
            elif mention.value.startswith("FY"):
                self.dates[mention.value[2:]].append(leaf)
        elif mention.kind == "ticker":
            self._add_ticker(leaf, mention.value)
        elif mention.kind == "code" and mention.value:
            self.codes[mention.value].append(leaf)

    def _add_ticker(self, leaf: LeafId, symbol: str) -> None:
        canonical = tickers.canonical(symbol)
        refs = self.tickers[canonical]
        if refs and refs[-1] == leaf:
            return  # the same leaf read twice (a symbol field is also a ticker-shaped word)
        refs.append(leaf)
        if "." in canonical:  # data "VOD.L" supports an answer's "VOD"
            self.tickers["base:" + canonical.split(".", 1)[0]].append(leaf)

    def _index_key(self, tool: int, node: int, key: str) -> None:
        """Object keys that are symbols or codes ({"AAPL": {...}}) support them too."""
        if len(key) > 24:
            return
        mentions = self._extractor.extract(key, quoted=False, years=True)
        if len(mentions) == 1 and mentions[0].text == key.strip() and mentions[0].kind in (
            "ticker", "code", "date", "period"
        ):
            leaf = self._add_leaf(tool, node, key, key)
            self.key_leaves.add(leaf)
            self._index_mention(leaf, mentions[0], None, None, whole=True)

    def _add_plain(self, value: Decimal, ref: NumRef) -> None:
        """Index a number as written (not scaled or converted), and keep it for this
        tool's unit field, which scales exactly these."""
        self.numbers[value].append(ref)
        self._plain.append((value, ref))

    def _apply_unit_scale(self, first_leaf: LeafId, scale: Decimal) -> None:
        """A tool output that says ``"unit": "millions"`` scales its plain numbers (only
        this tool's: scanning the whole index per tool made many tools quadratic)."""
        for value, ref in self._plain:
            # a header's "1 to 3 years" or "Q2" labels columns; the unit scales cells, but
            # not those whose table states a scale of its own ("(In millions)")
            if ref.leaf >= first_leaf and not self._in_headers(ref.leaf) and self._stated_scale(ref.leaf) is None:
                self.numbers[numbers.CONTEXT.multiply(value, scale)].append(
                    NumRef(ref.leaf, "scaled by unit field", ref.digits))

    def _in_headers(self, leaf: LeafId) -> bool:
        """Whether a leaf is a table's column header (``columns[2]``, ``header_rows[0][1]``):
        under a header list that sits beside the table's rows."""
        node = self._parent[self.leaves[leaf].node]
        for _ in range(2):
            if node < 0:
                return False
            if node in self._header_nodes:
                return True
            node = self._parent[node]
        return False

    # -- lookups ----------------------------------------------------------------------

    def near(self, value: Decimal, tolerance: Decimal) -> Iterator[Decimal]:
        """Indexed values within ``tolerance`` of ``value`` (inclusive), by bisection."""
        if self._sorted is None:
            self._sorted = sorted(self.numbers)
        keys = self._sorted
        lo = bisect.bisect_left(keys, value - tolerance)
        hi = bisect.bisect_right(keys, value + tolerance)
        return iter(keys[lo:hi])

    def find_text_all(self, phrase: str, limit: int = 1_000) -> list[LeafId]:
        """Every string leaf whose normalized text contains ``phrase`` (at most ``limit``)."""
        text = self._joined_text()
        found: list[LeafId] = []
        at = text.find(phrase)
        while at >= 0 and len(found) < limit:
            leaf = self._strings[bisect.bisect_right(self._text_starts, at) - 1]
            if not found or found[-1] != leaf:
                found.append(leaf)
            at = text.find(phrase, at + 1)
        return found

    def find_text(self, phrase: str) -> LeafId | None:
        """The first string leaf whose normalized text contains ``phrase``."""
        at = self._joined_text().find(phrase)
        if at < 0:
            return None
        return self._strings[bisect.bisect_right(self._text_starts, at) - 1]

    def _joined_text(self) -> str:
        """Every string leaf, normalized, joined by NULs (built once): phrase searches
        are one ``str.find`` over it, and ``_text_starts`` maps a hit back to its leaf."""
        if self._text is None:
            parts, starts, pos = [], [], 0
            for leaf in self._strings:
                text = quotes.normalize(fold(self.leaves[leaf].raw))
                starts.append(pos)
                parts.append(text)
                pos += len(text) + 1
            self._text = "\x00".join(parts)
            self._text_starts = starts
        return self._text

    # -- provenance -------------------------------------------------------------------

    def path_of_node(self, node: int) -> str:
        """The JSONPath of a node, relative to its tool's output (``$.results[3].price``).
        Kept once built: a warm haystack serves the same paths to many answers."""
        cached = self._paths.get(node)
        if cached is not None:
            return cached
        start = node
        parts: list[str] = []
        while node >= 0 and self._segment[node] is not None:
            seg = self._segment[node]
            assert seg is not None
            if isinstance(seg, int):
                parts.append(f"[{seg}]")
            elif _IDENT.fullmatch(seg) and seg not in ("and", "or", "not", "where", "in"):
                parts.append(f".{seg}")
            else:
                parts.append("['" + seg.replace("\\", "\\\\").replace("'", "\\'") + "']")
            node = self._parent[node]
        path = "$" + "".join(reversed(parts))
        if len(self._paths) < 100_000:
            self._paths[start] = path
        return path

    def path(self, leaf: LeafId) -> str:
        """The JSONPath of a leaf."""
        return self.path_of_node(self.leaves[leaf].node)

    def titles_of(self, leaf: LeafId) -> tuple[str, ...]:
        """The titles printed above a table cell's column or section, top first."""
        return self._titles.get(self.leaves[leaf].node, ())

    def period_of(self, leaf: LeafId) -> tuple[int, int | None] | None:
        """(year, quarter or None) of the nearest enclosing record that states a period:
        a year/quarter/period/date field among its fields ({"fiscal_year": 2025},
        {"period": "Q3 2025"}), or a key that is one ({"2025": {...}}). None when no
        enclosing record states one. A column header that is a year ("2025") is the
        period of the cells under it, and so is a row label that is one, and then a
        title printed above the column or section (:mod:`verifier.index.table_layout`)."""
        entry = self.leaves[leaf]
        if entry.key and leaf not in self.key_leaves:
            own = _year_quarter(entry.key.strip())
            if own is not None:
                return own
        row = self._parent[entry.node]
        if row >= 0 and isinstance(self._segment[row], int) and self._segment[entry.node] != 0:
            # a table row labelled by a year (a lease schedule: "2022", 6, 7)
            for cell in self.children_leaves(row):
                if self._segment[self.leaves[cell].node] == 0:
                    label = _year_quarter(self.leaves[cell].raw.strip())
                    if label is not None:
                        return label
                    break
        for title in self._titles.get(entry.node, ()):
            # a title over the column or section ("December 31, 2018" over "Fair Value")
            own = _year_quarter(title)
            if own is not None:
                return own
        node = self._parent[entry.node]
        while node >= 0:
            found = self._record_periods().get(node)
            if found is not None:
                return found
            node = self._parent[node]
        return None

    def _record_periods(self) -> dict[int, tuple[int, int | None]]:
        if self._periods_by_node is None:
            by_node: dict[int, tuple[int, int | None]] = {}
            for key, leaves in list(self.periods.items()) + list(self.dates.items()):
                period = _year_quarter(key)
                if period is None:
                    continue
                for leaf in leaves:
                    entry = self.leaves[leaf]
                    if leaf in self.key_leaves:  # {"2025": {...}}: the key names the object under it
                        record = entry.node
                    elif entry.key and (_period_role(entry.key) or _PERIOD_FIELD.match(entry.key)):
                        record = self._parent[entry.node]
                    else:
                        continue
                    old = by_node.get(record)
                    if old is None or (old[1] is None and period[1] is not None and old[0] == period[0]):
                        by_node[record] = period
            self._periods_by_node = by_node
        return self._periods_by_node

    def names_ticker(self, leaf: LeafId) -> bool:
        """Whether ``leaf`` names a ticker as such: an object key, a symbol field, or a
        string that is only the ticker ("AAPL", "NASDAQ:AAPL"), not a word of prose."""
        entry = self.leaves[leaf]
        if leaf in self.key_leaves or (entry.key and entry.key.lower() in _SYMBOL_KEYS):
            return True
        return " " not in entry.raw.strip()

    def parent(self, node: int) -> int:
        """The node enclosing ``node`` (-1 at a tool's root)."""
        return self._parent[node]

    def segment(self, node: int) -> str | int | None:
        """The key or list index that leads to ``node`` from its parent."""
        return self._segment[node]

    @property
    def extractor(self) -> Extractor:
        """The extractor that read this haystack's strings (its locale's)."""
        return self._extractor

    def is_string(self, leaf: LeafId) -> bool:
        """Whether ``leaf`` is a string value (not a number, boolean or key)."""
        if self._string_set is None:
            self._string_set = frozenset(self._strings)
        return leaf in self._string_set

    def children_leaves(self, parent: int) -> list[LeafId]:
        """Leaves directly under node ``parent`` (a record's fields, a row's cells), in
        document order. Built once, on first use."""
        if self._children is None:
            children: dict[int, list[LeafId]] = defaultdict(list)
            for i, leaf in enumerate(self.leaves):
                children[self._parent[leaf.node]].append(i)
            for leaves in children.values():
                # siblings get their nodes in reverse (the walk is a stack): newest first
                # is document order
                leaves.sort(key=lambda i: -self.leaves[i].node)
            self._children = children
        return self._children.get(parent, [])

    def is_percent(self, leaf: LeafId) -> bool:
        """Whether a leaf holds a percentage, in any unit (:func:`percent_unit`)."""
        return percent_units.unit(self, leaf) is not None

    def percent_unit(self, leaf: LeafId) -> str | None:
        """The unit of a leaf's figure: ``"points"`` (4.21 for 4.21%), ``"fraction"``
        (0.0421), ``"basis points"``, or None (a plain number), as the data states or
        implies it (a unit field or map, a "2.91%" beside it, its key, its column's
        magnitudes): see :mod:`verifier.index.percent_units`."""
        return percent_units.unit(self, leaf)

    def percent_columns(self) -> set[tuple[int, str | int | None]]:
        """(table or array node, column) pairs whose figures are percentages: the first
        is printed with "%" ("100.0 %" atop a common-size statement, "50.9" below), the
        last is a "100.0%" (shares over their total), or at least half of them are. One
        "Gross margin percentage" or "EBITA margin" row among them does not make a
        column of dollar amounts percentages."""
        if self._pct_columns is None:
            first: dict[tuple[int, str | int | None], bool] = {}
            last: dict[tuple[int, str | int | None], bool] = {}
            counts: dict[tuple[int, str | int | None], list[int]] = defaultdict(lambda: [0, 0])
            for leaf in sorted(self.leaf_value):
                entry = self.leaves[leaf]
                parent = self._parent[entry.node]
                if parent >= 0 and self._parent[parent] >= 0:  # rows of a table or array, not a tool's fields
                    column = (self._parent[parent], self._segment[entry.node])
                    marked = "%" in entry.raw and leaf in self.percent_leaves
                    first.setdefault(column, marked)
                    # shares over their total: a "Total" row of "100.0%"
                    last[column] = marked and self.leaf_value[leaf] == 100 and bool(
                        _TOTAL_LABEL.match(self._row_label(parent)))
                    counts[column][0] += marked
                    counts[column][1] += 1
            self._pct_columns = {c for c, (marked, n) in counts.items()
                                 if first[c] or last[c] or marked * 2 >= n > 0 and marked}
        return self._pct_columns

    def _row_label(self, row: int) -> str:
        """A printed table row's label: its first cell, when that is text."""
        for cell in self.children_leaves(row):
            if self._segment[self.leaves[cell].node] == 0 and cell not in self.leaf_value:
                return self.leaves[cell].raw
        return ""

    def entity_of(self, leaf: LeafId) -> str | None:
        """The ticker whose record holds ``leaf``: the nearest enclosing object or row
        with a symbol field ({"symbol": "AAPL", "price": ...}), or an object stored
        under a ticker key ({"AAPL": {...}}); None for values outside any such record."""
        if self._entities is None:
            entities: dict[int, str] = {}
            for i, entry in enumerate(self.leaves):
                if i in self.key_leaves and tickers.is_valid(entry.raw):
                    entities.setdefault(entry.node, tickers.canonical(entry.raw))
                elif entry.key and entry.key.lower() in _SYMBOL_KEYS and 0 < len(entry.raw.strip()) <= 16:
                    entities.setdefault(self._parent[entry.node], tickers.canonical(entry.raw))
            self._entities = entities
        node = self._parent[self.leaves[leaf].node]
        while node >= 0:
            if node in self._entities:
                return self._entities[node]
            node = self._parent[node]
        return None

    def currency_of(self, leaf: LeafId) -> str | None:
        """The ISO currency the data states for a leaf: a ``currency`` field in its
        record or an enclosing one ({"currency": "EUR", "price": 1234.56}), a sub-unit
        code as such ("GBp": pence); None when it states none."""
        node = self._parent[self.leaves[leaf].node]
        while node >= -1:
            for sibling in self.children_leaves(node):
                entry = self.leaves[sibling]
                if entry.key and entry.key.lower() in _CURRENCY_KEYS:
                    code = amounts.currency_code(entry.raw)  # "usd" -> USD; "GBX" -> GBp (pence)
                    if code is not None:
                        return code
            if node < 0:
                break
            node = self._parent[node]
        return None

    def leaf_scale(self, leaf: LeafId) -> Decimal | None:
        """The scale the data states for a leaf: from its key/column header, else from
        its table's corner or title ("(In millions)"), else from its tool's unit field;
        None when the data says nothing."""
        _check_deadline()  # asked of every member of an operand group
        entry = self.leaves[leaf]
        own = key_scale(entry.key) or self._stated_scale(leaf)
        return own or self.tool_scale.get(entry.tool)

    def unit_exempt(self, leaf: LeafId) -> bool:
        """Whether a cell's table states a unit that leaves this cell alone (a per-share
        row or a price column of a table "in millions")."""
        return self._stated_scale(leaf) == 1

    def _stated_scale(self, leaf: LeafId) -> Decimal | None:
        """The scale a table's corner or title states for a cell, or None."""
        if not self._table_scales and not self._titled_cells:
            return None
        entry = self.leaves[leaf]
        if "%" in entry.raw:
            return None
        if entry.node in self._unscaled_cells:
            return Decimal(1)
        return self._titled_cells.get(entry.node) or self._table_scales.get(self._parent[entry.node])

    def tool_of(self, leaf: LeafId) -> Tool:
        """The tool result a leaf belongs to."""
        return self.tools[self.leaves[leaf].tool]

    def __len__(self) -> int:
        return len(self.leaves)

    def __repr__(self) -> str:
        return f"<Haystack {len(self.tools)} tools, {len(self.leaves)} leaves, locale {self.locale}>"


#: Fields that name the period a record's figures are for. Not snapshot dates (as_of,
#: date, report_date): a quote or estimate taken on 2025-06-10 is not a 2025 figure.
_PERIOD_FIELD = regex.compile(r"(?i)^(fiscal_?)?(period|period_?end(ing)?|fiscal_?period|quarter_?end|year_?end)$")
_YEAR_QUARTER = regex.compile(r"^(?:FY)?(\d{4})(?:-Q([1-4]))?(?:-\d\d(?:-\d\d)?)?$")


#: A column header that is a year and the unit of the figures under it ("2019 €m",
#: "FY2019 $'000", "2018 US$ million"), as annual reports print them: the year, then
#: words that :func:`_is_unit_word` accepts.
_YEAR_THEN = regex.compile(r"^(?:FY ?)?(\d{4})((?: [^ ]+){0,2})$")
_SCALE_WORDS = frozenset({"m", "mn", "bn", "k", "'000", "000", "million", "millions", "billion", "billions",
                          "thousand", "thousands"})
#: Marks a year's column header may end with: percentages, and "`", which is how text
#: extracted from Indian filings renders the rupee sign ("FY 2019 `": the Rupee Foradian
#: font maps ₹ to the backtick key).
_UNIT_MARKS = frozenset({"%", "(%)", "`"})
#: A column header that is a reporting date: "April 26, 2019", "Year ended December 31,
#: 2018", "As of Dec. 31, 2019" (the date itself is read by normalizers.dates).
_DATE_HEADER = regex.compile(
    r"""^(?:(?:as\ of|as\ at|at|(?:fiscal\ )?years?\ ended|twelve\ months\ ended|for\ the\ year\ ended)\ +)?
        (?P<date>.{6,24})$""",
    regex.IGNORECASE | regex.VERBOSE)


def _is_unit_word(word: str) -> bool:
    """A scale ("m", "'000"), a currency (Babel's codes and symbols: "€", "US$", "EUR"),
    a currency glued to a scale ("€m", "$'000"), or a percent mark ("2019 (%)")."""
    if word.lower() in _SCALE_WORDS or word in _UNIT_MARKS:
        return True
    table = amounts.symbol_table()
    return any(word[:i] in table and (i == len(word) or word[i:].lower() in _SCALE_WORDS)
               for i in range(len(word), 0, -1))


#: A footnote mark after a column header: "April 27, 2019 (1)", "FY19**", "2018¹".
_HEADER_MARK = regex.compile(r"\s*(?:\(\d{1,2}\)|\*+|[¹²³⁴⁵⁶⁷⁸⁹]+)$")


@lru_cache(maxsize=8192)
def _year_quarter(key: str) -> tuple[int, int | None] | None:
    """"2025-Q3", "Q3 2025", "3Q25" -> (2025, 3); "2025", "FY2025", "2025-03-31",
    "2025 €m", "H1 2025", "April 26, 2025", "April 26, 2025 (1)" -> (2025, None)."""
    key = _HEADER_MARK.sub("", key) or key
    m = _YEAR_QUARTER.match(key)
    if m is None:
        m = _YEAR_THEN.match(key)
        if m is not None and not all(_is_unit_word(w) for w in m.group(2).split()):
            m = None
    if m is not None:
        if not 1900 <= int(m.group(1)) <= 2100:  # "1000" shares is not a year
            return None
        return int(m.group(1)), int(m.group(2)) if m.re is _YEAR_QUARTER and m.group(2) else None
    dated = _DATE_HEADER.match(key) if any(ch.isalpha() for ch in key) else None
    if dated is not None:
        try:
            day = dates.parse(dated.group("date"))
        except NormalizeError:
            day = None
        if day is not None and day.year is not None and day.month is not None:
            # a reporting date: its year, unless it falls in January or February
            return yearquarter.of_date(day.year, day.month)
    if len(key) > 16 or not any(ch.isdigit() for ch in key):
        return None
    try:
        period = periods.parse(key)
    except NormalizeError:
        return None
    if period.year is None:
        return None
    return period.year, period.index if period.kind == "quarter" else None


@lru_cache(maxsize=8192)
def is_period_label(key: str) -> bool:
    """Whether a column header only names when ("2019", "Q3 2025", "January 31, 2020",
    "Year ended December 31, 2018"), whichever fiscal year a January date belongs to."""
    _check_deadline()  # a miss costs a few regex searches; 150,000 distinct keys, seconds
    if _year_quarter(key) is not None:
        return True
    key = _HEADER_MARK.sub("", key)
    dated = _DATE_HEADER.match(key) if any(ch.isalpha() for ch in key) and any(ch.isdigit() for ch in key) else None
    if dated is None:
        return False
    try:
        day = dates.parse(dated.group("date"))
    except NormalizeError:
        return False
    return day.year is not None


@lru_cache(maxsize=8192)
def _period_role(key: str) -> str | None:
    if _QUARTER_KEY.match(key):
        return "quarter"
    return "year" if _YEAR_KEY.match(key) else None


@lru_cache(maxsize=8192)
def _may_name_something(key: str) -> bool:
    """Whether an object key can be a ticker, code or date (``"AAPL"``, ``"2025"``)."""
    return _UPPER_OR_DIGIT.match(key) is not None


#: A total row's label.
_TOTAL_LABEL = regex.compile(r"(?i)\s*(?:grand\s+)?totals?\b")


def _is_whole(mention: str, value: str) -> bool:
    """Whether a value read from a string is all the string says (``"$  1,452.4"``,
    ``" 44.1 "``), so it is that cell's own number."""
    return len(mention) == len(value.strip()) or "".join(mention.split()) == "".join(value.split())


@lru_cache(maxsize=8192)
def _is_date_key(key: str) -> bool:
    return _DATE_KEY.search(key) is not None


def _number_text(value: float | Decimal) -> tuple[str, Decimal | None]:
    """(raw text, Decimal or None when it cannot be a value: NaN, infinities, huge)."""
    if isinstance(value, float):
        if not math.isfinite(value):
            return ("NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")), None
        raw = repr(value)
    elif isinstance(value, int):
        if value.bit_length() > 140:  # more than ~42 digits: not a measured quantity
            return f"<integer of {value.bit_length()} bits>", None
        raw = str(value)
    else:
        if not value.is_finite():
            return str(value), None
        raw = str(value)
    try:
        number = Decimal(raw)
    except InvalidOperation:  # pragma: no cover - repr/str of finite numbers always parse
        return raw, None
    if len(number.as_tuple().digits) > numbers.MAX_DIGITS or abs(number.adjusted()) > _MAX_EXPONENT:
        return raw, None  # (1e999999999: its integer alone would take minutes to build)
    return raw, number


#: Powers of ten past this are no measured quantity (a 1e-70 or a 1e70 is noise or an
#: attack): such a number stays text, never a value.
_MAX_EXPONENT = numbers.MAX_DIGITS + 30


def _small_int(value: Any, lo: int, hi: int, strip: str = "") -> int | None:
    """``value`` as an int in ``lo..hi``, or None. A number goes through the bounded
    reading of :func:`_number_text` first: ``int()`` of a ``1e10000000`` leaf would
    build a ten-million-digit integer (minutes, holding the GIL), and of an infinity
    raises ``OverflowError``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        value = value.strip().lstrip(strip)
        if not (0 < len(value) <= 20 and value.isascii() and value.isdigit()):
            return None
        whole = int(value)
    elif isinstance(value, (int, float, Decimal)):
        number = _number_text(value)[1]
        if number is None or number != number.to_integral_value():
            return None
        whole = int(number)  # bounded: at most MAX_DIGITS digits, exponent checked
    else:
        return None
    return whole if lo <= whole <= hi else None


def _iso_date(key: str) -> dt.date:
    return dt.date.fromisoformat(key)


def iter_leaves(h: Haystack) -> Iterable[tuple[str, str, str]]:
    """(tool name, path, raw) of every leaf, for debugging and tests."""
    for i, leaf in enumerate(h.leaves):
        yield h.tools[leaf.tool].name, h.path(i), leaf.raw
