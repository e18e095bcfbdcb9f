import { mdCell, mdCode, mdInline } from '../escape.js';
import { gateFigures } from '../../results/gate-units.js';
import { CASE_CHANGES, type CaseDelta, type MetricDelta, type RunComparison } from './comparison.js';
import {
  CASE_CHANGE_TITLE,
  formatInterval,
  formatMetricChange,
  formatMetricValue,
  HEADLINE_KEYS,
  headlineMetrics,
  metricJudgement,
  notableMetrics,
  opLabel,
} from './format-delta.js';
import { describeLimits } from '../../load/gate/regression-limits.js';
import { MIN_SAMPLES_BEYOND } from '../../load/gate/regression-rule.js';

/** Rows per table: a pull-request comment holds 65 536 characters at most. */
const MAX_ROWS = 60;
/** Characters of a message in a cell. */
const MAX_MESSAGE = 240;

function clip(text: string): string {
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text;
}

function rows<T>(items: readonly T[], row: (t: T) => string): string[] {
  const out = items.slice(0, MAX_ROWS).map(row);
  if (items.length > MAX_ROWS) out.push(`\n… and ${items.length - MAX_ROWS} more (see compare.html)`);
  return out;
}

function caseTable(list: readonly CaseDelta[]): string[] {
  return [
    '| case | area | BASE | NEW |',
    '|---|---|---|---|',
    ...rows(
      list,
      (d) =>
        `| ${mdCode(d.id)} ${mdCell(clip(d.title))} | ${mdCell(d.area)} | ${d.base ? `**${mdCell(d.base.verdict)}** ${mdCell(clip(d.base.message))}` : '(absent)'} | ${d.new ? `**${mdCell(d.new.verdict)}** ${mdCell(clip(d.new.message))}` : '(absent)'} |`,
    ),
  ];
}

function metricTable(list: readonly MetricDelta[]): string[] {
  return [
    '| metric | BASE | NEW | change | 95% intervals (BASE vs NEW) | judged |',
    '|---|---:|---:|---:|---|---|',
    ...rows(
      list,
      (m) =>
        `| ${mdCode(m.metric)} | ${formatMetricValue(m, m.base)} | ${formatMetricValue(m, m.new)} | ${formatMetricChange(m)} | ${formatInterval(m, m.baseInterval)} vs ${formatInterval(m, m.newInterval)} | ${metricJudgement(m)} |`,
    ),
  ];
}

/**
 * `compare.md`: the comparison for a pull-request comment or
 * `$GITHUB_STEP_SUMMARY`: the verdict line, newly failing cases and
 * regressions first, then the rest, long lists folded in `<details>`.
 */
