import * as fc from 'fast-check';
import type { ClockDriver } from '../src/clock/clock-driver.js';
import { overMaxWait } from '../src/clock/max-wait.js';
import type { PropertyEnv } from './_internal/property-env.js';
import { quoteRuns, redeemAroundExpiry, type Redemption } from './_internal/quote-batch.js';
import type { BuiltProperty, PropertyDef } from './property-types.js';

/**
 * Why quote-lock does not run: against a clock that cannot be moved, the
 * quote lifetime it waits out (`lifetimeS`) is over the run's --max-wait
 * (`overMaxWait`, the one rule for long waits in real time). The plan and the
 * run ask it alike.
 */
export function quoteLockOverMaxWait(lifetimeS: number, clock: Pick<ClockDriver, 'kind'>, maxWaitMs: number | undefined): string | undefined {
  return overMaxWait(clock, lifetimeS * 1000, maxWaitMs, 'its quotes to expire');
}

/**
 * Clock uncertainty around the expiry instant, ms: a booking sent this close
 * to quote_expires_at may go either way (but, if booked, at the quoted price).
 */
const SLACK_MS = 1_000;

async function bookAfter(env: PropertyEnv, waitMs: number, lifetimeMs: number): Promise<void> {
  const what = `wait ${waitMs} ms`;
  // Every request of the run must fit before the wait: waiting for a window afterwards would move the booking.
  await env.budget.ensure({ read: 4, write: 2 });
  const searchedAt = env.ctx.clock.now();
  // The quote and the wallet before it is booked are independent reads: sent at once.
  const [offer, before] = await Promise.all([env.offer(`${what}: quote`), env.balanceRead(`${what}: balance before`)]);
  const parsed = offer.quoteExpiresAt === undefined ? NaN : Date.parse(offer.quoteExpiresAt);
  const expiresAt = Number.isFinite(parsed) ? parsed : searchedAt + lifetimeMs;
  await env.ctx.clock.wait(waitMs, 'the quote to expire');
  env.budget.waited(waitMs);
  const sentAt = env.ctx.clock.now();
  const res = env.track(await env.api.book(env.product, offer.quoteToken, env.unique('ql-key'), { label: env.label(`${what}: booking`) }), 'write');
  const answeredAt = env.ctx.clock.now();
  const after = await env.balanceRead(`${what}: balance after`);
  const charged = before.amount - after.amount;
  if (res.status >= 200 && res.status < 300) {
    if (res.bookingId !== undefined) {
      // Money back first, so that a failing run leaves the wallet whole.
      await env.api.cancel(env.product, res.bookingId, env.unique('ql-cancel'), { label: env.label('cleanup') }).then((c) => env.budget.observe(c, 'write'));
    }
    if (sentAt >= expiresAt + SLACK_MS) env.fail(`${what}: a quote expired ${sentAt - expiresAt} ms before the booking was accepted`, { decisive: [res] });
    if (res.chargedAmount !== offer.priceAmount)
      env.fail(`${what}: booked at ${String(res.chargedAmount)}, a price never quoted (the quote said ${offer.priceAmount})`, { decisive: [res] });
    if (charged !== offer.priceAmount)
      env.fail(`${what}: the wallet was charged ${charged}, the quote said ${offer.priceAmount}`, { decisive: [res, before, after] });
    return;
  }
  if (env.is(res, 'quote_expired')) {
    if (answeredAt < expiresAt - SLACK_MS) env.fail(`${what}: refused as expired ${expiresAt - answeredAt} ms before quote_expires_at`, { decisive: [res] });
    if (charged !== 0) env.fail(`${what}: a booking refused as quote_expired changed the wallet by ${-charged}`, { decisive: [res, before, after] });
    return;
  }
  env.fail(`${what}: expected a booking at the quoted price or quote_expired, got ${env.describe(res)}`, { decisive: [res] });
}

/**
 * For random waits within the quote lifetime and beyond it, a booking either
 * charges exactly the quoted price or, once the quote expired, is refused as
 * quote_expired and charges nothing.
 */
export const quoteLock: PropertyDef = {
  name: 'quote-lock',
  title: 'A quote books at its locked price until it expires, and not after',
  clause: 'SPEC §1: the quote_token locks the price until quote_expires_at',
  needs: [],
  defaultNumRuns: 25,
  build(env): BuiltProperty<number> {
    const lifetimeMs = env.ctx.profile.quotes.lifetime_s * 1000;
    const waits = fc.oneof(
      fc.integer({ min: 0, max: lifetimeMs - 1 }),
      fc.integer({ min: lifetimeMs, max: Math.round(lifetimeMs * 1.25) }),
      fc.constantFrom(0, lifetimeMs, Math.max(0, lifetimeMs - 2 * SLACK_MS), lifetimeMs + SLACK_MS),
    );
    const property = fc.asyncProperty(waits, async (waitMs) => {
      env.evidence = [];
      await bookAfter(env, waitMs, lifetimeMs);
    });
    return { property, render: (ms) => `wait ${ms} ms (quote lifetime ${lifetimeMs} ms)` };
  },
  // In real time one quote lifetime serves every run: the quotes are taken at once and redeemed around their shared expiry.
  realTime({ envs: [env], numRuns, leaveWrites }) {
    const lifetimeS = env!.ctx.learned?.quoteLifetimeS ?? env!.ctx.profile.quotes.lifetime_s;
    const over = quoteLockOverMaxWait(lifetimeS, env!.ctx.clock, env!.ctx.maxWaitMs);
    if (over) return { skip: over };
    const lifetimeMs = lifetimeS * 1000;
    // Each redemption is a booking and, when it books, its cancellation: all in one window of the write bucket.
    const runs = quoteRuns(numRuns, env!.budget.limits.write, leaveWrites);
    const position = fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.constantFrom(0, 1000));
    const redemption = fc.tuple(fc.constantFrom<Redemption[0]>('before', 'after'), position);
    const property = fc.asyncProperty(fc.array(redemption, { minLength: runs, maxLength: runs }), (list) => redeemAroundExpiry(env!, list, lifetimeMs));
    return {
      built: { property, render: (list: Redemption[]) => list.map(([side, p]) => `${side}@${p}‰`).join(',') },
      fcRuns: 1,
      runs,
      why: `${runs} quotes taken at once and redeemed around their expiry, in one quote lifetime (${lifetimeS} s)${runs < numRuns ? `; ${runs}, not ${numRuns}: a booking and a cancellation each must fit the write limit (${env!.budget.limits.write})${leaveWrites ? `, ${leaveWrites} writes of it left for idempotency-model after it` : ''}` : ''}`,
      timeLimitMs: lifetimeMs + 60_000,
    };
  },
};
