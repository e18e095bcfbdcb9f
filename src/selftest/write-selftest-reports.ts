import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { HarnessError } from '../errors/harness-error.js';
import { pointLatest, writeAtomic, type LatestPointer } from '../report/write-reports.js';
import { renderSelftestHtml } from './render-selftest-html.js';
import { renderSelftestMarkdown } from './render-selftest-markdown.js';
import type { SelftestResult } from './selftest-model.js';

/** The self-test's report files and their renderers. */
export const SELFTEST_FILES = {
  'selftest.json': (r: SelftestResult) => `${JSON.stringify(r, null, 2)}\n`,
  'selftest.md': renderSelftestMarkdown,
  'selftest.html': renderSelftestHtml,
} as const;

/** Writes `<baseDir>/<run id>/selftest.{json,md,html}` atomically, then points `<baseDir>/latest` (and latest.json) at that folder. */
export async function writeSelftestReports(result: SelftestResult, baseDir = 'reports'): Promise<{ dir: string; files: string[] }> {
  const dir = path.join(baseDir, result.runId);
  const files: string[] = [];
  try {
    await mkdir(dir, { recursive: true });
    for (const [name, render] of Object.entries(SELFTEST_FILES)) {
      const file = path.join(dir, name);
      await writeAtomic(file, render(result));
      files.push(file);
    }
    await pointLatest(baseDir, result.runId);
    const pointer: LatestPointer = { runId: result.runId, dir: result.runId, verdict: result.verdict, finishedAt: result.finishedAt, files: Object.keys(SELFTEST_FILES) };
    await writeAtomic(path.join(baseDir, 'latest.json'), `${JSON.stringify(pointer, null, 2)}\n`);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new HarnessError('E_REPORT_WRITE', `cannot write self-test reports to ${dir}: ${e.code ?? ''} ${e.message}`.replace(/\s+/g, ' '), { cause: err });
  }
  return { dir, files };
}
