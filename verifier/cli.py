"""The ``verifier`` command line: ``check`` one answer, ``eval`` a labelled set,
``judge-eval`` a model judge against labelled sentences, ``suggest`` missing derived
fields from many reports, print the report ``schema``, ``serve`` the HTTP API.

Exit codes: 0 done; 1 the answer's confidence reached ``--fail-on``; 2 bad input (the
message says what and where, no traceback).
"""

from __future__ import annotations

import json
import os
import sys
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from verifier import stoplists

from ._errors import InputError, VerifierError
from .evaluation.evaluate import load_dataset, run
from .inputs.jsonio import load_path, loads, read_jsonl, read_text
from .inputs.transcripts import read_transcript
from .judge import Judge, OpenAIJudge, judge_from_env
from .models import Report, json_text
from .pipeline import VERSION as __version__
from .pipeline import verify
from .policy import Policy
from .suggest import aggregate

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Check an assistant's answer against the tool results it consulted.")
out = Console()
err = Console(stderr=True)

_RANK = {"high": 0, "medium": 1, "low": 2}
_STYLE = {"unsupported": "bold white on red", "invalid": "bold white on red", "drift": "black on yellow"}
_BADGE = {"high": "bold white on green", "medium": "bold black on yellow", "low": "bold white on red"}


class OutputFormat(StrEnum):
    """``check --format``: how the report is printed."""

    text = "text"
    json = "json"
    jsonl = "jsonl"


class FailOn(StrEnum):
    """``check --fail-on``: the confidence that makes the exit code 1."""

    medium = "medium"
    low = "low"


def _example(name: str) -> str:
    return resources.files("verifier").joinpath("examples", name).read_text(encoding="utf-8")


@app.command()
def check(
    tools: Annotated[Path | None, typer.Option(help="JSON file: a list of {name, output} or any JSON value. Default: the bundled screener example.")] = None,
    answer: Annotated[str | None, typer.Option(metavar="FILE", help="Text file with the answer ('-' for stdin). Default: the bundled example answer.")] = None,
    question: Annotated[str | None, typer.Option(help="The user's question, if known.")] = None,
    locale: Annotated[str, typer.Option(help="Locale the answer is written in (en_US, de_DE, fr_FR, ...).")] = "en_US",
    format: Annotated[OutputFormat, typer.Option("--format", help="text, json (indented) or jsonl (one line: append to a file for 'verifier suggest').")] = OutputFormat.text,
    fail_on: Annotated[FailOn | None, typer.Option(help="Exit 1 when confidence is this or worse.")] = None,
    policy_spec: Annotated[str | None, typer.Option("--policy", metavar="FILE|JSON", help="A Policy: a JSON file of its fields, or the JSON itself ('{\"derive\": false}').")] = None,
    stopwords: Annotated[Path | None, typer.Option(help="A file of extra words that are never tickers (one a line).")] = None,
    judge_url: Annotated[str | None, typer.Option(help="OpenAI-compatible base URL of a model judge for high-stakes sentences (default: VERIFIER_JUDGE_URL; none: off).")] = None,
    judge_model: Annotated[str | None, typer.Option(help="The judge's model name (default: VERIFIER_JUDGE_MODEL).")] = None,
    messages: Annotated[Path | None, typer.Option(help="A transcript instead of --tools/--answer/--question: a JSON list of OpenAI, Anthropic or LangChain messages.")] = None,
) -> None:
    """Verify one answer and print the report."""
    history = None
    try:
        if messages is not None:
            if tools is not None or answer is not None or question is not None:
                _fail("give --messages or --tools/--answer/--question, not both: the transcript holds them")
            transcript = read_transcript(load_path(messages))
            tool_results, text = transcript.tool_results, transcript.answer
            question, history = transcript.question, transcript.history or None
        elif tools is None and answer is None:
            tool_results = loads(_example("screen_tools.json"), "bundled example")
            text = _example("screen_answer.txt")
        elif tools is None or answer is None:
            _fail("give both --tools and --answer (or neither, to run the bundled example)")
        else:
            tool_results = load_path(tools)
            text = sys.stdin.read() if answer == "-" else read_text(answer)
        policy = _load_policy(policy_spec) if policy_spec is not None else None
        if stopwords:
            try:
                words = stoplists.load_file(stopwords)
            except OSError as exc:
                _fail(f"{stopwords}: cannot read file ({exc.strerror})")
            base = policy or Policy()
            policy = base.model_copy(update={"extra_stopwords": tuple(sorted({*words, *base.extra_stopwords}))})
        judge = _judge(judge_url, judge_model)
        report = verify(text.rstrip("\n"), tool_results, question=question, locale=locale, policy=policy,
                        history=history, judge=judge if judge is not None else False)
    except (VerifierError, OSError) as exc:
        _fail(str(exc))
    except ValueError as exc:  # pydantic validation of options, stop-list files
        _fail(str(exc))
    if format is OutputFormat.jsonl:
        print(json_text(report))
    elif format is OutputFormat.json:
        out.print_json(json_text(report))
    else:
        _print_report(text.rstrip("\n"), report)
    if fail_on and _RANK[report.confidence] >= _RANK[fail_on.value]:
        raise typer.Exit(1)


