"""Ticker symbols: ``AAPL``, ``$TSLA`` (cashtag), ``NASDAQ:AAPL``, ``BRK.B`` =
``BRK-B`` = ``BRK/B`` (share class), ``VOD.L``, ``RY.TO`` (exchange suffix),
``7203.T``, ``0700.HK`` (numeric Asian codes, which need their suffix).

Which capitalised words are *not* tickers is the stop-lists' business
(``stoplists.ticker_stoplist``); this module only reads and normalises the shape.

>>> parse("$brk/b").symbol
Traceback (most recent call last):
...
verifier.normalizers._errors.NormalizeError: cannot read '$brk/b' as ticker: not a ticker symbol
>>> t = parse("NYSE:BRK-B")
>>> t.symbol, t.exchange, t.base
('BRK.B', 'NYSE', 'BRK')
>>> parse("VOD.L").venue_suffix
'L'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ._errors import NormalizeError, require_text
from ._text import fold

KIND = "ticker"

PATTERN = r"""(?<![\w$&/.\-])(?:
    (?P<tk_cash>\$)(?=[A-Z])
  | (?P<tk_exch>[A-Z]{2,9}):[ ]?
)?
(?P<tk_sym>
    [A-Z]{1,7}(?:[.\-/](?P<tk_suf>[A-Z]{1,3}))?     # AAPL, BRK.B, VOD.L, RY.TO
  | \d{4,6}\.(?P<tk_nsuf>[A-Z]{1,3})                # 7203.T, 0700.HK
)
(?![\w&/]|[.\-][A-Za-z0-9])"""

_FULL = re.compile(rf"\s*{PATTERN}\s*", re.VERBOSE)


@lru_cache(maxsize=1)
def venue_suffixes() -> frozenset[str]:
    """Exchange suffixes (``L``, ``TO``, ``HK``...), from ``exchange_suffixes.txt``."""
    text = resources.files(__package__).joinpath("exchange_suffixes.txt").read_text("utf-8")
    return frozenset(
        line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")
    )


@dataclass(frozen=True, slots=True)
class ParsedTicker:
    """A ticker: ``symbol`` is canonical (class or venue after a dot)."""

    raw: str
    symbol: str  # "BRK.B", "VOD.L", "AAPL"
    exchange: str | None  # "NASDAQ" from "NASDAQ:AAPL"
    cashtag: bool

    @property
    def base(self) -> str:
        """The symbol without its class or venue suffix."""
        return self.symbol.split(".", 1)[0]

    @property
    def venue_suffix(self) -> str | None:
        """The suffix when it names an exchange rather than a share class."""
        if "." not in self.symbol:
            return None
        suffix = self.symbol.split(".", 1)[1]
        return suffix if suffix in venue_suffixes() and not (len(suffix) == 1 and suffix in "ABC") else None


def canonical(symbol: str) -> str:
    """``BRK-B`` / ``BRK/B`` / ``BRK.B`` -> ``BRK.B``; upper case."""
    return re.sub(r"[\-/]", ".", symbol.strip().upper())


def from_groups(raw: str, g: dict[str, str | None]) -> ParsedTicker:
    """Build a ParsedTicker from the named groups of a :data:`PATTERN` match."""
    sym = g["tk_sym"]
    assert sym is not None
    return ParsedTicker(raw, canonical(sym), g.get("tk_exch"), g.get("tk_cash") is not None)


def parse(text: str, locale: str = "en_US") -> ParsedTicker:
    """Read ``text`` as a ticker symbol (``locale`` is accepted for a uniform API)."""
    text = require_text(KIND, text, max_len=40)
    m = _FULL.fullmatch(fold(text))
    if m is None:
        raise NormalizeError(KIND, text, "not a ticker symbol")
    return from_groups(text, m.groupdict())


def is_valid(text: object, locale: str = "en_US") -> bool:
    """Whether ``text`` has the shape of a ticker. Never raises."""
    try:
        parse(text, locale)  # type: ignore[arg-type]
    except NormalizeError:
        return False
    return True


def canonical_forms(value: ParsedTicker) -> tuple[str, ...]:
    """Symbols under which data can support this ticker: the canonical symbol, and the
    base symbol when the suffix is an exchange (``VOD.L`` is ``VOD`` on the LSE)."""
    if value.venue_suffix:
        return (value.symbol, value.base)
    return (value.symbol,)


def same_entity(named: str, owner: str) -> bool:
    """Whether ticker ``named`` names the record of ticker ``owner``: ``VOD.L`` names the
    record of ``VOD``; ``BRK.B`` that of ``BRK-B``."""
    a, b = canonical(named), canonical(owner)
    return a == b or a.split(".", 1)[0] == b.split(".", 1)[0] and "." in (a + b)
