"""A long text is read a fixed number of times, however many figures it holds (issue 21).

Nothing here times anything: the checks count what is done per page. A step that works
on the whole text once per figure (re-joining it, copying the rest of it, searching all
of it before each figure) makes the counts grow with the figures, and fails them.
"""

from __future__ import annotations

import gc
import importlib
import re
import sys
from collections import Counter
from typing import Any, ClassVar

import pytest

from verifier import Haystack, InputError, verify
from verifier.extract import descriptors, extractor

#: A sentence of a filing's prose: amounts, a percentage, years, a spaced window, a
#: spaced duration (the look-back for a window word), a bare year, a code and a hedge.
SENTENCE = ("Net revenue for fiscal {y} was $1,{i:03d}.5 million, up {p}.2% in 12 months, and about "
            "{i} stores opened over 3 years, 5 in {y}; the notes (ISIN US0378331005) mature in 7 years. ")
ANSWER = "Net revenue for fiscal 2019 was $1,000.5 million, up 0.2% in 12 months."


def page(sentences: int) -> str:
    return "".join(SENTENCE.format(y=2000 + i % 20, i=i, p=i % 10) for i in range(sentences))


def whole_text_calls(text: str) -> Counter[str]:
    """The builtin calls, by name, made on a string of at least a quarter of ``text``'s
    length (splits, joins, strips, copies of the rest of it) while indexing ``text`` and
    verifying an answer against it."""
    tools = [{"name": "filing_page", "output": {"doc_name": "10-K", "page": 1, "text": text}}]
    calls: Counter[str] = Counter()
    least = len(text) // 4

    def count(frame: Any, event: str, arg: Any) -> None:
        if event == "c_call":
            owner = getattr(arg, "__self__", None)
            if isinstance(owner, str) and len(owner) >= least:
                calls[arg.__name__] += 1

    sys.setprofile(count)
    try:
        verify(ANSWER, haystack=Haystack(tools))
    finally:
        sys.setprofile(None)
    return calls


def test_the_string_work_on_a_page_does_not_grow_with_its_figures():
    whole_text_calls(page(100))  # first uses (stop-lists loaded, patterns compiled) out of the count
    small, large = whole_text_calls(page(40)), whole_text_calls(page(160))
    assert small, "the count sees the page's own string calls"
    assert large == small


class _Windows:
    """A compiled pattern that records how much text each search of it covers."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.widths: list[int] = []

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        self.widths.append(min(endpos, len(text)) - pos)
        return self.pattern.search(text, pos, endpos)


@pytest.mark.parametrize(("module", "name"), [
    ("verifier.extract.descriptors", "_AFTER_A_CHANGE"),  # "up 1.6% in 24 hours": the "in" before a window
    ("verifier.extract.extractor", "_CODE_NAMES"),       # "ISIN US0378331005": the name before a code
])
def test_a_look_back_before_a_figure_reads_a_few_characters(monkeypatch, module, name):
    windows = _Windows(getattr(importlib.import_module(module), name))
    monkeypatch.setattr(importlib.import_module(module), name, windows)
    text = page(120)
    extractor("en_US").extract(f"{text} {name}", quoted=False, data=True)  # a text not read before (kept)
    assert len(windows.widths) >= 100
    assert max(windows.widths) <= 40  # not all the text before it


def test_a_long_text_is_read_once_for_the_same_options(monkeypatch):
    passes: list[str] = []
    spans = descriptors.spans
    monkeypatch.setattr(descriptors, "spans", lambda text, locale: passes.append(text) or spans(text, locale))
    ex = extractor("en_US")
    text = page(60) + "  "
    first = ex.extract(text, quoted=False, data=True)
    again = ex.extract(text, quoted=False, data=True)
    assert again == first and again is not first  # the same mentions, in a list of its own
    assert len(passes) == 1  # read once
    assert ex.extract(text, quoted=False, data=True, years=False) != first  # other options: read anew
    assert len(passes) == 2


class _Key(int):
    """An object key that is no string: the walk names it with ``str``, and this one
    notes whether the collector runs at that moment."""

    seen: ClassVar[list[bool]] = []

    def __str__(self) -> str:
        self.seen.append(gc.isenabled())
        return "7"


@pytest.mark.parametrize("collecting", [True, False])
def test_the_walk_pauses_the_collector_and_leaves_it_as_it_found_it(collecting):
    was = gc.isenabled()
    (gc.enable if collecting else gc.disable)()
    _Key.seen.clear()
    try:
        Haystack({"text": page(3), "rows": [[1, 2], [3, 4]], "by_id": {_Key(7): "x"}})
        assert _Key.seen == [False]  # paused during the walk
        assert gc.isenabled() is collecting
        with pytest.raises(InputError):
            Haystack({"bad": object()})
        assert gc.isenabled() is collecting
    finally:
        (gc.enable if was else gc.disable)()
