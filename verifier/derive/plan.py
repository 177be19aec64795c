"""Which operations the wording asks for, and in which order operations are tried: the
question's cue words ("average", "change", "ratio") bring their operations forward
(:data:`CUED`), except the words of a row's own name it names ("Total revenue" asks for
no total). The order matters because every search run is one more chance to be lucky."""

from __future__ import annotations

from verifier import stoplists

from ..index.haystack import Haystack
from ..text.cues import cue_terms
from ..text.labels import focus_words
from .expressions import GROUP_OPS
from .groups import families_of, named_groups
from .operands import record_label

#: Operations each cue brings forward (pair operations and group statistics).
CUED = {
    "mean": ("mean", "average"),  # "the average X over 2017-2019": the row's mean first
    "total": ("total", "sum"),
    "difference": ("difference", "percent_change"),
    "percent_change": ("percent_change", "difference"),
    "ratio": ("ratio", "share", "percent_change"),
    "share": ("share", "ratio"),
    "product": ("product",),
}


def cued_first(ops: tuple[str, ...], cues: tuple[str, ...]) -> list[str]:
    """``ops`` with the ones the wording asks for first, in the order it names them,
    then group statistics (few results, little risk), then the remaining pair
    operations."""
    ordered: list[str] = []
    for cue in cues:
        ordered += [op for op in CUED.get(cue, ()) if op in ops and op not in ordered]
    ordered += [op for op in GROUP_OPS if op in ops and op not in ordered]
    return ordered + [op for op in ops if op not in ordered]


def asked_cues(question: str, hay: Haystack) -> tuple[str, ...]:
    """The operations a question asks for (:func:`verifier.text.cues.cue_terms`), leaving out cue words
    that are part of the name of a row it names ("What was Total revenue?" names the
    row "Total revenue" and asks for no total)."""
    labels: set[str] = set()
    for g in named_groups(hay, families_of(hay).get("record", []), focus_words(question)):
        # every word of the label, "total" too (no content word, so not in label_words)
        labels.update(record_label(hay, hay.leaves[g.leaves[0]].node).split("_"))
    table = stoplists.load_pairs("operation_cues")
    return tuple(dict.fromkeys(table[w] for w in cue_terms(question) if not set(w.split("_")) <= labels))
