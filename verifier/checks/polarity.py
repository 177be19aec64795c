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

import bisect
import itertools
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache

import regex

from verifier import stoplists

from ..deadline import check as check_deadline
from ..extract import Mention
from ..index.haystack import Haystack, LeafId
from ..index.memo import PerHaystack
from ..models import SUPPORTED_STATUSES, Item, Note, NoteKind, construct
from ..text.sentences import WORD as _WORD
from ..text.sentences import Sentence, content_words, key_stems, stem
from ..text.splitter import clause_spans, clause_tail, sentence_bounds
from .match import candidate_leaves, leaf_evidence

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


def _is_cue(word: str, roles: dict[str, str]) -> bool:
    return roles.get(word) == "not" or word.endswith("n't")


#: Content words after a negation cue that it governs ("does not charge a commission":
#: charge, commission), at most this many, and never past a clause break.
SCOPE_WORDS = 3
_TOKEN = regex.compile(r"[\p{L}][\p{L}'’]*|[,;:.!?]")


def scopes(text: str) -> list[frozenset[str]]:
    """The stems each negation cue in ``text`` governs: the next few content words in
    the same clause. "Schwab does not charge a commission ... and never charges a fee"
    has two scopes, so two correct negations do not cancel each other out."""
    roles = _roles()
    function_words = stoplists.load("function_words")
    tokens = [t.lower().replace("’", "'") for t in _TOKEN.findall(text)]
    out = []
    for i, token in enumerate(tokens):
        if not _is_cue(token, roles):
            continue
        scope: list[str] = []
        for word in tokens[i + 1:]:
            if word in ",;:.!?" or word in ("but", "while", "whereas") or len(scope) >= SCOPE_WORDS:
                break
            if len(word) >= 3 and word not in function_words and not _is_cue(word, roles):
                scope.append(stem(word))
        if scope:
            out.append(frozenset(scope))
    return out


@dataclass(frozen=True, slots=True)
class _SourceSentence:
    leaf: LeafId
    text: str
    stems: frozenset[str]
    scopes: tuple[frozenset[str], ...]


_SOURCES: PerHaystack[tuple[list[_SourceSentence], dict[str, list[int]]]] = PerHaystack("polarity.sources")


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
            # clause by clause, as the answer is read: "charged $75; partial transfers
            # are not charged" holds two claims with two polarities
            for text in _clause_texts(entry.raw):
                stems = frozenset(content_words(text))
                if len(stems) >= MIN_SHARED:
                    found.append(_SourceSentence(leaf, text, stems, tuple(scopes(text))))
        index: dict[str, list[int]] = {}
        for at, source in enumerate(found):
            for word in source.stems:
                index.setdefault(word, []).append(at)
        cached = found, index
        cached = _SOURCES.setdefault(hay, cached)
    return cached


_NEGATES: PerHaystack[bool] = PerHaystack("polarity.negates")


def _data_negates(hay: Haystack) -> bool:
    """Whether any string of the data may hold a negation cue: a cue word or a word
    ending in "n't", matched at looser boundaries than :func:`scopes` tokenises (so it
    finds every cue token it would), so False proves no source sentence has a scope:
    one scan of the text instead of building every source sentence for answers that
    negate nothing."""
    found = _NEGATES.get(hay)
    if found is None:
        found = _NEGATES.setdefault(hay, any(
            _cue_inside(entry.raw) for leaf, entry in enumerate(hay.leaves)
            if hay.is_string(leaf) and entry.raw.count(" ") >= 3))
    return found


@lru_cache(maxsize=1)
def _cue_pattern() -> regex.Pattern[str]:
    words = sorted((w for w, role in _roles().items() if role == "not"), key=len, reverse=True)
    # a cue is a whole token of :data:`_TOKEN`: no letter or apostrophe after it; no letter
    # before it (an apostrophe before it may still start the token, so it is allowed)
    return regex.compile(r"(?:(?<!\p{L})(?:" + "|".join(regex.escape(w) for w in words) + r")|n't)(?!['\p{L}])")


