import type { Profile } from '../../profile/index.js';
import { RunCacheKey } from '../run-cache.js';
import { checkLabel } from '../check-context.js';
import type { BucketRef, Check, CheckContext, ResourceRef } from '../types.js';
import type { EvidenceRef } from '../findings.js';
import {
  BURST_WIDTH,
  fillFast,
  RL_EDGE_MARGIN_MS,
  rlLimits,
  rlProbes,
  sendConcurrently,
  sendCounted,
  sendMany,
  waitUntil,
  windowMs,
  type RlLimitsUnusable,
  type RlProbes,
} from './rl-probes.js';
import { isRefused, rlHeaders, toShot, type RlShot } from './rl-shot.js';

/** The episode the write-bucket checks of the primary agency share (see {@link Check.episode}). */
export const WRITE_EPISODE = 'ratelimit: one fill of agency 0';

/** The buckets the episode fills (each from an empty window), for each member's `fills`. */
const WRITE_EPISODE_FILLS: BucketRef[] = ['0:read', '0:write'];

/**
 * What the episode touches: agency 0's buckets and wallet (the booking into the
 * full bucket), and one read and one write of agency 1, which must be counted
 * apart (RL-06) but need no empty window.
 */
const WRITE_EPISODE_TOUCHES: ResourceRef[] = ['0:read', '0:write', '0:wallet', '1:read', '1:write'];

/** Target time the episode waits, ms: one window after the fill, then the read burst (real time against a real service). */
function writeEpisodeWaitMs(p: Profile): number {
  return windowMs(p) + 2000;
}

/** What the episode holds through its wait: agency 0's buckets alone (agency 1 and the wallet are done with once the bucket is full). */
const WRITE_EPISODE_WAIT_HOLDS: ResourceRef[] = ['0:read', '0:write'];

/** What every member of the write episode declares: the episode, its buckets and its one wait. */
export const WRITE_EPISODE_MEMBER = {
  episode: WRITE_EPISODE,
  uses: {
    touches: WRITE_EPISODE_TOUCHES,
    fills: WRITE_EPISODE_FILLS,
    // Besides the fills: one read and one write of agency 1.
    requests: 2,
    // Its one booking goes into a full bucket and is refused: any agency's wallet serves it.
    charges: 0,
    wait: { ms: writeEpisodeWaitMs, holds: WRITE_EPISODE_WAIT_HOLDS },
  },
} as const satisfies Partial<Check>;

/** Refused requests sent half a window after the fill (RL-08). */
const REFUSED_EXTRA = 5;

/** How long before `Retry-After` the early request is sent, ms (REFERENCE-API.md section 8: the quarter second covers the time a request takes). */
const RETRY_AFTER_EARLY_MS = 1250;

/** The wallet as read before or after the refused booking. */
export interface WalletView {
  balance: number | undefined;
  /** Number of statement entries and the newest entry's id. */
  entries: number;
  newestEntryId: string | undefined;
  exchangeIds: string[];
}

/** The Retry-After value of a 429 in whole seconds, or a reason it is not usable. */
export function retryAfterSeconds(shot: RlShot, profile: Profile): { seconds: number } | { problem: string } {
  const raw = rlHeaders(shot, profile).raw.retryAfter;
  if (raw === undefined) return { problem: `the ${shot.status} carries no ${profile.headers.retry_after} header` };
  if (!/^\d+$/.test(raw.trim())) return { problem: `${profile.headers.retry_after} is ${JSON.stringify(raw)}, not integer delay-seconds` };
  const seconds = Number(raw.trim());
  if (seconds < 1) return { problem: `${profile.headers.retry_after} is ${seconds}, it must be at least 1` };
  return { seconds };
}

/** The problem with a Retry-After longer than the window, or undefined: a slot always frees within one window, so such a wait is never made. */
export function retryAfterBeyondWindow(seconds: number, profile: Profile): string | undefined {
  const w = profile.limits.window_s;
  return Number.isFinite(seconds) && seconds <= w
    ? undefined
    : `${profile.headers.retry_after} of ${seconds} s is longer than the window of ${w} s (a slot frees within one window)`;
}

/**
 * What one fill of agency 0's write bucket showed, in the order it was made.
 * The verdicts that can use one fill judge it together: exact limit (RL-01),
 * no charge on a 429 (RL-02), Retry-After on both sides (RL-03), each bucket
 * apart (RL-05), agencies apart (RL-06), header consistency (RL-07), refusals
 * not counted (RL-08). RL-04 (rolling window) needs its requests spread over
 * a window from an empty one, which a burst fill cannot give: it stays alone.
 */
