import type { DefectOutcome, SelftestResult } from '../results/selftest-result.js';

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The score line: `catch score 55/55 (100%), 0 false alarms in 1 clean run`. */
export function scoreLine(r: SelftestResult): string {
  const { caught, total } = r.score;
  const pct = total === 0 ? 100 : Math.floor((caught / total) * 1000) / 10;
  const alarms = r.clean.reduce((n, c) => n + c.falseAlarms.length + (c.error ? 1 : 0), 0);
  return `catch score ${caught}/${total} (${pct}%), ${alarms} false alarm${alarms === 1 ? '' : 's'} in ${r.clean.length} clean run${r.clean.length === 1 ? '' : 's'} (${r.falseAlarmRuns} failing)`;
}

/** The cases a defect's run executed: its focus, or the whole suite, with their number. */
export function casesRun(d: Pick<DefectOutcome, 'focus' | 'cases'>): string {
  return `${d.focus ? d.focus.join(', ') : 'whole suite'} (${d.cases} case${d.cases === 1 ? '' : 's'})`;
}

/** What each defect's run executed, in one sentence: `focused: …` or `whole: …`. */
export function modeLine(r: Pick<SelftestResult, 'mode'>): string {
  return r.mode === 'whole'
    ? 'whole: each defect ran the whole suite, as the clean runs did'
    : 'focused: each defect ran the baseline and its expected cases (the whole suite where one of them judges the whole run; --whole runs it every time); the clean runs ran the whole suite';
}

/** The terminal report: defect × catching checks, false alarms, coverage gaps, the verdict. */
export function renderSelftestText(r: SelftestResult): string {
  const out: string[] = [];
  const w = Math.max(6, ...r.defects.map((d) => d.defect.length));
  out.push(`${pad('defect', w)}  verdict   caught by          collateral  time`);
  for (const d of r.defects) {
    const verdict = d.caught ? 'CAUGHT ' : 'ESCAPED';
    const by = d.caught ? d.caughtBy.join(',') : `(expected ${d.expected.join(',')})`;
    const coll = d.collateral.length === 0 ? '-' : String(d.collateral.length);
    out.push(`${pad(d.defect, w)}  ${verdict}   ${pad(by, 17)}  ${pad(coll, 10)}  ${seconds(d.durationMs)}`);
    if (d.error) out.push(`${' '.repeat(w)}    run failed: ${d.error}`);
    for (const u of d.unproven)
      out.push(
        `${' '.repeat(w)}    ${u.id} ${u.verdict} without usable evidence${u.missingEvidence.length ? ` (unknown ids ${u.missingEvidence.join(', ')})` : ''}: ${u.message}`,
      );
  }
  for (const c of r.clean) {
    if (c.error) out.push(`FALSE ALARM clean run ${c.index + 1} could not run: ${c.error}`);
    for (const f of c.falseAlarms) out.push(`FALSE ALARM clean run ${c.index + 1} (seed ${c.seed}): ${f.id} ${f.verdict}: ${f.message}`);
  }
  // Over chosen defects most checks had nothing to catch: saying so per check would be noise.
  const lonely = r.wholeCatalogue ? r.coverage.filter((c) => c.only.length === 0) : [];
  for (const c of lonely)
    out.push(`check ${c.check} alone catches no defect: ${c.explanation ?? 'NOT EXPLAINED (add a defect, or explain it in CHECKS_WITHOUT_OWN_DEFECT)'}`);
  const durations = r.clean.map((c) => c.durationMs);
  if (durations.length > 0) out.push(`clean runs: ${durations.length}, ${seconds(Math.min(...durations))} to ${seconds(Math.max(...durations))} each`);
  out.push(`mode ${modeLine(r)}`);
  out.push(`${r.verdict}: ${scoreLine(r)}; ${seconds(r.durationMs)} with ${r.concurrency} runs at once`);
  return `${out.join('\n')}\n`;
}
