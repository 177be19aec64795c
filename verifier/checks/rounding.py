"""Unhedged rounding: what a value that rounds a data value, without a hedge word, is.

"$39.3 billion" for 39,331 million or "36.4x" for 36.42 is ``drift`` (flagged) by
default: the answer states a figure the data does not, and does not say it rounded.
``Policy.unhedged_rounding`` relaxes that for roundings that keep at least
``Policy.rounding_min_significant`` significant figures: 'warn' leaves them ``drift``
but unflagged (listed, counted as supported for the confidence), 'allow' makes them
``rounded``. A coarser rounding ("$39 billion") stays flagged ``drift`` in every mode.
"""

from __future__ import annotations

from ..extract import Mention
from ..models import Status
from ..policy import Policy


def unhedged(mention: Mention, policy: Policy) -> tuple[Status, str, bool]:
    """(status, the reason's ending after "... rounds to this", flagged) for ``mention``,
    a rounding of a data value the answer does not mark as approximate."""
    mode = policy.unhedged_rounding
    if mode == "flag" or mention.significant_digits < policy.rounding_min_significant:
        return "drift", ", but the answer does not say it is approximate", True
    figures = f"to {mention.significant_digits} significant figures (Policy.unhedged_rounding={mode!r})"
    if mode == "warn":
        return "drift", f", rounded {figures} without saying so", False
    return "rounded", f", rounded {figures}", False
