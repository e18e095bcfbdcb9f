import { setTemplate } from '../../api/fields.js';
import type { Profile } from '../../profile/index.js';
import type { ReceivedDelivery, Receiver, ResponsePlan } from '../../receiver/index.js';
import { RunCacheKey } from '../run-cache.js';
import type { Check, CheckContext, ResourceRef } from '../types.js';
import { gapToleranceMs, mentions, toAttempt, whEvent, whHeader, type WhRun } from './wh-attempt.js';

/** The webhook scenarios; several checks judge one run of the same scenario. */
type WhKind = 'healthy' | 'failing' | 'fail-once' | 'replay' | 'cancel' | 'hotel-failing';

interface Spec {
  scheme: 'service' | 'hotel';
  /** What the receiver answers on the scenario's path. */
  plan(p: Profile): ResponsePlan;
  planText: string;
  /** Watched in steps from the first attempt: where every expected attempt falls, with tolerance. */
  horizonMs(p: Profile): number;
  /** Then one long wait, for attempts that must never come. */
  extraMs(p: Profile): number;
  /** Attempts to wait for (real time) before stepping the clock. */
  firstCount: number;
}

/** Time from attempt 1 to the last allowed attempt under the profile's schedule. */
export function retrySpanMs(p: Profile): number {
  let span = 0;
  for (let k = 0; k < p.webhooks.max_attempts - 1; k++) span += p.webhooks.base_ms * p.webhooks.factor ** k;
  return span;
}

/** The gap the profile's schedule puts before attempt `n + 1` (after attempt n failed). */
export function expectedGapMs(p: Profile, n: number): number {
  return p.webhooks.base_ms * p.webhooks.factor ** (n - 1);
}

const failStatus = 500;

/** A receiver that answers 200: the event is delivered at once, and the watch lasts long enough for a retry that should not come. */
const DELIVERED_AT_ONCE: Spec = {
  scheme: 'service',
  plan: () => ({ kind: 'always', status: 200 }),
  planText: '200 always',
  horizonMs: (p) => p.webhooks.base_ms + gapToleranceMs(p.webhooks.base_ms),
  extraMs: () => 0,
  firstCount: 1,
};

const SPECS: Record<WhKind, Spec> = {
  healthy: DELIVERED_AT_ONCE,
  failing: {
    scheme: 'service',
    plan: () => ({ kind: 'always', status: failStatus }),
    planText: `${failStatus} always`,
    horizonMs: (p) => retrySpanMs(p) + gapToleranceMs(expectedGapMs(p, Math.max(1, p.webhooks.max_attempts - 1))),
    // Twice the gap the next attempt would come at if the schedule went on: "never a fourth".
    extraMs: (p) => 2 * expectedGapMs(p, p.webhooks.max_attempts),
    firstCount: 1,
  },
  'fail-once': {
    scheme: 'service',
    plan: () => ({ kind: 'sequence', statuses: [failStatus, 200] }),
    planText: `${failStatus} then 200`,
    horizonMs: (p) => p.webhooks.base_ms + gapToleranceMs(p.webhooks.base_ms),
    extraMs: (p) => expectedGapMs(p, 2) + gapToleranceMs(expectedGapMs(p, 2)),
    firstCount: 1,
  },
  replay: DELIVERED_AT_ONCE,
  cancel: {
    scheme: 'service',
    plan: () => ({ kind: 'always', status: 200 }),
    planText: '200 always',
    horizonMs: () => 2000,
    extraMs: () => 0,
    firstCount: 2,
  },
  'hotel-failing': {
    scheme: 'hotel',
    plan: () => ({ kind: 'always', status: failStatus }),
    planText: `${failStatus} always`,
    // The hotel API never retries; watch as long as a service retry schedule would run, then longer.
    horizonMs: (p) => p.webhooks.base_ms * (1 + p.webhooks.factor) + gapToleranceMs(p.webhooks.base_ms * p.webhooks.factor),
    extraMs: (p) => 2 * p.webhooks.base_ms * p.webhooks.factor,
    firstCount: 1,
  },
};

/** Target time a scenario waits, ms (for `uses.wait.ms`); real time against a real service. */
function whScenarioWaitMs(kind: WhKind, p: Profile): number {
  const s = SPECS[kind];
  return s.horizonMs(p) + s.extraMs(p);
}

/** What a scenario holds while it watches the deliveries: the endpoint alone (its booking is made). */
const WAIT_TOUCHES = { service: '0:webhook', hotel: '0:hotel' } as const satisfies Record<'service' | 'hotel', ResourceRef>;

/**
 * What every check judging one run of a webhook scenario declares: it books
 * (or uses the hotel API) and sets the agency's endpoint, and the checks
 * judging one run share it, so they keep to the first agency and pay its
 * wait once.
 */
