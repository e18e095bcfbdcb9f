import type { StatementEntry } from '../../api/types.js';
import type { Profile } from '../../profile/index.js';
import { bookFresh, cancelFresh } from '../_internal/booking-steps.js';
import { isSuccess, type Answer } from '../_internal/expect-error.js';
import { Findings, skipped } from '../findings.js';
import { cheapest, productsToSearch, searchProduct, snapshotWallet, type WalletSnapshot } from '../_internal/flow-steps.js';
import { ISOLATION_EPISODE, judgeOwnEntriesOnly, OTHER } from '../_internal/isolation-steps.js';
import type { Check, CheckOutcome } from '../types.js';

/** What IS-07 saw: the other agency's wallet around the owner's booking and cancellation, and the owner's statement after. */
interface StatementOfOtherObservations {
  bookingId: string;
  booking: Answer;
  cancellation: Answer;
  ownerEntries: StatementEntry[];
  ownerStatement: string[];
  otherBefore: WalletSnapshot;
  otherAfter: WalletSnapshot;
}

/**
 * Judges IS-07: the other agency's statement lists none of the owner's
 * entries, by booking id or by the ids of the owner's new entries (an entry id
 * counts only where it is new in the other statement: a service may number
 * each agency's entries apart), and its wallet did not move.
 */
export function judgeStatementOfOther(obs: StatementOfOtherObservations, profile: Profile): CheckOutcome {
  const f = new Findings().see(obs.booking, obs.cancellation);
  const known = new Set(obs.otherBefore.entries.map((e) => e.id));
  const ownerIds = new Set(obs.ownerEntries.map((e) => e.id).filter((id): id is string => id !== undefined));
  const listed = obs.otherAfter.entries.filter((e) => e.bookingId === obs.bookingId || (e.id !== undefined && ownerIds.has(e.id) && !known.has(e.id)));
  f.expect(
    listed.length === 0,
    `another agency's statement lists ${listed.length} of the owner's entries (booking ${obs.bookingId}: ${listed.map((e) => `${e.id ?? '?'} ${String(e.type)}`).join(', ')})`,
    ...obs.otherAfter.evidence,
  );
  judgeOwnEntriesOnly(f, obs.otherBefore, obs.otherAfter, [], OTHER, profile);
  if (!f.failed && obs.ownerEntries.length === 0)
    f.warn(`the owner's statement shows no entry of its booking ${obs.bookingId}: nothing to look for in another agency's`, ...obs.ownerStatement);
  return f.outcome(
    `another agency's statement lists none of the owner's ${obs.ownerEntries.length} entries of booking ${obs.bookingId}, and its wallet did not move`,
  );
}

/** IS-07: an agency's statement lists only its own entries. */
export const statementOfOtherCheck: Check = {
  id: 'IS-07',
  title: "An agency's wallet statement lists none of another agency's entries",
  area: 'isolation',
  clause: "SPEC §1/§5: the wallet and its statement belong to the agency / REF §5: GET /v1/wallet/statement lists the agency's entries",
  needs: ['second-agency', 'open-product'],
  ...ISOLATION_EPISODE,
  async run(ctx) {
    const [owner, other] = [ctx.api(0), ctx.api(1)];
    const product = (await productsToSearch(ctx, 0))[0];
    if (product === undefined) return skipped('the owner has no open product with search criteria in the profile');
    const [search, otherBefore] = await Promise.all([
      searchProduct(ctx, owner, product, `search ${product}`),
      snapshotWallet(ctx, other, 'before (other agency)'),
    ]);
    const offer = cheapest(search.offers);
    if (!offer) return skipped(`a search of ${product} gave no offer to book`, search);
    const booking = await bookFresh(ctx, owner, product, offer.quoteToken, "the owner's booking (a debit entry)");
    const bookingId = booking.bookingId;
    if (!isSuccess(booking) || bookingId === undefined)
      return skipped(`the owner's booking answered ${booking.status} with no booking id: no entry to look for`, booking);
    // The money goes back beside the reads: the booking's debit entry is there either way, its refund maybe.
    const [cancellation, ownerStatement, otherAfter] = await Promise.all([
      cancelFresh(ctx, owner, product, bookingId, "the owner's cancellation (its money back)"),
      owner.statement({ label: ctx.label("the owner's statement") }),
      snapshotWallet(ctx, other, 'after (other agency)'),
    ]);
    return judgeStatementOfOther(
      {
        bookingId,
        booking,
        cancellation,
        ownerEntries: ownerStatement.entries.filter((e) => e.bookingId === bookingId),
        ownerStatement: ownerStatement.responses.map((r) => r.exchange.id),
        otherBefore,
        otherAfter,
      },
      ctx.profile,
    );
  },
};
