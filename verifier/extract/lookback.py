"""Where a run of characters ends, looking back: the bounded windows in which the
passes search for a phrase that must end right before a figure.

A pattern anchored at the end (``...\\s*$``) searched over all the text before each
figure (``pattern.search(text, 0, start)``) tries every earlier position, so a page of a
thousand figures is read a thousand times. The passes instead step back over the
unbounded runs of spaces such a pattern allows (here, by hand: a regex cannot search
backwards) and search only the few characters before them, which finds exactly the
same matches (each function says why)."""

from __future__ import annotations


def run_start(text: str, end: int, chars: str = "", spaces: bool = False) -> int:
    """Where the run of ``chars`` (and of whitespace as ``\\s`` has it, with
    ``spaces``: ``str.isspace`` is the same test) ending at ``end`` begins."""
    while end > 0 and (text[end - 1] in chars or (spaces and text[end - 1].isspace())):
        end -= 1
    return end


def dollar_end(text: str, end: int) -> int:
    """Where ``$`` of a pattern searched with ``endpos=end`` can stand with the
    character before it not a line break: at ``end``, or before a line break ending the
    searched text (``$`` matches there too)."""
    return end - 1 if end > 0 and text[end - 1] == "\n" else end
