"""Normalizers: one module per kind of value, every module the same small API.

Each module has ``KIND`` and three functions:

- ``parse(text, locale="en_US")`` reads one value and returns a frozen dataclass that
  keeps the raw text beside the parsed value; it raises :class:`NormalizeError` (a
  ``ValueError``) with the input quoted, and nothing else, on any bad input;
- ``is_valid(text, locale="en_US")`` says whether ``parse`` would succeed, never raises;
- ``canonical_forms(value)`` lists the forms the value may take in data (1.4% -> 0.014
  and 1.4), which is what the haystack is searched for.

Modules: numbers, percents, multipliers, amounts, dates, periods, times, tickers,
codes, quotes, ratings. The extractor (``verifier.extract``) composes their ``pattern``s to find values
in running text; the haystack uses the same patterns on strings in the data, so an
answer and its data are read by one set of rules.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Protocol

from . import (
    amounts,
    codes,
    dates,
    multipliers,
    numbers,
    percents,
    periods,
    quotes,
    ratings,
    tickers,
    times,
)
from ._errors import NormalizeError
from ._locale import SUPPORTED_LOCALES, canonical_locale, number_symbols
from ._text import WORD_END, WORD_START, fold

__all__ = [
    "MODULES",
    "SUPPORTED_LOCALES",
    "WORD_END",
    "WORD_START",
    "NormalizeError",
    "Normalizer",
    "amounts",
    "canonical_locale",
    "codes",
    "dates",
    "fold",
    "multipliers",
    "number_symbols",
    "numbers",
    "percents",
    "periods",
    "quotes",
    "ratings",
    "tickers",
    "times",
]


class Normalizer(Protocol):
    """The contract every normalizer module follows."""

    KIND: str

    def parse(self, text: str, locale: str = "en_US") -> Any: ...

    def is_valid(self, text: object, locale: str = "en_US") -> bool: ...

    def canonical_forms(self, value: Any) -> tuple[Any, ...]: ...


#: Every normalizer module, for code (and tests) that treat them uniformly.
MODULES: tuple[ModuleType, ...] = (
    numbers, percents, multipliers, amounts, dates, periods, tickers, codes, quotes, times, ratings,
)
