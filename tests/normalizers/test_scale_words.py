"""Scale words per locale (CLDR's compact forms through Babel) and hedges in every
script: "circa 22,4 miliardi", "rund 1,58 Billionen €", "約45.1兆円"."""

from __future__ import annotations

from decimal import Decimal

import pytest
from verifier.normalizers.numbers import scale_words

from verifier.extract import extract


@pytest.mark.parametrize(("text", "locale", "value"), [
    ("circa 22,4 miliardi", "it_IT", Decimal("22.4E9")),
    ("rund 1,58 Billionen €", "de_DE", Decimal("1.58E12")),   # a German Billion is 10^12
    ("1.283,4 millones", "es_ES", Decimal("1.2834E9")),
    ("1,5 mil millones", "es_ES", Decimal("1.5E9")),
    ("roughly ₹19.1 lakh crore", "en_IN", Decimal("1.91E13")),
    ("$2.1 billion", "en_US", Decimal("2.1E9")),                # an English billion stays 10^9
    ("5 Mrd. €", "de_DE", Decimal("5E9")),
])
def test_a_locales_scale_words_scale_its_figures(text, locale, value):
    figures = [m for m in extract(text, locale) if m.kind in ("number", "amount")]
    assert len(figures) == 1 and Decimal(figures[0].value) == value


def test_the_locale_word_wins_only_in_its_locale():
    assert scale_words("de_DE")["Billion"][0] == Decimal("1E12")
    assert scale_words()["Billion"][0] == Decimal("1E9")


@pytest.mark.parametrize(("text", "locale"), [("時価総額は約45.1兆円です", "ja_JP"), ("约3.5%", "zh_CN"),
                                              ("circa 22,4 miliardi", "it_IT"), ("aproximadamente 3,2 %", "es_ES")])
def test_a_hedge_in_any_script_marks_the_figure_rounded(text, locale):
    assert [m.hedged for m in extract(text, locale) if m.kind != "ticker"] == [True]
