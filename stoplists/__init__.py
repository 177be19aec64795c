"""Word lists kept as data files, and a tiny cached loader.

Each ``*.txt`` file here holds one entry a line; ``#`` starts a comment and blank
lines are ignored. Every file says where its entries came from in its header.

- ``finance_acronyms.txt``, ``exchanges.txt``, ``common_words.txt``: capitalised
  tokens that look like tickers but are not.
- ``filing_forms.txt``: regulatory form names (``10-K``) whose digits are not values.
- ``generic_figure_words.txt``: boilerplate of running text ("the Company",
  "million") that says nothing about what a figure is.
- ``reference_words.txt``: words that cite a numbered part of a document or a
  standard (``Note 21``, ``ASU 2017-07``): the number after them is no value.
- ``indices.txt``: index names (``S&P 500``): their capitals are not tickers and their
  numbers are not values.
- ``hedges.txt``: words that mark a value as rounded on purpose.
- ``directions.txt``: words that give a value a direction (``fell``: down), as
  ``word  down|up`` pairs; read with :func:`load_pairs`.
- The other lists are each read by one module, which their header names (words that
  make a number a level or a year, company-name suffixes, stems of estimate and metric
  words, question openers, ...).

Currency codes are not kept here: they come from Babel's CLDR data
(``babel.numbers.list_currencies``), so they stay current with Babel.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path

__all__ = [
    "NOT_VALUE_LISTS",
    "TICKER_LISTS",
    "currency_codes",
    "load",
    "load_file",
    "load_pairs",
    "not_value_phrases",
    "ticker_stoplist",
]

#: The lists whose entries are never tickers.
TICKER_LISTS = ("finance_acronyms", "exchanges", "common_words", "indices")

#: Phrases whose digits are not values: index names and regulatory form names.
NOT_VALUE_LISTS = ("indices", "filing_forms")


def _parse(text: str) -> frozenset[str]:
    entries = set()
    for line in text.splitlines():
        entry = line.split(" #", 1)[0].strip() if not line.startswith("#") else ""
        if entry:
            entries.add(entry)
    return frozenset(entries)


@cache
def load(name: str) -> frozenset[str]:
    """The entries of the bundled list ``name`` (file name without ``.txt``)."""
    try:
        text = resources.files(__package__).joinpath(f"{name}.txt").read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"no bundled stop-list named {name!r}; have {sorted(_bundled())}") from None
    return _parse(text)


@cache
def word_pattern(name: str) -> re.Pattern[str]:
    """The entries of the bundled list ``name`` as one case-insensitive pattern of whole
    words or phrases, longest first (so "DBRS Morningstar" wins over "DBRS")."""
    words = sorted(load(name), key=len, reverse=True)
    return re.compile(r"(?i)(?<!\w)(?:" + "|".join(re.escape(w) for w in words) + r")(?!\w)")


def load_file(path: str | Path) -> frozenset[str]:
    """The entries of a user's own list file, in the same format as the bundled ones."""
    return _parse(Path(path).read_text(encoding="utf-8"))


def _bundled() -> list[str]:
    return [p.name[:-4] for p in resources.files(__package__).iterdir() if p.name.endswith(".txt")]


@cache
def currency_codes() -> frozenset[str]:
    """ISO 4217 codes known to Babel (CLDR), e.g. ``USD``, ``EUR``, ``CHF``."""
    from babel.numbers import list_currencies

    return frozenset(list_currencies())


@cache
def _default_ticker_stoplist() -> frozenset[str]:
    words: set[str] = set(currency_codes())
    for name in TICKER_LISTS:
        words |= load(name)
    return frozenset(words)


def ticker_stoplist(extra: Iterable[str] = ()) -> frozenset[str]:
    """Every token that must not be taken for a ticker, plus the caller's ``extra``."""
    base = _default_ticker_stoplist()
    extra = frozenset(extra)
    return base | extra if extra else base


@cache
def load_pairs(name: str) -> dict[str, str]:
    """A bundled list of ``word  value`` lines as a mapping (words lower-cased)."""
    return {
        parts[0].lower(): parts[1]
        for parts in (entry.split() for entry in load(name))
        if len(parts) == 2
    }


@cache
def not_value_phrases() -> frozenset[str]:
    """Phrases whose digits must not be read as values (``S&P 500``, ``10-K``)."""
    phrases: set[str] = set()
    for name in NOT_VALUE_LISTS:
        phrases |= {p for p in load(name) if any(ch.isdigit() for ch in p)}
    return frozenset(phrases)
