import { terminalSafe } from '../../log/terminal-safe.js';
import { gateSentence } from '../../results/gate-units.js';
import { CASE_CHANGES, type CaseDelta, type MetricDelta, type RunComparison } from './comparison.js';
import { CASE_CHANGE_TITLE, formatInterval, formatMetricChange, formatMetricValue, headlineMetrics, notableMetrics, opLabel } from './format-delta.js';
import { describeLimits } from '../../load/gate/regression-limits.js';

/** Cases of one change listed on the console before the rest is summed up. */
const CONSOLE_CASES = 20;

function caseLines(d: CaseDelta): string[] {
  const verdicts = `${d.base?.verdict ?? '(absent)'} → ${d.new?.verdict ?? '(absent)'}`;
  const lines = [`  ${d.id} [${d.area}] ${verdicts}: ${d.title}`];
  if (d.base) lines.push(`      base: ${d.base.message}`);
  if (d.new) lines.push(`      new:  ${d.new.message}`);
  return lines;
}

function metricLine(m: MetricDelta): string {
  return `  ${m.metric}: ${formatMetricValue(m, m.base)} → ${formatMetricValue(m, m.new)} (${formatMetricChange(m, true)}; 95% intervals ${formatInterval(m, m.baseInterval)} vs ${formatInterval(m, m.newInterval)})`;
}

/**
 * The console's view of a comparison, what changed first: the verdict line,
 * newly failing cases with both messages, regressions, newly broken gates,
 * then what still fails, was fixed or improved. Text from the target is made
 * terminal-safe.
 */
export function renderCompareText(c: RunComparison): string {
  const out: string[] = [];
  out.push(`compare ${c.base.kind} runs: BASE ${c.base.runId} (started ${c.base.startedAt}) → NEW ${c.new.runId} (started ${c.new.startedAt})`);
  const k = c.counts;
  out.push(
    c.regressed
      ? `REGRESSED: ${c.newlyInconclusive ? 'NEW is INCONCLUSIVE, ' : ''}${k.newlyFailing} newly failing, ${k.regressions} metric regression(s), ${k.newlyBrokenGates} gate(s) newly broken`
      : `NO REGRESSION: nothing newly fails${c.load ? ' or regresses' : ''} (${k.fixed} fixed, ${c.unchanged} unchanged${c.load ? `, ${k.improvements} improvement(s)` : ''})`,
  );
  for (const n of c.notes) out.push(`note: ${n}`);
  const byChange = (ch: string): CaseDelta[] => c.cases.filter((d) => d.change === ch);
  const section = (change: (typeof CASE_CHANGES)[number]): void => {
    const list = byChange(change);
    if (list.length === 0) return;
    out.push(`${CASE_CHANGE_TITLE[change].toLowerCase()} (${list.length}):`);
    for (const d of list.slice(0, CONSOLE_CASES)) out.push(...caseLines(d));
    if (list.length > CONSOLE_CASES) out.push(`  … and ${list.length - CONSOLE_CASES} more (compare.md, compare.html)`);
  };
  section('newly-failing');
  const notable = c.load ? notableMetrics(c.load.metrics) : undefined;
  if (notable && notable.regressions.length > 0) {
    out.push(`regressions (${notable.regressions.length}), beyond ${describeLimits(c.load!.limits)} and the noise of both runs:`);
    for (const m of notable.regressions.slice(0, CONSOLE_CASES)) out.push(metricLine(m));
    if (notable.regressions.length > CONSOLE_CASES) out.push(`  … and ${notable.regressions.length - CONSOLE_CASES} more (compare.md, compare.html)`);
  }
  const broken = c.gates.filter((g) => g.newlyBroken);
  if (broken.length > 0) {
    out.push(`gates newly broken (${broken.length}):`);
    for (const g of broken) out.push(`  ✗ ${g.source}: base ${gateSentence(g.base)}; new ${gateSentence(g.new)}`);
  }
  for (const change of CASE_CHANGES.filter((ch) => ch !== 'newly-failing')) section(change);
  if (notable && notable.improvements.length > 0) {
    out.push(`improvements (${notable.improvements.length}):`);
    for (const m of notable.improvements.slice(0, CONSOLE_CASES)) out.push(metricLine(m));
    if (notable.improvements.length > CONSOLE_CASES) out.push(`  … and ${notable.improvements.length - CONSOLE_CASES} more`);
  }
  if (notable && notable.withinNoise.length > 0)
    out.push(`${notable.withinNoise.length} change(s) past the limit are within the noise of the samples (see compare.md)`);
  if (notable && notable.notJudged.length > 0)
    out.push(
      `${notable.notJudged.length} change(s) past the limit are not judged: driven by the offered load, too few samples, or the harness's own requests (see compare.md)`,
    );
  const held = c.gates.filter((g) => !g.newlyBroken);
  for (const g of held)
    out.push(
      `gate ${g.new.passed ? '✓' : '✗'} ${g.source}: base ${g.base.passed ? 'held' : 'broken'}, new ${g.new.passed ? 'held' : 'broken'} (${gateSentence(g.new)})`,
    );
  if (c.load) {
    out.push('per operation (every answer), BASE → NEW:');
    const headline = headlineMetrics(c.load.metrics);
    for (const op of [...new Set(c.load.metrics.map((m) => m.op))]) {
      const figures = ['p50', 'p95', 'rps'].flatMap((key) => {
        const m = headline(op, key);
        return m ? [`${key === 'rps' ? '' : `${key} `}${formatMetricValue(m, m.base)} → ${formatMetricValue(m, m.new)} (${formatMetricChange(m, true)})`] : [];
      });
      out.push(`  ${opLabel(op)}: ${figures.join('; ')}`);
    }
  }
  return `${out.map((l) => terminalSafe(l)).join('\n')}\n`;
}
