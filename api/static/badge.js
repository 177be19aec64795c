// badge.js: draws a finverify Report (the JSON of POST /v1/verify) in a web page:
// the confidence badge, the message, and the answer with its flagged spans highlighted.
//
// A standalone ES module: no dependencies, no build step. Copy it into your frontend as is.
//
//   import { renderReport, injectStyles } from "./badge.js";
//   injectStyles();                                  // once: the fv-* default styles
//   renderReport(document.querySelector("#reply"), answer, report);
//
// What it reads from the report (everything else is ignored):
//   report.confidence                 "high" | "medium" | "low"
//   report.warnings.badge             {level, label}
//   report.warnings.message           a sentence for the user
//   report.warnings.highlights[]      {start, end, text, kind, status, reason}
//   report.items[]                    {start, end, candidates[]}: the tooltip adds what the data has
//                                     instead ("the data has 142.3 at $.price"), when the report says
//
// start/end are offsets in Unicode code points (Python string indices), not JavaScript
// string indices: an emoji before a span moves the JavaScript index by two. The
// conversion is done here (codePointToIndex); never slice the answer with them directly.
//
// Elements it makes (style them, or call injectStyles() for the defaults):
//   span.fv-badge.fv-badge--{high|medium|low}[data-level]
//   p.fv-message
//   div.fv-answer > mark.fv-flag.fv-flag--{status}[data-status][data-kind][data-reason][data-start][data-end]
// Text is always inserted as text nodes: the answer may contain HTML and is shown as text.

/** Statuses the verifier flags; each gets a fv-flag--{status} class. */
export const FLAGGED_STATUSES = ["drift", "unsupported", "invalid", "misattributed", "stale", "gap_fill",
  "wrong_arithmetic"];

/** Human names for the statuses, for tooltips and tables. */
export const STATUS_TEXT = {
  exact: "exact",
  normalized: "normalized",
  rounded: "rounded",
  derived: "derived",
  drift: "drift (rounded without a hedge)",
  unsupported: "unsupported",
  invalid: "invalid check digit",
  misattributed: "misattributed",
  stale: "stale (earlier turn)",
  gap_fill: "filled in (entity not in the data)",
  wrong_arithmetic: "wrong arithmetic",
};

/**
 * A function mapping a code-point offset in `text` to the JavaScript (UTF-16) index.
 * Offsets past the end map to text.length.
 */
export function codePointToIndex(text) {
  const table = [0];
  let index = 0;
  for (const ch of text) {
    index += ch.length;
    table.push(index);
  }
  return (offset) => table[Math.max(0, Math.min(offset, table.length - 1))];
}

