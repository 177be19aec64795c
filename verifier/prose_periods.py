"""The periods of figures in running text, and of any leaf, for the period checks.

A table cell or a record takes its period from its column or record
(:meth:`Haystack.period_of`). A figure in a paragraph has none of those, but filings
say which period it is in two common ways:

- a list paired by "respectively": "totaling 1 million, 1 million and 6 million for
  fiscal 2019, 2018 and 2017, respectively" (the k-th figure is of the k-th period;
  only one unbroken list of figures and as many periods after it);
- a figure followed closely by its year, which ends the phrase: "$290.2 million in
  2019, $239.6 million in 2018" (not "$500 million of 2021 Notes").

:func:`periods_of` answers, for one leaf and one value, the periods the data gives that
value there, or None when it does not say (a figure in prose with no period beside it),
so the checks stay silent rather than guess.
"""

from __future__ import annotations

import itertools
import re
import weakref
from decimal import Decimal

from . import yearquarter
from .extract import NUMERIC_KINDS, Mention
from .haystack import Haystack, LeafId
from .yearquarter import Period

#: leaf -> [(the figure's values in every form, its period)]
_CACHE: weakref.WeakKeyDictionary[Haystack, dict[LeafId, list[tuple[frozenset[Decimal], Period]]]] = (
    weakref.WeakKeyDictionary())

#: leaf -> the same, clause by clause (a series is one clause's figures)
_CLAUSES: weakref.WeakKeyDictionary[Haystack, dict[LeafId, list[list[tuple[frozenset[Decimal], Period]]]]] = (
    weakref.WeakKeyDictionary())

_CLAUSE_END = re.compile(r"(?<=[;])\s+|(?<=[.!?])\s+(?=[A-Z(])")
_RESPECTIVELY = re.compile(r"(?i)\brespectively\b")
#: Another list between the figures and "respectively", which pairs them with it instead.
_OTHER_LIST = re.compile(r"(?i),|\band\b")
#: Between a figure and its year: "in", "for fiscal", "as of", "during".
_BRIDGE = re.compile(
    r"""^[\s,]*(?:in|for|during|at|as\ of|as\ at)\s+(?:the\s+)?
        (?:fiscal\s+(?:year\s+)?|financial\s+year\s+|year\s+)?$""",
    re.IGNORECASE | re.VERBOSE)
#: After the year, the phrase must end: "$500 million of 2021 Notes" is no 2021 figure.
_PHRASE_END = re.compile(r"^\s*(?:$|[,.;:)]|(?:and|compared|versus|vs|respectively|from)\b)", re.IGNORECASE)
#: Between the items of one list: ", ", " and ", ", and ", " or ".
_LIST_GAP = re.compile(r"^\s*,?\s*(?:(?:and|or)\s+)?(?:fiscal\s+)?$", re.IGNORECASE)
#: Text longer than this is not read for periods (a document pasted into one field).
MAX_TEXT = 20_000


def periods_of(hay: Haystack, leaf: LeafId, forms: frozenset[Decimal]) -> frozenset[Period] | None:
    """The periods the data gives the value ``forms`` at ``leaf``; None when unknown."""
    own = hay.period_of(leaf)
    if own is not None:
        return frozenset({own})
    if not hay.is_string(leaf):
        return None
    found = frozenset(p for values, p in _figures(hay, leaf) if values & forms)
    return found or None


def covers(hay: Haystack, leaf: LeafId, period: Period) -> bool:
    """Whether the text at ``leaf`` gives some figure the period ``period``."""
    return any(yearquarter.same(period, p) for _, p in _figures(hay, leaf))


def dated_clauses(hay: Haystack, leaf: LeafId) -> list[list[tuple[frozenset[Decimal], Period]]]:
    """The text at ``leaf``, clause by clause: each figure the clause gives a period,
    in the order written, as (its values in every form, the period)."""
    if not hay.is_string(leaf):
        return []
    _figures(hay, leaf)
    return _CLAUSES[hay][leaf]


def _figures(hay: Haystack, leaf: LeafId) -> list[tuple[frozenset[Decimal], Period]]:
    cache = _CACHE.setdefault(hay, {})
    found = cache.get(leaf)
    if found is None:
        text = hay.leaves[leaf].raw
        clauses = _read(hay, text) if len(text) <= MAX_TEXT and any(ch.isdigit() for ch in text) else []
        _CLAUSES.setdefault(hay, {})[leaf] = clauses
        found = cache[leaf] = [figure for clause in clauses for figure in clause]
    return found


def _read(hay: Haystack, text: str) -> list[list[tuple[frozenset[Decimal], Period]]]:
    out: list[list[tuple[frozenset[Decimal], Period]]] = []
    start = 0
    for end in [m.start() for m in _CLAUSE_END.finditer(text)] + [len(text)]:
        clause = text[start:end]
        start = end
        mentions = hay.extractor.extract(clause, quoted=False, data=True)
        if _RESPECTIVELY.search(clause):
            out.append(_respectively(clause, mentions))
        else:
            out.append(_followed_by_year(clause, mentions))
    return out


def _values(mention: Mention) -> frozenset[Decimal]:
    return frozenset(form.value for form in mention.num_forms)


def _respectively(clause: str, mentions: list[Mention]) -> list[tuple[frozenset[Decimal], Period]]:
    """"A, B and C ... in 2019, 2018 and 2017, respectively" (or the periods first):
    one unbroken list of figures, and one unbroken list of as many periods;
    anything else ("$12.1 million, or 8% of revenue, and $10.3 million ... for 2019 and
    2018") says nothing."""
    figures = [m for m in mentions if m.kind in NUMERIC_KINDS and m.num_forms]
    periods = [(m, p) for m in mentions if (p := yearquarter.of_mention(m, days=True)) is not None]
    if len(periods) < 2 or not figures:
        return []
    # the periods after the first figure: the list the figures are paired with; or,
    # with none after them, the list before ("For the years ended December 31, 2019,
    # 2018 and 2017, the Company recognized $0.3 million, $0.9 million and $0.6
    # million, respectively")
    run = [(m, p) for m, p in periods if m.start > figures[0].end]
    if not run:
        run = [(m, p) for m, p in periods if m.end < figures[0].start]
        said = _RESPECTIVELY.search(clause, figures[-1].end)
        if len(run) != len(figures) or said is None or _OTHER_LIST.search(
                clause[figures[-1].end:said.start()].strip(" ,")):
            return []  # "... sold 1,200 and 800 units to Acme and Beta, respectively": paired with those
    elif len(run) != len(figures) or figures[-1].end > run[0][0].start:
        return []
    if not (_one_list(clause, figures) and _one_list(clause, [m for m, _ in run])):
        return []
    return [(_values(m), p) for m, (_, p) in zip(figures, run, strict=True)]


def _one_list(clause: str, items: list[Mention]) -> bool:
    return all(_LIST_GAP.match(clause[a.end:b.start]) for a, b in itertools.pairwise(items))


def _followed_by_year(clause: str, mentions: list[Mention]) -> list[tuple[frozenset[Decimal], Period]]:
    """"$290.2 million in 2019": a figure whose next mention is a year, joined by a
    short bridge ("in", "for fiscal", "as of") and ending the phrase."""
    out = []
    for figure, nxt in itertools.pairwise(mentions):
        if figure.kind not in NUMERIC_KINDS or not figure.num_forms:
            continue
        period = yearquarter.of_mention(nxt, days=True)
        if (period is not None and _BRIDGE.match(clause[figure.end:nxt.start])
                and _PHRASE_END.match(clause[nxt.end:])):
            out.append((_values(figure), period))
    return out
