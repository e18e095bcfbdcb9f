import { HarnessError } from '../../errors/harness-error.js';
import { parseBoundedJson } from '../../files/parse-bounded-json.js';
import { readRegularFile } from '../../files/read-regular-file.js';
import { assertGateMetrics } from '../gate/gate-metrics.js';
import { parseThresholds, type Threshold } from '../gate/gates.js';
import type { LoadResult } from '../../results/load-result.js';
import { validateLoadResult } from './validate-load-part.js';

/** Largest thresholds file read. */
const MAX_THRESHOLDS_BYTES = 1024 * 1024;
/** Largest load report read (a shard to merge, a baseline): an hour's load writes a few MB. */
const MAX_LOAD_REPORT_BYTES = 32 * 1024 * 1024;
/** Most JSON values a load report may hold: an hour's load holds about 100 000; 32 MiB of `[0,0,…]` would be 16 million, and 500 MB once parsed. */
const MAX_LOAD_REPORT_VALUES = 1_000_000;

/** Thresholds from gate expressions and a file of them (one per line, `#` comments); a metric that does not exist is a usage error, before any load. */
export async function readThresholds(expressions: readonly string[] | undefined, file: string | undefined): Promise<Threshold[]> {
  const lines = [...(expressions ?? [])];
  if (file) {
    lines.push(...(await readRegularFile(file, { maxBytes: MAX_THRESHOLDS_BYTES, what: 'thresholds file' })).toString('utf8').split('\n'));
  }
  const thresholds = parseThresholds(lines);
  assertGateMetrics(thresholds);
  return thresholds;
}

/** The load result inside a report.json (or a bare load result). */
export async function readLoadReport(file: string): Promise<LoadResult> {
  return (await readLoadPart(file)).load;
}

/** A load result to merge, with where it came from: the file, and the run id of its report.json (absent for a bare load result). */
export interface LoadPart {
  file: string;
  runId: string | undefined;
  load: LoadResult;
}

/**
 * Reads a report.json of `svc-harness load` (or a bare load result) with the
 * run id that identifies it. Only a regular file of at most
 * {@link MAX_LOAD_REPORT_BYTES} is read, and its load result is validated
 * (schema, bounds, histograms) before anything touches it.
 */
export async function readLoadPart(file: string): Promise<LoadPart> {
  const bytes = await readRegularFile(file, { maxBytes: MAX_LOAD_REPORT_BYTES, what: 'load report' });
  const doc = parseBoundedJson(bytes, file, { maxValues: MAX_LOAD_REPORT_VALUES, maxDepth: 64, what: 'load report' });
  const hasLoad = typeof doc === 'object' && doc !== null && !Array.isArray(doc) && Object.hasOwn(doc, 'load');
  const load = hasLoad ? (doc as { load: unknown }).load : doc;
  if (typeof load !== 'object' || load === null || (load as { schema?: unknown }).schema !== 'svc-harness/load@1') {
    throw new HarnessError('E_FILE_UNREADABLE', `${file} holds no load result (expected a report.json of \`svc-harness load\`)`);
  }
  const runId = hasLoad ? (doc as { runId?: unknown }).runId : undefined;
  return { file, runId: typeof runId === 'string' && runId.length <= 200 ? runId : undefined, load: validateLoadResult(load, file) };
}