interface WriteEpisode {
  limits: { read: number; write: number };
  /** The limits read (when one was made) and three more reads, one after the other, from an empty read window (RL-07). */
  headerReads: RlShot[];
  /** What RL-02 needs besides the fill, or why it could not be set up. */
  booking: { before: WalletView; booking: RlShot; after: WalletView } | { error: string; refs: EvidenceRef[] };
  /** Writes one after the other from an empty window until the first refusal (each response's counters follow the one before). */
  fill: RlShot[];
  /** Target time the fill's last answer arrived. */
  filledAt: number;
  /** A read of agency 0 while its write bucket is full (RL-05). */
  readCross: RlShot;
  /** A write and a read of agency 1 while agency 0's write bucket is full (RL-06), when there is a second agency. */
  other: { write: RlShot; read: RlShot } | undefined;
  /** Writes half a window after the fill, while the bucket is still full (RL-08). */
  midWindow: RlShot[];
  /** Sent `Retry-After − 1.25 s` and `Retry-After` after the 429 arrived (RL-03); absent when the 429 gave no usable Retry-After within the window. */
  early?: RlShot | undefined;
  onTime?: RlShot | undefined;
  /** Reads sent at once from an empty read window, one window after the last read above (RL-01, RL-05). */
  readBurst: RlShot[];
  /** A write while the read bucket is full (RL-05). */
  writeCross: RlShot;
  /** Writes one window after the fill, until refused (RL-08). */
  after: RlShot[];
  /** Writes admitted since the fill (before `after`): each counts against `after` until a window after it. */
  stillCounted: RlShot[];
}

/** An episode that could not start: the limits are unknown, or over the fill ceiling. */
type WriteEpisodeError = RlLimitsUnusable;

const KEY = new RunCacheKey<Promise<WriteEpisode | WriteEpisodeError>>(WRITE_EPISODE);

/** The run's write episode: made by the first member that asks, shared by the rest. */
export function writeEpisode(ctx: CheckContext): Promise<WriteEpisode | WriteEpisodeError> {
  return ctx.runCache.getOrCreate(KEY, () => runWriteEpisode(ctx));
}

/**
 * The check whose verdict the episode's booking and wallet reads are made for:
 * they carry its id whichever member ran the episode, so RL-02's evidence is
 * not labelled `RL-01 …` when RL-01 ran first.
 */
const BOOKING_JUDGE = 'RL-02';

function bookingLabel(text: string): string {
  return checkLabel(BOOKING_JUDGE, text);
}

async function walletView(ctx: CheckContext, when: string): Promise<WalletView> {
  const api = ctx.api(0);
  const [bal, st] = await Promise.all([api.balance({ label: bookingLabel(`balance ${when}`) }), api.statement({ label: bookingLabel(`statement ${when}`) })]);
  return {
    balance: bal.status >= 200 && bal.status < 300 ? bal.amount : undefined,
    entries: st.entries.length,
    newestEntryId: st.entries[0]?.id,
    exchangeIds: [bal.exchange.id, ...st.responses.map((r) => r.exchange.id)],
  };
}

/** Finds an open product and a quote to book into the full bucket, and reads the wallet before. */
async function prepareBooking(ctx: CheckContext): Promise<{ book: () => Promise<RlShot>; before: WalletView } | { error: string; refs: EvidenceRef[] }> {
  const api = ctx.api(0);
  const { open, response } = await api.openProducts({ label: bookingLabel('find an open product') });
  const product = open.find((p) => ctx.profile.search_criteria[p] !== undefined);
  if (!product) return { error: 'no open product with search criteria in the profile', refs: [response] };
  const search = await api.search(product, undefined, { label: bookingLabel('quote to book into a full bucket') });
  const offer = search.offers[0];
  if (!offer) return { error: `search for ${product} answered ${search.status} with no offer`, refs: [search] };
  const before = await walletView(ctx, 'before');
  const book = async (): Promise<RlShot> => {
    const res = await api.book(product, offer.quoteToken, ctx.unique('rl02-idem'), { label: bookingLabel('book while the write bucket is full') });
    return toShot(res, ctx.profile, 0, 'write', 'booking');
  };
  return { book, before };
}

/** Runs the steps due at their target instants, in time order (each step's instant is known when the schedule is made). */
async function atInstants(ctx: CheckContext, steps: Array<{ at: number; run: () => Promise<void> }>): Promise<void> {
  for (const step of [...steps].sort((a, b) => a.at - b.at)) {
    await waitUntil(ctx, step.at);
    await step.run();
  }
}

