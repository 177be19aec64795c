"""Property tests: what Babel writes, the normalizers read back; junk in, only
NormalizeError out."""

from decimal import Decimal

import pytest
from babel.numbers import format_decimal, format_percent
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from verifier.normalizers import SUPPORTED_LOCALES, NormalizeError, percents

from verifier import normalizers
from verifier.extract import extract

decimals = st.decimals(
    min_value=Decimal("-1E12"), max_value=Decimal("1E12"), allow_nan=False, allow_infinity=False, places=4
)


def babel_written(formatter, value, locale):
    """What Babel writes for ``value`` in ``locale``.

    Babel 2.x writes "1439552'000" for de_CH: CLDR's group mark "'" is also the quote
    character of number patterns. Swiss text groups every three digits, so for de_CH
    the English grouping with apostrophes stands in.
    """
    if locale == "de_CH":
        return formatter(value, locale="en_US", decimal_quantization=False).replace(",", "'")
    return formatter(value, locale=locale, decimal_quantization=False)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=decimals, locale=st.sampled_from(SUPPORTED_LOCALES))
def test_babel_formatted_number_is_extracted_with_value_and_span(value, locale):
    written = babel_written(format_decimal, value, locale)
    answer = f"Revenue came in at {written} for the period."
    mentions = [m for m in extract(answer, locale) if m.kind in ("number", "date")]
    assert len(mentions) == 1, (written, mentions)
    mention = mentions[0]
    start = answer.index(written)
    assert (mention.start, mention.end) == (start, start + len(written))
    if mention.kind == "date":  # a bare whole number 1900..2100 is read as a year
        assert mention.value == str(value)
    else:
        assert mention.num_forms[0].value == value


@settings(max_examples=200, deadline=None)
@given(value=decimals, locale=st.sampled_from(SUPPORTED_LOCALES))
def test_babel_formatted_percent_reads_back_as_fraction(value, locale):
    fraction = value / 100
    written = babel_written(format_percent, fraction, locale)
    parsed = percents.parse(written, locale)
    assert parsed.fraction == fraction


@given(value=decimals)
def test_percent_fraction_and_basis_points_agree(value):
    pct = percents.parse(f"{value}%")
    bp = percents.parse(f"{value * 100} bp")
    assert pct.fraction == bp.fraction


JUNK = [None, "", " ", "€", "$", "%", "1,2,3", "9" * 10_000, "١٢٣٤", "\u00a0", "\u202f1", "NaN", "inf",
        "-", "−", "((1))", "1e309", "\x00", "🙂", "Q9 2026", "FY", "2026-13-45", b"123", 12, 1.5, [], {}]


@pytest.mark.parametrize("module", normalizers.MODULES, ids=lambda m: m.KIND)
@pytest.mark.parametrize("junk", JUNK, ids=repr)
def test_junk_raises_only_normalize_error(module, junk):
    try:
        module.parse(junk)
    except NormalizeError:
        pass
    assert module.is_valid(junk) in (True, False)


@pytest.mark.parametrize("module", normalizers.MODULES, ids=lambda m: m.KIND)
@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=60))
def test_random_text_raises_only_normalize_error(module, text):
    try:
        module.parse(text)
    except NormalizeError:
        pass
    assert isinstance(module.is_valid(text), bool)


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=300), locale=st.sampled_from(SUPPORTED_LOCALES))
def test_extraction_never_raises_and_spans_point_at_text(text, locale):
    for mention in extract(text, locale):
        assert text[mention.start:mention.end] == mention.text


@settings(max_examples=150, deadline=None)
@given(digits=st.text(alphabet="0123456789", min_size=1, max_size=8), locale=st.sampled_from(SUPPORTED_LOCALES),
       sign=st.sampled_from(["", "-", "+"]), before=st.sampled_from(["", " ", "(", "$"]))
def test_a_decimal_without_its_leading_zero_reads_as_with_it(digits, locale, sign, before):
    mark = normalizers.number_symbols(locale).decimal
    bare = f"{sign}{mark}{digits}"
    assert normalizers.numbers.parse(bare, locale).value == normalizers.numbers.parse(f"{sign}0{mark}{digits}", locale).value
    found = [m for m in extract(f"x {before}{bare} y", locale=locale) if m.num_forms]
    assert [m.num_forms[0].value for m in found][:1] in ([Decimal(f"{sign}0.{digits}")],
                                                         [-Decimal(f"0.{digits}")])  # "(.5" may read as negative


@settings(max_examples=200, deadline=None)
@given(whole=st.text(alphabet="0123456789", min_size=1, max_size=30), frac=st.text(alphabet="0123456789", max_size=10))
def test_a_reported_value_keeps_every_digit_it_was_written_with(whole, frac):
    from verifier.models import decimal_text
    written = Decimal(f"{whole}.{frac}" if frac else whole)
    assert Decimal(decimal_text(written)) == written  # 40 digits: no rounding at 28
