import type { Profile } from '../../profile/index.js';
import { bookFresh, freshQuoteAndWallet } from '../_internal/booking-steps.js';
import { errorMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings, skipped } from '../findings.js';
import { snapshotWallet, type WalletSnapshot } from '../_internal/flow-steps.js';
import { judgeLedger } from '../_internal/wallet-judging.js';
import type { Check, CheckOutcome } from '../types.js';

/** What QT-04 saw: bookings with a tampered and an unknown token, with the wallet around them. */
interface UnknownQuoteObservations {
  before: WalletSnapshot;
  bookings: Array<{ what: string; res: Answer }>;
  after: WalletSnapshot;
}

/** A token that differs from `token` in its last character only, staying URL-safe. */
export function tamperToken(token: string): string {
  const last = token.slice(-1);
  const swap = last === 'A' ? 'B' : 'A';
  return token.slice(0, -1) + swap;
}

/** Judges QT-04: tampered and unknown tokens answer quote_not_found and charge nothing. */
export function judgeUnknownQuote(obs: UnknownQuoteObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  for (const b of obs.bookings) f.check(errorMismatch(b.res, profile.errors.quote_not_found, b.what, profile), b.res);
  judgeLedger(f, obs.before, obs.after, { noCharge: 'bookings with tampered or unknown quote tokens' }, profile);
  const e = profile.errors.quote_not_found;
  return f.outcome(`tampered and unknown quote tokens answered ${e.status} ${e.code} and charged nothing`);
}

/** QT-04: a tampered or unknown quote token is not found. */
export const unknownQuoteCheck: Check = {
  id: 'QT-04',
  title: 'A tampered or unknown quote token is refused as not found',
  area: 'quotes',
  clause: 'SPEC §1: a booking redeems the quote_token returned by a search / REF §5: unknown or tampered quote_token → 404 QUOTE_NOT_FOUND',
  needs: ['open-product'],
  uses: { requests: { read: 8, write: 2 } },
  async run(ctx) {
    const api = ctx.api(0);
    const [q, before] = await freshQuoteAndWallet(ctx);
    if (!q?.offer) return skipped('no open product gave a quote to tamper with', q?.search);
    const bookings: UnknownQuoteObservations['bookings'] = [];
    const tampered = tamperToken(q.offer.quoteToken);
    bookings.push({ what: 'booking with a tampered quote token', res: await bookFresh(ctx, api, q.product, tampered, 'booking with a tampered token') });
    const unknown = `qt_${ctx.unique('unknown').replace(/[^A-Za-z0-9_-]/g, '_')}`;
    bookings.push({ what: 'booking with an unknown quote token', res: await bookFresh(ctx, api, q.product, unknown, 'booking with an unknown token') });
    const after = await snapshotWallet(ctx, api, 'after');
    return judgeUnknownQuote({ before, bookings, after }, ctx.profile);
  },
};
