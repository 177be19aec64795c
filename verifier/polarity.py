"""Polarity: negations and direction words that contradict the data.

Three checks, all on words the other stages do not read:

- **negation in text**: a sentence that says what a source sentence says, with the
  negation flipped ("Normal wear is always charged." against "Normal wear is never
  charged."). The source sentence is the one that shares most of the answer sentence's
  content words; the polarity is the parity of negation cues (not, never, n't, ...).
- **negation against a flag**: a sentence whose words name a boolean field
  (``pays_dividend``, ``is_delayed``) and says the opposite of its value.
- **beat / miss and profit / loss**: "missed estimates" where the record says
  ``"eps_result": "beat"`` or a positive surprise; "a net loss of $1.2 million" where the
  value is a positive ``net_income``.

The words come from ``stoplists/polarity.txt``. Each finding is a flagged note (and the
amount in a profit/loss contradiction is flagged as well).
"""

from __future__ import annotations

import weakref
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

import regex

import stoplists

from .attribute import sentence_starts
from .extract import Mention
from .haystack import Haystack, LeafId
from .match import candidate_leaves, leaf_evidence
from .models import SUPPORTED_STATUSES, Item, Note
from .sentences import Sentence, content_words, stem

_WORD = regex.compile(r"[\p{L}][\p{L}'’]*")
_CAMEL = regex.compile(r"(?<=[a-z])(?=[A-Z])")
_CLAUSE = regex.compile(r"[.;:!?,]\s")
#: Key words that say nothing about what a boolean means.
_GENERIC_KEY_WORDS = frozenset({"is", "has", "can", "flag", "bool", "status", "the", "a"})
#: Source sentences scanned for negation, at most: bounds the cost on huge haystacks.
MAX_SOURCE_SENTENCES = 5_000
#: An answer sentence "says the same" as a source sentence when it shares this share of
#: its content words (and at least MIN_SHARED of them).
SAME_CLAIM = 0.6
MIN_SHARED = 3


def _roles() -> dict[str, str]:
    return stoplists.load_pairs("polarity")


def _words(text: str) -> list[str]:
    return [w.lower().replace("’", "'") for w in _WORD.findall(text)]


def negated(text: str) -> bool:
    """Whether ``text`` holds an odd number of negation cues."""
    roles = _roles()
    return sum(1 for w in _words(text) if roles.get(w) == "not" or w.endswith("n't")) % 2 == 1


@dataclass(frozen=True, slots=True)
class _SourceSentence:
    leaf: LeafId
    text: str
    stems: frozenset[str]
    negated: bool


_SOURCES: weakref.WeakKeyDictionary[Haystack, tuple[list[_SourceSentence], dict[str, list[int]]]] = (
    weakref.WeakKeyDictionary())


def _source_sentences(hay: Haystack) -> tuple[list[_SourceSentence], dict[str, list[int]]]:
    """The data's prose sentences, and stem -> the sentences that hold it."""
    cached = _SOURCES.get(hay)
    if cached is None:
        found: list[_SourceSentence] = []
        for leaf, entry in enumerate(hay.leaves):
            if len(found) >= MAX_SOURCE_SENTENCES:
                break
            if not hay.is_string(leaf) or entry.raw.count(" ") < 3:
                continue
            starts = sentence_starts(entry.raw)
            for a, b in zip(starts, [*starts[1:], len(entry.raw)], strict=True):
                text = entry.raw[a:b].strip()
                stems = frozenset(content_words(text))
                if len(stems) >= MIN_SHARED:
                    found.append(_SourceSentence(leaf, text, stems, negated(text)))
        index: dict[str, list[int]] = {}
        for at, source in enumerate(found):
            for word in source.stems:
                index.setdefault(word, []).append(at)
        cached = found, index
        _SOURCES[hay] = cached
    return cached


def check(answer: str, sentences: list[Sentence], matched: list[tuple[Mention, Item]], hay: Haystack
          ) -> tuple[list[tuple[Mention, Item]], list[Note]]:
    """(pairs with profit/loss contradictions flagged, notes)."""
    notes: list[Note] = []
    for sentence in sentences:
        words = content_words(sentence.text)
        note = _text_negation(sentence, words, hay) or _flag_negation(sentence, words, hay)
        if note is not None:
            notes.append(note)
        note = _beat_miss(sentence, matched, hay)
        if note is not None:
            notes.append(note)
    out = []
    for mention, item in matched:
        if mention.kind == "amount" and item.status in SUPPORTED_STATUSES and item.status != "derived":
            item = _profit_loss(answer[max(0, mention.start - 40):mention.start], mention, item, hay)
        out.append((mention, item))
    return out, notes


def _text_negation(sentence: Sentence, words: list[str], hay: Haystack) -> Note | None:
    if len(set(words)) < MIN_SHARED:
        return None
    mine = set(words)
    sources, index = _source_sentences(hay)
    counts: Counter[int] = Counter()
    for word in mine:  # an inverted index: only source sentences sharing a word are scored
        counts.update(index.get(word, ()))
    best, best_share = None, 0.0
    for at, shared in counts.items():
        share = shared / len(mine)
        if shared >= MIN_SHARED and share > best_share:
            best, best_share = sources[at], share
    if best is None or best_share < SAME_CLAIM or negated(sentence.text) == best.negated:
        return None
    said = "negates" if negated(sentence.text) else "drops the negation of"
    return Note.model_construct(
        kind="negation", flagged=True, start=sentence.start, end=sentence.end,
        evidence=[leaf_evidence(hay, best.leaf, "negation differs")],
        message=f"the sentence {said} what the source says: {best.text!r}")


