"""The verify pass: one state object moves through the stages in order.

Stages (each a small function ``stage(state) -> None`` that sets its own fields):
``extract`` (answer -> mentions), ``match`` (mentions -> (mention, item) pairs),
``attribute``, ``stale`` and ``derive`` (revise those items), ``judge`` (a model's
second opinion on high-stakes sentences, only when a judge is configured), ``score``
(items -> report).
"""

from __future__ import annotations

import bisect
import importlib.metadata as _metadata
import re
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from verifier.normalizers import NormalizeError, number_symbols, quotes
from verifier.normalizers._text import fold

from . import cells, conflicts, polarity, prose_periods, yearquarter
from . import question as asked
from . import score as scoring
from ._errors import InputError, LimitError
from .asked_ratio import ratio_sides
from .attribute import (
    attribute,
    attribute_periods,
    clause_entities,
    same_entity,
    scope_starts,
    sentence_around,
    sentence_starts,
)
from .derive import (
    Budget,
    Derivation,
    asked_cues,
    compares_averages,
    cue_words,
    derive,
    suggestion_name,
)
from .extract import NUMERIC_KINDS, Mention, extractor
from .grounding import ground
from .haystack import Haystack
from .judge import Judge, Trigger, evidence_for, judge_from_env, judge_sentence, sentence_leaves
from .labels import focus_words, label_named
from .match import derived_item, match, misattributed_derivation, stale_item
from .models import (
    SUPPORTED_STATUSES,
    Confidence,
    Item,
    Judgement,
    Note,
    Report,
    SentenceCheck,
    Suggestion,
)
from .policy import Policy
from .sentences import Sentence, split
from .stakes import high_stakes
from .yearquarter import Period, years_between

try:  # the installed distribution's version; a source tree that is not installed says 0+unknown
    VERSION = _metadata.version("finverify")
except _metadata.PackageNotFoundError:  # pragma: no cover
    VERSION = "0+unknown"


@dataclass
class State:
    """Everything one verification knows, filled in stage by stage."""

    answer: str
    haystack: Haystack
    locale: str
    policy: Policy
    question: str | None = None
    history: Haystack | None = None  # earlier turns' tool results
    mentions: list[Mention] = field(default_factory=list)
    matched: list[tuple[Mention, Item]] = field(default_factory=list)  # each value and its verdict
    suggestions: list[Suggestion] = field(default_factory=list)
    judge: Judge | None = None  # the model judge; None: off, nothing is called
    judgements: list[Judgement] = field(default_factory=list)
    sentences: list[Sentence] = field(default_factory=list)
    sentence_checks: list[SentenceCheck] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)  # findings about sentences or the answer
    cell_flags: set[int] = field(default_factory=set)  # ids of items the cells stage flagged
    #: ids of items flagged as another period's value, with the period their clause names
    period_flags: dict[int, Period] = field(default_factory=dict)
    report: Report | None = None


def extract_stage(state: State) -> None:
    """Read the answer's values."""
    ex = extractor(state.locale, tuple(state.policy.extra_stopwords))
    state.mentions = [m for m in ex.extract(
        state.answer, years=state.policy.check_years, quoted=state.policy.check_quotes
    ) if not _copied_marker(state, m)]


_MARKER = re.compile(r"\(\d{1,2}\)")
_LABEL_BEFORE = re.compile(r"(?:[^\W\d_][\w&'.-]*[ \t]+){1,4}$")


def _copied_marker(state: State, mention: Mention) -> bool:
    """Whether a bracketed one- or two-digit number is a table label's footnote marker
    the answer copied with its label ("Net income (1) was $5.2 million", where the data
    has the row "Net income (1)"), not an accounting negative: the label and the marker
    are in the data together."""
    if mention.kind != "number" or not _MARKER.fullmatch(mention.text):
        return False
    words = _LABEL_BEFORE.search(state.answer, max(0, mention.start - 60), mention.start)
    if words is None:
        return False
    phrase = quotes.normalize(fold(words.group() + mention.text))
    return state.haystack.find_text(phrase) is not None


def match_stage(state: State) -> None:
    """Look each value up in the haystack."""
    pairs = ((m, match(m, state.haystack, state.policy)) for m in state.mentions)
    state.matched = [(m, item) for m, item in pairs if item is not None]


