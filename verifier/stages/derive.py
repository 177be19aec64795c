"""derive: values computed from the data (a difference, a percent change, an average, a
ratio, a share, a few multi-step shapes over the cells a question names); each becomes a
missing-field suggestion. The search itself is ``verifier.derive.core``; this stage decides
which values to search, and which hits the question or the answer's own clause rule out."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import replace

from verifier import stoplists
from verifier.normalizers import tickers

from .. import yearquarter
from ..checks.attribute import clause_entities
from ..checks.match import derived_item, misattributed_derivation
from ..derive.chance import Budget
from ..derive.core import SearchContext, derive
from ..derive.expressions import Derivation
from ..derive.operands import record_label, slug
from ..derive.plan import asked_cues
from ..extract import NUMERIC_KINDS, Mention, extractor
from ..index import prose_periods
from ..index.haystack import Haystack
from ..models import Item, Suggestion, construct
from ..question import cells
from ..question.asked_ratio import ratio_sides
from ..state import State
from ..text.cues import compares_averages, cue_words
from ..text.labels import focus_words, label_named
from ..text.splitter import scope_starts, sentence_around, sentence_starts
from ..yearquarter import Period, years_between

REQUIRES = frozenset({"answer", "question", "matched", "haystack", "locale", "policy"})
ASSIGNS = frozenset({"matched", "suggestions"})


#: Computations over one row's own cells (a change, an average): for a question that
#: names the row, operands from another row explain nothing. Sums, ratios and shares
#: combine rows by nature ("as a percentage of total assets").
_ONE_ROW_OPS = frozenset({"difference", "percent_change", "average", "mean", "mean_difference"})
#: Operations over a year and the one before it: a single year named allows the year
#: before ("the change in 2019", "the 2019 average" balance); "the share in 2019" does not.
_CHANGE_OPS = frozenset({"difference", "percent_change", "average", "mean", "mean_difference", "sum_change"})


def run(state: State) -> None:
    """Recognise values computed from the data; each becomes a missing-field suggestion."""
    hay, budget = state.haystack, state.policy.max_derive_items
    # the question's words, with its abbreviated months as names ("Feb. 2016": february)
    asked = focus_words(state.question) | prose_periods.when_words(state.question) if state.question else frozenset()
    work = Budget(state.policy.derive_max_work)
    # what every value's search is told; the per-value fields are replaced below
    base = SearchContext(
        max_chance=state.policy.derive_max_chance, budget=work, asked=asked,
        sides=ratio_sides(state.question) if state.question else (),  # "the ratio of A to B"
        averages_compared=compares_averages(state.question or ""))  # "the change in the average ..."
    asked_for: tuple[str, ...] | None = None  # the question's cues, once a value is searched
    matched: list[tuple[Mention, Item]] = []
    entities: list[str | None] = []  # the ticker each value's clause names, once needed
    for index, (mention, item) in enumerate(state.matched):
        as_written = mention
        if mention.kind == "date" and item.status == "unsupported" and state.question:
            mention = _year_as_number(state, mention)
        # a value the question's cell points away from may still be a computation the
        # question asks for ("the change in 2019" equal by chance to a 2018 cell)
        recheck = item.status == "unsupported" or item.flag("cells") is not None or item.flag("periods") is not None
        # a rounding of a cell, unhedged, may be the exact result of the computation the
        # question asks for over the rows it names ("the change in Net Sales": 1,000.3 -
        # 908.3 is 92, not Net Income's 91.6 rounded); only that search is run for it
        named_only = item.status == "drift" and bool(state.question) and item.flag("cells") is None
        if (recheck or named_only) and mention.kind in NUMERIC_KINDS and not mention.invalid and budget > 0:
            budget -= 1
            sentence = sentence_around(state.answer, mention.start, mention.end)
            focus = asked | focus_words(sentence)
            # the question says what to compute; not a word of a row's name it names
            # ("Weighted-average shares" asks for no average)
            cues = asked_cues((state.question or "") + " " + sentence, hay)
            if asked_for is None:  # the question's own cues: the same for every value
                asked_for = asked_cues(state.question or "", hay)
            if {"total", "mean"} & set(asked_for) and not {"difference", "percent_change"} & set(asked_for):
                focus |= years_between(state.question or "")  # "the sum from 2020 to 2024": 2021-2023 too
            if named_only:
                # a rounding is only re-read as a computation the question asks for: not
                # the "Total" of a row it names ("What was Total revenue?")
                cues = asked_for

            def refuses(found: Derivation, mention: Mention = mention, item: Item = item) -> bool:
                return _refused(state, mention, item, found)

            # the question's row and year checks rule hits out inside the search, so it
            # goes on to the next (a change of Total assets is no "return on total assets
            # in 2014"; Net earnings over Total assets then is)
            context = replace(base, focus=focus, cues=cues, named_only=named_only, refuses=refuses)

            def search(entity: str | None = None, mention: Mention = mention,
                       context: SearchContext = context) -> Derivation | None:
                return None if work.exhausted else derive(mention, hay, replace(context, entity=entity))
            found = search()
            if found is not None and any(hay.entity_of(leaf) for leaf in found.operands):
                if not entities:
                    entities = clause_entities(state.answer, state.matched, hay)
                found, misgiven = _tied(state, index, entities[index], found, search)
                if misgiven is not None:
                    matched.append((mention, misgiven))
                    continue
            if found is not None:
                tool = hay.tool_of(found.operands[0])
                worked = f" = {found.worked}" if found.worked else ""
                item = derived_item(mention, hay, found.operands, found.expression,
                                    f"computed from the data: {found.expression}{worked} in {tool.name}", found.values)
                name = suggestion_name(found, hay)
                # figures of running text: their paths alone do not say which figures
                prose = f" (from {found.worked})" if found.worked and any(
                    hay.is_string(leaf) and leaf in hay.text_values for leaf in found.operands) else ""
                state.suggestions.append(construct(Suggestion,
                    tool=tool.name, field=name, expression=found.expression, op=found.op,
                    text=f"add field {name} = {found.expression} to tool {tool.name}{prose}",
                ))
            elif work.exhausted:
                item = item.model_copy(update={"reason": item.reason + " (derivation search skipped: "
                                               "its work budget for this answer was spent)"})
        matched.append((mention if item.status == "derived" else as_written, item))
    state.matched = matched


#: A question whose answer is a date: "which year", "which of the years", "what was the
#: year with", "identify the year in which", "when".
_ASKS_WHEN = re.compile(r"""(?ix)
    \b(?:which|what|identify|name)\b[^?.]{0,30}?\b(?:years?|periods?|dates?)\b  # "which of the years"
  | \bwhen\b
  | \bthe\s+years?\s+(?:in\s+)?(?:which|when|that|with)\b                      # "the year in which"
