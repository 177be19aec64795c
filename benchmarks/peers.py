"""Peer packages from PyPI as extra rows in the filing-table benchmark.

Install them with ``pip install -e '.[bench]'``. Each import below is optional: a peer that
is not installed is left out of ``PEERS``, and the module imports with none of them.

Every adapter has the signature ``check_<name>(answer, tool_results, question) -> PeerResult``
and never raises: an exception from a peer becomes ``PeerResult(False, [], "error: ...")`` and
is counted in ``ERRORS`` (by display name), so errors show up rather than pass as "not flagged".
None of the three needs a network, a model or an API key on the paths used here (their
optional LLM/NLI extras are not used); each takes tens of microseconds to a few milliseconds.

figured (``figured.trace(text, rows=None, *, results=None, policy=None)`` -> ``Report``)
    Traces each number in the text to the cells of one or more result sets (a list of dicts,
    a list of rows, or a ``{"columns", "rows"}`` mapping), directly or as a column sum or
    mean, a row sum, or a share of a column, within 1.5%. It parses scale words in the
    text ("1,496.5 million" is 1.4965e9) but knows no unit on the data side, so table cells
    are handed over already multiplied by the tool output's ``unit`` ("million"), parsed by
    figured's own ``figured.evidence.to_number``; percent cells and cells figured cannot parse
    are passed as printed. A ``{"columns", "rows"}`` table goes in as is (its native form);
    numbers in free text (paragraphs) are found with figured's own ``extract_numbers`` and
    given as single-cell result sets, so they match as cells and add no spurious column sums.
    Defaults otherwise: plain figures of 100 or less are not checked, pairwise arithmetic
    (differences, ratios) is off.

rag-quantguard (``quantguard.QuantitativeGuard(tolerance=0.05).verify(text, source_chunks)``
    -> ``GuardResult``)
    Extracts numeric claims from the answer and evidence from each source chunk (plain text)
    with the same regexes, ranks evidence for each claim by the words just before the number
    in its clause and by a year in the same sentence, and compares with the top candidate
    (5% tolerance); ties between different values are AMBIGUOUS, then rescued or contradicted
    by subset sums within a chunk. It cannot read table structure from JSON or from table
    rows as lines (every cell ties), so each table cell is written as its own sentence,
    "<row label> <column>: <cell as printed>." (one chunk per table), which gives each cell
    its row label as subject and its year column as time context; each paragraph is a chunk.

opengate-grounding (``opengate_grounding.check_grounding(answer, context, *, question=None,
    anchors=None, allowed_new_numbers=None, ...)`` -> ``GroundingResult``)
    Every digit run in the answer (``\\d+(\\.\\d+)?``, so "1,496.5" is "1" and "496.5") must
    occur as a digit run in the context or the question. It only compares number tokens, so
    the form of the context does not matter as long as every printed value is in it; it gets
    the same passages as rag-quantguard (a list of passages is its documented input) and the
    question (documented: numbers in the question are allowed). No anchors: the benchmark has
    no list of facts an answer must contain.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _dist_version
from typing import Any


@dataclass(frozen=True)
class PeerResult:
    flagged: bool
    spans: list[tuple[int, int]] = field(default_factory=list)
    note: str = ""

    @property
    def errored(self) -> bool:
        return self.note.startswith("error:")


Adapter = Callable[[str, list[dict], "str | None"], PeerResult]

ERRORS: Counter[str] = Counter()
"""Exceptions raised inside each peer, by display name."""

_SCALES = {"thousand": 1e3, "thousands": 1e3, "million": 1e6, "millions": 1e6,
           "billion": 1e9, "billions": 1e9}


def _version(dist: str, fallback: str) -> str:
    try:
        return _dist_version(dist)
    except PackageNotFoundError:
        return fallback


def _error(name: str, exc: BaseException) -> PeerResult:
    ERRORS[name] += 1
    return PeerResult(flagged=False, spans=[], note=f"error: {exc!r}")


# -- tool outputs as text passages (rag-quantguard, opengate-grounding) -------------------

def _is_table(node: Any) -> bool:
    return isinstance(node, Mapping) and isinstance(node.get("rows"), list)


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value.strip()
    return json.dumps(value, ensure_ascii=False, default=str)  # ensure_ascii adds digits ("\u2014")


_FIGURE_CELL = re.compile(r"^[\s$€£¥(\-−+]*\d[\d,.\s]*%?\)?\s*$")


def _table_passage(table: Mapping[str, Any]) -> str:
    """One sentence per cell: "<row label> <column>: <cell>." Header rows (spanning titles) as
    one sentence each."""
    columns = [_text(c) for c in table.get("columns") or []]
    sentences = []
    for row in table.get("header_rows") or []:
        words = " ".join(_text(c) for c in row if _text(c))
        if words:
            sentences.append(f"{words}.")
    for row in table["rows"]:
        cells = list(row.values()) if isinstance(row, Mapping) else list(row)
        names = list(row.keys()) if isinstance(row, Mapping) else columns
        first = _text(cells[0]) if cells else ""
        labelled = bool(first) and not _FIGURE_CELL.match(first)
        label = first if labelled else ""
        for i in range(1 if labelled else 0, len(cells)):
            cell = _text(cells[i]) if cells[i] is not None else ""
            if not cell:
                continue
            column = str(names[i]).strip() if i < len(names) else ""
            head = " ".join(p for p in (label, column) if p)
            sentences.append(f"{head}: {cell}." if head else f"{cell}.")
    return " ".join(sentences)


def _passages(output: Any) -> list[str]:
    """Tables as cell sentences (one passage each), free text as its own passage, every other
    scalar as "<key path>: <value>." (one passage per tool output)."""
    passages: list[str] = []
    facts: list[str] = []

    def walk(node: Any, path: str) -> None:
        if _is_table(node):
            passages.append(_table_passage(node))
            for key, value in node.items():
                if key not in ("columns", "rows", "header_rows"):
                    walk(value, f"{path} {key}".strip())
        elif isinstance(node, list) and node and all(isinstance(r, Mapping) for r in node):
            flat = [{k: v for k, v in r.items() if not isinstance(v, (Mapping, list))} for r in node]
            passages.append(_table_passage({"rows": flat}))
            for r in node:
                for key, value in r.items():
                    if isinstance(value, (Mapping, list)):
                        walk(value, f"{path} {key}".strip())
        elif isinstance(node, Mapping):
            for key, value in node.items():
                walk(value, f"{path} {key}".strip())
        elif isinstance(node, list):
            for item in node:
                walk(item, path)
        elif isinstance(node, str) and len(node.split()) > 3:
            passages.append(node)  # prose: a passage of its own, as retrieved
        elif node is not None and _text(node):
            facts.append(f"{path}: {_text(node)}." if path else f"{_text(node)}.")

    walk(output, "")
    if facts:
        passages.append(" ".join(facts))
    return [p for p in passages if p]


def _all_passages(tool_results: list[dict]) -> list[str]:
    return [p for tr in tool_results for p in _passages(tr.get("output"))]


# -- figured -----------------------------------------------------------------------------

try:
    from figured import trace as _figured_trace
    from figured.evidence import to_number as _figured_to_number
    from figured.extract import extract_numbers as _figured_numbers

    FIGURED = f"figured {_version('figured', 'unknown')}"
except ImportError:
    FIGURED = ""


def _scale(output: Any) -> float:
    unit = output.get("unit") if isinstance(output, Mapping) else None
    return _SCALES.get(unit.strip().lower(), 1.0) if isinstance(unit, str) else 1.0


def _figured_cell(cell: Any, scale: float) -> Any:
    if scale == 1.0 or isinstance(cell, bool) or (isinstance(cell, str) and cell.strip().endswith("%")):
        return cell
    value = _figured_to_number(cell)
    return cell if value is None else value * scale


def _figured_sets(output: Any) -> list[Any]:
    """Result sets for figured: tables and lists of records as they are (cells scaled by the
    output's unit), other numbers and the numbers in text as single-cell sets."""
    scale = _scale(output)
    sets: list[Any] = []

    def single(value: Any) -> None:
        sets.append([[value]])

    def text(s: str) -> None:
        for fig in _figured_numbers(s):
            single(fig.value)
            if scale != 1.0 and not (fig.has_scale or fig.is_percent or fig.looks_like_year):
                single(fig.value * scale)

    def walk(node: Any) -> None:
        if _is_table(node):
            rows = [[_figured_cell(c, scale) for c in r] if isinstance(r, list)
                    else {k: _figured_cell(v, scale) for k, v in r.items()} if isinstance(r, Mapping)
                    else r for r in node["rows"]]
            sets.append({"columns": [str(c) for c in node.get("columns") or []], "rows": rows})
            for key, value in node.items():
                if key not in ("columns", "rows", "header_rows"):
                    walk(value)
        elif isinstance(node, list) and node and all(isinstance(r, Mapping) for r in node):
            sets.append([{k: _figured_cell(v, scale) for k, v in r.items()
                          if not isinstance(v, (Mapping, list))} for r in node])
            for r in node:
                for value in r.values():
                    if isinstance(value, (Mapping, list)):
                        walk(value)
        elif isinstance(node, Mapping):
            record = {}
            for key, value in node.items():
                if isinstance(value, (Mapping, list)):
                    walk(value)
                elif isinstance(value, str) and _figured_to_number(value) is None:
                    text(value)
                elif value is not None and not isinstance(value, bool):
                    record[key] = _figured_cell(value, scale)
            if record:
                sets.append([record])
        elif isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, str):
            number = _figured_to_number(node)
            if number is None:
                text(node)
            else:
                single(_figured_cell(node, scale))
        elif isinstance(node, (int, float)) and not isinstance(node, bool):
            single(_figured_cell(node, scale))

    walk(output)
    return sets


