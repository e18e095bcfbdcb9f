import type { Offer, StatementEntry, TargetApi } from '../../api/types.js';
import type { Profile } from '../../profile/index.js';
import type { Check, CheckContext, CheckOutcome } from '../types.js';
import { skipped, type Findings } from '../findings.js';
import { cheapest, productsToSearch, searchProduct, snapshotWallet, type WalletSnapshot } from './flow-steps.js';
import { entriesFor, entriesSince, netEffect } from './wallet-ledger.js';

/** Both agencies' wallets at one moment: the owner's (role 0), then the other agency's (role 1). */
export type BothWallets = readonly [WalletSnapshot, WalletSnapshot];

/**
 * What every isolation check declares: they run as one episode, back to back
 * under one lease of two agencies (no reset between them where the target is
 * reset before each unit), each making its own requests; the episode holds
 * both agencies' buckets, wallets, webhook endpoints and hotel accounts, sends
 * at most `requests` to one bucket in all, pays for one booking at a time
 * (each is cancelled before the next), and waits only to watch that
 * webhook events stay with their agency (IS-06, 2 s in real time: too short
 * to declare, see below).
 */
export const ISOLATION_EPISODE = {
  episode: 'isolation',
  uses: {
    touches: ['0:read', '0:write', '0:wallet', '0:webhook', '0:hotel', '1:read', '1:write', '1:wallet', '1:webhook', '1:hotel'],
    requests: { read: 24, write: 13 },
    charges: 1,
    // No declared wait: IS-06 watches for a stray event for 2 s of real time, about a round trip's share of the
    // episode. Declared, it made the episode a long unit, and the plan kept on the agencies they played with
    // (src/runner/estimate-run.ts) put the rate-limit fills a window later: 190 to 205 s planned instead of 156 to 162 s.
  },
} as const satisfies Pick<Check, 'episode' | 'uses'>;

/** Who is who in an isolation check's messages. */
const OWNER = 'the owner';
export const OTHER = 'the other agency';

/** The id of agency `index` as the check sees it, for messages. */
export function agencyName(ctx: CheckContext, index: number): string {
  return ctx.agencies[index]?.id ?? `agency #${index}`;
}

/**
 * The first product both agencies may search and book (another agency's
 * booking id is tried under a product its own contract opens, so that a
 * refusal can only be about whose the id is), or a SKIP naming why none is.
 */
export async function sharedProduct(ctx: CheckContext): Promise<string | CheckOutcome> {
  const [mine, theirs] = await Promise.all([productsToSearch(ctx, 0), productsToSearch(ctx, 1)]);
  const shared = mine.find((p) => theirs.includes(p));
  if (shared !== undefined) return shared;
  return skipped(
    `no product is open to both ${agencyName(ctx, 0)} (${mine.join(', ') || 'none'}) and ${agencyName(ctx, 1)} (${theirs.join(', ') || 'none'}) with search criteria in the profile`,
  );
}

/** Where an isolation check that tries the owner's offer starts: a product both may book, the owner's offer in it, both wallets before. */
interface OwnerOffer {
  product: string;
  owner: TargetApi;
  other: TargetApi;
  offer: Offer;
  before: BothWallets;
}

/**
 * The owner searches the first product both agencies may book while both
 * wallets are read, and takes its cheapest offer; or a SKIP naming why there
 * is none.
 */
export async function ownerOffer(ctx: CheckContext): Promise<OwnerOffer | CheckOutcome> {
  const product = await sharedProduct(ctx);
  if (typeof product !== 'string') return product;
  const [owner, other] = [ctx.api(0), ctx.api(1)];
  const [search, before] = await Promise.all([searchProduct(ctx, owner, product, `search ${product}`), bothWallets(ctx, 'before')]);
  const offer = cheapest(search.offers);
  if (!offer) return skipped(`a search of ${product} gave no offer to book`, search);
  return { product, owner, other, offer, before };
}

