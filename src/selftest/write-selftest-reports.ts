import path from 'node:path';
import { HarnessError } from '../errors/harness-error.js';
import { writeRunFolder } from '../report/write-reports.js';
import { renderSelftestHtml } from './render-selftest-html.js';
import { renderSelftestMarkdown } from './render-selftest-markdown.js';
import type { SelftestResult } from '../results/selftest-result.js';

/** The self-test's report files and their renderers. */
export const SELFTEST_FILES = {
  'selftest.json': (r: SelftestResult) => `${JSON.stringify(r, null, 2)}\n`,
  'selftest.md': renderSelftestMarkdown,
  'selftest.html': renderSelftestHtml,
} as const;

/** Writes `<baseDir>/<run id>/selftest.{json,md,html}` atomically, then points `<baseDir>/latest` (and latest.json) at that folder. */
export async function writeSelftestReports(result: SelftestResult, baseDir = 'reports'): Promise<{ dir: string; files: string[] }> {
  try {
    return await writeRunFolder(result, SELFTEST_FILES, baseDir);
  } catch (err) {
    if (err instanceof HarnessError) throw err;
    const e = err as NodeJS.ErrnoException;
    throw new HarnessError(
      'E_REPORT_WRITE',
      `cannot write self-test reports to ${path.join(baseDir, result.runId)}: ${e.code ?? ''} ${e.message}`.replace(/\s+/g, ' '),
      { cause: err },
    );
  }
}
