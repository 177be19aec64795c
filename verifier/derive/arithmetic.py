"""The answer's own arithmetic: the computations an answer shows, and whether they hold.

"Gross margin = ($46,298M − $36,386M) / $46,298M ≈ 21.41%", "(12.6% + 5.7% + 5.2%) / 3 =
7.8%", "5 000 € × 1,0850 = 5 425,00 $", "4.21% − 3.86% = 35 bp", "(20,437 / 500,343) * 100
= 4.1%", "30% of $160,000 = $48,000", "Average AP = ($41,433 + $46,092) / 2 = $87,525 / 2 =
$43,762.5". A shown computation is a **chain**: elements joined by relations (``=``,
``≈``, ``~``, ``→``), each element one figure or an expression over figures (``+ - − × x *
/ ÷``, brackets, "of" after a percentage), at least one of them an expression. Words are
labels: after a figure ("$0.86 bid × 100"), before the chain ("Gross margin ="), and
repeated on the next line before its relation ("Gross Margin = $9,912M / $46,298M\\n
Gross Margin ≈ 21.41%"). A result may be given twice ("= 0.048 or 4.8%"), or before the
computation, in brackets ("a ratio of 0.68 (5,121.3 / 7,491.5)").

Each expression is evaluated in Decimal with every figure read as its value (a
percentage as a fraction, an amount with its scale) or else every figure as written
(12.6 for "12.6%": "(20,437 / 500,343) * 100 = 4.1%"). Two neighbours agree when a
figure is within one unit of its last written digit of the expression before it (the
answer may round a step) or two expressions are within 0.5% of each other. A ratio of
two figures is a fraction: it is no "0.6624%" unless the expression multiplies by 100
or works in percentages. This module parses and evaluates; the ``arithmetic`` stage
decides what that means for the items.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, DivisionByZero, InvalidOperation

from verifier.normalizers.numbers import CONTEXT, exponent

from ..extract import NUMERIC_KINDS, Mention

#: One token of the text between two figures.
_TOKEN = re.compile(r"""
    (?P<newline>[ \t]*\n\s*)
  | (?P<space>[ \t]+|\*\*|__|`)                     # (markdown bold is no operator)
  | (?P<rel>=>|~=|[=≈≅~→⇒]|\bequals\b)
  | (?P<alt>(?<=\s)or(?=\s)|\bi\.e\.,?)             # "= 0.048 or 4.8%"
  | (?P<open>\()
  | (?P<close>\))
  | (?P<op>[+\-−–×*/÷])
  | (?P<times>(?<=\s)x(?=\s))                       # "300 x 2"
  | (?P<word>[^\W\d_][\w.'’&-]*)                    # a label: "bid", "Gross", "Margin"
""", re.VERBOSE)
_OPERATORS = {"−": "-", "–": "-", "×": "*", "÷": "/", "x": "*"}
_SIGNS = "+-−–"
_PERCENT_KINDS = frozenset({"percent", "basis_points", "percentage_points"})
#: How far apart two expressions of one chain may be (their figures were rounded).
_EXPRESSIONS_APART = Decimal("0.005")


@dataclass(frozen=True)
class Operand:
    """A figure of the answer in a chain (``unsigned``: its written sign is the operator
    before it, "46,298 −36,386")."""

    index: int  # its position in the mentions given to :func:`chains`
    mention: Mention
    unsigned: bool = False


@dataclass(frozen=True)
class Element:
    """One side of a relation: a single figure, or an expression (``tokens``: operands,
    operator strings and brackets). ``alternatives``: the same figure in another form."""

    tokens: tuple[object, ...]
    alternatives: tuple[Operand, ...] = ()

    @property
    def operands(self) -> list[Operand]:
        return [t for t in self.tokens if isinstance(t, Operand)]

    @property
    def figure(self) -> Operand | None:
        """The one figure, when the element is no expression."""
        return self.tokens[0] if len(self.tokens) == 1 and isinstance(self.tokens[0], Operand) else None


@dataclass(frozen=True)
class Chain:
    """A shown computation: elements joined by relations, from ``start`` to ``end``."""

    elements: tuple[Element, ...]
    start: int
    end: int

    def text(self, answer: str) -> str:
        return answer[self.start:self.end]


def chains(answer: str, mentions: Sequence[Mention]) -> list[Chain]:
    """Every shown computation in ``answer`` over its numeric ``mentions`` (in order)."""
    numeric = [(i, m) for i, m in enumerate(mentions) if m.kind in NUMERIC_KINDS and m.num_forms and not m.invalid]
    if len(numeric) < 2 or not any(ch in answer for ch in "=≈~→("):
        return []
    out = []
    tokens = _tokens(answer, numeric)
    out.extend(_bracketed(tokens, answer))
    for segment in _segments(tokens):
        elements = _elements(segment)
        if len(elements) >= 2 and any(e.figure is None for e in elements):
            first = elements[0].operands[0].mention
            last = [*elements[-1].operands, *elements[-1].alternatives][-1].mention
            out.append(Chain(tuple(elements), _opening(answer, first.start, elements[0]), last.end))
    return out


def _bracketed(tokens: list[object], answer: str) -> list[Chain]:
    """A figure followed by the computation that gives it, in brackets: "a ratio of 0.68
    (5,121.3 / 7,491.5)"."""
    out = []
    for i, t in enumerate(tokens[:-3]):
        if not (isinstance(t, Operand) and tokens[i + 1] == "("):
            continue
        close = next((j for j in range(i + 2, len(tokens)) if not (isinstance(tokens[j], Operand) or tokens[j]
                      in ("+", "-", "*", "/"))), None)
        if close is None or tokens[close] != ")" or close - i < 5:
            continue
        inner = tokens[i + 2:close]
        if _parses(inner):
            last = [o for o in inner if isinstance(o, Operand)][-1].mention
            out.append(Chain((Element(tuple(inner)), Element((t,))), t.mention.start, answer.find(")", last.end) + 1))
    return out


def _tokens(answer: str, numeric: list[tuple[int, Mention]]) -> list[object]:
    out: list[object] = []
    at = 0
    for index, mention in numeric:
        gap = answer[at:mention.start]
        if out and isinstance(out[-1], Operand) and out[-1].mention.kind == "percent" and gap.strip() == "of":
            out.append("*")  # "30% of $160,000"
        else:
            out.extend(_gap(gap))
        previous = next((t for t in reversed(out) if t != ("space",)), None)
        if mention.text[:1] in _SIGNS and (isinstance(previous, Operand) or previous == ")"):
            out.append("-" if mention.text[0] != "+" else "+")  # "46,298 -36,386": the sign is the operator
            out.append(Operand(index, mention, unsigned=True))
        else:
            out.append(Operand(index, mention))
        at = mention.end
    out.extend(_gap(answer[at:]))
    return out


def _gap(text: str) -> list[object]:
    out: list[object] = []
    at = 0
    while at < len(text):
        m = _TOKEN.match(text, at)
        if m is None:
            out.append(("break",))
            at += 1
            continue
        at = m.end()
        kind = m.lastgroup
        if kind == "space":
            continue
        if kind in ("newline", "rel", "alt", "word"):
            out.append((kind,))
        elif kind == "open":
            out.append("(")
        elif kind == "close":
            out.append(")")
        else:
            out.append(_OPERATORS.get(m.group(), m.group()))
    return out


def _segments(tokens: list[object]) -> list[list[object]]:
    """Runs of tokens that may hold one chain: split at anything that is no part of
    arithmetic. Labels go; a line break stays inside a chain only when the next line
    goes on with a relation, perhaps after a label ("...\\n= 52.79 days", "...\\nGross
    Margin ≈ 21.41%")."""
    out: list[list[object]] = [[]]
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t == ("newline",):
            j = i + 1
            while j < len(tokens) and tokens[j] == ("word",):
                j += 1
            if not (j < len(tokens) and tokens[j] == ("rel",)):
                out.append([])
            i = j
            continue
        if t == ("word",):
            words = 1
            while i + words < len(tokens) and tokens[i + words] == ("word",):
                words += 1
            before = out[-1][-1] if out[-1] else None
            after = tokens[i + words] if i + words < len(tokens) else None
            label = words <= 4 and (isinstance(before, Operand) or before == ")" or after == ("rel",))
            if not label:
                out.append([])
            i += words
            continue
        if t == ("break",):
            out.append([])
        else:
            out[-1].append(t)
        i += 1
    return [s for s in out if s]


def _elements(segment: list[object]) -> list[Element]:
    """The chain in a segment: its parts between relations that are expressions or
    figures, the longest run of them."""
    parts: list[list[object]] = [[]]
    for t in segment:
        if t == ("rel",):
            parts.append([])
        else:
            parts[-1].append(t)
    best: list[Element] = []
    run: list[Element] = []
    for k, part in enumerate(parts):
        element = _element(part, first=not run, last=k == len(parts) - 1)
        if element is None:
            best, run = max(best, run, key=len), []
            continue
        run.append(element)
    return max(best, run, key=len)


def _element(part: list[object], first: bool, last: bool) -> Element | None:
    tokens = [t for t in part if t != ("alt",)]
    if not tokens:
        return None
    if ("alt",) in part:  # "0.048 or 4.8%": one figure, given twice
        figures = [t for t in tokens if isinstance(t, Operand)]
        if len(figures) >= 2 and all(isinstance(t, Operand) or t in ("(", ")") for t in tokens):
            return Element((figures[0],), tuple(figures[1:]))
    if first:  # the chain opens with its first operand or bracket
        while tokens and not (isinstance(tokens[0], Operand) or tokens[0] in ("(", "-")):
            if tokens.pop(0) != "(":
                return None  # ") * 100": the end of an expression whose start is words, no element
    if last:  # and ends with its result (and closing brackets)
        while tokens and not (isinstance(tokens[-1], Operand) or tokens[-1] == ")"):
            tokens.pop()
    tokens = _balanced(tokens)
    if not tokens or not _parses(tokens):
        return None
    return Element(tuple(tokens))


def _parses(tokens: list[object]) -> bool:
    """Whether ``tokens`` are one well-formed expression (evaluated over distinct
    values, so that no difference comes out zero)."""
    operands = [t for t in tokens if isinstance(t, Operand)]
    parser = _Parser(list(tokens), {t.index: Decimal(k + 2) for k, t in enumerate(operands)})
    try:
        parser.expression()
    except (IndexError, ValueError, InvalidOperation, DivisionByZero, ZeroDivisionError):
        return False
    return parser.done()


def _opening(answer: str, start: int, element: Element) -> int:
    """Where the chain starts: its first figure, or the brackets opening before it."""
    for t in element.tokens:
        if t != "(":
            break
        at = answer.rfind("(", 0, start)
        start = at if at >= 0 and not answer[at + 1:start].strip("( \t") else start
    return start


def _balanced(tokens: list[object]) -> list[object]:
    """``tokens`` with unmatched brackets dropped."""
    depth, out = 0, []
    for t in tokens:
        if t == "(":
            depth += 1
        elif t == ")":
            if depth == 0:
                continue
            depth -= 1
        out.append(t)
    for _ in range(depth):
        out.remove("(")
    return out


def evaluate(tokens: Sequence[object], value_of: dict[int, Decimal]) -> Decimal | None:
    """The value of an expression, operands read from ``value_of`` (by operand index);
    None when it cannot be evaluated (a division by zero, a malformed expression)."""
    parser = _Parser(list(tokens), value_of)
    try:
        value = parser.expression()
    except (IndexError, ValueError, InvalidOperation, DivisionByZero, ZeroDivisionError):
        return None
    return value if parser.done() else None


class _Parser:
    """Recursive descent: expression := term (('+'|'-') term)*; term := factor
    (('*'|'/') factor)*; factor := operand | '(' expression ')' | ('-'|'+') factor."""

    def __init__(self, tokens: list[object], value_of: dict[int, Decimal]):
        self.tokens, self.value_of, self.at = tokens, value_of, 0

    def done(self) -> bool:
        return self.at == len(self.tokens)

    def _peek(self) -> object:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def expression(self) -> Decimal:
        value = self.term()
        while self._peek() in ("+", "-"):
            op = self.tokens[self.at]
            self.at += 1
            right = self.term()
            value = CONTEXT.add(value, right) if op == "+" else CONTEXT.subtract(value, right)
        return value

    def term(self) -> Decimal:
        value = self.factor()
        while self._peek() in ("*", "/"):
            op = self.tokens[self.at]
            self.at += 1
            right = self.factor()
            value = CONTEXT.multiply(value, right) if op == "*" else CONTEXT.divide(value, right)
        return value

    def factor(self) -> Decimal:
        token = self.tokens[self.at]
        self.at += 1
        if token == "(":
            value = self.expression()
            if self._peek() != ")":
                raise ValueError("unclosed bracket")
            self.at += 1
            return value
        if token in ("-", "+"):
            value = self.factor()
            return -value if token == "-" else value
        if isinstance(token, Operand):
            value = self.value_of[token.index]
            return abs(value) if token.unsigned else value
        raise ValueError(f"unexpected token {token!r}")


def readings(mention: Mention) -> tuple[Decimal, Decimal]:
    """A figure's (value, as written): 0.126 and 12.6 for "12.6%", 4.6298E+10 and 46,298
    for "$46,298M"; the same twice for a plain number."""
    value = mention.num_forms[0].value
    return value, mention.written if mention.written is not None else value


def _tolerance(mention: Mention, reading: Decimal) -> Decimal:
    """One unit of the figure's last written digit, in the units of ``reading``."""
    written = readings(mention)[1]
    unit = Decimal(1).scaleb(exponent(written))
    if reading == written or written == 0:
        return unit
    return abs(CONTEXT.multiply(unit, CONTEXT.divide(reading, written)))


def _works_in_percent(element: Element) -> bool:
    """Whether an expression may give a percentage as its written number: it has a
    percentage among its figures, multiplies by 100 ("(20,437 / 500,343) * 100"), or
    combines plain numbers without a ratio of two of them ("(53.8 + 55.4) / 2")."""
    figures = element.operands
    if any(o.mention.kind in _PERCENT_KINDS or o.mention.value == "100" for o in figures):
        return True
    if any(o.mention.kind == "amount" for o in figures):
        return False
    tokens = element.tokens
    for t, after in itertools.pairwise(tokens):
        if t in ("*", "/") and isinstance(after, Operand) and not _constant_like(after.mention):
            return False  # a ratio or product of two figures is a fraction, not a percentage
    return True


def _constant_like(mention: Mention) -> bool:
    return mention.kind == "number" and mention.text.isdigit() and len(mention.text) <= 4


def values(element: Element) -> tuple[Decimal | None, Decimal | None]:
    """(the element's value with every figure read as its value, with every figure as
    written)."""
    out = []
    for k in (0, 1):
        out.append(evaluate(element.tokens, {o.index: readings(o.mention)[k] for o in element.operands}))
    return out[0], out[1]


def agree(left: Element, right: Element) -> bool:
    """Whether two neighbours of a chain are equal at the precision written."""
    lv = values(left)
    figures = [right.figure, *right.alternatives] if right.figure else []
    if figures:
        return any(_figure_agrees(lv, left, f.mention) for f in figures)
    if left.figure:
        return agree(right, left)
    rv = values(right)
    return any(a is not None and b is not None and abs(a - b) <= _EXPRESSIONS_APART * max(abs(a), abs(b))
               for a, b in zip(lv, rv, strict=True))


def _figure_agrees(computed: tuple[Decimal | None, Decimal | None], left: Element, figure: Mention) -> bool:
    value, written = readings(figure)
    pairs = [(computed[0], value)]
    if not (figure.kind in ("percent", "percentage_points") and left.figure is None and not _works_in_percent(left)):
        pairs.append((computed[1], written))  # 29,220 / 44,112 is 0.6624, which is no "0.6624%"
    if figure.kind == "basis_points":  # percent points to basis points: 4.067 − 3.466 = 60.1 bp
        pairs += [(CONTEXT.multiply(c, 100), written) for c in computed if c is not None]
    return any(c is not None and abs(c - r) <= _tolerance(figure, r) for c, r in pairs)


def as_written(computed: Decimal, figure: Mention) -> str:
    """``computed`` in the units and precision ``figure`` is written in ("21.37%")."""
    value, written = readings(figure)
    shown = CONTEXT.multiply(computed, CONTEXT.divide(written, value)) if value not in (0, written) else computed
    shown = shown.quantize(Decimal(1).scaleb(min(exponent(written), 0)), context=CONTEXT)
    unit = {"percent": "%", "basis_points": " bp", "percentage_points": " pp", "multiplier": "x"}.get(figure.kind, "")
    return f"{shown:,f}{unit}"
