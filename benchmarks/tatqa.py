"""Real filing tables: TAT-QA dev (and the FinQA dev subset) as verify cases.

    python -m benchmarks.tatqa                       # both corpora, from ../shared/corpora
    python -m benchmarks.tatqa --corpora DIR --json out.json --limit 200

Every numeric question becomes a case: the tool output is the table (first row as the
columns, the rest as rows, as the filing printed them) and the paragraphs, with the
question's scale as the table's unit ("million"); the answer is one sentence stating
the gold answer with its scale ("The answer is -12.6 million."). Each correct answer
gets three faulty twins with one number altered: +1 on the number, two adjacent digits
swapped, the last digit changed. A twin whose altered value equals another value in
the table or text (in any form the verifier accepts) is counted apart: catching those
is the attribution stage's job.

Reported, for span (copied) and arithmetic (computed) answers separately, for the
verifier and the naive baseline run in the same process: correct answers passed
(nothing flagged), altered answers flagged, flags on the altered number (localised),
how often the derivation the verifier reports uses the same numbers as the gold
derivation, and verify latency percentiles. Gold answers that disagree with their own
derivation are counted and listed, not tuned to.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import re
import time
from collections import defaultdict
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from benchmarks import peers
from verifier import Haystack, Policy, verify
from verifier.evaluation import baseline
from verifier.evaluation.evaluate import percentiles

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPORA = ROOT.parent / "shared" / "corpora"
_SCALE_WORD = {"thousand": "thousand", "million": "million", "billion": "billion"}
_NUM = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


# -- building cases ----------------------------------------------------------------------

def _number_text(value: Any) -> str:
    if isinstance(value, float):
        text = repr(value)
        return text.removesuffix(".0")
    return str(value)


def _sentence(text: str, scale: str) -> str:
    if scale == "percent":
        return f"The answer is {text}%."
    if scale in _SCALE_WORD:
        return f"The answer is {text} {_SCALE_WORD[scale]}."
    return f"The answer is {text}."


def _alterations(text: str) -> list[tuple[str, str, str]]:
    """(how, altered text, altered number) for the last number in ``text``: +1, two
    adjacent digits swapped, the last digit changed."""
    m = list(_NUM.finditer(text))[-1]
    return [(how, text[: m.start()] + new + text[m.end():], new) for how, new in _alter(m.group())]


def _alter(number: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    digits = [i for i, ch in enumerate(number) if ch.isdigit()]
    try:
        value = Decimal(number.replace(",", ""))
        plus = format(value + 1, "f")
        out.append(("plus_one", plus if "," not in number else f"{value + 1:,}"))
    except InvalidOperation:
        pass
    for a, b in itertools.pairwise(digits):
        if b == a + 1 and number[a] != number[b]:
            swapped = number[:a] + number[b] + number[a] + number[b + 1:]
            if not (swapped.lstrip("-")[0] == "0" and len(swapped.lstrip("-")) > 1 and swapped.lstrip("-")[1] != "."):
                out.append(("swap", swapped))
                break
    last = digits[-1]
    new_digit = str((int(number[last]) + 5) % 10)
    out.append(("last_digit", number[:last] + new_digit + number[last + 1:]))
    return out


_FIGURE = re.compile(r"^[\s$€£¥(\-−]*\d[\d,.\s]*%?\)?\s*$")
_YEARISH = re.compile(r"^\D*(?:19|20)\d\d\D*$")


def _is_header_row(row: list[str]) -> bool:
    """A row whose cells after the first hold no figures (years and titles are not)."""
    cells = [str(c).strip() for c in row[1:]]
    return not any(_FIGURE.match(c) and not _YEARISH.match(c) for c in cells)


def _split_header(table: list[list[str]]) -> tuple[list[list[str]], list[str], list[list[str]]]:
    """(upper header rows, column names, data rows) of a filing table as printed: the
    leading rows without figures are its header; the one that labels the most columns
    (years, "2019 €m") names them, the rest (spanning titles) are kept."""
    n = 0
    while n < len(table) - 1 and _is_header_row(table[n]):
        n += 1
    if n == 0:  # no header printed (the first row has figures): every row is data
        return [], [""] * max(len(row) for row in table), table
    header = table[:n]
    # the rows that name the columns label most of them ("2019" over "€m": "2019 €m",
    # as a data frame flattens a two-level header); a spanning title ("Fiscal",
    # "(in millions)") labels one and is kept apart
    filled = [sum(bool(str(c).strip()) for c in row[1:]) for row in header]
    naming = [i for i in range(n) if filled[i] == max(filled)]
    width = max(len(header[i]) for i in naming)
    names = [" ".join(str(header[i][c]).strip() for i in naming if c < len(header[i]) and str(header[i][c]).strip())
             for c in range(width)]
    return [row for i, row in enumerate(header) if i not in naming], names, table[n:]


def _table_output(table: list[list[str]], paragraphs: list[str], scale: str) -> dict[str, Any]:
    upper, columns, rows = _split_header(table)
    printed: dict[str, Any] = {"columns": columns, "rows": rows}
    if upper:
        printed["header_rows"] = upper
    output: dict[str, Any] = {"table": printed, "paragraphs": paragraphs}
    if scale in _SCALE_WORD:
        output["unit"] = _SCALE_WORD[scale]
    return output


def tatqa_cases(path: Path) -> list[dict[str, Any]]:
    """One case per numeric TAT-QA question (span or arithmetic)."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        data = json.load(fh)
    cases = []
    for ctx in data:
        paragraphs = [p["text"] for p in sorted(ctx["paragraphs"], key=lambda p: p["order"])]
        for q in ctx["questions"]:
            kind = q["answer_type"]
            if kind == "arithmetic":
                text = _number_text(q["answer"])
            elif kind in ("span", "multi-span"):
                spans = [s for s in q["answer"] if _NUM.search(s)]
                if not spans or any(not _NUM.fullmatch(s.replace("$", "").replace("%", "").strip()) for s in spans):
                    continue  # text answers carry no number to check
                text = " and ".join(s.strip() for s in spans)
                kind = "span"
            else:
                continue
            output = _table_output(ctx["table"]["table"], paragraphs, q["scale"])
            cases.append({
                "id": q["uid"], "corpus": "tatqa", "kind": kind, "question": q["question"],
                "tools": [{"name": "filing", "output": output}], "answer": _sentence(text, q["scale"]),
                "number": text, "scale": q["scale"], "derivation": q["derivation"], "gold": q["answer"],
            })
    return cases


