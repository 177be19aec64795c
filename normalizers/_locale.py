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


@lru_cache(maxsize=64)
def number_symbols(locale: str) -> NumberSymbols:
    """The number symbols of ``locale`` (``en_US``, ``de-CH``, ...)."""
    try:
        loc = Locale.parse(locale.replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError):
        raise NormalizeError("locale", locale, "not a locale Babel knows (try en_US, de_DE, fr_FR)") from None
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
