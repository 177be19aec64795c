"""The ratio a question spells out: its sides, the cells they name, and the search
that tries that one expression before any other."""

import pytest

from verifier import Policy, verify
from verifier.index.haystack import Haystack
from verifier.question.asked_ratio import candidates, ratio_sides

GOODWILL = {"columns": ["(In Millions)", "Dec 29, 2018", "Acquisitions", "Transfers", "Other", "Dec 28, 2019"],
            "rows": [["Data Center Group", "$5,424", "$1,758", "$—", "$—", "$7,155"],
                     ["Internet of Things Group", "1,579", "—", "—", "—", "1,579"],
                     ["Mobileye", "10,290", "—", "—", "—", "10,290"],
                     ["Programmable Solutions Group", "2,579", "67", "—", "8", "2,681"],
                     ["Client Computing Group", "4,403", "—", "—", "(70)", "4,333"],
                     ["All other", "238", "—", "—", "—", "238"],
                     ["Total", "$24,513", "$1,825", "$—", "$(62)", "$26,276"]]}

PPE = {"columns": ["(in thousands)", "2019", "2018"],
       "rows": [["Land", "$672", "$672"], ["Machinery and equipment", "1,372", "1,296"],
                ["Office, computer and research equipment", "5,267", "5,175"],
                ["Leasehold improvements", "798", "1,238"],
                ["Land, property and equipment, gross", "$8,109", "$8,381"],
                ["Less accumulated depreciation and amortization", "(6,811)", "(6,780)"],
                ["Land, property and equipment, net", "$1,298", "$1,601"]]}

SEGMENTS = {"columns": ["", "Application Software", "Network Software & Systems", "Process Technologies", "Total"],
            "rows": [["Balances at December 31, 2017", "$ 4,565.4", "$ 2,591.3", "$ 318.2", "$ 7,474.9"],
                     ["Goodwill acquired", "684.4", "33.1", "—", "717.5"],
                     ["Balances at December 31, 2018", "$ 5,236.1", "$ 2,623.7", "$312.3", "$ 8,172.1"]]}


def words(*parts):
    return tuple(frozenset(p.split()) for p in parts)


@pytest.mark.parametrize(
    ("question", "parts", "denominator", "rest"),
    [
        ("What is the ratio of Data Center Group to Mobileye goodwill amount in 2019?",
         words("data center group"), frozenset({"mobileye", "goodwill", "2019"}), {"2019"}),
        (("What is the proportion of land and leasehold improvements over the gross cost of land, property, "
         "and equipment in 2019?"), words("land", "leasehold improvements"),
         frozenset({"gross", "cost", "land", "property", "equipment", "2019"}), {"2019"}),
        ("What was the domestic-state credit as a percentage of domestic-federal credit?",
         words("domestic state credit"), frozenset({"domestic", "federal", "credit"}), set()),
        ("What is the debt-to-asset ratio in 2018?", words("debt"), frozenset({"asset"}), {"2018"}),
        ("What is the ratio (in percentage) of total notes payable to total capital lease obligations?",
         words("notes payable"), frozenset({"capital", "lease", "obligations"}), set()),
        ("what portion of the total interest expense is related to unpaid taxes in 2007?",
         words("unpaid taxes"), frozenset({"interest", "expense"}), {"2007"}),
        ("what percentage of the total purchase price is represented by goodwill?",
         words("goodwill"), frozenset({"purchase", "price"}), set()),
        # the date that ends the denominator names its row: the year is one of its words
        ("What is the proportion of granted shares over outstanding shares at September 30, 2017?",
         words("granted shares"), frozenset({"outstanding", "shares", "2017"}), {"2017", "september", "30"}),
    ],
)
def test_the_sides_of_a_spelled_out_ratio(question, parts, denominator, rest):
    readings = ratio_sides(question)
    assert len(readings) == 1, readings
    sides = readings[0]
    assert sides.parts == parts and sides.denominator == denominator
    assert sides.rest == rest


@pytest.mark.parametrize("question", [
    "What is the change in goodwill between 2018 and 2019 as a percentage of the 2018 goodwill?",  # a change
    "What was the decline in operating income as a percentage of revenue in 2019?",  # a change, no cue word
    "What is the ratio of 2019 revenue to 2018 cost of revenue?",  # a cell of each year: not read
    "What is the average proportion of cost of revenue as a percentage of the total revenue in 2017 and 2018?",
    "What was the total revenue in 2019?",  # no ratio at all
    "What is the percentage change in revenue from 2018 to 2019?",
])
def test_questions_that_spell_out_no_ratio_of_levels(question):
    assert ratio_sides(question) == ()


OPTIONS = {"columns": ["", "Number of Shares", "Weighted-Average Exercise Price Per Share"],
           "rows": [["Outstanding at September 30, 2016", "3,015,374", "$3.95"], ["Granted", "147,800", "$7.06"],
                    ["Outstanding at September 30, 2017", "2,845,866", "$4.21"], ["Granted", "299,397", "$8.60"],
                    ["Outstanding at September 30, 2018", "2,806,364", "$4.75"]]}


def test_a_dated_row_is_named_by_the_date_after_its_side():
    sides = ratio_sides("What is the proportion of the first granted shares over outstanding shares at "
                        "September 30, 2017?")
    found = candidates(Haystack(OPTIONS), sides)
    assert {str(f.cells[-1].value) for f in found} == {"2845866", "4.21"}  # the 2017 row only


