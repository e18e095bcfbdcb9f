import type { Profile } from '../../profile/index.js';
import { formatMoney } from '../../results/units.js';
import { bookFresh, cancelFresh, freshQuote } from '../_internal/booking-steps.js';
import { Findings, skipped } from '../findings.js';
import { snapshotWallet, type WalletSnapshot } from '../_internal/flow-steps.js';
import { chainProblems } from '../_internal/wallet-ledger.js';
import type { Check, CheckOutcome } from '../types.js';

/** What WL-01 saw: the wallet after a booking and its cancellation. */
interface StatementChainObservations {
  wallet: WalletSnapshot;
}

/** Judges WL-01: the balance equals the newest balance_after, and every entry moves the one before it by its amount. */
export function judgeStatementChain(obs: StatementChainObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  const w = obs.wallet;
  const ev = w.evidence;
  if (w.balance === undefined) return f.fail(`wallet balance could not be read (answered ${w.balanceStatus})`, ...ev).outcome('');
  const newest = w.entries[0];
  if (!newest) {
    f.warn('the statement has no entries to reconcile', ...ev);
    return f.outcome('');
  }
  f.expect(
    newest.balanceAfter === w.balance,
    `balance is ${w.balance} but the newest statement entry (${String(newest.id)}) has balance_after ${String(newest.balanceAfter)}`,
    ...ev,
  );
  for (const p of chainProblems(w.entries, profile)) f.fail(p, ...ev);
  return f.outcome(`balance ${formatMoney(w.balance, w.currency)} equals the newest balance_after, and all ${w.entries.length} statement entries chain`, {
    entries: w.entries.length,
  });
}

/** WL-01: balance and statement reconcile. */
export const statementChainCheck: Check = {
  id: 'WL-01',
  title: 'The balance reconciles with the statement, entry by entry',
  area: 'wallet',
  clause: 'SPEC §1: bookings are paid from a prepaid wallet; balance and statement are readable over the API / REF §5',
  needs: ['open-product'],
  uses: { requests: { read: 5, write: 2 } },
  async run(ctx) {
    const api = ctx.api(0);
    // A booking and its cancellation first, so the statement holds a debit and a refund.
    const q = await freshQuote(ctx);
    if (!q?.offer) return skipped('no open product gave a quote to book', q?.search);
    const booked = await bookFresh(ctx, api, q.product, q.offer.quoteToken, 'booking');
    if (booked.bookingId) await cancelFresh(ctx, api, q.product, booked.bookingId, 'cancellation');
    const wallet = await snapshotWallet(ctx, api, 'after booking and cancellation');
    return judgeStatementChain({ wallet }, ctx.profile);
  },
};
