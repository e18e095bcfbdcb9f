import autocannon from 'autocannon';
import { ANNOUNCE_ABOVE_MS, type OnLoadWait } from '../announced-wait.js';
import { fillPath, setTemplate } from '../../api/fields.js';
import type { Profile } from '../../profile/index.js';
import { createSession, type AcClient, type AutocannonSession } from './autocannon-session.js';
import { setupFixedClient, type FixedRequest } from './fixed-client.js';
import { journeyRequests } from './journey-requests.js';
import type { LoadAgency } from './load-agency.js';
import type { LoadRecorder } from '../measure/load-recorder.js';
import type { Journey } from './scenario-requests.js';
import type { WalletTally } from '../judge/wallet-reconciliation.js';

/** Options of {@link runAutocannonLoad}. */
interface AutocannonLoadOptions {
  profile: Profile;
  agencies: readonly LoadAgency[];
  connections: number;
  durationS: number;
  /** Stop after this many responses in all. */
  maxRequests?: number | undefined;
  /** Scenario mode: connection i acts as agency i mod A and replays journey i mod J of those the agency's open products allow. */
  journeys?: readonly Journey[] | undefined;
  /** Fast mode: one signed search (template patched in place), for raw throughput. */
  search?: { product: string } | undefined;
  /** Fast mode with any fixed request (path relative to the base address); `search` is this with the search operation. */
  fixed?: FixedRequest | undefined;
  recorder: LoadRecorder;
  wallet: WalletTally;
  /** Target clock, ms since epoch. */
  now: () => number;
  /** Aborting stops at once: whatever is in flight is cut off. */
  signal?: AbortSignal | undefined;
  /** Per-request timeout, seconds. @defaultValue 10 */
  timeoutS?: number | undefined;
  /** Seconds the requests in flight when the duration ends get to finish; the rest are cut off. @defaultValue 0 */
  graceS?: number | undefined;
  /** Told when the grace has run a second and answers are still awaited, with how long it may go on. */
  onWait?: OnLoadWait | undefined;
}

/** What autocannon itself counted. */
interface AutocannonSummary {
  errors: number;
  timeouts: number;
  sent: number;
}

/** The request of the fast path: the one asked for, or the signed search of a product; none in scenario mode. */
function fixedRequestOf(o: AutocannonLoadOptions): FixedRequest | undefined {
  if (o.fixed) return o.fixed;
  if (!o.search) return undefined;
  const searchOp = o.profile.operations.search;
  return {
    op: 'search',
    method: searchOp.method,
    path: fillPath(searchOp.path, { product: o.search.product }),
    body: JSON.stringify(setTemplate(o.profile.search_body, { criteria: o.profile.search_criteria[o.search.product] ?? {} })),
  };
}

/** How often the stop looks whether the requests in flight have all been answered, ms. */
const DRAIN_POLL_MS = 20;

/**
 * Runs autocannon until it finishes, `signal` aborts (everything in flight
 * is cut off at once) or the duration is up: then no connection writes
 * another request, those in flight get `graceS` to be answered, and whatever
 * is still in flight after that is cut off. `flushers` run once it stops.
 */
function runInstance(
  opts: Record<string, unknown>,
  run: { durationS: number; graceS: number; session: AutocannonSession; clients: readonly AcClient[]; onWait?: OnLoadWait | undefined },
  signal?: AbortSignal,
): Promise<AutocannonSummary> {
  return new Promise<AutocannonSummary>((resolve, reject) => {
    let poll: NodeJS.Timeout | undefined;
    let timer: NodeJS.Timeout | undefined;
    const instance = autocannon(opts as unknown as autocannon.Options, (err, result) => {
      clearTimeout(timer);
      clearInterval(poll);
      signal?.removeEventListener('abort', stop);
      for (const flush of run.session.flushers) flush();
      if (err) reject(err instanceof Error ? err : new Error(String(err)));
      else resolve({ errors: result.errors, timeouts: result.timeouts, sent: result.requests.sent });
    });
    // A spent budget pauses each connection for good: with no per-second timer (none was set at the start) nothing refills it.
    const pauseAll = (): void => {
      for (const c of run.clients) {
        c.rate = 1;
        c.reqsMadeThisSecond = Number.POSITIVE_INFINITY;
      }
    };
    const stop = (): void => {
      clearInterval(poll);
      pauseAll();
      // Cut off at this instant: autocannon closes its sockets only on its next sample, and an answer in between came after the grace.
      for (const flush of run.session.flushers) flush();
      instance.stop();
    };
    const drain = (): void => {
      pauseAll();
      const started = Date.now();
      const until = started + run.graceS * 1000;
      let told = false;
      const check = (): void => {
        const t = Date.now();
        if (run.session.inFlight <= 0 || t >= until) return stop();
        // Most stops drain in milliseconds; one that takes longer than a second is a wait worth naming.
        if (!told && t - started > ANNOUNCE_ABOVE_MS) {
          told = true;
          run.onWait?.({
            ms: until - t,
            why: `${run.session.inFlight} request(s) still in flight at the end of the load: waiting for their answers (--graceful-stop ${run.graceS} s), then cutting off the rest`,
          });
        }
      };
      check();
      poll ??= setInterval(check, DRAIN_POLL_MS);
    };
    // With `amount` autocannon ignores the duration: the stop keeps both bounds.
    timer = setTimeout(drain, run.durationS * 1000);
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
  });
}

/**
 * Runs autocannon against the service with every request freshly signed:
 * in scenario mode each connection replays a journey as one agency (see
 * {@link journeyRequests}); in search mode each connection sends one signed
 * search from a template patched in place (see {@link setupFixedClient}).
 * Latency is measured per request from just before it is written.
 */
export async function runAutocannonLoad(o: AutocannonLoadOptions): Promise<AutocannonSummary> {
  const session = createSession(o.profile, o.recorder, o.wallet, o.now);
  const fixed = fixedRequestOf(o);
  const journeys = o.journeys?.filter((j) => j.steps.length > 0) ?? [];
  let clientIndex = 0;
  const clients: AcClient[] = [];
  const setupClient = (c: unknown): void => {
    const client = c as AcClient;
    clients.push(client);
    const i = clientIndex++;
    const agency = o.agencies[i % o.agencies.length]!;
    if (fixed) setupFixedClient(session, client, agency, fixed);
    else {
      // An agency replays only the journeys its contract allows: a search of a closed product is the harness's mistake, not the service's error.
      const fitting = agency.open === undefined ? journeys : journeys.filter((j) => [...j.products].every((p) => agency.open!.includes(p)));
      const mine = fitting.length > 0 ? fitting : journeys;
      client.requestIterator.setRequests(journeyRequests(session, mine[i % mine.length]!, agency));
    }
  };
  const opts: Record<string, unknown> = {
    url: session.base.origin,
    connections: o.connections,
    pipelining: 1,
    // The stop is this module's (duration, then grace): autocannon's own must never come first.
    duration: o.durationS + (o.graceS ?? 0) + 5,
    // autocannon ends on its next sample once stopped: a short sample keeps the stop from adding idle time to the load's span.
    sampleInt: 100,
    timeout: o.timeoutS ?? 10,
    requests: [{ method: 'GET', path: `${session.basePath}/` }],
    setupClient,
  };
  if (o.maxRequests !== undefined) opts.amount = Math.max(o.maxRequests, o.connections);
  return runInstance(opts, { durationS: o.durationS, graceS: o.graceS ?? 0, session, clients, onWait: o.onWait }, o.signal);
}
