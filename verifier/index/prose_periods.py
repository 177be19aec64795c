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
from dataclasses import dataclass
from decimal import Decimal

from .. import yearquarter
from ..extract import NUMERIC_KINDS, Mention
from ..text.months import EXTRA_ABBREVIATIONS, MONTH_ABBREVIATIONS, MONTH_NAMES
from ..text.splitter import data_clauses
from ..yearquarter import Period
from .haystack import Haystack, LeafId
from .memo import PerHaystack

#: leaf -> [(the figure's values in every form, its period)]
_CACHE: PerHaystack[dict[LeafId, list[tuple[frozenset[Decimal], Period]]]] = PerHaystack("prose_periods.figures")

#: leaf -> the same, clause by clause (a series is one clause's figures)
_CLAUSES: PerHaystack[dict[LeafId, list[list[tuple[frozenset[Decimal], Period]]]]] = PerHaystack("prose_periods.clauses")

_RESPECTIVELY = re.compile(r"(?i)\brespectively\b")
#: Another list between the figures and "respectively", which pairs them with it instead.
_OTHER_LIST = re.compile(r"(?i),|\band\b")
#: What joins a clause's second "respectively" list to the first: ", and".
_LEAD = re.compile(r"(?i)^[\s,;]*(?:and\s+)?")
#: A later list's subject that breaks the first list's figures down by item.
_BREAKDOWN = re.compile(r"(?i)(?:of\s+(?:which|this|these|that)|including|comprising|consisting\s+of|"
                        r"split\s+between|divided\s+between)\b")
#: Between a figure and its year: "in", "for fiscal", "as of", "during"; after what the
#: figure is of, in a few words ("$2.0 billion of senior notes during fiscal 2019").
_BRIDGE = re.compile(
    r"""^[\s,]*(?:of\s+(?:[a-z][a-z-]*\s+){1,4})?(?:in|for|during|at|as\ of|as\ at)\s+(?:the\s+)?
        (?:fiscal\s+(?:year\s+)?|financial\s+year\s+|year\s+)?$""",
    re.IGNORECASE | re.VERBOSE)
#: After the year, the phrase must end: "$500 million of 2021 Notes" is no 2021 figure.
_PHRASE_END = re.compile(r"^\s*(?:$|[,.;:)]|(?:and|compared|versus|vs|respectively|from)\b)", re.IGNORECASE)
#: Between the items of one list: ", ", " and ", ", and ", " or ".
_LIST_GAP = re.compile(r"^\s*,?\s*(?:(?:and|or)\s+)?(?:fiscal\s+)?$", re.IGNORECASE)
#: Text longer than this is not read for periods (a document pasted into one field).
MAX_TEXT = 20_000
#: Before a date that opens a clause and so dates all of it: "In April 2019, we
#: granted 346,453 PSUs", "During fiscal 2018 the Company issued ...".
_OPENER = re.compile(
    r"""^\s*(?:in|during|for|as\ of|as\ at|at|on|through)\s+(?:the\s+)?
        (?:fiscal\s+(?:year\s+)?|financial\s+year\s+|year\s+)?$""",
    re.IGNORECASE | re.VERBOSE)
_WHEN_WORD = re.compile(r"[a-z]+|\d+")
#: Month names, in order (a month's number is its place here plus one).
MONTHS: tuple[str, ...] = tuple(name.lower() for name in MONTH_NAMES)


@dataclass(frozen=True, slots=True)
class Dated:
    """A figure in running text and when the text says it is: the words of its date
    (a month's name and a year: "april", "2019"), which a question names to ask for it,
    and its place in time (year, month or 0) to order it by; the words right beside it
    that may say what it is (up to three ``before`` and ``after`` it, within its own
    phrase), the text between it and the clause's previous figure (``gap``; None for
    the first); whether it is an amount of money; for a figure of a "respectively" list,
    the clause's ``subject`` (its text before the list: "the aggregate fair values of
    our fuel hedges as of December 31, 2016 and 2015 were")."""

    forms: frozenset[Decimal]
    when: frozenset[str]
    order: tuple[int, int] = (0, 0)
    before: str = ""
    after: str = ""
    gap: str | None = None
    money: bool = False
    subject: str = ""
    percent: bool = False


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


