import { html } from '../report/escape.js';
import { renderLayout } from '../report/html/layout.js';
import { verdictBadge } from '../report/html/palette.js';
import type { CleanOutcome, DefectOutcome, SelftestResult } from '../results/selftest-result.js';
import { coverageView } from './coverage-view.js';
import { casesRun, modeLine, scoreLine } from './render-selftest-text.js';

function table(head: string[], rows: string[][], cls = 'cases'): string {
  return `<table class="${cls}"><thead><tr>${head.map((h) => `<th>${html(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

function section(id: string, title: string, body: string): string {
  return `<section id="${html(id)}"><h2>${html(title)}</h2>\n${body}\n</section>`;
}

/** The anchor of a defect's row, so the failures list and other pages can link to it. */
function defectAnchor(defect: string): string {
  return `defect-${defect.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

const CAUGHT = verdictBadge('PASS').replace('>PASS<', '>CAUGHT<');
const ESCAPED = verdictBadge('FAIL').replace('>FAIL<', '>ESCAPED<');

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function alarmsOf(c: CleanOutcome): number {
  return c.falseAlarms.length + (c.error ? 1 : 0);
}

function banner(r: SelftestResult): string {
  const pass = r.verdict === 'PASS';
  const escaped = r.defects.filter((d) => !d.caught).length;
  const alarms = r.clean.reduce((n, c) => n + alarmsOf(c), 0);
  const sub = `${r.score.caught} of ${r.score.total} defects caught`;
  const scope = r.wholeCatalogue ? `whole catalogue (${r.defects.length} defects)` : `${r.defects.length} chosen defect${r.defects.length === 1 ? '' : 's'}`;
  const count = (n: number, label: string, cls: string): string =>
    `<div class="count ${cls}${n === 0 ? ' zero' : ''}"><b>${n}</b><span>${html(label)}</span></div>`;
  return `<section class="banner">
<div class="verdict verdict-${pass ? 'pass' : 'fail'}"><strong>${pass ? 'PASS' : 'FAIL'}</strong><span>${html(sub)}</span></div>
<div class="run">
<h1>Self-test <span class="muted">· run ${html(r.runId)}</span></h1>
<div class="meta">
<span>Scope <b>${html(scope)}</b></span>
<span>Mode <b>${html(r.mode)}</b></span>
<span>Clean runs <b>${r.clean.length}</b></span>
<span>Started <b>${html(r.startedAt)}</b></span>
<span>Duration <b>${html(seconds(r.durationMs))}</b> with <b>${r.concurrency}</b> runs at once</span>
</div>
<div class="counts">${count(r.score.caught, 'Caught', 'c-pass')}${count(escaped, 'Escaped', 'c-fail')}${count(alarms, 'False alarms', 'c-fail')}</div>
<p class="muted" style="margin:10px 0 0">${html(scoreLine(r))}</p>
<p class="muted" style="margin:4px 0 0">Mode ${html(modeLine(r))}.</p>
</div>
</section>`;
}

function escapedItem(d: DefectOutcome): string {
  const why = d.error
    ? `the run could not complete: ${d.error}`
    : d.unproven.length > 0
      ? d.unproven.map((u) => `${u.id} ${u.verdict} without usable evidence: ${u.message}`).join('; ')
      : `none of ${d.expected.join(', ')} failed`;
  return `<li><a href="#${html(defectAnchor(d.defect))}"><code>${html(d.defect)}</code></a> escaped: ${html(why)}. <span class="muted">Promise: ${html(d.promise)}</span></li>`;
}

function attention(r: SelftestResult): string {
  const items = r.defects.filter((d) => !d.caught).map(escapedItem);
  for (const c of r.clean) {
    if (c.error) items.push(`<li><a href="#clean-${c.index + 1}">clean run ${c.index + 1}</a> could not run: ${html(c.error)}</li>`);
    for (const f of c.falseAlarms)
      items.push(
        `<li><a href="#clean-${c.index + 1}">clean run ${c.index + 1}</a> (seed ${c.seed}): false alarm ${verdictBadge(f.verdict)} <b>${html(f.id)}</b>: ${html(f.message)}</li>`,
      );
  }
  return items.length === 0 ? '' : section('attention', 'What failed', `<ul class="failures">${items.join('')}</ul>`);
}

/**
 * `selftest.html`: one self-contained page read like the suite's report:
 * the verdict and score first, then what failed (escaped defects, false
 * alarms) with links to their rows, then every defect, the clean runs and
 * the checks. Every text is escaped.
 */
export function renderSelftestHtml(r: SelftestResult): string {
  const defects = `<table class="cases"><thead><tr><th>Defect</th><th>Promise broken</th><th>Verdict</th><th>Caught by</th><th>Collateral failures</th><th>Cases run</th></tr></thead><tbody>${r.defects
    .map(
      (d) => `<tr id="${html(defectAnchor(d.defect))}" class="${d.caught ? '' : 'failing'}">
<td><code>${html(d.defect)}</code><br><small class="muted">${html(d.description)}</small></td>
<td>${html(d.promise)}</td>
<td>${d.caught ? CAUGHT : ESCAPED}${d.error ? `<br><small>${html(d.error)}</small>` : ''}</td>
<td>${html(d.caught ? d.caughtBy.join(', ') : `expected ${d.expected.join(', ')}`)}</td>
<td>${d.collateral.map((c) => `<span title="${html(c.message)}">${html(c.id)}</span>`).join(', ') || '<span class="muted">none</span>'}</td>
<td>${html(casesRun(d))}</td>
</tr>`,
    )
    .join('\n')}</tbody></table>`;
  const clean =
    r.clean.length === 0
      ? '<p class="muted">No clean run was made.</p>'
      : `<table class="cases"><thead><tr><th>Clean run</th><th>Seed</th><th>Cases</th><th>Duration</th><th>False alarms</th></tr></thead><tbody>${r.clean
          .map(
            (c) =>
              `<tr id="clean-${c.index + 1}" class="${alarmsOf(c) > 0 ? 'failing' : ''}"><td>${c.index + 1}</td><td>${c.seed}</td><td>${c.cases}</td><td>${html(seconds(c.durationMs))}</td><td>${
                c.error
                  ? html(`could not run: ${c.error}`)
                  : c.falseAlarms.length === 0
                    ? `${verdictBadge('PASS')} none`
                    : c.falseAlarms.map((f) => `${verdictBadge(f.verdict)} ${html(f.id)}: ${html(f.message)}`).join('<br>')
              }</td></tr>`,
          )
          .join('')}</tbody></table>`;
  const view = coverageView(r);
  const checks =
    view.rows.length === 0
      ? `<p class="muted">${html(view.caption)}</p><p class="muted">No check caught anything.</p>`
      : `<p class="muted">${html(view.caption)}</p>${table(
          view.judgesNeed ? ['Check', 'Defects only it catches', 'Also catches', 'Note'] : ['Check', 'Defects only it catches', 'Also catches'],
          view.rows.map((c) => {
            const row = [html(c.check), html(c.only.join(', ') || '-'), html(c.catches.filter((d) => !c.only.includes(d)).join(', ') || '-')];
            if (view.judgesNeed) row.push(c.only.length === 0 ? html(c.explanation ?? 'catches no defect alone: not explained') : '');
            return row;
          }),
        )}`;
  const body = [
    banner(r),
    attention(r),
    section('defects', 'Defects', defects),
    section('clean', 'False alarms (clean runs)', clean),
    section('checks', 'Checks', checks),
    `<footer>svc-harness self-test · <code>${html(r.command)}</code> · finished ${html(r.finishedAt)} · schema ${html(r.schema)}</footer>`,
  ]
    .filter(Boolean)
    .join('\n');
  return renderLayout(`${r.verdict} · self-test ${r.runId}`, body);
}
