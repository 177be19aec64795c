// report.js: draws the eval report's cases with badge.js. The report writer
// (verifier/eval_report/page.py) inlines badge.js and then this file into one
// module script, so renderReport and injectStyles are in scope here.
// The cases come from the JSON element #fv-cases; every string goes
// in as text (badge.js makes text nodes), never as HTML.
{
  const data = JSON.parse(document.getElementById("fv-cases").textContent);
  injectStyles();
  let drawn = 0;
  for (const article of document.querySelectorAll("article.case")) {
    const c = data.cases[Number(article.dataset.index)];
    const slot = article.querySelector(".fv-slot");
    if (!c || !slot) continue;
    renderReport(slot, c.answer, c.report);
    article.dataset.marks = String(slot.querySelectorAll("mark.fv-flag").length);
    drawn += 1;
  }
  document.body.dataset.drawn = String(drawn);
  document.body.dataset.state = "done";
}
