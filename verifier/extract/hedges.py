"""Words beside a value that say how it is meant: a hedge ("about", "~", "more than")
marks it rounded on purpose; a direction word ("fell", "up") gives it a sign."""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

from verifier import stoplists

from ..text.splitter import clause_tail

_ARTICLES = frozenset({"a", "an", "the", "of"})
_HEDGE_WORD = re.compile(r"[^\W_]+\.?")


@lru_cache(maxsize=1)
def _hedges() -> tuple[frozenset[str], str, int]:
    """(hedge phrases, hedge signs, most words in a phrase) from ``hedges.txt``."""
    entries = stoplists.load("hedges")
    signs = "".join(e for e in entries if not any(ch.isalnum() for ch in e))
    phrases = frozenset(e.lower() for e in entries if any(ch.isalnum() for ch in e))
    return phrases, signs, max(len(p.split()) for p in phrases)


def direction_of(text: str, start: int) -> int:
    """-1 when a word of falling ("fell", "declined", "loss") stands among the five
    words before ``start`` in the same clause, +1 for a word of rising, else 0."""
    # a line break ends the clause too: "(down 5 bp)\n- 10-year: 4.04%"
    window = clause_tail(text[max(0, start - 50):start])
    words = _HEDGE_WORD.findall(window.lower())[-5:]
    table = stoplists.load_pairs("directions")
    for word in reversed(words):
        if word in _LEVEL_WORDS:
            return 0  # "slipped to 74.6%", "down from 75.3%": a level, not a change
        found = table.get(word.rstrip("."))
        if found:
            return -1 if found == "down" else 1
    return 0


#: Words between a direction word and a number that make the number a level ("to",
#: "from", "at"; "auf", "bei" (not "von": "ein Plus von 1,40 €"); stoplists/level_words.txt).
_LEVEL_WORDS = stoplists.load("level_words")


def hedged_tolerance(mantissa: Decimal, tolerance: Decimal) -> Decimal:
    """A whole number's trailing zeros after an approximating hedge are not
    significant: "about 21,300" is 21,345 rounded to hundreds (±50), as "about 21.3
    thousand" is; unhedged, or after a one-sided hedge ("more than 2,000,000"), they are. Two significant digits are kept at least: "about $100" is
    not $142.30 rounded to hundreds."""
    _sign, digits, exponent = mantissa.as_tuple()
    if exponent != 0 or not isinstance(exponent, int) or not any(digits):
        return tolerance
    zeros = min(len(digits) - len("".join(map(str, digits)).rstrip("0")), len(digits) - 2)
    return max(tolerance, Decimal(5).scaleb(zeros - 1)) if zeros > 0 else tolerance


def is_hedged(text: str, start: int) -> bool:
    """Whether a hedge ("about", "roughly", "~") stands just before ``start``."""
    return hedge_before(text, start) is not None


#: Hedges that bound a value on one side ("more than 2,000,000" is not 1,960,000):
#: they do not make a round number's trailing zeros insignificant (stoplists/one_sided_hedges.txt).
ONE_SIDED = stoplists.load("one_sided_hedges")


@lru_cache(maxsize=1)
def _unspaced(phrases: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted((p for p in phrases if p and not p[0].isascii() and p[0] > "\u3000"), key=len, reverse=True))


def hedge_before(text: str, start: int) -> str | None:
    """The hedge ("about", "more than", "~") standing just before ``start``, or None.

    Word look-ups in a set rather than a regex anchored at the end of the preceding
    text: the regex tried every position of the window and cost ~6 µs a value."""
    window = text[max(0, start - 40):start].rstrip(" \t\u00a0\u202f[-+")
    phrases, signs, longest = _hedges()
    if window and window[-1] in signs:
        return window[-1]
    glued = next((p for p in _unspaced(phrases) if window.endswith(p)), None)
    if glued is not None:  # "約45.1兆円": a hedge of a script without spaces touches the figure
        return glued
    words = _HEDGE_WORD.findall(window.lower())
    for _ in range(3):  # "about", "about a", "in the region of", "some of the"
        for n in range(1, min(longest, len(words)) + 1):
            phrase = " ".join(words[-n:])
            if phrase in phrases:
                return phrase
        if not words or words[-1] not in _ARTICLES:
            return None
        words.pop()
    return None
