import { dateOffsetMs, quoteLifetimeS } from '../api/answer-time.js';
import { getNumber } from '../api/fields.js';
import type { ApiResponse, TargetApi } from '../api/types.js';
import { isHarnessError } from '../errors/harness-error.js';
import type { Profile, ResolvedAgency } from '../profile/index.js';

/** What the runner read of one agency at the start of a run. */
export interface AgencyFacts {
  index: number;
  id: string;
  /** Products open and closed for it, or why they are unknown. */
  products: { open: string[]; closed: string[] } | { error: string };
  /** Its rate limits: from the profile, else from its account. */
  limits?: { read: number; write: number } | undefined;
  /** Wallet balance at the start, when read. */
  balance?: number | undefined;
  /** Highest offer price of one search, when one was made: a booking check needs a wallet well above it. */
  offerPrice?: number | undefined;
  /** Quote lifetime the service answered, s (`quote_expires_at` minus the time of the answer). */
  quoteLifetimeS?: number | undefined;
  /** The target's clock minus the harness clock, ms, from the `Date` of its search answer (the middle of that second). */
  clockOffsetMs?: number | undefined;
  /** Its read bucket as the target's last answer to these reads counted it (a 429 leaves no room); absent when no answer said. */
  readRoom?: { limit: number; remaining: number } | undefined;
}

/** The room an answer says its bucket has left, from the rate-limit headers the client parsed; a 429 has none. */
export function roomOf(res: Pick<ApiResponse, 'status' | 'rateLimit'>, profile: Readonly<Profile>, known?: number): AgencyFacts['readRoom'] {
  const limit = res.rateLimit.limit ?? known;
  if (limit === undefined) return undefined;
  if (res.status === profile.errors.rate_limited.status) return { limit, remaining: 0 };
  const remaining = res.rateLimit.remaining;
  return remaining === undefined ? undefined : { limit, remaining: Math.min(remaining, limit) };
}

/** What to read of each agency. */
export interface FactsWanted {
  products: boolean;
  /** Balance and one search (price, quote lifetime). */
  wallet: boolean;
}

function message(err: unknown): string {
  return isHarnessError(err) || err instanceof Error ? err.message : String(err);
}

/** Reads one agency's facts: account (products, limits), and when wanted its balance and one search. */
export async function readAgencyFacts(
  api: TargetApi,
  agency: ResolvedAgency,
  index: number,
  profile: Readonly<Profile>,
  wanted: FactsWanted,
  now: () => number,
): Promise<AgencyFacts> {
  const facts: AgencyFacts = { index, id: agency.id, products: { error: 'not read (no selected check needs it)' } };
  const given = agency.limits ?? profile.agencies[index]?.limits;
  if (given) facts.limits = { read: given.read, write: given.write };
  if (!wanted.products && !wanted.wallet) return facts;
  try {
    const { open, closed, response } = await api.openProducts({ label: `runner: which products are open for ${agency.id}` });
    facts.readRoom = roomOf(response, profile, facts.limits?.read);
    facts.products = response.status >= 200 && response.status < 300 ? { open, closed } : { error: `the account answered ${response.status}` };
    const read = getNumber(response.json, profile.fields.account_read_limit);
    const write = getNumber(response.json, profile.fields.account_write_limit);
    if (!facts.limits && read !== undefined && write !== undefined && read > 0 && write > 0) facts.limits = { read, write };
  } catch (err) {
    facts.products = { error: message(err) };
    return facts;
  }
  if (!wanted.wallet || 'error' in facts.products) return facts;
  try {
    const bal = await api.balance({ label: `runner: wallet balance of ${agency.id}` });
    facts.balance = bal.amount;
    facts.readRoom = roomOf(bal, profile, facts.limits?.read) ?? facts.readRoom;
    const product = facts.products.open.find((p) => profile.search_criteria[p] !== undefined);
    if (product !== undefined) {
      const search = await api.search(product, profile.search_criteria[product], { label: `runner: a quote for ${agency.id} (offer prices, quote lifetime)` });
      const prices = search.offers.map((o) => o.priceAmount).filter((p): p is number => typeof p === 'number');
      if (prices.length > 0) facts.offerPrice = Math.max(...prices);
      const lifetimes = search.offers.map((o) => quoteLifetimeS(o.quoteExpiresAt, search, now())).filter((s): s is number => s !== undefined);
      if (lifetimes.length > 0) facts.quoteLifetimeS = Math.min(...lifetimes);
      facts.clockOffsetMs = dateOffsetMs(search);
    }
  } catch {
    // Balance and price only steer agency binding; an agency without them is simply not chosen for bookings.
  }
  return facts;
}
