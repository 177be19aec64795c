"""Counts and prices: the one product a derivation may take is a count of shares or
units times a price per one (150 shares at $142.30 are worth $21,345). Which field
holds a count and which a price is read from their keys here, for the search (which
records hold both), the plausibility checks and the printing of a product (count
first)."""

from __future__ import annotations

import re
from decimal import Decimal

from ..index.haystack import Haystack, LeafId
from ..index.scales import key_scale
from .operands import Group, group_fact

#: What a price's field or column is called: "price", "avg_cost", "Weighted-Average
#: Exercise Price Per Share", "AveragePrice Paidper Share", "px_last"; not a ratio of a
#: price ("price_to_earnings", "Price/Book"), not other per-share figures (a dividend
#: per share times the shares is a payout, not what a holding is worth).
_PER_UNIT = re.compile(r"(?i)price(?![\s_-]*(?:to(?:\b|_)|/))|(?:^|_)px(?:_|$)|cost[\s_-]*basis|av(?:era)?g[\s_-]*cost")
#: What a count of shares or units is called: "qty", "Number of Shares", "units",
#: "Number of securities to be issued" (not "Available-for-sale securities", an amount).
_COUNT = re.compile(r"(?i)shares|quantity|(?:^|_)qty(?:_|$)|units|contracts|number[\s_]*of[\s_]*securities")


def prices_and_counts(hay: Haystack, group: Group) -> bool:
    """Whether ``group`` holds a count and a price (a product could be made). Cached."""
    leaves = group.leaves
    # (records are a handful of fields; a group of hundreds is no record to multiply in)
    return group_fact(hay, "products", group, lambda: group.scale == 1 and len(leaves) <= 64 and any(
        count_times_price(hay, a, b) for a in leaves for b in leaves if a != b))


def count_times_price(hay: Haystack, count: LeafId, price: LeafId) -> bool:
    """Whether ``count`` holds a number of shares or units and ``price`` a price per
    one: both positive (a short position's negative value is no holding's worth), as
    written (a count "in thousands", a "price_k", scales one side only), and not
    percentages."""
    kc, kp = hay.leaves[count].key or "", hay.leaves[price].key or ""
    return (bool(_PER_UNIT.search(kp)) and bool(_COUNT.search(kc)) and not _PER_UNIT.search(kc)
            and key_scale(kc) is None and key_scale(kp) is None
            and hay.leaf_value.get(count, Decimal(0)) > 0 and hay.leaf_value.get(price, Decimal(0)) > 0
            and not hay.is_percent(count) and not hay.is_percent(price))