def _cue_inside(text: str) -> bool:
    return _cue_pattern().search(text.lower().replace("’", "'")) is not None


def _clause_texts(text: str) -> Iterator[str]:
    """The clauses of every sentence of ``text``, sentence by sentence (a string of
    100,000 sentences is stopped at the deadline, not read whole first)."""
    for a, b in sentence_bounds(text):
        check_deadline()
        sentence = text[a:b]
        yield from (sentence[x:y].strip() for x, y in clause_spans(sentence))


def _clauses(sentence: Sentence) -> list[tuple[int, str]]:
    """(offset in the answer, text) of each clause of a sentence."""
    return [(sentence.start + a, sentence.text[a:b]) for a, b in clause_spans(sentence.text)]


def check(answer: str, sentences: list[Sentence], matched: list[tuple[Mention, Item]], hay: Haystack
          ) -> tuple[list[tuple[Mention, Item]], list[Note]]:
    """(pairs with profit/loss contradictions flagged, notes)."""
    notes: list[Note] = []
    every_ticker = sorted((m.start, item.value) for m, item in matched if m.kind == "ticker" and item.value)
    supported = {item.value for m, item in matched if m.kind == "ticker" and item.status in SUPPORTED_STATUSES}
    tickers = [(at, t) for at, t in every_ticker if t in supported]
    positions = [at for at, _ in tickers]
    for sentence in sentences:
        lo, hi = bisect.bisect_left(positions, sentence.start), bisect.bisect_left(positions, sentence.end)
        named = {t for _, t in tickers[lo:hi]}
        note = _text_negation(sentence, hay) or _flag_negation(sentence, hay, named)
        if note is not None:
            notes.append(note)
        note = _beat_miss(sentence, every_ticker, hay)
        if note is not None:
            notes.append(note)
    out = []
    for mention, item in matched:
        if mention.kind == "amount" and item.status in SUPPORTED_STATUSES and item.status != "derived":
            item = _profit_loss(answer[max(0, mention.start - 40):mention.start], mention, item, hay)
        out.append((mention, item))
    return out, notes


def _text_negation(sentence: Sentence, hay: Haystack) -> Note | None:
    """A clause that says what a source sentence says with a negation dropped or added."""
    for _, clause in _clauses(sentence):
        mine = set(content_words(clause))
        if len(mine) < MIN_SHARED:
            continue
        own = scopes(clause)
        if not own and not _data_negates(hay):
            continue  # no negation on either side: none can be dropped or added
        sources, index = _source_sentences(hay)  # built on first need, once per haystack
        counts: Counter[int] = Counter()
        for word in mine:  # an inverted index: only source sentences sharing a word are scored
            counts.update(index.get(word, ()))
        best, best_share = None, 0.0
        for at, shared in counts.items():
            share = shared / len(mine)
            if shared >= MIN_SHARED and share > best_share:
                best, best_share = sources[at], share
        if best is None or best_share < SAME_CLAIM:
            continue
        dropped = any(scope & mine and not any(scope & o for o in own) for scope in best.scopes)
        added = any(scope & best.stems and not any(scope & s for s in best.scopes) for scope in own)
        if dropped or added:
            return _note("negation", sentence, hay, best.leaf, "negation differs",
                         f"the sentence {'negates' if added else 'drops the negation of'} what the "
                         f"source says: {best.text!r}")
    return None


_FLAGS: PerHaystack[list[tuple[LeafId, frozenset[str]]]] = PerHaystack("polarity.flags")


def _flags(hay: Haystack) -> list[tuple[LeafId, frozenset[str]]]:
    """(leaf, stems of its key) for every boolean field."""
    found = _FLAGS.get(hay)
    if found is None:
        found = []
        for leaf, entry in enumerate(hay.leaves):
            if entry.raw in ("true", "false") and entry.key and not hay.is_string(leaf):
                key_words = frozenset(key_stems(entry.key))
                if key_words - _GENERIC_KEY_WORDS:
                    found.append((leaf, key_words - _GENERIC_KEY_WORDS))
        found = _FLAGS.setdefault(hay, found)
    return found


