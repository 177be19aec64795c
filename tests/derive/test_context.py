"""derive() over a SearchContext: each field the derive stage sets changes what the
search may find, and one shared budget is spent across searches."""

from decimal import Decimal

from verifier.derive.chance import Budget
from verifier.derive.core import SearchContext, derive
from verifier.extract import extractor
from verifier.index.haystack import Haystack

ROWS = {"columns": ["", "2019", "2018", "2017"], "rows": [
    ["Fixed Price", "1,452.4", "1,146.2", "1,036.9"],
    ["Other", "44.1", "56.7", "70.8"],
    ["Total sales", "1,496.5", "1,202.9", "1,107.7"]]}


def value(text):
    return next(m for m in extractor("en_US", ()).extract(text) if m.num_forms)


def test_the_default_context_finds_a_change_of_one_row():
    found = derive(value("Other changed by -12.6."), Haystack(ROWS))
    assert found is not None and found.op == "difference"
    assert found.values == (Decimal("44.1"), Decimal("56.7"))


def test_a_refused_hit_is_passed_over():
    mention, hay = value("Other changed by -12.6."), Haystack(ROWS)
    found = derive(mention, hay, SearchContext(refuses=lambda d: d.op == "difference"))
    assert found is None or found.op != "difference"


def test_a_hit_over_the_chance_allowed_is_not_believed():
    mention, hay = value("Other changed by -12.6."), Haystack(ROWS)
    assert derive(mention, hay, SearchContext(max_chance=-1.0)) is None


def test_named_only_searches_only_what_the_wording_names():
    mention, hay = value("Other changed by -12.6."), Haystack(ROWS)
    assert derive(mention, hay, SearchContext(named_only=True)) is None  # nothing named
    found = derive(mention, hay, SearchContext(named_only=True, focus=frozenset({"other"}), cues=("difference",)))
    assert found is not None and found.values == (Decimal("44.1"), Decimal("56.7"))


def test_a_spent_budget_stops_the_search():
    mention, hay = value("Other changed by -12.6."), Haystack(ROWS)
    budget = Budget(0)
    assert derive(mention, hay, SearchContext(budget=budget)) is None
    assert budget.exhausted