export function whScenarioUse(kind: WhKind): Pick<Check, 'needs' | 'uses'> {
  const hotel = kind === 'hotel-failing';
  return {
    needs: hotel ? ['receiver', 'hotel'] : ['receiver', 'open-product'],
    uses: {
      touches: hotel ? ['0:hotel'] : ['0:read', '0:write', '0:wallet', '0:webhook'],
      requests: { read: 3, write: kind === 'replay' || kind === 'cancel' ? 3 : 2 },
      role0: 'first-agency',
      wait: { ms: (p) => whScenarioWaitMs(kind, p), holds: [WAIT_TOUCHES[SPECS[kind].scheme]], sharedKey: `webhook scenario ${kind}` },
    },
  };
}

/**
 * Target time a check of `scheme` may take, ms (for `uses.wait.ms`; real time against a real service):
 * the scenarios of one scheme share the agency's single endpoint and run one after
 * another, so a check may wait behind all the others.
 */
export function whQueueWaitMs(scheme: 'service' | 'hotel', p: Profile): number {
  return (Object.keys(SPECS) as WhKind[]).filter((k) => SPECS[k].scheme === scheme).reduce((sum, k) => sum + whScenarioWaitMs(k, p), 0);
}

// Real pause after an attempt on an instantly driven clock, so the target takes in the answer
// (and schedules its retry) before its clock moves on; a real clock needs none.
const SETTLE_MS = 30;

// One run of each scenario per harness run, and one queue per scheme: the scenarios of a scheme share the agency's single endpoint.
const RUN_KEYS = Object.fromEntries((Object.keys(SPECS) as WhKind[]).map((k) => [k, new RunCacheKey<Promise<WhRun>>(`webhook scenario ${k}`)])) as Record<
  WhKind,
  RunCacheKey<Promise<WhRun>>
>;
const QUEUE_KEYS = {
  service: new RunCacheKey<SerialQueue>('service webhook endpoint'),
  hotel: new RunCacheKey<SerialQueue>('hotel webhook endpoint'),
};

/** Arrival times (target clock) of the attempts of the run's `failing` scenario, once it ran: what the service's retry schedule really is. */
export const FAILING_ARRIVALS = new RunCacheKey<{ at?: number[] }>('arrivals of the failing webhook scenario');

/** Runs tasks one after the other, a failed one not stopping the next. */
class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn, fn);
    this.tail = next.catch(() => undefined);
    return next;
  }
}

/**
 * The run of a scenario in this harness run: made once (by the first check
 * that asks, whose id labels its exchanges) and kept in the run cache, so that
 * checks judging the same deliveries do not each wait through a retry
 * schedule. Runs that set the same webhook endpoint are made one after the other.
 */
export function whScenario(ctx: CheckContext, kind: WhKind): Promise<WhRun> {
  return ctx.runCache.getOrCreate(RUN_KEYS[kind], () => {
    const queue = ctx.runCache.getOrCreate(QUEUE_KEYS[SPECS[kind].scheme], () => new SerialQueue());
    return queue.run(() => perform(ctx, kind));
  });
}

function safePath(token: string): string {
  return token.replace(/[^A-Za-z0-9_-]/g, '-');
}

function is2xx(status: number): boolean {
  return status >= 200 && status < 300;
}

