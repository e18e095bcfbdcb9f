import { rateLimitRetry } from '../api/rate-limit-retry.js';
import { agencyApis } from '../api/agency-apis.js';
import { createTargetApi } from '../api/index.js';
import { checkLabel } from '../checks/check-context.js';
import { MemoryRecorder, type Exchange } from '../client/exchange.js';
import { withRetryPolicy } from '../client/retry-scope.js';
import type { Profile, ResolvedAgency } from '../profile/index.js';
import type { Receiver } from '../receiver/index.js';
import type { Verdict } from '../results/model.js';
import type { ClockDriver } from '../clock/clock-driver.js';
import { DEFAULT_MAX_WAIT_S } from '../clock/max-wait.js';
import { RealClockDriver } from '../clock/real-clock-driver.js';
import { newRunId } from '../results/run-id.js';
import { uniqueFactory } from '../runner/fresh-values.js';
import type { CertificateDraft, EvidenceDraft, TestDraft } from './certificate/types.js';
import { isOk } from './plan/_internal/answers.js';
import { PLAN_V1 } from './plan/plan-v1.js';
import type { CertificationPlan, CertifyContext, CertifyState } from './plan/plan-types.js';

/** Options of {@link runCertification}. */
export interface RunCertificationOptions {
  profile: Readonly<Profile>;
  /** The agency being certified, secrets resolved. */
  agency: ResolvedAgency;
  /** @defaultValue a RealClockDriver: certification runs in real time */
  clock?: ClockDriver;
  receiver?: Receiver;
  /** Why there is no receiver, for the webhook check's SKIP. */
  receiverMissing?: string;
  /** A second agency of the certified agency's organisation, secrets resolved: CERT-09 tries each against the other. */
  partner?: ResolvedAgency;
  /** Why there is no partner, for CERT-09's SKIP. */
  partnerMissing?: string;
  /** @defaultValue {@link PLAN_V1} */
  plan?: CertificationPlan;
  /** @defaultValue {@link DEFAULT_MAX_WAIT_S} */
  maxWaitS?: number;
  /** Used in idempotency keys and paths, so reruns never collide. @defaultValue a new run id */
  runId?: string;
  /** Target facts for the certificate. @defaultValue base_url and profile name */
  target?: CertificateDraft['target'];
  notes?: string[];
  /** Put the agency's webhook endpoint back afterwards; false for a throwaway target such as the embedded mock. @defaultValue true */
  tidyUp?: boolean;
  /** Progress: each check (test of the certificate) as it ends. */
  onTest?: (test: { id: string; title: string; verdict: Verdict; message: string; durationMs: number }) => void;
  log?: (line: string) => void;
}

function evidenceName(index: number, id: string): string {
  return `${String(index + 1).padStart(2, '0')}-${id}.json`;
}

/**
 * Runs a certification plan with one agency's credentials, check after check,
 * and returns the certificate draft (a test per check: verdicts and evidence)
 * for `writeCertificate`. A check that throws is an ERROR; nothing is retried.
 * Each check labels its exchanges and logs after its own id.
 */
