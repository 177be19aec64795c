"""Records: the period, entity and currency the enclosing records state for a leaf."""

from decimal import Decimal

from verifier import Haystack


def _leaf(h: Haystack, value: str) -> int:
    return h.numbers[Decimal(value)][0].leaf


def test_the_nearest_record_stating_a_period_dates_its_figures():
    h = Haystack({"fiscal_year": 2024, "quarters": [{"quarter": "Q2", "year": 2025, "revenue": 11.5},
                                                     {"revenue": 9.25}],
                  "by_year": {"2023": {"eps": 1.75}}})
    assert h.period_of(_leaf(h, "11.5")) == (2025, 2)
    assert h.period_of(_leaf(h, "9.25")) == (2024, None)  # the enclosing record's
    assert h.period_of(_leaf(h, "1.75")) == (2023, None)  # a key that names a year


def test_a_snapshot_date_is_no_period():
    h = Haystack({"as_of": "2025-06-10", "pe": 31.5})
    assert h.period_of(_leaf(h, "31.5")) is None


def test_entity_and_currency_come_from_the_enclosing_records():
    h = Haystack({"currency": "eur", "quotes": [{"symbol": "sap", "price": 180.25}],
                  "MSFT": {"price": 410.5, "currency": "GBX"}, "fx": 1.0825})
    assert h.entity_of(_leaf(h, "180.25")) == "SAP"
    assert h.entity_of(_leaf(h, "410.5")) == "MSFT"
    assert h.entity_of(_leaf(h, "1.0825")) is None
    assert h.currency_of(_leaf(h, "180.25")) == "EUR"
    assert h.currency_of(_leaf(h, "410.5")) == "GBp"
