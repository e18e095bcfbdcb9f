import { readFile } from 'node:fs/promises';
import { HarnessError } from '../errors/harness-error.js';
import { assertGateMetrics } from './gate-metrics.js';
import { parseThresholds, type Threshold } from './gates.js';
import type { LoadResult } from '../report/load-result.js';

/** Thresholds from gate expressions and a file of them (one per line, `#` comments); a metric that does not exist is a usage error, before any load. */
export async function readThresholds(expressions: readonly string[] | undefined, file: string | undefined): Promise<Threshold[]> {
  const lines = [...(expressions ?? [])];
  if (file) {
    try {
      lines.push(...(await readFile(file, 'utf8')).split('\n'));
    } catch (err) {
      throw new HarnessError('E_FILE_UNREADABLE', `cannot read thresholds file ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, { cause: err });
    }
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

/** Reads a report.json of `svc-harness load` (or a bare load result) with the run id that identifies it. */
export async function readLoadPart(file: string): Promise<LoadPart> {
  let doc: unknown;
  try {
    doc = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new HarnessError('E_FILE_UNREADABLE', `cannot read load report ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { cause: err });
  }
  const load = (doc as { load?: unknown })?.load ?? doc;
  if (typeof load !== 'object' || load === null || (load as { schema?: unknown }).schema !== 'svc-harness/load@1') {
    throw new HarnessError('E_FILE_UNREADABLE', `${file} holds no load result (expected a report.json of \`svc-harness load\`)`);
  }
  const runId = (doc as { runId?: unknown }).runId;
  return { file, runId: typeof runId === 'string' ? runId : undefined, load: load as LoadResult };
}
