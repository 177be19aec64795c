"""Sentences of the answer: their citation markers, the sources they cite, and each
one's content-word overlap with its source.

A citation marker (``[1]``, ``[2, 3]``, ``[1-3]``, ``[^1]``) names a source: a tool
result whose call id is the marker's number, else the n-th tool result when there are
several, else the n-th record of the one tool's list of results (news hits, search
results, filings). A marker standing after a sentence's full stop ("... headwind. [1]")
belongs to that sentence.

Overlap is the share of a sentence's content words (not function words, not the values
other stages check exactly: numbers, dates, tickers) that appear among the words of its
source. It is blunt in both directions (a paraphrase scores low, a changed number or a
flipped negation scores high), which is why it is reported beside the exact checks and
flags only cited sentences whose source has prose to compare with.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import regex

from verifier import stoplists

from ..deadline import check as check_deadline
from ..extract import Mention
from ..index.haystack import Haystack, LeafId
from ..index.memo import PerHaystack
from .splitter import CITATION_MARKER, sentence_bounds

#: A citation marker: [1], [2, 3], [1-3], [^1], [1][2].
CITATION = regex.compile(CITATION_MARKER)
_NUMBERS = regex.compile(r"\d{1,3}")
#: A word: letters and inner apostrophes ([^\W\d_] is a letter; stdlib re is faster here).
WORD = re.compile(r"[^\W\d_][^\W\d_'’]*")
_CAMEL = regex.compile(r"(?<=[a-z])(?=[A-Z])")
#: Keys that hold a record's own citation number ({"id": "3"}, {"ref": 3}).
_REF_KEYS = frozenset({"id", "ref", "citation", "cite", "source_id", "doc_id", "index", "n"})
#: A source needs a string of at least this many words (prose, not a name or a sector)
#: for a low overlap to mean something.
MIN_SOURCE_WORDS = 8
#: Keys that mark a list's records as documents a citation can point at.
_DOCUMENT_KEYS = frozenset({"title", "snippet", "url", "link", "text", "content", "summary", "headline", "body"})


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence of the answer and the citation numbers it carries."""

    start: int
    end: int
    text: str
    citations: tuple[int, ...]


def split(answer: str) -> list[Sentence]:
    """The answer's sentences (blank ones dropped), each with its citation markers."""
    bounds = sentence_bounds(answer)
    cites: list[list[int]] = [[] for _ in bounds]
    index = 0
    for m in CITATION.finditer(answer):
        while index + 1 < len(bounds) and m.start() >= bounds[index + 1][0]:
            index += 1
        owner = index
        before = answer[bounds[index][0]:m.start()]
        if index > 0 and not before.strip() and "\n" not in before and "\n" not in answer[
                bounds[index - 1][1] - 1:bounds[index][0]]:
            owner = index - 1  # "... headwind. [1] Next sentence": the marker closes the last one
            bounds[owner] = (bounds[owner][0], m.end())
            bounds[index] = (m.end(), bounds[index][1])
        cites[owner].extend(_marker_numbers(m.group()))
    out = []
    for (start, end), numbers in zip(bounds, cites, strict=True):
        text = answer[start:end]
        stripped = text.strip()
        if stripped:
            left = start + len(text) - len(text.lstrip())
            out.append(Sentence(left, left + len(stripped), stripped, tuple(dict.fromkeys(numbers))))
    return out


def _marker_numbers(marker: str) -> list[int]:
    """[2, 3] -> [2, 3]; [1-3] -> [1, 2, 3]; a range of more than 20 names nothing."""
    inner = marker.strip("[]").replace("^", "")
    out: list[int] = []
    for part in regex.split(r"\s*,\s*", inner):
        ends = [int(n) for n in _NUMBERS.findall(part)]
        if len(ends) == 2 and "-" in part or "–" in part:
            if 0 < ends[1] - ends[0] <= 20:
                out.extend(range(ends[0], ends[1] + 1))
            # a longer range ("[1-100]") is not a citation of a hundred sources: skipped
        else:
            out.extend(ends)
    return out


# -- sources ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Source:
    """What a citation number points at: a tool result, or one record inside one."""

    number: int
    tool: int
    node: int  # -1: the whole tool result
    label: str  # "search_news $.results[0]" for people


def sources(hay: Haystack, number: int) -> Source | None:
    """The source citation ``number`` names, or None when there is none."""
    for tool in hay.tools:
        if tool.id is not None and tool.id.strip("[]^ ") == str(number):
            return Source(number, tool.index, -1, tool.name)
    if len(hay.tools) > 1:
        if 1 <= number <= len(hay.tools):
            tool = hay.tools[number - 1]
            return Source(number, tool.index, -1, tool.name)
        return None
    records = _records(hay)
    if records.documents:  # search hits, news, filings: [n] is the n-th of them
        for node, ref in records.by_ref.items():
            if ref == str(number):
                return Source(number, 0, node, f"{hay.tools[0].name} {hay.path_of_node(node)}")
        if 1 <= number <= len(records.listed):
            node = records.listed[number - 1]
            return Source(number, 0, node, f"{hay.tools[0].name} {hay.path_of_node(node)}")
    if number == 1 and hay.tools:  # structured data (quarters, quotes): [1] is the tool result
        return Source(1, 0, -1, hay.tools[0].name)
    return None


@dataclass
class _Records:
    listed: list[int]  # the records of the longest list of objects, in order
    by_ref: dict[int, str]  # record node -> its own id field
    documents: bool = False  # the records are documents (a title, snippet, url or prose)


_RECORDS: PerHaystack[_Records] = PerHaystack("sentences.records")


