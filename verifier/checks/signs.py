"""Signs: which signed values an answer's figure may stand for in the data. A written
sign is final; a word of direction signs a percentage ("fell 2.43%" is -2.43%); an
amount's sign is otherwise open ("a loss of $5m" may be stored as 5m or -5m), except
that data never stores a rise as a negative field."""

from __future__ import annotations

from decimal import Decimal

from ..extract import Mention, NumForm
from ..index.haystack import Haystack, NumRef

PERCENT_KINDS = frozenset({"percent", "basis_points", "percentage_points"})


def sign_may_drop(mention: Mention, flipped: bool, hay: Haystack, ref: NumRef) -> bool:
    """Data may store a fall as a magnitude, never a rise as a negative field ("up $3.18"
    is no "change": -3.18); a page's "(8,107)" follows its statement's line, not the sign."""
    return not flipped or mention.direction <= 0 or mention.kind in PERCENT_KINDS or hay.is_string(ref.leaf)


def signed(form: NumForm, mention: Mention) -> list[tuple[Decimal, bool]]:
    """The signed values to look for, with whether the sign was taken from elsewhere.

    A written sign is final. For a percentage, a word of direction is a sign: "fell
    2.43%" is -2.43%, "rose 1.2%" is +1.2%. Otherwise the sign was not stated and both
    are accepted (for amounts too: "a loss of $5m" may be stored as 5m or -5m; but
    see :func:`sign_may_drop`: "up $3.18" is no -3.18 field)."""
    if mention.explicit_sign or form.value == 0:
        return [(form.value, False)]
    if mention.kind in PERCENT_KINDS and mention.direction:
        return [(-form.value, True)] if mention.direction < 0 else [(form.value, False)]
    return [(form.value, False), (-form.value, True)]
