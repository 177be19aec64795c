// The demo page: a form over POST /v1/verify, drawn with badge.js.
// Uses only the public endpoints; every user-provided string goes in as text, never as HTML.

import { FLAGGED_STATUSES, STATUS_TEXT, injectStyles, renderReport } from "./badge.js";

const $ = (id) => document.getElementById(id);
let examples = [];

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

// The result card sits beside the form (below it on narrow screens): bring it into view.
function revealOutput() {
  const top = $("output").getBoundingClientRect().top;
  if (top < 0 || top > window.innerHeight - 80) $("output").scrollIntoView({ block: "start" });
}

// ---- errors -------------------------------------------------------------------------------

function showError(title, message, errors = []) {
  $("error-title").textContent = title;
  $("error-message").textContent = message || "";
  const list = $("error-list");
  list.replaceChildren(
    ...errors.map((e) => el("li", null, e.field ? `${e.field}: ${e.message}` : e.message || JSON.stringify(e))),
  );
  $("error").hidden = false;
  $("result").hidden = true;
  $("placeholder").hidden = true;
  document.body.dataset.state = "error";
  revealOutput();
}

function clearError() {
  $("error").hidden = true;
}

// ---- the request --------------------------------------------------------------------------

// The body is assembled as text so the tool JSON goes to the server exactly as pasted:
// JSON.parse would turn 142.30 into 142.3 (and lose digits of large numbers), and the
// verifier compares numbers as written. JSON.parse only checks the text first.
function buildBody() {
  const toolsText = $("tools").value.trim();
  if (!toolsText) throw { field: "tool_results", message: "Paste the tool results as JSON." };
  try {
    JSON.parse(toolsText);
  } catch (err) {
    throw { field: "tool_results", message: `The tool results are not valid JSON: ${err.message}` };
  }
  const parts = [
    `"answer": ${JSON.stringify($("answer").value)}`,
    `"tool_results": ${toolsText}`,
    `"locale": ${JSON.stringify($("locale").value.trim() || "en_US")}`,
    `"metadata": {"assistant": "demo-page"}`,
  ];
  const question = $("question").value.trim();
  if (question) parts.push(`"question": ${JSON.stringify(question)}`);
  return `{${parts.join(", ")}}`;
}

async function verify(event) {
  if (event) event.preventDefault();
  document.body.dataset.state = "busy"; // busy -> done | error: what tests and scripts wait on
  clearError();
  let body;
  try {
    body = buildBody();
  } catch (err) {
    showError("Check the input", err.message);
    $("error").dataset.field = err.field;
    return;
  }
  const headers = { "Content-Type": "application/json" };
  const key = $("api-key").value.trim();
  if (key) headers.Authorization = `Bearer ${key}`;
  const answer = $("answer").value;
  $("verify").disabled = true;
  $("status").textContent = "Verifying…";
  const started = performance.now();
  try {
    const response = await fetch("v1/verify", { method: "POST", headers, body });
    const text = await response.text();
    let data = null;
    try {
      data = JSON.parse(text);
    } catch {
      /* not JSON: shown as text below */
    }
    if (!response.ok) {
      const title = `Error ${response.status}${data && data.error ? ` (${data.error})` : ""}`;
      showError(title, data ? data.message : text.slice(0, 500), (data && data.errors) || []);
      $("error").dataset.field = (data && data.field) || "";
      $("status").textContent = "";
      return;
    }
    showReport(answer, data);
    document.body.dataset.state = "done";
    revealOutput();
    $("status").textContent = `Done in ${Math.round(performance.now() - started)} ms`;
  } catch (err) {
    showError("Could not reach the service", String(err.message || err));
    $("status").textContent = "";
  } finally {
    $("verify").disabled = false;
  }
}

// ---- the report ---------------------------------------------------------------------------

