"""High-stakes sentences: claims that cost the user money when wrong, and so get the
model judge's second opinion (:mod:`verifier.judge`).

A sentence is high-stakes when it holds a phrase of the lexicon
``stoplists/high_stakes.txt`` (``category: phrase|phrase``: recommendations, price
targets, P&L and performance claims, guarantees, "you should" advice, forecasts) or
matches one of the rules below, which catch the ambiguous rating words (buy, sell,
hold) only where they are a recommendation: an imperative ("Buy AAPL"), after a modal
("you should sell"), as a rating ("rated Buy", "a hold", "upgraded to Buy"). Users add
phrases with ``Policy(judge_extra_phrases=...)`` in the same format.

>>> [(s.text, s.reasons) for s in high_stakes("AAPL closed at $142.30. You should buy it now.")]
[('You should buy it now.', ('advice', 'recommendation'))]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import regex

import stoplists

from .attribute import sentence_starts

__all__ = ["Stake", "StakesSentence", "high_stakes", "lexicon", "parse_entry"]

_RATING = r"(?:strong\s+)?(?:buy|sell|hold|accumulate|reduce)"

#: Rules for words the lexicon cannot list, since they are also plain verbs.
_RULES: tuple[tuple[str, regex.Pattern[str]], ...] = (
    ("recommendation", regex.compile(r"""(?imx)
        (?:^|(?<=[.!?:;]\s*)|(?<=^\s*[-*•]\s*))       # start of a sentence or list item
        (?:buy|sell|short|hold(?!\s+on\b)|accumulate|trim|dump|load\s+up\s+on)\b
          (?!-|\s+(?:side|back|orders?|signals?|interest|sellers?|squeeze|positions?|ratio|term)\b)
                                                      # nouns: "sell-side", "buy orders", "Short interest"
    """)),
    ("recommendation", regex.compile(rf"""(?ix)
        (?:\b(?:I|we)'d|\b(?:should|must|ought\s+to|would|could|might\s+want\s+to|may\s+want\s+to|consider|recommend))
        \s+(?:\w+\s+)?                                # "should probably buy"
        (?:buy|sell|short|hold|trim|add\s+to|accumulate|exit|
           buying|selling|shorting|holding|trimming|accumulating|exiting)\b
      | \brat(?:ed|es|e|ing)\s+(?:\w+\s+)?(?:an?\s+|as\s+(?:an?\s+)?)?{_RATING}\b  # rated Buy, rate CRWD a buy
      | \b(?:upgrade|downgrade|move|cut|raise|lift|lower)[sd]?\s+(?:\S+\s+){{0,3}}?to\s+(?:an?\s+)?{_RATING}\b
      | \b(?:an?|our|the|its|one)\s+{_RATING}\b(?!\s+(?:order|orders|side|signal|signals)\b)
    """)),
    ("recommendation", regex.compile(r"(?x) (?<=\w[^\n.!?]*\s)(?<!Best\s) (?:Strong\s+)?(?:Buy|Sell|Hold)\b")),  # a rating in capitals
    ("price_target", regex.compile(r"""(?x)
        \b(?:PT|TP)\s+(?:of\s+)?[$€£¥]?\s?\d                  # "PT of $210", "TP 180"
      | (?i:\btarget\s+(?:of\s+)?[$€£¥]\s?\d)                 # "a target of $210"
    """)),
    ("pnl", regex.compile(r"""(?ix)
        \byou(?:'ve|\s+have|\s+would\s+have|'d\s+have)?\s+(?:made|lost|gained|earned|doubled|tripled)\b
      | \b(?:portfolio|position|positions|holdings|account)\s+(?:is|was|are|were|has|have)\s+
          (?:up|down|gained|lost|returned|outperformed|underperformed)\b
    """)),
)


@dataclass(frozen=True, slots=True)
class Stake:
    """One high-stakes phrase found in the answer: its category and span."""

    category: str
    text: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class StakesSentence:
    """A sentence of the answer holding at least one high-stakes phrase."""

    start: int
    end: int
    text: str
    reasons: tuple[str, ...]  # categories, sorted, without repeats
    stakes: tuple[Stake, ...]  # every phrase found, in answer order


def parse_entry(entry: str) -> tuple[str, list[str]]:
    """A lexicon line as (category, phrases); a line without ``category:`` is ``custom``.

    >>> parse_entry("advice: you should|I recommend")
    ('advice', ['you should', 'I recommend'])
    >>> parse_entry("moonshot")
    ('custom', ['moonshot'])
    """
    category, sep, rest = entry.partition(":")
    if not sep or not regex.fullmatch(r"\s*[A-Za-z_][\w-]*\s*", category):
        category, rest = "custom", entry
    phrases = [p.strip() for p in rest.split("|") if p.strip()]
    return category.strip().lower().replace("-", "_"), phrases


def lexicon(extra: tuple[str, ...] = ()) -> dict[str, list[str]]:
    """The bundled high-stakes phrases by category, plus the user's ``extra`` entries."""
    found: dict[str, list[str]] = {}
    for entry in sorted(stoplists.load("high_stakes")) + list(extra):
        category, phrases = parse_entry(entry)
        found.setdefault(category, []).extend(phrases)
    return found


def _phrase_pattern(phrase: str) -> str:
    stem = phrase.endswith("*")
    words = phrase.rstrip("*").split()
    body = r"\s+".join(regex.escape(w) for w in words)
    tail = r"[\w-]*" if stem else r"(?![\w&])"
    return r"(?<![\w&])" + body + tail


@lru_cache(maxsize=32)
def _compiled(extra: tuple[str, ...]) -> tuple[regex.Pattern[str], dict[str, str]]:
    """One alternation over every phrase, a named group per category (longest first)."""
    groups, names = [], {}
    for i, (category, phrases) in enumerate(sorted(lexicon(extra).items())):
        alternatives = sorted(set(phrases), key=lambda p: (-len(p), p))
        if alternatives:
            names[f"c{i}"] = category
            groups.append(f"(?P<c{i}>" + "|".join(_phrase_pattern(p) for p in alternatives) + ")")
    return regex.compile("|".join(groups) or r"(?!)", regex.IGNORECASE), names


def find_stakes(text: str, extra: tuple[str, ...] = ()) -> list[Stake]:
    """Every high-stakes phrase in ``text`` (lexicon and rules), in order."""
    pattern, names = _compiled(tuple(extra))
    found = [Stake(names[m.lastgroup], m.group(), m.start(), m.end())
             for m in pattern.finditer(text) if m.lastgroup]
    for category, rule in _RULES:
        found += [Stake(category, m.group(), m.start(), m.end()) for m in rule.finditer(text)]
    return sorted(set(found), key=lambda s: (s.start, s.end, s.category))


def high_stakes(answer: str, extra: tuple[str, ...] = ()) -> list[StakesSentence]:
    """The sentences of ``answer`` that hold a high-stakes phrase, with the reasons.

    Sentence spans are trimmed of surrounding whitespace; ``extra`` adds lexicon
    entries (``"category: phrase|phrase"`` or a bare phrase, category ``custom``).
    """
    stakes = find_stakes(answer, extra)
    if not stakes:
        return []
    starts = sentence_starts(answer)
    bounds = list(zip(starts, starts[1:] + [len(answer)], strict=True))
    result = []
    for left, right in bounds:
        inside = tuple(s for s in stakes if left <= s.start < right)
        if not inside:
            continue
        text = answer[left:right]
        start = left + len(text) - len(text.lstrip())
        end = left + len(text.rstrip())
        result.append(StakesSentence(start, end, answer[start:end],
                                     tuple(sorted({s.category for s in inside})), inside))
    return result
