import { durationText } from '../../log/duration-text.js';
import type { Verdict } from '../../results/model.js';
import type { CaseRunResult } from '../../results/run-result.js';
import { html } from '../escape.js';
import { VERDICT_ORDER } from '../_internal/order.js';
import { VERDICT_COLOUR } from './palette.js';
import { namesKnownIssues } from '../../results/known-note.js';
import { isPracticeRun, seedWords } from '../_internal/run-words.js';

const LABEL: Record<Verdict, string> = { PASS: 'Passed', FAIL: 'Failed', ERROR: 'Errors', KNOWN: 'Known', WARN: 'Warnings', SKIP: 'Skipped' };

/** A stacked bar of verdict counts. */
export function verdictBar(counts: Partial<Record<Verdict, number>>, total: number): string {
  if (total <= 0) return '<div class="bar"></div>';
  const parts = VERDICT_ORDER.filter((v) => (counts[v] ?? 0) > 0).map(
    (v) => `<i style="width:${(((counts[v] ?? 0) / total) * 100).toFixed(2)}%;background:${VERDICT_COLOUR[v]}" title="${html(`${counts[v] ?? 0} ${v}`)}"></i>`,
  );
  return `<div class="bar">${parts.join('')}</div>`;
}

/** The clock the run's cases ran in, and its seed when it has one: a load or a certification draws nothing from a seed. */
function clockAndSeed(result: CaseRunResult): string {
  const { seed, why } = seedWords(result);
  const clock = result.kind === 'load' ? result.load.clock.replace('-', ' ') : result.target.clock;
  return `<span>Clock <b>${html(clock)}</b></span>\n<span>Seed <b>${html(seed)}</b>${why !== undefined ? ` (${html(why)})` : ''}</span>`;
}

/** The top banner: the run's verdict in one look, counts, and what was tested. */
export function renderBanner(result: CaseRunResult): string {
  const pass = result.verdict === 'PASS';
  const inconclusive = result.verdict === 'INCONCLUSIVE';
  const failing = (result.summary.FAIL ?? 0) + (result.summary.ERROR ?? 0);
  const interrupted = result.verdict === 'INTERRUPTED';
  const sub = interrupted
    ? 'stopped before its end'
    : pass
      ? `${result.summary.PASS} of ${result.summary.total} passed`
      : inconclusive
        ? (result.verdictReason ?? 'the run verified nothing')
        : `${failing} of ${result.summary.total} failing`;
  // KNOWN shows only in runs with a known-issues list, so other reports keep their five tiles.
  const counts = (['PASS', 'FAIL', 'ERROR', ...(namesKnownIssues(result) ? (['KNOWN'] as const) : []), 'WARN', 'SKIP'] as const)
    .map(
      (v) =>
        `<div class="count c-${v.toLowerCase()}${(result.summary[v] ?? 0) === 0 ? ' zero' : ''}"><b>${result.summary[v] ?? 0}</b><span>${LABEL[v]}</span></div>`,
    )
    .join('');
  const t = result.target;
  // A practice certification is never a plain green PASS: it certifies nothing about any service.
  const practice = isPracticeRun(result);
  const tone = pass && !practice ? 'pass' : inconclusive || interrupted || (pass && practice) ? 'inconclusive' : 'fail';
  return `<section class="banner">
<div class="verdict verdict-${tone}">${practice ? '<span class="practice-tag">PRACTICE</span>' : ''}<strong>${interrupted ? 'INTERRUPTED' : pass ? 'PASS' : inconclusive ? 'INCONCLUSIVE' : 'FAIL'}</strong><span>${html(sub)}</span></div>
<div class="run">
<h1>${html(t.name)} <span class="muted">· run ${html(result.runId)}</span></h1>
<div class="meta">
<span>Target <b>${html(t.baseUrl)}</b>${t.embedded ? ' (embedded mock)' : ''}</span>
${practice ? '<span class="practice-note"><b>PRACTICE</b> certification against the mock bundled with the harness: it certifies nothing about any service</span>' : ''}
${clockAndSeed(result)}
<span>Started <b>${html(result.startedAt)}</b></span>
<span>Duration <b>${html(durationText(result.durationMs, { tenths: true }))}</b></span>
</div>
<div class="counts">${counts}<div class="count"><b>${result.summary.total}</b><span>Total</span></div></div>
${verdictBar(result.summary, result.summary.total)}
</div>
</section>
${result.notes.length > 0 ? `<ul class="notes">${result.notes.map((n) => `<li>${html(n)}</li>`).join('')}</ul>` : ''}`;
}
