"""Numbers that are not claims: the spans of an answer (or a data string) whose digits
describe what is meant rather than state a value, so they are neither checked nor
scored.

- A window or tenor: a whole number followed by a unit of time ("14-day RSI", "52-week
  high", "10-year yield", "24h volume", "3 months", "in 7 Tagen", "BTP 10 anni",
  "10年債"). The units are the locale's and English duration words from Babel's CLDR
  unit data, plus ``stoplists/duration_words.txt``. A number with decimals ("3.2 days
  to cover") is a measured value, not a window, and stays a claim.
- A settlement or curve label: "T+1", "2s10s", "5s30s", "10Y".
- A list number: "1." or "2)" opening a line, after a bullet or inside bold ("**1. Common
  dividend:**").
- "Top 5" and "top-10": a count of what is listed.
- A constant of a formula: a conventional whole number written as a multiplier or
  divisor ("× 100", "365 *", "/ 2", "/ 1,000", "multiplying by 100", "divide the sum by
  3"; ``stoplists/arithmetic_constants.txt``).
- A rate's unit: the 1 of "1 EUR = 1.0850 USD" and "1 USD = 154.2 JPY".
"""

from __future__ import annotations

import re
from functools import lru_cache

from verifier import stoplists
from verifier.normalizers import WORD_END, WORD_START, numbers

from .lookback import dollar_end, run_start

#: CLDR duration units read for their words.
_UNITS = ("duration-year", "duration-month", "duration-week", "duration-day", "duration-hour",
          "duration-minute")


@lru_cache(maxsize=32)
def duration_words(locale: str) -> frozenset[str]:
    """Words for a unit of time after a number, in ``locale`` and in English: every
    length and plural form Babel formats ("day", "days", "d", "Tage", "anni", "年"), and
    the extra forms of ``duration_words.txt``."""
    from babel.units import format_unit

    words: set[str] = set(stoplists.load("duration_words"))
    for loc in dict.fromkeys((locale, "en_US")):
        for unit in _UNITS:
            for length in ("long", "short", "narrow"):
                for count in (1, 2, 5, 21):
                    try:
                        text = format_unit(count, unit, length=length, locale=loc)
                    except ValueError:  # babel's UnknownUnitError: a locale without this unit's data
                        continue
                    word = re.sub(r"[\d\s\u00a0\u202f.,]+", " ", text).strip()
                    if word and " " not in word:
                        words.add(word)
    # a scale word is no unit of time: "5m" is five million, "3T" three trillion
    return frozenset(words - set(numbers.scale_words()))


#: Where a whole number starts: no word and no figure's decimals before it ("3.2 days").
_WHOLE = rf"{WORD_START}(?<!\d[.,])"


#: What every descriptor starts with: a digit (the constants are figures), "T+", "top",
#: "multipl"/"divid", or a line's start (a list number). Tried first at each position,
#: it spares the dozen alternatives below at the others (~4x faster on prose); the
#: matches are the same (checked on every string of the fixtures, evalsets and corpora).
_GUARD = r"(?=\d|T\+|(?i:top|multipl|divid)|(?m:^))"


