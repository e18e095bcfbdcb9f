import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { certificationRunResult } from '../../src/certify/write-certification-run.js';
import { LOAD_RESULT_SCHEMA } from '../../src/load/merge/load-result-schema.js';
import { mergeLoadResults } from '../../src/load/merge/merge-load-results.js';
import { toRunResult } from '../../src/load/load-run-result.js';
import { renderJson } from '../../src/report/render-json.js';
import { RUN_REPORT_SCHEMA, SELFTEST_REPORT_SCHEMA } from '../../src/report/schema/report-schemas.js';
import { validateRunReport } from '../../src/report/schema/validate-report.js';
import type { SelftestResult } from '../../src/results/selftest-result.js';
import { GRANTED_DRAFT, shardReport } from '../hostile/_files.js';
import { sampleLoadResult } from '../load/_load-result.js';
import { sampleRun } from './fixtures/sample-run.js';

/** The JSON Schemas the package ships (package.json `files`), each equal to the one the harness validates with. */
const SHIPPED = {
  'run-report.schema.json': RUN_REPORT_SCHEMA,
  'selftest-report.schema.json': SELFTEST_REPORT_SCHEMA,
  'load-result.schema.json': {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://svc-harness.dev/schemas/load@1.json',
    ...LOAD_RESULT_SCHEMA,
  },
};

const root = path.join(import.meta.dirname, '..', '..');
const meta = { command: 'svc-harness load', profile: { name: 'mock', base_url: 'http://127.0.0.1:1' }, embedded: true, durationMs: 10_000 };

const selftest: SelftestResult = {
  schema: 'svc-harness/selftest@1',
  kind: 'selftest',
  runId: '20260101-000000-ab12',
  command: 'svc-harness selftest',
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:01:00.000Z',
  durationMs: 60_000,
  concurrency: 2,
  mode: 'focused',
  wholeCatalogue: false,
  defects: [
    {
      defect: 'rates-missing',
      description: 'd',
      promise: 'p',
      expected: ['WL-05'],
      caughtBy: ['WL-05'],
      unproven: [],
      collateral: [],
      caught: true,
      cases: 60,
      durationMs: 900,
      seed: 5,
    },
  ],
  clean: [
    {
      index: 0,
      falseAlarms: [{ id: 'RL-03', kind: 'check', verdict: 'FAIL', message: 'm', evidence: ['x-1'], missingEvidence: [] }],
      cases: 60,
      durationMs: 1,
      seed: 9,
    },
  ],
  coverage: [{ check: 'WL-05', catches: ['rates-missing'], only: ['rates-missing'] }],
  score: { caught: 1, total: 1 },
  falseAlarmRuns: 1,
  unexplainedChecks: [],
  verdict: 'FAIL',
} as SelftestResult;

/** Every kind of report the harness writes, as its writer renders it. */
const KINDS: Array<[string, () => unknown]> = [
  ['a suite run (run)', () => sampleRun()],
  ['a load run (load)', () => toRunResult(sampleLoadResult(40), { ...meta, startedIso: '2026-01-01T00:00:00.000Z' })],
  [
    'a merged load (report merge)',
    () =>
      toRunResult(mergeLoadResults([shardReport(1).load, shardReport(2).load]), { ...meta, command: 'report merge', startedIso: '2026-01-01T00:00:00.000Z' }),
  ],
  [
    'a certification (certify-client)',
    () =>
      certificationRunResult(GRANTED_DRAFT, {
        runId: '20260101-000000-cd34',
        command: 'certify-client',
        targetName: 't',
        baseUrl: 'http://x',
        embedded: false,
      }),
  ],
  ['a self-test (selftest.json)', () => selftest],
];

describe('the report schema', () => {
  it.each(KINDS)('validates %s as written', (_, make) => {
    const result = make() as Parameters<typeof renderJson>[0];
    const doc = JSON.parse((result as { kind: string }).kind === 'selftest' ? JSON.stringify(result) : renderJson(result)) as unknown;
    expect(() => validateRunReport(doc, 'report.json')).not.toThrow();
  });

  it('ships as JSON in schemas/, equal to what the harness validates with', () => {
    for (const [name, schema] of Object.entries(SHIPPED)) {
      const file = path.join(root, 'schemas', name);
      const text = `${JSON.stringify(schema, null, 2)}\n`;
      if (process.env.UPDATE_SCHEMAS === '1') writeFileSync(file, text);
      expect(readFileSync(file, 'utf8'), `${name} is stale: run UPDATE_SCHEMAS=1 npx vitest run test/report/report-schemas.test.ts`).toBe(text);
    }
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('schemas');
  });

  it('refuses a report of another version by its declared version, and a file that is no report without quoting it', () => {
    expect(() => validateRunReport({ ...sampleRun(), schema: 'svc-harness/run@2' }, 'r.json')).toThrow(/its schema is svc-harness\/run@2/);
    expect(() => validateRunReport({ schema: 'root:x:0:0:root:/root:/bin/bash' }, 'r.json')).toThrow(/^((?!root:x).)*$/);
  });
});