_TAG = re.compile(r"<[^>]+>")
#: Answers that are years ("2019", "2019 and 2018"): altering one gives another column's year.
_YEAR_ANSWER = re.compile(r"(?:(?:19|20)\d\d)(?: and (?:19|20)\d\d)*")


def finqa_cases(path: Path) -> list[dict[str, Any]]:
    """One arithmetic case per FinQA record. The table is ``table_ori`` (the cells as
    the filing printed them, HTML tags dropped); the answer is the annotator's own
    answer string ("22%", "$ 193 million") when it holds a number, else the executed
    program's result."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        data = json.load(fh)
    cases = []
    for rec in data:
        qa = rec.get("qa", rec)
        answer = qa.get("exe_ans")
        if not isinstance(answer, (int, float)) or isinstance(answer, bool):
            continue
        human = str(qa.get("answer", "")).strip()
        text = human if _NUM.search(human) else _number_text(round(answer, 4) if isinstance(answer, float) else answer)
        table = [[_TAG.sub("", str(cell)).strip() for cell in row] for row in rec.get("table_ori") or rec["table"]]
        upper, columns, rows = _split_header(table)
        output = {"table": {"columns": columns, "rows": rows, **({"header_rows": upper} if upper else {})},
                  "paragraphs": rec.get("pre_text", []) + rec.get("post_text", [])}
        cases.append({
            "id": rec.get("id", ""), "corpus": "finqa", "kind": "arithmetic", "question": qa.get("question"),
            "tools": [{"name": "filing", "output": output}], "answer": f"The answer is {text}.",
            "number": text, "scale": "", "derivation": qa.get("program", ""), "gold": answer,
        })
    return cases


# -- measuring ---------------------------------------------------------------------------

def _gold_numbers(derivation: str) -> set[Decimal]:
    found = set()
    for token in _NUM.findall(derivation or ""):
        try:
            found.add(abs(Decimal(token.replace(",", ""))))
        except InvalidOperation:
            continue
    return found


def _gold_noise(case: dict[str, Any]) -> bool:
    """Whether a TAT-QA arithmetic answer disagrees with its own derivation."""
    expr = (case["derivation"] or "").replace(",", "").replace("[", "(").replace("]", ")").replace("%", "")
    if not expr or not re.fullmatch(r"[\d\s.+\-*/()]+", expr):
        return False
    try:
        value = eval(expr, {"__builtins__": {}}, {})  # digits and operators only, checked above
    except (SyntaxError, ZeroDivisionError, TypeError):
        return False
    gold = float(case["gold"])
    candidates = [value, value * 100]
    return not any(abs(c - gold) <= max(0.011, abs(gold) * 0.0005) for c in candidates)


def _in_data(hay: Haystack, number: str) -> bool:
    """Whether ``number`` is a value the data holds anyway (in any form the verifier
    accepts: as written, percent or fraction, a year)."""
    try:
        value = Decimal(number.replace(",", ""))
    except InvalidOperation:
        return False
    forms = {value, value / 100, value * 100}
    return any(f in hay.numbers for f in forms) or (number.isdigit() and number in hay.dates)


class _Tally:
    def __init__(self) -> None:
        self.counts: dict[str, int] = defaultdict(int)
        self.noise: list[str] = []
        self.times: list[float] = []

    def rate(self, hit: str, total: str) -> str:
        n = self.counts[total]
        return f"{self.counts[hit] / n:.3f} ({self.counts[hit]}/{n})" if n else "n/a"


def run(cases: list[dict[str, Any]], policy: Policy | None = None, with_peers: bool = True) -> dict[str, Any]:
    ours: dict[str, _Tally] = defaultdict(_Tally)
    naive: dict[str, _Tally] = defaultdict(_Tally)
    others = peers.available() if with_peers else {}
    peer_tallies: dict[str, dict[str, _Tally]] = {name: defaultdict(_Tally) for name in others}
    misses: dict[str, list[str]] = defaultdict(list)
    false_derivations: dict[str, list[str]] = defaultdict(list)  # "id: altered answer"
    for case in cases:
        key = f"{case['corpus']}/{case['kind']}"
        hay = Haystack(case["tools"])
        t0 = time.perf_counter()
        report = verify(case["answer"], case["tools"], question=case["question"], policy=policy)
        ours[key].times.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        naive_flags = baseline.unsupported(case["answer"], case["tools"])
        naive[key].times.append((time.perf_counter() - t0) * 1000)
        noisy = case["kind"] == "arithmetic" and case["corpus"] == "tatqa" and _gold_noise(case)
        if noisy:
            ours[key].noise.append(case["id"])
        peer_results = {}
        for name, check in others.items():
            t0 = time.perf_counter()
            peer_results[name] = check(case["answer"], case["tools"], case["question"])
            peer_tallies[name][key].times.append((time.perf_counter() - t0) * 1000)
        verdicts = [(ours[key], report.flagged == 0), (naive[key], not naive_flags)]
        verdicts += [(peer_tallies[n][key], not r.flagged) for n, r in peer_results.items()]
        for tally, passed in verdicts:
            tally.counts["correct"] += 1
            tally.counts["correct_passed"] += passed
            if not noisy:
                tally.counts["correct_clean_gold"] += 1
                tally.counts["correct_clean_gold_passed"] += passed
        if report.flagged and not noisy:
            misses[key].append(case["id"])
        derived = [i for i in report.items if i.status == "derived"]
        if case["kind"] == "arithmetic" and derived:
            ours[key].counts["derived"] += 1
            gold = _gold_numbers(case["derivation"])
            operands = set()
            for ev in derived[0].evidence:
                try:  # the figure the derivation used (a paragraph holds several), else the cell's
                    used = ev.value or _NUM.search(ev.raw).group().replace(",", "")  # type: ignore[union-attr]
                    operands.add(abs(Decimal(used)))
                except (AttributeError, InvalidOperation):
                    pass
            if gold and operands and operands <= gold:
                ours[key].counts["derived_same_cells"] += 1
        at = case["answer"].index(case["number"])
        for how, altered, token in _alterations(case["number"]):
            if altered == case["number"]:
                continue
            answer = case["answer"][:at] + altered + case["answer"][at + len(case["number"]):]
            span = (at + altered.rindex(token), at + altered.rindex(token) + len(token))
            elsewhere = _in_data(hay, token)
            bucket = "altered_in_data" if elsewhere else "altered"
            bad = verify(answer, haystack=hay, question=case["question"], policy=policy)
            flagged = [(i.start, i.end) for i in bad.items if i.flagged]
            naive_bad = [(s, e) for s, e, _ in baseline.unsupported(answer, case["tools"])]
            flag_sets = [(ours[key], flagged), (naive[key], naive_bad)]
            for name, check in others.items():
                r = check(answer, case["tools"], case["question"])
                # a peer that flags without spans still counts as flagged; localised needs spans
                flag_sets.append((peer_tallies[name][key], r.spans or ([(-1, -1)] if r.flagged else [])))
            year_answer = bool(_YEAR_ANSWER.fullmatch(case["number"]))
            if elsewhere and not year_answer:
                ours[key].counts["altered_in_data_figures_misattributed"] += any(
                    i.status == "misattributed" for i in bad.items)
            for tally, flags in flag_sets:
                if elsewhere and not year_answer:  # "Which years ...?": a year for a year
                    tally.counts["altered_in_data_figures"] += 1
                    tally.counts["altered_in_data_figures_flagged"] += bool(flags)
                tally.counts[bucket] += 1
                tally.counts[bucket + "_flagged"] += bool(flags)
                tally.counts[bucket + "_localised"] += any(s < span[1] and span[0] < e for s, e in flags)
                tally.counts[f"{bucket}_{how}"] += 1
                tally.counts[f"{bucket}_{how}_flagged"] += bool(flags)
            if not elsewhere and not flagged:
                derived_bad = [i for i in bad.items if i.status == "derived"]
                if derived_bad:
                    ours[key].counts["false_derivation"] += 1
                    false_derivations[key].append(f"{case['id']}: {answer}")
    return {"ours": ours, "naive": naive, "peers": peer_tallies, "misses": misses,
            "false_derivations": false_derivations}


def markdown(result: dict[str, Any]) -> str:
    ours, naive = result["ours"], result["naive"]
    lines = [("| corpus / answers | verifier | cases | correct passed | correct passed (gold consistent) | "
              "altered flagged (value not in data) | localised | altered flagged (value elsewhere in data) | "
              "derivation uses gold numbers | false derivations of altered values | latency p50 / p99 ms |"),
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for key in sorted(ours):
        rows = [("finverify", ours[key]), ("naive baseline", naive[key])]
        rows += [(name, tallies[key]) for name, tallies in result.get("peers", {}).items()]
        for name, tally in rows:
            c = tally.counts
            lat = percentiles(tally.times)
            derived = tally.rate("derived_same_cells", "derived") if name == "finverify" and key.endswith("arithmetic") else "–"
            false_der = (f"{c['false_derivation']}/{c['altered']}" if name == "finverify" else "–")
            lines.append(
                f"| {key} | {name} | {c['correct']} | {tally.rate('correct_passed', 'correct')} | "
                f"{tally.rate('correct_clean_gold_passed', 'correct_clean_gold')} | "
                f"{tally.rate('altered_flagged', 'altered')} | {tally.rate('altered_localised', 'altered')} | "
                f"{tally.rate('altered_in_data_flagged', 'altered_in_data')} | {derived} | {false_der} | "
                f"{lat['p50']:.2f} / {lat['p99']:.2f} |")
    lines.append("")
    lines.append("Altered answers flagged by alteration (value not in data), finverify:")
    lines.append("")
    for key in sorted(ours):
        c = ours[key].counts
        parts = [f"{how} {ours[key].rate(f'altered_{how}_flagged', f'altered_{how}')}"
                 for how in ("plus_one", "swap", "last_digit")]
        lines.append(f"- {key}: " + "; ".join(parts))
    lines.append("")
    lines.append("Altered answers whose value is another cell or figure of the data, answers that are "
                 "years left out (altering a year gives another column's year): flagged, finverify / naive; "
                 "then finverify's flags that say misattributed (the rest are values it does not read as the "
                 "data's: 3.30% against a plain 3.3 cell, a number in a column header):")
    lines.append("")
    for key in sorted(ours):
        lines.append(f"- {key}: {ours[key].rate('altered_in_data_figures_flagged', 'altered_in_data_figures')}"
                     f" / {naive[key].rate('altered_in_data_figures_flagged', 'altered_in_data_figures')}; "
                     f"misattributed {ours[key].rate('altered_in_data_figures_misattributed', 'altered_in_data_figures')}")
    noise = [i for t in ours.values() for i in t.noise]
    lines.append("")
    lines.append(f"Gold noise (TAT-QA arithmetic answers that disagree with their own derivation): {len(noise)}: "
                 + ", ".join(noise))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA, help="folder holding tatqa/ and finqa/")
    parser.add_argument("--limit", type=int, default=0, help="only the first N cases of each corpus")
    parser.add_argument("--json", type=Path, help="also write counts, the ids of misses and the false derivations here")
    parser.add_argument("--no-peers", action="store_true", help="skip the peer packages (benchmarks/peers.py)")
    parser.add_argument("--max-chance", type=float, default=None,
                        help="Policy.derive_max_chance to run with (default: the Policy default)")
    parser.add_argument("--no-unit", action="store_true",
                        help="drop the unit field each case's tool output gets from the question's scale: the "
                             "table's own corner and titles ('(In millions)') must say it")
    args = parser.parse_args()
    tatqa = args.corpora / "tatqa" / "tatqa_dataset_dev.json.gz"
    if not tatqa.exists():
        raise SystemExit(f"TAT-QA not found at {tatqa}: pass --corpora DIR (the folder with tatqa/ and finqa/)")
    cases = tatqa_cases(tatqa)
    finqa = sorted((args.corpora / "finqa").glob("*dev*.json.gz"))
    if finqa:
        cases_f = finqa_cases(finqa[0])
        cases += cases_f[: args.limit] if args.limit else cases_f
    if args.limit:
        cases = [c for c in cases if c["corpus"] == "tatqa"][: args.limit] + [c for c in cases if c["corpus"] == "finqa"]
    if args.no_unit:
        for case in cases:
            for tool in case["tools"]:
                if isinstance(tool.get("output"), dict):
                    tool["output"].pop("unit", None)
    policy = Policy(derive_max_chance=args.max_chance) if args.max_chance is not None else None
    result = run(cases, policy, with_peers=not args.no_peers)
    print(markdown(result))
    if args.json:
        args.json.write_text(json.dumps({
            "counts": {k: dict(v.counts) for k, v in result["ours"].items()},
            "naive": {k: dict(v.counts) for k, v in result["naive"].items()},
            "misses": result["misses"],
            "false_derivations": result["false_derivations"],
            "gold_noise": {k: v.noise for k, v in result["ours"].items()},
        }, indent=2))


if __name__ == "__main__":
    main()
