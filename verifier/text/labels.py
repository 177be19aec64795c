"""What a question or sentence names: its content words, the words of a row's or a
column's label that a question would repeat, and whether the one names the other (at
least half of a label's words). Shared by the derive stage and the pipeline's row
checks."""

from __future__ import annotations

import re
from functools import lru_cache

from verifier import stoplists

from ..derive.operands import record_label
from ..index.haystack import Haystack, LeafId
from .months import EXTRA_ABBREVIATIONS, MONTH_ABBREVIATIONS, MONTH_NAMES

#: A word: letters and digits, no underscores.
WORD = re.compile(r"[^\W_]+")


def focus_words(text: str) -> frozenset[str]:
    """Content words of a question or sentence, to find the rows it talks about."""
    skip = stoplists.load("function_words")
    return frozenset(w for w in WORD.findall(text.lower()) if w not in skip and (len(w) > 2 or w.isdigit()))


_MONTHS_AND_DAYS = frozenset(
    [name.lower() for name in (*MONTH_NAMES, *MONTH_ABBREVIATIONS, *EXTRA_ABBREVIATIONS)] + [str(d) for d in range(1, 32)])


@lru_cache(maxsize=16384)
def label_words(text: str) -> frozenset[str]:
    """The words of a row or column label that a question would repeat: a column "Dec
    28, 2019" is named by "in 2019", so month names and day numbers do not count."""
    return focus_words(text) - _MONTHS_AND_DAYS


def is_named(words: frozenset[str], focus: frozenset[str]) -> bool:
    """At least half of a label's words are in the question or sentence."""
    return bool(words) and len(words & focus) * 2 >= len(words)


def label_named(hay: Haystack, leaf: LeafId, focus: frozenset[str]) -> bool:
    """Whether ``focus`` names the row or record holding ``leaf``."""
    return is_named(row_words(hay, hay.leaves[leaf].node), focus)


def row_words(hay: Haystack, node: int) -> frozenset[str]:
    """The label words of the row or record holding ``node``."""
    return label_words(record_label(hay, node).replace("_", " "))
