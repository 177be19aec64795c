"""A mention: one value read from text, with its span and the forms it may take in data;
and the claimed-span bookkeeping the extraction passes share."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

#: Kinds of number-like mentions, for code that treats them alike.
NUMERIC_KINDS = frozenset({"amount", "percent", "basis_points", "percentage_points", "multiplier", "number"})


@dataclass(frozen=True, slots=True)
class NumForm:
    """One value a numeric mention may take in data, and how close a leaf must be to
    round to it at the precision written."""

    value: Decimal
    tolerance: Decimal
    how: str  # "as written", "percent form", "fraction form", "basis points", "unscaled"


@dataclass(frozen=True, slots=True)
class Mention:
    """A value found in text, with its span and the forms to look for in data."""

    kind: str
    text: str
    start: int
    end: int
    value: str | None  # normalized, JSON-safe (see models.Item.value)
    unit: str | None = None
    hedged: bool = False
    explicit_sign: bool = False
    digits: str | None = None  # the number as written, for "exact" comparisons
    num_forms: tuple[NumForm, ...] = ()
    keys: tuple[str, ...] = ()  # lookup keys for dates, periods, tickers, codes, quotes
    integer: int | None = None  # a plain whole number (for counts)
    invalid: str | None = None  # why the value itself is wrong (bad check digit, unreadable)
    stoplisted: bool = False  # a ticker-shaped word on a stop-list: kept only if the data has it
    direction: int = 0  # -1 after "fell", "down"...; +1 after "rose", "up"...; 0 otherwise
    written: Decimal | None = None  # the number as written, signed, before scale or percent
    currencies: tuple[str, ...] = ()  # ISO codes the written currency may stand for ("$": USD, CAD...)
    within_minutes: int | None = None  # a time of day: how far a data timestamp may be from it
    #: a number inside a descriptor ("14-day", "over the past 3 sessions", "T+1", a list
    #: number): no claim; it becomes an item only where it counts the data's records
    descriptor: bool = False

    @property
    def significant_digits(self) -> int:
        """Significant digits of the number as written ("30.34%": 4, "$3": 1); 0 if none."""
        written = self.written if self.written is not None else (self.num_forms[0].value if self.num_forms else 0)
        return len(format(abs(written), "f").replace(".", "").lstrip("0"))


def claim(claimed: bytearray, start: int, end: int) -> None:
    claimed[start:end] = b"\x01" * (end - start)


def is_claimed(claimed: bytearray, start: int, end: int) -> bool:
    return 1 in claimed[start:end]
