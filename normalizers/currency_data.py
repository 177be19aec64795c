"""Babel's part of the currency symbol table, computed at build time into package data.

Reading it from Babel means loading the CLDR data of 18 locales and about 5,500
``get_currency_symbol`` calls (each one a ``Locale.parse``): about 0.2 s, which the first
``verify()`` of every process paid (issue 21). The result depends only on the installed
Babel and on the constants below, so it is written once to ``currency_symbols.json`` and
read from there (a few ms). The file names the Babel version it was written from; under
any other installed version :func:`table` computes the table from that Babel instead, so
an upgrade costs the 0.2 s again but never a stale symbol.
``tests/normalizers/test_currency_data.py`` recomputes it from the installed Babel and
fails when the shipped file is stale for that version. Regenerate with::

    python -m verifier.normalizers.currency_data --write
"""

from __future__ import annotations

import json
import sys
from importlib import resources

#: Locales whose currency symbols are collected. Local symbols differ ("$" is USD in
#: en_US, CA$ elsewhere), so several markets are read.
SYMBOL_LOCALES = (
    "en_US", "en_GB", "en_CA", "en_AU", "en_IN", "en_HK", "en_SG", "de_DE", "de_CH",
    "fr_FR", "fr_CH", "ja_JP", "zh_CN", "ko_KR", "pt_BR", "es_MX", "sv_SE", "nb_NO",
)

#: Symbols that are also ordinary words or letters, too risky to read as money.
AMBIGUOUS_SYMBOLS = frozenset({"R", "K", "L", "S", "G", "P", "E", "F", "T", "Q", "B", "C"})

#: The shipped table, next to this module.
FILE = "currency_symbols.json"


def data_lines(name: str) -> list[tuple[str, list[str]]]:
    """The whitespace-split lines of a data file of this package, comments skipped."""
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    return [(parts[0], parts[1:]) for parts in (line.split() for line in text.splitlines())
            if parts and not parts[0].startswith("#")]


#: Currency words people write out ("500 dollars"); their codes are read from Babel's
#: display names, so the list (currency_endings.txt) is the words, not the mapping.
CURRENCY_WORDS = tuple(word for word, _ in data_lines("currency_endings.txt"))


def from_babel() -> dict[str, list[str]]:
    """Symbol, code or currency word -> the ISO codes Babel gives it, in first-seen order
XX"""
    from babel.numbers import get_currency_name, get_currency_symbol, list_currencies

    table: dict[str, set[str]] = {}
    for code in sorted(list_currencies()):  # a set: sorted so the file is stable
        table.setdefault(code, set()).add(code)
        for loc in SYMBOL_LOCALES:
            symbol = get_currency_symbol(code, locale=loc)
            # letters-only symbols ("kr", "UM") are words too often; codes cover them
            if symbol != code and not symbol.isalpha() and symbol not in AMBIGUOUS_SYMBOLS:
                table.setdefault(symbol, set()).add(code)
        name = get_currency_name(code, count=2, locale="en").lower()
        for word in CURRENCY_WORDS:
            if name.endswith(word):
                table.setdefault(word, set()).add(code)
    return {symbol: sorted(codes) for symbol, codes in table.items()}


def _file() -> dict[str, object]:
    text = resources.files(__package__).joinpath(FILE).read_text(encoding="utf-8")
    data: dict[str, object] = json.loads(text)
    return data


def shipped() -> dict[str, list[str]]:
    """The table :func:`from_babel` gave when ``currency_symbols.json`` was written."""
    symbols = _file()["symbols"]
    assert isinstance(symbols, dict)
    return symbols


def shipped_babel() -> str:
    """The Babel version the shipped table was written from."""
    return str(_file()["babel"])


def installed_babel() -> str:
    import babel

    return str(babel.__version__)


def table() -> dict[str, list[str]]:
    """The shipped table when the installed Babel is the one it was written from, else
    the table computed from the installed Babel."""
    return shipped() if shipped_babel() == installed_babel() else from_babel()


def dumps(table: dict[str, list[str]], babel_version: str) -> str:
    """The file's text: one symbol a line, so a Babel update shows as a readable diff."""
    lines = [f"    {json.dumps(symbol, ensure_ascii=False)}: {json.dumps(codes)}"
             for symbol, codes in table.items()]
    return ('{\n  "babel": ' + json.dumps(babel_version) + ',\n  "symbols": {\n' + ",\n".join(lines)
            + "\n  }\n}\n")


def main(argv: list[str]) -> int:
    """``--write``: regenerate the shipped file from the installed Babel; otherwise say
    whether it is current (exit 1 when stale)."""
    text = dumps(from_babel(), installed_babel())
    target = resources.files(__package__).joinpath(FILE)
    if "--write" in argv:
        with resources.as_file(target) as path:
            path.write_text(text, encoding="utf-8")
        print(f"wrote {target}")
        return 0
    current = target.read_text(encoding="utf-8") == text
    print(f"{target}: {'current' if current else 'stale, run with --write'}")
    return 0 if current else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