/** Both agencies' wallets, read at once; `label` (e.g. `before`) is prefixed with the check's id. */
export function bothWallets(ctx: CheckContext, label: string): Promise<BothWallets> {
  return Promise.all([snapshotWallet(ctx, ctx.api(0), `${label} (owner)`), snapshotWallet(ctx, ctx.api(1), `${label} (other agency)`)]);
}

function entryName(e: StatementEntry): string {
  return `${e.id ?? '(no entry id)'} (${String(e.type)} ${String(e.amount)} for booking ${e.bookingId ?? 'none'})`;
}

/** A booking an agency made and paid for within a check: debited once at `amount`, and refunded once when `refunded`. */
export interface OwnBooking {
  bookingId: string;
  amount: number | undefined;
  refunded: boolean;
}

/**
 * Judges one wallet between two snapshots: the balance moved by exactly what
 * the new entries say, every new entry belongs to one of `own` (the bookings
 * this agency made in the check), each of those debited once and refunded
 * once when it was cancelled, at its price; with `own` empty, nothing may
 * have moved at all. A refund of another agency's booking landing here, or a
 * charge for a refused request, is an entry of no own booking.
 */
export function judgeOwnEntriesOnly(
  f: Findings,
  before: WalletSnapshot,
  after: WalletSnapshot,
  own: readonly OwnBooking[],
  who: string,
  profile: Profile,
): void {
  const ev = [...before.evidence, ...after.evidence];
  if (before.balance === undefined || after.balance === undefined) {
    f.fail(`${who}'s wallet balance could not be read (balance answered ${before.balanceStatus}/${after.balanceStatus})`, ...ev);
    return;
  }
  const fresh = entriesSince(after.entries, before.newestId);
  const delta = after.balance - before.balance;
  const ids = own.map((b) => b.bookingId);
  const foreign = fresh.filter((e) => e.bookingId === undefined || !ids.includes(e.bookingId));
  f.expect(
    foreign.length === 0,
    `${who}'s statement gained ${foreign.length} entr${foreign.length === 1 ? 'y' : 'ies'} of no booking of its own: ${foreign.map(entryName).join(', ')}`,
    ...ev,
  );
  const net = netEffect(fresh, profile);
  f.expect(delta === net, `${who}'s balance moved by ${delta} but its ${fresh.length} new statement entries add up to ${net}`, ...ev);
  if (own.length === 0) f.expect(delta === 0, `${who}'s balance moved by ${delta}, expected no movement at all`, ...ev);
  for (const b of own) {
    const expected: Array<[string, number, string]> = [
      [profile.values.entry_debit, 1, 'debited'],
      [profile.values.entry_refund, b.refunded ? 1 : 0, 'refunded'],
    ];
    for (const [type, times, verb] of expected) {
      const hits = entriesFor(fresh, b.bookingId, type);
      if (hits.length !== times) f.fail(`${who}'s booking ${b.bookingId} was ${verb} ${hits.length} times, expected ${times}`, ...ev);
      else if (times === 1 && b.amount !== undefined && hits[0]!.amount !== b.amount)
        f.fail(`${who}'s booking ${b.bookingId} was ${verb} ${String(hits[0]!.amount)}, expected ${b.amount}`, ...ev);
    }
  }
}

/** Judges both wallets with {@link judgeOwnEntriesOnly}: the owner's own bookings `ownerOwn`, the other agency's `otherOwn`. */
export function judgeBothWallets(
  f: Findings,
  before: BothWallets,
  after: BothWallets,
  ownerOwn: readonly OwnBooking[],
  otherOwn: readonly OwnBooking[],
  profile: Profile,
): void {
  judgeOwnEntriesOnly(f, before[0], after[0], ownerOwn, OWNER, profile);
  judgeOwnEntriesOnly(f, before[1], after[1], otherOwn, OTHER, profile);
}

/** `<what> answered with a body naming <id> (the owner's <kind>)`, or undefined when the answer's body does not contain `id`. */
export function leaks(text: string, id: string, what: string, kind: string): string | undefined {
  return text.includes(id) ? `${what} answered with a body naming ${id}, the owner's ${kind}` : undefined;
}
