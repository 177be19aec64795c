"""What a derivation must equal: the answer's value in the data's scale, within the
tolerance its written precision allows (17.7% matches 17.697%, not 17.62%), compared as
a sum or difference (additive) or as a ratio, with the sign the answer gave it or, as
a magnitude, without. Every search shape reads its targets from here, so a value is
sought the same way by pairs, group statistics and longer expressions."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from verifier.normalizers.numbers import CONTEXT

from ..extract import Mention
from . import compound


@dataclass(frozen=True, slots=True)
class Target:
    value: Decimal
    tolerance: Decimal
    additive: bool  # compare sums and differences (True) or ratios (False) against it
    percent: bool  # a ratio result is shown *100
    #: the answer's value negated: for sums and averages of cells printed as negatives
    #: ("(141,770)" expenses), and a negative amount's share of a positive one; only
    #: acceptable in those shapes (:func:`verifier.derive.plausible.acceptable`)
    magnitude: bool = False


def targets_for(mention: Mention, scale: Decimal) -> list[Target]:
    """What a derivation must equal, in a group whose data scale is ``scale`` (1: none stated,
    where a scaled figure's mantissa is one too, as the match stage reads "$2.1bn" vs 2.1)."""
    targets: list[Target] = []
    percent_like = mention.kind in ("percent", "percentage_points", "basis_points")
    for form in mention.num_forms:
        if form.how == "unscaled" and scale == 1 and not percent_like:  # "12.6 million" over cells of no
            targets.append(Target(form.value, form.tolerance, True, False))  # stated scale: in their units
        if form.how in ("unscaled", "basis points"):
            continue
        if percent_like:
            if form.how == "fraction form":
                targets.append(Target(form.value, form.tolerance, False, True))
            else:  # percent form: differences of percent-valued cells (4.00% - 1.90%)
                targets.append(Target(form.value, form.tolerance, True, False))
        else:
            targets.append(Target(CONTEXT.divide(form.value, scale), CONTEXT.divide(form.tolerance, scale),
                                   True, False))
            if mention.kind in ("number", "multiplier") and len(mention.num_forms) == 1:
                targets.append(Target(form.value, form.tolerance, False, False))  # "a ratio of 1.24"
                if mention.kind == "number" and scale != 1:
                    # "547.5" with no scale word over a table "in millions": the table's own
                    # units, as a plain cell "4,411" is matched as written
                    targets.append(Target(form.value, form.tolerance, True, False))
    return targets


def signed(target: Target, mention: Mention) -> Iterator[Target]:
    """The target with the sign the answer gave it: written ("-12.6"), or implied by
    a word of falling ("fell 12.6" is -12.6). Without either it is taken as written,
    and also negated as a magnitude, which only the shapes that drop a sign may match
    (:func:`verifier.derive.plausible.acceptable`; those are the only searches it costs
    chances in). After a word of
    rising ("rose 29.84%") a ratio has no magnitude: a fall is not a rise."""
    if mention.direction < 0 and not mention.explicit_sign and target.value > 0:
        yield Target(-target.value, target.tolerance, target.additive, target.percent)
    else:
        yield target
        if target.value > 0 and not mention.explicit_sign and (target.additive or mention.direction == 0):
            yield Target(-target.value, target.tolerance, target.additive, target.percent, magnitude=True)


def window_of(t: Target) -> Decimal:
    """Half-width of the neighbourhood whose density of results estimates chance."""
    return max(20 * t.tolerance, abs(t.value) / 4)


def applies(op: str, t: Target) -> bool:
    """Whether ``op`` can produce ``t``: sums and differences give values in the data's
    units, ratios give fractions, percent changes give percentages."""
    if op in ("difference", "sum", "average", "product"):
        return t.additive
    if op == "percent_change" and t.magnitude:
        return False  # a fall written as a rise is a wrong sign, not a lost one
    return not t.additive  # ratios and percent changes: "24.41%", or a fraction "0.2441"


def compound_targets(mention: Mention, scale: Decimal) -> list[compound.Target]:
    """The targets of :mod:`verifier.derive.compound`'s expressions in data of ``scale``: as
    the answer signed them, no magnitudes (those are for pair shapes only)."""
    return [compound.Target(t.value, t.tolerance, t.additive, t.percent, window_of(t))
            for base in targets_for(mention, scale) for t in signed(base, mention) if not t.magnitude]