""")
#: Words after which a four-digit number is a year: "in 2017", "since 2017", "to 2017"
#: (stoplists/year_prepositions.txt).
_BEFORE_A_YEAR = stoplists.load("year_prepositions")


def _year_as_number(state: State, mention: Mention) -> Mention:
    """A bare four-digit number read as a year ("The change is 2063.") that no date of
    the data supports, read as the plain number it may be, when the question asks for a
    computation: only a derivation can then support it (a year found as written is the
    date check's business). Not for a question that asks for a year ("In which year
    was R&D less than 10,000?"), nor for a number the answer writes as a year ("in
    2017", "since 2017"). Other dates are returned unchanged."""
    question = state.question or ""
    if not (len(mention.text) == 4 and mention.text.isdigit()) or not cue_words(question) or _ASKS_WHEN.search(question):
        return mention
    before = state.answer[max(0, mention.start - 16):mention.start].lower().split()
    if before and before[-1].strip("(,") in _BEFORE_A_YEAR:
        return mention  # "grew to 12,345 in 2017": a year, however it may compute
    number = extractor(state.locale, tuple(state.policy.extra_stopwords)).as_number(mention.text)  # (the stage's own)
    return mention if number is None else replace(number, start=mention.start, end=mention.end)


def _refused(state: State, mention: Mention, item: Item, found: Derivation) -> bool:
    """Whether what the question asks (or the period the clause names) rules out a
    derivation the search found."""
    hay, question = state.haystack, state.question or ""
    if item.flag("cells") is not None and cells.refuses_rescue(
            question, mention, found.operands, hay, extractor(state.locale, tuple(state.policy.extra_stopwords)),
            found.op):
        return True  # a rescue from columns the question does not ask about explains nothing
    if question and found.op in _ONE_ROW_OPS and (cells.other_row(
            question, found.operands, hay, totalled=found.op == "mean") or cells.other_column(
            question, found.operands, hay)):
        # the question names the row (or column): another row's change is not its answer
        # (the mean of the rows a named "Total ..." row totals is)
        return True
    if question and cells.outside_asked_years(question, found.operands, hay, found.op in _CHANGE_OPS):
        return True  # "between 2018 and 2019" is not answered with 2017's value
    if question and found.op in ("share", "ratio") and cells.share_of_unnamed_row(
            question, found.operands, hay, whole=found.op == "share"):
        return True  # "the share of Services" is not Licensing's
    flag = item.flag("periods")
    said = flag.period if flag is not None else None
    # 200 "in 2019" is the 2018 total: a computation explains it only from the figures
    # of 2019 (and a change, from 2018 to 2019) of the rows its sentence names ("cash
    # plus receivables": not "revenue was 440", 500 - 60, where 440 is 2018's revenue)
    return said is not None and not (_all_in(hay, found.operands, said, found.op in ("difference", "percent_change"))
                                     and _rows_named(state, mention, found.operands))


def _tied(state: State, index: int, named: str | None, found: Derivation,
          search: Callable[[str], Derivation | None]) -> tuple[Derivation | None, Item | None]:
    """A derivation checked against the ticker its value's clause names: (the
    derivation to keep, or None; the item re-marked misattributed, or None). "AAPL rose
    10.2" computed from MSFT's record is searched again over AAPL's records; if they do
    not give it, the value is MSFT's, given to AAPL."""
    hay = state.haystack
    owner = _other_owner(hay, found.operands, named) if named else None
    if not named or not owner or _owner_listed(state.answer, state.matched, index, owner):
        # "AAPL lagged MSFT with a gain of 2.3", "AAPL and MSFT rose 2.3 and 10.2": the
        # owner is named in the value's clause, or listed in a clause with no value of
        # its own, in an order this pass does not read
        return found, None
    again = search(named)
    if again is not None and _other_owner(hay, again.operands, named) is None:
        return again, None
    return None, misattributed_derivation(state.matched[index][1], hay, found.operands, found.values, found.expression,
                                          owner, named)


def _owner_listed(answer: str, matched: list[tuple[Mention, Item]], index: int, owner: str) -> bool:
    """Whether the sentence of item ``index`` names ``owner`` in that item's own clause,
    or in an earlier clause of the sentence that holds no value of its own (a list of
    tickers the values follow: "AAPL and MSFT rose 2.3 and 10.2"). "Your AAPL position is worth $16,420 and your MSFT position is worth
    $21,345" names each owner beside a value of its own: the swap is not excused."""
    clauses, sentences = scope_starts(answer), sentence_starts(answer)
    position = matched[index][0].start
    sentence = bisect.bisect_right(sentences, position) - 1
    lo = sentences[sentence]
    hi = sentences[sentence + 1] if sentence + 1 < len(sentences) else len(answer)
    own = bisect.bisect_right(clauses, position) - 1
    valued = {bisect.bisect_right(clauses, m.start) - 1 for m, _ in matched
              if m.kind in NUMERIC_KINDS and lo <= m.start < hi}
    for m, item in matched:
        if item.kind == "ticker" and item.value and lo <= m.start < hi and tickers.same_entity(item.value, owner):
            clause = bisect.bisect_right(clauses, m.start) - 1
            if clause == own or clause < own and clause not in valued:
                return True
    return False


def _all_in(hay: Haystack, operands: tuple[int, ...], period: Period, change: bool = False) -> bool:
    """Whether every operand is dated, and in ``period`` (or, for a ``change``, in the
    year before it, so long as one is in ``period``)."""
    held = [hay.period_of(leaf) for leaf in operands]
    before = (period[0] - 1, period[1])
    inside = [p is not None and yearquarter.same(period, p) for p in held]
    earlier = [p is not None and change and yearquarter.same(before, p) for p in held]
    return any(inside) and all(a or b for a, b in zip(inside, earlier, strict=True))


def _rows_named(state: State, mention: Mention, operands: tuple[int, ...]) -> bool:
    """Whether the value's sentence (or the question) names every operand's row."""
    hay = state.haystack
    sentence = sentence_around(state.answer, mention.start, mention.end)
    words = focus_words(sentence) | (focus_words(state.question) if state.question else frozenset())
    return all(label_named(hay, leaf, words) for leaf in operands)


def _other_owner(hay: Haystack, operands: tuple[int, ...], named: str) -> str | None:
    """The entity whose record every operand is in, when that is not ``named`` (and
    all are one entity's); None otherwise (a comparison of AAPL with MSFT has AAPL's)."""
    owners = {hay.entity_of(leaf) for leaf in operands}
    if None in owners or len(owners) != 1 or any(tickers.same_entity(named, o) for o in owners if o):
        return None
    return owners.pop()


def suggestion_name(found: Derivation, hay: Haystack) -> str:
    """A field name for a derived value, from the record's label and the operands' keys:
    ``percent_change_total_sales_2019_vs_2018``, ``mean_change_pct``."""
    op, operands = found.op, found.operands
    first = hay.leaves[operands[0]]
    parts = [op]
    label = record_label(hay, first.node) if found.group in ("record", "stacked") else ""
    if label:
        parts.append(label)
    keys = [slug(hay.leaves[leaf].key or hay.path(leaf).rsplit(".", 1)[-1]) for leaf in operands[:2]]
    if op in ("total", "mean", "share") or len(keys) < 2 or keys[0] == keys[1]:
        parts.append(keys[0])
    else:
        parts.append(f"{keys[0]}_vs_{keys[1]}")
    return "_".join(p for p in parts if p)
