import type { ApiResponse, Offer } from '../../src/api/types.js';
import type { PropertyEnv } from './property-env.js';

/**
 * One generated redemption: before or after the quote's expiry, and where in
 * the time open to that side, in ‰ (0 at the edge of the margin around the
 * expiry, 1000 farthest from it).
 */
export type Redemption = ['before' | 'after', number];

/** Added to the measured margin, and kept between the quotes' answers and the first redemption, ms. */
const SAFETY_MS = 250;
/** Longest time the redemptions after the expiry spread over, ms. */
const AFTER_SPAN_MS = 5_000;

/** How long the redemptions after the expiry spread over, ms. */
function afterSpanMs(lifetimeMs: number): number {
  return Math.min(AFTER_SPAN_MS, Math.round(lifetimeMs / 4));
}

/** Target time one batch of redemptions takes, ms: one quote lifetime, the redemptions after it, the margin and the cleanup. */
export function quoteBatchMs(lifetimeMs: number, requestMs: number): number {
  return lifetimeMs + afterSpanMs(lifetimeMs) + 2_000 + 4 * requestMs;
}

/** Redemptions of one batch: as asked, as long as a booking and a cancellation each fit one window of `writeLimit`, `leave` writes of it left for what books after it. */
export function quoteRuns(numRuns: number, writeLimit: number, leave = 0): number {
  return Math.max(1, Math.min(numRuns, Math.floor((writeLimit - 2 - leave) / 2)));
}

/**
 * Writes a batch of `runs` redemptions, `before` of them before the expiry,
 * needs free in its window when it takes its quotes. When the quotes live a
 * window or more, only the bookings before the expiry: the writes in the
 * window now have left it by the expiry, and the bookings after it and the
 * cancellations (2 × runs at most, within the limit) share a later window
 * with those before it alone. Else every booking and cancellation.
 */
export function quoteWritesNow(before: number, runs: number, lifetimeMs: number, windowMs: number): number {
  return lifetimeMs >= windowMs ? before : 2 * runs;
}

/**
 * Bookings before the expiry a batch of `runs` draws at most but once in a hundred batches (each side is drawn evenly: the 99th
 * percentile of a binomial of `runs` halves): the room a plan keeps for the batch, so that a batch seldom waits a window for more.
 */
export function likelyBefore(runs: number): number {
  let below = 0;
  let choose = 1;
  for (let k = 0; k <= runs; k++) {
    if (k > 0) choose = (choose * (runs - k + 1)) / k;
    below += choose / 2 ** runs;
    if (below >= 0.99) return k;
  }
  return runs;
}

interface Quote {
  offer: Offer & { priceAmount: number };
  /** quote_expires_at, target ms. */
  expiresAt: number;
}

/**
 * Clock uncertainty around the quotes' expiry, ms: the round trip of the
 * quotes, the bound of the skew between this clock and the service's (from
 * the responses' `Date`, to the second, else from quote_expires_at and the
 * lifetime), and a second more when quote_expires_at is given to the second.
 */
function marginMs(searched: readonly ApiResponse[], quotes: readonly Quote[], sentAt: number, answeredAt: number, lifetimeMs: number): number {
  let skew = 0;
  for (const [i, res] of searched.entries()) {
    const date = Date.parse(res.headers.date ?? '');
    // The service's clock read date..date+1 s while this one read sentAt..answeredAt.
    const [lo, hi] = Number.isFinite(date)
      ? [date - answeredAt, date + 1_000 - sentAt]
      : [quotes[i]!.expiresAt - lifetimeMs - answeredAt, quotes[i]!.expiresAt - lifetimeMs - sentAt];
    skew = Math.max(skew, Math.abs(lo), Math.abs(hi));
  }
  const coarse = quotes.some((q) => !/\.\d/.test(q.offer.quoteExpiresAt ?? ''));
  return skew + (answeredAt - sentAt) + SAFETY_MS + (coarse ? 1_000 : 0);
}

/**
 * Takes one quote per redemption at once and redeems each at its generated
 * place around its quote's expiry: before `quote_expires_at` minus the margin
 * it must book at the quoted price; after it plus the margin it must be
 * refused as quote_expired, charging nothing. Places inside the margin are
 * never generated, so a correct service cannot fail at the edge; a booking
 * that a late timer sent inside it is judged only on its price.
 */
