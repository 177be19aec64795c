"""Cue words: the words of a question or sentence that name a computation ("average",
"the change in", "percentage of"), read with ``stoplists/operation_cues.txt``. The
derive search orders its operations by them; it does not decide what a value is."""

from __future__ import annotations

import re
from functools import lru_cache

from verifier import stoplists

from .labels import WORD


@lru_cache(maxsize=4096)
def cue_terms(text: str) -> tuple[str, ...]:
    """The words of ``text`` that name a computation ("average", "change"), in order;
    a word and the next one where the pair is listed ("percentage_of")."""
    table = stoplists.load_pairs("operation_cues")
    words = WORD.findall(text.lower())
    terms = []
    for i, w in enumerate(words):
        pair = f"{w}_{words[i + 1]}" if i + 1 < len(words) else ""
        rest = [x for x in words[i + 2:i + 4] if x not in ("the", "a", "an")]
        after = table.get(rest[0], "") if rest else ""
        # "the percentage of increase" is a percent change, not a share
        if pair in table and after not in ("difference", "percent_change"):
            terms.append(pair)
        elif w in table:
            terms.append(w)
    return tuple(terms)


_CHANGE_OF_AVERAGE = re.compile(r"(?i)\b(?:change|difference|increase|decrease|variation)\s+in\s+(?:the\s+)?average\b")


def compares_averages(question: str) -> bool:
    """Whether a question asks for a change of averages, not of levels: "the change in
    the average ...", "the difference between average A and average B". ("The
    difference between the average revenue in 2019 and 2018" may be two levels.)"""
    return bool(_CHANGE_OF_AVERAGE.search(question)) or cue_terms(question).count("average") >= 2


@lru_cache(maxsize=4096)
def cue_words(text: str) -> tuple[str, ...]:
    """The operations the wording of ``text`` points to ("average" -> mean), in the
    order it first names them: "the change in Total operating income" asks for a
    difference; its "Total" is part of a row's name."""
    table = stoplists.load_pairs("operation_cues")
    return tuple(dict.fromkeys(table[w] for w in cue_terms(text)))