async function perform(ctx: CheckContext, kind: WhKind): Promise<WhRun> {
  const spec = SPECS[kind];
  const p = ctx.profile;
  const path = `/wh/${safePath(ctx.unique(`${ctx.checkId}-${kind}`))}`;
  const run: WhRun = {
    scheme: spec.scheme,
    kind,
    path,
    plan: spec.planText,
    subjectId: '',
    exchangeIds: [],
    exchanges: {},
    attempts: [],
    startedAt: ctx.clock.now(),
    watchedUntil: ctx.clock.now(),
  };
  const receiver = ctx.receiver;
  if (!receiver) return { ...run, error: 'no webhook receiver reachable by the target' };
  receiver.script(path, spec.plan(p));
  const note = (name: string, id: string): void => {
    run.exchanges[name] = id;
    run.exchangeIds.push(id);
  };
  const fail = (error: string): WhRun => ({ ...run, error });

  if (spec.scheme === 'hotel') {
    const hotel = ctx.hotel(0);
    if (!hotel) return fail('the profile has no hotel API');
    const set = await hotel.setWebhook(receiver.url + path, { label: ctx.label('register the hotel webhook') });
    note('endpoint', set.exchange.id);
    if (!is2xx(set.status)) return fail(`registering the hotel webhook answered ${set.status}`);
    const avail = await hotel.availability({ label: ctx.label('hotel availability') });
    note('availability', avail.exchange.id);
    const rateKey = avail.rateKeys[0];
    if (!rateKey) return fail(`hotel availability answered ${avail.status} with no rate`);
    const book = await hotel.book(rateKey, { label: ctx.label('hotel booking'), clientReference: ctx.unique('wh-ref') });
    note('booking', book.exchange.id);
    if (!is2xx(book.status) || !book.reference) return fail(`hotel booking answered ${book.status} with no reference`);
    run.subjectId = book.reference;
  } else {
    const api = ctx.api(0);
    const set = await api.setWebhookEndpoint(receiver.url + path, { label: ctx.label('register the webhook endpoint') });
    note('endpoint', set.exchange.id);
    if (!is2xx(set.status)) return fail(`registering the webhook endpoint answered ${set.status}`);
    const { open, response } = await api.openProducts({ label: ctx.label('find an open product') });
    note('account', response.exchange.id);
    const product = open.find((x) => p.search_criteria[x] !== undefined);
    if (!product) return fail('no open product with search criteria in the profile');
    const search = await api.search(product, undefined, { label: ctx.label('quote') });
    note('search', search.exchange.id);
    const offer = search.offers[0];
    if (!offer) return fail(`search for ${product} answered ${search.status} with no offer`);
    // The exact bytes are kept so that a replay sends the same body.
    const body = JSON.stringify(setTemplate(p.booking_body, { quote_token: offer.quoteToken, client_reference: ctx.unique('wh-ref') }));
    const key = ctx.unique('wh-idem');
    const book = await api.book(product, offer.quoteToken, key, { body, label: ctx.label('booking that emits an event') });
    note('booking', book.exchange.id);
    if (!is2xx(book.status) || !book.bookingId) return fail(`booking answered ${book.status} with no booking id`);
    run.subjectId = book.bookingId;
    if (kind === 'replay') {
      const again = await api.book(product, offer.quoteToken, key, { body, label: ctx.label('replay of the booking (same key, same body)') });
      note('replay', again.exchange.id);
    }
    if (kind === 'cancel') {
      const cancel = await api.cancel(product, book.bookingId, ctx.unique('wh-cancel'), { label: ctx.label('cancellation that emits an event') });
      note('cancellation', cancel.exchange.id);
      if (!is2xx(cancel.status)) return fail(`cancellation answered ${cancel.status}`);
    }
  }

  // Other checks may use the agency's buckets and wallet meanwhile: the deliveries watched are matched by path and subject.
  ctx.narrowLease?.([WAIT_TOUCHES[spec.scheme]]);
  const subject = run.subjectId;
  const match = (d: ReceivedDelivery): boolean => d.path === path && mentions(d.text, subject);
  await watch(ctx, receiver, match, spec, run);
  run.attempts = receiver.deliveries(match).map(toAttempt);
  if (kind === 'failing') ctx.runCache.getOrCreate(FAILING_ARRIVALS, (): { at?: number[] } => ({})).at = run.attempts.map((a) => a.receivedAt);
  for (const [i, a] of run.attempts.entries()) {
    const id = spec.scheme === 'service' ? (whHeader(a, p.headers.webhook_id) ?? String(whEvent(a, p).id ?? '')) : String(whEvent(a, p).id ?? '');
    const n = Number(spec.scheme === 'service' ? whHeader(a, p.headers.webhook_attempt) : undefined);
    ctx.timeline.webhook({ at: a.receivedAt, eventId: id, attempt: Number.isInteger(n) && n > 0 ? n : i + 1, status: a.status, scheme: spec.scheme });
  }
  return run;
}

async function watch(ctx: CheckContext, receiver: Receiver, match: (d: ReceivedDelivery) => boolean, spec: Spec, run: WhRun): Promise<void> {
  const p = ctx.profile;
  const mock = ctx.clock.kind === 'mock';
  const settle = (): Promise<void> => (mock ? new Promise((r) => setTimeout(r, SETTLE_MS)) : Promise.resolve());
  // The first attempt is made at once, in real time; on a real service it may take up to the delivery timeout.
  const firstTimeout = mock ? 3000 : p.webhooks.delivery_timeout_ms + 5000;
  const first = await receiver.waitFor(match, firstTimeout, spec.firstCount);
  const start = first[0]?.receivedAt ?? ctx.clock.now();
  run.startedAt = start;
  await settle();
  const horizon = start + spec.horizonMs(p);
  // Attempts may fall due until the horizon: until then the clock moves in fine steps, so each attempt arrives
  // close to its instant; a driven clock answers each move once the attempts that fell due are made.
  ctx.clock.fineUntil(horizon);
  await ctx.clock.waitUntil(horizon, 'the webhook attempts to fall due');
  await settle();
  const extra = spec.extraMs(p);
  if (extra > 0) {
    await ctx.clock.wait(extra, 'late webhook attempts');
    await settle();
  }
  run.watchedUntil = ctx.clock.now();
}
