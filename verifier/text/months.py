"""English month names, wide ("January") and abbreviated ("Jan"), from Babel's CLDR
data, read once at import.

Several readers need them: the sentence splitter (an abbreviation's full stop ends no
sentence), the data's prose periods ("Feb. 2016" is February), the label words a
question would not repeat, the capitalised words that name no company. Typing the
names out in each of them drifted; CLDR is the one list. "Sept", which filings write for
September and CLDR does not have, is the one documented extra.
"""

from __future__ import annotations

from babel.dates import get_month_names

_WIDE = get_month_names("wide", locale="en")
_ABBREVIATED = get_month_names("abbreviated", locale="en")

#: "January" ... "December", in order (a month's number is its place here plus one).
MONTH_NAMES: tuple[str, ...] = tuple(_WIDE[number] for number in range(1, 13))
#: "Jan" ... "Dec", in order; May's abbreviation is its name.
MONTH_ABBREVIATIONS: tuple[str, ...] = tuple(_ABBREVIATED[number] for number in range(1, 13))
#: Abbreviations that are not CLDR's but that filings write ("Sept. 30"), each with the
#: month it stands for.
EXTRA_ABBREVIATIONS: dict[str, str] = {"Sept": "September"}
#: "jan" ... "dec": the three letters every spelling of a month starts with, for patterns
#: that read a month word however it is cut ("Sept", "Jun.", "June").
MONTH_PREFIXES: tuple[str, ...] = tuple(name[:3].lower() for name in MONTH_NAMES)
