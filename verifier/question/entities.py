"""The question: entities it asks about that the data lacks, or that the answer leaves out.

"Compare Apple and Tesla" with tool data on Apple only: any value the answer states for
Tesla was filled in by the model (``gap_fill``, flagged), and the Tesla ticker with it.
"Compare AAPL and MSFT" answered about AAPL only: an ``incomplete`` note (a warning, not
a flag: the answer may rightly say nothing).

Entities in the question are its tickers and the capitalised names it uses; a name
meets a ticker through the ``name`` field of the ticker's record ("Microsoft
Corporation" -> MSFT). A name found nowhere in the tool data is an entity the data lacks.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

import regex

from verifier import stoplists
from verifier.normalizers import tickers

from ..checks.attribute import scope_starts
from ..checks.match import candidate_leaves, misattributed_item
from ..extract import NUMERIC_KINDS, Mention
from ..index.haystack import Haystack
from ..index.memo import PerHaystack
from ..index.names import names as name_map
from ..models import SUPPORTED_STATUSES, Item, Note, construct
from ..text import acronyms
from ..text.months import MONTH_NAMES
from .question import Question

#: A capitalised name, inner capitals allowed (AstraZeneca, McDonald's); a possessive
#: ending is dropped where it is read.
_NAME = regex.compile(r"\b\p{Lu}[\p{L}&'’.-]*\p{Ll}(?:['’]s)?\b")
_MONTHS = frozenset(MONTH_NAMES)


@dataclass
class Asked:
    """An entity the question asks about."""

    label: str  # as the question wrote it
    ticker: str | None  # the ticker it stands for, when the data knows it
    names: set[str] = field(default_factory=set)  # name words that stand for it in text
    in_data: bool = False
    by_name: bool = False  # a company name found nowhere in the data (not a ticker)


def check(question: Question, answer: str, matched: list[tuple[Mention, Item]], hay: Haystack
          ) -> tuple[list[tuple[Mention, Item]], list[Note]]:
    """(pairs with filled-in values marked gap_fill, notes for entities left out)."""
    asked = _asked(question, hay, question.defined_terms | acronyms.defined_terms(answer), answer)
    if not asked:
        return matched, []
    mentions = _entity_mentions(answer, matched, asked)
    starts = scope_starts(answer)
    out = []
    for mention, item in matched:
        # a ticker is its own entity mention: look just past its start
        entity = _entity_at(mention.start + (mention.kind == "ticker"), mentions, starts)
        if mention.kind == "ticker" and entity is not None and not entity.in_data and _says_missing(
                answer, mention.start, starts):
            continue  # "PEP was not in the data": the answer makes no claim about it
        # a value for a company named only in words that the data does hold (exactly) is
        # more likely the data's figure under another name ("Google" for Alphabet)
        spared = entity is not None and entity.by_name and item.status in ("exact", "normalized")
        # a value the data supports (or the answer's checked arithmetic derives) was
        # retrieved, whatever the question asks about: only one found nowhere is filled
        # in; one found only in other entities' records is theirs
        if (entity is not None and not entity.in_data and not spared and mention.kind in NUMERIC_KINDS
                and item.status in ("exact", "normalized")):
            owners = {hay.entity_of(leaf) for leaf in candidate_leaves(mention, hay)}
            if owners and None not in owners:
                item = misattributed_item(item, hay, mention, entity.label)
        elif entity is not None and not entity.in_data and not spared and item.status in ("unsupported", "drift") and (
                mention.kind in NUMERIC_KINDS or mention.kind == "ticker"):
            item = item.model_copy(update={
                "status": "gap_fill", "flagged": True, "evidence": [], "evidence_total": 0,
                "reason": f"the question asks about {entity.label}, which no tool result covers: "
                "this value was filled in, not retrieved"})
        out.append((mention, item))
    named = {id(e) for _, e in mentions}
    notes = [construct(Note,
        kind="incomplete", flagged=False, start=None, end=None, evidence=[],
        message=f"the question asks about {e.label}, and the tool data covers it, but the answer does not mention it")
        for e in asked if e.in_data and id(e) not in named]
    return out, notes


def _asked(question: Question, hay: Haystack, terms: frozenset[str] = frozenset(),
           answer: str = "") -> list[Asked]:
    """The entities the question asks about; not an acronym the question or answer
    defines as a term ("DPO" beside "Days Payable Outstanding")."""
    names = name_map(hay)
    out: list[Asked] = []
    seen: set[str] = set()
    for m in question.tickers:
        if m.kind == "ticker" and not m.stoplisted and m.value and m.value not in seen and m.text not in terms:
            seen.add(m.value)
            refs = [r for k in m.keys for r in hay.tickers.get(k, [])]
            in_data = any(hay.names_ticker(r) for r in refs)
            ticker = m.value
            if m.text.lower() in names:  # "NXP" stands for NXPI, "HSBC" for HSBA.L
                ticker, in_data = names[m.text.lower()], True
            elif refs and not in_data:
                continue  # only a word of the data's prose ("737 MAX"): not an entity asked about
            elif not refs and (_written_in_data(hay, m.text) or _named_in_data(hay, answer, m.text)):
                in_data = True  # "AMCOR" for a page about Amcor plc, "JPMorgan Chase (JPM)": covered in words
            words = {w for w, t in names.items() if tickers.same_entity(t, ticker)} | {m.text.lower()}
            out.append(Asked(m.text, ticker, words, in_data))
    common = stoplists.load("common_words") | stoplists.load("function_words")
    known_spans = [(m.start, m.end) for m in question.tickers
                   if m.value and any(a.in_data and a.ticker == m.value for a in out)]
    unknown: list[tuple[int, int, str]] = []
    for i, m in enumerate(_NAME.finditer(question.text)):
        word = regex.sub(r"['’]s$", "", m.group())
        if word in _MONTHS or word.lower() in common or word.upper() in common or (i == 0 and m.start() == 0
                                                                                      and _is_verb_like(word)):
            continue
        named = names.get(word.lower())
        if named is not None:
            known_spans.append((m.start(), m.end()))
            existing = next((a for a in out if a.ticker and tickers.same_entity(a.ticker, named)), None)
            if existing is None:
                out.append(Asked(word, named, {word.lower()}, True))
            else:
                existing.names.add(word.lower())
        elif word.lower() not in seen and word.lower() not in _data_words(hay) and _names_everyone(hay):
            seen.add(word.lower())
            unknown.append((m.start(), m.end(), word))
    # a capitalised word the data lacks is a company only when the question lists it
    # with companies the data has ("Compare Coca-Cola, PepsiCo and Mondelez"), not the
    # Fed, Powell or Christmas a question mentions in passing
    for start, end, word in unknown:
        if any(_LISTED.fullmatch(question.text[min(end, e):max(start, s)]) for s, e in known_spans):
            out.append(Asked(word, None, {word.lower()}, False, by_name=True))
    return out


#: What may stand between two companies of a list in a question.
_LISTED = regex.compile(r"(?:\s*(?:,|;|/|&|\band\b|\bor\b|\bvs\.?|\bversus\b|\bwith\b)\s*)+", regex.I)


def _is_verb_like(word: str) -> bool:
    """A question's first word is usually an instruction or a wh-word, not a name."""
    return word.lower() in stoplists.load("question_openers")


