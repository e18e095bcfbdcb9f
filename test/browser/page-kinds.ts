import { generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeCertificationRun } from '../../src/certify/write-certification-run.js';
import type { Verdict } from '../../src/report/model.js';
import { newRunId } from '../../src/report/run-id.js';
import type { CaseRunResult } from '../../src/report/run-result.js';
import type { SelftestResult } from '../../src/report/selftest-result.js';
import { caseAnchor } from '../../src/report/html/anchors.js';
import { certifyMock } from '../certify/_helpers.js';
import { runCli } from '../helpers/run-cli.js';

/** One case as the page's filters must treat it, taken from the result data, never from the page. */
export interface PageCase {
  id: string;
  /** The id of its row in the table of every case. */
  anchor: string;
  verdict: Verdict;
  /** Whether the row carries an evidence block. */
  evidence: boolean;
}

/** A page generated from a real run, and what the browser must find on it. */
export interface PageUnderTest {
  file: string;
  /** The word the verdict banner shows (PASS, FAIL, GRANTED…). */
  verdict: string;
  /** On a failing run: the first failure card, which must be on the first screen. */
  firstFailure?: string;
  /** The cases behind the page's filter buttons, when the page has them. */
  cases?: readonly PageCase[];
  /** How many charts the page draws at least. */
  charts: number;
}

/** A kind of page: how to produce one from a real run into `dir` (an empty folder of its own). */
export interface PageKind {
  kind: string;
  make(dir: string): Promise<PageUnderTest>;
}

/** Runs the CLI from the sources and insists on the exit code the run must end with. */
async function cli(args: string[], exit: number): Promise<string> {
  const run = await runCli(args, { CI: '1' });
  if (run.code !== exit) throw new Error(`svc-harness ${args.join(' ')} exited ${run.code}, not ${exit}: ${run.stderr.slice(-2000)}`);
  return run.stdout;
}

/** What a run's report.html must show, read from the report.json written beside it. */
export async function runReportPage(runDir: string): Promise<PageUnderTest> {
  const result = JSON.parse(await readFile(path.join(runDir, 'report.json'), 'utf8')) as CaseRunResult;
  const failing = result.cases.some((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR');
  const charts = (result.timelines.rateLimit.length > 0 ? 1 : 0) + (result.timelines.webhooks.length > 0 ? 1 : 0) + (result.kind === 'load' ? 2 : 0);
  return {
    file: path.join(runDir, 'report.html'),
    verdict: result.verdict,
    ...(failing ? { firstFailure: 'article.failure' } : {}),
    cases: result.cases.map((c) => ({ id: c.id, anchor: caseAnchor(c.id), verdict: c.verdict, evidence: c.evidence.length > 0 || (c.details !== undefined && Object.keys(c.details).length > 0) })),
    charts,
  };
}

/** The run folder a `--json` summary names. */
function reportDirOf(stdout: string): string {
  return (JSON.parse(stdout.trim().split('\n').pop()!) as { report_dir: string }).report_dir;
}

let certification: Promise<string> | undefined;

/** One real certification against an embedded mock whose clock the test moves (its Retry-After wait is instant), written like `certify` writes it; made once, into the folder of whichever of its two pages asks first. */
function certificationRun(dir: string): Promise<string> {
  certification ??= (async () => {
    const run = await certifyMock();
    try {
      const { privateKey } = generateKeyPairSync('ed25519');
      const meta = { runId: newRunId(), command: 'svc-harness certify', targetName: run.profile.name, baseUrl: run.profile.base_url, embedded: true };
      const written = await writeCertificationRun(dir, run.draft, meta, { secrets: run.secrets, signKey: privateKey });
      return written.reports.dir;
    } finally {
      await run.close();
    }
  })();
  return certification;
}

/**
 * Every kind of page the harness writes, one entry each: a new page kind
 * (a `report compare` page, a `report trend` page) joins with one entry.
 */
export const PAGE_KINDS: PageKind[] = [
  {
    kind: 'run-pass',
    make: async (dir) => runReportPage(reportDirOf(await cli(['run', '--report-dir', dir, '--json'], 0))),
  },
  {
    kind: 'run-fail',
    make: async (dir) => runReportPage(reportDirOf(await cli(['run', '--mock-defects', 'fixed-window,replay-differs', '--report-dir', dir, '--json'], 1))),
  },
  {
    kind: 'load-gate-fail',
    make: async (dir) => runReportPage(reportDirOf(await cli(['load', '--agencies', '2', '--duration', '2', '--threshold', 'rps>=100000000', '--threshold', 'search.p99<2s', '--report-dir', dir, '--json'], 99))),
  },
  {
    kind: 'selftest-subset',
    make: async (dir) => {
      const runDir = reportDirOf(await cli(['selftest', '--only-defects', 'fixed-window', '--repeat-clean', '1', '--report-dir', dir, '--json'], 0));
      const result = JSON.parse(await readFile(path.join(runDir, 'selftest.json'), 'utf8')) as SelftestResult;
      return { file: path.join(runDir, 'selftest.html'), verdict: result.verdict, charts: 0 };
    },
  },
  {
    kind: 'certificate',
    make: async (dir) => {
      const runDir = await certificationRun(dir);
      const cert = JSON.parse(await readFile(path.join(runDir, 'certificate', 'certificate.json'), 'utf8')) as { granted: boolean };
      return { file: path.join(runDir, 'certificate', 'certificate.html'), verdict: cert.granted ? 'GRANTED' : 'REFUSED', charts: 0 };
    },
  },
  {
    kind: 'certification-report',
    make: async (dir) => runReportPage(await certificationRun(dir)),
  },
];
