import { overMaxWait } from '../../clock/max-wait.js';
import type { Profile } from '../../profile/index.js';
import { bookFresh, freshQuote } from '../_internal/booking-steps.js';
import { errorMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings, skipped } from '../findings.js';
import { cancelQuietly, snapshotWallet, type WalletSnapshot } from '../_internal/flow-steps.js';
import { judgeLedger } from '../_internal/wallet-judging.js';
import type { Check, CheckOutcome, LearnedTarget } from '../types.js';

/** What QT-02 waits for. */
const EXPIRY = 'the quote to expire';

/** The quote lifetime QT-02 waits out, s: the one the service gives, when the run learned it (the profile may be wrong about it). */
function lifetimeS(profile: Profile, learned: LearnedTarget | undefined): number {
  return learned?.quoteLifetimeS ?? profile.quotes.lifetime_s;
}

/** What QT-02 saw: a booking sent after its quote expired, with the wallet around it. */
interface ExpiredQuoteObservations {
  waitedMs: number;
  before: WalletSnapshot;
  booking: Answer & { bookingId?: string };
  after: WalletSnapshot;
}

/** Judges QT-02: a booking after the quote expired answers quote_expired and charges nothing. */
export function judgeExpiredQuote(obs: ExpiredQuoteObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  f.check(
    errorMismatch(obs.booking, profile.errors.quote_expired, `booking with a quote expired ${Math.round(obs.waitedMs / 1000)} s after its search`, profile),
    obs.booking,
  );
  judgeLedger(f, obs.before, obs.after, { noCharge: 'the booking with an expired quote' }, profile);
  return f.outcome('a booking with an expired quote was refused and charged nothing');
}

/** QT-02: an expired quote cannot be booked. */
export const expiredQuoteCheck: Check = {
  id: 'QT-02',
  title: 'A booking after the quote expired is refused without charge',
  area: 'quotes',
  clause: 'SPEC §1: the quote_token locks the price until quote_expires_at / REF §5: now ≥ quote_expires_at → 410 QUOTE_EXPIRED',
  needs: ['open-product'],
  uses: {
    requests: { read: 8, write: 1 },
    // Its one booking is refused: any agency's wallet serves it.
    charges: 0,
    wait: {
      ms: (p, learned) => lifetimeS(p, learned) * 1000 + 1000,
      // It waits a quote lifetime (and a second): in real time, over --max-wait it is a SKIP.
      longestMs: (p, learned) => lifetimeS(p, learned) * 1000,
      why: EXPIRY,
      // It holds nothing while its quote expires, and takes its lease back to book.
      holds: [],
      resumes: true,
      // Booked later, the quote is as expired: nothing waits for it.
      resumesLate: true,
    },
  },
  async run(ctx) {
    const lifetime = lifetimeS(ctx.profile, ctx.learned);
    // The run's one rule for long waits in real time (the runner applies it before it starts the check, too).
    const over = overMaxWait(ctx.clock, lifetime * 1000, ctx.maxWaitMs, EXPIRY);
    if (over) return skipped(over);
    const api = ctx.api(0);
    const q = await freshQuote(ctx);
    if (!q?.offer) return skipped('no open product gave a quote to book', q?.search);
    const expiresAt = q.offer.quoteExpiresAt === undefined ? NaN : Date.parse(q.offer.quoteExpiresAt);
    const searchedAt = q.search.exchange.startedAt;
    const until = Number.isFinite(expiresAt) ? expiresAt : searchedAt + lifetime * 1000;
    const waitMs = Math.max(0, until - ctx.clock.now()) + 1000;
    ctx.narrowLease?.([]);
    await ctx.clock.wait(waitMs, EXPIRY);
    await ctx.widenLease?.();
    const before = await snapshotWallet(ctx, api, 'before');
    const booking = await bookFresh(ctx, api, q.product, q.offer.quoteToken, 'booking with an expired quote');
    const after = await snapshotWallet(ctx, api, 'after');
    await cancelQuietly(ctx, api, q.product, booking.bookingId);
    return judgeExpiredQuote({ waitedMs: ctx.clock.now() - searchedAt, before, booking, after }, ctx.profile);
  },
};
