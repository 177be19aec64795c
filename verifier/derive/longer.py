"""Longer expressions in the derive search: the ratio the question spells out
(:func:`spelled_ratio`), and three- and four-cell expressions over the cells it names
(:func:`compound_hit`, over :mod:`verifier.derive.compound`). They join the same count
of chances and the same work budget as the pair searches, and their hits are refused
by the same question checks."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from ..extract import Mention
from ..index.haystack import Haystack, LeafId
from . import compound
from .chance import Budget, Chances, OutOfBudget
from .expressions import Derivation, compound_derivation
from .operands import Group, cell_of, column_total, prose_series
from .plausible import adds_up, earlier_leaf, too_coarse
from .targets import compound_targets


def compound_hit(mention: Mention, hay: Haystack, asked: list[Group], rows: list[Group],
              cues: tuple[str, ...], max_chance: float, chances: Chances,
              budget: Budget | None) -> Derivation | None:
    """Three- and four-cell expressions over the cells the question names (see
    :mod:`verifier.derive.compound`): every cell it names along both axes (``asked``; with,
    for a share or ratio, each one's column total), and the rows it names in full."""
    sets: list[tuple[Decimal, list[compound.Cell]]] = []
    seen: set[frozenset[LeafId]] = set()
    # the rows named in full together ("average A and average B"), or each alone
    for groups in [asked, rows, *([g] for g in rows)]:
        cells = {leaf: value for g in groups for value, leaf in zip(g.values, g.leaves, strict=True)}
        if groups is asked and ("share" in cues or "ratio" in cues):
            # "the proportion of A and B over total net sales": the named cells' column
            # total, which a question names only as "total" (no row label to match)
            for leaf in list(cells):
                total = column_total(hay, leaf)
                if total is not None:
                    cells.setdefault(total, hay.leaf_value[total])
        key = frozenset(cells)
        if groups and key not in seen and len(cells) <= compound.MAX_CELLS:
            seen.add(key)
            sets.append((groups[0].scale, [cell_of(hay, leaf, v) for leaf, v in sorted(cells.items())]))
            if groups is rows:
                break  # every row is in it
    if "total" in cues or "mean" in cues:  # "the total depreciation from 2017 to 2019"
        sets += prose_series(hay)
    jobs = [(cells, compound_targets(mention, scale)) for scale, cells in sets]

    def fits(found: compound.Found, t: compound.Target) -> bool:
        return adds_up(hay, mention, t.additive, [c.leaf for c in found.cells])

    def accept(found: compound.Found, t: compound.Target) -> bool:
        if (mention.direction and found.op in ("mean_difference", "sum_change")
                and earlier_leaf(hay, found.cells[1].leaf, found.cells[3].leaf)):
            # "fell": later less earlier, as for a single change (the second cell of each
            # half tells them apart: (2019 + 2018) / 2 - (2018 + 2017) / 2)
            return False
        if t.additive and too_coarse(mention, found.result, t.value, [c.value for c in found.cells]):
            return False
        return _unrefused(hay, chances, found, t)

    if budget is not None and not budget.spend(sum(len(cells) ** 2 for _, cells in sets)):
        raise OutOfBudget
    hit, risk = compound.search(jobs, cues, fits, accept)
    chances.spent += risk
    if hit is None:
        return None
    if not chances.believed(max_chance):
        return None
    return compound_derivation(hay, *hit)


def spelled_ratio(mention: Mention, hay: Haystack, founds: list[compound.Found], max_chance: float,
                   chances: Chances) -> Derivation | None:
    """The ratio the question spells out (:mod:`verifier.question.asked_ratio`), first of all:
    the few results of that one expression are the few chances it adds."""
    targets = [t for t in compound_targets(mention, Decimal(1)) if not t.additive]

    def accept(found: compound.Found, t: compound.Target) -> bool:
        return _unrefused(hay, chances, found, t)
    hit, risk = compound.score(founds, targets, accept)
    chances.spent += risk
    if hit is None or not chances.believed(max_chance):
        return None
    return compound_derivation(hay, *hit)


def not_spelled(spelled: list[compound.Found], refuses: Callable[[Derivation], bool] | None,
                 ) -> Callable[[Derivation], bool]:
    """``refuses``, and any ratio or share of the cells of the ratio the question
    spells out: it said which is divided by which."""
    cells = frozenset(c.leaf for found in spelled for c in found.cells)

    def refused(found: Derivation) -> bool:
        if found.op in ("ratio", "share", "sum_ratio") and set(found.operands) <= cells:
            return True
        return refuses is not None and refuses(found)
    return refused


def _unrefused(hay: Haystack, chances: Chances, found: compound.Found, t: compound.Target) -> bool:
    """Whether the question's checks (``chances.refuses``) let a longer expression's hit
    stand."""
    return not (chances.refuses and chances.refuses(compound_derivation(hay, found, t)))