def dated_figures(hay: Haystack, leaf: LeafId, years: frozenset[str]) -> list[list[Dated]]:
    """The dated figures of the text at ``leaf``, clause by clause and in order (see
    :func:`_dated`: a month is finer than the periods the period checks compare, so
    they do not read these), of the clauses that write one of ``years`` ("2019")."""
    text = hay.leaves[leaf].raw
    if not hay.is_string(leaf) or len(text) > MAX_TEXT:
        return []
    out = []
    for start, clause in data_clauses(text):
        if any(year in clause for year in years):
            dated = _clause(hay, leaf, start, clause)[1]
            if dated:
                out.append(dated)
    return out


def clauses_naming(hay: Haystack, leaf: LeafId, years: frozenset[str]) -> int:
    """How many clauses of the text at ``leaf`` write one of ``years`` (what
    :func:`dated_figures` would read)."""
    text = hay.leaves[leaf].raw
    if not hay.is_string(leaf) or len(text) > MAX_TEXT:
        return 0
    return sum(any(year in clause for year in years) for _, clause in data_clauses(text))


def when_words(text: str) -> frozenset[str]:
    """The words that say when: month names, abbreviations read as the name, and years
    ("April 2019" -> april, 2019; "Feb. 2016" -> february, 2016). An abbreviation
    counts only with its dot or before a number ("Dec 31"): "APR" and "Inc/(Dec)" are no
    months."""
    lowered = text.lower()
    words = {w for w in _WHEN_WORD.findall(lowered)
             if w in MONTHS or (len(w) == 4 and w.isdigit() and 1900 <= int(w) <= 2100)}
    words.update(_MONTH_SHORT[m.group(1)] for m in _MONTH_ABBREVIATION.finditer(lowered))
    return frozenset(words)


#: Month abbreviations, as filings write them ("Feb. 2016", "Sept. 30").
_MONTH_SHORT = {short.lower(): name.lower() for short, name in zip(MONTH_ABBREVIATIONS, MONTH_NAMES, strict=True)
                if short != name} | {short.lower(): name.lower() for short, name in EXTRA_ABBREVIATIONS.items()}
_MONTH_ABBREVIATION = re.compile(r"\b(" + "|".join(sorted(_MONTH_SHORT, key=len, reverse=True))
                                 + r")(?:\.|(?=\s+\d))")


#: (leaf, clause start) -> what the clause says (:func:`_clause`)
_READ: PerHaystack[dict[tuple[LeafId, int], _Read]] = PerHaystack("prose_periods.read")


def _figures(hay: Haystack, leaf: LeafId) -> list[tuple[frozenset[Decimal], Period]]:
    cache = _CACHE.setdefault(hay, {})
    found = cache.get(leaf)
    if found is None:
        text = hay.leaves[leaf].raw
        clauses = ([_clause(hay, leaf, start, clause)[0] for start, clause in data_clauses(text)]
                   if len(text) <= MAX_TEXT and any(ch.isdigit() for ch in text) else [])
        _CLAUSES.setdefault(hay, {})[leaf] = clauses
        found = cache[leaf] = [figure for clause in clauses for figure in clause]
    return found


def _clause(hay: Haystack, leaf: LeafId, start: int, clause: str) -> _Read:
    """One clause's figures with a period (for the period checks), and its dated
    figures (for the derive stage). Read once per haystack."""
    cache = _READ.setdefault(hay, {})
    read = cache.get((leaf, start))
    if read is None:
        mentions = hay.extractor.extract(clause, quoted=False, data=True)
        listed = _RESPECTIVELY.search(clause) is not None
        periods = (_respectively if listed else _followed_by_year)(clause, mentions)
        read = cache[(leaf, start)] = (periods, _dated(clause, mentions, periods, listed))
    return read


