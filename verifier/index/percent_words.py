"""What words, keys and unit texts say about figures being percentages, and in which
unit: the vocabulary :mod:`verifier.index.percent_units` infers a field's unit from. The
words are data: ``stoplists/percent_units.txt``."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from functools import cache, lru_cache

import regex

from verifier import stoplists

POINTS, FRACTION, BASIS = "points", "fraction", "basis points"
NEUTRAL, PLAIN = "neutral", "plain"  # unit texts that say nothing / that say "no percentage"
RATE, LISTED = "rate", "listed"  # key classes: a rate word of PERCENT_KEY / of the word list
STATED = (POINTS, FRACTION, BASIS)

#: Fields that state the unit of the figures of their record (and the records inside it).
UNIT_FIELDS = frozenset({"scale", "unit", "units", "unit_scale", "denomination", "currency_unit", "amounts_in"})
#: A row label saying its cells are percentages. Stricter than a key: a "Gross margin"
#: row of a filing table is often dollars.
PERCENT_LABEL = regex.compile(r"(?i)\(%\)|\bin %|\bper ?cent(?:age)?s?\b(?![\s-]+of\b|-complet)")
PERCENT_KEY = regex.compile(
    r"(?i)(pct|percent|perc(?![a-z])|_pc$|yield|margin|%|rate|growth|return|weight(?!ed)"
    r"|_pp$|(?<![a-z])pp(?![a-z])|_bps?$"  # percentage points and basis points are percentages too
    r"|spread|curve|(?<![a-z])y\d{1,2}(?![a-z0-9])|(?<![a-z0-9])\d{1,2}y(?![a-z]))"  # rates: 10Y, y2, 2s10s spread
)
_POINTS_KEY = regex.compile(r"(?i)pct|percent|perc(?![a-z])|_pc$|%|_pp$|(?<![a-z])pp(?![a-z])")
_BASIS_KEY = regex.compile(r"(?i)_bps?$")
_WORD = regex.compile(r"\p{Lu}+(?!\p{Ll})|\p{Lu}?\p{Ll}+|\d+")  # "U6RATE": u, 6, rate
INTEGER = regex.compile(r"-?\d+")
CURRENCY_MARK = regex.compile(r"[$€£¥₹]")  # money, whatever its column's other cells print
ONE, HUNDRED = Decimal(1), Decimal(100)


@cache
def _vocabulary() -> dict[str, frozenset[tuple[str, ...]]]:
    """Class -> its entries as tuples of words (a unit text as one lower-cased string)."""
    out: dict[str, set[tuple[str, ...]]] = defaultdict(set)
    for entry in stoplists.load("percent_units"):
        cls, _, text = entry.partition(" ")
        words = cls in ("rate", "value", "label", "twin")
        out[cls].add(_words(text) if words else (" ".join(text.lower().split()),))
    return {cls: frozenset(entries) for cls, entries in out.items()}


@lru_cache(maxsize=8192)
def _words(text: str) -> tuple[str, ...]:
    return tuple(w.lower() for w in _WORD.findall(text[:200]))


@lru_cache(maxsize=8192)
def has(text: str, cls: str) -> bool:
    """Whether ``text`` holds an entry of ``cls`` as whole consecutive words."""
    words = _words(text)
    return any(words[i:i + len(e)] == e for e in _vocabulary().get(cls, ()) for i in range(len(words)))


def is_word(text: str, cls: str) -> bool:
    """Whether ``text`` is, as a whole, an entry of ``cls`` ("series_id": a label key)."""
    return _words(text) in _vocabulary().get(cls, ())


@lru_cache(maxsize=4096)
def unit_of_text(text: str) -> str:
    """What a unit field's text says: POINTS, FRACTION, BASIS, neutral or plain."""
    t = " ".join(text.lower().split())
    for cls, name in (("basis", BASIS), ("points", POINTS), ("fraction", FRACTION), ("neutral", NEUTRAL)):
        if (t,) in _vocabulary().get(cls, ()):
            return name
    if not t:
        return NEUTRAL
    return POINTS if t.split(" ", 1)[0] in ("%", "percent", "percentage", "pct") else PLAIN


@lru_cache(maxsize=8192)
def is_percent_key(key: str) -> bool:
    """Whether a key says its figures are percentages by its pattern (change_pct, yield,
    spread_bp): such figures are indexed as over 100 too."""
    return PERCENT_KEY.search(key) is not None


@lru_cache(maxsize=8192)
def key_class(key: str) -> str | None:
    """What a key says of its figures: POINTS (change_pct), BASIS (spread_bp), RATE (a
    rate word of PERCENT_KEY: yield), LISTED (one of the word list only: coupon, ytm), None."""
    if _BASIS_KEY.search(key):
        return BASIS
    if _POINTS_KEY.search(key):
        return POINTS
    return RATE if PERCENT_KEY.search(key) else LISTED if has(key, "rate") else None


def fractions(values: list[Decimal]) -> bool:
    """Figures of a fraction: all within ±1, one written to four decimals or more."""
    nonzero = [v for v in values if v]
    return bool(nonzero) and all(abs(v) <= ONE for v in nonzero) and any(
        int(v.normalize().as_tuple().exponent) <= -4 for v in nonzero)