function el(doc, tag, className, text) {
  const node = doc.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

/** The confidence badge: <span class="fv-badge fv-badge--medium">Partly verified</span>. */
export function renderBadge(report, doc = document) {
  const badge = (report.warnings && report.warnings.badge) || {};
  const level = badge.level || report.confidence || "low";
  const node = el(doc, "span", `fv-badge fv-badge--${level}`, badge.label || level);
  node.dataset.level = level;
  if (typeof report.score === "number") node.dataset.score = String(report.score);
  return node;
}

/** The report's message for the user: <p class="fv-message">. */
export function renderMessage(report, doc = document) {
  return el(doc, "p", "fv-message", (report.warnings && report.warnings.message) || "");
}

/**
 * The answer as text with each highlight wrapped in <mark class="fv-flag fv-flag--{status}">.
 * A highlight whose offsets do not cover its `text` in this answer (the report was made for
 * another answer) or that overlaps an earlier one is left out, never drawn in the wrong place.
 */
export function renderHighlightedAnswer(answer, report, doc = document) {
  const root = el(doc, "div", "fv-answer");
  const toIndex = codePointToIndex(answer);
  const spans = [...((report.warnings && report.warnings.highlights) || [])]
    .map((h) => ({ ...h, from: toIndex(h.start), to: toIndex(h.end) }))
    .sort((a, b) => a.from - b.from || b.to - a.to);
  let pos = 0;
  for (const h of spans) {
    if (h.from < pos || h.to <= h.from || answer.slice(h.from, h.to) !== h.text) continue;
    if (h.from > pos) root.appendChild(doc.createTextNode(answer.slice(pos, h.from)));
    const mark = el(doc, "mark", `fv-flag fv-flag--${h.status}`, h.text);
    mark.dataset.status = h.status;
    mark.dataset.kind = h.kind;
    mark.dataset.start = String(h.start);
    mark.dataset.end = String(h.end);
    mark.dataset.reason = `${STATUS_TEXT[h.status] || h.status}: ${h.reason}${insteadOf(report, h)}`;
    mark.tabIndex = 0; // the tooltip shows on keyboard focus too
    root.appendChild(mark);
    pos = h.to;
  }
  if (pos < answer.length) root.appendChild(doc.createTextNode(answer.slice(pos)));
  return root;
}

/**
 * "; the data has 142.3 at $.price": the nearest figure the data has for a flagged value
 * (its item's first candidate), or "" when the report names none (or has no items).
 */
export function insteadOf(report, highlight) {
  const item = (report.items || []).find((i) => i.start === highlight.start && i.end === highlight.end);
  const near = item && item.candidates && item.candidates[0];
  if (!near) return "";
  const already = item.status === "drift" && item.evidence && item.evidence[0]
    && item.evidence[0].path === near.path && item.evidence[0].tool_index === near.tool_index;
  return already ? "" : `; the data has ${near.raw} at ${near.path} in ${near.tool}`;
}

/** Replace the contents of `container` with the badge, the message and the highlighted answer. */
export function renderReport(container, answer, report) {
  const doc = container.ownerDocument;
  const head = el(doc, "div", "fv-head");
  head.append(renderBadge(report, doc), renderMessage(report, doc));
  container.replaceChildren(head, renderHighlightedAnswer(answer, report, doc));
  return container;
}

/** Default styles for the fv-* elements; injectStyles() adds them to the page once. */
export const DEFAULT_CSS = `
.fv-head { display: flex; align-items: center; gap: .75rem; flex-wrap: wrap; }
.fv-badge { display: inline-flex; align-items: center; gap: .4rem; padding: .2rem .65rem;
  border-radius: 999px; font: 600 .85rem/1.4 system-ui, sans-serif; border: 1px solid; white-space: nowrap; }
.fv-badge::before { content: ""; width: .55rem; height: .55rem; border-radius: 50%; background: currentColor; }
.fv-badge--high { color: #166534; background: #dcfce7; border-color: #86efac; }
.fv-badge--medium { color: #854d0e; background: #fef9c3; border-color: #fde047; }
.fv-badge--low { color: #991b1b; background: #fee2e2; border-color: #fca5a5; }
.fv-message { margin: 0; color: #374151; }
.fv-answer { white-space: pre-wrap; line-height: 1.7; }
.fv-flag { position: relative; padding: .05rem .15rem; border-radius: 3px; color: inherit;
  cursor: help; text-decoration: underline wavy; text-underline-offset: 3px; }
.fv-flag--unsupported, .fv-flag--invalid, .fv-flag--misattributed, .fv-flag--stale,
.fv-flag--gap_fill, .fv-flag--wrong_arithmetic {
  background: #fee2e2; text-decoration-color: #dc2626; }
.fv-flag--drift { background: #fef08a; text-decoration-color: #ca8a04; }
.fv-flag:hover::after, .fv-flag:focus::after { content: attr(data-reason); position: absolute;
  left: 0; bottom: calc(100% + 6px); z-index: 10; width: max-content; max-width: 22rem;
  padding: .4rem .6rem; border-radius: 6px; background: #111827; color: #f9fafb;
  font: 400 .8rem/1.4 system-ui, sans-serif; white-space: normal; text-decoration: none;
  box-shadow: 0 4px 12px rgba(0,0,0,.2); pointer-events: none; }
`;

/** Add DEFAULT_CSS to the document once (a <style id="fv-styles">). */
export function injectStyles(doc = document) {
  if (doc.getElementById("fv-styles")) return;
  const style = doc.createElement("style");
  style.id = "fv-styles";
  style.textContent = DEFAULT_CSS;
  doc.head.appendChild(style);
}