def attribute_stage(state: State) -> None:
    """Values taken from another ticker's or another period's record are misattributed."""
    items = attribute(state.answer, state.matched, state.haystack)
    state.matched = [(m, item) for (m, _), item in zip(state.matched, items, strict=True)]
    said: dict[int, Period] = {}
    items = attribute_periods(state.answer, state.matched, state.haystack, said)
    state.matched = [(m, item) for (m, _), item in zip(state.matched, items, strict=True)]
    state.period_flags = {id(state.matched[i][1]): period for i, period in said.items()}


def ground_stage(state: State) -> None:
    """Sentences: citations scope their values to the cited sources; overlap is measured."""
    state.sentences = split(state.answer)
    state.matched, state.sentence_checks, notes = ground(
        state.sentences, state.matched, state.haystack, state.policy)
    state.notes.extend(notes)


def question_stage(state: State) -> None:
    """Values for entities the question asks about but the data lacks are gap_fill;
    entities asked about and left out make an 'incomplete' note."""
    if not state.question:
        return
    ex = extractor(state.locale, tuple(state.policy.extra_stopwords))
    state.matched, notes = asked.check(state.question, state.answer, state.matched, state.haystack, ex)
    state.notes.extend(notes)


def cells_stage(state: State) -> None:
    """Values from a table row or column other than the one the question names are
    misattributed."""
    if not state.question:
        return
    ex = extractor(state.locale, tuple(state.policy.extra_stopwords))
    before = [item for _, item in state.matched]
    state.matched = cells.check(state.question, state.answer, state.matched, state.haystack, ex)
    state.cell_flags = {id(item) for (_, item), old in zip(state.matched, before, strict=True) if item is not old}


def polarity_stage(state: State) -> None:
    """Negations and direction words (missed/beat, loss/profit) against the data."""
    if not state.policy.check_polarity:
        return
    state.matched, notes = polarity.check(state.answer, state.sentences, state.matched, state.haystack)
    state.notes.extend(notes)


def conflicts_stage(state: State) -> None:
    """Warn where the answer's values come from sources that disagree."""
    state.notes.extend(conflicts.check(state.sentences, state.matched, state.haystack))


def stale_stage(state: State) -> None:
    """A value the current tool results lack but an earlier turn's hold is ``stale``."""
    if state.history is None:
        return
    for i, (mention, item) in enumerate(state.matched):
        if item.status == "unsupported":
            earlier = match(mention, state.history, state.policy)
            if earlier is not None and earlier.status in SUPPORTED_STATUSES:
                state.matched[i] = (mention, stale_item(mention, earlier))


#: Computations over one row's own cells (a change, an average): for a question that
#: names the row, operands from another row explain nothing. Sums, ratios and shares
#: combine rows by nature ("as a percentage of total assets").
_ONE_ROW_OPS = frozenset({"difference", "percent_change", "average", "mean", "mean_difference"})
#: Operations over a year and the one before it: a single year named allows the year
#: before ("the change in 2019", "the 2019 average" balance); "the share in 2019" does not.
_CHANGE_OPS = frozenset({"difference", "percent_change", "average", "mean", "mean_difference", "sum_change"})


