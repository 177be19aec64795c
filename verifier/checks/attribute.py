"""Attribute: a value found only in another entity's record is not a supported claim.

"NVDA rose 2.43%" is wrong when 2.43 is AMD's change and NVDA's record says 1.87, even
though 2.43 is in the data. Each numeric value is tied to the ticker the answer names
last before it in the same sentence ("SMCI jumped 5.61% and DELL added 4.05%": 5.61 is
SMCI's, 4.05 DELL's). When every leaf that supports the value lies in the record of
another ticker, and none in the named ticker's record or outside any record, the value
is ``misattributed`` (flagged), with the record it really belongs to as evidence.

This first version ties values to tickers only; periods, clauses with several
entities, citations and the question come with the rest of the attribution work.
"""

from __future__ import annotations

import bisect
import re

import regex

from verifier import stoplists
from verifier.normalizers import tickers

from .. import yearquarter
from ..extract import NUMERIC_KINDS, Mention
from ..index import prose_periods
from ..index.haystack import Haystack
from ..index.names import name_mentions
from ..models import SUPPORTED_STATUSES, Flag, Item
from ..text.splitter import scope_starts, sentence_starts
from .match import candidate_leaves, leaf_evidence, misattributed_item

_FOR = re.compile(r"\s+for\s+")
_RESPECTIVELY = re.compile(r"(?i)\brespectively\b")
#: Words by which a clause moves off one period: it compares or spans periods.
RELATIVE_PERIOD = re.compile(r"""(?ix)
    \b(?:
        from | since | earlier | prior | previous | preceding | ago | before  # "up from", "a year earlier"
      | year-over-year | year\ over\ year | yoy                             # a change over a year
      | last                                                               # "last quarter"
    )\b""")


def attribute(answer: str, matched: list[tuple[Mention, Item]], hay: Haystack) -> list[Item]:
    """Items with values from another ticker's record marked ``misattributed``."""
    items = []
    for (mention, item), named in zip(matched, clause_entities(answer, matched, hay), strict=True):
        if named and mention.kind in NUMERIC_KINDS and item.status in SUPPORTED_STATUSES and item.status != "derived":
            owners = {hay.entity_of(leaf) for leaf in candidate_leaves(mention, hay)}
            if owners and None not in owners and not any(tickers.same_entity(named, o) for o in owners if o):
                item = misattributed_item(item, hay, mention, named)
        items.append(item)
    return items


def clause_entities(answer: str, matched: list[tuple[Mention, Item]], hay: Haystack) -> list[str | None]:
    """For each item, the entity (ticker) its clause ties it to: named last before it in
    the clause, or just after it ("31.2 for AVGO"); None when none is, or when the
    sentence pairs values with names "respectively" (an order this pass does not read)."""
    starts = scope_starts(answer)
    # "against 31.2 for AVGO": a value followed by "for"/"of" and a ticker is that ticker's
    named_after: dict[int, str] = {}
    for i in range(1, len(matched)):
        (before, _), (mention, item) = matched[i - 1], matched[i]
        if (mention.kind == "ticker" and item.status in SUPPORTED_STATUSES and item.value
                and before.kind in NUMERIC_KINDS and _FOR.fullmatch(answer, before.end, mention.start)):
            named_after[i - 1] = item.value
    # "Microsoft slipped 0.4%": a company's name in words switches the entity too
    by_name = name_mentions(hay, answer)
    sentence_bounds = sentence_starts(answer)
    respective = {sentence_bounds[bisect.bisect_right(sentence_bounds, m.start()) - 1]
                  for m in _RESPECTIVELY.finditer(answer)}
    entities: list[str | None] = []
    any_owner = _has_owners(hay)
    current: str | None = None
    scope = 0
    next_name = 0
    for i, (mention, item) in enumerate(matched):
        while scope + 1 < len(starts) and mention.start >= starts[scope + 1]:
            scope += 1
            current = None  # a new sentence or clause names its own entity
        while next_name < len(by_name) and by_name[next_name][0] < mention.start:
            if by_name[next_name][0] >= starts[scope]:
                current = by_name[next_name][1]
            next_name += 1
        if sentence_bounds[bisect.bisect_right(sentence_bounds, mention.start) - 1] in respective:
            entities.append(None)
            continue
        if item.kind == "ticker":  # an unknown ticker is an unknown entity: nothing to tie
            if item.status not in SUPPORTED_STATUSES:
                current = None
            elif _owns_a_record(hay, mention, item) or not any_owner:
                current = item.value
            # else: an exchange, broker or rating the data names ("on XETRA", "UBS's $247
            # target") is no entity of its own records: the clause stays about the last one
        elif item.kind == "code":  # "Novo Nordisk (DK0062498333) is 2.26%"
            current = _code_entity(hay, mention) if item.status in SUPPORTED_STATUSES else None
        entities.append(named_after.get(i, current))
    return entities


