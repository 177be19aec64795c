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

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from verifier import stoplists

from ..checks.attribute import sentence_starts

__all__ = ["Stake", "StakesSentence", "high_stakes", "lexicon", "parse_entry"]

_RATING = r"(?:strong\s+)?(?:buy|sell|hold|accumulate|reduce)"

_ACTIONS = ("buy", "sell", "short", "hold", "trim", "add", "accumulat", "exit", "reduce", "dump", "load")
_MODALS = ("should", "must", "ought", "would", "could", "might", "may", "consider", "recommend", "'d")


@dataclass(frozen=True, slots=True)
class _Rule:
    """A pattern for words the lexicon cannot list, since they are also plain verbs.

    ``gates``: groups of words, one of each group must occur in the text (lower-case
    words are looked for in the lower-cased text, others as written) before the
    pattern runs: a substring check is far cheaper than a scan, and most answers hold
    no rating words. Where the pattern must look at what comes before, the word
    itself is the group ``hit``."""

    category: str
    pattern: re.Pattern[str]
    gates: tuple[tuple[str, ...], ...]

    def finditer(self, text: str, lowered: str) -> list[tuple[int, int]]:
        """Spans of the rule's matches, or none when a gate is shut."""
        for group in self.gates:
            if not any(w in (lowered if w.islower() else text) for w in group):
                return []
        use_hit = "hit" in self.pattern.groupindex
        return [m.span("hit") if use_hit else m.span() for m in self.pattern.finditer(text)]


