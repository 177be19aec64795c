"""Smoke tests on the real filing tables in ../shared/corpora (skipped where absent):
the benchmark's cases build, and the verifier behaves on a slice of them as the full
benchmark (BENCHMARKS.md) says it does."""

from benchmarks.tatqa import _alterations, _split_header, finqa_cases, run, tatqa_cases


def test_filing_table_header_rows_become_columns():
    table = [["", "", "Years Ended September 30,", ""], ["", "2019", "2018", "2017"],
             ["Fixed Price", "$  1,452.4", "$  1,146.2", "$  1,036.9"]]
    upper, columns, rows = _split_header(table)
    assert columns == ["", "2019", "2018", "2017"] and rows == table[2:] and upper == table[:1]


def test_alterations_change_the_last_number_three_ways():
    found = {how: (text, token) for how, text, token in _alterations("$1,496.5 and 45.1")}
    assert found["plus_one"] == ("$1,496.5 and 46.1", "46.1")
    assert found["swap"] == ("$1,496.5 and 54.1", "54.1")
    assert found["last_digit"] == ("$1,496.5 and 45.6", "45.6")


def test_tatqa_slice_passes_copied_and_computed_answers_and_flags_altered_ones(corpora):
    cases = tatqa_cases(corpora / "tatqa" / "tatqa_dataset_dev.json.gz")
    assert len(cases) > 1000
    result = run(cases[:150], with_peers=False)
    span, arith = result["ours"]["tatqa/span"].counts, result["ours"]["tatqa/arithmetic"].counts
    assert span["correct_passed"] / span["correct"] >= 0.95
    assert arith["correct_passed"] / arith["correct"] >= 0.6  # the naive baseline passes ~0.1
    assert arith["altered_flagged"] / arith["altered"] >= 0.95
    naive = result["naive"]["tatqa/arithmetic"].counts
    assert naive["correct_passed"] < arith["correct_passed"]


def test_finqa_cases_build_from_the_original_tables(corpora):
    cases = finqa_cases(corpora / "finqa" / "finqa_dev_subset200.json.gz")
    assert len(cases) >= 150
    assert all("<" not in str(c["tools"][0]["output"]["table"]) for c in cases)  # tags dropped
