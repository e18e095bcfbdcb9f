import { html } from '../report/escape.js';
import { renderLayout } from '../report/html/layout.js';
import { verdictBadge } from '../report/html/palette.js';
import type { SelftestResult } from '../report/selftest-result.js';
import { scoreLine } from './render-selftest-text.js';

function table(head: string[], rows: string[][]): string {
  return `<table class="cases"><thead><tr>${head.map((h) => `<th>${html(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/** `selftest.html`: one self-contained page with the same content as `selftest.md`. Every text is escaped. */
export function renderSelftestHtml(r: SelftestResult): string {
  const defects = table(
    ['defect', 'promise broken', 'verdict', 'caught by', 'collateral'],
    r.defects.map((d) => [
      `<code>${html(d.defect)}</code><br><small>${html(d.description)}</small>`,
      html(d.promise),
      d.caught ? verdictBadge('PASS').replace('>PASS<', '>CAUGHT<') : `${verdictBadge('FAIL').replace('>FAIL<', '>ESCAPED<')}${d.error ? `<br><small>${html(d.error)}</small>` : ''}`,
      html(d.caught ? d.caughtBy.join(', ') : `expected ${d.expected.join(', ')}`),
      d.collateral.map((c) => `<span title="${html(c.message)}">${html(c.id)}</span>`).join(', ') || '-',
    ]),
  );
  const clean = table(
    ['clean run', 'seed', 'cases', 'duration', 'false alarms'],
    r.clean.map((c) => [
      String(c.index + 1),
      String(c.seed),
      String(c.cases),
      `${(c.durationMs / 1000).toFixed(1)} s`,
      c.error ? html(`could not run: ${c.error}`) : c.falseAlarms.length === 0 ? verdictBadge('PASS') : c.falseAlarms.map((f) => `${verdictBadge(f.verdict)} ${html(f.id)}: ${html(f.message)}`).join('<br>'),
    ]),
  );
  const checks = table(
    ['check', 'defects only it catches', 'also catches', 'note'],
    r.coverage.map((c) => [
      html(c.check),
      html(c.only.join(', ') || '-'),
      html(c.catches.filter((d) => !c.only.includes(d)).join(', ') || '-'),
      c.only.length === 0 ? html(c.explanation ?? 'catches no defect alone: not explained') : '',
    ]),
  );
  const body = [
    `<h1>Self-test ${html(r.runId)} ${verdictBadge(r.verdict)}</h1>`,
    `<p>${html(scoreLine(r))}. Duration ${html((r.durationMs / 1000).toFixed(1))} s, ${html(r.concurrency)} runs at once.</p>`,
    '<h2>Defects</h2>',
    defects,
    '<h2>False alarms (clean runs)</h2>',
    clean,
    '<h2>Checks</h2>',
    checks,
  ].join('\n');
  return renderLayout(`svc-harness self-test ${r.runId}`, body);
}