def _load_policy(spec: str) -> Policy:
    """``--policy``: inline JSON (it starts with ``{`` or ``[``) or the path of a JSON file."""
    data = loads(spec, "--policy") if spec.lstrip().startswith(("{", "[")) else load_path(spec)
    if not isinstance(data, dict):
        raise InputError(f"must be a JSON object of Policy fields, got {type(data).__name__}", "--policy")
    try:
        return Policy.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"])
        raise InputError(f"{field}: {first['msg']}" if field else first["msg"], "--policy") from None


@app.command(name="eval")
def eval_(
    dataset: Annotated[Path, typer.Argument(help="Labelled JSONL: id, locale, question, tool_results, answer, label, faults.")],
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write the results as JSON here.")] = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
    html: Annotated[Path | None, typer.Option("--html", help="Also write a self-contained HTML report here: charts, latency, every false alarm and miss highlighted (needs the \\[report] extra).")] = None,
    compare: Annotated[Path | None, typer.Option("--compare", metavar="BEFORE.json", help="An earlier run's --json output: list the cases that flipped (and mark them in --html).")] = None,
) -> None:
    """Run a labelled set; print pass/catch rates, localisation, P/R/F1, per kind and latency."""
    from . import eval_report

    try:
        records = load_dataset(dataset)
        before = eval_report.load_before(compare) if compare else None
    except (VerifierError, OSError) as exc:
        _fail(str(exc))
    if not records:
        _fail(f"{dataset}: no cases in the file")
    if html:
        try:
            import matplotlib  # noqa: F401
        except ModuleNotFoundError:
            _fail("--html draws its charts with matplotlib: pip install 'finverify[report]'")
    shown = eval_report.Collector(eval_report.before_outcomes(before, records) if before else None)
    with Progress(TextColumn("verifying"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, disable=not progress) as bar:
        task = bar.add_task("eval", total=len(records))
        result = run(records, str(dataset), progress=lambda: bar.advance(task), on_report=shown if html else None)
    table = Table(title=f"{dataset} ({result.verifier.cases} cases)")
    table.add_column("measure")
    table.add_column("verifier", justify="right")
    table.add_column("naive baseline", justify="right")
    for field in ("clean_pass_rate", "faulty_catch_rate", "localisation", "precision", "recall", "f1"):
        table.add_row(field, f"{getattr(result.verifier, field):.3f}", f"{getattr(result.baseline, field):.3f}")
    table.add_row("latency p50 ms", f"{result.latency_ms['p50']:.3f}", f"{result.baseline_latency_ms['p50']:.3f}")
    table.add_row("latency p99 ms", f"{result.latency_ms['p99']:.3f}", f"{result.baseline_latency_ms['p99']:.3f}")
    out.print(table)
    kinds = Table(title="faults by kind (localised / total)")
    kinds.add_column("kind")
    kinds.add_column("verifier", justify="right")
    kinds.add_column("naive baseline", justify="right")
    for kind, tally in sorted(result.verifier.per_kind.items()):
        base = result.baseline.per_kind.get(kind, {"caught": 0, "total": tally["total"]})
        kinds.add_row(kind, f"{tally['caught']}/{tally['total']}", f"{base['caught']}/{base['total']}")
    out.print(kinds)
    for title, ids in (("false alarms", result.verifier.false_alarms), ("misses", result.verifier.misses),
                       ("errors", result.errors)):
        if ids:
            out.print(f"[bold]{title}[/bold]: " + ", ".join(ids))
    if before:
        flips = eval_report.compare(before, result).flips
        out.print(Text(f"changed since {compare}: {len(flips)} cases", style="bold"))
        for flip in flips:
            print(f"  {flip.change}: {flip.id} ({flip.before} -> {flip.after})")
    if json_out:
        json_out.write_text(result.model_dump_json(indent=2), encoding="utf-8")
    if html:
        try:
            eval_report.write_html(html, result, shown.cases, before)
        except OSError as exc:
            _fail(f"{html}: cannot write the report ({exc.strerror})")
        print(f"report written to {html}", file=sys.stderr)


@app.command(name="judge-eval")
def judge_eval(
    dataset: Annotated[Path, typer.Argument(help="Labelled JSONL: id, tool_results, sentence, label (supported|unsupported|partial)[, answer, locale].")],
    judge_url: Annotated[str | None, typer.Option(help="OpenAI-compatible base URL of the judge (default: VERIFIER_JUDGE_URL).")] = None,
    judge_model: Annotated[str | None, typer.Option(help="The judge's model name (default: VERIFIER_JUDGE_MODEL).")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write the results as JSON here.")] = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
) -> None:
    """Measure a model judge on labelled sentences: agreement, precision/recall on unsupported."""
    from .evaluation import judge_eval as judging

    try:
        cases = judging.load_cases(dataset)
        judge = _judge(judge_url, judge_model)
    except (VerifierError, OSError) as exc:
        _fail(str(exc))
    if judge is None:
        raise _fail("no judge configured: give --judge-url (or set VERIFIER_JUDGE_URL)")
    if not cases:
        _fail(f"{dataset}: no cases in the file")
    with Progress(TextColumn("judging"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, disable=not progress) as bar:
        task = bar.add_task("judge", total=len(cases))
        result = judging.run(cases, judge, str(dataset), progress=lambda: bar.advance(task))
    table = Table(title=f"{dataset}: judge {result.model or '(no model name)'}, {result.cases} sentences")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("judged", f"{result.judged} of {result.cases}")
    for field in ("agreement", "precision", "recall", "quote_verified_rate"):
        table.add_row(field.replace("_", " ") + (" (unsupported)" if field in ("precision", "recall") else ""),
                      f"{getattr(result, field):.3f}")
    table.add_row("latency p50 ms", f"{result.latency_ms['p50']:.1f}")
    table.add_row("latency p90 ms", f"{result.latency_ms['p90']:.1f}")
    out.print(table)
    confusion = Table(title="label (rows) by checked verdict (columns)")
    verdicts = ("supported", "partial", "unsupported", "unverified")
    confusion.add_column("label")
    for v in verdicts:
        confusion.add_column(v, justify="right")
    for label in ("supported", "partial", "unsupported"):
        row = result.confusion.get(label, {})
        confusion.add_row(label, *(str(row.get(v, 0)) for v in verdicts))
    out.print(confusion)
    for title, ids in (("disagreements", result.disagreements), ("not judged", result.errors)):
        if ids:
            out.print(Text(f"{title}: ", style="bold") + Text(", ".join(ids)))
    if json_out:
        json_out.write_text(result.model_dump_json(indent=2), encoding="utf-8")
    if result.judged == 0:  # every call failed: the figures above measure nothing
        print(f"error: the judge answered none of the {result.cases} sentences (see 'not judged')",
              file=sys.stderr)
        raise typer.Exit(1)


def _judge(url: str | None, model: str | None) -> Judge | None:
    """The judge the options (or else the VERIFIER_JUDGE_* variables) configure."""
    if not url:
        return judge_from_env()
    model = model or os.environ.get("VERIFIER_JUDGE_MODEL", "")
    if not model:
        raise InputError("needs a model name too: add --judge-model NAME (or set VERIFIER_JUDGE_MODEL)",
                         "--judge-url")
    try:
        return OpenAIJudge(url, model, api_key=os.environ.get("VERIFIER_JUDGE_API_KEY") or None)
    except ValueError as exc:
        raise InputError(str(exc), "--judge-url") from None


@app.command()
def suggest(
    reports: Annotated[Path, typer.Argument(help="JSONL of reports (with 'suggestions') or of cases (answer, tool_results).")],
    top: Annotated[int, typer.Option(help="Show at most this many.", min=1)] = 20,
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write all suggestions as JSON here.")] = None,
) -> None:
    """Missing derived fields: values answers computed from tool data, most frequent first."""
    try:
        found = aggregate(read_jsonl(reports))
    except (VerifierError, OSError) as exc:
        _fail(str(exc))
    if not found:
        out.print("No derived values in these reports: nothing to suggest.")
    table = Table(title=f"missing derived fields ({len(found)})")
    for col in ("count", "tool", "field", "expression"):
        table.add_column(col, justify="right" if col == "count" else "left")
    for s in found[:top]:
        table.add_row(str(s.count), s.tool, s.field, s.expression)
    if found:
        out.print(table)
    if json_out:
        json_out.write_text(json.dumps([s.model_dump() for s in found], indent=2), encoding="utf-8")


@app.command()
def batch(
    source: Annotated[str, typer.Argument(metavar="IN", help="JSONL of verify requests (the API's body: answer and tool_results, or messages; with metadata), a file or a folder, gzipped or not.")],
    dest: Annotated[str, typer.Argument(metavar="OUT", help="One record a line, in input order (a report, or an error for a bad line): .jsonl, .jsonl.gz or .parquet. With --engine ray: a new folder of such files.")],
    engine: Annotated[str, typer.Option(help="local (worker processes on this machine) or ray (Ray Data: the \\[ray] extra).")] = "local",
    workers: Annotated[int | None, typer.Option(min=1, help="Worker processes (local) or actors (ray). Default: every core.")] = None,
    group_by: Annotated[str, typer.Option(help="The metadata field flag rates are summarised by ('' for none).")] = "model",
    top: Annotated[int, typer.Option(min=1, help="Show this many missing-field suggestions.")] = 10,
    address: Annotated[str | None, typer.Option(help="A Ray cluster to join (auto, ray://HOST:10001). Default: start Ray here.")] = None,
    deadline_ms: Annotated[int | None, typer.Option(min=1, help="Time limit per line (a timeout error record past it), unless its policy sets one.")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write the summary as JSON here.")] = None,
) -> None:
    """Re-verify logged requests: a report per line, flag rates by a metadata field, missing fields."""
    from .batch.command import command

    try:
        command(source, dest, engine=engine, workers=workers, address=address, group_by=group_by, top=top,
                deadline_ms=deadline_ms, json_out=json_out, console=out)
    except (VerifierError, OSError) as exc:
        _fail(str(exc))


@app.command()
def schema() -> None:
    """Print the Report's JSON Schema (the contract frontends code against)."""
    out.print_json(json.dumps(Report.model_json_schema()))


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=0, max=65535)] = 8000,
    workers: Annotated[int, typer.Option(help="Worker processes (uvicorn).", min=1)] = 1,
) -> None:
    """Serve the HTTP API and the demo page (settings: VERIFIER_* environment variables)."""
    try:  # the service's dependencies load only when serving, and are an extra
        from verifier.api.server import run
    except ModuleNotFoundError as exc:
        _fail(f"the service needs the [server] extra ({exc.name} is not installed): "
              "pip install 'finverify[server]'")

    try:
        run(host=host, port=port, workers=workers)
    except VerifierError as exc:
        _fail(str(exc))


def _print_report(answer: str, report: Report) -> None:
    if out.is_terminal:
        text = Text(answer)
        for item in report.items:
            if item.flagged:
                text.stylize(_STYLE.get(item.status, "bold red"), item.start, item.end)
    else:  # no colour in a pipe or a file: mark flagged spans with brackets instead
        marked, last = [], 0
        for item in sorted((i for i in report.items if i.flagged), key=lambda i: i.start):
            if item.start >= last:
                marked += [answer[last:item.start], "[[", answer[item.start:item.end], "]]"]
                last = item.end
        text = Text("".join(marked) + answer[last:])
    badge = Text(f" {report.warnings.badge.label} ", style=_BADGE[report.confidence])
    out.print(badge, Text(f" confidence {report.confidence}, score {report.score:.2f}, action {report.action}"))
    out.print(report.warnings.message)
    out.print()
    out.print(text)
    out.print()
    table = Table(show_lines=False)
    for col in ("text", "kind", "status", "evidence / reason"):
        table.add_column(col)
    for item in report.items:
        if item.expression:
            where = f"{item.evidence[0].tool} {item.expression}"
            used = [f"{e.path} = {e.value}" for e in item.evidence if e.value is not None]
            if used:  # which figure of each leaf (a paragraph holds several)
                where += "\n  " + "; ".join(dict.fromkeys(used))
        elif item.evidence:
            where = f"{item.evidence[0].tool} {item.evidence[0].path} = {item.evidence[0].raw!r}"
        else:
            where = item.reason
        style = _STYLE.get(item.status, "") if item.flagged else ""
        table.add_row(item.text, item.kind, Text(item.status, style=style), where)
    out.print(table)
    if report.judgements:
        judged = Table(title=f"model judge ({report.judgements[0].model or 'unnamed model'})")
        for col in ("sentence", "verdict", "quote", "reason"):
            judged.add_column(col)
        for j in report.judgements:
            quote = f"{j.quote!r} ({'in the data' if j.quote_verified else 'not in the data'})" if j.quote else ""
            judged.add_row(j.sentence, j.verdict, quote, j.reason)
        out.print(judged)
    if report.warnings.retry_hint:
        out.print("\n[bold]retry hint[/bold]")
        out.print(report.warnings.retry_hint, markup=False)


def _version(value: bool) -> None:
    if value:
        print(f"finverify {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Check an assistant's answer against the tool results it consulted."""


def _fail(message: str) -> typer.Exit:
    # plain print: no wrapping (a path must stay whole) and no markup read from user text
    print(f"error: {message}", file=sys.stderr)
    raise typer.Exit(2)


def main() -> None:
    """Entry point of the ``verifier`` command."""
    app()


if __name__ == "__main__":
    main()
