"""The walk: tool results flattened once into a :class:`~verifier.index.tree.Tree` of
leaves, and every value indexed as it is met, so that every later lookup is a hash or
a bisect, never a scan of the JSON text.

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

The walk is iterative (no recursion limit). Its public attributes are what it found;
:class:`~verifier.index.haystack.Haystack` keeps them and drops the walk.
"""

from __future__ import annotations

import datetime as dt
import gc
from collections import defaultdict
from collections.abc import Callable
from decimal import Decimal
from functools import lru_cache
from typing import Any

import regex

from verifier.normalizers import dates, numbers, ratings, tickers

from .._errors import InputError
from ..deadline import check as _check_deadline
from ..extract import Extractor
from . import table_layout
from .field_keys import CODE_KEYS, SYMBOL_KEYS
from .json_numbers import number_text, small_int
from .leaves import Leaf, LeafId, NumRef, Tool
from .percent_words import is_percent_key as _is_percent_key
from .period_labels import is_period_label, period_role
from .scales import (
    COLUMN_UNIT,
    key_scale,
    table_scale,
    titles_scale,
    tool_unit,
    unscaled_column,
    unscaled_rows,
)
from .tree import Tree

_TABLE_COLUMNS = ("columns", "headers", "header", "fields")
_HEADER_KEYS = frozenset(_TABLE_COLUMNS + ("header_rows",))
_TABLE_ROWS = ("rows", "data", "values")
_DATE_KEY = regex.compile(r"(?i)(date|time|timestamp|(?<![a-z])ts(?![a-z])|_at$|At$|epoch|day|released|period)")
_UPPER_OR_DIGIT = regex.compile(r"[A-Z0-9]")
_UPPER = regex.compile(r"[A-Z]{1,7}(?![a-z])")
_DIGIT = regex.compile(r"\d")
#: A cell that is only a dash: financial tables print nil as "-" or "—".
_NIL_CELLS = frozenset({"-", "–", "—", "−", "--", "$-", "$ -", "$—", "$ —"})


