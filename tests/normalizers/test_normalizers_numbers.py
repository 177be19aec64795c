from decimal import Decimal

import pytest
from verifier.normalizers import NormalizeError, numbers


@pytest.mark.parametrize(
    ("text", "locale", "value"),
    [
        ("142.30", "en_US", Decimal("142.3")),
        ("1,234,567", "en_US", Decimal(1234567)),
        ("1.234,56", "de_DE", Decimal("1234.56")),
        ("1.234", "de_DE", Decimal(1234)),
        ("1.234", "en_US", Decimal("1.234")),
        ("1,5", "de_DE", Decimal("1.5")),
        ("1\u202f234,56", "fr_FR", Decimal("1234.56")),
        ("1\u00a0234,56", "fr_FR", Decimal("1234.56")),
        ("1 234,56", "fr_FR", Decimal("1234.56")),
        ("1'234.50", "de_CH", Decimal("1234.5")),
        ("1’234.50", "de_CH", Decimal("1234.5")),
        ("12,34,567", "en_IN", Decimal(1234567)),
        ("1,234,567", "en_IN", Decimal(1234567)),
        ("1,234.56", "de_DE", Decimal("1234.56")),  # unambiguous mixed form in any locale
        ("1.234,56", "en_US", Decimal("1234.56")),
        ("−3.5", "en_US", Decimal("-3.5")),
        ("-3.5", "en_US", Decimal("-3.5")),
        ("+3.5", "en_US", Decimal("3.5")),
        ("(1,234)", "en_US", Decimal(-1234)),
        ("2.1bn", "en_US", Decimal(2100000000)),
        ("2.24 million", "en_US", Decimal(2240000)),
        ("5m", "en_US", Decimal(5000000)),
        ("10k", "en_US", Decimal(10000)),
        ("3 MM", "en_US", Decimal(3000000)),
        ("1.5 trillion", "en_US", Decimal("1.5E12")),
        ("3.4 lakh", "en_IN", Decimal(340000)),
        ("1.2 crore", "en_IN", Decimal(12000000)),
        ("2,5 Mrd.", "de_DE", Decimal("2.5E9")),
        ("١٢٣٫٥".replace("٫", "."), "en_US", Decimal("123.5")),  # Arabic-Indic digits
        ("１２３", "en_US", Decimal(123)),  # full-width digits
        (".455", "en_US", Decimal("0.455")),  # no leading zero: a dividend per share
        ("(.12)", "en_US", Decimal("-0.12")),
        ("-.5", "en_US", Decimal("-0.5")),
        (",5", "de_DE", Decimal("0.5")),
        ("2\u00a0236\u00a0000", "en_US", Decimal(2236000)),  # no-break or thin spaces group in any locale
        ("2\u2009236\u2009000.5", "en_GB", Decimal("2236000.5")),
        ("١٤٢٫٣٠", "en_US", Decimal("142.30")),  # Arabic-Indic digits and decimal mark
        ("١٤٢٫٣٠", "de_DE", Decimal("142.30")),  # a mark no locale reads otherwise
        ("١٬٢٣٤", "fr_FR", Decimal(1234)),
        ("１２３．４", "en_US", Decimal("123.4")),  # full-width digits and point
        ("１２３．４", "de_DE", Decimal("123.4")),
    ],
)
def test_parse_reads_value_in_locale(text, locale, value):
    assert numbers.parse(text, locale).value == value


def test_trailing_zero_is_kept_in_mantissa_but_value_equal():
    parsed = numbers.parse("142.30")
    assert str(parsed.mantissa) == "142.30"
    assert parsed.value == Decimal("142.3")


def test_tolerance_is_half_a_unit_of_last_written_digit_after_scaling():
    assert numbers.parse("2.24 million").tolerance == Decimal(5000)
    assert numbers.parse("142.30").tolerance == Decimal("0.005")
    assert numbers.parse("2bn").tolerance == Decimal("5E8")


@pytest.mark.parametrize(
    ("text", "locale"),
    [("5 m", "en_US"), ("1,2,3", "en_US"), ("1,23", "en_US"), ("(1,234", "en_US"), ("12,34", "de_CH"),
     ("1.234.5", "en_US"), ("abc", "en_US"), ("..5", "en_US"), (".", "en_US")],
)
def test_parse_refuses_malformed_numbers(text, locale):
    with pytest.raises(NormalizeError) as info:
        numbers.parse(text, locale)
    assert repr(text) in str(info.value)


def test_too_many_digits_is_a_clear_error():
    with pytest.raises(NormalizeError, match="more than 40 digits"):
        numbers.parse("9" * 10_000)


def test_unknown_locale_is_a_normalize_error():
    with pytest.raises(NormalizeError, match="not a locale Babel knows"):
        numbers.parse("1", "xx_NOPE")


def test_canonical_forms_include_unscaled_mantissa_only_when_scaled():
    assert numbers.canonical_forms(numbers.parse("2.1bn")) == (Decimal("2.1E9"), Decimal("2.1"))
    assert numbers.canonical_forms(numbers.parse("2.1")) == (Decimal("2.1"),)


def test_a_decimal_without_its_leading_zero_is_read_whole_in_text():
    from verifier import Haystack
    from verifier.extract import extractor
    values = {m.text: [f.value for f in m.num_forms] for m in extractor("en_US").extract(
        "The dividend was $.455 a share and margins rose .5% to (.12).")}
    assert values["$.455"] == [Decimal("0.455")]  # was read as 455
    assert Decimal("0.005") in values[".5%"] and Decimal(5) not in values[".5%"]
    assert values["(.12)"][0] == Decimal("-0.12")
    hay = Haystack({"columns": ["Quarter", "Dividend"], "rows": [["March 31", "$.450"], ["June 30", ".455"]]})
    assert sorted(hay.leaf_value.values()) == [Decimal("0.450"), Decimal("0.455")]
    # a decimal glued to a word, a number or punctuation is no leading-dot decimal
    for text in ("version 1.2.3", "(see note 3).5 stores", "rose 12%.5 plants", "[1].5", "...5"):
        values = [f.value for m in extractor("en_US").extract(text) for f in m.num_forms]
        assert not any(0 < abs(v) < 1 for v in values), (text, values)
    assert [f.value for m in extractor("en_US").extract("€.5m and ratio: .5") for f in m.num_forms][::2] == [
        Decimal(500000), Decimal("0.5")]
    # after other punctuation a dot still starts a decimal: "<.5%" is no 5%
    values = [m.num_forms[0].value for m in extractor("en_US").extract("charge-offs were <.5%; beta=.85")]
    assert values == [Decimal("0.005"), Decimal("0.85")]