# Standard ``re`` patterns: several times faster than ``regex`` on these, and the
# judge must cost nothing on answers that do not need it. Compiled on the first answer
# judged (~7 ms): without a judge they are never used (issue 21).
@cache
def _rules() -> tuple[_Rule, ...]:
    return (
        _Rule("recommendation", re.compile(r"""(?imx)
        (?:^|[.!?:;])[ \t]*(?:[-*•][ \t]*)?              # start of a sentence or list item
        (?P<hit>buy|sell|short|hold(?!\s+on\b)|accumulate|trim|dump|load\s+up\s+on)\b
          (?!-|\s+(?:side|back|orders?|signals?|interest|sellers?|squeeze|positions?|ratio|term)\b)
                                                      # nouns: "sell-side", "buy orders", "Short interest"
    """), (_ACTIONS,)),
        _Rule("recommendation", re.compile(r"""(?ix)
        (?:\b(?:I|we)'d|\b(?:should|must|ought\s+to|would|could|might\s+want\s+to|may\s+want\s+to|consider|recommend))
        \s+(?:\w+\s+)?                                # "should probably buy"
        (?:buy|sell|short|hold|trim|add\s+to|accumulate|exit|
           buying|selling|shorting|holding|trimming|accumulating|exiting)\b
    """), (_ACTIONS, _MODALS)),
        _Rule("recommendation", re.compile(rf"""(?ix)
        \brat(?:ed|es|e|ing)\s+(?:\w+\s+)?(?:an?\s+|as\s+(?:an?\s+)?)?{_RATING}\b  # rated Buy, rate CRWD a buy
      | \b(?:upgrade|downgrade|move|cut|raise|lift|lower)[sd]?\s+(?:\S+\s+){{0,3}}?to\s+(?:an?\s+)?{_RATING}\b
    """), (("buy", "sell", "hold", "accumulate", "reduce"), ("rat", "grade", "move", "cut", "raise", "lift", "lower"))),
        _Rule("recommendation", re.compile(rf"""(?ix)
        \b(?:an?|our|the|its|one)\s+{_RATING}\b(?!\s+(?:order|orders|side|signal|signals)\b)  # "a hold"
    """), (("buy", "sell", "hold", "accumulate", "reduce"),)),
        _Rule("recommendation", re.compile(r"""(?x)
        (?<=[\w,;:)%]\s)(?<!Best\s)                    # mid-sentence, not the retailer
        (?:Strong\s+)?(?:Buy|Sell|Hold)\b                # a rating in capitals
    """), (("Buy", "Sell", "Hold"),)),
        _Rule("price_target", re.compile(r"""(?x)
        \b(?:PT|TP)\s+(?:of\s+)?[$€£¥]?\s?\d                  # "PT of $210", "TP 180"
      | (?i:\btarget\s+(?:of\s+)?[$€£¥]\s?\d)                 # "a target of $210"
    """), (("PT", "TP", "target"),)),
        _Rule("pnl", re.compile(r"""(?ix)
        \byou(?:'ve|\s+have|\s+would\s+have|'d\s+have)?\s+(?:made|lost|gained|earned|doubled|tripled)\b
    """), (("you",), ("made", "lost", "gained", "earned", "doubled", "tripled"))),
        _Rule("pnl", re.compile(r"""(?ix)
        \b(?:portfolio|position|positions|holdings|account)\s+(?:is|was|are|were|has|have)\s+
          (?:up|down|gained|lost|returned|outperformed|underperformed)\b
    """), (("portfolio", "position", "holdings", "account"),)),
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
    if not sep or not re.fullmatch(r"\s*[A-Za-z_][\w-]*\s*", category):
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


_END, _STEM = r"(?![\w&])", r"[\w-]*"


def _trie(phrases: set[str]) -> str:
    """One pattern for many lower-case phrases, with common prefixes factored out (a
    trie): the engine then tries a handful of branches per position, not every phrase.
    Longer continuations come before the end of a shorter phrase ("you should not"
    before "you should")."""
    root: dict[str, dict] = {}
    for phrase in phrases:
        tokens: list[str] = []
        for i, word in enumerate(phrase.rstrip("*").split()):
            tokens += ([r"\s+"] if i else []) + [re.escape(ch) for ch in word]
        node = root
        for token in [*tokens, _STEM if phrase.endswith("*") else _END]:
            node = node.setdefault(token, {})

    def emit(node: dict[str, dict]) -> str:
        branches = sorted(node.items(), key=lambda kv: kv[0] in (_END, _STEM))
        parts = [token + emit(child) for token, child in branches]
        return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")" if parts else ""

    return emit(root)


@dataclass(frozen=True)
class _Lexicon:
    """The compiled lexicon: one pattern, and the category of each phrase."""

    pattern: re.Pattern[str]  # over lower-cased text
    any_case: re.Pattern[str]  # for text whose length lower-casing changes
    exact: dict[str, str]  # phrase (lower-case, single spaces) -> category
    stems: tuple[tuple[str, str], ...]  # (stem, category), longest first

    def category(self, found: str) -> str:
        """The category of a matched phrase."""
        text = " ".join(found.lower().split())
        if text in self.exact:
            return self.exact[text]
        return next(category for stem, category in self.stems if text.startswith(stem))


@lru_cache(maxsize=32)
def _compiled(extra: tuple[str, ...]) -> _Lexicon:
    """The bundled lexicon plus ``extra``, compiled once per ``extra``."""
    exact: dict[str, str] = {}
    stems: dict[str, str] = {}
    for category, phrases in sorted(lexicon(extra).items()):
        for phrase in phrases:
            key = " ".join(phrase.lower().split())
            (stems if key.endswith("*") else exact).setdefault(key.rstrip("*"), category)
    every = {k for k in exact} | {k + "*" for k in stems}
    source = r"(?<![\w&])" + _trie(every) if every else r"(?!)"
    return _Lexicon(re.compile(source), re.compile(source, re.IGNORECASE), exact,
                    tuple(sorted(stems.items(), key=lambda kv: -len(kv[0]))))


def find_stakes(text: str, extra: tuple[str, ...] = ()) -> list[Stake]:
    """Every high-stakes phrase in ``text`` (lexicon and rules), in order."""
    compiled = _compiled(tuple(extra))
    lowered = text.lower()
    matches = (compiled.pattern.finditer(lowered) if len(lowered) == len(text)
               else compiled.any_case.finditer(text))
    found = [Stake(compiled.category(m.group()), text[m.start():m.end()], m.start(), m.end())
             for m in matches]
    for rule in _rules():
        found += [Stake(rule.category, text[a:b], a, b) for a, b in rule.finditer(text, lowered)]
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