def check_figured(answer: str, tool_results: list[dict], question: str | None) -> PeerResult:
    """figured.trace with default Policy; flagged when any figure is "ungrounded"."""
    try:
        sets = [s for tr in tool_results for s in _figured_sets(tr.get("output"))]
        report = _figured_trace(answer, results=sets)
        spans = [(r.figure.start, r.figure.end) for r in report.results if r.status == "ungrounded"]
        return PeerResult(
            flagged=not report.ok, spans=spans,
            note=(f"ok={report.ok} checked={report.checked} ungrounded={report.ungrounded} "
                  f"cells={report.evidence_cells}"))
    except Exception as exc:  # noqa: BLE001 - a peer must never break the benchmark
        return _error(FIGURED or "figured", exc)


# -- rag-quantguard ----------------------------------------------------------------------

try:
    from quantguard import QuantitativeGuard as _QuantitativeGuard

    RAG_QUANTGUARD = f"rag-quantguard {_version('rag-quantguard', 'unknown')}"
    _GUARD = _QuantitativeGuard()  # defaults: tolerance 0.05, max_candidates 5, no fallback
except ImportError:
    RAG_QUANTGUARD = ""

# GuardResult.is_valid fails on these; VERIFIED, APPROXIMATE and NOT_APPLICABLE pass.
_QG_BAD = frozenset({"CONTRADICTED", "AMBIGUOUS", "UNSUPPORTED"})


