"""The Policy: how items become a confidence, an action and a warning.

The defaults follow "downgrade, don't bounce": the user still sees the answer; a flag
lowers confidence and adds a warning, it does not hide the substance.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Policy(BaseModel):
    """Thresholds and switches for one verification. All fields have safe defaults."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    medium_min_score: float = Field(
        0.5, ge=0, le=1,
        description="Lowest supported share that is still 'medium'; below it confidence is 'low'.",
    )
    invented_entity_is_low: bool = Field(
        True, description="A ticker or security code found nowhere in the data (or with a bad "
        "check digit) makes the answer 'low' whatever the score: the catastrophic kind. So does one "
        "only an earlier turn's results hold (stale): its figures are most often another entity's.",
    )
    hedge_allows_rounding: bool = Field(
        True, description="A hedged value ('about 2.24 million') that rounds from a data value is supported.",
    )
    unhedged_rounding: Literal["flag", "warn", "allow"] = Field(
        "flag", description="A value that rounds a data value without a hedge ('$39.3 billion' for "
        "39,331 million, '36.4x' for 36.42): 'flag' (the default) makes it `drift`, flagged; 'warn' "
        "keeps it `drift` but unflagged (listed in the items, counted as supported for the "
        "confidence); 'allow' makes it `rounded` (supported). Under 'warn' and 'allow' a rounding to "
        "fewer than `rounding_min_significant` significant figures is still flagged `drift`.",
    )
    rounding_min_significant: int = Field(
        3, ge=1, le=30, description="Fewest significant figures an unhedged rounding must keep for "
        "`unhedged_rounding` 'warn' or 'allow' to pass it ('$39.3 billion': 3; '$39 billion': 2).",
    )
    retry_on_low: bool = Field(True, description="Suggest 'retry' (with the retry hint) when confidence is low.")
    abstain_below: float | None = Field(
        None, ge=0, le=1,
        description="If set, a score below this means 'abstain' instead of 'retry'. Off by default.",
    )
    check_years: bool = Field(True, description="Check bare years ('in 2025') against dates in the data.")
    check_quotes: bool = Field(True, description="Check quoted phrases verbatim against strings in the data.")
    max_evidence: int = Field(5, ge=1, le=100, description="Evidence entries kept per item.")
    derive: bool = Field(True, description="Search small derivations (difference, percent change, "
                         "average, ratio, share) for values not found in the data.")
    max_derive_items: int = Field(50, ge=0, description="Most values per answer the derive stage searches.")
    derive_max_chance: float = Field(
        0.1, ge=0, description="A derivation is accepted only while fewer than this many accidental "
        "hits are expected over every search tried so far (chosen on TAT-QA dev, see BENCHMARKS.md).")
    derive_max_work: int = Field(
        100_000, ge=0, description="Most operand values the derive searches of one answer may scan "
        "(bounds latency on very large haystacks; values left unsearched stay unsupported).")
    extra_stopwords: tuple[str, ...] = Field(
        (), description="More capitalised words that are never tickers (added to the bundled stop-lists).",
    )
    judge_high_stakes: bool = Field(
        True, description="When a model judge is configured: judge high-stakes sentences (advice, "
        "ratings, price targets, P&L, guarantees; stoplists/high_stakes.txt) whose values all passed "
        "the deterministic check. The judge never runs on every sentence by default.")
    judge_flagged: bool = Field(
        False, description="Also judge sentences with a flagged value; a supported verdict with a "
        "verified quote then clears the flag (a correct paraphrase the rules missed).")
    judge_sample_rate: float = Field(
        0.0, ge=0, le=1, description="Share of answers (chosen by a hash of the answer, so repeatable) "
        "whose every sentence is judged for monitoring; those verdicts are recorded, not applied. "
        "0.01-0.05 is typical.")
    judge_max_sentences: int = Field(
        8, ge=0, description="Most sentences judged per answer; the rest are recorded as not judged.")
    judge_extra_phrases: tuple[str, ...] = Field(
        (), description="More high-stakes phrases, as lexicon lines: 'category: phrase|phrase' or a "
        "bare phrase (category 'custom'); a trailing * lets the last word go on.")
    min_overlap: float = Field(
        0.7, ge=0, le=1, description="A cited sentence whose content words are less than this share "
        "of its source's words is flagged (low_overlap). Uncited sentences are measured, not flagged.")
    check_polarity: bool = Field(True, description="Flag negations and direction words (missed/beat, "
                                 "loss/profit) that contradict the source.")
    max_answer_chars: int = Field(200_000, ge=1, description="Longest answer accepted.")
    max_leaves: int = Field(2_000_000, ge=1, description="Most leaves a haystack may hold.")
    deadline_ms: int | None = Field(
        None, ge=1, description="Longest one verify() call may take, indexing the tool results "
        "included; past it DeadlineExceeded (a LimitError) is raised within milliseconds, and the "
        "judge answers not_judged at it. None (the default): no deadline. The service sets its "
        "time budget as the deadline; a request's own may only shorten it.")
