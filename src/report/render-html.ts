import type { CaseRunResult } from '../results/run-result.js';
import { html } from './escape.js';
import { exchangeIndex } from './_internal/evidence.js';
import { renderAreaCards } from './html/area-cards.js';
import { renderBanner } from './html/banner.js';
import { renderCasesTable } from './html/cases-table.js';
import { renderFailures } from './html/failures.js';
import { generatedInputs } from './_internal/generated-inputs.js';
import { renderLayout } from './html/layout.js';
import { renderLoadSection } from './html/load-section.js';
import { renderRateLimitTimeline } from './html/rate-limit-chart.js';
import { renderWebhookTimeline } from './html/webhook-chart.js';
import { namesKnownIssues } from '../results/known-note.js';

/**
 * Renders `report.html`: one self-contained page (inline CSS, JS and SVG,
 * nothing fetched): the verdict banner, the failing cases with their
 * evidence, area tiles, rate-limit and webhook timelines, and every case
 * with its evidence on demand.
 */
export function renderHtml(result: CaseRunResult): string {
  const index = exchangeIndex(result);
  // Verdict first, then what failed with its evidence, then the areas and charts, then every case.
  const sections = [renderBanner(result)];
  const failures = renderFailures(result, index);
  if (failures) sections.push(section('failures', namesKnownIssues(result) ? 'Failures and known issues' : 'Failures', failures));
  sections.push(section('areas', 'Verdicts by area', renderAreaCards(result)));
  if (result.kind === 'load') sections.push(section('load', 'Load', renderLoadSection(result.load)));
  if (result.timelines.rateLimit.length > 0)
    sections.push(
      section(
        'rate-limit',
        'Rate-limit timeline',
        renderRateLimitTimeline(result.timelines.rateLimit, { control: result.target.clock, runMs: result.durationMs }),
      ),
    );
  if (result.timelines.webhooks.length > 0) sections.push(section('webhooks', 'Webhook attempts', renderWebhookTimeline(result.timelines.webhooks)));
  for (const c of result.cases) {
    const inputs = generatedInputs(c);
    if (!inputs) continue;
    const rows = inputs.rows.map(
      (r) => `<tr><td><code>${html(r.operation)}</code></td><td>${html(r.keywords.join(', ') || '–')}</td><td>${r.valid}</td><td>${r.invalid}</td></tr>`,
    );
    sections.push(
      section(
        'generated-inputs',
        `Generated inputs of ${c.id} (seed ${String(inputs.seed)})`,
        `<table><thead><tr><th>Operation</th><th>Keywords broken</th><th>Valid</th><th>Invalid</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
      ),
    );
  }
  sections.push(section('cases', 'All cases', renderCasesTable(result, index)));
  sections.push(
    `<footer>${html(result.tool.name)} ${html(result.tool.version)} · Node ${html(result.tool.node)} · <code>${html(result.command)}</code> · finished ${html(result.finishedAt)} · schema ${html(result.schema)}</footer>`,
  );
  return renderLayout(`${result.verdict} · ${result.target.name} · ${result.runId}`, sections.join('\n'));
}

function section(id: string, title: string, body: string): string {
  return `<section id="${html(id)}"><h2>${html(title)}</h2>\n${body}\n</section>`;
}
