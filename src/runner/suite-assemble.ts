/*
 * The result of a suite run: its cases in report order, the summary, the
 * verdict, and everything redacted.
 */
import type { Check } from '../checks/types.js';
import type { Exchange } from '../client/exchange.js';
import { knownSecretsRedactor, rememberSecrets } from '../profile/known-secrets.js';
import { secretsOf } from '../profile/resolve-secrets.js';
import type { Profile, ResolvedAgency } from '../profile/index.js';
import type { CaseResult, RateLimitPoint, Verdict, WebhookPoint } from '../results/model.js';
import type { SuiteResult } from '../results/run-result.js';
import { INTERRUPTED_CASE, NOT_RUN_CASE } from './run-check.js';
import { suiteVerdict } from './run-verdict.js';
import { toolInfo } from './tool-info.js';

/** What a run's result is made of. */
interface AssembleInput {
  profile: Readonly<Profile>;
  agencies: readonly ResolvedAgency[];
  runId: string;
  seed: number;
  command: string;
  embedded: boolean;
  /** Extra strings to redact besides the agencies' secrets. */
  secrets: readonly string[];
  /** Date.now() and performance.now() at the start. */
  startedAtMs: number;
  t0: number;
  interrupted: boolean;
  regular: readonly Check[];
  last: readonly Check[];
  results: ReadonlyMap<Check, CaseResult>;
  partCases: readonly CaseResult[];
  exchanges: readonly Exchange[];
  rateLimit: readonly RateLimitPoint[];
  webhooks: readonly WebhookPoint[];
  notes: string[];
}

/** The redacted result of a run: the checks, then the scenarios and properties, then the checks that ran last. */
export function assembleResult(x: AssembleInput): SuiteResult {
  const { profile, notes } = x;
  const cases = [...x.regular.map((c) => x.results.get(c)!), ...x.partCases, ...x.last.map((c) => x.results.get(c)!)];
  // The process's redactor, which the report writer uses too: what it redacted here it knows as clean there.
  rememberSecrets([...secretsOf(x.agencies), ...x.secrets]);
  const redact = knownSecretsRedactor();
  const summary = { PASS: 0, FAIL: 0, WARN: 0, SKIP: 0, ERROR: 0, total: cases.length } as Record<Verdict, number> & { total: number };
  for (const c of cases) summary[c.verdict] += 1;
  const verdict: ReturnType<typeof suiteVerdict> = x.interrupted
    ? { verdict: 'INTERRUPTED' }
    : suiteVerdict(cases, x.regular.find((c) => c.phase === 'baseline')?.id);
  if (x.interrupted) {
    const finished = cases.filter((c) => c.message !== NOT_RUN_CASE && c.message !== INTERRUPTED_CASE).length;
    notes.unshift(
      `INTERRUPTED: the run was stopped before its end; ${finished} of ${cases.length} cases finished, the others are listed as not run or not finished`,
    );
  }
  return {
    schema: 'svc-harness/run@1',
    kind: 'suite',
    runId: x.runId,
    command: x.command,
    tool: toolInfo(),
    target: {
      name: profile.name,
      baseUrl: profile.base_url,
      hotelBaseUrl: profile.hotel_base_url,
      clock: profile.clock.control,
      embedded: x.embedded,
    },
    seed: x.seed,
    startedAt: new Date(x.startedAtMs).toISOString(),
    finishedAt: new Date().toISOString(),
    durationMs: Math.round(performance.now() - x.t0),
    summary,
    verdict: verdict.verdict,
    ...(verdict.reason !== undefined ? { verdictReason: redact([verdict.reason])[0] } : {}),
    cases: redact(cases),
    exchanges: redact([...x.exchanges]),
    timelines: { rateLimit: [...x.rateLimit], webhooks: [...x.webhooks] },
    notes: redact(notes),
  };
}