def _dated(clause: str, mentions: list[Mention],
           periods: list[tuple[frozenset[Decimal], Period]], listed: bool) -> list[Dated]:
    """The clause's figures whose date it gives, each with the text around it. A
    figure the clause pairs with a year ("500,000 PSUs in 2018", "respectively") has
    that year; another has the year or month the clause opens with ("In April 2019, we
    granted 346,453 PSUs"), unless the clause dates it otherwise (:func:`_covered`)."""
    figures = [m for m in mentions if m.kind in NUMERIC_KINDS and m.num_forms]
    own: dict[int, tuple[frozenset[str], tuple[int, int]]] = {}
    at = 0
    for m in figures:  # the pairings are of these figures, in order
        if at < len(periods) and periods[at][0] == _values(m):
            year, quarter = periods[at][1]
            if quarter is None:  # a year, not a quarter
                own[id(m)] = when_words(str(year)), (year, 0)
            at += 1
    opened = _opened_by(clause, mentions)
    dates = [m for m in mentions if m.kind in ("date", "period")]
    out = []
    for k, m in enumerate(figures):
        end = figures[k + 1].start if k + 1 < len(figures) else len(clause)
        when = own.get(id(m))
        if when is None and opened is not None and _covered(clause, m, end, opened[2], opened[3], dates):
            when = opened[0], opened[1]
        if when:
            start = figures[k - 1].end if k else 0
            subject = _subject(clause, figures, m) if listed and id(m) in own else ""
            out.append(Dated(_values(m), when[0], when[1], *_near(clause, start, m.start, m.end, end),
                             clause[start:m.start] if k else None, m.kind == "amount", subject,
                             m.kind == "percent"))
    return out


def _subject(clause: str, figures: list[Mention], figure: Mention) -> str:
    """The subject of the "respectively" list holding ``figure``: the text before its
    first figure, from the previous list's "respectively" on ("..., respectively, and
    related operating profit was $17,076, ...")."""
    after = max((m.end() for m in _RESPECTIVELY.finditer(clause, 0, figure.start)), default=0)
    first = next(m for m in figures if m.start >= after)
    return clause[after:first.start]


def _covered(clause: str, figure: Mention, end: int, after: int, opener: Mention, dates: list[Mention]) -> bool:
    """Whether the date a clause opens with (ending at ``after``) is that of
    ``figure`` (whose phrase ends at ``end``, the next figure): not when another date
    stands between them, or after the figure in its own phrase ("compared with 500,000
    PSUs in the year ended December 31, 2018"; not "targets to be achieved between
    December 2019 and December 2023"), nor when a word sets it against another time
    ("up from 250,000", "a year earlier")."""
    if figure.start <= after or _COMPARED.search(clause, after, figure.start) or _EARLIER.search(
            clause, figure.end, end):
        return False
    return not any(after < d.start < figure.start or (figure.end <= d.start < end and _OWN_DATE.search(
        clause, figure.end, d.start)) for d in dates if d is not opener)


#: Words that set a figure against another time than the clause's opening date.
_COMPARED = re.compile(r"(?i)\b(?:compared|versus|vs\.?|from|prior[- ]year|previous[- ]year|year[- ]earlier|"
                       r"last[- ]year|a year ago|prior period)\b")
#: After a figure, in its own phrase: it is of another time ("250,000 PSUs a year earlier").
_EARLIER = re.compile(r"(?i)\b(?:a\s+year\s+(?:earlier|before|ago)|(?:in\s+the\s+)?(?:prior|previous|preceding)\s+"
                      r"(?:fiscal\s+)?(?:year|period)|last\s+year)\b")
#: Just before a date that is a figure's own: "500,000 PSUs in", "... for the year ended".
_OWN_DATE = re.compile(r"(?i)\b(?:in|for|during|as\s+of|as\s+at|at|ended|ending)\s+(?:the\s+)?"
                       r"(?:(?:fiscal\s+)?year\s+(?:ended|ending)\s+|fiscal\s+(?:year\s+)?)?$")
#: What ends a figure's own phrase: punctuation, and the words that join two.
_PHRASE_BREAK = re.compile(r"[,;:()]|\b(?:and|or|but|while|whereas|for|to|from|versus)\b", re.IGNORECASE)
#: What right after a figure still says what it is: "million of", "in" ("$45.6 million
#: in stock-based compensation").
_OWN_OF = re.compile(r"^\s*(?:(?:million|billion|thousand|shares?|units?)\s+)?(?:of|in)\s+(?!(?:fiscal\s+)?\d)",
                     re.IGNORECASE)
