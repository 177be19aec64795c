"""The Extractor: text -> mentions, pass by pass, each pass claiming its spans so a
later pass cannot re-read them: skip phrases (:mod:`.skips`) -> codes -> credit
ratings (:mod:`.ratings`) -> dates and
periods -> times of day (:mod:`.times`) -> descriptors (windows, tenors:
:mod:`verifier.extract.descriptors`) -> numeric values -> tickers -> leftover digits. Quoted
phrases are read on their own and may overlap other mentions."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from dataclasses import replace
from functools import lru_cache

from verifier import stoplists
from verifier.normalizers import (
    WORD_END,
    WORD_START,
    NormalizeError,
    amounts,
    canonical_locale,
    codes,
    dates,
    fold,
    multipliers,
    numbers,
    percents,
    periods,
    quotes,
    tickers,
    times,
)

from ..deadline import check as check_deadline
from ..models import decimal_text
from ..text import acronyms
from . import descriptors
from .hedges import ONE_SIDED, direction_of, hedge_before, hedged_tolerance
from .lookback import run_start
from .mention import Mention, NumForm, claim, is_claimed
from .ratings import rating_mentions
from .skips import LABEL_MARKERS, SKIP, data_skip, references
from .tables import Headers
from .times import time_mentions

_UNIT_KIND = {"pct": "percent", "bp": "basis_points", "pp": "percentage_points"}
_UNIT_TEXT = {"pct": "%", "bp": "bp", "pp": "pp"}

_CODE_NAMES = re.compile(r"(?i:\b(ISIN|CUSIP|SEDOL|LEI)\b)[\s:#]*$")

#: A dash as the folded text has it (every minus sign is folded to "-").
_DASHES = "-"
#: The last character of a figure: a digit or a percent sign (not a letter: "Δ-0.52%").
_FIGURE_END = re.compile(r"[\d%‰]")
_LEFTOVER = re.compile(r"(?<![\w])[+\-]?\d(?:\d|[.,'’ \u00a0\u202f](?=\d))*(?![\w])")

#: Texts this long or longer have their mentions kept (:meth:`Extractor.extract`); the
#: last :data:`LONG_KEPT` of them.
LONG_TEXT = 4096
LONG_KEPT = 4


class Extractor:
    """Reads mentions out of text in one locale. Build with :func:`extractor`."""

    def __init__(self, locale: str, extra_stopwords: tuple[str, ...] = ()):
        self.locale = locale
        # time-zone abbreviations ("ET", "MEZ") name a zone before they name a ticker
        self.stopwords = stoplists.ticker_stoplist(extra_stopwords) | frozenset(times.zones())
        # One pass for every number-like value. Stdlib ``re`` rather than ``regex``:
        # about 2.5x faster on these patterns (benchmarks/latency.py).
        self._numeric = re.compile(
            rf"""
              (?:{amounts.prefix_pattern()})?            # $, EUR, ($ ... ), -$
              (?(cur)|{WORD_START}(?<!\d[.,'’])(?<![A-Za-z]-))  # a letter of a spaced script glues; 年 does not
              {numbers.pattern(locale)}
              (?(cur)|(?:{percents.UNIT_PATTERN}|{multipliers.UNIT_PATTERN}|{amounts.suffix_pattern()})?)
              {WORD_END}(?![.,'’]\d)                   # "72.36p" and "2,845.5円" end at their unit
              (?!\.[A-Z]{{1,3}}(?![\w]))                # 7203.T is a ticker, read later
            """,
            re.VERBOSE,
        )
        self._dates = re.compile(
            rf"(?:{dates.pattern(locale)}|{periods.PATTERN})", re.VERBOSE | re.IGNORECASE
        )
        self._tickers = re.compile(tickers.PATTERN, re.VERBOSE)
        self._times = re.compile(times.pattern(), re.VERBOSE)
        self._codes = re.compile(codes.PATTERN, re.VERBOSE)
        self._quotes = re.compile(quotes.PATTERN, re.VERBOSE)
        self._long: dict[tuple[str, bool, bool, bool, bool], list[Mention]] = {}
        self._long_lock = threading.Lock()
        phrases = sorted(stoplists.not_value_phrases(), key=len, reverse=True)
        self._not_values = re.compile(
            r"(?<![\w])(?:" + "|".join(re.escape(p) for p in phrases) + r")(?![\w])"
        )

    # -- the passes ---------------------------------------------------------------

    def extract(self, text: str, *, years: bool = True, quoted: bool = True,
                data: bool = False, label: bool = False) -> list[Mention]:
        """Every mention in ``text``, in order of position (see :meth:`_extract`). A long
        text (a filing page) is read once: the walk indexes it and later stages ask for
        its mentions again, so the last few long texts' mentions are kept (mentions are
        frozen; each caller gets its own list)."""
        if len(text) < LONG_TEXT:
            return self._extract(text, years, quoted, data, label)
        key = (text, years, quoted, data, label)
        with self._long_lock:
            found = self._long.pop(key, None)
            if found is not None:
                self._long[key] = found  # the most recent last
        if found is None:
            found = self._extract(text, years, quoted, data, label)
            with self._long_lock:
                self._long[key] = found
                while len(self._long) > LONG_KEPT:
                    del self._long[next(iter(self._long))]
        return list(found)

    def _extract(self, text: str, years: bool, quoted: bool, data: bool, label: bool) -> list[Mention]:
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
                claim(claimed, m.start(), m.end())
            for m in SKIP.finditer(folded):
                claim(claimed, m.start(), m.end())
        elif len(folded) > 6:  # a cell "(1)" alone is an accounting negative
            for m in data_skip().finditer(folded):
                claim(claimed, m.start(), m.end())
        has_digit = any(ch.isdigit() for ch in folded)
        if has_digit:
            for m in references().finditer(folded):
                claim(claimed, m.start(), m.end())
            if label:
                for m in LABEL_MARKERS.finditer(folded):
                    claim(claimed, m.start(), m.end())
        if quoted and ('"' in folded or "“" in folded or "«" in folded or "'" in folded):
            out.extend(self._quote_mentions(text, folded))
        if has_digit:
            out.extend(self._code_mentions(text, folded, claimed))
        if not data:
            out.extend(rating_mentions(text, folded, claimed))
        out.extend(self._date_mentions(text, folded, claimed, has_digit))
        if has_digit:
            out.extend(time_mentions(self._times, text, folded, claimed, out))
            described = bytearray(len(text))
            for start, end in descriptors.spans(folded, self.locale):  # 14-day, T+1, list numbers
                claim(described, start, end)
            out.extend(self._numeric_mentions(text, folded, claimed, years, described))
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
        headers: Headers | None = None
        for m in self._codes.finditer(folded):
            check_deadline()  # the search for a naming word before it is linear: all, quadratic
            if is_claimed(claimed, m.start(), m.end()):
                continue
            code = codes.from_groups(text[m.start():m.end()], m.groupdict())
            # the name ends where the run of spaces, colons and "#" before the code
            # begins (it ends in a letter; "$" before a final line break ends the same
            # run), so the five characters before the run hold all of it
            named = _CODE_NAMES.search(folded, max(0, run_start(folded, m.start(), ":#", spaces=True) - 5),
                                       m.start()) is not None
            if not named and not code.valid and "|" in text:  # a cell under "| CUSIP |" is named too
                headers = headers or Headers(text)
                named = _CODE_NAMES.search(headers.at(m.start()) or "") is not None
            if code.scheme in ("cusip", "sedol", "lei") and not named and (
                not code.valid or code.code.isdigit()
            ):
                continue  # ordinary alphanumerics or a plain number, not a code
            if code.scheme == "isin" and not (code.valid or named or code.code[:2] in _isin_prefixes()):
                continue
            claim(claimed, m.start(), m.end())
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
            if is_claimed(claimed, m.start(), m.end()):
                continue
            raw = text[m.start():m.end()]
            g = m.groupdict()
            try:
                if any(g.get(k) for k in ("q1", "q2", "q3", "q4", "h1", "h2", "h3", "fy1", "fy2")):
                    period = periods.from_groups(raw, g)
                    if period.year is None:  # "Q3", "the second half": no year, nothing to check
                        claim(claimed, m.start(), m.end())
                        continue
                    mention = Mention("period", raw, m.start(), m.end(), period.key,
                                      keys=periods.canonical_forms(period))
                else:
                    day = dates.from_groups(raw, g, self.locale)
                    mention = Mention("date", raw, m.start(), m.end(), day.key, keys=(day.key,))
            except NormalizeError as exc:
                mention = Mention("date", raw, m.start(), m.end(), None, invalid=exc.reason)
            claim(claimed, m.start(), m.end())
            yield mention

    def _numeric_mentions(
        self, text: str, folded: str, claimed: bytearray, years: bool, described: bytearray
    ) -> Iterator[Mention]:
        for m in self._numeric.finditer(folded):
            check_deadline()  # an answer of 20,000 figures takes seconds to read
            m = self._unsigned_after_figure(folded, m)
            if is_claimed(claimed, m.start(), m.end()):
                continue
            claim(claimed, m.start(), m.end())
            mention = self._numeric_mention(text, m)
            if 0 not in described[m.start():m.end()]:  # the figure lies inside a descriptor
                yield replace(mention, descriptor=True)
                continue
            if mention.kind == "number" and mention.integer is not None and _is_year(m):
                if not years:
                    continue
                mention = Mention("date", mention.text, mention.start, mention.end,
                                  str(mention.integer), keys=(str(mention.integer),))
            yield mention

    def _unsigned_after_figure(self, folded: str, m: re.Match[str]) -> re.Match[str]:
        """``m`` without its leading dash when the dash joins it to the figure before:
        "3.50%–3.75%", "10–2", "$5–$6" are ranges or differences, the second figure is
        not negative (the arithmetic stage reads such a dash as its operator)."""
        at = m.start()
        if folded[at:at + 1] not in _DASHES or at == 0 or not _FIGURE_END.match(folded[at - 1]):
            return m
        rest = self._numeric.match(folded, at + 1)
        return rest if rest is not None and rest.end() == m.end() else m

    def _numeric_mention(self, text: str, m: re.Match[str]) -> Mention:
        raw = text[m.start():m.end()]
        g = m.groupdict()
        hedge = hedge_before(text, m.start())
        hedged = hedge is not None
        direction = direction_of(text, m.start())
        try:
            if g.get("cur") or g.get("cur_after") or g.get("cur_glued"):
                amount = amounts.from_groups(raw, g, self.locale)
                mention = self._number_mention("amount", raw, m, amount.number, hedged,
                                               amount.currencies[0] if amount.currencies else amount.symbol,
                                               direction, round_zeros=hedged and hedge not in ONE_SIDED)
                return replace(mention, currencies=amount.currencies)
            unit = percents.unit_of(g)
            if unit:
                pct = percents.ParsedPercent(raw, numbers.from_groups(raw, g, self.locale), unit)
                return self._percent_mention(raw, m, pct, hedged, direction)
            number = numbers.from_groups(raw, g, self.locale)
            if g.get("mult"):
                return self._number_mention("multiplier", raw, m, number, hedged, "x", direction)
            return self._number_mention("number", raw, m, number, hedged, number.scale_word, direction,
                                        round_zeros=hedged and hedge not in ONE_SIDED)
        except NormalizeError as exc:
            return Mention("number", raw, m.start(), m.end(), None, hedged=hedged, invalid=exc.reason)

    def _number_mention(
        self, kind: str, raw: str, m: re.Match[str], number: numbers.ParsedNumber,
        hedged: bool, unit: str | None, direction: int = 0, round_zeros: bool = False,
    ) -> Mention:
        tol = number.tolerance
        if round_zeros and number.scale == 1:  # ("about 110 million" says its precision with its scale word)
            tol = hedged_tolerance(number.mantissa, tol)
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
        terms = acronyms.defined_terms(text)  # "Days Payable Outstanding (DPO)": a term, no ticker
        for m in self._tickers.finditer(folded):
            if is_claimed(claimed, m.start(), m.end()):
                continue
            ticker = tickers.from_groups(text[m.start():m.end()], m.groupdict())
            marked = ticker.cashtag or ticker.exchange is not None
            stop = not marked and (ticker.symbol in self.stopwords or ticker.base in self.stopwords
                                   or m.group("tk_sym") in self.stopwords or m.group("tk_sym") in terms)
            if not marked and len(ticker.base) == 1 and not ticker.venue_suffix and "." not in ticker.symbol:
                stop = True  # single capitals are initials and pronouns far more often
            claim(claimed, m.start(), m.end())
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
            if is_claimed(claimed, m.start(), m.end()):
                continue
            raw = text[m.start():m.end()].rstrip()
            claim(claimed, m.start(), m.end())
            yield Mention(
                "number", raw, m.start(), m.start() + len(raw), None,
                invalid=f"cannot read {raw!r} as a number in locale {self.locale}",
            )


@lru_cache(maxsize=32)
def extractor(locale: str = "en_US", extra_stopwords: tuple[str, ...] = ()) -> Extractor:
    """The (cached) extractor for ``locale`` ("en_US", "en-US") and a set of extra
    stop-words; NormalizeError for what is no locale."""
    return Extractor(canonical_locale(locale), extra_stopwords)


def extract(text: str, locale: str = "en_US", **options: bool) -> list[Mention]:
    """Every mention in ``text`` (see :meth:`Extractor.extract`)."""
    return extractor(locale).extract(text, **options)


@lru_cache(maxsize=1)
def _isin_prefixes() -> frozenset[str]:
    from babel import Locale

    territories: list[str] = [str(t) for t in Locale.parse("en").territories]
    return frozenset(t for t in territories if len(t) == 2 and t.isalpha()) | {"XS", "EU", "QS"}


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