_FLAGS: weakref.WeakKeyDictionary[Haystack, list[tuple[LeafId, frozenset[str]]]] = weakref.WeakKeyDictionary()


def _flags(hay: Haystack) -> list[tuple[LeafId, frozenset[str]]]:
    """(leaf, stems of its key) for every boolean field."""
    found = _FLAGS.get(hay)
    if found is None:
        found = []
        for leaf, entry in enumerate(hay.leaves):
            if entry.raw in ("true", "false") and entry.key and not hay.is_string(leaf):
                key_words = frozenset(stem(w) for w in _words(_CAMEL.sub(" ", entry.key.replace("_", " "))))
                if key_words - _GENERIC_KEY_WORDS:
                    found.append((leaf, key_words - _GENERIC_KEY_WORDS))
        _FLAGS[hay] = found
    return found


def _flag_negation(sentence: Sentence, words: list[str], hay: Haystack) -> Note | None:
    flags = _flags(hay)
    if not flags:
        return None
    stems = set(words) | {stem(w) for w in _words(sentence.text)}
    for leaf, key_words in flags:
        entry = hay.leaves[leaf]
        if not key_words <= stems:
            continue
        says_yes = not negated(sentence.text)
        if says_yes != (entry.raw == "true"):
            return Note.model_construct(
                kind="negation", flagged=True, start=sentence.start, end=sentence.end,
                evidence=[leaf_evidence(hay, leaf, "flag")],
                message=f"the sentence says {'yes' if says_yes else 'no'} to {entry.key!r}, but the data "
                f"has {entry.key} = {entry.raw} at {hay.path(leaf)} in {hay.tool_of(leaf).name}")
    return None


def _beat_miss(sentence: Sentence, matched: list[tuple[Mention, Item]], hay: Haystack) -> Note | None:
    roles = _roles()
    said = {roles[w] for w in _words(sentence.text) if roles.get(w) in ("beat", "miss")}
    if len(said) != 1:
        return None  # none, or both ("beat on revenue, missed on EPS")
    role = said.pop()
    if negated(sentence.text):  # "did not beat"
        role = "miss" if role == "beat" else "beat"
    named = {item.value for m, item in matched if m.kind == "ticker" and sentence.start <= m.start < sentence.end}
    stems = {stem(w) for w in _words(sentence.text)}
    facts = []
    for leaf, entry in enumerate(hay.leaves):
        fact = _outcome(hay, leaf)
        if fact is None:
            continue
        owner = hay.entity_of(leaf)
        if named and owner is not None and owner not in named:
            continue
        facts.append((leaf, fact))
    if not facts:
        return None
    # with mixed outcomes, keep those whose key the sentence names ("EPS", "revenue")
    if len({f for _, f in facts}) > 1:
        facts = [(leaf, f) for leaf, f in facts if _key_stems(hay, leaf) & stems]
        if len({f for _, f in facts}) != 1:
            return None
    leaf, fact = facts[0]
    if fact == role:
        return None
    entry = hay.leaves[leaf]
    return Note.model_construct(
        kind="direction", flagged=True, start=sentence.start, end=sentence.end,
        evidence=[leaf_evidence(hay, leaf, "outcome")],
        message=f"the sentence says {'beat' if role == 'beat' else 'missed'}, but the data says "
        f"{entry.key} = {entry.raw} at {hay.path(leaf)} in {hay.tool_of(leaf).name}")


def _key_stems(hay: Haystack, leaf: LeafId) -> set[str]:
    key = hay.leaves[leaf].key or ""
    return {stem(w) for w in _words(_CAMEL.sub(" ", key.replace("_", " ")))}


def _outcome(hay: Haystack, leaf: LeafId) -> str | None:
    """"beat" or "miss" when the leaf states an outcome: a beat/miss word as the whole
    value, or a signed surprise figure."""
    entry = hay.leaves[leaf]
    if hay.is_string(leaf):
        word = entry.raw.strip().lower()
        role = _roles().get(word)
        return role if role in ("beat", "miss") else None
    if entry.key and "surprise" in entry.key.lower():
        try:
            value = Decimal(entry.raw)
        except InvalidOperation:
            return None
        return "beat" if value > 0 else "miss" if value < 0 else None
    return None


def _profit_loss(before_text: str, mention: Mention, item: Item, hay: Haystack) -> Item:
    """A "loss of $1.2 million" whose only support is a positive profit figure (or a
    "profit of" a negative one) is flagged: the sign is wrong."""
    roles = _roles()
    before = _words(_CLAUSE.split(before_text)[-1])[-3:]
    said = next((roles[w] for w in reversed(before) if roles.get(w) in ("profit", "loss")), None)
    if said is None:
        return item
    leaves = candidate_leaves(mention, hay)
    if not leaves:
        return item
    for leaf in leaves:
        entry = hay.leaves[leaf]
        try:
            value = Decimal(entry.raw)
        except InvalidOperation:
            return item  # a figure in text: no sign to compare
        key = (entry.key or "").lower()
        is_loss = (value > 0) == ("loss" in key or "deficit" in key)
        if is_loss == (said == "loss"):
            return item
    entry = hay.leaves[leaves[0]]
    return item.model_copy(update={
        "status": "unsupported", "flagged": True,
        "evidence": [leaf_evidence(hay, leaf, "opposite sign") for leaf in leaves[:3]],
        "reason": f"the answer calls it a {said}, but {entry.key} = {entry.raw} at {hay.path(leaves[0])} "
        f"in {hay.tool_of(leaves[0]).name} is a {'profit' if said == 'loss' else 'loss'}",
    })

