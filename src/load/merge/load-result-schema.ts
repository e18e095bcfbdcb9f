import { MAX_TIMELINE_BINS } from '../judge/window-timeline.js';

/*
 * The JSON Schema a load result read from a file must meet before anything
 * touches it (`report merge` shards, a `--baseline` report). Every count and
 * list is bounded, so that a crafted file is refused by name instead of
 * filling memory: a shard set of a billion parts, a count of 1e308, a series
 * of millions of seconds.
 */

/** Largest count of anything (requests, statuses, histogram values) a load result may hold. */
export const MAX_COUNT = 1e12;
/** Most shards a load may be cut into. */
const MAX_SHARDS = 1024;
/** Longest encoded histogram accepted, in characters (a full one of this harness is about 300 KB). */
const MAX_HISTOGRAM_CHARS = 1024 * 1024;

const count = { type: 'integer', minimum: 0, maximum: MAX_COUNT } as const;
const ms = { type: 'number', minimum: 0, maximum: 1e10 } as const;
const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;
const histogram = text(MAX_HISTOGRAM_CHARS);
/** Epoch milliseconds, 1970 to year 275760 (what a Date holds). */
const instant = { type: 'number', minimum: 0, maximum: 8.64e15 } as const;

const latencySummary = {
  type: 'object',
  required: ['count', 'min', 'mean', 'p50', 'p90', 'p95', 'p99', 'p99_9', 'max'],
  properties: { count, min: ms, mean: ms, p50: ms, p90: ms, p95: ms, p99: ms, p99_9: ms, max: ms },
} as const;

const outcomeLatency = { type: 'object', required: ['latency', 'histogram'], properties: { latency: latencySummary, histogram } } as const;

/** Counts by `<status> <error.code>` (or `none`, no answer). */
const breakdown = {
  type: 'object',
  maxProperties: 1000,
  propertyNames: { pattern: '^([0-9]{1,3}( [A-Za-z0-9_.-]{1,64})?|none)$' },
  additionalProperties: count,
} as const;

const operationFigures = {
  type: 'object',
  required: ['count', 'ok', 'rateLimited', 'errors', 'statuses', 'latency', 'histogram'],
  properties: {
    count,
    ok: count,
    rateLimited: count,
    errors: count,
    expected: count,
    statuses: { type: 'object', maxProperties: 1000, propertyNames: { pattern: '^([0-9]{1,3}|none)$' }, additionalProperties: count },
    errorsBy: breakdown,
    expectedBy: breakdown,
    latency: latencySummary,
    histogram,
    latencyByOutcome: {
      type: 'object',
      required: ['2xx', '429', 'other'],
      properties: { '2xx': outcomeLatency, '429': outcomeLatency, other: outcomeLatency },
    },
  },
} as const;

/** A window verdict's admissions per second around the window (`details.timeline`, see `load/judge/window-timeline.ts`): bounded bins. */
export const WINDOW_TIMELINE_SCHEMA = {
  type: 'object',
  required: ['from', 'binMs', 'admitted', 'counted'],
  properties: {
    from: instant,
    binMs: { type: 'integer', minimum: 1, maximum: 1e9 },
    admitted: { type: 'array', maxItems: MAX_TIMELINE_BINS, items: count },
    counted: { type: 'array', maxItems: MAX_TIMELINE_BINS, items: count },
  },
} as const;

/** The schema of a `svc-harness/load@1` result, with the bounds above. */
export const LOAD_RESULT_SCHEMA = {
  type: 'object',
  required: [
    'schema',
    'modes',
    'shards',
    'agencies',
    'scenarios',
    'connections',
    'startedAt',
    'finishedAt',
    'durationS',
    'interrupted',
    'totals',
    'operations',
    'series',
    'verdicts',
  ],
  properties: {
    schema: { const: 'svc-harness/load@1' },
    modes: { type: 'array', maxItems: 16, items: { enum: ['scenarios', 'search', 'push-limits'] } },
    shards: {
      type: 'array',
      maxItems: MAX_SHARDS,
      items: {
        type: 'object',
        required: ['index', 'count'],
        properties: { index: { type: 'integer', minimum: 1, maximum: MAX_SHARDS }, count: { type: 'integer', minimum: 1, maximum: MAX_SHARDS } },
      },
    },
    agencies: { type: 'array', maxItems: 10_000, items: text(200) },
    scenarios: { type: 'array', maxItems: 10_000, items: text(200) },
    connections: { type: 'integer', minimum: 0, maximum: 1_000_000 },
    startedAt: instant,
    finishedAt: instant,
    durationS: { type: 'number', minimum: 0, maximum: 1e7 },
    interrupted: { type: 'boolean' },
    totals: {
      type: 'object',
      required: ['requests', 'ok', 'rateLimited', 'errors'],
      properties: { requests: count, ok: count, rateLimited: count, errors: count, expected: count },
    },
    rps: { type: 'number', minimum: 0, maximum: MAX_COUNT },
    errorRate: { type: 'number', minimum: 0, maximum: 1 },
    rateLimitedRate: { type: 'number', minimum: 0, maximum: 1 },
    operations: {
      type: 'object',
      required: ['all'],
      // A load that names each path it sends as an operation of its own may have thousands; `report compare` reads 3 000 in seconds.
      maxProperties: 4096,
      propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9._-]{0,63}$' },
      additionalProperties: operationFigures,
    },
    spectrum: {
      type: 'array',
      maxItems: 1000,
      items: { type: 'object', required: ['percentile', 'ms'], properties: { percentile: { type: 'number', minimum: 0, maximum: 100 }, ms } },
    },
    series: {
      type: 'array',
      // A week of seconds.
      maxItems: 604_800,
      items: {
        type: 'object',
        required: ['second', 'requests', 'ok', 'rateLimited', 'errors', 'histogram'],
        properties: {
          second: { type: 'integer', minimum: 0, maximum: 8.64e12 },
          requests: count,
          ok: count,
          rateLimited: count,
          errors: count,
          histogram,
          p50: ms,
          p99: ms,
          max: ms,
        },
      },
    },
    verdicts: {
      type: 'array',
      maxItems: 100_000,
      items: {
        type: 'object',
        required: ['id', 'kind', 'agency', 'verdict', 'message'],
        properties: {
          id: text(300),
          kind: text(100),
          agency: text(200),
          bucket: text(100),
          verdict: { enum: ['PASS', 'FAIL', 'WARN', 'SKIP', 'ERROR'] },
          message: text(10_000),
          details: { type: 'object', properties: { timeline: WINDOW_TIMELINE_SCHEMA } },
        },
      },
    },
    gates: { type: 'array', maxItems: 10_000, items: { type: 'object' } },
    notes: { type: 'array', maxItems: 10_000, items: text(10_000) },
    targetError: { type: 'object', required: ['code', 'message'], properties: { code: text(100), message: text(10_000) } },
  },
} as const;
