import type { Exchange } from '../../client/exchange.js';
import type { CaseRunResult } from '../../results/run-result.js';
import type { CaseResult } from '../../results/model.js';
import { html } from '../escape.js';
import { hasCard, urgentFirst } from '../_internal/order.js';
import { evidenceGroups, evidenceLine, groupedEvidenceLines, replayOf } from '../_internal/evidence.js';
import { gateSentence } from '../../results/gate-units.js';
import { caseAnchor, failureAnchor } from './anchors.js';
import { renderBodyComparison } from './body-comparison.js';
import { renderExchange } from './evidence.js';
import { verdictBadge } from './palette.js';
import { knownLine } from './cases-table.js';
import { renderWindowChart } from './window-chart.js';

/** The broken replay a case names (a property's `details.replayPair`), shown first in its card. */
function replayPairOf(c: CaseResult): { original: string; replay: string } | undefined {
  const p = c.details?.replayPair as { original?: unknown; replay?: unknown } | undefined;
  return p && typeof p.original === 'string' && typeof p.replay === 'string' ? { original: p.original, replay: p.replay } : undefined;
}

/**
 * The failing cases, each as a card read without clicking: the promise it
 * broke (the clause), what was broken, the replay command, a byte comparison
 * when one request was answered twice differently, and a line per
 * exchange (headers and bodies one click away).
 * A known failure gets its card too, with the known-issues list's reason
 * and date above what was broken. Empty when nothing failed.
 */
export function renderFailures(result: CaseRunResult, index: Map<string, Exchange>): string {
  const failing = urgentFirst(result.cases).filter((c) => hasCard(c.verdict));
  return failing
    .map((c) => {
      const exchanges = c.evidence.map((id) => index.get(id)).filter((x): x is Exchange => x !== undefined);
      const missing = c.evidence.filter((id) => !index.has(id));
      const replay = replayOf(c);
      const comparison = renderBodyComparison(exchanges, result.exchanges, replayPairOf(c));
      const gate = result.kind === 'load' && c.kind === 'gate' ? result.load.gates.find((g) => g.id === c.id) : undefined;
      return `<article class="failure" id="${html(failureAnchor(c.id))}">
<header>${verdictBadge(c.verdict)} <span class="case-id">${html(c.id)}</span> <b>${html(c.title)}</b> <a class="muted" href="#${html(caseAnchor(c.id))}">row</a></header>
<p class="promise"><span class="muted">Promise broken:</span> ${html(c.clause)}</p>
<p class="msg">${knownLine(c)}${html(gate ? gateSentence(gate) : c.message)}</p>
${replay ? `<p><span class="muted">Replay:</span> <code class="replay">${html(replay)}</code></p>` : ''}
${renderWindowChart(c.details)}
${comparison}
${renderEvidence(c, exchanges, index)}
${missing.length > 0 ? `<p class="muted">Not recorded: ${html(missing.join(', '))}</p>` : ''}
</article>`;
    })
    .join('\n');
}

function evidenceList(exchanges: readonly Exchange[]): string {
  return `<ul class="ev-lines">${exchanges.map((x) => `<li><code>${html(x.id)}</code>${x.label ? ` <span class="muted">${html(x.label)}</span>` : ''}: <code>${html(evidenceLine(x))}</code></li>`).join('')}</ul>`;
}

function headersAndBodies(exchanges: readonly Exchange[]): string {
  return `<details class="failure-evidence"><summary>Headers and bodies of ${exchanges.length === 1 ? 'this exchange' : `these ${exchanges.length} exchanges`}</summary>${exchanges.map(renderExchange).join('')}</details>`;
}

/**
 * A card's exchanges. When the case names the exchanges that decided it (a
 * property's `details.decisive`), those come first, labelled, their headers
 * and bodies one click away; the run's other exchanges (setup, fill requests) follow
 * folded, with their count, alike ones in a row on one line. Else every
 * exchange in the order it was made.
 */
function renderEvidence(c: CaseResult, exchanges: readonly Exchange[], index: Map<string, Exchange>): string {
  if (exchanges.length === 0) return '';
  const { decisive, others } = evidenceGroups(c);
  const found = (ids: readonly string[]): Exchange[] => ids.map((id) => index.get(id)).filter((x): x is Exchange => x !== undefined);
  const first = found(decisive);
  if (first.length === 0) return `${evidenceList(exchanges)}\n${headersAndBodies(exchanges)}`;
  const rest = found(others);
  const title = first.length === 1 ? 'Decisive exchange' : `Decisive exchanges (${first.length})`;
  const folded =
    rest.length > 0
      ? `<details class="other-exchanges"><summary>${html(`${rest.length} other exchange${rest.length === 1 ? '' : 's'} of the run (setup, fills and the rest)`)}</summary><ul class="ev-lines">${groupedEvidenceLines(
          rest.map((x) => x.id),
          index,
        )
          .map((l) => `<li><code>${html(l)}</code></li>`)
          .join('')}</ul>${headersAndBodies(rest)}</details>`
      : '';
  return `<div class="decisive"><p class="decisive-title"><b>${html(title)}</b> <span class="muted">the request and answer that broke the promise</span></p>${evidenceList(first)}${headersAndBodies(first)}</div>\n${folded}`;
}
