"""Period labels: the year and quarter a key, header or title names."""

import pytest

from verifier.index.period_labels import is_period_label, period_role, year_quarter


@pytest.mark.parametrize("label, want", [
    ("2025-Q3", (2025, 3)), ("Q3 2025", (2025, 3)), ("3Q25", (2025, 3)), ("FY2025", (2025, None)),
    ("2025-03-31", (2025, None)), ("2019 €m", (2019, None)), ("FY2019 $'000", (2019, None)),
    ("April 26, 2025 (1)", (2025, None)), ("2018¹", (2018, None)),
    ("1000", None), ("2019 widgets", None), ("Revenue", None),
])
def test_year_quarter(label, want):
    assert year_quarter(label) == want


def test_a_january_or_february_reporting_date_names_when_but_no_sure_year():
    # a fiscal year ended January 31, 2020 is often called fiscal 2019: no year for it,
    # yet the header still only names when
    assert year_quarter("January 31, 2020") is None
    assert year_quarter("March 31, 2020") == (2020, None)
    assert is_period_label("January 31, 2020")


def test_period_labels_and_roles():
    assert is_period_label("Year ended December 31, 2018")
    assert not is_period_label("Net revenue")
    assert (period_role("fiscal_quarter"), period_role("FY"), period_role("period")) == ("quarter", "year", None)
