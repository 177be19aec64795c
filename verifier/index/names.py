"""Company names in the data: the first significant word of each record's name field,
mapped to the record's ticker ("Microsoft Corporation" -> ``microsoft``: MSFT). The
attribution and question stages use it to read "Microsoft slipped 0.4%" as MSFT's."""

from __future__ import annotations

import regex

from verifier import stoplists

from .haystack import Haystack
from .memo import PerHaystack

NAME_KEYS = frozenset({"name", "company", "company_name", "companyname", "longname", "shortname",
                       "issuer", "security_name", "display_name"})
#: Words that do not name a company on their own ("The Coca-Cola Company": coca-cola;
#: stoplists/company_suffixes.txt).
SUFFIXES = stoplists.load("company_suffixes")
_WORD = regex.compile(r"[\p{L}&'’-]+")
#: Most names a haystack contributes (a huge screener need not make a huge pattern).
MAX_NAMES = 2_000

_NAMES: PerHaystack[dict[str, str]] = PerHaystack("names.tickers")
_PATTERNS: PerHaystack[regex.Pattern[str] | None] = PerHaystack("names.pattern")


def names(hay: Haystack) -> dict[str, str]:
    """First significant word of each record's name (lower case) -> its ticker."""
    found = _NAMES.get(hay)
    if found is None:
        found = {}
        for leaf, entry in enumerate(hay.leaves):
            if len(found) >= MAX_NAMES:
                break
            if entry.key and entry.key.lower() in NAME_KEYS and hay.is_string(leaf):
                ticker = hay.entity_of(leaf)
                words = [w for w in _WORD.findall(entry.raw) if w.lower() not in SUFFIXES]
                if ticker and words:
                    found.setdefault(words[0].lower(), ticker)
        found = _NAMES.setdefault(hay, found)
    return found


def name_mentions(hay: Haystack, text: str) -> list[tuple[int, str]]:
    """(offset, ticker) where ``text`` names a company of the data by its name, in order."""
    if hay not in _PATTERNS and text.isascii() and _none_inside(names(hay), text.lower()):
        # Compiling the haystack's name pattern costs about 2 ms; most texts name no company
        # of the data, and for ASCII text and names a case-insensitive match implies a
        # lower-case substring, so no substring means no match.
        return []
    if hay not in _PATTERNS:
        words = sorted(names(hay), key=len, reverse=True)
        _PATTERNS.setdefault(hay, regex.compile(
            r"(?<![\p{L}\p{N}])(?:" + "|".join(regex.escape(w) for w in words) + r")(?![\p{L}\p{N}])",
            regex.IGNORECASE) if words else None)
    pattern = _PATTERNS[hay]
    if pattern is None:
        return []
    table = names(hay)
    return [(m.start(), table[m.group().lower()]) for m in pattern.finditer(text)]


def _none_inside(table: dict[str, str], lowered: str) -> bool:
    """Whether no name of ``table`` (all ASCII) occurs anywhere in ``lowered``."""
    return all(word.isascii() and word not in lowered for word in table)