def test_candidates_are_taken_in_the_column_the_question_names():
    sides = ratio_sides("What is the ratio of Data Center Group to Mobileye goodwill amount in 2019?")
    found = candidates(Haystack(GOODWILL), sides)
    assert [(f.op, [str(c.value) for c in f.cells]) for f in found] == [("ratio", ["7155", "10290"])]


def test_names_that_fit_the_same_rows_say_nothing():
    # "balances" names each "Balances at ..." row: the numerator's parts and the
    # denominator would all be the same rows; the columns are what they name
    sides = ratio_sides("What is the proportion of balances in the Application Software and Process "
                        "Technologies segments over total balances in all segments at December 31, 2018?")
    found = candidates(Haystack(SEGMENTS), sides)
    assert [[str(c.value) for c in f.cells] for f in found] == [["5236.1", "312.3", "8172.1"]]


@pytest.mark.parametrize(
    ("tools", "question", "right", "expression", "wrong"),
    [
        (GOODWILL, "What is the ratio of Data Center Group to Mobileye goodwill amount in 2019?",
         "0.7", "$.rows[0][5] / $.rows[2][5]", ["0.8", "0.5", "1.4"]),
        (PPE, ("What is the proportion of land and leasehold improvements over the gross cost of land, property, "
              "and equipment in 2019?"), "0.18", "($.rows[0][1] + $.rows[3][1]) / $.rows[4][1]", ["0.19", "0.17", "0.28"]),
        (SEGMENTS, ("What is the proportion of balances in the Application Software and Process Technologies "
                   "segments over total balances in all segments at December 31, 2018?"), "0.68",
         "($.rows[2][1] + $.rows[2][3]) / $.rows[2][4]", ["0.69", "0.67"]),
    ],
)
def test_a_spelled_out_ratio_written_to_two_digits_is_derived_and_a_wrong_one_is_not(
        tools, question, right, expression, wrong):
    report = verify(f"The answer is {right}.", tools, question=question)
    item = report.items[0]
    assert item.status == "derived" and item.expression == expression, item.reason
    for value in wrong:
        assert verify(f"The answer is {value}.", tools, question=question).items[0].status == "unsupported", value


def test_without_the_spelled_out_ratio_a_two_digit_ratio_is_too_likely_by_chance():
    # the same rows named in an order that spells out no ratio: every expression over
    # the named cells is tried, many land near 0.18, and the budget refuses it
    question = ("What proportion of the gross cost of land, property, and equipment were land and leasehold "
                "improvements in 2019?")
    assert ratio_sides(question) == ()
    assert verify("The answer is 0.18.", PPE, question=question).items[0].status == "unsupported"
    loose = verify("The answer is 0.18.", PPE, question=question, policy=Policy(derive_max_chance=5.0)).items[0]
    assert loose.status == "derived" and loose.expression == "($.rows[0][1] + $.rows[3][1]) / $.rows[4][1]"


def test_the_module_examples_hold():
    import doctest

    from verifier.question import asked_ratio
    assert doctest.testmod(asked_ratio).failed == 0


@pytest.mark.parametrize(
    ("tools", "question", "right", "wrong"),
    [
        # "ratio of A and B to C": A and B are summed, not "A" over "B to C"
        (PPE, ("What is the ratio of land and leasehold improvements to the gross cost of land, property and "
              "equipment in 2019?"), "0.18", ["0.08"]),
        # a hyphenated name is one name ("long-term debt"), not "term debt" tied with short-term
        ({"columns": ["", "2019", "2018"], "rows": [["Short-term debt", "100", "90"], ["Long-term debt", "900", "800"],
                                                    ["Equity", "1,000", "950"]]},
         "What is the long-term debt to equity ratio in 2019?", "0.9", ["0.1"]),
        # "cost to serve to revenue": the reading whose sides each name one row
        ({"columns": ["", "2019", "2018"], "rows": [["Cost to serve", "200", "180"], ["Cost of revenue", "600", "500"],
                                                    ["Revenue", "1,000", "900"]]},
         "What is the ratio of cost to serve to revenue in 2019?", "0.2", ["0.6"]),
        # the question said which is divided by which: the reciprocal, or some of the
        # numerator's parts, is not its answer
        (GOODWILL, "What is the ratio of Data Center Group to Mobileye goodwill amount in 2019?", "0.7", ["1.44"]),
        (PPE, ("What is the proportion of land and leasehold improvements over the gross cost of land, property, "
              "and equipment in 2019?"), "0.18", ["5.52"]),
        (SEGMENTS, ("What is the proportion of balances in the Application Software and Process Technologies "
                   "segments over total balances in all segments at December 31, 2018?"), "0.68", ["0.64"]),
    ],
)
def test_a_spelled_out_ratio_is_read_as_written(tools, question, right, wrong):
    assert verify(f"The answer is {right}.", tools, question=question).items[0].status == "derived"
    for value in wrong:
        item = verify(f"The answer is {value}.", tools, question=question).items[0]
        assert item.status == "unsupported", (value, item.reason)


def test_a_denominator_that_names_two_rows_is_not_read_as_either():
    # "cost of sales and operating expenses" is two rows added up: neither alone is
    # the spelled denominator (1,000 / 600 = 1.67 is not the answer)
    table = {"columns": ["", "2019"], "rows": [["Revenue", "1,000"], ["Cost of sales", "600"],
                                               ["Operating expenses", "250"]]}
    question = "What is the ratio of revenue to cost of sales and operating expenses in 2019?"
    assert candidates(Haystack(table), ratio_sides(question)) == []
