"""A code in a table cell is named by its column's header: a wrong check digit under
"| CUSIP |" is an invalid CUSIP, not an ordinary alphanumeric left unread."""

from __future__ import annotations

from verifier import verify
from verifier.extract import extract
from verifier.extract.tables import Headers

TABLE = "| Tenor | CUSIP | Coupon |\n|---|---|---|\n| 30Y | 912810UM3 | 4.625% |\n\nAfter | the table\n"


def test_each_cell_has_its_columns_header_and_nothing_outside_has_one():
    headers = Headers(TABLE)
    assert headers.at(TABLE.index("30Y")) == "Tenor"
    assert headers.at(TABLE.index("912810UM3")) == "CUSIP"
    assert headers.at(TABLE.index("4.625")) == "Coupon"
    assert headers.at(TABLE.index("Tenor")) is None  # the header row is no cell under a header
    assert headers.at(TABLE.index("the table")) is None


def test_a_bad_check_digit_under_a_code_column_is_an_invalid_code():
    codes = [m for m in extract(TABLE) if m.kind == "code"]
    assert [(m.text, m.invalid) for m in codes] == [("912810UM3", "CUSIP check digit does not match")]


def test_the_same_alphanumeric_in_an_unnamed_column_is_not_read_as_a_code():
    text = TABLE.replace("CUSIP", "Series")
    assert not [m for m in extract(text) if m.kind == "code"]


def test_the_wrong_cusip_is_flagged_against_the_data():
    data = [{"name": "q", "output": {"quotes": [{"tenor": "30Y", "cusip": "912810UM8", "coupon": 4.625}]}}]
    report = verify(TABLE, data, judge=False)
    flagged = [(i.text, i.status) for i in report.items if i.flagged]
    assert flagged == [("912810UM3", "invalid")]