def derive_stage(state: State) -> None:
    """Recognise values computed from the data; each becomes a missing-field suggestion."""
    if not state.policy.derive:
        return
    hay, budget = state.haystack, state.policy.max_derive_items
    # the question's words, with its abbreviated months as names ("Feb. 2016": february)
    asked = focus_words(state.question) | prose_periods.when_words(state.question) if state.question else frozenset()
    work = Budget(state.policy.derive_max_work)
    sides = ratio_sides(state.question) if state.question else ()  # "the ratio of A to B"
    averages_compared = compares_averages(state.question or "")  # "the change in the average ..."
    asked_for: tuple[str, ...] | None = None  # the question's cues, once a value is searched
    matched: list[tuple[Mention, Item]] = []
    entities: list[str | None] = []  # the ticker each value's clause names, once needed
    for index, (mention, item) in enumerate(state.matched):
        as_written = mention
        if mention.kind == "date" and item.status == "unsupported" and state.question:
            mention = _year_as_number(state, mention)
        # a value the question's cell points away from may still be a computation the
        # question asks for ("the change in 2019" equal by chance to a 2018 cell)
        recheck = item.status == "unsupported" or id(item) in state.cell_flags or id(item) in state.period_flags
        # a rounding of a cell, unhedged, may be the exact result of the computation the
        # question asks for over the rows it names ("the change in Net Sales": 1,000.3 -
        # 908.3 is 92, not Net Income's 91.6 rounded); only that search is run for it
        named_only = item.status == "drift" and bool(state.question) and id(item) not in state.cell_flags
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

            def search(entity: str | None = None, mention: Mention = mention, focus: frozenset[str] = focus,
                       cues: tuple[str, ...] = cues, named_only: bool = named_only) -> Derivation | None:
                # the question's row and year checks rule hits out inside the search, so
                # it goes on to the next (a change of Total assets is no "return on
                # total assets in 2014"; Net earnings over Total assets then is)
                return None if work.exhausted else derive(
                    mention, hay, state.policy.derive_max_chance, focus, cues, work, named_only, entity, asked,
                    refuses, sides, averages_compared)
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
                state.suggestions.append(Suggestion.model_construct(
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
_ASKS_WHEN = re.compile(r"(?i)\b(?:which|what|identify|name)\b[^?.]{0,30}?\b(?:years?|periods?|dates?)\b"
                        r"|\bwhen\b|\bthe\s+years?\s+(?:in\s+)?(?:which|when|that|with)\b")
#: Words after which a four-digit number is a year: "in 2017", "since 2017", "to 2017".
_BEFORE_A_YEAR = frozenset({"in", "since", "from", "to", "until", "till", "by", "of", "during", "through",
                            "before", "after", "between", "and", "fiscal", "year", "fy", "calendar", "early",
                            "late", "mid", "end", "beginning"})


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
    if id(item) in state.cell_flags and cells.refuses_rescue(
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
    said = state.period_flags.get(id(item))
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
    return None, misattributed_derivation(state.matched[index][1], hay, found, owner, named)


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
        if item.kind == "ticker" and item.value and lo <= m.start < hi and same_entity(item.value, owner):
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
    if None in owners or len(owners) != 1 or any(same_entity(named, o) for o in owners if o):
        return None
    return owners.pop()


def _sentences(answer: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence, trimmed of surrounding whitespace; empty ones left out."""
    starts = sentence_starts(answer)
    spans = []
    for left, right in zip(starts, starts[1:] + [len(answer)], strict=True):
        text = answer[left:right]
        start, end = left + len(text) - len(text.lstrip()), left + len(text.rstrip())
        if end > start:
            spans.append((start, end))
    return spans


def _judge_plan(state: State) -> list[tuple[int, int, Trigger, tuple[str, ...]]]:
    """The sentences to judge, highest priority first: high-stakes sentences whose values
    all passed, then (if asked) sentences with a flagged value, then the monitoring sample."""
    policy, answer = state.policy, state.answer
    sampled = policy.judge_sample_rate > 0 and (
        zlib.crc32(answer.encode("utf-8", "surrogatepass")) / 2**32 < policy.judge_sample_rate)
    if not (policy.judge_high_stakes or policy.judge_flagged or sampled):
        return []
    stakes = {(s.start, s.end): s.reasons for s in high_stakes(answer, policy.judge_extra_phrases)}
    if not (stakes or sampled) and not (policy.judge_flagged and any(i.flagged for _, i in state.matched)):
        return []  # the common case: nothing to ask, no further work
    plan: dict[Trigger, list[tuple[int, int, Trigger, tuple[str, ...]]]] = {
        "high_stakes": [], "flagged": [], "sampled": []}
    for start, end in _sentences(answer):
        reasons = stakes.get((start, end), ())
        flagged = any(i.flagged for m, i in state.matched if start <= m.start < end)
        trigger: Trigger | None = (
            "high_stakes" if reasons and not flagged and policy.judge_high_stakes else
            "flagged" if flagged and policy.judge_flagged else "sampled" if sampled else None)
        if trigger is not None:
            plan[trigger].append((start, end, trigger, reasons))
    return plan["high_stakes"] + plan["flagged"] + plan["sampled"]


def judge_stage(state: State) -> None:
    """Ask the model judge about the sentences the Policy picks (high-stakes ones by
    default). Each verdict's quote is checked against the tool data; every fault is a
    ``not_judged`` verdict with a note. A verified ``supported`` on a flagged sentence
    (``Policy.judge_flagged``) clears its flags; lowering confidence is left to ``score``."""
    judge = state.judge
    if judge is None:
        return
    plan = _judge_plan(state)
    if not plan:
        return
    cap = state.policy.judge_max_sentences
    asked, skipped = plan[:cap], plan[cap:]

    def ask(job: tuple[int, int, Trigger, tuple[str, ...]]) -> Judgement:
        start, end, trigger, reasons = job
        mentions = [m for m, _ in state.matched if start <= m.start < end]
        if not mentions:  # "It is a buy.": the values of the sentence before say what "it" is
            before = [m for m, _ in state.matched if m.start < start]
            if before:
                left = max(s for s in sentence_starts(state.answer) if s <= before[-1].start)
                mentions = [m for m in before if m.start >= left]
        evidence = evidence_for(state.haystack, sentence_leaves(mentions, state.haystack))
        return judge_sentence(judge, sentence=state.answer[start:end], start=start, end=end,
                              evidence=evidence, hay=state.haystack, trigger=trigger, stakes=reasons)

    workers = min(len(asked), max(1, int(getattr(judge, "max_concurrency", 4))))
    if workers <= 1:
        judgements = [ask(job) for job in asked]
    else:
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="judge") as pool:
            judgements = list(pool.map(ask, asked))
    model = str(getattr(judge, "model", ""))
    judgements += [
        Judgement(sentence=state.answer[start:end], start=start, end=end, verdict="not_judged",
                  reason=f"not judged: over the limit of {cap} judged sentences per answer "
                  "(Policy.judge_max_sentences)", model=model, trigger=trigger, stakes=list(reasons))
        for start, end, trigger, reasons in skipped
    ]
    state.judgements = sorted(judgements, key=lambda j: j.start)
    for j in state.judgements:
        if j.trigger == "flagged" and j.verdict == "supported" and j.quote_verified:
            state.matched = [
                (m, item.model_copy(update={
                    "flagged": False,
                    "reason": f"{item.reason}; cleared by the model judge ({j.model}), which found the "
                              f"sentence supported and quoted {j.quote[:80]!r} from the tool data"}))
                if item.flagged and j.start <= m.start < j.end else (m, item)
                for m, item in state.matched
            ]


#: Verdicts that lower confidence (at most 'medium'): the judge doubts the sentence.
_DOUBTED = frozenset({"unsupported", "partial", "unverified"})


def _judged_confidence(confidence: Confidence, judgements: list[Judgement]) -> tuple[Confidence, list[Judgement]]:
    """Confidence after the judge: a doubted sentence caps it at 'medium'. Monitoring
    samples are recorded, not applied; not_judged changes nothing."""
    doubted = [j for j in judgements if j.verdict in _DOUBTED and j.trigger != "sampled"]
    if doubted and confidence == "high":
        return "medium", doubted
    return confidence, doubted


_JUDGE_HINT = {
    "unsupported": "is not supported by the tool results",
    "partial": "is only partly supported by the tool results",
    "unverified": "could not be tied to a quote from the tool results",
}


def score_stage(state: State) -> None:
    """Turn items (and the judge's verdicts) into confidence, action and warnings."""
    items, policy = [item for _, item in state.matched], state.policy
    # a date that only repeats the question's ("... in 2019" for "revenue in 2019") says
    # nothing the question did not: it neither lifts nor lowers the score
    asked = (state.question or "").lower()
    scored = [item for item in items if not (
        asked and item.kind in ("date", "period") and item.status in SUPPORTED_STATUSES
        and item.text.lower() in asked)] or items
    confidence, score = scoring.confidence_of(scored, policy)
    confidence, doubted = _judged_confidence(confidence, state.judgements)
    confidence = scoring.noted_confidence(confidence, state.notes)
    warnings = scoring.warnings_of(items, confidence, state.notes)
    if doubted:
        many = len(doubted) > 1
        note = (f"A model judge doubts {len(doubted)} high-stakes sentence{'s' if many else ''} "
                f"({', '.join(sorted({j.verdict for j in doubted}))}); check {'them' if many else 'it'} "
                "before acting on this answer.")
        lines = "\n".join(f"- the sentence {j.sentence!r} {_JUDGE_HINT[j.verdict]} (model judge)"
                          for j in doubted)
        hint = (f"{warnings.retry_hint}\n{lines}" if warnings.retry_hint else
                "Some sentences in your previous answer are not supported by the tool results:\n"
                f"{lines}\nRewrite them using only what the tool results state, or leave them out.")
        warnings = warnings.model_copy(update={"message": f"{warnings.message} {note}", "retry_hint": hint})
    state.report = Report.model_construct(
        confidence=confidence,
        score=round(score, 4),
        action=scoring.action_of(confidence, score, policy),
        checked=len(items),
        flagged=sum(1 for item in items if item.flagged),
        counts=scoring.counts_of(items),
        items=items,
        warnings=warnings,
        suggestions=state.suggestions,
        judgements=state.judgements,
        sentences=state.sentence_checks,
        notes=state.notes,
        locale=state.locale,
        version=VERSION,
    )


#: The stages, in order. Tests and later issues insert stages here.
STAGES: list[Callable[[State], None]] = [
    extract_stage, match_stage, attribute_stage, ground_stage, stale_stage, question_stage, cells_stage,
    polarity_stage, conflicts_stage, derive_stage, judge_stage, score_stage,
]


def verify(
    answer: str,
    tool_results: Any = None,
    *,
    question: str | None = None,
    locale: str = "en_US",
    policy: Policy | dict[str, Any] | None = None,
    haystack: Haystack | None = None,
    history: Any = None,
    judge: Judge | Literal[False] | None = None,
) -> Report:
    """Check ``answer`` against ``tool_results`` and return a :class:`Report`.

    ``tool_results`` is a list of ``{"name", "output"[, "id"]}`` or any JSON value; pass
    a prebuilt ``haystack`` instead to verify many answers over the same results.
    ``history`` holds earlier turns' tool results (same forms, or a Haystack): a value
    found only there is ``stale``.
    ``judge`` is the model judge for high-stakes sentences (see ``verifier.judge``): by
    default (None) the one ``VERIFIER_JUDGE_URL`` configures, none when it is unset;
    False turns it off. A judge's fault never fails the call: the sentence is
    ``not_judged`` and the deterministic result stands.
    Raises :class:`InputError` / :class:`LimitError` (both ``ValueError``) for unusable
    input; never anything from deep inside.
    """
    if policy is None:
        policy = Policy()
    elif isinstance(policy, dict):
        try:
            policy = Policy.model_validate(policy)
        except ValueError as exc:
            raise InputError(str(exc), "policy") from None
    elif not isinstance(policy, Policy):
        raise InputError(f"must be a Policy or a dict of its fields, got {type(policy).__name__}", "policy")
    if not isinstance(answer, str):
        raise InputError(f"must be a string, got {type(answer).__name__}", "answer")
    if not answer.strip():
        raise InputError("is empty: there is nothing to verify", "answer")
    if len(answer) > policy.max_answer_chars:
        raise LimitError("answer length in characters", len(answer), policy.max_answer_chars)
    if question is not None and not isinstance(question, str):
        raise InputError(f"must be a string or None, got {type(question).__name__}", "question")
    try:
        number_symbols(locale)
    except NormalizeError as exc:
        raise InputError(str(exc), "locale") from None
    if haystack is None:
        if tool_results is None:
            raise InputError("missing (None): pass the tool results, or haystack= a prebuilt Haystack",
                             "tool_results")
        haystack = Haystack(tool_results, locale=locale, max_leaves=policy.max_leaves)
    elif tool_results is not None:
        raise InputError("give tool_results or haystack, not both", "haystack")
    if history is not None and not isinstance(history, Haystack):
        history = Haystack(history, locale=locale, max_leaves=policy.max_leaves)
    if judge is None:
        judge = judge_from_env()
    elif judge is False:
        judge = None
    elif not callable(getattr(judge, "judge", None)):
        raise InputError(f"must have a judge(claim, evidence) method, got {type(judge).__name__}", "judge")
    state = State(answer, haystack, locale, policy, question, history, judge=judge)
    for stage in STAGES:
        stage(state)
    assert state.report is not None
    return state.report
