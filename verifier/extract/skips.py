"""Spans whose digits are not values: citation markers, list numbers, ordinals, document
and standard references ("Note 21", "ASU 2017-07"), fair-value levels, footnote markers
in table labels. The extraction passes claim them first."""

from __future__ import annotations

import re
from functools import lru_cache

from verifier import stoplists

#: Fair-value levels and capital tiers ("Level 2 inputs", "Tier 1 capital") are names,
#: not figures, in answers and data alike.
LEVEL = r"(?<![\w])(?:Level|Tier)[ \t]+[1-3](?![\w.,%])"


@lru_cache(maxsize=1)
def references() -> re.Pattern[str]:
    """Numbers that cite a part of a document or a standard ("Note 21", "Topic 606",
    "ASU 2017-07", "Section 404(b)"): names, not figures, in answers and data alike."""
    words = "|".join(re.escape(w) for w in sorted(stoplists.load("reference_words"), key=len, reverse=True))
    # the number: a standard's "2016-08", or a short reference "606", "7A", "10b-5",
    # "842-10"; never the start of a longer figure ("Note 4.50%", "Part 2.5 million")
    return re.compile(
        rf"""
        (?<![\w])(?:{words})[ \t\u00a0]*                            # the word: "Note", "ASC", "Item"
        (?:\d{{4}}-\d{{2,3}}|\d{{1,3}}(?:[A-Za-z]\d*)?(?:[-.]\d+)*)  # "2016-08", "606", "7A", "10b-5"
        (?:\([0-9a-z]{{1,3}}\))*                                  # "404(b)"
        (?![\w%]|[.,]\d|[ \t\u00a0\u202f]*(?i:{_UNIT_WORDS})\b)    # not "Note 4.50%", "Part 2 million"
        """,
        re.VERBOSE,
    )


#: Words after a number that make it a quantity, not a reference ("Note 25 million").
_UNIT_WORDS = "million|billion|thousand|trillion|percent|per[ ]cent|bn|mn|mm|m|k|b|x"


#: Spans whose digits are not values.
SKIP = re.compile(
    r"""
      \[\^?\d+(?:\s*[,–\-]\s*\^?\d+)*\]          # citation markers [1], [2, 3], [^1]
    | (?m:^[ \t]*\d{1,2}[.)](?=[ \t]))           # list numbering at the start of a line
    | (?<![\w])\d+(?:st|nd|rd|th)(?![\w])        # ordinals
    | (?<=[A-Za-z]-)\d+(?![\w])                  # COVID-19, Win-10
    | """ + LEVEL + """                           # Level 2, Tier 1
    """,
    re.VERBOSE,
)

@lru_cache(maxsize=1)
def data_skip() -> re.Pattern[str]:
    """Reference numbers in tool data that are not values: footnote markers glued to a
    label ("Total lease liabilities(1)") or opening a footnote ("(1) During the year
    ended", "2 Includes the value", "Notes: 1 Excludes"), and fair-value levels. Filing
    tables carry these everywhere; read as figures, they "support" any small number an
    answer states."""
    openers = "|".join(sorted(stoplists.load("footnote_openers")))
    return re.compile(
        rf"""
          (?<=[A-Za-z])\(\d{{1,2}}\)(?![\w])                        # label(1)
        | (?:^|(?<=[.;]))[ \t]*\(\d{{1,2}}\)(?=[ \t]+[A-Z][a-z]+[ \t]+[a-z])  # (1) A sentence
        | ^[ \t]*(?:Notes?:[ \t]*)?\d{{1,2}}(?=[ \t]+(?i:{openers})\b)  # 2 Includes ...
        | {LEVEL}
        """,
        re.VERBOSE,
    )


#: Footnote markers ending a row or column label: "Net income (1)", "2018 (4) (5)".
LABEL_MARKERS = re.compile(r"(?<=[\w)])[ \t]+\(\d{1,2}\)(?=(?:[ \t]*\(\d{1,2}\))*[ \t]*$)")
