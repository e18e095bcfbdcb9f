import { mkdtemp, readFile, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { DEFECT_NAMES } from '../../src/mock/defects/catalogue.js';
import { renderDefectTable } from '../../src/selftest/defect-table.js';
import { defectFocus } from '../../src/selftest/defect-focus.js';
import { DEFECT_EXPECTATIONS } from '../../src/selftest/expectations.js';
import { renderSelftestText } from '../../src/selftest/render-selftest-text.js';
import { runSelftest } from '../../src/selftest/run-selftest.js';
import { selftestCommand } from '../../src/cli/commands/selftest.js';
import { buildParser } from '../../src/cli/parser.js';
import { writeSelftestReports } from '../../src/selftest/write-selftest-reports.js';
import { ALL_CHECKS } from '../../src/checks/index.js';
import { PROPERTIES } from '../../properties/index.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('expectations', () => {
  test('every defect has a promise and expected checks that exist in the suite', () => {
    const ids = new Set([...ALL_CHECKS.map((c) => c.id), ...PROPERTIES.map((p) => `property:${p.name}`)]);
    for (const name of DEFECT_NAMES) {
      const e = DEFECT_EXPECTATIONS[name];
      expect(e.promise, name).not.toBe('');
      expect(e.caughtBy.length, name).toBeGreaterThan(0);
      for (const id of e.caughtBy) expect(ids.has(id), `${name} → ${id}`).toBe(true);
    }
    expect(Object.keys(DEFECT_EXPECTATIONS).sort()).toEqual([...DEFECT_NAMES].sort());
  });

  test('the defect table has one row per defect', () => {
    const rows = renderDefectTable().trim().split('\n');
    expect(rows.length).toBe(DEFECT_NAMES.length + 2);
    expect(rows.find((r) => r.startsWith('| `refusals-counted`'))).toContain('RL-08');
  });
});

