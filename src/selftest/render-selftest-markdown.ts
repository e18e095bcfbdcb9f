import { mdCell } from './defect-table.js';
import type { SelftestResult } from '../results/selftest-result.js';
import { coverageView } from './coverage-view.js';
import { casesRun, modeLine, scoreLine } from './render-selftest-text.js';

/** `selftest.md`: score, defect × catching checks, false alarms, per-check coverage. */
export function renderSelftestMarkdown(r: SelftestResult): string {
  const out: string[] = [];
  out.push(`# Self-test ${r.runId}: ${r.verdict}`, '');
  out.push(`${scoreLine(r)}. Duration ${(r.durationMs / 1000).toFixed(1)} s, ${r.concurrency} runs at once. Command: \`${mdCell(r.command)}\`.`, '');
  out.push(`Mode ${mdCell(modeLine(r))}.`, '');
  out.push('## Defects', '', '| defect | promise broken | verdict | caught by | collateral failures | cases run |', '|---|---|---|---|---|---|');
  for (const d of r.defects) {
    const verdict = d.caught ? 'CAUGHT' : `**ESCAPED**${d.error ? ` (${mdCell(d.error)})` : ''}`;
    const by = d.caught ? d.caughtBy.join(', ') : `expected ${d.expected.join(', ')}`;
    out.push(`| \`${d.defect}\` | ${mdCell(d.promise)} | ${verdict} | ${by} | ${d.collateral.map((c) => c.id).join(', ') || '-'} | ${casesRun(d)} |`);
  }
  out.push('', '## False alarms (clean runs)', '');
  if (r.clean.length === 0) out.push('No clean run was made.');
  for (const c of r.clean) {
    const head = `- clean run ${c.index + 1} (seed ${c.seed}, ${c.cases} cases, ${(c.durationMs / 1000).toFixed(1)} s): `;
    if (c.error) out.push(`${head}could not run: ${mdCell(c.error)}`);
    else if (c.falseAlarms.length === 0) out.push(`${head}no false alarm`);
    else out.push(`${head}${c.falseAlarms.map((f) => `${f.id} ${f.verdict}: ${mdCell(f.message)}`).join('; ')}`);
  }
  const view = coverageView(r);
  out.push('', '## Checks', '', view.caption, '', '| check | defects only it catches | also catches | note |', '|---|---|---|---|');
  for (const c of view.rows) {
    const also = c.catches.filter((d) => !c.only.includes(d));
    const note = view.judgesNeed && c.only.length === 0 ? mdCell(c.explanation ?? 'catches no defect alone: not explained') : '';
    out.push(`| ${c.check} | ${c.only.join(', ') || '-'} | ${also.join(', ') || '-'} | ${note} |`);
  }
  return `${out.join('\n')}\n`;
}
