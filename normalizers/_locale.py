"""Number symbols of a locale, read from Babel's CLDR data and cached."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from babel import Locale, UnknownLocaleError

from ._errors import NormalizeError
from ._text import APOSTROPHES, SPACE_SEPARATORS

#: Locales the project tests on every run; any CLDR locale works.
SUPPORTED_LOCALES = ("en_US", "en_GB", "de_DE", "fr_FR", "de_CH", "en_IN")


@dataclass(frozen=True)
class NumberSymbols:
    """How a locale writes numbers: decimal mark, group mark and group sizes."""

    locale: str
    decimal: str
    group: str
    group_chars: str  # every character accepted as this locale's group mark
    primary: int  # digits in the group next to the decimal mark (3)
    secondary: int  # digits in the other groups (3; 2 in en_IN)


@lru_cache(maxsize=256)
def canonical_locale(locale: object) -> str:
    """``locale`` as Babel names it: "en-US", "en_us" and "EN_us" are "en_US". Raises
    NormalizeError for what is no locale, with the nearest one Babel knows suggested."""
    if not isinstance(locale, str) or not locale.strip():
        raise NormalizeError("locale", repr(locale), "not a locale (try en_US, de_DE, fr_FR)")
    text = locale.strip().replace("-", "_")
    parts = text.split("_")
    guess = "_".join([parts[0].lower(), *[p.upper() if len(p) == 2 else p.title() for p in parts[1:]]])
    try:
        return str(Locale.parse(guess))
    except (UnknownLocaleError, ValueError, TypeError):
        from difflib import get_close_matches

        from babel.localedata import locale_identifiers

        near = get_close_matches(guess, locale_identifiers(), n=1, cutoff=0.6)
        raise NormalizeError("locale", locale, "not a locale Babel knows" + ("" if near else " (try en_US, de_DE, fr_FR)"),
                             near[0] if near else None) from None


@lru_cache(maxsize=64)
def number_symbols(locale: str) -> NumberSymbols:
    """The number symbols of ``locale`` (``en_US``, ``de-CH``, ...)."""
    loc = Locale.parse(canonical_locale(locale))
    symbols = loc.number_symbols.get("latn", loc.number_symbols)
    decimal = symbols["decimal"]
    group = symbols["group"]
    if group in SPACE_SEPARATORS or group == " ":
        # CLDR says U+202F for fr_FR; people type U+00A0 or a plain space.
        group_chars = " " + SPACE_SEPARATORS
    elif group in "'" + APOSTROPHES:
        group_chars = "'" + APOSTROPHES
    else:
        group_chars = group
    primary, secondary = loc.decimal_formats[None].grouping
    return NumberSymbols(str(loc), decimal, group, group_chars, primary, secondary)
