"""The currency symbol table shipped as package data (issue 21) is the one Babel gives."""

import pytest
from verifier.normalizers import amounts, currency_data


def test_the_shipped_table_is_what_its_babel_gives():
    # A change to SYMBOL_LOCALES / currency_endings.txt makes the file stale:
    # python -m verifier.normalizers.currency_data --write
    if currency_data.shipped_babel() != currency_data.installed_babel():
        pytest.skip(f"the table was written from Babel {currency_data.shipped_babel()}, "
                    f"{currency_data.installed_babel()} is installed (the fallback test covers it)")
    assert currency_data.shipped() == currency_data.from_babel()
    assert currency_data.main([]) == 0


def test_under_another_babel_the_table_is_computed_from_it(monkeypatch):
    monkeypatch.setattr(currency_data, "shipped_babel", lambda: "0.0.0")
    monkeypatch.setattr(currency_data, "shipped", lambda: {"$": ["XXX"]})  # never read
    assert currency_data.table() == currency_data.from_babel()


def test_the_file_is_what_dumps_writes():
    text = (currency_data.resources.files(currency_data.__package__)
            .joinpath(currency_data.FILE).read_text(encoding="utf-8"))
    assert text == currency_data.dumps(currency_data.shipped(), currency_data.shipped_babel())


def test_the_symbol_table_holds_babel_and_the_word_lists():
    table = amounts.symbol_table()
    assert table["$"][0] == "USD" and "CAD" in table["$"]
    assert table["€"] == ("EUR",) and table["EUR"] == ("EUR",)
    assert "GBp" in table["pence"]  # minor_units.txt
    for symbol, codes in currency_data.shipped().items():
        assert set(codes) <= set(table[symbol])
