"""Credit ratings in an answer ("Fitch has them at AA-", "| Moody's | Baa2 |").

Letter grades look like tickers and words ("AA", "BB", "A1"), so a grade is read as a
rating only on a line, or under a table column, that speaks of ratings: an agency's
name or a rating word (stoplists/rating_words.txt), and not as a bare ticker-shaped
grade in parentheses ("Alcoa (AA)"). Elsewhere the other passes read it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from verifier import stoplists
from verifier.normalizers import ratings

from .mention import Mention, claim, is_claimed
from .tables import Headers

_GRADE = re.compile(ratings.PATTERN, re.VERBOSE)


def rating_mentions(text: str, folded: str, claimed: bytearray) -> Iterator[Mention]:
    """Grades on lines (or under columns) that speak of ratings; claims their spans."""
    if not _GRADE.search(folded):
        return
    words = stoplists.word_pattern("rating_words")
    headers: Headers | None = None
    for m in _GRADE.finditer(folded):
        if is_claimed(claimed, m.start(), m.end()):
            continue
        start = folded.rfind("\n", 0, m.start()) + 1
        end = folded.find("\n", m.end())
        line = folded[start:end if end >= 0 else len(folded)]
        if not words.search(line):
            headers = headers or Headers(text)
            if not words.search(headers.at(m.start()) or ""):
                continue
        grade = ratings.grade_of(text[m.start():m.end()])
        if grade.isalpha() and grade.isupper() and folded[m.start() - 1:m.start()] == "(" \
                and folded[m.end():m.end() + 1] == ")":
            continue  # "Alcoa (AA)": a ticker after its company's name
        claim(claimed, m.start(), m.end())
        yield Mention("rating", text[m.start():m.end()], m.start(), m.end(), grade, keys=(grade,))
