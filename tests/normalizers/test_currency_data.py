"""The currency symbol table shipped as package data (issue 21) is the one Babel gives."""

from verifier.normalizers import amounts, currency_data


def test_the_shipped_table_is_what_the_installed_babel_gives():
    # A Babel upgrade or a change to SYMBOL_LOCALES / currency_endings.txt makes the file
    # stale: python -m verifier.normalizers.currency_data --write
    assert currency_data.shipped() == currency_data.from_babel()
    assert currency_data.main([]) == 0


def test_the_file_is_what_dumps_writes():
    text = (currency_data.resources.files(currency_data.__package__)
            .joinpath(currency_data.FILE).read_text(encoding="utf-8"))
    assert text == currency_data.dumps(currency_data.shipped())


def test_the_symbol_table_holds_babel_and_the_word_lists():
    table = amounts.symbol_table()
    assert table["$"][0] == "USD" and "CAD" in table["$"]
    assert table["€"] == ("EUR",) and table["EUR"] == ("EUR",)
    assert "GBp" in table["pence"]  # minor_units.txt
    for symbol, codes in currency_data.shipped().items():
        assert set(codes) <= set(table[symbol])