#: After a figure its phrase also ends where another begins: "$80 million on revenue of".
_AFTER_BREAK = re.compile(r"[,;:()]|\b(?:and|or|but|while|whereas|for|to|from|versus|on|of|at|with|in)\b",
                          re.IGNORECASE)


def _near(clause: str, start: int, at: int, end: int, stop: int) -> tuple[str, str]:
    """Up to three words before a figure and three after it, within its own phrase
    (not past punctuation, "and", "for", "to", or another figure; after it, not past
    "on", "of", "with" either, but its own "million of"): "we granted" 547,000 "PSUs";
    "senior notes of" $10.0 "billion"; $12.3 "restructuring charges"; not "shares for"
    $50 million."""
    before = _PHRASE_BREAK.split(clause[start:at])[-1].split()[-3:]
    # "$12.3 million of restructuring charges": its own "of" or "in" is no break
    after = _AFTER_BREAK.split(_OWN_OF.sub("", clause[end:stop], count=1))[0].split()[:3]
    return " ".join(before), " ".join(after)


def _opened_by(clause: str, mentions: list[Mention]) -> tuple[frozenset[str], tuple[int, int], int, Mention] | None:
    """The one year or month a clause opens with ("In April 2019," "During fiscal
    2018"): its words, its (year, month), where it ends, and the mention; None when
    there is none, a quarter or a half ("In Q4 2019," is not the year's), no year ("In
    April,"), or a list of dates ("During fiscal 2017, 2018 and 2019 sales were ..." is
    paired figure by figure, if at all)."""
    dates = [m for m in mentions if m.kind in ("date", "period")]
    if not dates or not _OPENER.match(clause[:dates[0].start]) or _PART_OF_YEAR.search(dates[0].text):
        return None
    if len(dates) > 1 and _LIST_GAP.match(clause[dates[0].end:dates[1].start]):
        return None
    when = when_words(dates[0].text)
    years = [int(w) for w in when if w.isdigit()]
    if len(years) != 1:
        return None
    month = next((i + 1 for i, name in enumerate(MONTHS) if name in when), 0)
    return when, (years[0], month), dates[0].end, dates[0]


#: A date naming part of a year: a quarter, a half.
_PART_OF_YEAR = re.compile(r"(?i)\b(?:q[1-4]|[1-4]q|h[12]|quarter|half|first|second|third|fourth)\b")


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
        lists = _lists(clause, figures)
        # a later list that breaks the first down ("..., respectively, of which the
        # Americas and EMEA accounted for 60% and 40%, respectively") is paired with the
        # items it names, not with the years: it and any after it take none
        kept = [lists[0]] if lists else []
        for items, said in lists[1:]:
            if _BREAKDOWN.match(_LEAD.sub("", _subject(clause, figures, items[0]))):
                break
            kept.append((items, said))
        lists = kept
        if not lists or any(len(items) != len(run) or _OTHER_LIST.search(
                clause[items[-1].end:said].strip(" ,")) for items, said in lists):
            return []  # "... sold 1,200 and 800 units to Acme and Beta, respectively": paired with those
    elif len(run) != len(figures) or figures[-1].end > run[0][0].start:
        return []
    else:
        lists = [(figures, len(clause))]
    if not (all(_one_list(clause, items) for items, _ in lists) and _one_list(clause, [m for m, _ in run])):
        return []
    return [(_values(m), p) for items, _ in lists for m, (_, p) in zip(items, run, strict=True)]


def _lists(clause: str, figures: list[Mention]) -> list[tuple[list[Mention], int]]:
    """The figures of a clause split at each "respectively" after them, each list with
    where its "respectively" starts: "sales were $318,928, $296,316 and $18,951,
    respectively, and related operating profit was $17,076, $18,177 and $3,300,
    respectively" is two lists for one list of periods before them. Empty when a figure
    follows the last "respectively"."""
    out: list[tuple[list[Mention], int]] = []
    items: list[Mention] = []
    said = iter(_RESPECTIVELY.finditer(clause, figures[0].end))
    ends = next(said, None)
    for m in figures:
        while ends is not None and ends.start() < m.start:
            if items:
                out.append((items, ends.start()))
                items = []
            ends = next(said, None)
        items.append(m)
    if ends is None or not items:
        return []
    out.append((items, ends.start()))
    return out


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
