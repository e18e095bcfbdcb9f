import { describe, expect, it } from 'vitest';
import type { SelftestResult } from '../../src/results/selftest-result.js';
import { renderSelftestHtml } from '../../src/selftest/render-selftest-html.js';
import { renderSelftestMarkdown } from '../../src/selftest/render-selftest-markdown.js';
import { renderSelftestText } from '../../src/selftest/render-selftest-text.js';

function result(over: Partial<SelftestResult> = {}): SelftestResult {
  const outcome = (defect: string, caughtBy: string[]): SelftestResult['defects'][number] => ({
    defect,
    description: `${defect} described`,
    promise: `${defect} promise`,
    expected: ['WL-05'],
    caughtBy,
    unproven: [],
    collateral: [],
    caught: caughtBy.length > 0,
    cases: 60,
    durationMs: 900,
    seed: 5,
  });
  return {
    schema: 'svc-harness/selftest@1',
    kind: 'selftest',
    runId: 'st-1',
    command: 'svc-harness selftest --only-defects rates-missing,cancel-no-refund',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:01:00.000Z',
    durationMs: 60_000,
    concurrency: 2,
    mode: 'focused',
    wholeCatalogue: false,
    defects: [outcome('rates-missing', ['WL-05']), outcome('cancel-no-refund', [])],
    clean: [
      {
        index: 0,
        falseAlarms: [{ id: 'RL-03', kind: 'check', verdict: 'FAIL', message: 'Retry-After early', evidence: ['x-1'], missingEvidence: [] }],
        cases: 60,
        durationMs: 30_000,
        seed: 9,
      },
    ],
    coverage: [
      { check: 'WL-05', catches: ['rates-missing'], only: ['rates-missing'] },
      { check: 'AU-01', catches: [], only: [] },
      { check: 'AU-02', catches: [], only: [] },
    ],
    score: { caught: 1, total: 2 },
    falseAlarmRuns: 1,
    unexplainedChecks: [],
    verdict: 'FAIL',
    ...over,
  };
}

describe('self-test reports', () => {
  it('say nothing about checks that caught nothing in a run of chosen defects', () => {
    const r = result();
    expect(renderSelftestText(r)).not.toMatch(/alone catches no defect|NOT EXPLAINED/);
    expect(renderSelftestMarkdown(r)).not.toMatch(/not explained|\| AU-01 \|/);
    const page = renderSelftestHtml(r);
    expect(page).not.toMatch(/not explained|>AU-01</);
    expect(page).toContain('>WL-05<');
  });

  it('still name every unexplained check over the whole catalogue', () => {
    const r = result({ wholeCatalogue: true });
    expect(renderSelftestText(r)).toContain('check AU-01 alone catches no defect: NOT EXPLAINED');
    expect(renderSelftestMarkdown(r)).toMatch(/\| AU-02 \| - \| - \| catches no defect alone: not explained \|/);
    expect(renderSelftestHtml(r)).toContain('catches no defect alone: not explained');
  });

  it('say which mode ran and what each defect run executed', () => {
    const focused = result({ defects: [{ ...result().defects[0]!, focus: ['AU-01', 'WL-05'], cases: 2 }, result().defects[1]!] });
    expect(renderSelftestText(focused)).toMatch(
      /^mode focused: each defect ran the baseline and its expected cases \(the whole suite where one of them judges the whole run/m,
    );
    const md = renderSelftestMarkdown(focused);
    expect(md).toMatch(/^Mode focused: /m);
    expect(md).toContain('| AU-01, WL-05 (2 cases) |');
    expect(md).toContain('| whole suite (60 cases) |');
    expect(md).toContain('so its collateral failures are among those; --whole shows every one.');
    const page = renderSelftestHtml(focused);
    expect(page).toContain('Mode <b>focused</b>');
    expect(page).toContain('<td>AU-01, WL-05 (2 cases)</td>');
    const whole = result({ mode: 'whole' });
    expect(renderSelftestText(whole)).toMatch(/^mode whole: each defect ran the whole suite, as the clean runs did$/m);
    expect(renderSelftestMarkdown(whole)).not.toContain('--whole shows every one');
    expect(renderSelftestHtml(whole)).toContain('Mode <b>whole</b>');
  });

  it('open on the verdict, then what failed with links to its rows, then the tables', () => {
    const page = renderSelftestHtml(result());
    const at = (s: string): number => page.indexOf(s);
    expect(page).toMatch(/<div class="verdict verdict-fail"><strong>FAIL<\/strong><span>1 of 2 defects caught<\/span>/);
    expect(page).toContain('Scope <b>2 chosen defects</b>');
    const order = ['class="banner"', '<section id="attention">', '<section id="defects">', '<section id="clean">', '<section id="checks">'].map(at);
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const attention = page.slice(at('<section id="attention">'), at('<section id="defects">'));
    expect(attention).toContain('<a href="#defect-cancel-no-refund"><code>cancel-no-refund</code></a> escaped: none of WL-05 failed');
    expect(attention).toContain('<a href="#clean-1">clean run 1</a> (seed 9): false alarm');
    expect(page).toContain('<tr id="defect-cancel-no-refund" class="failing">');
    expect(page).toContain('<tr id="clean-1" class="failing">');
    expect(
      renderSelftestHtml(result({ verdict: 'PASS', defects: result().defects.slice(0, 1), clean: [], score: { caught: 1, total: 1 }, falseAlarmRuns: 0 })),
    ).not.toContain('id="attention"');
  });
});