export function renderCompareMarkdown(c: RunComparison): string {
  const k = c.counts;
  const out: string[] = [];
  out.push(`## ${c.regressed ? '❌ Regressed' : '✅ No regression'}: ${mdInline(c.base.kind)} run ${mdCode(c.new.runId)} against ${mdCode(c.base.runId)}`, '');
  out.push(
    c.regressed
      ? `${c.newlyInconclusive ? '**NEW is INCONCLUSIVE**; ' : ''}**${k.newlyFailing}** newly failing, **${k.regressions}** metric regression(s), **${k.newlyBrokenGates}** gate(s) newly broken; ${k.fixed} fixed.`
      : `Nothing newly fails${c.load ? ' or regresses' : ''}; ${k.fixed} fixed, ${c.unchanged} unchanged${c.load ? `, ${k.improvements} improvement(s)` : ''}.`,
    '',
  );
  out.push(`| | run | started | verdict | duration |`, `|---|---|---|---|---|`);
  for (const [side, r] of [
    ['BASE', c.base],
    ['NEW', c.new],
  ] as const)
    out.push(`| ${side} | ${mdCode(r.runId)} | ${mdCell(r.startedAt)} | ${mdCell(r.verdict)} | ${(r.durationMs / 1000).toFixed(1)} s |`);
  out.push('');
  for (const n of c.notes) out.push(`> ${mdInline(n)}`, '');
  const by = (ch: string): CaseDelta[] => c.cases.filter((d) => d.change === ch);
  const fold = (title: string, body: string[], open: boolean): void => {
    if (open) out.push(`### ${title}`, '', ...body, '');
    else out.push('<details>', `<summary>${mdInline(title)}</summary>`, '', ...body, '', '</details>', '');
  };
  if (by('newly-failing').length > 0) fold(`Newly failing (${by('newly-failing').length})`, caseTable(by('newly-failing')), true);
  const notable = c.load ? notableMetrics(c.load.metrics) : undefined;
  if (notable && notable.regressions.length > 0) fold(`Regressions (${notable.regressions.length})`, metricTable(notable.regressions), true);
  if (c.gates.length > 0) {
    fold(
      `Gates on both runs (${c.gates.filter((g) => g.newlyBroken).length} newly broken)`,
      [
        '| gate | BASE | NEW | bound |',
        '|---|---|---|---|',
        ...c.gates.map(
          (g) =>
            `| ${mdCode(g.source)}${g.newlyBroken ? ' **newly broken**' : ''} | ${g.base.passed ? '✓' : '✗'} ${gateFigures(g.base).actual} | ${g.new.passed ? '✓' : '✗'} ${gateFigures(g.new).actual} | ${gateFigures(g.new).limit} |`,
        ),
      ],
      c.gates.some((g) => g.newlyBroken),
    );
  }
  for (const change of CASE_CHANGES.filter((ch) => ch !== 'newly-failing')) {
    const list = by(change);
    if (list.length > 0) fold(`${CASE_CHANGE_TITLE[change]} (${list.length})`, caseTable(list), change === 'still-failing' && list.length <= 10);
  }
  if (c.load) {
    const ops = [...new Set(c.load.metrics.map((m) => m.op))];
    const head = headlineMetrics(c.load.metrics);
    const table = [
      '| operation | p50 | p95 | p99 | throughput | errors | 429 |',
      '|---|---|---|---|---|---|---|',
      ...ops.map((op) => {
        const cell = (key: string): string => {
          const m = head(op, key);
          return m ? `${formatMetricValue(m, m.new)} (${formatMetricChange(m, true)})${m.regression ? ' ❌' : m.improvement ? ' ✅' : ''}` : '–';
        };
        return `| ${mdCell(opLabel(op))} | ${HEADLINE_KEYS.map(cell).join(' | ')} |`;
      }),
    ];
    fold('Load: NEW and its change per operation (every answer)', table, true);
    if (notable && notable.improvements.length > 0) fold(`Improvements (${notable.improvements.length})`, metricTable(notable.improvements), false);
    if (notable && notable.withinNoise.length > 0)
      fold(`Past the limit but within the noise of the samples (${notable.withinNoise.length})`, metricTable(notable.withinNoise), false);
    if (notable && notable.notJudged.length > 0) fold(`Past the limit but not judged (${notable.notJudged.length})`, metricTable(notable.notJudged), false);
    const outcomes = c.load.metrics.filter((m) => m.outcome !== 'any' && m.key !== 'max');
    if (outcomes.length > 0) fold('Every metric by outcome (2xx, 429, other status)', metricTable(outcomes), false);
    out.push(
      `Regression: worse than ${describeLimits(c.load.limits)} **and** outside the noise: the 95% intervals of both runs (order statistics of each exact histogram for percentiles, Wilson for rates, Poisson for throughput) do not overlap. Not judged: the throughput of every answer, of 429s and of other statuses (the offered load), the 2xx throughput and the 429 share where the runs offered rates further apart than the throughput limit, a percentile with fewer than ${MIN_SAMPLES_BEYOND} answers above it, and the harness's own requests around the load (\`setup.*\`).`,
      '',
    );
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