_WORDS: PerHaystack[frozenset[str]] = PerHaystack("entities.words")


def _data_words(hay: Haystack) -> frozenset[str]:
    found = _WORDS.get(hay)
    if found is None:
        words: set[str] = set()
        for entry in hay.leaves:
            for w in regex.findall(r"[\p{L}&'’-]+", entry.raw):
                words.add(w.lower())
                words.update(part.lower() for part in w.split("-"))  # "Brown-Forman" -> "forman" too
            if entry.key:
                words.update(w.lower() for w in regex.findall(r"[\p{L}]+", entry.key))
        found = frozenset(words)
        found = _WORDS.setdefault(hay, found)
    return found


def _entity_mentions(answer: str, matched: list[tuple[Mention, Item]], asked: list[Asked]
                     ) -> list[tuple[int, Asked]]:
    """Where the answer names an asked entity (by ticker or name), in order; other
    tickers appear as None-like placeholders so they end an entity's reach."""
    found: list[tuple[int, Asked]] = []
    for mention, item in matched:
        if mention.kind == "ticker" and (not mention.stoplisted or item.status in SUPPORTED_STATUSES):
            value = item.value or mention.text
            entity = next((a for a in asked if a.ticker and tickers.same_entity(a.ticker, value)), None) or next(
                (a for a in asked if a.ticker is None and a.label.upper() == mention.text.upper()), None)
            found.append((mention.start, entity if entity is not None else _OTHER))
    for entity in asked:
        for name in entity.names:
            for m in regex.finditer(rf"\b{regex.escape(name)}\b", answer, flags=regex.IGNORECASE):
                found.append((m.start(), entity))
    return sorted(found, key=lambda pair: pair[0])


