import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { HarnessError } from '../../errors/harness-error.js';
import { assertPlainTree, describeSchemaError } from '../../files/json-fields.js';
import type { LoadResult, OperationFigures } from '../../results/load-result.js';
import { decodeCheckedHistogram } from './checked-histogram.js';
import { LOAD_RESULT_SCHEMA } from './load-result-schema.js';

/** Keys that would reach an object's prototype when copied into a plain object. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** Deepest nesting accepted; a load result is about six levels deep. */
const MAX_DEPTH = 32;

let compiled: ValidateFunction | undefined;
function validator(): ValidateFunction {
  compiled ??= new Ajv2020({ strict: false, allErrors: false }).compile(LOAD_RESULT_SCHEMA);
  return compiled;
}

function checkOperation(name: string, op: OperationFigures): void {
  const at = `operations.${name}`;
  const outcomes = op.ok + op.rateLimited + op.errors + (op.expected ?? 0);
  if (outcomes !== op.count)
    throw new HarnessError('E_FILE_UNREADABLE', `${at}: ok, rateLimited, errors and expected add up to ${outcomes}, not its count ${op.count}`);
  const statuses = Object.values(op.statuses).reduce((n, v) => n + v, 0);
  if (statuses !== op.count) throw new HarnessError('E_FILE_UNREADABLE', `${at}.statuses add up to ${statuses}, not its count ${op.count}`);
  const histograms: Array<[string, string, number]> = [[`${at}.histogram`, op.histogram, op.latency.count]];
  for (const [o, l] of Object.entries(op.latencyByOutcome ?? {})) histograms.push([`${at}.latencyByOutcome.${o}.histogram`, l.histogram, l.latency.count]);
  for (const [place, encoded, expected] of histograms) {
    const n = histogram(place, encoded).count;
    if (n !== expected) throw new HarnessError('E_FILE_UNREADABLE', `${place} holds ${n} values, but its latency says ${expected}`);
    if (n > op.count) throw new HarnessError('E_FILE_UNREADABLE', `${place} holds ${n} values, more than the ${op.count} responses of ${at}`);
  }
}

function histogram(place: string, encoded: string) {
  try {
    return decodeCheckedHistogram(encoded);
  } catch (err) {
    throw new HarnessError('E_FILE_UNREADABLE', `${place}: ${(err as Error).message}`);
  }
}

/**
 * Validates a load result read from a file before anything uses it: no key
 * that reaches a prototype, the schema's types and bounds, counts that add
 * up, histograms of this harness's own range whose value counts match their
 * figures. Throws an E_FILE_UNREADABLE naming `file` and the first problem.
 */
export function validateLoadResult(doc: unknown, file: string): LoadResult {
  const fail = (why: string): HarnessError => new HarnessError('E_FILE_UNREADABLE', `${file} is not a valid load result: ${why}`);
  try {
    assertPlainTree(doc, FORBIDDEN_KEYS, MAX_DEPTH);
  } catch (err) {
    throw fail((err as Error).message);
  }
  const validate = validator();
  if (!validate(doc)) throw fail(describeSchemaError(validate.errors![0]!, '(the whole result)'));
  return checkLoadFigures(doc as LoadResult, fail);
}

/**
 * The checks of {@link validateLoadResult} beyond its schema, for a load
 * result that a schema embedding the load result's has already passed (a
 * run report's `load`): the same keys refused, the same counts and
 * histograms checked, with the same messages; the schema is not compiled and
 * run a second time (compiling it alone took 0.2 to 0.3 s of a comparison of
 * two loads of 3 000 operations, running it on both 0.1 s).
 */
export function checkSchemaValidLoadResult(load: LoadResult, file: string): LoadResult {
  const fail = (why: string): HarnessError => new HarnessError('E_FILE_UNREADABLE', `${file} is not a valid load result: ${why}`);
  try {
    assertPlainTree(load, FORBIDDEN_KEYS, MAX_DEPTH);
  } catch (err) {
    throw fail((err as Error).message);
  }
  return checkLoadFigures(load, fail);
}

function checkLoadFigures(load: LoadResult, fail: (why: string) => HarnessError): LoadResult {
  try {
    if (load.finishedAt < load.startedAt)
      throw new HarnessError('E_FILE_UNREADABLE', `finishedAt (${load.finishedAt}) is before startedAt (${load.startedAt})`);
    for (const s of load.shards) if (s.index > s.count) throw new HarnessError('E_FILE_UNREADABLE', `shard ${s.index}/${s.count} is beyond its count`);
    for (const [name, op] of Object.entries(load.operations)) checkOperation(name, op);
    load.series.forEach((s, i) => {
      const n = histogram(`series[${i}].histogram`, s.histogram).count;
      if (n > s.requests) throw new HarnessError('E_FILE_UNREADABLE', `series[${i}].histogram holds ${n} values, more than its ${s.requests} requests`);
    });
  } catch (err) {
    throw fail((err as Error).message);
  }
  return load;
}
