"""Quoted phrases: text the answer presents as verbatim (“record quarter”).

Normalization folds what typing and typesetting change without changing the words:
case, curly vs straight quotes and apostrophes, dashes, and runs of whitespace.

>>> normalize("  Record   “Quarter” — again ")
'record "quarter" - again'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ._errors import NormalizeError, require_text

KIND = "quote"

#: A phrase between matching quote marks; single quotes only around two or more words
#: so apostrophes ("the company's") are not read as quotes.
PATTERN = r"""(?:
    “(?P<qt_curly>[^”\n]{2,400})”
  | "(?P<qt_straight>[^"\n]{2,400})"
  | «\s?(?P<qt_guil>[^»\n]{2,400}?)\s?»
  | (?<![\w])'(?P<qt_single>[^'\n]{2,400}?\s[^'\n]{1,400}?)'(?![\w])
)"""

_FOLD = str.maketrans({"“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "‘": "'", "’": "'",
                       "—": "-", "–": "-", "\u00a0": " ", "\u202f": " "})
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class ParsedQuote:
    """A quoted phrase: the words inside the marks and their normalized form."""

    raw: str
    phrase: str

    @property
    def key(self) -> str:
        """The normalized phrase that must occur in the data."""
        return normalize(self.phrase)


def normalize(text: str) -> str:
    """Fold case, quote marks, dashes and whitespace (see module doc)."""
    return _SPACE.sub(" ", text.translate(_FOLD)).strip().casefold()


def parse(text: str, locale: str = "en_US") -> ParsedQuote:
    """Read ``text`` as a quoted phrase (marks included)."""
    text = require_text(KIND, text)
    m = re.fullmatch(rf"\s*{PATTERN}\s*", text, re.VERBOSE)
    if m is None:
        raise NormalizeError(KIND, text, "not a phrase between quote marks")
    phrase = next(v for k, v in m.groupdict().items() if v is not None)
    if not phrase.strip():
        raise NormalizeError(KIND, text, "nothing between the quote marks")
    return ParsedQuote(text, phrase)


def is_valid(text: object, locale: str = "en_US") -> bool:
    """Whether ``text`` is a quoted phrase. Never raises."""
    try:
        parse(text, locale)  # type: ignore[arg-type]
    except NormalizeError:
        return False
    return True


def canonical_forms(value: ParsedQuote) -> tuple[str, ...]:
    """The normalized phrase."""
    return (value.key,)