def attribute_periods(answer: str, matched: list[tuple[Mention, Item]], hay: Haystack) -> list[Item]:
    """Items whose value is found only in records of another period than the one their
    sentence or clause names ("revenue was $120M in 2025" where $120M is the 2026
    record's) marked ``misattributed``, each with a ``periods`` :class:`Flag` holding the
    period its clause names."""
    starts = scope_starts(answer)
    # a clause that moves between periods ("to $391bn in 2024 from $383bn", "since 2023",
    # "down from") is not about one period
    moving = {s for s, e in zip(starts, [*starts[1:], len(answer)], strict=True)
              if RELATIVE_PERIOD.search(answer, s, e)}
    named: dict[int, set[tuple[int, int | None]]] = {}  # scope start -> periods it names
    for mention, item in matched:
        period = yearquarter.of_mention(mention)
        if period is not None:
            scope = starts[bisect.bisect_right(starts, mention.start) - 1]
            named.setdefault(scope, set()).add(period)
    items = []
    for mention, item in matched:
        scope = starts[bisect.bisect_right(starts, mention.start) - 1]
        periods = None if scope in moving else named.get(scope)
        # exact values only: a rounded one ("about $2.5bn") may round from several periods
        if (periods and len(periods) == 1 and mention.kind in NUMERIC_KINDS
                and item.status in ("exact", "normalized")):
            (asked,) = periods
            leaves = candidate_leaves(mention, hay)
            forms = frozenset(form.value for form in mention.num_forms)
            # a record's or column's period, or the one the text gives a figure in prose
            held = [prose_periods.periods_of(hay, leaf, forms) for leaf in leaves]
            if leaves and None not in held and not any(yearquarter.same(asked, p) for ps in held if ps for p in ps):
                owner = min(held[0] or ())
                where = "record" if hay.period_of(leaves[0]) is not None else f"figure in {hay.path(leaves[0])}"
                item = misattributed_item(item, hay, mention, yearquarter.text(asked),
                                          owner=f"the {yearquarter.text(owner)} {where}").with_flag(
                    Flag("periods", asked))
        items.append(item)
    return items


def _code_entity(hay: Haystack, mention: Mention) -> str | None:
    leaves = hay.codes.get(mention.keys[0], []) if mention.keys else []
    return hay.entity_of(leaves[0]) if leaves else None


def _owns_a_record(hay: Haystack, mention: Mention, item: Item) -> bool:
    """Whether a ticker the answer names owns a record in the data: a leaf holding it is
    its record's symbol or key ({"symbol": "SAP.DE"}), not a field of another's record
    ({"symbol": "SAP.DE", "exchange": "XETRA"})."""
    name = item.value or ""
    for key in mention.keys:
        for leaf in hay.tickers.get(key, []):
            if leaf in hay.key_leaves:  # {"AAPL": {...}}, not a field named EPS: {"EPS": 2.82}
                if hay.children_leaves(hay.leaves[leaf].node):
                    return True
                continue
            owner = hay.entity_of(leaf)
            if owner is not None and tickers.same_entity(name, owner):
                return True
    return False


def _has_owners(hay: Haystack) -> bool:
    """Whether any record of the data names its ticker."""
    return bool(hay.key_leaves) or any(hay.entity_of(leaf) for leaves in hay.tickers.values() for leaf in leaves[:1])


#: A company's name and the ticker the answer gives it: "JPMorgan Chase & Co. (JPM)".
_NAME_THEN_TICKER = regex.compile(r"((?:(?:[A-Z][\w.&'’-]*|&)[ \t]+){1,5})\([ \t]*([A-Z][A-Z.\-]{0,9})[ \t]*\)")


#: Words of a company's name that do not tell one company from another
#: (stoplists/company_name_fillers.txt).
_NAME_FILLERS = stoplists.load("company_name_fillers")


def _leaf_naming(hay: Haystack, words: list[str]) -> int | None:
    """The first string leaf that writes every one of ``words`` as a whole word."""
    patterns = [regex.compile(rf"(?<!\w){regex.escape(w)}(?!\w)") for w in words]
    return next((leaf for leaf in hay.find_text_all(words[0].casefold(), limit=20)
                 if all(p.search(hay.leaves[leaf].raw) for p in patterns)), None)


def named_tickers(answer: str, matched: list[tuple[Mention, Item]], hay: Haystack) -> list[Item]:
    """Tickers the data does not hold that the answer writes after a company name the
    data does ("JPMorgan Chase & Co. (JPM)" over a filing page about JPMorgan Chase):
    ``normalized``, with the name's leaf as evidence, not an invented entity. Only where
    no record of the data names its ticker: a ticker beside a record's own symbol
    ("RIL.NS" where the data writes RELIANCE.NS) stays the answer's invention."""
    if _has_owners(hay):
        return [item for _, item in matched]
    named = {m.group(2): m.group(1) for m in _NAME_THEN_TICKER.finditer(answer)}
    items = []
    for mention, item in matched:
        if mention.kind == "ticker" and item.status == "unsupported" and mention.text in named:
            words = [w for w in named[mention.text].split()
                     if len(w) > 2 and w[0].isupper() and w.strip(".,").casefold() not in _NAME_FILLERS][:2]
            leaf = _leaf_naming(hay, words) if words else None
            if leaf is not None:
                item = item.model_copy(update={
                    "status": "normalized", "flagged": False, "evidence": [leaf_evidence(hay, leaf, "company name")],
                    "evidence_total": 1,
                    "reason": f"the answer gives it as the ticker of {named[mention.text].strip()}, "
                              f"whom the data names at {hay.path(leaf)}"})
        items.append(item)
    return items