export async function runCertification(options: RunCertificationOptions): Promise<CertificateDraft> {
  const { profile, agency } = options;
  const plan = options.plan ?? PLAN_V1;
  const clock = options.clock ?? new RealClockDriver();
  const runId = options.runId ?? newRunId();
  const recorder = new MemoryRecorder();
  const api = createTargetApi({ profile, agency, recorder, now: () => clock.now() });
  const pair = options.partner ? agencyApis({ profile, agencies: [agency, options.partner], recorder, now: () => clock.now() }) : undefined;
  const state: CertifyState = {};
  const log = options.log ?? (() => undefined);
  let attachments: Record<string, unknown> = {};
  let productsOnce: Promise<{ open: string[]; closed: string[] }> | undefined;
  const ctx: Omit<CertifyContext, 'checkId' | 'label'> = {
    profile,
    agency,
    api,
    clock,
    receiver: options.receiver,
    receiverMissing: options.receiverMissing,
    partner: pair && options.partner ? { agency: options.partner, api: pair.api, hotel: pair.hotel, recorder } : undefined,
    partnerMissing: options.partner ? undefined : (options.partnerMissing ?? 'the profile gives no second agency of the same organisation'),
    maxWaitMs: (options.maxWaitS ?? DEFAULT_MAX_WAIT_S) * 1000,
    state,
    unique: uniqueFactory(runId),
    products() {
      if (state.products) return Promise.resolve(state.products);
      productsOnce ??= api.openProducts({ label: 'open products' }).then(({ open, closed }) => (state.products = { open, closed }));
      return productsOnce;
    },
    attach(name, value) {
      attachments[name] = value;
    },
    log,
  };

  const startedAt = Date.now();
  const tests: TestDraft[] = [];
  const notes = [...(options.notes ?? [])];
  const take = (from: number): Exchange[] => recorder.exchanges.slice(from);
  let tidyExchanges: Exchange[] = [];
  try {
    for (const [i, check] of plan.checks.entries()) {
      const from = recorder.exchanges.length;
      attachments = {};
      const t0 = Date.now();
      let verdict: Verdict;
      let message: string;
      try {
        ({ verdict, message } = await check.run({
          ...ctx,
          checkId: check.id,
          label: (text) => checkLabel(check.id, text),
          log: (line) => log(checkLabel(check.id, line)),
        }));
      } catch (err) {
        verdict = 'ERROR';
        message = `the test stopped: ${err instanceof Error ? err.message : String(err)}`;
      }
      const exchanges = take(from);
      const evidence: EvidenceDraft[] =
        exchanges.length > 0 || Object.keys(attachments).length > 0
          ? [
              {
                name: evidenceName(i, check.id),
                content: { plan: `${plan.id}@${plan.version}`, test: check.id, title: check.title, verdict, message, exchanges, ...attachments },
              },
            ]
          : [];
      tests.push({ id: check.id, title: check.title, clause: check.clause, required: check.required, area: check.area, verdict, message, evidence });
      options.onTest?.({ id: check.id, title: check.title, verdict, message, durationMs: Date.now() - t0 });
    }
  } finally {
    const from = recorder.exchanges.length;
    const tidy =
      options.tidyUp === false
        ? undefined
        : await restoreWebhookEndpoint(ctx).catch(
            (err: unknown) => `the webhook endpoint could not be restored: ${err instanceof Error ? err.message : String(err)}`,
          );
    if (tidy) notes.push(tidy);
    await api.close();
    await pair?.close();
    tidyExchanges = take(from);
  }
  const finishedAt = Date.now();
  return {
    kind: 'service',
    plan: { id: plan.id, version: plan.version, title: plan.title },
    target: options.target ?? { base_url: profile.base_url, profile: profile.name },
    agency: agency.id,
    startedAt,
    finishedAt,
    tests,
    ...(tidyExchanges.length > 0
      ? { attachments: [{ name: 'zz-tidy-up.json', content: { what: 'restoring the webhook endpoint the agency had', exchanges: tidyExchanges } }] }
      : {}),
    notes,
  };
}

/** Puts back the agency's own webhook endpoint when the plan changed it; a note when it cannot. */
async function restoreWebhookEndpoint(ctx: Pick<CertifyContext, 'state' | 'profile' | 'clock' | 'api'>): Promise<string | undefined> {
  const registered = ctx.state.registeredWebhookUrl;
  const original = ctx.state.originalWebhookUrl;
  if (registered === undefined || original === registered) return undefined;
  if (original === null || original === undefined) {
    return `the agency's webhook endpoint was left at the harness's receiver (${registered}): it had none before, and the interface offers no way to clear it`;
  }
  const patiently = rateLimitRetry(ctx.profile, { wait: (ms) => ctx.clock.wait(ms), now: () => ctx.clock.now(), maxAttempts: 3 });
  const res = await withRetryPolicy(patiently, () => ctx.api.setWebhookEndpoint(original, { label: 'tidy-up: restore the webhook endpoint' }));
  if (isOk(res)) return undefined;
  return `the agency's webhook endpoint could not be set back to ${original}; it points at ${registered}`;
}