def _flag_negation(sentence: Sentence, hay: Haystack, named: set[str]) -> Note | None:
    """A clause naming a boolean field ("pays a dividend") that says the opposite of it;
    when the sentence names tickers, only their records' fields count."""
    flags = _flags(hay)
    if not flags:
        return None
    for _, clause in _clauses(sentence):
        stems = {stem(w) for w in _words(clause)}
        own = scopes(clause)
        for leaf, key_words in flags:
            if not key_words <= stems:
                continue
            owner = hay.entity_of(leaf)
            if named and owner is not None and owner not in named:
                continue  # TSLA's pays_dividend says nothing about AAPL
            says_yes = not any(scope & key_words for scope in own)
            entry = hay.leaves[leaf]
            if says_yes != (entry.raw == "true"):
                return _note("negation", sentence, hay, leaf, "flag",
                             f"the sentence says {'yes' if says_yes else 'no'} to {entry.key!r}, but the "
                             f"data has {_field(hay, leaf)}")
    return None


#: Keys of profit-and-loss fields: only their sign says profit or loss.
_PNL_KEY = re.compile(r"income|profit|loss|earning|pnl|p&l|gain|deficit|ebit|net")
_FELL_SHORT = regex.compile(r"\b(?:fell|falls|fall|falling|came|comes|coming)\s+(?:in\s+)?short\b", regex.I)


@lru_cache(maxsize=1)
def _outcome_words() -> re.Pattern[str]:
    words = sorted((w for w, role in _roles().items() if role in ("beat", "miss")), key=len, reverse=True)
    return re.compile(r"(?i)\b(?:" + "|".join(re.escape(w) for w in words) + r"|short)\b")


#: Stems that make an outcome word about results against estimates: the estimate itself,
#: or the metric ("missed on EPS", "revenue missed"): stoplists/estimate_stems.txt and
#: stoplists/metric_stems.txt.
_ESTIMATE_STEMS = stoplists.load("estimate_stems")
METRIC_STEMS = stoplists.load("metric_stems")
_TICKERISH = re.compile(r"^[A-Z]{1,5}(?:\.[A-Z]{1,2})?$")


def _outcome_said(clause: str) -> str | None:
    """"beat" or "miss" as the clause says it (None: neither, or both). An outcome word
    counts only near (three words either side) a ticker, an estimate word or a metric:
    "ORCL missed on EPS", "topped forecasts", not "investors who missed the rally". A
    negation among the three words before it flips it ("did not beat")."""
    if _outcome_words().search(clause) is None:
        return None  # most clauses: no outcome word at all
    roles = _roles()
    raw = _WORD.findall(clause)
    words = [w.lower().replace("’", "'") for w in raw]
    anchors = [bool(_TICKERISH.match(r)) or stem(w) in _ESTIMATE_STEMS or stem(w) in METRIC_STEMS
               for r, w in zip(raw, words, strict=True)]
    said = set()
    for i, word in enumerate(words):
        role = roles.get(word)
        if role in ("beat", "miss") and any(anchors[max(0, i - 3):i] + anchors[i + 1:i + 4]):
            if any(_is_cue(w, roles) for w in words[max(0, i - 3):i]):
                role = "miss" if role == "beat" else "beat"
            said.add(role)
    if _FELL_SHORT.search(clause):
        said.add("miss")
    return said.pop() if len(said) == 1 else None


