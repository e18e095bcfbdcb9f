import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { HarnessError } from '../../errors/harness-error.js';
import type { RunResult } from '../../results/run-result.js';

/** A run read back from its files, with where it came from. */
export interface ReadRun {
  /** The file read (`…/report.json` or `…/selftest.json`). */
  file: string;
  result: RunResult;
}

/** The file of each kind of run folder, in the order they are looked for. */
const RUN_FILES = ['report.json', 'selftest.json'] as const;

const SCHEMAS = new Set(['svc-harness/run@1', 'svc-harness/selftest@1']);
const KINDS = new Set(['suite', 'load', 'certificate', 'selftest']);

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

/**
 * Reads a run: a `report.json` or `selftest.json`, or a run folder holding
 * one (`reports/latest` too). A missing path, a file that is not JSON, or JSON
 * that is no harness result is E_FILE_UNREADABLE, in one line naming the path.
 */
export async function readRun(input: string): Promise<ReadRun> {
  const dir = await isDirectory(input);
  if (dir === undefined) throw new HarnessError('E_FILE_UNREADABLE', `cannot read run ${input}: no such file or folder`);
  const file = dir ? await runFileIn(input) : input;
  if (file === undefined)
    throw new HarnessError('E_FILE_UNREADABLE', `${input} is a folder without report.json or selftest.json: not a run folder of the harness`);
  let doc: unknown;
  try {
    doc = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new HarnessError('E_FILE_UNREADABLE', `cannot read run ${file}: ${e.code ?? `not JSON (${e.message})`}`, { cause: err });
  }
  const d = doc as { schema?: unknown; kind?: unknown } | null;
  if (typeof d !== 'object' || d === null || !SCHEMAS.has(String(d.schema)) || !KINDS.has(String(d.kind))) {
    throw new HarnessError('E_FILE_UNREADABLE', `${file} is not a run report of the harness (expected the report.json or selftest.json a run wrote)`);
  }
  return { file, result: doc as RunResult };
}
