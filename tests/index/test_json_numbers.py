"""Bounded reading of JSON numbers: no huge integer is ever built."""

import time
from decimal import Decimal

import pytest

from verifier.index.json_numbers import number_text, small_int


def test_finite_numbers_read_as_written():
    assert number_text(142.3) == ("142.3", Decimal("142.3"))
    assert number_text(7) == ("7", Decimal(7))
    assert number_text(Decimal("1.50")) == ("1.50", Decimal("1.50"))


@pytest.mark.parametrize("value", [float("nan"), float("inf"), Decimal("Infinity"), 10 ** 60, Decimal("1e10000000")])
def test_no_value_for_nan_infinities_and_huge_numbers(value):
    assert number_text(value)[1] is None


def test_a_huge_exponent_is_no_small_int_and_costs_nothing():
    started = time.perf_counter()
    assert small_int(Decimal("1e10000000"), 1900, 2100) is None
    assert small_int(float("inf"), 1, 4) is None
    assert time.perf_counter() - started < 0.5


@pytest.mark.parametrize("value, lo, hi, strip, want", [
    ("Q3", 1, 4, "Qq", 3), (3.0, 1, 4, "", 3), ("FY2025", 1900, 2100, "FYfy", 2025),
    (3.5, 1, 4, "", None), (5, 1, 4, "", None), (True, 0, 4, "", None), ("3 ", 1, 4, "", 3), ("", 1, 4, "", None),
])
def test_small_int(value, lo, hi, strip, want):
    assert small_int(value, lo, hi, strip) == want
