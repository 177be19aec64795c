"""Derivations of three or four cells, over the few cells a question names.

TAT-QA and FinQA questions ask for "the change between the 2018 and 2019 average",
"the difference between average A and average B", "the proportion of land and
leasehold improvements over the gross cost", "the total of the three years": a result
of three or more cells. Searching such expressions over a whole table would find a
match for almost any number, so they are only searched over the cells the question
names (the rows it names, or its rows in its column, at most :data:`MAX_CELLS`; and
figures a clause pairs with periods), only the expressions its wording asks for
(:data:`TEMPLATES`), and only along one row or column. Chance is counted as in the
derive stage (:func:`accidental_hits`): every result of every expression tried that
lands near the target is one more way to be lucky; the derive stage adds them to the
count of its other searches and believes a hit only while the total stays within its
budget.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from itertools import combinations, permutations

from verifier.normalizers.numbers import CONTEXT

#: More named cells than this and the question did not narrow the table down.
MAX_CELLS = 12


@dataclass(frozen=True, slots=True)
class Cell:
    """One operand: its value as written (in its group's scale) and where it sits."""

    value: Decimal
    leaf: int
    row: int  # the record (table row) holding it
    column: object  # its key or column position
    #: its column is a period ("2019"): along its row, it is a period, not an item
    dated_column: bool = False
    #: its row is a period (a transposed table's "2019" row)
    dated_row: bool = False
    #: it is under a "Total" column: along its row, the others' sum, not one more item
    total_column: bool = False
    #: it is in a "Total" row: down its column, the others' sum
    total_row: bool = False


@dataclass(frozen=True, slots=True)
class Target:
    """What a result must equal, within the precision the answer wrote."""

    value: Decimal
    tolerance: Decimal
    additive: bool  # a result in the data's units (sums, differences, means)
    percent: bool  # a fraction the answer shows as a percentage
    window: Decimal  # half-width of the neighbourhood whose crowding estimates chance


@dataclass(frozen=True, slots=True)
class Found:
    """One result of one expression over some cells."""

    op: str
    cells: tuple[Cell, ...]
    result: Decimal
    #: the expression with {0}, {1}... standing for the cells' paths
    template: str
    additive: bool


def _sum(cells: tuple[Cell, ...]) -> Decimal:
    return sum((c.value for c in cells), Decimal(0))


def _lines(cells: list[Cell], periods: bool = True) -> list[list[Cell]]:
    """The rows and the columns among ``cells``: what a total, a mean or a share is
    taken along (cells of different rows and columns are not summed together). With
    ``periods`` False, only lines of items (segments, rows of a column): a row's
    periods are not added up and set against another period."""
    by_row: dict[int, list[Cell]] = {}
    by_column: dict[object, list[Cell]] = {}
    for c in cells:
        by_row.setdefault(c.row, []).append(c)
        by_column.setdefault(c.column, []).append(c)
    rows = [line for line in by_row.values() if periods or not any(c.dated_column for c in line)]
    columns = [line for line in by_column.values() if periods or not any(c.dated_row for c in line)]
    return [line for line in (*rows, *columns) if len(line) >= 2]


def _runs(line: list[Cell]) -> Iterator[tuple[Cell, ...]]:
    """Unbroken runs of three to six cells of a line, in the order printed: the years
    2017-2019 of a row, the rows of a section; not any three of them."""
    for k in range(3, min(6, len(line)) + 1):
        for start in range(len(line) - k + 1):
            yield tuple(line[start:start + k])


def _items(line: list[Cell]) -> list[list[Cell]]:
    """A line cut at the cells that total it: a row's "Total" column, a column's "Total"
    or "Subtotal" rows (adding or averaging them with the rest counts items twice, and
    a run across a subtotal mixes two sections)."""
    along_row = len({c.row for c in line}) == 1
    pieces: list[list[Cell]] = [[]]
    for c in line:
        if c.total_column if along_row else c.total_row:
            pieces.append([])
        else:
            pieces[-1].append(c)
    return [piece for piece in pieces if piece]


def _totals(cells: list[Cell]) -> Iterator[Found]:
    """sum(a, b, c, ...) of an unbroken run of a row or column (no total within it)."""
    for line in _lines(cells):
        for group in (run for piece in _items(line) for run in _runs(piece)):
            names = " + ".join(f"{{{i}}}" for i in range(len(group)))
            yield Found("total", group, _sum(group), names, True)


def _means(cells: list[Cell]) -> Iterator[Found]:
    """avg(a, b, c, ...) of an unbroken run of a row or column (no total within it)."""
    for line in _lines(cells):
        for group in (run for piece in _items(line) for run in _runs(piece)):
            names = ", ".join(f"{{{i}}}" for i in range(len(group)))
            yield Found("mean", group, CONTEXT.divide(_sum(group), len(group)), f"avg({names})", True)


def _one_row_lines(cells: list[Cell]) -> list[list[Cell]]:
    return [line for line in _lines(cells) if len({c.row for c in line}) == 1]


def _at(line: list[Cell], column: object) -> Cell:
    return next(c for c in line if c.column == column)


def _mean_differences(cells: list[Cell]) -> Iterator[Found]:
    """(a + b) / 2 - (c + d) / 2: the change between two two-year averages of one row
    (2019+2018 against 2018+2017: three periods in a row, in order), or the gap between
    two rows' averages over the same two columns."""
    template = "({0} + {1}) / 2 - ({2} + {3}) / 2"
    for line in _one_row_lines(cells):
        for a, b, c in zip(line, line[1:], line[2:], strict=False):
            for four in ((a, b, b, c), (b, c, a, b)):
                yield Found("mean_difference", four,
                            CONTEXT.divide(four[0].value + four[1].value - four[2].value - four[3].value, 2),
                            template, True)
    for first, second in permutations(_one_row_lines(cells), 2):
        common = [c.column for c in first if any(d.column == c.column for d in second)]
        for x, y in combinations(common, 2):
            a, b, c, d = _at(first, x), _at(first, y), _at(second, x), _at(second, y)
            yield Found("mean_difference", (a, b, c, d), CONTEXT.divide(a.value + b.value - c.value - d.value, 2),
                        template, True)


def _sum_differences(cells: list[Cell]) -> Iterator[Found]:
    """(a + b) - c and a - (b + c) among the items of one period."""
    for line in _lines(cells, periods=False):
        for a, b in combinations(line, 2):
            for c in line:
                if c.leaf not in (a.leaf, b.leaf):
                    yield Found("sum_difference", (a, b, c), a.value + b.value - c.value, "({0} + {1}) - {2}", True)
                    yield Found("sum_difference", (c, a, b), c.value - a.value - b.value, "{0} - ({1} + {2})", True)


def _sum_ratios(cells: list[Cell]) -> Iterator[Found]:
    """(a + b) / c among the items of one period: the share of two rows (or segments)
    in a total; and c / (a + b)."""
    for line in _lines(cells, periods=False):
        for a, b in combinations(line, 2):
            for c in line:
                if c.leaf in (a.leaf, b.leaf):
                    continue
                if c.value != 0:
                    yield Found("sum_ratio", (a, b, c), CONTEXT.divide(a.value + b.value, c.value),
                                "({0} + {1}) / {2}", False)
                if a.value + b.value != 0:
                    yield Found("sum_ratio", (c, a, b), CONTEXT.divide(c.value, a.value + b.value),
                                "{0} / ({1} + {2})", False)


def _sum_changes(cells: list[Cell]) -> Iterator[Found]:
    """((a + b) - (c + d)) / (c + d): the percent change of two rows combined, from one
    column to another (the same two rows in each)."""
    for first, second in combinations(_one_row_lines(cells), 2):
        common = [c.column for c in first if any(d.column == c.column for d in second)]
        for x, y in permutations(common, 2):
            a, c, b, d = _at(first, x), _at(first, y), _at(second, x), _at(second, y)
            base = c.value + d.value
            if base != 0:
                yield Found("sum_change", (a, b, c, d), CONTEXT.divide(a.value + b.value - base, base),
                            "(({0} + {1}) - ({2} + {3})) / ({2} + {3})", False)


#: The expressions each operation cue of the question asks for ("average" and "change"
#: together: a change of averages).
TEMPLATES: dict[frozenset[str], tuple[Callable[[list[Cell]], Iterator[Found]], ...]] = {
    frozenset({"total"}): (_totals,),
    frozenset({"mean"}): (_means,),
    frozenset({"mean", "difference"}): (_mean_differences,),
    frozenset({"difference"}): (_sum_differences,),
    frozenset({"ratio"}): (_sum_ratios,),
    frozenset({"share"}): (_sum_ratios,),
    frozenset({"percent_change"}): (_sum_ratios, _sum_changes),
    frozenset({"percent_change", "difference"}): (_sum_changes,),
}


def templates_for(cues: tuple[str, ...]) -> list[Callable[[list[Cell]], Iterator[Found]]]:
    """The expressions the question's cues ask for, once each (in :data:`TEMPLATES`
    order)."""
    asked = set(cues)
    chosen: list[Callable[[list[Cell]], Iterator[Found]]] = []
    for needs, makers in TEMPLATES.items():
        if needs <= asked:
            chosen += [m for m in makers if m not in chosen]
    return chosen


def accidental_hits(near: int, tolerance: Decimal, window: Decimal) -> float:
    """Expected accidental hits from ``near`` results that fall within ``window`` of a
    target but miss it: each is as likely as any to have been the one a wrong answer
    landed within ``tolerance`` of. The derive stage counts pairs and group statistics
    the same way."""
    if window <= tolerance:
        return 0.0
    return near * float(tolerance) / float(window - tolerance)


def search(jobs: list[tuple[list[Cell], list[Target]]], cues: tuple[str, ...],
           fits: Callable[[Found, Target], bool],
           accept: Callable[[Found, Target], bool]) -> tuple[tuple[Found, Target] | None, float]:
    """The first result of the cued expressions over each job's cells that equals one
    of its targets and passes ``accept``, and the expected number of accidental hits
    over everything enumerated up to it (every job up to and including the hit's): the
    caller believes the hit only if that, with the chances it already spent, stays
    within its budget. A wrong value is then believed only where the chances of the
    searches up to its hit were within budget, which bounds false hits by it. Results
    that do not ``fit`` a target (a sum of amounts for a percentage) are neither hits
    nor chances."""
    makers = templates_for(cues)
    hit: tuple[Found, Target] | None = None
    near: dict[Target, int] = {}  # per target: results near it that miss
    for cells, targets in jobs:
        if not 3 <= len(cells) <= MAX_CELLS:
            continue
        for make in makers:
            found = _tally(make(cells), targets, fits, accept, near)
            hit = hit or found
        if hit is not None:
            break  # the jobs after the hit's were never searched for this value
    return hit, _risk(near)


def score(founds: Iterable[Found], targets: list[Target],
          accept: Callable[[Found, Target], bool]) -> tuple[tuple[Found, Target] | None, float]:
    """The first of ``founds`` (results worked out elsewhere: the ratio a question
    spells out) that equals one of ``targets`` and passes ``accept``, and the expected
    number of accidental hits over all of them, counted as :func:`search` counts."""
    near: dict[Target, int] = {}
    hit = _tally(founds, targets, lambda found, t: True, accept, near)
    return hit, _risk(near)


def _tally(founds: Iterable[Found], targets: list[Target], fits: Callable[[Found, Target], bool],
           accept: Callable[[Found, Target], bool], near: dict[Target, int]) -> tuple[Found, Target] | None:
    """The first result within tolerance of a target that ``accept`` takes; every
    result near a target that misses it counted in ``near``."""
    hit: tuple[Found, Target] | None = None
    for found in founds:
        for t in targets:
            if found.additive != t.additive or not fits(found, t):
                continue
            off = abs(found.result - t.value)
            if off <= t.tolerance:
                if hit is None and accept(found, t):
                    hit = (found, t)
            elif off <= t.window:
                near[t] = near.get(t, 0) + 1
    return hit


def _risk(near: dict[Target, int]) -> float:
    return sum(accidental_hits(n, t.tolerance, t.window) for t, n in near.items())
