import { generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeCertificationRun } from '../../src/certify/write-certification-run.js';
import type { Verdict } from '../../src/results/model.js';
import { newRunId } from '../../src/results/run-id.js';
import type { CaseRunResult } from '../../src/results/run-result.js';
import type { SelftestResult } from '../../src/results/selftest-result.js';
import { caseAnchor } from '../../src/report/html/anchors.js';
import { certifyMock } from '../certify/_helpers.js';
import { runCli } from '../helpers/run-cli.js';
import { loadAgainstSlowMock } from '../report/_helpers/latency-load.js';

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
  /** The word the verdict banner shows (PASS, FAIL, GRANTED…); absent on a page that judges nothing (the trend), whose banner must then carry no verdict. */
  verdict?: string;
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

/** Runs the CLI from the sources and insists on the exit code (or one of the codes) the run must end with. */
async function cli(args: string[], exit: number | readonly number[]): Promise<string> {
  const run = await runCli(args, { CI: '1' });
  const allowed = typeof exit === 'number' ? [exit] : exit;
  if (!allowed.includes(run.code ?? -1))
    throw new Error(`svc-harness ${args.join(' ')} exited ${run.code}, not ${allowed.join(' or ')}: ${run.stderr.slice(-2000)}`);
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
    cases: result.cases.map((c) => ({
      id: c.id,
      anchor: caseAnchor(c.id),
      verdict: c.verdict,
      evidence: c.evidence.length > 0 || (c.details !== undefined && Object.keys(c.details).length > 0),
    })),
    charts,
  };
}

/** The run folder a `--json` summary names. */
function reportDirOf(stdout: string): string {
  return (JSON.parse(stdout.trim().split('\n').pop()!) as { report_dir: string }).report_dir;
}

const shared = new Map<string, Promise<string>>();

/**
 * A run that more than one page is made of (a run report, and the compare
 * or trend page over it): made once, in a folder of its own inside the
 * folder of whichever page asks first, so the table's pages cost no run more.
 */
function sharedRun(name: string, dir: string, make: (dir: string) => Promise<string>): Promise<string> {
  let run = shared.get(name);
  if (!run) {
    run = make(path.join(dir, name));
    shared.set(name, run);
  }
  return run;
}

/** A clean suite run on the embedded mock; resolves to its run folder. */
const passingRun = (dir: string) => sharedRun('passing-run', dir, async (d) => reportDirOf(await cli(['run', '--report-dir', d, '--json'], 0)));
/** A suite run with the mock's fixed-window and replay-differs defects on. */
const failingRun = (dir: string) =>
  sharedRun('failing-run', dir, async (d) => reportDirOf(await cli(['run', '--mock-defects', 'fixed-window,replay-differs', '--report-dir', d, '--json'], 1)));
/** The gates of the loads: throughput out of reach (broken), search p99 held. */
const LOAD_GATES = ['--threshold', 'rps>=100000000', '--threshold', 'search.p99<2s'];
/** A 2 s load on the embedded mock whose throughput gate fails. */
const gateFailLoad = (dir: string) =>
  sharedRun('gate-fail-load', dir, async (d) =>
    reportDirOf(await cli(['load', '--agencies', '2', '--duration', '2', ...LOAD_GATES, '--report-dir', d, '--json'], 99)),
  );

/** A 2 s load with the same gates on a mock that answers every request 40 ms late: the NEW of a load comparison. */
async function slowLoad(dir: string): Promise<string> {
  const { run, dir: runDir } = await loadAgainstSlowMock(40, path.join(dir, 'slow-load'), 2, LOAD_GATES);
  if (run.code !== 99 || !runDir) throw new Error(`the load on a slow mock exited ${run.code}, not 99: ${run.stderr.slice(-2000)}`);
  return runDir;
}

/** What `report compare` must show, from its `--json` (the comparison as data) and the runs' report.json. */
async function comparePage(base: string, now: string, out: string, extra: string[] = []): Promise<PageUnderTest> {
  const c = JSON.parse(await cli(['report', 'compare', base, now, '-o', out, '--json', ...extra], [0, 1])) as {
    regressed: boolean;
    cases: Array<{ change: string }>;
  };
  const loads = await Promise.all([base, now].map(async (d) => JSON.parse(await readFile(path.join(d, 'report.json'), 'utf8')) as CaseRunResult));
  // A load comparison overlays a percentile chart per operation either run measured, and the throughput of both.
  const ops = new Set(
    loads.flatMap((r) =>
      r.kind === 'load'
        ? Object.entries(r.load.operations)
            .filter(([, o]) => o.count > 0)
            .map(([op]) => op)
        : [],
    ),
  );
  return {
    file: path.join(out, 'compare.html'),
    verdict: c.regressed ? 'WORSE' : 'OK',
    ...(c.cases.some((d) => d.change === 'newly-failing') ? { firstFailure: 'article.failure' } : {}),
    charts: ops.size > 0 ? ops.size + 1 : 0,
  };
}

/** What `report trend` must draw over run folders: a chart per area of the suites (and of the loads), the duration, and for loads p95 and throughput. */
async function trendPage(runDirs: readonly string[], out: string): Promise<PageUnderTest> {
  await cli(['report', 'trend', ...runDirs, '-o', out, '--json'], 0);
  const runs = await Promise.all(runDirs.map(async (d) => JSON.parse(await readFile(path.join(d, 'report.json'), 'utf8')) as CaseRunResult));
  const areas = (kind: (k: string) => boolean) => new Set(runs.filter((r) => kind(r.kind)).flatMap((r) => r.cases.map((c) => c.area))).size;
  const hasLoad = runs.some((r) => r.kind === 'load');
  return { file: path.join(out, 'trend.html'), charts: areas((k) => k !== 'load') + areas((k) => k === 'load') + 1 + (hasLoad ? 2 : 0) };
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
 * joins with one entry.
 */
export const PAGE_KINDS: PageKind[] = [
  {
    kind: 'run-pass',
    make: async (dir) => runReportPage(await passingRun(dir)),
  },
  {
    kind: 'run-fail',
    make: async (dir) => runReportPage(await failingRun(dir)),
  },
  {
    kind: 'load-gate-fail',
    make: async (dir) => runReportPage(await gateFailLoad(dir)),
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
  {
    // The clean run against the one with defects: newly failing cases, their failure cards first.
    kind: 'compare-runs',
    make: async (dir) => comparePage(await passingRun(dir), await failingRun(dir), path.join(dir, 'compare')),
  },
  {
    // A load against a load 40 ms slower: the two runs' charts overlaid, a gate held by one and broken by the other.
    kind: 'compare-loads',
    make: async (dir) => {
      const [base, now] = await Promise.all([gateFailLoad(dir), slowLoad(dir)]);
      return comparePage(base, now, path.join(dir, 'compare'), ['--threshold', 'latency.p50<30ms']);
    },
  },
  {
    // Three runs in time order: two suites (one failing) and a load.
    kind: 'trend',
    make: async (dir) => trendPage(await Promise.all([passingRun(dir), failingRun(dir), gateFailLoad(dir)]), path.join(dir, 'trend')),
  },
];