class Walk:
    """Walks ``tools`` into ``tree``, reading strings with ``extractor``; what it found
    is in its public attributes (each index maps a key to the leaves that hold it)."""

    def __init__(self, tools: list[Tool], extractor: Extractor, tree: Tree) -> None:
        self.tree = tree
        self.leaves: list[Leaf] = tree.leaves
        self._parent = tree.parents
        self._segment = tree.segments
        self._node: Callable[[int, str | int | None], int] = tree.node
        self._add_leaf: Callable[[int, int, str | None, str], LeafId] = tree.add_leaf
        self._extractor = extractor
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
        self.strings: list[LeafId] = []  # the string leaves, in walk order
        self.tool_scale: dict[int, Decimal] = {}  # tool index -> scale from a unit field
        self.key_leaves: set[LeafId] = set()  # leaves that are object keys, not values
        #: each numeric leaf's own number as written (a percent string "4.00%" -> 4.00):
        #: the operands the derive stage combines
        self.leaf_value: dict[LeafId, Decimal] = {}
        #: figures in running text, as written, each with the scale its own words give it
        #: ("$60.3 million" -> (60.3, 1E+6)) or None (then its tool's unit applies)
        self.text_values: dict[LeafId, list[tuple[Decimal, Decimal | None]]] = defaultdict(list)
        #: leaves that hold a percentage: a "12.3%" string, or a number under a key or
        #: column header that says so (change_pct, "Change (%)", yield, rate)
        self.percent_leaves: set[LeafId] = set()
        self._mentions_cache: dict[tuple[str, bool], list[Any]] = {}
        self._plain: list[tuple[Decimal, NumRef]] = []  # the tool being read's numbers as written
        # The walk only allocates (leaves, refs, index lists: no garbage cycles), yet
        # each generation-2 collection traverses every object built so far, which made
        # the cost per leaf grow with the leaves; collection is paused for the walk and
        # left as the caller had it (never switched on if it was off).
        collecting = gc.isenabled()
        gc.disable()
        try:
            for tool in tools:
                self._walk(tool)
        finally:
            if collecting:
                gc.enable()
        self._mentions_cache = {}

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
                if leaf is not None and isinstance(value, str) and isinstance(self._segment[node], str):
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
                self.tree.header_nodes.add(child_node)
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
                            self.tree.table_scales[row_node] = Decimal(1) if exempt[r] else stated
                            row_scale = None if exempt[r] else stated
                        for c in range(len(row) - 1, -1, -1):
                            header = names[c] if c < len(names) else None
                            cell_node = self._node(row_node, c)
                            if c < len(titles) and titles[c]:
                                self.tree.titles[cell_node] = titles[c]
                            # a title over the column that states a unit ("(Shares in
                            # thousands)" over two of five columns) is the column's
                            titled = titles_scale(titles[c], header) if (
                                c < len(titles) and titles[c] and not exempt[r]) else None
                            # a share is no amount ("10%" even under "2019 S$ million"), nor a
                            # price a count of thousands
                            marked = isinstance(row[c], str) and "%" in row[c]
                            plain = marked or unscaled_column(header)
                            if plain and row_scale is not None:
                                self.tree.unscaled_cells.add(cell_node)
                            if titled is not None and not plain:
                                self.tree.titled_cells[cell_node] = titled
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
            role = period_role(key) if isinstance(key, str) else None
            if role == "quarter":
                quarter = small_int(value, 1, 4, strip="Qq")
                qkey = key
            elif role == "year":
                year = small_int(value, 1900, 2100, strip="FYfy")
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
            raw, number = number_text(value)
            leaf = self._add_leaf(tool, node, key, raw)
            if number is not None:
                self._index_number(leaf, number, raw, key, scale)
            return leaf
        raise InputError(
            f"{type(value).__name__} is not a JSON value (use str, int, float, Decimal, bool, None, list, dict)",
            f"tool_results[{tool}] at {self.tree.path_of_node(node)}",
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
        self.strings.append(leaf)
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
            whole = Whole(value)
            for mention in (m for m in mentions if not m.descriptor):  # "10-year": no value of the data
                self._index_mention(leaf, mention, key, scale, whole=whole(mention.text))
        elif _UPPER.search(value) is not None:  # no digits: only tickers can be in it
            for symbol in self._extractor.ticker_symbols(value):
                self._add_ticker(leaf, symbol)
        if len(value) <= 16 and ratings.is_valid(value):
            self.ratings[ratings.grade_of(value.strip())].append(leaf)
        if key is not None and key.lower() in CODE_KEYS and 0 < len(value.strip()) <= 24:
            self.codes[value.strip().upper().replace(" ", "")].append(leaf)  # {"cusip": "037833100"}
        if key is not None and key.lower() in SYMBOL_KEYS and 0 < len(value.strip()) <= 16:
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
            if ref.leaf >= first_leaf and not self.tree.in_headers(ref.leaf) and self.tree.stated_scale(ref.leaf) is None:
                self.numbers[numbers.CONTEXT.multiply(value, scale)].append(
                    NumRef(ref.leaf, "scaled by unit field", ref.digits))


@lru_cache(maxsize=8192)
def _may_name_something(key: str) -> bool:
    """Whether an object key can be a ticker, code or date (``"AAPL"``, ``"2025"``)."""
    return _UPPER_OR_DIGIT.match(key) is not None


class Whole:
    """Whether a value read from ``value`` is all the string says (``"$  1,452.4"``,
    ``" 44.1 "``), so it is that cell's own number: its text, spaces aside, is the
    string's. The string's measures are taken once here, not per figure: re-joining a
    page of prose for each of its thousand figures made indexing it quadratic."""

    __slots__ = ("_length", "_squeezed", "_value")

    def __init__(self, value: str) -> None:
        self._value = value
        self._length = len(value.strip())
        self._squeezed: str | None = None  # the string without its spaces, made when first asked

    def __call__(self, mention: str) -> bool:
        if len(mention) == self._length:
            return True
        if self._squeezed is None:
            self._squeezed = "".join(self._value.split())
        return "".join(mention.split()) == self._squeezed


@lru_cache(maxsize=8192)
def _is_date_key(key: str) -> bool:
    return _DATE_KEY.search(key) is not None


def _iso_date(key: str) -> dt.date:
    return dt.date.fromisoformat(key)
