"""Percentages, basis points and percentage points: ``1.4%``, ``-3.2 percent``,
``12,5 %`` (fr_FR), ``25 bp``, ``25 basis points``, ``1.5pp``, ``2 percentage points``.

A percent and a percentage point are different claims (a rate of 4% that rose 2 points
is now 6%, not 4.08%), so the unit is kept. ``fraction`` is the value as a fraction of
one: 1.4% -> 0.014, 25 bp -> 0.0025, 2 pp -> 0.02.

>>> parse("1.4%").fraction
Decimal('0.014')
>>> parse("25 bps").fraction
Decimal('0.0025')
>>> parse("2 percentage points").unit
'pp'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from . import numbers
from ._errors import NormalizeError, require_text
from ._text import WORD_END, fold

KIND = "percent"

_SP = f"[{numbers.SPACES}]?"

#: Unit suffixes; percentage points come first so "% points" is not read as "%". The
#: words in German, French, Spanish and Italian follow the English ones.
UNIT_PATTERN = rf"""(?:
      (?P<pp>{_SP}(?:percentage[ ]points?|%[ ]?points?|ppts?|pps|pp
                  |Prozentpunkte?n?|points?[ ]de[ ]pourcentage|puntos?[ ]porcentuales?
                  |punt[oi][ ]percentual[ei]){WORD_END})
    | (?P<bp>{_SP}(?:basis[ ]points?|bps|bp|bips|bip
                  |Basispunkte?n?|points?[ ]de[ ]base|puntos?[ ]básicos?|punt[oi][ ]base){WORD_END})
    | (?P<pct>{_SP}%|[ ](?:percent|per[ ]cent|pct|Prozent|pour[ ]cent|por[ ]ciento|per[ ]cento){WORD_END})
)"""

_UNIT_DIVISOR = {"pct": Decimal(100), "bp": Decimal(10000), "pp": Decimal(100)}


@dataclass(frozen=True, slots=True)
class ParsedPercent:
    """A percentage-like value: the number as written and its unit."""

    raw: str
    number: numbers.ParsedNumber
    unit: str  # "pct", "bp" or "pp"

    @property
    def fraction(self) -> Decimal:
        """The value as a fraction of one (1.4% -> 0.014)."""
        return numbers.CONTEXT.divide(self.number.value, _UNIT_DIVISOR[self.unit])

    @property
    def fraction_tolerance(self) -> Decimal:
        """Half a unit of the last digit written, as a fraction of one."""
        return numbers.CONTEXT.divide(self.number.tolerance, _UNIT_DIVISOR[self.unit])


@lru_cache(maxsize=64)
def _full(locale: str) -> re.Pattern[str]:
    return re.compile(rf"\s*{numbers.pattern(locale)}{UNIT_PATTERN}\s*", re.VERBOSE)


def unit_of(groups: dict[str, str | None]) -> str | None:
    """Which unit group of :data:`UNIT_PATTERN` matched, if any."""
    for unit in ("pp", "bp", "pct"):
        if groups.get(unit) is not None:
            return unit
    return None


def parse(text: str, locale: str = "en_US") -> ParsedPercent:
    """Read ``text`` as a percent, basis points or percentage points."""
    text = require_text(KIND, text)
    m = _full(locale).fullmatch(fold(text))
    if m is None:
        raise NormalizeError(KIND, text, f"not a percentage in locale {locale}")
    groups = m.groupdict()
    unit = unit_of(groups)
    assert unit is not None
    return ParsedPercent(text, numbers.from_groups(text, groups, locale), unit)


def is_valid(text: object, locale: str = "en_US") -> bool:
    """Whether ``text`` reads as a percentage-like value. Never raises."""
    try:
        parse(text, locale)  # type: ignore[arg-type]
    except NormalizeError:
        return False
    return True


def canonical_forms(value: ParsedPercent) -> tuple[Decimal, ...]:
    """The values this may take in data: as a fraction (0.014), in percent (1.4),
    and for basis points the count of points itself (25)."""
    percent = numbers.CONTEXT.divide(value.fraction * 100, 1)
    forms = [value.fraction, percent]
    if value.unit == "bp":
        forms.append(value.number.value)
    return tuple(dict.fromkeys(forms))
