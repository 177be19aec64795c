"""The evidence the judge sees, and the check that its quote is in the tool data.

The judge is shown only the records of the tool data that a sentence's values and
tickers were found in (:func:`sentence_leaves`, :func:`evidence_for`), not the whole
haystack. A quote it gives to back a ``supported`` verdict is believed only when
:func:`quote_in_data` finds it there (case, quote marks, JSON punctuation and whitespace
aside); both live here because the check reads the records' normalized text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from verifier.normalizers import fold, quotes

from ..checks.match import candidate_leaves
from ..extract import NUMERIC_KINDS, Mention
from ..index.haystack import Haystack, LeafId


@dataclass(frozen=True, slots=True)
class EvidenceRecord:
    """One record of the tool data shown to the judge: where it is and its fields."""

    tool: str
    path: str
    fields: tuple[tuple[str, str], ...]  # (key, raw value)

    def render(self) -> str:
        """The record as the prompt shows it: a header, then one ``key: value`` a line."""
        lines = [f"[{self.tool} {self.path}]"]
        lines += [f"{key}: {raw}" for key, raw in self.fields]
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class JudgeEvidence:
    """The records tied to one sentence, rendered for the prompt and for quote checks."""

    records: tuple[EvidenceRecord, ...]

    @property
    def text(self) -> str:
        """The evidence block of the prompt."""
        if not self.records:
            return "(no tool data is tied to this sentence)"
        return "\n\n".join(r.render() for r in self.records)

    @property
    def searchable(self) -> str:
        """Every record's fields as normalized ``key: value`` text, records apart."""
        return "\x00".join(
            _norm(", ".join(f"{k}: {v}" for k, v in r.fields)) for r in self.records
        )


def _keyed_leaves(mention: Mention, hay: Haystack) -> list[LeafId]:
    index = {"ticker": hay.tickers, "date": hay.dates, "period": hay.periods, "code": hay.codes}.get(mention.kind)
    if index is not None:
        for key in mention.keys:
            if index.get(key):
                return index[key]
        if mention.kind == "ticker" and mention.value:
            return hay.tickers.get("base:" + mention.value, [])
        return []
    if mention.kind == "quote" and mention.keys:
        leaf = hay.find_text(mention.keys[0])
        return [leaf] if leaf is not None else []
    return []


def sentence_leaves(mentions: Iterable[Mention], hay: Haystack, per_value: int = 3) -> list[LeafId]:
    """The leaves the sentence's values and names were found at (a few per value)."""
    leaves: list[LeafId] = []
    for mention in mentions:
        if mention.kind in NUMERIC_KINDS:
            found = candidate_leaves(mention, hay) if not mention.invalid else []
        else:
            found = _keyed_leaves(mention, hay)
        leaves += found[:per_value]
    return list(dict.fromkeys(leaves))


def evidence_for(hay: Haystack, leaves: Iterable[LeafId], *, max_records: int = 8,
                 max_fields: int = 40, max_value_chars: int = 400) -> JudgeEvidence:
    """The records (enclosing objects or table rows) holding ``leaves``, first seen first.

    An object's scalar fields are shown, and those of the objects directly inside it
    (``consensus.rating``); arrays of records are left out (their rows are records of
    their own). A leaf that is an object key (``{"AAPL": {...}}``) stands for the
    object under it."""
    records: list[EvidenceRecord] = []
    seen: set[int] = set()
    for leaf in leaves:
        entry = hay.leaves[leaf]
        node = entry.node if leaf in hay.key_leaves else hay.parent(entry.node)
        if node in seen:
            continue
        seen.add(node)
        value = _resolve(hay, entry.tool, node)
        if isinstance(value, dict):
            fields = list(_object_fields(value, "", 1, max_value_chars))
        else:  # a table row or an array: its cells, labelled by column header or index
            fields = [(hay.leaves[c].key or hay.path(c).rsplit("[", 1)[-1].rstrip("]"),
                       hay.leaves[c].raw[:max_value_chars])
                      for c in dict.fromkeys(hay.children_leaves(node)) if c not in hay.key_leaves]
        if leaf in hay.key_leaves:
            fields.insert(0, ("(key)", entry.raw))
        records.append(EvidenceRecord(hay.tools[entry.tool].name, hay.path_of_node(node),
                                      tuple(fields[:max_fields])))
        if len(records) >= max_records:
            break
    return JudgeEvidence(tuple(records))


def _resolve(hay: Haystack, tool: int, node: int) -> Any:
    """The JSON value at ``node`` of a tool's output (None if it cannot be reached)."""
    segments = []
    while node >= 0 and hay.segment(node) is not None:
        segments.append(hay.segment(node))
        node = hay.parent(node)
    value = hay.tools[tool].output
    try:
        for segment in reversed(segments):
            value = value[segment]
    except (KeyError, IndexError, TypeError):
        return None
    return value


def _scalar_text(value: Any, limit: int) -> str:
    if isinstance(value, str):
        return value[:limit]
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return str(value)


def _object_fields(obj: dict[Any, Any], prefix: str, depth: int, limit: int) -> Iterator[tuple[str, str]]:
    for key, value in obj.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            if depth > 0:
                yield from _object_fields(value, name + ".", depth - 1, limit)
        elif isinstance(value, (list, tuple)):
            if value and len(value) <= 12 and not any(isinstance(v, (dict, list, tuple)) for v in value):
                yield name, ", ".join(_scalar_text(v, limit) for v in value)
        else:
            yield name, _scalar_text(value, limit)


_DROP = str.maketrans("", "", '"{}[]`')
_SEPARATORS = re.compile(r"[,;]\s+|\s+")


def _norm(text: str) -> str:
    """Text folded for quote checks: case, quote marks, dashes, JSON punctuation, separators."""
    text = quotes.normalize(fold(text)).translate(_DROP)
    return _SEPARATORS.sub(" ", text).strip(" .,;:'")


def quote_in_data(quote: str, evidence: JudgeEvidence, hay: Haystack) -> bool:
    """Whether the judge's ``quote`` appears in the tool data: in the records it was
    shown (as ``key: value`` text) or in any string of the data, after normalization."""
    wanted = _norm(quote)
    if len(wanted) < 2:
        return False
    if wanted in evidence.searchable:
        return True
    phrase = quotes.normalize(fold(quote)).strip(" \"'.,;:")
    return bool(phrase) and hay.find_text(phrase) is not None