_MISSING = regex.compile(r"\b(?:not|no|never|without|missing|unavailable|lacks?)\b|n['’]t\b", regex.I)


def _says_missing(answer: str, position: int, starts: list[int]) -> bool:
    """Whether the clause holding ``position`` says something is missing or not there."""
    scope = max((s for s in starts if s <= position), default=0)
    end = min((s for s in starts if s > position), default=len(answer))
    return _MISSING.search(answer, scope, end) is not None


def _names_everyone(hay: Haystack) -> bool:
    """Whether the data gives a name for every entity it has a record of: only then does
    a company name missing from it mean the data lacks that company."""
    found = _EVERYONE.get(hay)
    if found is None:
        names = set(name_map(hay).values())
        # entities with figures in the data (an error record {"symbol": "PEP", "error": ...} has none)
        entities = {hay.entity_of(leaf) for leaf in hay.leaf_value} - {None}
        found = bool(names) and entities <= names
        found = _EVERYONE.setdefault(hay, found)
    return found


_EVERYONE: PerHaystack[bool] = PerHaystack("entities.everyone")


_OTHER = Asked("another entity", None, set(), True)


def _entity_at(position: int, mentions: list[tuple[int, Asked]], starts: list[int]) -> Asked | None:
    """The entity named last before ``position`` in the same sentence or clause
    (``mentions`` sorted by offset; two bisections, not a scan)."""
    scope = starts[max(0, bisect.bisect_right(starts, position) - 1)] if starts else 0
    at = bisect.bisect_left(mentions, position, key=lambda pair: pair[0]) - 1
    if at < 0 or mentions[at][0] < scope:
        return None
    current = mentions[at][1]
    return None if current is _OTHER else current


def _written_in_data(hay: Haystack, word: str) -> bool:
    """Whether the data's text writes ``word`` as a word, in any case ("Amcor" for AMCOR)."""
    pattern = regex.compile(rf"(?<!\w){regex.escape(word)}(?!\w)", regex.IGNORECASE)
    return any(pattern.search(hay.leaves[leaf].raw) for leaf in hay.find_text_all(word.casefold(), limit=20))


def _named_in_data(hay: Haystack, answer: str, ticker: str) -> bool:
    """Whether the answer names the company a ticker stands for ("JPMorgan Chase & Co.
    (JPM)") with a name the data writes."""
    for m in regex.finditer(rf"((?:[A-Z][\w.&'’-]*\s+){{1,4}})\(\s*{regex.escape(ticker)}\s*\)", answer):
        words = [w for w in m.group(1).split() if len(w) > 2 and w[0].isupper()]
        if words and _written_in_data(hay, words[0]):
            return True
    return False
