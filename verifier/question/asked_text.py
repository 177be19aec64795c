"""Figures of a tool result's running text that the question names: by date and by
what they are, across paragraphs (:func:`asked_prose`); beside the table cells it
names (:func:`asked_mixed`: a cell and a figure of the text); the paragraphs it names
by topic (:func:`named_texts`); and which figures of one paragraph may be added
(:func:`same_kind`). The derive stage searches these groups like the table's own."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from decimal import Decimal

from verifier import stoplists
from verifier.normalizers.numbers import CONTEXT

from .. import yearquarter
from ..derive.operands import Group, cached, group_fact, groups_of, held_figure
from ..index import prose_periods
from ..index.haystack import Haystack, LeafId
from ..text.labels import WORD, focus_words, is_named, label_named, label_words

#: More dated figures of the running text than this answer the question and it named
#: nothing in particular.
MAX_PROSE_ASKED = 8


def asked_prose(hay: Haystack, asked: frozenset[str]) -> list[Group]:
    """The figures of a tool result's running text that the question (``asked``: its
    words, never the answer's) names by date and by what they are, across its
    paragraphs: "the PSUs granted in February 2016 and October 2018" asks for "In
    February 2016, we granted 547,000 PSUs" and "In October 2018, we granted 464,888
    PSUs", two paragraphs apart. Each figure must be dated by its clause
    (:func:`prose_periods.dated_figures`) with a date whose every word (month, year)
    the question names (only its year, when the question names no month); the words
    beside it (:func:`_what`) must share one with the question that is not boilerplate
    ("the Company", "million"); a change ("increased by $50 million") is no level.
    Amounts of money and counts are kept apart. Like cells named along both axes, any
    operation may combine them (kind ``asked``), but a change needs two dates, and a
    word of direction the later less the earlier (``Group.order``). Made once per
    haystack and question; past :data:`MAX_PROSE_CLAUSES` clauses to read, none is read
    (no group)."""
    years = prose_periods.when_words(" ".join(w for w in asked if w.isdigit()))
    if not years:
        return []  # no year named: nothing is asked by date

    def make() -> list[Group]:
        by: dict[tuple[int, Decimal, bool], dict[tuple[Decimal, tuple[int, int]], LeafId]] = defaultdict(dict)
        for fig in _asked_figures(hay, asked):  # the same figure stated twice for one date is one operand
            by[(hay.leaves[fig.leaf].tool, fig.scale, fig.money)].setdefault((fig.value, fig.order), fig.leaf)
        groups = []
        for (_, scale, _), members in by.items():
            if len(years) > 1 and len({order for _, order in members}) < 2:
                continue  # asked across years, all of one date: nothing asked (two items of 2019)
            if 2 <= len(members) <= MAX_PROSE_ASKED:
                keys = sorted(members)
                groups.append(Group("asked", tuple(v for v, _ in keys), tuple(members[k] for k in keys), scale,
                                    order=tuple(o for _, o in keys)))
        return groups
    return cached(hay, ("asked_prose", asked), make)


@dataclass(frozen=True, slots=True)
class _Figure:
    """A figure of running text that a question names by date and by what it is."""

    leaf: LeafId
    value: Decimal  # as written, in ``scale``
    scale: Decimal
    stated: bool  # its scale is its own ("$60.3 million"), not its tool's unit field
    order: tuple[int, int]  # (year, month or 0)
    money: bool
    percent: bool


def _asked_figures(hay: Haystack, asked: frozenset[str]) -> list[_Figure]:
    """Every figure of the running text the question names by date and by what it is
    (the rules of :func:`asked_prose`), no changes ("increased by $50 million"); none
    past :data:`MAX_PROSE_CLAUSES` clauses to read. Made once per haystack and question."""
    years = prose_periods.when_words(" ".join(w for w in asked if w.isdigit()))
    if not years:
        return []
    # a question naming no month names a figure of "April 2019" by "2019"
    loose = _ALL_WHEN if not asked & _ALL_WHEN else frozenset()

    def make() -> list[_Figure]:
        index = cached(hay, ("years_in_text", 0), lambda: _years_in_text(hay))
        leaves = sorted({leaf for year in years for leaf in index.get(year, ())})
        if sum(prose_periods.clauses_naming(hay, leaf, years) for leaf in leaves) > MAX_PROSE_CLAUSES:
            return []  # a question's years all over a long document name nothing in particular
        found = []
        for leaf in leaves:
            for run in prose_periods.dated_figures(hay, leaf, years):
                for dated, what in zip(run, _what(run), strict=True):
                    if not ((dated.when - loose) <= asked and what & asked) or _CHANGE_BY.search(dated.before):
                        continue
                    held = held_figure(hay.text_values[leaf], dated.forms)
                    if held is not None:
                        value, own = held
                        found.append(_Figure(leaf, value, own or hay.leaf_scale(leaf) or Decimal(1), own is not None,
                                             dated.order, dated.money, dated.percent))
        return found
    return cached(hay, ("asked_figures", asked), make)


#: More cells than this named by the question and no figure of the running text is
#: paired with them (the question named no cells in particular).
MAX_MIXED_CELLS = 40
#: A currency sign: a row or column that prints one holds money, not counts.
CURRENCY_SIGN = re.compile(r"[$€£¥₹]|\b(?:US\$|USD|EUR|GBP)\b")


def asked_mixed(hay: Haystack, asked: frozenset[str], focus: frozenset[str]) -> list[Group]:
    """A figure of the running text the question names by date and what (see
    :func:`_asked_figures`) beside the table cells whose row or column the question or
    sentence (``focus``) names (:func:`_focus_cells`), one ``mixed`` group per tool
    result (the text and the table one tool's output): "the sales of Kyocera resale
    products ($318,928 in the text) less the sales to affiliates (a 2017 cell)". Only
    amounts: no percentage on either side, and a count of the text ("3,870 options")
    never beside a money cell (:func:`_money_cell`). The figures are put
    in the cells' scale; one with no scale word of its own only beside cells of its
    tool's unit (a table's corner "(in thousands)" does not say the text's "$318,928"
    is in thousands). The derive stage tries only pairs of one cell and one figure;
    each member keeps its date (``Group.order``, (0, 0) when unknown) so a word of
    direction is the later less the earlier, and ``Group.across`` says the question
    names two years or more."""
    figures = [f for f in _asked_figures(hay, asked) if not f.percent]
    if not figures:
        return []
    across = len({w for w in asked if yearquarter.YEAR_IN_TEXT.fullmatch(w)}) > 1
    cells: dict[int, dict[LeafId, Decimal]] = defaultdict(dict)
    for leaf in cached(hay, ("focus_cells", focus), lambda: _focus_cells(hay, focus)):
        if not hay.is_percent(leaf):
            cells[hay.leaves[leaf].tool][leaf] = hay.leaf_value[leaf]
    groups = []
    for tool, own in cells.items():
        scales = Counter(hay.leaf_scale(leaf) or Decimal(1) for leaf in own)
        scale = max(scales, key=lambda s: (scales[s], s != 1))
        texts = [f for f in figures if hay.leaves[f.leaf].tool == tool and (f.stated or f.scale == scale)]
        if not texts or len(texts) > MAX_PROSE_ASKED:
            continue
        in_scale = [(v, leaf, _cell_order(hay, leaf)) for leaf, v in own.items()
                    if (hay.leaf_scale(leaf) or Decimal(1)) == scale]
        for money in (True, False):  # amounts of money beside any cell, counts beside no money
            members = [(CONTEXT.divide(CONTEXT.multiply(f.value, f.scale), scale), f.leaf, f.order)
                       for f in texts if f.money == money]
            if members:
                members += [c for c in in_scale if money or not _money_cell(hay, c[1])]
                members.sort()
                groups.append(Group("mixed", tuple(v for v, _, _ in members), tuple(leaf for _, leaf, _ in members),
                                    scale, order=tuple(o for _, _, o in members), across=across))
    return groups


def _focus_cells(hay: Haystack, focus: frozenset[str]) -> tuple[LeafId, ...]:
    """The figures whose column header or row label ``focus`` names (at least half of
    its words), a one-row table's too; none when more than :data:`MAX_MIXED_CELLS`
    per tool result (the wording named nothing in particular)."""
    found: dict[int, list[LeafId]] = defaultdict(list)
    for leaf in hay.leaf_value:
        entry = hay.leaves[leaf]
        if entry.key is not None and (is_named(label_words(entry.key), focus) or label_named(hay, leaf, focus)):
            found[entry.tool].append(leaf)
    return tuple(leaf for leaves in found.values() if len(leaves) <= MAX_MIXED_CELLS for leaf in leaves)


def _cell_order(hay: Haystack, leaf: LeafId) -> tuple[int, int]:
    """A cell's date as a figure of the text's: (year, the quarter's last month or 0),
    or (0, 0) when it has none."""
    period = hay.period_of(leaf)
    if period is None:
        return (0, 0)
    return (period[0], 3 * period[1] if period[1] else 0)


def mixed_before(a: tuple[int, int], b: tuple[int, int]) -> bool | None:
    """Whether date ``a`` comes before ``b``; None when either is unknown or they are
    not told apart (one year, and a month for only one of them)."""
    if 0 in (a[0], b[0]):
        return None
    if a[0] != b[0]:
        return a[0] < b[0]
    return a[1] < b[1] if a[1] and b[1] and a[1] != b[1] else None


def _money_cell(hay: Haystack, leaf: LeafId) -> bool:
    """Whether a cell is money: it, its column header or another cell of its column
    prints a currency sign ("$" is often printed on a statement's first row only), or
    its record states a currency. Not the other cells of its row: a row of options
    prints its exercise price in dollars beside its counts."""
    entry = hay.leaves[leaf]
    if CURRENCY_SIGN.search(entry.raw) or CURRENCY_SIGN.search(entry.key or "") or hay.currency_of(leaf):
        return True
    return leaf in cached(hay, ("money_columns", 0), lambda: _money_columns(hay))


def _money_columns(hay: Haystack) -> frozenset[LeafId]:
    """The cells of every column where some cell prints a currency sign."""
    money: set[LeafId] = set()
    for g in (g for g in groups_of(hay) if g.kind == "column"):
        if any(CURRENCY_SIGN.search(hay.leaves[leaf].raw) for leaf in g.leaves):
            money.update(g.leaves)
    return frozenset(money)


#: A figure that is a change, not a level: "revenue increased by $50 million".
_CHANGE_BY = re.compile(r"""(?ix)
    \b(?:by|increased|decreased|rose|fell|grew|declined|dropped|up|down)  # "increased by", "up"
    \s*$                                                                 # just before the figure
""")

#: More clauses than this to read for a question's years, and the prose is not read for
#: figures asked by date (50,000 dated paragraphs would take seconds).
MAX_PROSE_CLAUSES = 200


def _what(run: list[prose_periods.Dated]) -> list[frozenset[str]]:
    """What each dated figure of one clause is, as words: those right beside it
    ("granted 464,888 PSUs", "120,000 RSUs"; no digits, no boilerplate, not its date),
    and for a "respectively" list the clause's subject. A figure with none takes the
    previous figure's when nothing but dates and boilerplate stands between them
    ("$10.0 billion in fiscal 2018, and $14.0 billion in fiscal 2017": both senior
    notes), else it has none."""
    skip = stoplists.load("generic_figure_words")

    def words(text: str, when: frozenset[str]) -> frozenset[str]:
        return frozenset(w for w in focus_words(text) - skip - when if not w.isdigit())
    out: list[frozenset[str]] = []
    for dated in run:
        own = words(f"{dated.before} {dated.after} {dated.subject}", dated.when)
        if not own and out and dated.gap is not None and not words(dated.gap, _ALL_WHEN):
            own = out[-1]
        out.append(own)
    return out


#: Month names: date words, never what a figure is.
_ALL_WHEN = frozenset(prose_periods.MONTHS)


def _years_in_text(hay: Haystack) -> dict[str, list[LeafId]]:
    """The haystack's running texts by the years they write ("2019" -> leaves)."""
    index: dict[str, list[LeafId]] = defaultdict(list)
    for leaf in hay.text_values:
        text = hay.leaves[leaf].raw
        if len(text) <= prose_periods.MAX_TEXT:
            for year in set(yearquarter.YEAR_IN_TEXT.findall(text)):
                index[year].append(leaf)
    return index


#: Fewer words than this that say what the question asks about, and it names no
#: paragraph in particular.
MIN_TEXT_WORDS = 2


def named_texts(hay: Haystack, family: list[Group], focus: frozenset[str]) -> list[Group]:
    """The paragraphs whose words include at least half of what the question or
    sentence asks about (its content words less numbers and the words that name an
    operation; at least :data:`MIN_TEXT_WORDS` of them) and one of the years it names,
    if it names any: "the ratio of the pension
    trust assets for 2017 to 2018" names "pension trust had assets of $415 million and
    $480 million as of December 31, 2018 and 2017, respectively", one paragraph of a
    filing's twenty."""
    cues = stoplists.load_pairs("operation_cues")
    about = frozenset(w for w in focus if not w.isdigit() and w not in cues)
    if len(about) < MIN_TEXT_WORDS:
        return []
    years = frozenset(w for w in focus if yearquarter.YEAR_IN_TEXT.fullmatch(w))
    return [g for g in family if len(about & (words := _text_words(hay, g))) * 2 >= len(about)
            and (not years or years & words)]


def _text_words(hay: Haystack, group: Group) -> frozenset[str]:
    return group_fact(hay, "text_words", group, lambda: focus_words(hay.leaves[group.leaves[0]].raw))


def same_kind(hay: Haystack, group: Group, idx: tuple[int, ...]) -> bool:
    """Whether two figures of one paragraph may be added, subtracted or averaged: not
    an amount of money and a count ("$1.7 million" and "1.2 million dozen"). A bare
    figure ("4.1 million" after "$5.2 million and") is either."""
    kinds = cached(hay, ("figure_kinds", group.leaves[0]), lambda: _figure_kinds(hay, group.leaves[0]))
    # a paragraph's group holds its figures of one scale word ("$5 million" with the
    # millions, "5 farms" with the figures that have none)
    first, second = (kinds.get((group.values[i], group.scale)) or kinds.get((group.values[i], None), frozenset())
                     for i in idx[:2])
    return not ({"money"} == first and {"count"} == second or {"count"} == first and {"money"} == second)


_SPACE_RUN = re.compile(r"\s*")

#: Words after a bare figure that say nothing of what it counts (stoplists/connective_words.txt).
_CONNECTIVE = stoplists.load("connective_words")


def _figure_kinds(hay: Haystack, leaf: LeafId) -> dict[tuple[Decimal, Decimal | None], frozenset[str]]:
    """For each figure of a text, by its value as written and its own scale (None
    without a scale word), as the haystack keeps it: "money" (a currency amount),
    "count" (a number followed by what it counts: "1.2 million dozen", "5 farms") or
    "bare"."""
    text = hay.leaves[leaf].raw
    kinds: dict[tuple[Decimal, Decimal | None], set[str]] = defaultdict(set)
    for m in hay.extractor.extract(text, quoted=False, data=True):
        if m.num_forms and m.kind in ("amount", "number"):
            # the word after it, past spaces (not text[m.end:].lstrip(): a copy of the
            # rest of the page per figure); \s is str.isspace, WORD looks at nothing before
            spaces = _SPACE_RUN.match(text, m.end)  # always matches (maybe empty)
            after = WORD.match(text, spaces.end() if spaces else m.end)
            kind = "money" if m.kind == "amount" else (
                "count" if after and after.group().lower() not in _CONNECTIVE and not after.group().isdigit()
                else "bare")
            operand, written = m.num_forms[0].value, m.written
            if written is None or written == operand:
                kinds[(operand, None)].add(kind)
            else:  # "$5 million": 5 in millions, as the haystack's text figures hold it
                kinds[(written, CONTEXT.divide(operand, written))].add(kind)
    return {key: frozenset(found) for key, found in kinds.items()}
