"""Extract: answer text -> mentions, each with its kind, span, value and the forms it
may take in data. Driven by the normalizers' patterns and the stop-lists; it never
looks at the haystack (the haystack reads strings in the data with the same
:class:`Extractor`, so an answer and its data follow one set of rules).

Modules: :mod:`.mention` (what a mention is), :mod:`.extractor` (the passes),
:mod:`.skips` (spans that are no values), :mod:`.hedges` (hedges and direction words),
:mod:`.times` (times of day and date-times).
"""

from __future__ import annotations

from .extractor import Extractor, extract, extractor
from .hedges import direction_of, hedge_before, is_hedged
from .mention import NUMERIC_KINDS, Mention, NumForm

__all__ = ["NUMERIC_KINDS", "Extractor", "Mention", "NumForm", "direction_of", "extract", "extractor",
           "hedge_before", "is_hedged"]
