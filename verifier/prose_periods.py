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
from dataclasses import dataclass
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
#: At most this many words between a figure and a date that is its own ("500,000 PSUs
#: in 2018"), not the clause's opening date's.
_OWN_DATE_WORDS = 3
#: Text longer than this is not read for periods (a document pasted into one field).
MAX_TEXT = 20_000
#: Before a date that opens a clause and so dates all of it: "In April 2019, we
#: granted 346,453 PSUs", "During fiscal 2018 the Company issued ...".
_OPENER = re.compile(
    r"""^\s*(?:in|during|for|as\ of|as\ at|at|on|through)\s+(?:the\s+)?
        (?:fiscal\s+(?:year\s+)?|financial\s+year\s+|year\s+)?$""",
    re.IGNORECASE | re.VERBOSE)
_WHEN_WORD = re.compile(r"[a-z]+|\d+")
_MONTHS = frozenset(["january", "february", "march", "april", "may", "june", "july", "august",
                     "september", "october", "november", "december"])


@dataclass(frozen=True, slots=True)
class Dated:
    """A figure in running text and when the text says it is: the words of its date
    (a month's name and a year: "april", "2019"), which a question names to ask for it;
    and the text around it that may say what it is: ``after`` it up to the clause's
    next figure (or end), ``before`` it back to the previous figure (or the clause's
    start), and whether it is the clause's ``first`` figure."""

    forms: frozenset[Decimal]
    when: frozenset[str]
    before: str = ""
    after: str = ""
    first: bool = False


_Read = tuple[list[tuple[frozenset[Decimal], Period]], list[Dated]]


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


def dated_figures(hay: Haystack, leaf: LeafId, years: frozenset[str]) -> tuple[int, list[list[Dated]]]:
    """The figures of the text at ``leaf`` that it dates in one of ``years`` ("2019"),
    clause by clause, in order (see :func:`_dated`: a month is finer than the periods
    the period checks compare, so they do not read these), and how many clauses were
    read for them: only clauses that write one of the years are."""
    text = hay.leaves[leaf].raw
    if not hay.is_string(leaf) or len(text) > MAX_TEXT:
        return 0, []
    read, out = 0, []
    for start, clause in _split(text):
        if any(year in clause for year in years):
            read += 1
            dated = [d for d in _clause(hay, leaf, start, clause)[1] if d.when & years]
            if dated:
                out.append(dated)
    return read, out


def when_words(text: str) -> frozenset[str]:
    """The words that say when: month names and years ("April 2019" -> april, 2019)."""
    return frozenset(w for w in _WHEN_WORD.findall(text.lower())
                     if w in _MONTHS or (len(w) == 4 and w.isdigit() and 1900 <= int(w) <= 2100))


#: (leaf, clause start) -> what the clause says (:func:`_clause`)
_READ: weakref.WeakKeyDictionary[Haystack, dict[tuple[LeafId, int], _Read]] = weakref.WeakKeyDictionary()


def _figures(hay: Haystack, leaf: LeafId) -> list[tuple[frozenset[Decimal], Period]]:
    cache = _CACHE.setdefault(hay, {})
    found = cache.get(leaf)
    if found is None:
        text = hay.leaves[leaf].raw
        clauses = ([_clause(hay, leaf, start, clause)[0] for start, clause in _split(text)]
                   if len(text) <= MAX_TEXT and any(ch.isdigit() for ch in text) else [])
        _CLAUSES.setdefault(hay, {})[leaf] = clauses
        found = cache[leaf] = [figure for clause in clauses for figure in clause]
    return found


def _split(text: str) -> list[tuple[int, str]]:
    """The clauses of a text, each with where it starts."""
    ends = [m.start() for m in _CLAUSE_END.finditer(text)] + [len(text)]
    return [(start, text[start:end]) for start, end in zip([0, *ends[:-1]], ends, strict=True)]


def _clause(hay: Haystack, leaf: LeafId, start: int, clause: str) -> _Read:
    """One clause's figures with a period (for the period checks), and its dated
    figures (for the derive stage). Read once per haystack."""
    cache = _READ.setdefault(hay, {})
    read = cache.get((leaf, start))
    if read is None:
        mentions = hay.extractor.extract(clause, quoted=False, data=True)
        periods = (_respectively if _RESPECTIVELY.search(clause) else _followed_by_year)(clause, mentions)
        read = cache[(leaf, start)] = (periods, _dated(clause, mentions, periods))
    return read


def _dated(clause: str, mentions: list[Mention],
           periods: list[tuple[frozenset[Decimal], Period]]) -> list[Dated]:
    """The clause's figures whose date it gives, each with the text around it. A
    figure the clause pairs with a year ("500,000 PSUs in 2018", "respectively") has
    that year; the others, up to the clause's next date, the date it opens with ("In
    April 2019, we granted 346,453 PSUs")."""
    figures = [m for m in mentions if m.kind in NUMERIC_KINDS and m.num_forms]
    own: dict[int, frozenset[str]] = {}
    at = 0
    for m in figures:  # the pairings are of these figures, in order
        if at < len(periods) and periods[at][0] == _values(m):
            if periods[at][1][1] is None:  # a year, not a quarter
                own[id(m)] = when_words(yearquarter.text(periods[at][1]))
            at += 1
    opened, until = _opened_by(clause, mentions)
    dates = [m for m in mentions if m.kind in ("date", "period")]
    out = []
    for k, m in enumerate(figures):
        end = figures[k + 1].start if k + 1 < len(figures) else len(clause)
        # the opening date covers a figure before the clause's next date, unless a date
        # follows the figure within its own phrase ("compared with 500,000 PSUs in 2018")
        other = next((d for d in dates if m.end <= d.start < end), None)
        near = other is not None and len(clause[m.end:other.start].split()) <= _OWN_DATE_WORDS
        when = own.get(id(m)) or (opened if opened is not None and m.start < until and not near else None)
        if when:
            out.append(Dated(_values(m), when, clause[figures[k - 1].end if k else 0:m.start], clause[m.end:end],
                             k == 0))
    return out


def _opened_by(clause: str, mentions: list[Mention]) -> tuple[frozenset[str] | None, int]:
    """The words of the one date a clause opens with ("In April 2019," "During fiscal
    2018") and where the clause's next date starts (the opening date covers the figures
    before it: "In 2019 we granted 300,000, compared with 500,000 in 2018"); None when
    there is none, or a list of them ("During fiscal 2017, 2018 and 2019 sales were
    ..." is paired figure by figure, if at all)."""
    dates = [m for m in mentions if m.kind in ("date", "period")]
    if not dates or not _OPENER.match(clause[:dates[0].start]):
        return None, 0
    if len(dates) > 1 and _LIST_GAP.match(clause[dates[0].end:dates[1].start]):
        return None, 0
    when = when_words(dates[0].text)
    until = dates[1].start if len(dates) > 1 else len(clause)
    return (when if any(w.isdigit() for w in when) else None), until  # "In April," of which year?


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