function evidenceCell(item) {
  const cell = el("td", "evidence");
  if (item.expression) cell.appendChild(el("div", "expr", `= ${item.expression}`));
  for (const ev of item.evidence || []) {
    const line = el("div", "ev");
    line.append(
      el("span", "ev-tool", ev.tool + (ev.history ? " (earlier turn)" : "")),
      el("code", "ev-path", ev.path),
      el("span", "ev-raw", ev.raw),
      el("span", "ev-how", ev.how),
    );
    cell.appendChild(line);
  }
  const more = (item.evidence_total || 0) - (item.evidence || []).length;
  if (more > 0) cell.appendChild(el("div", "hint", `+ ${more} more`));
  if (!item.evidence || item.evidence.length === 0) cell.appendChild(el("div", "reason", item.reason));
  else if (item.flagged) cell.appendChild(el("div", "reason", item.reason));
  return cell;
}

function itemRow(item) {
  const row = el("tr", item.flagged ? "flagged" : "");
  row.dataset.status = item.status;
  const value = el("td", "value");
  value.appendChild(el("span", "value-text", item.text));
  if (item.hedged) value.appendChild(el("span", "hint", " hedged"));
  const status = el("td");
  const pill = el("span", `pill pill--${item.flagged ? (item.status === "drift" ? "warn" : "bad") : "ok"}`,
    item.status);
  pill.title = STATUS_TEXT[item.status] || item.status;
  status.appendChild(pill);
  row.append(value, el("td", "kind", item.kind.replace("_", " ")), status, evidenceCell(item));
  return row;
}

function showReport(answer, report) {
  renderReport($("report"), answer, report);
  const meta = $("meta");
  meta.replaceChildren(
    el("span", null, `score ${report.score.toFixed(2)}`),
    el("span", null, `action ${report.action}`),
    el("span", null, `${report.checked} checked, ${report.flagged} flagged`),
    el("span", null, `locale ${report.locale}`),
  );
  const hint = report.warnings.retry_hint;
  $("retry").hidden = !hint;
  $("retry-hint").textContent = hint || "";

  const tbody = $("items").querySelector("tbody");
  tbody.replaceChildren(...report.items.map(itemRow));
  if (report.items.length === 0) {
    const row = el("tr");
    const cell = el("td", "empty", "No values to check in this answer.");
    cell.colSpan = 4;
    row.appendChild(cell);
    tbody.appendChild(row);
  }

  const suggestions = report.suggestions || [];
  $("suggestions-box").hidden = suggestions.length === 0;
  $("suggestions").replaceChildren(...suggestions.map((s) => el("li", null, s.text)));

  $("placeholder").hidden = true;
  $("result").hidden = false;
  $("result").dataset.confidence = report.confidence;
  $("result").dataset.flaggedStatuses = FLAGGED_STATUSES.join(" ");
}

// ---- examples -----------------------------------------------------------------------------

function loadExample(id) {
  const ex = examples.find((e) => e.id === id);
  if (!ex) return;
  $("answer").value = ex.answer;
  $("tools").value = ex.tool_results_json;
  $("question").value = ex.question || "";
  $("locale").value = ex.locale || "en_US";
  $("example-source").textContent = `from ${ex.source}`;
}

async function loadExamples() {
  try {
    const response = await fetch("static/examples.json");
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    examples = (await response.json()).examples || [];
  } catch (err) {
    $("example-source").textContent = `examples could not be loaded (${err.message})`;
    return;
  }
  const select = $("example");
  for (const ex of examples) {
    const option = el("option", null, ex.title);
    option.value = ex.id;
    select.appendChild(option);
  }
  select.dataset.loaded = String(examples.length);
}

// ---- wiring -------------------------------------------------------------------------------

injectStyles();
$("verify-form").addEventListener("submit", verify);
$("example").addEventListener("change", (e) => {
  loadExample(e.target.value);
  if (e.target.value) verify();
});
$("verify-form").addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) verify(e);
});
loadExamples();
