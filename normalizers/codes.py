"""Security identifiers: ISIN, CUSIP, SEDOL and LEI, checked with python-stdnum.

A code with the right shape but a wrong check digit is itself a finding (a digit the
model got wrong), so :func:`parse` reads the shape and reports validity instead of
refusing; :func:`validate` raises.

>>> c = parse("US0378331005")
>>> c.scheme, c.valid
('isin', True)
>>> parse("US0378331006").valid
False
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from types import ModuleType

from ._errors import NormalizeError, require_text
from ._text import fold

KIND = "code"



@cache
def _checkers() -> dict[str, ModuleType]:
    """python-stdnum's module of each scheme, imported on the first code-shaped text:
    ``stdnum.util`` imports ssl, pydoc and more (~30 ms), which ``import verifier`` and
    answers without a code never need (issue 21)."""
    import stdnum.cusip
    import stdnum.isin
    import stdnum.lei
    from stdnum.gb import sedol

    return {"isin": stdnum.isin, "cusip": stdnum.cusip, "sedol": sedol, "lei": stdnum.lei}

#: Shapes, most specific first. CUSIP and SEDOL shapes are common in ordinary text
#: (any 9 or 7 alphanumerics), so the extractor accepts them only when the check digit
#: is right or the scheme is named just before ("CUSIP 037833100").
PATTERN = r"""(?<![\w])(?:
    (?P<cd_lei>[0-9A-Z]{18}[0-9]{2})
  | (?P<cd_isin>[A-Z]{2}[0-9A-Z]{9}[0-9])
  | (?P<cd_cusip>(?=[0-9A-Z]*[0-9])[0-9A-Z]{8}[0-9])
  | (?P<cd_sedol>(?=[0-9A-Z]*[0-9])[0-9BCDFGHJKLMNPQRSTVWXYZ]{6}[0-9])
)(?![\w])"""


@cache
def _full() -> re.Pattern[str]:
    # compiled on the first parse: the extractor embeds PATTERN and never needs this one,
    # so ``import verifier`` does not pay for it (issue 21)
    return re.compile(rf"\s*{PATTERN}\s*", re.VERBOSE)


@dataclass(frozen=True, slots=True)
class ParsedCode:
    """A security code: its scheme, compact form, and whether its check digit holds."""

    raw: str
    scheme: str
    code: str
    valid: bool


def scheme_of(g: dict[str, str | None]) -> str:
    """Which scheme's group matched in a :data:`PATTERN` match."""
    for scheme in ("lei", "isin", "cusip", "sedol"):
        if g.get("cd_" + scheme):
            return scheme
    raise AssertionError("no code group matched")


def from_groups(raw: str, g: dict[str, str | None]) -> ParsedCode:
    """Build a ParsedCode from the named groups of a :data:`PATTERN` match."""
    scheme = scheme_of(g)
    code = g["cd_" + scheme]
    assert code is not None
    return ParsedCode(raw, scheme, code, bool(_checkers()[scheme].is_valid(code)))


def parse(text: str, locale: str = "en_US") -> ParsedCode:
    """Read ``text`` as a security code of any scheme; ``valid`` tells the check digit."""
    text = require_text(KIND, text, max_len=64)
    m = _full().fullmatch(fold(text).upper().replace(" ", ""))
    if m is None:
        raise NormalizeError(KIND, text, "not an ISIN, CUSIP, SEDOL or LEI")
    return from_groups(text, m.groupdict())


def validate(text: str, locale: str = "en_US") -> ParsedCode:
    """Like :func:`parse` but raise NormalizeError when the check digit is wrong."""
    code = parse(text, locale)
    if not code.valid:
        raise NormalizeError(KIND, text, f"{code.scheme.upper()} check digit does not match")
    return code


def is_valid(text: object, locale: str = "en_US") -> bool:
    """Whether ``text`` is a code with a correct check digit. Never raises."""
    try:
        validate(text, locale)  # type: ignore[arg-type]
    except NormalizeError:
        return False
    return True


def canonical_forms(value: ParsedCode) -> tuple[str, ...]:
    """A code is stored compact and upper-case."""
    return (value.code,)
