"""Credit ratings: the letter grades of S&P, Fitch and DBRS (AAA, AA+, BBB-, "A (low)")
and of Moody's (Aaa, Aa1, Baa3, Caa2).

A grade is compared as written, after folding what typesetting changes (a Unicode
minus, spaces before "(low)"): case is part of it, since Moody's "Aa2" and S&P's "AA"
are different scales. The scale a grade belongs to is told by its case.

>>> parse("BBB−").grade, parse("BBB−").scale
('BBB-', 'letter')
>>> parse("Baa2").scale
'moodys'
>>> is_valid("AB")
False
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ._errors import NormalizeError, require_text

KIND = "rating"

#: Grades of two characters or more: a lone "A", "B", "C" or "D" is a word or a
#: share class far more often than a rating, so it is no rating here.
PATTERN = r"""(?<![\w+\-−/])(?:
    (?P<rt_letter>(?:AAA|AA|BBB|BB|CCC|CC)(?:\s?[+\-−])?|[ABC]\s?[+\-−]
        |(?:AAA|AA|A|BBB|BB|B|CCC|CC)\s?\((?:low|high)\))
  | (?P<rt_moodys>Aaa|Aa[123]|A[123]|Baa[123]|Ba[123]|B[123]|Caa[123]|Ca)
)(?![\w+\-−])"""


@cache
def _full() -> re.Pattern[str]:
    # compiled on the first parse: the extractor embeds PATTERN and never needs this one,
    # so ``import verifier`` does not pay for it (issue 21)
    return re.compile(rf"\s*{PATTERN}\s*", re.VERBOSE)
_FOLD = str.maketrans({"−": "-", "–": "-"})


@dataclass(frozen=True, slots=True)
class ParsedRating:
    """A credit rating: the text, its grade as compared, and its scale."""

    raw: str
    grade: str
    scale: str  # "letter" (S&P, Fitch, DBRS) or "moodys"


def grade_of(text: str) -> str:
    """The form a grade is compared in: "BBB −" -> "BBB-", "A(low)" -> "A (low)"."""
    folded = re.sub(r"\s+", "", text.translate(_FOLD))
    return folded.replace("(", " (")


def parse(text: str, locale: str = "en_US") -> ParsedRating:
    """Read ``text`` as one credit rating; :class:`NormalizeError` if it is not one."""
    text = require_text(KIND, text)
    m = _full().fullmatch(text)
    if m is None:
        raise NormalizeError(KIND, text, "not a credit rating")
    scale = "moodys" if m.group("rt_moodys") else "letter"
    return ParsedRating(text, grade_of(m.group("rt_letter") or m.group("rt_moodys")), scale)


def is_valid(text: object, locale: str = "en_US") -> bool:
    """Whether :func:`parse` would read ``text``; never raises."""
    if not isinstance(text, str) or len(text) > 32:
        return False
    return _full().fullmatch(text) is not None


def canonical_forms(value: ParsedRating) -> tuple[str, ...]:
    """The one form a grade is looked up in."""
    return (value.grade,)
