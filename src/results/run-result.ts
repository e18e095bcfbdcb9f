import type { Exchange } from '../client/exchange.js';
import type { LoadResult } from './load-result.js';
import type { CaseResult, RateLimitPoint, RunVerdict, Verdict, WebhookPoint } from './model.js';
import type { SelftestResult } from './selftest-result.js';

/**
 * One result type per kind of run, tagged by `kind`. Runners return them;
 * writers render them and never compute verdicts.
 */

/** The kinds of run, one result type each: the tag of {@link RunResult}. */
export type RunKind = RunResult['kind'];

/** What every run made of cases holds, whatever ran them. */
interface CaseRunBase {
  schema: 'svc-harness/run@1';
  runId: string;
  command: string;
  tool: { name: string; version: string; node: string };
  target: { name: string; baseUrl: string; hotelBaseUrl: string | null; clock: 'mock-admin' | 'none'; embedded: boolean };
  seed: number;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Counts by verdict over all cases; `KNOWN` only when a known-issues list excused a failure (reports of older runs lack it). */
  summary: Record<Exclude<Verdict, 'KNOWN'>, number> & { KNOWN?: number; total: number };
  /** Overall verdict: FAIL when any case failed or errored; INCONCLUSIVE when the run proves nothing (see `verdictReason`); INTERRUPTED when a load was stopped early (its figures cover what ran). */
  verdict: RunVerdict;
  /** Why the run is INCONCLUSIVE, in one sentence; absent otherwise. */
  verdictReason?: string | undefined;
  cases: CaseResult[];
  exchanges: Exchange[];
  timelines: { rateLimit: RateLimitPoint[]; webhooks: WebhookPoint[] };
  /** Free notes shown at the top of reports (e.g. skipped areas and why). */
  notes: string[];
}

/** The result of a suite run (`run`): checks, scenarios and properties against a target. */
export interface SuiteResult extends CaseRunBase {
  kind: 'suite';
}

/** The result of a load run (`load`, `report merge`): a case per verdict under load and per gate, and the figures. */
export interface LoadRunResult extends CaseRunBase {
  kind: 'load';
  load: LoadResult;
}

/** The report of a certification run (`certify-client`): a case per graded item; the certificate itself is written beside it. */
export interface CertificationResult extends CaseRunBase {
  kind: 'certificate';
}

/** The runs the four report files (`report.json`, `junit.xml`, `summary.md`, `report.html`) render. */
export type CaseRunResult = SuiteResult | LoadRunResult | CertificationResult;

/** The result of any run, tagged by `kind`; a self-test has its own files (see `selftest.json`). */
export type RunResult = CaseRunResult | SelftestResult;
