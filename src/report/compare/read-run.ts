import { stat } from 'node:fs/promises';
import path from 'node:path';
import { HarnessError } from '../../errors/harness-error.js';
import { parseBoundedJson } from '../../files/parse-bounded-json.js';
import { readRegularFile } from '../../files/read-regular-file.js';
import type { RunResult } from '../../results/run-result.js';
import { validateRunReport } from '../schema/validate-report.js';

/** A run read back from its files, with where it came from. */
export interface ReadRun {
  /** The file read (`…/report.json` or `…/selftest.json`). */
  file: string;
  result: RunResult;
}

/** The file of each kind of run folder, in the order they are looked for. */
const RUN_FILES = ['report.json', 'selftest.json'] as const;

/** Largest run report read: a suite's report.json with its exchanges is a few MB, an hour's load a few more. */
const MAX_RUN_REPORT_BYTES = 64 * 1024 * 1024;
/** Most JSON values a run report may hold: 64 MiB of `[0,0,…]` would be 32 million, and gigabytes once parsed. */
const MAX_RUN_REPORT_VALUES = 4_000_000;

/** Whether a path is a folder; undefined when nothing is there. */
async function isDirectory(p: string): Promise<boolean | undefined> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return undefined;
  }
}

/** The result file inside a run folder, or undefined when it holds none. */
export async function runFileIn(dir: string): Promise<string | undefined> {
  for (const name of RUN_FILES) {
    const file = path.join(dir, name);
    if ((await isDirectory(file)) === false) return file;
  }
  return undefined;
}

/** Options of {@link readRun}. */
interface ReadRunOptions {
  /** Whether a load's histograms are decoded and checked (see `validateRunReport`). @defaultValue true */
  histograms?: boolean;
}

/**
 * Reads a run: a `report.json` or `selftest.json`, or a run folder holding
 * one (`reports/latest` too). Only a regular file of at most 64 MiB is read
 * (a FIFO or a device is refused, never waited on), its JSON is bounded
 * before it is parsed, and it is validated against the report schema of the
 * version it declares. Every refusal is E_FILE_UNREADABLE in one line naming
 * the path and, for a report that breaks its schema, the field.
 */
export async function readRun(input: string, options: ReadRunOptions = {}): Promise<ReadRun> {
  const dir = await isDirectory(input);
  if (dir === undefined) throw new HarnessError('E_FILE_UNREADABLE', `cannot read run ${input}: no such file or folder`);
  const file = dir ? await runFileIn(input) : input;
  if (file === undefined)
    throw new HarnessError('E_FILE_UNREADABLE', `${input} is a folder without report.json or selftest.json: not a run folder of the harness`);
  const bytes = await readRegularFile(file, { maxBytes: MAX_RUN_REPORT_BYTES, what: 'run' });
  const doc = parseBoundedJson(bytes, file, { maxValues: MAX_RUN_REPORT_VALUES, maxDepth: 64, what: 'run' });
  return { file, result: validateRunReport(doc, file, options) };
}