async function runWriteEpisode(ctx: CheckContext): Promise<WriteEpisode | WriteEpisodeError> {
  const limits = await rlLimits(ctx, 0);
  if ('error' in limits) return limits;
  const W = windowMs(ctx.profile);
  const probes: RlProbes = rlProbes(ctx, 0);
  // Reads first, while the read window is empty: the limits read is the first of RL-07's read sequence.
  const headerReads = [...limits.shots, ...(await sendMany(probes, 'read', 3, 'reads'))];
  // The booking is found with reads while the write bucket fills: neither moves the other's counters.
  const [prepared, fill] = await Promise.all([prepareBooking(ctx), fillFast(probes, 'write', limits.write + 2, 'fill', ctx.profile)]);
  const filledAt = ctx.clock.now();
  const refusal = fill[fill.length - 1];

  // While the write bucket is full: the booking, the other bucket, the other agency. None is counted in agency 0's writes.
  const whileFullSteps = async () => {
    const other = ctx.agencies.length > 1 ? rlProbes(ctx, 1) : undefined;
    const [booked, readCross, otherWrite, otherRead] = await Promise.all([
      'book' in prepared ? prepared.book() : undefined,
      probes.read('read while writes are full'),
      other?.write('agency 1 write'),
      other?.read('agency 1 read'),
    ]);
    const after = 'book' in prepared ? await walletView(ctx, 'after') : undefined;
    // The last read of agency 0 before the read burst: the read window is empty one window after it.
    const lastRead = ctx.clock.now();
    // Agency 1 and the wallet are done with: other checks may use them through the wait.
    ctx.narrowLease?.(WRITE_EPISODE_WAIT_HOLDS);
    return { booked, readCross, other: otherWrite && otherRead ? { write: otherWrite, read: otherRead } : undefined, after, lastRead };
  };

  // The probes due at instants after the fill; in real time alongside, so that a short window does not make them late.
  const midWindow: RlShot[] = [];
  let early: RlShot | undefined;
  let onTime: RlShot | undefined;
  const due: Array<{ at: number; run: () => Promise<void> }> = [
    { at: filledAt + W / 2, run: async () => void midWindow.push(...(await sendConcurrently(probes, 'write', REFUSED_EXTRA, 'refused mid-window'))) },
  ];
  const ra = refusal && isRefused(refusal, ctx.profile) ? retryAfterSeconds(refusal, ctx.profile) : undefined;
  // A Retry-After beyond the window is judged wrong as it stands, never waited for.
  if (ra && 'seconds' in ra && retryAfterBeyondWindow(ra.seconds, ctx.profile) === undefined) {
    // Requests answered 429 are not counted, so the early probe does not move the instant the slot frees.
    due.push({ at: filledAt + ra.seconds * 1000 - RETRY_AFTER_EARLY_MS, run: async () => void (early = await probes.write('early')) });
    due.push({ at: filledAt + ra.seconds * 1000, run: async () => void (onTime = await probes.write('on time')) });
  }
  // A driven clock could jump past the slot's instant before the booking arrives: there, one after the other.
  const seen = ctx.clock.kind === 'real' ? (await Promise.all([whileFullSteps(), atInstants(ctx, due)]))[0] : await whileFullSteps();
  if (ctx.clock.kind !== 'real') await atInstants(ctx, due);

  // One window after every read above, the read window is empty again: a burst from it (RL-01), then a write while it is full (RL-05).
  await waitUntil(ctx, Math.max(seen.lastRead, filledAt) + W + RL_EDGE_MARGIN_MS);
  const readBurst = await sendConcurrently(probes, 'read', limits.read + 2, 'burst', BURST_WIDTH);
  const writeCross = await probes.write('write while reads are full');
  // The fill's admissions left the window by now; those made since count until a window after each (RL-08 judges when).
  await waitUntil(ctx, filledAt + W + RL_EDGE_MARGIN_MS);
  const stillCounted = [early, onTime, writeCross, ...midWindow].filter((s): s is RlShot => s !== undefined && !isRefused(s, ctx.profile));
  const after = await sendCounted(probes, 'write', limits.write + 1, 'after the window', ctx.profile);

  return {
    limits: { read: limits.read, write: limits.write },
    headerReads,
    booking: 'book' in prepared ? { before: prepared.before, booking: seen.booked!, after: seen.after! } : prepared,
    fill,
    filledAt,
    readCross: seen.readCross,
    other: seen.other,
    midWindow,
    early,
    onTime,
    readBurst,
    writeCross,
    after,
    stillCounted,
  };
}