def _beat_miss(sentence: Sentence, all_tickers: list[tuple[int, str]], hay: Haystack) -> Note | None:
    """A clause saying beat (or missed) where the entity's outcome field or surprise
    figure says the opposite; each clause is read with the ticker it names."""
    lo = bisect.bisect_left(all_tickers, sentence.start, key=lambda pair: pair[0])
    hi = bisect.bisect_left(all_tickers, sentence.end, key=lambda pair: pair[0])
    tickers = all_tickers[lo:hi]
    for offset, clause in _clauses(sentence):
        role = _outcome_said(clause)
        if role is None:
            continue
        here = {t for at, t in tickers if offset <= at < offset + len(clause)}
        named = here or {t for at, t in tickers if at < offset}
        if named and not here:
            named = {max((at, t) for at, t in tickers if at < offset)[1]}  # the last one named before
        stems = {stem(w) for w in _words(clause)}
        facts = []
        for leaf in _outcome_leaves(hay):
            owner = hay.entity_of(leaf)
            if named and owner is not None and owner not in named:
                continue
            fact = _outcome(hay, leaf)
            assert fact is not None
            facts.append((leaf, fact))
        if not facts:
            continue
        # a clause that names a metric ("missed on gross margin") is about that metric's
        # field only; with mixed outcomes, keep those whose field the clause names
        metrics = stems & METRIC_STEMS
        if metrics:
            facts = [(leaf, f) for leaf, f in facts if _key_stems(hay, leaf) & metrics]
        if len({f for _, f in facts}) > 1:
            facts = [(leaf, f) for leaf, f in facts if _key_stems(hay, leaf) & stems]
        if len({f for _, f in facts}) != 1:
            continue
        leaf, fact = facts[0]
        if fact == role:
            continue
        return _note("direction", sentence, hay, leaf, "outcome",
                     f"the sentence says {'beat' if role == 'beat' else 'missed'}, but the data says "
                     f"{_field(hay, leaf)}")
    return None


_OUTCOMES: PerHaystack[list[LeafId]] = PerHaystack("polarity.outcomes")


def _outcome_leaves(hay: Haystack) -> list[LeafId]:
    found = _OUTCOMES.get(hay)
    if found is None:
        found = [leaf for leaf in range(len(hay.leaves)) if _outcome(hay, leaf) is not None]
        found = _OUTCOMES.setdefault(hay, found)
    return found


def _key_stems(hay: Haystack, leaf: LeafId) -> set[str]:
    """Stems of the leaf's key and of the keys above it ($.revenue.surprise_pct: revenue,
    surprise, pct)."""
    out: set[str] = set()
    node = hay.leaves[leaf].node
    while node >= 0:
        segment = hay.segment(node)
        if isinstance(segment, str):
            out.update(key_stems(segment))
        node = hay.parent(node)
    return out


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
        if not value.is_finite():  # NaN, Infinity: no outcome
            return None
        return "beat" if value > 0 else "miss" if value < 0 else None
    return None


def _profit_loss(before_text: str, mention: Mention, item: Item, hay: Haystack) -> Item:
    """A "loss of $1.2 million" whose only support is a positive profit figure (or a
    "profit of" a negative one) is flagged: the sign is wrong."""
    roles = _roles()
    before = _words(clause_tail(before_text, commas=True, markup=False, line_breaks=False))[-3:]
    if any(a == "stop" and b in ("loss", "losses") for a, b in itertools.pairwise(before)):
        return item  # a stop loss is an order level, not a loss
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
        if not _PNL_KEY.search(key):
            return item  # only a profit-and-loss field has a sign that says profit or loss
        is_loss = (value > 0) == ("loss" in key or "deficit" in key)
        if is_loss == (said == "loss"):
            return item
    return item.model_copy(update={
        "status": "unsupported", "flagged": True,
        "evidence": [leaf_evidence(hay, leaf, "opposite sign") for leaf in leaves[:3]],
        "reason": f"the answer calls it a {said}, but {_field(hay, leaves[0])} "
        f"is a {'profit' if said == 'loss' else 'loss'}",
    })


def _note(kind: NoteKind, sentence: Sentence, hay: Haystack, leaf: LeafId, how: str, message: str) -> Note:
    """A flagged note on ``sentence`` with ``leaf`` as its evidence."""
    return construct(Note, kind=kind, flagged=True, start=sentence.start, end=sentence.end,
                                evidence=[leaf_evidence(hay, leaf, how)], message=message)


def _field(hay: Haystack, leaf: LeafId) -> str:
    """"key = value at $.path in tool", for a message."""
    entry = hay.leaves[leaf]
    return f"{entry.key} = {entry.raw} at {hay.path(leaf)} in {hay.tool_of(leaf).name}"
