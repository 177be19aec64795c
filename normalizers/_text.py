"""Character folding shared by the normalizers and the extractor.

``fold`` maps every character to exactly one character, so a span found in the folded
text is the same span in the original: odd Unicode digits become ASCII digits, the
many minus and space characters become one of each kind. Nothing is removed.
"""

from __future__ import annotations

import unicodedata

import regex

#: Space characters used as thousands separators or before units (Babel calls out
#: U+00A0 and U+202F; U+2009 thin and U+2007 figure spaces occur in typeset reports).
SPACE_SEPARATORS = "\u00a0\u202f\u2009\u2007"
#: Characters that mean "minus" in financial text. U+2212 is the typographic minus.
MINUS_SIGNS = "\u2212\u2012\u2013\ufe63\uff0d"
#: Apostrophe-like characters used as the Swiss thousands separator.
APOSTROPHES = "\u2019\u02bc\u2032"


#: Decimal marks no locale uses for anything else: the Arabic one ("١٤٢٫٣٠") and the
#: full-width point ("１２３．４"). Left as they are by ``fold`` (a locale's "." may be its
#: thousands mark); :mod:`normalizers.numbers` reads them as decimal marks in any locale.
DECIMAL_MARKS = "\u066b\uff0e"
#: The Arabic thousands mark ("١٬٢٣٤"), read as one in any locale.
GROUP_MARKS = "\u066c"

#: Full-width signs that mean what their ASCII twins do: percent, dollar, and a comma or
#: point between full-width digits or letters ("１，２３４", "ＢＲＫ．Ｂ"; a full-width comma
#: between ASCII figures separates list items, "150，200，300").
_WIDE = "\uff21-\uff3a\uff41-\uff5a\uff05\uff04"
_WIDE_JOINED = (r"(?<=[\uff10-\uff19])\uff0c(?=[\uff10-\uff19]{3}(?![\uff10-\uff19]))"  # "１，２３４", not "２０２３，２０２４"
                r"|(?<=[\uff21-\uff3a\uff41-\uff5a])\uff0e(?=[\uff21-\uff3a\uff41-\uff5a])")

_ODD = regex.compile(r"[^\x00-\x7f](?<=\p{Nd}|[" + MINUS_SIGNS + _WIDE + "])|" + _WIDE_JOINED)


def _ascii(match: regex.Match[str]) -> str:
    ch = match.group()
    if ch in MINUS_SIGNS:
        return "-"
    if "\uff01" <= ch <= "\uff5e":  # full-width ("ＡＡＰＬ", "％"): the ASCII twin
        return chr(ord(ch) - 0xFEE0)
    # regex may know digits newer than this Python's Unicode database: leave those be
    digit = unicodedata.digit(ch, None)
    return ch if digit is None else str(digit)


def fold(text: str) -> str:
    """``text`` with Unicode digits as ASCII, minus signs as ``-``, and full-width
    letters, percent and dollar signs as ASCII, and a full-width comma or point joining
    full-width digits or letters; same length. A full-width comma elsewhere stays: it
    also separates list items ("150，200，300")."""
    if text.isascii():
        return text
    return _ODD.sub(_ascii, text)


#: Scripts written without spaces between words (Han, kana, Hangul with its attached
#: particles, Thai): a letter of theirs touching a figure does not make the figure part
#: of a word ("年0.0616%", "2,845.5円", "0.75%に", "5%를").
UNSPACED = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\uac00-\ud7af\u0e00-\u0e7f"
#: Regex: no word goes on here (the next character is no letter or digit of a spaced
#: script). The negated class is "\w but not UNSPACED". Case-sensitive even inside an
#: IGNORECASE pattern, ``(?-i:...)``: the class matches the same characters either way
#: (tests/normalizers/test_word_edges.py checks every code point), but ``re`` builds an
#: IGNORECASE class by case-mapping each of its ~40,000 code points, about 10 ms a use
#: against 3 ms, paid again in every pattern that embeds it (issue 21).
WORD_END = rf"(?-i:(?![^\W{UNSPACED}]))"
#: Regex: no word came before here.
WORD_START = rf"(?-i:(?<![^\W{UNSPACED}]))"