def check_rag_quantguard(answer: str, tool_results: list[dict], question: str | None) -> PeerResult:
    """QuantitativeGuard().verify(answer, chunks); flagged when not is_valid."""
    try:
        result = _GUARD.verify(answer, _all_passages(tool_results))
        bad = [r for r in result.results if r.status.value in _QG_BAD]
        spans = [(r.claim.span.start, r.claim.span.end) for r in bad]
        first = f" first: {bad[0].status.value} {bad[0].claim.raw_text!r} ({bad[0].reason})" if bad else ""
        return PeerResult(
            flagged=not result.is_valid, spans=spans,
            note=f"is_valid={result.is_valid} {result.status_counts}{first}")
    except Exception as exc:  # noqa: BLE001 - a peer must never break the benchmark
        return _error(RAG_QUANTGUARD or "rag-quantguard", exc)


# -- opengate-grounding ------------------------------------------------------------------

try:
    from opengate_grounding import check_grounding as _check_grounding

    OPENGATE_GROUNDING = f"opengate-grounding {_version('opengate-grounding', 'unknown')}"
except ImportError:
    OPENGATE_GROUNDING = ""

_OG_NUMBER = re.compile(r"\d+(?:\.\d+)?")  # opengate's own number token (core._NUM_RE)


def _token_spans(answer: str, tokens: list[str]) -> list[tuple[int, int]]:
    """Where opengate's (leading-zero-stripped) number tokens occur in the answer, found by
    tokenising the answer the way opengate does."""
    wanted = set(tokens)
    return [(m.start(), m.end()) for m in _OG_NUMBER.finditer(answer)
            if re.sub(r"^0+(?=\d)", "", m.group()) in wanted]


def check_opengate_grounding(answer: str, tool_results: list[dict], question: str | None) -> PeerResult:
    """check_grounding(answer, passages, question=question); flagged when not grounded."""
    try:
        result = _check_grounding(answer, _all_passages(tool_results), question=question)
        return PeerResult(
            flagged=not result.grounded,
            spans=_token_spans(answer, list(result.ungrounded_numbers)),
            note=f"grounded={result.grounded} ungrounded_numbers={result.ungrounded_numbers}")
    except Exception as exc:  # noqa: BLE001 - a peer must never break the benchmark
        return _error(OPENGATE_GROUNDING or "opengate-grounding", exc)


# -- registry ----------------------------------------------------------------------------

PEERS: dict[str, Adapter] = {
    name: adapter
    for name, adapter in (
        (FIGURED, check_figured),
        (RAG_QUANTGUARD, check_rag_quantguard),
        (OPENGATE_GROUNDING, check_opengate_grounding),
    )
    if name
}


def available() -> dict[str, Adapter]:
    """The peers that imported, by display name ("figured 0.4.3")."""
    return dict(PEERS)
