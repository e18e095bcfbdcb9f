import { LOAD_RESULT_SCHEMA, WINDOW_TIMELINE_SCHEMA } from '../../load/merge/load-result-schema.js';

/*
 * The JSON Schemas of the reports the harness writes, one per report kind:
 * a run's `report.json` (`svc-harness/run@1`: suite, load, merged load,
 * certificate) and a self-test's `selftest.json` (`svc-harness/selftest@1`).
 * The `schema` field of each report is its version; a report of another
 * version is refused by name. The load result inside a load run is the one
 * `report merge` validates shards against. Every list and text is bounded, so
 * that a crafted report is refused by the field it breaks instead of filling
 * memory. They ship as JSON in `schemas/` (test/report/report-schemas.test.ts
 * holds those files equal to these).
 */

const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;
const count = { type: 'integer', minimum: 0, maximum: 1e12 } as const;
const ms = { type: 'number', minimum: 0, maximum: 1e13 } as const;
/** An ISO-8601 instant as the harness writes it (`2026-11-21T19:45:01.000Z`). */
const isoInstant = { type: 'string', maxLength: 40, pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}' } as const;
const texts = (maxItems: number, maxLength: number) => ({ type: 'array', maxItems, items: text(maxLength) }) as const;

const VERDICTS = ['PASS', 'FAIL', 'WARN', 'SKIP', 'ERROR', 'KNOWN'] as const;
const RUN_VERDICTS = ['PASS', 'FAIL', 'INCONCLUSIVE', 'INTERRUPTED'] as const;

const caseResult = {
  type: 'object',
  required: ['id', 'kind', 'title', 'area', 'verdict', 'message'],
  properties: {
    id: text(300),
    kind: { enum: ['check', 'scenario', 'property', 'gate'] },
    title: text(1000),
    area: text(100),
    clause: text(1000),
    verdict: { enum: VERDICTS },
    message: text(100_000),
    evidence: texts(10_000, 300),
    known: { type: 'object' },
    // A load's window verdict carries its timeline, as in the load result; a failed property the exchanges that decided it.
    details: { type: 'object', properties: { timeline: WINDOW_TIMELINE_SCHEMA, decisive: texts(1000, 300) } },
    startedAt: { type: 'number' },
    durationMs: { type: 'number' },
  },
} as const;

/** The schema of a run's `report.json`: `kind` is suite, load (a load or a merged load) or certificate; a load carries its load result. */
export const RUN_REPORT_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://svc-harness.dev/schemas/run@1.json',
  title: 'svc-harness run report (report.json)',
  type: 'object',
  required: [
    'schema',
    'kind',
    'runId',
    'command',
    'tool',
    'target',
    'startedAt',
    'finishedAt',
    'durationMs',
    'summary',
    'verdict',
    'cases',
    'exchanges',
    'timelines',
    'notes',
  ],
  properties: {
    schema: { const: 'svc-harness/run@1' },
    kind: { enum: ['suite', 'load', 'certificate'] },
    runId: text(200),
    command: text(10_000),
    tool: { type: 'object', required: ['name', 'version'], properties: { name: text(200), version: text(200), node: text(200) } },
    target: {
      type: 'object',
      required: ['name', 'baseUrl'],
      properties: { name: text(1000), baseUrl: text(10_000), hotelBaseUrl: { type: ['string', 'null'], maxLength: 10_000 }, embedded: { type: 'boolean' } },
    },
    seed: { type: 'number' },
    startedAt: isoInstant,
    finishedAt: isoInstant,
    durationMs: ms,
    summary: {
      type: 'object',
      required: ['PASS', 'FAIL', 'WARN', 'SKIP', 'ERROR', 'total'],
      properties: { PASS: count, FAIL: count, WARN: count, SKIP: count, ERROR: count, KNOWN: count, total: count },
    },
    verdict: { enum: RUN_VERDICTS },
    verdictReason: text(10_000),
    notes: texts(10_000, 100_000),
    cases: { type: 'array', maxItems: 100_000, items: caseResult },
    exchanges: { type: 'array', maxItems: 1_000_000, items: { type: 'object', required: ['id'], properties: { id: text(300) } } },
    timelines: {
      type: 'object',
      required: ['rateLimit', 'webhooks'],
      properties: {
        rateLimit: { type: 'array', maxItems: 1_000_000, items: { type: 'object' } },
        webhooks: { type: 'array', maxItems: 1_000_000, items: { type: 'object' } },
      },
    },
    load: LOAD_RESULT_SCHEMA,
  },
  if: { properties: { kind: { const: 'load' } } },
  then: { required: ['load'] },
} as const;

const failedCase = {
  type: 'object',
  required: ['id', 'message'],
  properties: {
    id: text(300),
    kind: text(100),
    verdict: { enum: VERDICTS },
    message: text(100_000),
    evidence: texts(10_000, 300),
    missingEvidence: texts(10_000, 300),
  },
} as const;

/** The schema of a self-test's `selftest.json`. */
export const SELFTEST_REPORT_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://svc-harness.dev/schemas/selftest@1.json',
  title: 'svc-harness self-test report (selftest.json)',
  type: 'object',
  required: ['schema', 'kind', 'runId', 'command', 'startedAt', 'finishedAt', 'durationMs', 'defects', 'clean', 'verdict'],
  properties: {
    schema: { const: 'svc-harness/selftest@1' },
    kind: { const: 'selftest' },
    runId: text(200),
    command: text(10_000),
    startedAt: isoInstant,
    finishedAt: isoInstant,
    durationMs: ms,
    concurrency: count,
    mode: { enum: ['focused', 'whole'] },
    wholeCatalogue: { type: 'boolean' },
    defects: {
      type: 'array',
      maxItems: 10_000,
      items: {
        type: 'object',
        required: ['defect', 'description', 'expected', 'caughtBy', 'caught'],
        properties: {
          defect: text(300),
          description: text(10_000),
          promise: text(10_000),
          expected: texts(1000, 300),
          caughtBy: texts(1000, 300),
          unproven: { type: 'array', maxItems: 10_000, items: failedCase },
          collateral: { type: 'array', maxItems: 10_000, items: failedCase },
          caught: { type: 'boolean' },
          focus: texts(1000, 300),
          cases: count,
          durationMs: ms,
          error: text(100_000),
        },
      },
    },
    clean: {
      type: 'array',
      maxItems: 10_000,
      items: {
        type: 'object',
        required: ['index', 'falseAlarms'],
        properties: { index: count, falseAlarms: { type: 'array', maxItems: 10_000, items: failedCase }, cases: count, durationMs: ms, error: text(100_000) },
      },
    },
    coverage: { type: 'array', maxItems: 10_000, items: { type: 'object' } },
    score: { type: 'object', properties: { caught: count, total: count } },
    falseAlarmRuns: count,
    unexplainedChecks: texts(10_000, 300),
    verdict: { enum: RUN_VERDICTS },
  },
} as const;

/** Each report schema by the version its reports declare in `schema`. */
export const REPORT_SCHEMAS = {
  'svc-harness/run@1': RUN_REPORT_SCHEMA,
  'svc-harness/selftest@1': SELFTEST_REPORT_SCHEMA,
} as const;