export async function redeemAroundExpiry(env: PropertyEnv, list: readonly Redemption[], lifetimeMs: number): Promise<void> {
  env.evidence = [];
  const clock = env.ctx.clock;
  // The cancellations come a quote lifetime later: when that is a whole window, the bucket has rolled over by then.
  const before = list.filter(([side]) => side === 'before').length;
  // Short of room, it waits for slots about to free (requests leaving the window), measuring again, else a window.
  await env.budget.room({ read: list.length + 4, write: quoteWritesNow(before, list.length, lifetimeMs, env.ctx.profile.limits.window_s * 1000) }, (b) =>
    env.measureBucket(b),
  );
  const sentAt = clock.now();
  const searched = await Promise.all(list.map((_, i) => env.api.search(env.product, undefined, { label: env.label(`#${i + 1}: quote`) })));
  const answeredAt = clock.now();
  const quotes = searched.map((res, i): Quote => {
    env.track(res, 'read');
    const offer = res.offers.find((o): o is Offer & { priceAmount: number } => o.priceAmount !== undefined);
    if (!offer) env.fail(`#${i + 1}: the search answered ${env.describe(res)} without a priced offer`);
    const parsed = offer.quoteExpiresAt === undefined ? NaN : Date.parse(offer.quoteExpiresAt);
    return { offer, expiresAt: Number.isFinite(parsed) ? parsed : sentAt + lifetimeMs };
  });
  const margin = marginMs(searched, quotes, sentAt, answeredAt, lifetimeMs);
  const balanceBefore = await env.balance('balance before');
  // Bookings before the expiry that the wallet could not pay all at once are left out (that would test the wallet, not the lock).
  let affordable = balanceBefore;
  const planned = list.map(([side, p], i) => {
    const q = quotes[i]!;
    const earliest = answeredAt + SAFETY_MS;
    const at =
      side === 'before'
        ? Math.max(earliest, q.expiresAt - margin - Math.round((p / 1000) * Math.max(0, q.expiresAt - margin - earliest)))
        : q.expiresAt + margin + Math.round((p / 1000) * afterSpanMs(lifetimeMs));
    const paid = side === 'before' && affordable >= q.offer.priceAmount;
    if (paid) affordable -= q.offer.priceAmount;
    return { side, p, q, at, send: side === 'after' || paid };
  });
  const answers = await Promise.all(
    planned.map(async ({ at, q, send }, i) => {
      if (!send) return undefined;
      await clock.waitUntil(at, 'the quotes to near or pass their expiry');
      const sent = clock.now();
      const res = await env.api.book(env.product, q.offer.quoteToken, env.unique('ql-key'), { label: env.label(`#${i + 1}: booking`) });
      return { res: env.track(res, 'write'), sent };
    }),
  );
  const balanceAfter = await env.balance('balance after');
  const problems: string[] = [];
  let charged = 0;
  const booked: string[] = [];
  for (const [i, plan] of planned.entries()) {
    const answer = answers[i];
    if (!answer) continue;
    const { res, sent } = answer;
    const { q } = plan;
    const what = `#${i + 1} (${plan.side}@${plan.p}‰: sent ${Math.abs(q.expiresAt - sent)} ms ${sent < q.expiresAt ? 'before' : 'after'} quote_expires_at, margin ${margin} ms)`;
    const ok = res.status >= 200 && res.status < 300;
    if (ok) {
      if (res.bookingId !== undefined) booked.push(res.bookingId);
      charged += q.offer.priceAmount;
      if (res.chargedAmount !== q.offer.priceAmount)
        problems.push(`${what}: booked at ${String(res.chargedAmount)}, a price never quoted (the quote said ${q.offer.priceAmount})`);
    }
    const expired = env.is(res, 'quote_expired');
    // A timer that fired late may have sent a booking "before" inside the margin: either answer is right there.
    const edge = plan.side === 'before' && sent > q.expiresAt - margin;
    // A booking accepted after the expiry is the news: it leads the message.
    if (plan.side === 'after' && ok) problems.unshift(`${what}: a quote expired ${sent - q.expiresAt} ms before the booking was accepted`);
    else if (plan.side === 'after' && !expired) problems.push(`${what}: expected the booking refused as quote_expired, got ${env.describe(res)}`);
    if (plan.side === 'before' && !ok && !(edge && expired)) problems.push(`${what}: expected a booking at the quoted price, got ${env.describe(res)}`);
  }
  // Money back first, so that a failing run leaves the wallet whole.
  await Promise.all(
    booked.map((id) => env.api.cancel(env.product, id, env.unique('ql-cancel'), { label: env.label('cleanup') }).then((c) => env.budget.observe(c, 'write'))),
  );
  if (balanceBefore - balanceAfter !== charged)
    problems.push(`the wallet was charged ${balanceBefore - balanceAfter} in all, the bookings accepted at their quoted prices ${charged}`);
  if (problems.length) env.fail(`${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`);
}
