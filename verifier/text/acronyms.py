"""Acronyms a text defines: "Days Payable Outstanding (DPO)", "Property, Plant and
Equipment (PP&E)", "EBITDA (earnings before interest, taxes, depreciation and
amortization)". A defined acronym is a term of the text, not a ticker, wherever the
text uses it."""

from __future__ import annotations

import re
from functools import lru_cache

from verifier import stoplists

#: Words an acronym's letters skip ("Property, Plant and Equipment" is PP&E;
#: stoplists/acronym_skipped_words.txt).
_SKIPPED = stoplists.load("acronym_skipped_words")
_LONG_THEN_SHORT = re.compile(r"((?:[\w&'’-]+[ ,]+){1,8}?)\(\s*([A-Z][A-Za-z&/.]{1,9})\s*\)")
_SHORT_THEN_LONG = re.compile(r"(?<![\w&])([A-Z][A-Z&/.]{1,9})\s*\(\s*([^()]{3,80})\)")
_WORD = re.compile(r"[\w'’]+(?:-[\w'’]+)*")


def _letters(acronym: str) -> str:
    return "".join(ch for ch in acronym.upper() if ch.isalpha())


def _initials(words: list[str]) -> list[str]:
    """Each candidate way to read initials: every word's first letter, small words left
    out or kept, "and" read as its N ("Property, Plant and Equipment" is PPE or PPNE), and that of each part
    of a hyphenated word ("Kurs-Gewinn-Verhältnis" is KGV)."""
    plain = "".join(w[0] for w in words if w.lower() not in _SKIPPED)
    every = "".join("N" if w.lower() in ("and", "&") else w[0] for w in words)  # PPNE: the "n" of "and"
    parts = "".join(p[0] for w in words if w.lower() not in _SKIPPED for p in w.split("-") if p)
    return [plain.upper(), every.upper(), parts.upper()]


def _expands(acronym: str, phrase: str, from_end: bool) -> bool:
    """Whether the words of ``phrase`` (its last words, ``from_end``) spell ``acronym``."""
    letters = _letters(acronym)
    words = _WORD.findall(phrase)
    if len(letters) < 2 or not words:
        return False
    for n in range(1, min(len(words), 10) + 1):
        chosen = words[-n:] if from_end else words[:n]
        if letters in _initials(chosen):
            return True
    return False


@lru_cache(maxsize=256)
def defined_terms(text: str) -> frozenset[str]:
    """The acronyms ``text`` defines, as written ("DPO", "PP&E")."""
    if "(" not in text:
        return frozenset()
    found = set()
    for m in _LONG_THEN_SHORT.finditer(text):
        if _expands(m.group(2), m.group(1), from_end=True):
            found.add(m.group(2))
    for m in _SHORT_THEN_LONG.finditer(text):
        if _expands(m.group(1), m.group(2), from_end=False):
            found.add(m.group(1))
    return frozenset(found)
