"""Extract: answer text -> mentions, each with its kind, span, value and the forms it
may take in data. Driven by the normalizers' patterns and the stop-lists; it never
looks at the haystack (the haystack reads strings in the data with the same
:class:`Extractor`, so an answer and its data follow one set of rules).

Passes run in order, each claiming its spans so a later pass cannot re-read them:
skip phrases (citations, list numbers, index and form names) -> codes -> dates and
periods -> numeric values -> tickers -> leftover digits. Quoted phrases are read on
their own and may overlap other mentions (a number inside a quote is checked twice:
as a number and as part of the phrase).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import lru_cache

from verifier import stoplists
from verifier.normalizers import (
    NormalizeError,
    amounts,
    codes,
    dates,
    fold,
    multipliers,
    numbers,
    percents,
    periods,
    quotes,
    tickers,
)

from .models import decimal_text

#: Kinds of number-like mentions, for code that treats them alike.
NUMERIC_KINDS = frozenset({"amount", "percent", "basis_points", "percentage_points", "multiplier", "number"})

_UNIT_KIND = {"pct": "percent", "bp": "basis_points", "pp": "percentage_points"}
_UNIT_TEXT = {"pct": "%", "bp": "bp", "pp": "pp"}


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


_ARTICLES = frozenset({"a", "an", "the", "of"})
_HEDGE_WORD = re.compile(r"[^\W_]+\.?")


@lru_cache(maxsize=1)
def _hedges() -> tuple[frozenset[str], str, int]:
    """(hedge phrases, hedge signs, most words in a phrase) from ``hedges.txt``."""
    entries = stoplists.load("hedges")
    signs = "".join(e for e in entries if not any(ch.isalnum() for ch in e))
    phrases = frozenset(e.lower() for e in entries if any(ch.isalnum() for ch in e))
    return phrases, signs, max(len(p.split()) for p in phrases)


_CLAUSE_END = re.compile(r"[.;:!?\n]\s")


def direction_of(text: str, start: int) -> int:
    """-1 when a word of falling ("fell", "declined", "loss") stands among the five
    words before ``start`` in the same clause, +1 for a word of rising, else 0."""
    window = text[max(0, start - 50):start]
    cut = [m.end() for m in _CLAUSE_END.finditer(window)]
    if cut:
        window = window[cut[-1]:]
    words = _HEDGE_WORD.findall(window.lower())[-5:]
    table = stoplists.load_pairs("directions")
    for word in reversed(words):
        if word in _LEVEL_WORDS:
            return 0  # "slipped to 74.6%", "down from 75.3%": a level, not a change
        found = table.get(word.rstrip("."))
        if found:
            return -1 if found == "down" else 1
    return 0


#: Words between a direction word and a number that make the number a level.
_LEVEL_WORDS = frozenset({"to", "from", "at"})


def _hedged_tolerance(mantissa: Decimal, tolerance: Decimal) -> Decimal:
    """A whole number's trailing zeros after an approximating hedge are not
    significant: "about 21,300" is 21,345 rounded to hundreds (±50), as "about 21.3
    thousand" is; unhedged, or after a one-sided hedge ("more than 2,000,000"), they are. Two significant digits are kept at least: "about $100" is
    not $142.30 rounded to hundreds."""
    _sign, digits, exponent = mantissa.as_tuple()
    if exponent != 0 or not isinstance(exponent, int) or not any(digits):
        return tolerance
    zeros = min(len(digits) - len("".join(map(str, digits)).rstrip("0")), len(digits) - 2)
    return max(tolerance, Decimal(5).scaleb(zeros - 1)) if zeros > 0 else tolerance


def is_hedged(text: str, start: int) -> bool:
    """Whether a hedge ("about", "roughly", "~") stands just before ``start``."""
    return hedge_before(text, start) is not None


#: Hedges that bound a value on one side ("more than 2,000,000" is not 1,960,000):
#: they do not make a round number's trailing zeros insignificant.
_ONE_SIDED = frozenset({"more than", "less than", "over", "under", "upwards of", "just over", "just under",
                        "just above", "just below", "nearly", "almost"})


def hedge_before(text: str, start: int) -> str | None:
    """The hedge ("about", "more than", "~") standing just before ``start``, or None.

    Word look-ups in a set rather than a regex anchored at the end of the preceding
    text: the regex tried every position of the window and cost ~6 µs a value."""
    window = text[max(0, start - 40):start].rstrip(" \t\u00a0\u202f[-+")
    phrases, signs, longest = _hedges()
    if window and window[-1] in signs:
        return window[-1]
    words = _HEDGE_WORD.findall(window.lower())
    for _ in range(3):  # "about", "about a", "in the region of", "some of the"
        for n in range(1, min(longest, len(words)) + 1):
            phrase = " ".join(words[-n:])
            if phrase in phrases:
                return phrase
        if not words or words[-1] not in _ARTICLES:
            return None
        words.pop()
    return None

#: Fair-value levels and capital tiers ("Level 2 inputs", "Tier 1 capital") are names,
#: not figures, in answers and data alike.
_LEVEL = r"(?<![\w])(?:Level|Tier)[ \t]+[1-3](?![\w.,%])"


@lru_cache(maxsize=1)
def _references() -> re.Pattern[str]:
    """Numbers that cite a part of a document or a standard ("Note 21", "Topic 606",
    "ASU 2017-07", "Section 404(b)"): names, not figures, in answers and data alike."""
    words = "|".join(re.escape(w) for w in sorted(stoplists.load("reference_words"), key=len, reverse=True))
    # the number: a standard's "2016-08", or a short reference "606", "7A", "10b-5",
    # "842-10"; never the start of a longer figure ("Note 4.50%", "Part 2.5 million")
    return re.compile(rf"(?<![\w])(?:{words})[ \t\u00a0]*(?:\d{{4}}-\d{{2,3}}|\d{{1,3}}(?:[A-Za-z]\d*)?(?:[-.]\d+)*)"
                      rf"(?:\([0-9a-z]{{1,3}}\))*(?![\w%]|[.,]\d|[ \t\u00a0\u202f]*(?i:{_UNIT_WORDS})\b)")


#: Words after a number that make it a quantity, not a reference ("Note 25 million").
_UNIT_WORDS = "million|billion|thousand|trillion|percent|per cent|bn|mn|mm|m|k|b|x"


#: Spans whose digits are not values.
_SKIP = re.compile(
    r"""
      \[\^?\d+(?:\s*[,–\-]\s*\^?\d+)*\]          # citation markers [1], [2, 3], [^1]
    | (?m:^[ \t]*\d{1,2}[.)](?=[ \t]))           # list numbering at the start of a line
    | (?<![\w])\d+(?:st|nd|rd|th)(?![\w])        # ordinals
    | (?<=[A-Za-z]-)\d+(?![\w])                  # COVID-19, Win-10
    | """ + _LEVEL + """                           # Level 2, Tier 1
    """,
    re.VERBOSE,
)

@lru_cache(maxsize=1)
def _data_skip() -> re.Pattern[str]:
    """Reference numbers in tool data that are not values: footnote markers glued to a
    label ("Total lease liabilities(1)") or opening a footnote ("(1) During the year
    ended", "2 Includes the value", "Notes: 1 Excludes"), and fair-value levels. Filing
    tables carry these everywhere; read as figures, they "support" any small number an
    answer states."""
    openers = "|".join(sorted(stoplists.load("footnote_openers")))
    return re.compile(
        rf"""
          (?<=[A-Za-z])\(\d{{1,2}}\)(?![\w])                        # label(1)
        | (?:^|(?<=[.;]))[ \t]*\(\d{{1,2}}\)(?=[ \t]+[A-Z][a-z]+[ \t]+[a-z])  # (1) A sentence
        | ^[ \t]*(?:Notes?:[ \t]*)?\d{{1,2}}(?=[ \t]+(?i:{openers})\b)  # 2 Includes ...
        | {_LEVEL}
        """,
        re.VERBOSE,
    )


#: Footnote markers ending a row or column label: "Net income (1)", "2018 (4) (5)".
_LABEL_MARKERS = re.compile(r"(?<=[\w)])[ \t]+\(\d{1,2}\)(?=(?:[ \t]*\(\d{1,2}\))*[ \t]*$)")

_CODE_NAMES = re.compile(r"(?i:\b(ISIN|CUSIP|SEDOL|LEI)\b)[\s:#]*$")

_LEFTOVER = re.compile(r"(?<![\w])[+\-]?\d(?:\d|[.,'’ \u00a0\u202f](?=\d))*(?![\w])")


class Extractor:
    """Reads mentions out of text in one locale. Build with :func:`extractor`."""

    def __init__(self, locale: str, extra_stopwords: tuple[str, ...] = ()):
        self.locale = locale
        self.stopwords = stoplists.ticker_stoplist(extra_stopwords)
        # One pass for every number-like value. Stdlib ``re`` rather than ``regex``:
        # about 2.5x faster on these patterns (benchmarks/latency.py).
        self._numeric = re.compile(
            rf"""
              (?:{amounts.prefix_pattern()})?            # $, EUR, ($ ... ), -$
              (?(cur)|(?<![\w])(?<!\d[.,'’])(?<![A-Za-z]-))
              {numbers.pattern(locale)}
              (?(cur)|(?:{percents.UNIT_PATTERN}|{multipliers.UNIT_PATTERN}|{amounts.suffix_pattern()})?)
              (?![\w])(?![.,'’]\d)
              (?!\.[A-Z]{{1,3}}(?![\w]))                # 7203.T is a ticker, read later
            """,
            re.VERBOSE,
        )
        self._dates = re.compile(
            rf"(?:{dates.pattern(locale)}|{periods.PATTERN})", re.VERBOSE | re.IGNORECASE
        )
        self._tickers = re.compile(tickers.PATTERN, re.VERBOSE)
        self._codes = re.compile(codes.PATTERN, re.VERBOSE)
        self._quotes = re.compile(quotes.PATTERN, re.VERBOSE)
        phrases = sorted(stoplists.not_value_phrases(), key=len, reverse=True)
        self._not_values = re.compile(
            r"(?<![\w])(?:" + "|".join(re.escape(p) for p in phrases) + r")(?![\w])"
        )

    # -- the passes ---------------------------------------------------------------

    def extract(self, text: str, *, years: bool = True, quoted: bool = True,
                data: bool = False, label: bool = False) -> list[Mention]:
        """Every mention in ``text``, in order of position.

        ``data=True`` reads a string from tool data: citation markers, list numbers and
        unreadable digits do not matter there, so those passes are skipped. ``label``
        says the string labels a table's row or column (its first cell, a column
        header): bracketed one- or two-digit numbers ending it are footnote markers
        ("Net income (1)", "2018 (4)"), where in a data string "Net change (12)" is -12.
        """
        folded = fold(text)
        claimed = bytearray(len(text))
        out: list[Mention] = []
        if not data:
            for m in self._not_values.finditer(folded):
                _claim(claimed, m.start(), m.end())
            for m in _SKIP.finditer(folded):
                _claim(claimed, m.start(), m.end())
        elif len(folded) > 6:  # a cell "(1)" alone is an accounting negative
            for m in _data_skip().finditer(folded):
                _claim(claimed, m.start(), m.end())
        has_digit = any(ch.isdigit() for ch in folded)
        if has_digit:
            for m in _references().finditer(folded):
                _claim(claimed, m.start(), m.end())
            if label:
                for m in _LABEL_MARKERS.finditer(folded):
                    _claim(claimed, m.start(), m.end())
        if quoted and ('"' in folded or "“" in folded or "«" in folded or "'" in folded):
            out.extend(self._quote_mentions(text, folded))
        if has_digit:
            out.extend(self._code_mentions(text, folded, claimed))
        out.extend(self._date_mentions(text, folded, claimed, has_digit))
        if has_digit:
            out.extend(self._numeric_mentions(text, folded, claimed, years))
        out.extend(self._ticker_mentions(text, folded, claimed))
        if has_digit and not data:
            out.extend(self._leftover_mentions(text, folded, claimed))
        out.sort(key=lambda mention: (mention.start, -mention.end))
        return out

    def as_number(self, text: str) -> Mention | None:
        """``text`` read as one plain number, with no year rule ("2063" is 2063, not
        the year); None when it is not one number."""
        m = self._numeric.fullmatch(fold(text))
        if m is None:
            return None
        mention = self._numeric_mention(text, m)
        return mention if mention.kind == "number" and not mention.invalid else None

    def _quote_mentions(self, text: str, folded: str) -> Iterator[Mention]:
        for m in self._quotes.finditer(folded):
            phrase = next(v for v in m.groupdict().values() if v is not None)
            key = quotes.normalize(phrase)
            if not any(ch.isalnum() for ch in key):
                continue
            yield Mention("quote", text[m.start():m.end()], m.start(), m.end(), key, keys=(key,))

    def _code_mentions(self, text: str, folded: str, claimed: bytearray) -> Iterator[Mention]:
        for m in self._codes.finditer(folded):
            if _is_claimed(claimed, m.start(), m.end()):
                continue
            code = codes.from_groups(text[m.start():m.end()], m.groupdict())
            named = _CODE_NAMES.search(folded, 0, m.start()) is not None
            if code.scheme in ("cusip", "sedol", "lei") and not named and (
                not code.valid or code.code.isdigit()
            ):
                continue  # ordinary alphanumerics or a plain number, not a code
            if code.scheme == "isin" and not (code.valid or named or code.code[:2] in _isin_prefixes()):
                continue
            _claim(claimed, m.start(), m.end())
            invalid = None if code.valid else f"{code.scheme.upper()} check digit does not match"
            yield Mention(
                "code", code.raw, m.start(), m.end(), code.code, unit=code.scheme,
                keys=(code.code,), invalid=invalid,
            )

    def _date_mentions(
        self, text: str, folded: str, claimed: bytearray, has_digit: bool
    ) -> Iterator[Mention]:
        if not has_digit and "half" not in folded and "quarter" not in folded:
            return
        for m in self._dates.finditer(folded):
            if _is_claimed(claimed, m.start(), m.end()):
                continue
            raw = text[m.start():m.end()]
            g = m.groupdict()
            try:
                if any(g.get(k) for k in ("q1", "q2", "q3", "q4", "h1", "h2", "h3", "fy1", "fy2")):
                    period = periods.from_groups(raw, g)
                    if period.year is None:  # "Q3", "the second half": no year, nothing to check
                        _claim(claimed, m.start(), m.end())
                        continue
                    mention = Mention("period", raw, m.start(), m.end(), period.key,
                                      keys=periods.canonical_forms(period))
                else:
                    day = dates.from_groups(raw, g, self.locale)
                    mention = Mention("date", raw, m.start(), m.end(), day.key, keys=(day.key,))
            except NormalizeError as exc:
                mention = Mention("date", raw, m.start(), m.end(), None, invalid=exc.reason)
            _claim(claimed, m.start(), m.end())
            yield mention

    def _numeric_mentions(
        self, text: str, folded: str, claimed: bytearray, years: bool
    ) -> Iterator[Mention]:
        for m in self._numeric.finditer(folded):
            if _is_claimed(claimed, m.start(), m.end()):
                continue
            _claim(claimed, m.start(), m.end())
            mention = self._numeric_mention(text, m)
            if mention.kind == "number" and mention.integer is not None and _is_year(m):
                if not years:
                    continue
                mention = Mention("date", mention.text, mention.start, mention.end,
                                  str(mention.integer), keys=(str(mention.integer),))
            yield mention

    def _numeric_mention(self, text: str, m: re.Match[str]) -> Mention:
        raw = text[m.start():m.end()]
        g = m.groupdict()
        hedge = hedge_before(text, m.start())
        hedged = hedge is not None
        direction = direction_of(text, m.start())
        try:
            if g.get("cur") or g.get("cur_after"):
                amount = amounts.from_groups(raw, g, self.locale)
                mention = self._number_mention("amount", raw, m, amount.number, hedged,
                                               amount.currencies[0] if amount.currencies else amount.symbol,
                                               direction, round_zeros=hedged and hedge not in _ONE_SIDED)
                return replace(mention, currencies=amount.currencies)
            unit = percents.unit_of(g)
            if unit:
                pct = percents.ParsedPercent(raw, numbers.from_groups(raw, g, self.locale), unit)
                return self._percent_mention(raw, m, pct, hedged, direction)
            number = numbers.from_groups(raw, g, self.locale)
            if g.get("mult"):
                return self._number_mention("multiplier", raw, m, number, hedged, "x", direction)
            return self._number_mention("number", raw, m, number, hedged, number.scale_word, direction,
                                        round_zeros=hedged and hedge not in _ONE_SIDED)
        except NormalizeError as exc:
            return Mention("number", raw, m.start(), m.end(), None, hedged=hedged, invalid=exc.reason)

    def _number_mention(
        self, kind: str, raw: str, m: re.Match[str], number: numbers.ParsedNumber,
        hedged: bool, unit: str | None, direction: int = 0, round_zeros: bool = False,
    ) -> Mention:
        tol = number.tolerance
        if round_zeros and number.scale == 1:  # ("about 110 million" says its precision with its scale word)
            tol = _hedged_tolerance(number.mantissa, tol)
        forms = [NumForm(number.value, tol, "as written")]
        if number.scale != 1:
            forms.append(NumForm(number.mantissa, numbers.CONTEXT.divide(tol, number.scale), "unscaled"))
        integer = None
        if kind == "number" and number.scale == 1 and not number.explicit_sign:
            exponent = number.mantissa.as_tuple().exponent
            if exponent == 0:
                integer = int(number.mantissa)
        return Mention(
            kind, raw, m.start(), m.end(), decimal_text(number.value), unit=unit, hedged=hedged,
            explicit_sign=number.explicit_sign, digits=_digits(m), num_forms=tuple(forms),
            integer=integer, direction=direction, written=number.mantissa,
        )

    def _percent_mention(
        self, raw: str, m: re.Match[str], pct: percents.ParsedPercent, hedged: bool,
        direction: int = 0,
    ) -> Mention:
        number = pct.number
        frac, frac_tol = pct.fraction, pct.fraction_tolerance
        forms = [NumForm(frac, frac_tol, "fraction form")]
        percent_value = numbers.CONTEXT.multiply(frac, 100)
        forms.append(NumForm(percent_value, numbers.CONTEXT.multiply(frac_tol, 100), "percent form"))
        if pct.unit == "bp":
            forms.append(NumForm(number.value, number.tolerance, "basis points"))
        return Mention(
            _UNIT_KIND[pct.unit], raw, m.start(), m.end(), decimal_text(frac),
            unit=_UNIT_TEXT[pct.unit], hedged=hedged, explicit_sign=number.explicit_sign,
            digits=_digits(m), num_forms=tuple(forms), direction=direction, written=number.mantissa,
        )

    def _ticker_mentions(self, text: str, folded: str, claimed: bytearray) -> Iterator[Mention]:
        for m in self._tickers.finditer(folded):
            if _is_claimed(claimed, m.start(), m.end()):
                continue
            ticker = tickers.from_groups(text[m.start():m.end()], m.groupdict())
            marked = ticker.cashtag or ticker.exchange is not None
            stop = not marked and (ticker.symbol in self.stopwords or ticker.base in self.stopwords
                                   or m.group("tk_sym") in self.stopwords)
            if not marked and len(ticker.base) == 1 and not ticker.venue_suffix and "." not in ticker.symbol:
                stop = True  # single capitals are initials and pronouns far more often
            _claim(claimed, m.start(), m.end())
            yield Mention(
                "ticker", ticker.raw, m.start(), m.end(), ticker.symbol,
                unit=ticker.exchange, keys=tickers.canonical_forms(ticker), stoplisted=stop,
                digits=m.group("tk_sym"),
            )

    def ticker_symbols(self, text: str) -> list[str]:
        """Canonical symbols of the ticker-shaped words in ``text`` (stop-listed ones
        too: in data they are real symbols). The fast path for text without digits."""
        return [tickers.canonical(m.group("tk_sym")) for m in self._tickers.finditer(text)]

    def _leftover_mentions(self, text: str, folded: str, claimed: bytearray) -> Iterator[Mention]:
        for m in _LEFTOVER.finditer(folded):
            if _is_claimed(claimed, m.start(), m.end()):
                continue
            raw = text[m.start():m.end()].rstrip()
            _claim(claimed, m.start(), m.end())
            yield Mention(
                "number", raw, m.start(), m.start() + len(raw), None,
                invalid=f"cannot read {raw!r} as a number in locale {self.locale}",
            )


@lru_cache(maxsize=32)
def extractor(locale: str = "en_US", extra_stopwords: tuple[str, ...] = ()) -> Extractor:
    """The (cached) extractor for ``locale`` and a set of extra stop-words."""
    return Extractor(locale, extra_stopwords)


def extract(text: str, locale: str = "en_US", **options: bool) -> list[Mention]:
    """Every mention in ``text`` (see :meth:`Extractor.extract`)."""
    return extractor(locale).extract(text, **options)


@lru_cache(maxsize=1)
def _isin_prefixes() -> frozenset[str]:
    from babel import Locale

    territories: list[str] = [str(t) for t in Locale.parse("en").territories]
    return frozenset(t for t in territories if len(t) == 2 and t.isalpha()) | {"XS", "EU", "QS"}


def _claim(claimed: bytearray, start: int, end: int) -> None:
    claimed[start:end] = b"\x01" * (end - start)


def _is_claimed(claimed: bytearray, start: int, end: int) -> bool:
    return 1 in claimed[start:end]


def _digits(m: re.Match[str]) -> str:
    """The number as written, sign included, without currency, unit or scale."""
    sign = "-" if (m.group("sign") == "-" or m.group("open")) else ""
    return sign + (m.group("num") or "")


def _is_year(m: re.Match[str]) -> bool:
    num = m.group("num") or ""
    return (
        len(num) == 4 and num.isdigit() and dates.YEAR_MIN <= int(num) <= dates.YEAR_MAX
        and not m.group("scale") and not m.group("scale_after") and not m.group("sign")
        and not m.group("open")
    )
