"""Money amounts: a number with a currency symbol or ISO 4217 code before or after it.

``$142.30``, ``US$5m``, ``EUR 2.1bn``, ``1.234,56 €`` (de_DE), ``CHF 1'234.50``,
``₹12,34,567``, ``-$5m``, ``£3.4 million``, ``500 dollars``. Parentheses around an
amount with a currency (``revenue of $2,137.4 million ($2.1bn)``) are read as an
aside, not a negative: in prose that is what they nearly always are; a bare
``(1,234)`` stays an accounting negative (see :mod:`normalizers.numbers`).

Symbols and codes come from Babel's CLDR data (every currency Babel lists, with its
symbol in a set of locales that covers the usual markets), not a hand-typed table; that
part is computed at build time into ``currency_symbols.json`` (:mod:`.currency_data`).

>>> a = parse("$2.1bn")
>>> a.number.value, a.currencies[0]
(Decimal('2.1E+9'), 'USD')
>>> parse("1.234,56 €", "de_DE").number.value
Decimal('1234.56')
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from . import currency_data, numbers
from ._errors import NormalizeError, require_text
from ._text import WORD_END, WORD_START, fold
from .currency_data import data_lines

KIND = "amount"

@lru_cache(maxsize=1)
def symbol_table() -> dict[str, tuple[str, ...]]:
    """Currency symbol or code -> ISO codes it may stand for (``$`` -> USD, CAD, ...)."""
    table: dict[str, set[str]] = defaultdict(set)
    # Babel's codes, symbols and currency-name endings, computed at build time
    # (see currency_data: reading them from Babel cost the first call ~0.2 s)
    for symbol, codes in currency_data.table().items():
        table[symbol].update(codes)
    for word, codes in data_lines("currency_words.txt"):
        table[word].update(codes)
    for unit in minor_units().values():
        for word in (*unit.words, *unit.attached):
            table[word].add(unit.code)
    # "$" is ambiguous but in an answer without other context it means US dollars first.
    ordered = {sym: tuple(sorted(codes, key=lambda c: (c != "USD", c))) for sym, codes in table.items()}
    return ordered


@dataclass(frozen=True, slots=True)
class MinorUnit:
    """A hundredth of a currency (pence, cents), as quote feeds state it ("GBp") and
    people write it ("72.36p", "50 cents")."""

    code: str  # "GBp"
    major: str  # "GBP"
    aliases: tuple[str, ...]  # other codes feeds use for it ("GBX")
    words: tuple[str, ...]  # written after a number, with or without a space ("pence")
    attached: tuple[str, ...]  # written directly after the digits only ("p")


@lru_cache(maxsize=1)
def minor_units() -> dict[str, MinorUnit]:
    """Sub-unit code -> :class:`MinorUnit`, from ``minor_units.txt``."""
    out = {}
    for code, (major, *rest) in data_lines("minor_units.txt"):
        attached = tuple(t.removesuffix("=attached") for t in rest if t.endswith("=attached"))
        aliases = tuple(t for t in rest if len(t) == 3 and t.isupper())
        words = tuple(t for t in rest if not t.endswith("=attached") and t not in aliases)
        out[code] = MinorUnit(code, major, aliases, words, attached)
    return out


def currency_code(written: str) -> str | None:
    """A currency code as data states it, canonical: "usd" -> "USD"; a sub-unit code,
    case kept ("GBp", "GBX" -> "GBp"; "GBP" is pounds); None when it is no code."""
    code = written.strip()
    for unit in minor_units().values():
        if code == unit.code or code in unit.aliases:
            return unit.code
    code = code.upper()
    return code if len(code) == 3 and code.isalpha() else None


def counterparts(code: str) -> list[tuple[str, Decimal]]:
    """(other unit, factor) pairs for a currency with a sub-unit: pence for pounds
    (x100), pounds for pence (x0.01); empty for others."""
    units = minor_units()
    if code in units:
        return [(units[code].major, Decimal("0.01"))]
    return [(u.code, Decimal(100)) for u in units.values() if u.major == code]


@lru_cache(maxsize=1)
def _symbol_alternation() -> tuple[str, str, str]:
    """(prefix, suffix, attached-suffix alternations) of symbols, longest first."""
    glued = {a for u in minor_units().values() for a in u.attached}
    symbols = sorted(symbol_table(), key=len, reverse=True)
    signs = [s for s in symbols if not s.isalpha() and s not in glued]
    codes = [s for s in symbols if s.isalpha() and s.isupper() and s not in glued]
    words = [s for s in symbols if s.isalpha() and not s.isupper() and s not in glued]
    prefix = "|".join(re.escape(s) for s in signs + codes)
    suffix = "|".join(re.escape(s) for s in signs + codes + words)
    attached = "|".join(re.escape(s) for s in sorted(glued, key=len, reverse=True))
    return prefix, suffix, attached


@lru_cache(maxsize=1)
def prefix_pattern() -> str:
    """Regex source for a currency before the number (group ``cur``)."""
    prefix, _, _ = _symbol_alternation()
    # a code needs a space or nothing, a symbol may be glued: "$5", "EUR 5", "EUR5"
    return rf"""{WORD_START}(?<![$€£¥₹])
        (?P<sign0>[+\-])?                    # -$5m
        (?P<cur>{prefix})[{numbers.SPACES}]{{0,3}}"""    # "$  1,452.4" as tables print it


@lru_cache(maxsize=1)
def suffix_pattern() -> str:
    """Regex source for a currency after the number (group ``cur_after``): "500 dollars",
    "2,845.5円", "1.234,56 €", or a sub-unit sign glued to the digits ("72.36p")."""
    _, suffix, attached = _symbol_alternation()
    return rf"(?:[{numbers.SPACES}]?(?P<cur_after>{suffix})|(?P<cur_glued>{attached})){WORD_END}"


@dataclass(frozen=True, slots=True)
class ParsedAmount:
    """A money amount: the number and the currency as written."""

    raw: str
    number: numbers.ParsedNumber
    symbol: str

    @property
    def currencies(self) -> tuple[str, ...]:
        """ISO codes the written symbol may stand for, most likely first."""
        return symbol_table().get(self.symbol, ())


@lru_cache(maxsize=64)
def _full(locale: str) -> re.Pattern[str]:
    return re.compile(
        rf"""\s*(?:{prefix_pattern()})?{numbers.pattern(locale)}
        (?(cur)|{suffix_pattern()})\s*""",
        re.VERBOSE,
    )


def from_groups(raw: str, groups: dict[str, str | None], locale: str) -> ParsedAmount:
    """Build a ParsedAmount from the named groups of a match holding ``cur`` or
    ``cur_after``; a sign before the symbol (``-$5``) counts as the number's sign."""
    number = numbers.from_groups(raw, groups, locale)
    if groups.get("sign0") == "-" and number.mantissa > 0:
        number = numbers.ParsedNumber(raw, -number.mantissa, number.scale, number.scale_word, True)
    symbol = groups.get("cur") or groups.get("cur_after") or groups.get("cur_glued")
    assert symbol is not None
    return ParsedAmount(raw, number, symbol)


def parse(text: str, locale: str = "en_US") -> ParsedAmount:
    """Read ``text`` as an amount of money."""
    text = require_text(KIND, text)
    m = _full(locale).fullmatch(fold(text))
    if m is None:
        raise NormalizeError(KIND, text, f"not an amount with a currency in locale {locale}")
    return from_groups(text, m.groupdict(), locale)


def is_valid(text: object, locale: str = "en_US") -> bool:
    """Whether ``text`` reads as an amount of money. Never raises."""
    try:
        parse(text, locale)  # type: ignore[arg-type]
    except NormalizeError:
        return False
    return True


def canonical_forms(value: ParsedAmount) -> tuple[Decimal, ...]:
    """The values this amount may take in data (see numbers.canonical_forms)."""
    return numbers.canonical_forms(value.number)
