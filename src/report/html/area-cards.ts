import type { CaseRunResult } from '../../results/run-result.js';
import { html } from '../escape.js';
import { groupByArea, hasCard, worstVerdict } from '../_internal/order.js';
import { failureAnchor } from './anchors.js';
import { verdictBadge } from './palette.js';
import { verdictBar } from './banner.js';
import { knownNote } from '../../results/known-note.js';

/** One tile per area: pass count, a verdict bar, its failing cases linked to their cards, and the clauses it covered. */
export function renderAreaCards(result: CaseRunResult): string {
  const tiles = groupByArea(result.cases).map((g) => {
    const total = g.cases.length;
    const worst = worstVerdict(g.counts);
    const problems = (['FAIL', 'ERROR', 'KNOWN', 'WARN', 'SKIP'] as const)
      .filter((v) => g.counts[v] > 0)
      .map((v) => `${g.counts[v]} ${v}`)
      .join(' · ');
    const clauses = [...new Set(g.cases.map((c) => c.clause))];
    const failing = g.cases.filter((c) => hasCard(c.verdict));
    const links =
      failing.length > 0
        ? `<div class="area-failing">${failing.map((c) => `<a href="#${html(failureAnchor(c.id))}" title="${html(knownNote(c) ?? c.message)}">${verdictBadge(c.verdict)} ${html(c.id)}</a>`).join('')}</div>`
        : '';
    return `<div class="area w-${worst.toLowerCase()}">
<div class="area-head"><span class="area-name">${html(g.area)}</span><span class="area-score"><b>${g.counts.PASS}</b>/${total} passed</span></div>
${verdictBar(g.counts, total)}
${problems ? `<div class="area-score" style="margin-bottom:6px">${html(problems)}</div>` : ''}
${links}
<ul>${clauses.map((c) => `<li title="${html(c)}">${html(c)}</li>`).join('')}</ul>
</div>`;
  });
  if (tiles.length === 0) return '<p class="muted">No cases ran.</p>';
  return `<div class="areas">${tiles.join('\n')}</div>`;
}