describe('selftest on chosen defects', () => {
  test('catches each chosen defect by its expected check, raises no false alarm, and writes the reports', { timeout: 300_000 }, async () => {
    const result = await runSelftest({ defects: ['rates-missing', 'quote-tag-unchecked'], repeatClean: 1, concurrency: 3 });
    expect(result.mode).toBe('focused');
    expect(result.score).toEqual({ caught: 2, total: 2 });
    expect(result.defects.map((d) => [d.defect, d.caught, d.caughtBy])).toEqual([
      ['rates-missing', true, ['WL-05']],
      ['quote-tag-unchecked', true, ['QT-04']],
    ]);
    // A focused run of a defect runs the baseline and its expected checks, nothing else; the clean run, the whole suite.
    expect(result.defects.map((d) => [d.defect, d.focus, d.cases])).toEqual([
      ['rates-missing', ['AU-01', 'WL-05'], 2],
      ['quote-tag-unchecked', ['AU-01', 'QT-04'], 2],
    ]);
    expect(result.clean).toHaveLength(1);
    expect(result.clean[0]!.falseAlarms).toEqual([]);
    expect(result.clean[0]!.cases).toBeGreaterThan(40);
    expect(result.falseAlarmRuns).toBe(0);
    expect(result.verdict).toBe('PASS');
    expect(result.coverage.find((c) => c.check === 'WL-05')?.only).toEqual(['rates-missing']);
    expect(renderSelftestText(result)).toContain('catch score 2/2 (100%), 0 false alarms in 1 clean run');
    expect(renderSelftestText(result)).toMatch(
      /^mode focused: each defect ran the baseline and its expected cases \(the whole suite where one of them judges the whole run/m,
    );

    const base = await mkdtemp(path.join(tmpdir(), 'selftest-'));
    dirs.push(base);
    const written = await writeSelftestReports(result, base);
    const json = JSON.parse(await readFile(path.join(written.dir, 'selftest.json'), 'utf8')) as { score: unknown; schema: string };
    expect(json.schema).toBe('svc-harness/selftest@1');
    expect(json.score).toEqual({ caught: 2, total: 2 });
    const md = await readFile(path.join(written.dir, 'selftest.md'), 'utf8');
    expect(md).toContain('| `rates-missing` |');
    expect(md).toContain('| AU-01, WL-05 (2 cases) |');
    expect(md).toMatch(/^Mode focused: /m);
    const page = await readFile(path.join(written.dir, 'selftest.html'), 'utf8');
    expect(page).toContain('quote-tag-unchecked');
    expect(page).toContain('Mode <b>focused</b>');
    expect(page).not.toMatch(/<script[^>]*src=/);
    expect(await readlink(path.join(base, 'latest'))).toBe(result.runId);
    expect(JSON.parse(await readFile(path.join(base, 'latest.json'), 'utf8'))).toMatchObject({ runId: result.runId, verdict: 'PASS' });
  });

  test('a defect whose expected check passes escapes, even when other checks fail: verdict FAIL', { timeout: 180_000 }, async () => {
    // WL-05 catches rates-missing; expecting AU-03 instead turns WL-05's failure, in a run of the whole suite, into collateral.
    const result = await runSelftest({
      defects: ['rates-missing'],
      repeatClean: 0,
      concurrency: 1,
      mode: 'whole',
      expectations: { 'rates-missing': { promise: 'p', caughtBy: ['AU-03'] } },
    });
    expect(result.mode).toBe('whole');
    expect(result.defects[0]).toMatchObject({ defect: 'rates-missing', caught: false, caughtBy: [] });
    expect(result.defects[0]?.focus).toBeUndefined();
    expect(result.defects[0]?.cases).toBeGreaterThan(40);
    expect(result.defects[0]?.collateral.map((c) => c.id)).toContain('WL-05');
    expect(result.score).toEqual({ caught: 0, total: 1 });
    expect(result.verdict).toBe('FAIL');
    expect(renderSelftestText(result)).toMatch(/rates-missing\s+ESCAPED\s+\(expected AU-03\)/);
    expect(renderSelftestText(result)).toMatch(/^mode whole: each defect ran the whole suite/m);
  });

  test('a focused run escapes the same way: its expected check passes, and the check that would catch it does not run', { timeout: 180_000 }, async () => {
    const result = await runSelftest({
      defects: ['rates-missing'],
      repeatClean: 0,
      concurrency: 1,
      expectations: { 'rates-missing': { promise: 'p', caughtBy: ['AU-03'] } },
    });
    expect(result.defects[0]).toMatchObject({ defect: 'rates-missing', caught: false, caughtBy: [], focus: ['AU-01', 'AU-03'], cases: 2, collateral: [] });
    expect(result.score).toEqual({ caught: 0, total: 1 });
    expect(result.verdict).toBe('FAIL');
    expect(renderSelftestText(result)).toMatch(/rates-missing\s+ESCAPED\s+\(expected AU-03\)/);
  });

  test('a defect expected of a check that judges the whole run (ER-01) runs the whole suite in focused mode too', () => {
    expect(defectFocus(DEFECT_EXPECTATIONS['error-request-id-mismatch'].caughtBy, ALL_CHECKS)).toBeUndefined();
    expect(defectFocus(DEFECT_EXPECTATIONS['price-amount-as-string'].caughtBy, ALL_CHECKS)).toBeUndefined();
    expect(defectFocus(DEFECT_EXPECTATIONS['webhook-no-retry'].caughtBy, ALL_CHECKS)).toEqual(['AU-01', 'WH-03', 'WH-06']);
    expect(defectFocus(DEFECT_EXPECTATIONS['booking-body-unchecked'].caughtBy, ALL_CHECKS)).toEqual(['AU-01', 'property:openapi-inputs']);
  });
});

describe('selftest command', () => {
  test('--table prints the generated table; bad options are usage errors', async () => {
    const lines: string[] = [];
    expect(await selftestCommand({ table: true }, (l) => lines.push(l))).toEqual({ kind: 'done' });
    expect(lines.join('\n')).toBe(renderDefectTable().trimEnd());
    await expect(selftestCommand({ 'only-defects': ['no-such-defect'] }, () => undefined)).rejects.toThrow(/unknown defect "no-such-defect"/);
    const parse = (...args: string[]) =>
      buildParser(['selftest', ...args], {
        quit: () => {
          throw new Error('quit');
        },
      }).run();
    await expect(parse('--concurrency', '0')).rejects.toThrow(/--concurrency must be an integer ≥ 1/);
    await expect(parse('--repeat-clean', '-1')).rejects.toThrow(/--repeat-clean/);
    await expect(parse('--only-defects', ' , ')).rejects.toThrow(/comma list/);
  });

  test('runs focused by default and the whole suite per defect with --whole', { timeout: 180_000 }, async () => {
    const base = await mkdtemp(path.join(tmpdir(), 'selftest-cli-'));
    dirs.push(base);
    const summary = async (whole: boolean) => {
      const lines: string[] = [];
      await selftestCommand({ 'only-defects': ['rates-missing'], 'repeat-clean': 0, json: true, 'report-dir': base, whole }, (l) => lines.push(l));
      const s = JSON.parse(lines.join('')) as { mode: string; report_dir: string; verdict: string };
      const report = JSON.parse(await readFile(path.join(s.report_dir, 'selftest.json'), 'utf8')) as { defects: Array<{ focus?: string[]; cases: number }> };
      return { mode: s.mode, verdict: s.verdict, focus: report.defects[0]?.focus, cases: report.defects[0]?.cases ?? 0 };
    };
    expect(await summary(false)).toEqual({ mode: 'focused', verdict: 'PASS', focus: ['AU-01', 'WL-05'], cases: 2 });
    const whole = await summary(true);
    expect(whole).toMatchObject({ mode: 'whole', verdict: 'PASS', focus: undefined });
    expect(whole.cases).toBeGreaterThan(40);
  });
});