def _records(hay: Haystack) -> _Records:
    found = _RECORDS.get(hay)
    if found is None:
        arrays: dict[int, set[int]] = {}  # list node -> its element (record) nodes
        by_ref: dict[int, str] = {}
        for entry in hay.leaves:
            if entry.tool != 0:
                continue
            record = hay.parent(entry.node)
            if record < 0:
                continue
            if entry.key is not None and entry.key.lower() in _REF_KEYS:
                by_ref.setdefault(record, entry.raw.strip().strip("[]^ "))
            holder = hay.parent(record)
            if holder >= 0 and isinstance(hay.segment(record), int):
                arrays.setdefault(holder, set()).add(record)
        longest = max(arrays.values(), key=len, default=set())
        documents = any(
            (entry.key or "").lower() in _DOCUMENT_KEYS or (hay.is_string(leaf) and entry.raw.count(" ") >= 7)
            for leaf, entry in enumerate(hay.leaves) if entry.tool == 0 and hay.parent(entry.node) in longest)
        found = _Records(sorted(longest, key=lambda n: hay.segment(n) or 0), by_ref, documents)
        found = _RECORDS.setdefault(hay, found)
    return found


def in_source(hay: Haystack, leaf: LeafId, source: Source) -> bool:
    """Whether ``leaf`` lies inside ``source``."""
    entry = hay.leaves[leaf]
    if entry.tool != source.tool:
        return False
    if source.node < 0:
        return True
    node = entry.node
    while node >= 0:
        if node == source.node:
            return True
        node = hay.parent(node)
    return False


# -- overlap ------------------------------------------------------------------------------

@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A crude stem, enough to meet "warned" with "warning" and "tariffs" with "tariff"."""
    w = word.lower().replace("’", "'")
    w = w.removesuffix("'s")
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("s", "")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not w.endswith("ss"):
            w = w[: len(w) - len(suffix)] + keep
            break
    # a final e goes too, so charge, charges and charged meet at "charg"
    return w[:-1] if w.endswith("e") and len(w) > 3 else w


def key_stems(key: str) -> set[str]:
    """Stems of the words of a JSON key: ``gross_margin_pct`` and ``grossMarginPct`` both
    give {gross, margin, pct}."""
    check_deadline()  # asked of every key of a source: 150,000 of them, half a second
    return {stem(w) for w in WORD.findall(_CAMEL.sub(" ", key.replace("_", " ")))}


def content_words(text: str, skip: Iterable[tuple[int, int]] = ()) -> list[str]:
    """Stems of ``text``'s content words, leaving out spans in ``skip`` (values checked
    exactly elsewhere) and citation markers."""
    spans = sorted(skip)
    if not spans:
        return list(_content_words(text))
    return _content_words_skipping(text, spans)


@lru_cache(maxsize=4096)
def _content_words(text: str) -> tuple[str, ...]:
    return tuple(_content_words_skipping(text, []))


def _content_words_skipping(text: str, spans: list[tuple[int, int]]) -> list[str]:
    starts = [s for s, _ in spans]
    function_words = stoplists.load("function_words")
    out = []
    for m in WORD.finditer(text):
        at = bisect.bisect_right(starts, m.start()) - 1  # the last span starting at or before it
        if at >= 0 and m.start() < spans[at][1]:
            continue
        word = m.group()
        if len(word) < 3 or word.lower() in function_words:
            continue
        out.append(stem(word))
    return out


_SOURCE_WORDS: PerHaystack[dict[tuple[int, int], tuple[frozenset[str], int]]] = PerHaystack("sentences.source_words")


def source_words(hay: Haystack, tool: int, node: int) -> tuple[frozenset[str], int]:
    """(stems, number of prose words) of the strings and keys inside a source."""
    cache = _SOURCE_WORDS.setdefault(hay, {})
    key = (tool, node)
    if key not in cache:
        # one pass over the tool's leaves fills the whole tool and, for a list of
        # records, every record at once (an answer citing 80 search hits reads the
        # haystack once, not 80 times)
        records = set(_records(hay).listed) if tool == 0 else set()
        if node >= 0:
            records.add(node)
        words: dict[int, set[str]] = {-1: set()}
        prose: dict[int, int] = {-1: 0}
        for leaf, entry in enumerate(hay.leaves):
            if entry.tool != tool:
                continue
            found_words: set[str] = set()
            count = 0
            if entry.key:
                found_words.update(key_stems(entry.key))
            if hay.is_string(leaf):
                found = WORD.findall(entry.raw)
                if len(found) >= MIN_SOURCE_WORDS:  # prose; names and sectors are not
                    count = len(found)
                found_words.update(stem(w) for w in set(found))  # each distinct word stemmed once
                check_deadline()
            owners = [-1]
            up = hay.parent(entry.node)
            while up >= 0 and records:
                if up in records:
                    owners.append(up)
                    break
                up = hay.parent(up)
            for owner in owners:
                words.setdefault(owner, set()).update(found_words)
                prose[owner] = prose.get(owner, 0) + count
        for owner in {-1} | records:
            cache.setdefault((tool, owner), (frozenset(words.get(owner, ())), prose.get(owner, 0)))
    return cache[key]


def overlap(words: list[str], known: frozenset[str]) -> float | None:
    """Share of ``words`` in ``known``; None when there are no words."""
    if not words:
        return None
    return sum(1 for w in words if w in known) / len(words)


def mention_spans(mentions: Iterable[Mention]) -> list[tuple[int, int]]:
    """The spans of values other stages check exactly (not quotes: their words count)."""
    return [(m.start, m.end) for m in mentions if m.kind != "quote"]
