"""Multiples: ``2.5x``, ``12×`` (EV/EBITDA of 12x, a 2.5x return). "3 times" is not
read as a multiple: it is a count as often as a ratio.

>>> parse("2.5x").number.value
Decimal('2.5')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from . import numbers
from ._errors import NormalizeError, require_text
from ._text import WORD_END, fold

KIND = "multiplier"

UNIT_PATTERN = rf"(?P<mult>[xX×]{WORD_END})"


@dataclass(frozen=True, slots=True)
class ParsedMultiplier:
    """A multiple, with the number as written."""

    raw: str
    number: numbers.ParsedNumber


@lru_cache(maxsize=64)
def _full(locale: str) -> re.Pattern[str]:
    return re.compile(rf"\s*{numbers.pattern(locale)}{UNIT_PATTERN}\s*", re.VERBOSE)


def parse(text: str, locale: str = "en_US") -> ParsedMultiplier:
    """Read ``text`` as a multiple."""
    text = require_text(KIND, text)
    m = _full(locale).fullmatch(fold(text))
    if m is None:
        raise NormalizeError(KIND, text, "not a multiple such as '2.5x'")
    return ParsedMultiplier(text, numbers.from_groups(text, m.groupdict(), locale))


def is_valid(text: object, locale: str = "en_US") -> bool:
    """Whether ``text`` reads as a multiple. Never raises."""
    try:
        parse(text, locale)  # type: ignore[arg-type]
    except NormalizeError:
        return False
    return True


def canonical_forms(value: ParsedMultiplier) -> tuple[Decimal, ...]:
    """A multiple is stored as its plain number."""
    return (value.number.value,)
