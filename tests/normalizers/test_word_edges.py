"""WORD_START / WORD_END are case-sensitive groups (issue 21: cheaper to compile inside
IGNORECASE patterns); they must match exactly where the plain classes do."""

import re

import pytest
import regex
from verifier.normalizers import WORD_END, WORD_START

_EVERY_CHARACTER = "".join(chr(i) for i in range(0x110000))
#: The definitions before the (?-i:...) groups, as they were written.
UNSPACED = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\uac00-\ud7af\u0e00-\u0e7f"
_PLAIN_END = rf"(?![^\W{UNSPACED}])"
_PLAIN_START = rf"(?<![^\W{UNSPACED}])"


def _characters_passing(module, source: str, flags: int) -> list[int]:
    return [m.start() for m in module.compile(source, flags).finditer(_EVERY_CHARACTER)]


@pytest.mark.parametrize("module", [re, regex])
def test_the_edges_hold_before_and_after_the_same_characters_under_ignorecase(module):
    flags = module.IGNORECASE | module.VERBOSE
    # the assertion looks at one character: before it (END) and after it (START)
    assert (_characters_passing(module, WORD_END + "(?s:.)", flags)
            == _characters_passing(module, _PLAIN_END + "(?s:.)", flags))
    assert (_characters_passing(module, "(?s:.)" + WORD_START, flags)
            == _characters_passing(module, "(?s:.)" + _PLAIN_START, flags))


def test_a_spaced_letter_is_a_word_and_an_unspaced_one_is_not():
    end = re.compile(r"\d" + WORD_END, re.IGNORECASE)
    assert end.match("5x") is None and end.match("5É") is None
    assert end.match("5円") and end.match("5 ") and end.match("5")
