import type { Exchange } from '../../client/exchange.js';
import type { CaseResult, Verdict } from '../../results/model.js';
import type { CaseRunResult } from '../../results/run-result.js';
import { html } from '../escape.js';
import { hasCard, isFailing, urgentFirst } from '../_internal/order.js';
import { knownNote, namesKnownIssues } from '../../results/known-note.js';
import { caseAnchor, failureAnchor } from './anchors.js';
import { renderCaseEvidence } from './evidence.js';
import { verdictBadge } from './palette.js';

const FILTERS: [string, string, (v: Verdict) => boolean][] = [
  ['all', 'All', () => true],
  ['failing', 'Failing', isFailing],
  ['KNOWN', 'Known', (v) => v === 'KNOWN'],
  ['WARN', 'Warnings', (v) => v === 'WARN'],
  ['SKIP', 'Skipped', (v) => v === 'SKIP'],
  ['PASS', 'Passed', (v) => v === 'PASS'],
];

/** Every case, failures first, with filters by verdict and evidence on demand. */
export function renderCasesTable(result: CaseRunResult, index: Map<string, Exchange>): string {
  // The Known filter shows only in runs with a known-issues list.
  const buttons = FILTERS.filter(([key]) => key !== 'KNOWN' || namesKnownIssues(result))
    .map(([key, label, match]) => {
      const n = result.cases.filter((c) => match(c.verdict)).length;
      return `<button type="button" data-filter="${html(key)}" aria-pressed="${key === 'all'}">${html(label)} <span class="muted">${n}</span></button>`;
    })
    .join('');
  const rows = urgentFirst(result.cases).map((c) => {
    const cls = isFailing(c.verdict) ? 'failing' : '';
    const evidence = renderCaseEvidence(c, index);
    const main = `<tr data-verdict="${html(c.verdict)}" class="case ${cls}${evidence ? ' has-ev' : ''}" id="${html(caseAnchor(c.id))}">
<td>${verdictBadge(c.verdict)}</td>
<td><a class="case-id" href="#${html(hasCard(c.verdict) ? failureAnchor(c.id) : caseAnchor(c.id))}">${html(c.id)}</a><br><span class="muted">${html(c.kind)} · ${html(humanMs(c.durationMs))}${c.roundTrips === undefined ? '' : ` · <span title="${html(tripsTitle(c))}">${c.roundTrips} RT</span>`}</span></td>
<td>${html(c.area)}</td>
<td>${html(c.title)}</td>
<td>${html(c.clause)}</td>
<td class="msg">${knownLine(c)}${html(c.message)}</td>
</tr>`;
    // Evidence sits in its own full-width row so exchanges get the page's width, not one column's.
    return evidence ? `${main}\n<tr data-verdict="${html(c.verdict)}" class="ev ${cls}"><td></td><td colspan="5">${evidence}</td></tr>` : main;
  });
  return `<div class="toolbar">${buttons}<span class="spacer"></span><button type="button" id="toggle-evidence">Expand all evidence</button></div>
<table class="cases">
<colgroup><col class="c-v"><col class="c-id"><col class="c-area"><col class="c-title"><col class="c-clause"><col></colgroup>
<thead><tr><th>Verdict</th><th>Case</th><th>Area</th><th>Title</th><th>Clause</th><th>Message</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`;
}

/** The known-issues list's word on a case, above its message. */
export function knownLine(c: CaseResult): string {
  const note = knownNote(c);
  return note === undefined ? '' : `<span class="known-note">${html(note)}</span><br>`;
}

/** What the round-trip figure of a case counts, as its tooltip says. */
function tripsTitle(c: CaseResult): string {
  const requests = c.requests === undefined ? '' : ` (of ${c.requests} request${c.requests === 1 ? '' : 's'})`;
  return `${c.roundTrips} round trip${c.roundTrips === 1 ? '' : 's'} one after another${requests}`;
}

function humanMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
