import { randomBytes } from 'node:crypto';
import { cp, lstat, mkdir, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HarnessError } from '../errors/harness-error.js';
import { knownSecretsRedactor } from '../profile/known-secrets.js';
import type { CaseRunResult } from '../results/run-result.js';
import { assertLatestReplaceable, assertPointerReplaceable, assertRunFolderFree, markLatestCopy } from './safe-write.js';
import { renderHtml } from './render-html.js';
import { renderJson } from './render-json.js';
import { renderJunit } from './render-junit.js';
import { renderMarkdown } from './render-markdown.js';
import { recordRunFiles, RUN_MANIFEST } from './run-manifest.js';

/** The report files of one run, by name, and the renderer of each. */
export const REPORT_FILES = {
  'report.json': renderJson,
  'junit.xml': renderJunit,
  'summary.md': renderMarkdown,
  'report.html': renderHtml,
} as const satisfies Record<string, (result: CaseRunResult) => string>;

/** Contents of `<baseDir>/latest.json`: which run is the latest; `dir` is relative to `baseDir`. */
interface LatestPointer {
  runId: string;
  dir: string;
  verdict: CaseRunResult['verdict'];
  finishedAt: string;
  files: string[];
}

/** Where the reports went: the run's folder and the full paths of its files. */
export interface WrittenReports {
  dir: string;
  files: string[];
}

function tmpName(target: string): string {
  return `${target}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** Writes a file so readers see the old content or the new, never half of it. */
async function writeAtomic(file: string, content: string): Promise<void> {
  const tmp = tmpName(file);
  try {
    await writeFile(tmp, content, 'utf8');
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** Replaces `target` (file, symlink or a folder the harness copied, already vetted) with the prepared `tmp`. */
async function replaceWith(tmp: string, target: string): Promise<void> {
  try {
    await rename(tmp, target);
  } catch (err) {
    // rename cannot put something over a directory (an earlier copy fallback); clear it first.
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'EPERM' && code !== 'ENOTDIR') throw err;
    await rm(target, { recursive: true, force: true });
    await rename(tmp, target);
  }
}

/** Points `<baseDir>/latest` at the run: a relative symlink, or a copy where symlinks are not allowed. */
async function pointLatest(baseDir: string, runId: string): Promise<void> {
  const latest = path.join(baseDir, 'latest');
  const tmp = tmpName(latest);
  try {
    await symlink(runId, tmp, 'dir');
    await replaceWith(tmp, latest);
    return;
  } catch {
    await rm(tmp, { recursive: true, force: true });
  }
  await cp(path.join(baseDir, runId), tmp, { recursive: true });
  await markLatestCopy(tmp, runId);
  await replaceWith(tmp, latest);
}

/**
 * Writes a run's files (`renderers`: name → renderer of `result`) into
 * `<baseDir>/<runId>/`, each atomically, lists them in the folder's manifest
 * ({@link RUN_MANIFEST}), then points `<baseDir>/latest` at
 * that folder and records the run in `<baseDir>/latest.json`. Never removes
 * or overwrites what the harness did not write: a foreign `latest`,
 * `latest.json` or run folder is a HarnessError (E_REPORT_WRITE), raised after
 * the reports are safe in the run folder where possible. Other file system
 * errors are thrown as they come; callers say what they were writing.
 */
export async function writeRunFolder<R extends Pick<CaseRunResult, 'runId' | 'verdict' | 'finishedAt'>>(
  result: R,
  renderers: Readonly<Record<string, (result: R) => string>>,
  baseDir: string,
): Promise<WrittenReports> {
  const { runId } = result;
  const dir = path.join(baseDir, runId);
  const files: string[] = [];
  await assertRunFolderFree(dir, [...Object.keys(renderers), RUN_MANIFEST]);
  await mkdir(dir, { recursive: true });
  for (const [name, render] of Object.entries(renderers)) {
    const file = path.join(dir, name);
    await writeAtomic(file, render(result));
    files.push(file);
  }
  // What the harness wrote, so that `report prune` removes these files and nothing put beside them.
  await recordRunFiles(dir, files);
  await assertLatestReplaceable(baseDir, dir);
  await assertPointerReplaceable(baseDir, dir);
  await pointLatest(baseDir, runId);
  const pointer: LatestPointer = { runId, dir: runId, verdict: result.verdict, finishedAt: result.finishedAt, files: Object.keys(renderers) };
  await writeAtomic(path.join(baseDir, 'latest.json'), `${JSON.stringify(pointer, null, 2)}\n`);
  return { dir, files };
}

/**
 * Writes the four reports of a run into `<baseDir>/<runId>/`, each
 * atomically, then points `<baseDir>/latest` at that folder and records the
 * run in `<baseDir>/latest.json`.
 *
 * @defaultValue baseDir `'reports'`
 */
export async function writeReports(result: CaseRunResult, baseDir = 'reports'): Promise<WrittenReports> {
  const runId = result.runId;
  if (typeof runId !== 'string' || runId === '' || runId === '.' || runId === '..' || runId === 'latest' || /[\\/\u0000]/.test(runId)) {
    throw new HarnessError('E_USAGE', `run id must be a plain folder name (no slashes, not "latest"), got ${JSON.stringify(runId)}`);
  }
  try {
    // Every secret this process knows, whichever command made the result (a load's answers are not redacted before).
    return await writeRunFolder(knownSecretsRedactor()(result), REPORT_FILES, baseDir);
  } catch (err) {
    if (err instanceof HarnessError) throw err;
    const e = err as NodeJS.ErrnoException;
    // Only a file system refusal is the user's to fix (exit 2); anything else is the harness's own failure.
    if (typeof e?.code !== 'string') throw err;
    throw new HarnessError('E_REPORT_WRITE', `cannot write reports to ${path.join(baseDir, runId)}: ${e.code ?? ''} ${e.message}`.replace(/\s+/g, ' '), {
      cause: err,
    });
  }
}

/** Where `<baseDir>/latest` points, or undefined when there is none (a copy counts as its own folder). */
export async function latestTarget(baseDir = 'reports'): Promise<string | undefined> {
  const latest = path.join(baseDir, 'latest');
  try {
    const st = await lstat(latest);
    return st.isSymbolicLink() ? await readlink(latest) : latest;
  } catch {
    return undefined;
  }
}