@lru_cache(maxsize=32)
def pattern(locale: str) -> re.Pattern[str]:
    """The compiled pattern of every descriptor span in ``locale``."""
    words = sorted(duration_words(locale), key=len, reverse=True)
    long_words = "|".join(re.escape(w) for w in words if len(w) > 1)
    after = "|".join(re.escape(w[1:]) for w in sorted(_window_words()) if w.startswith("~"))
    short_words = "|".join(re.escape(w) for w in words if len(w) == 1 or not w.isascii())
    constants = "|".join(re.escape(c) for c in sorted(stoplists.load("arithmetic_constants"), key=len, reverse=True))
    return re.compile(
        _GUARD + rf"""(?:
          {_WHOLE}\d{{1,3}}[-\u2010\u2011][ ]?(?:{long_words}){WORD_END}    # 14-day, 10-year, 10-jährige
        | {_WHOLE}\d{{1,3}}(?:{short_words}|{long_words}){WORD_END}       # 24h, 10y, 10年, 3months
        | {_WHOLE}\d{{1,3}}[ \u00a0\u202f](?:{after}){WORD_END}             # in 7 Tagen
        | (?P<spaced>{_WHOLE}\d{{1,3}}[ \u00a0\u202f](?:{long_words}){WORD_END})  # 12 months: a window after "past"
        | (?<=\()\d{{1,3}}[ \u00a0\u202f]?(?:{short_words}|{long_words})(?=\))  # (24 h): a column's window
        | {WORD_START}T\+\d{WORD_END}                                        # T+1
        | {WORD_START}\d{{1,2}}s[ /]?\d{{1,2}}s{WORD_END}                    # 2s10s, 5s/30s
        | {WORD_START}\d{{1,2}}Y{WORD_END}                                   # 10Y (a tenor column)
        | (?m:^[ \t]*(?:[-*+•][ \t]+)?(?:\*\*|__)?\d{{1,2}}[.)](?=[ \t]|\*\*|__))  # list numbers
        | (?i:{WORD_START}top[ -]\d{{1,3}}{WORD_END})                        # Top 5
        | {WORD_START}1[ \u00a0]?[A-Z]{{3}}(?=[ \u00a0]?[=≈])                 # 1 EUR = 1.0850 USD
        | (?<=[*×/÷][ ])(?:{constants}){WORD_END}(?![.,]?\d)                 # × 100, / 2
        | (?<=[*×/÷])(?:{constants}){WORD_END}(?![.,]?\d)                    # *100
        | {_WHOLE}(?<![\d.,])(?:{constants})(?=[ ]?[*×÷/][ ]?[\d$€£(])       # 365 * (...
        | (?i:\b(?:multipl|divid)\w*[ ](?:[^\W\d][\w-]*[ ]){{0,6}}?by[ ])(?:{constants}){WORD_END}(?![.,]?\d)  # "multiplying by 100"
        )""",
        re.VERBOSE,
    )


@lru_cache(maxsize=1)
def _window_words() -> frozenset[str]:
    return stoplists.load("window_words")


_WORDS_BEFORE = re.compile(r"[^\W\d_]+")
#: "in" right after a figure: the window of a change ("down 1.6% in 24 hours", "+3 % en 2 ans"),
#: not a claimed duration ("matures in 7 years").
_AFTER_A_CHANGE = re.compile(r"\d[%‰]?[ \u00a0\u202f]?(?:%|bp|pts?)?[ \u00a0]+(?:in|en)[ \u00a0]+$")


def _after_a_change(text: str, end: int) -> bool:
    """Whether :data:`_AFTER_A_CHANGE` ends at ``end``, searched over a few characters
    only (searched from 0, each window re-read the page before it). A match ending at
    ``end`` ends with the whole run of spaces there (an "n" stands before it), then
    "in"/"en", then the whole run of spaces before that (or all but a separator that
    is one of them), then at most six characters ("5% pts"): it starts at or after
    ``pos``."""
    gap = run_start(text, run_start(text, dollar_end(text, end), _SPACES) - 2, _SPACES)
    return _AFTER_A_CHANGE.search(text, max(0, gap - 6), end) is not None


_SPACES = " \u00a0"


#: An instrument's acronym right before it: a tenor ("BTP 10 anni", "UST 10 years"), not
#: a claimed duration ("for 66 years"; a capitalised word is not enough: German nouns).
_AFTER_A_NAME = re.compile(r"\b[A-Z]{2,5}[ \u00a0]+$")


def spans(text: str, locale: str) -> list[tuple[int, int]]:
    """(start, end) of every descriptor in ``text`` (already folded). "N <unit of time>"
    with a space between is a window only after a window word ("over the past 12
    months", "letzten 5 Jahre"), after "in" right after a figure ("down 1.6% in 24
    hours") or after an instrument's acronym ("BTP 10 anni"); otherwise it is a claimed duration ("for 66 years", "matures in 7 years")."""
    out = []
    before_words = {w.lower() for w in _window_words() if not w.startswith("~")}
    for m in pattern(locale).finditer(text):
        if m.group("spaced") is not None:
            words = _WORDS_BEFORE.findall(text[max(0, m.start() - 30):m.start()].lower())[-2:]
            if words[-1:] == ["the"]:
                words = words[:-1]
            if (not words or words[-1] not in before_words) and not _after_a_change(text, m.start()) \
                    and not _AFTER_A_NAME.search(text, max(0, m.start() - 40), m.start()):
                continue
        out.append(m.span())
    return out
