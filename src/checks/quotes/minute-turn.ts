/*
 * The target's clock minutes, as QT-03 sees them through one search answer:
 * where the next minute turns on the target's clock, and whether a quote
 * outlives that turn with time left to book it.
 */
import { answeredAt, dateOffsetMs } from '../../api/answer-time.js';
import type { ApiResponse, Offer } from '../../api/types.js';

/** A clock minute, ms. */
const MINUTE_MS = 60_000;

/**
 * Room on either side of a minute's turn, and before a quote's expiry, ms:
 * for the error of the target's time as read from an answer (its `Date`
 * header has whole seconds) and a request's way to the service.
 */
export const TURN_MARGIN_MS = 3_000;

/** Round trips from the search after the turn to the booking's answer: the search, the wallet read before it, the booking. */
const TRIPS_TO_BOOK = 3;

/** Where one search answer puts the target's clock. */
export interface TargetTime {
  /** Target time minus the harness clock, ms (0 where the harness clock is the target's). */
  offsetMs: number;
  /** Target instant the service answered the search, ms. */
  answeredAt: number;
  /** Target instant the answer's quotes expire (the earliest of them), ms. */
  expiresAt: number;
  /** Real time of the search's round trip, ms. */
  roundTripMs: number;
  /** What gave the target's time: the harness clock (driven), the answer's `Date` header, or its `quote_expires_at` less the quote lifetime. */
  source: 'clock' | 'date-header' | 'quote-expiry';
}

/**
 * Reads the target's time off a search answer. Where the harness drives the
 * target's clock (`driven`), its clock is the target's; else the answer's
 * `Date` header says it to the second (the middle of that second is taken),
 * and without one the quote's expiry less the quote lifetime `lifetimeS`.
 */
export function targetTime(search: Pick<ApiResponse, 'headers' | 'exchange'> & { offers: readonly Offer[] }, lifetimeS: number, driven: boolean): TargetTime {
  const localAt = answeredAt(search);
  const expiries = search.offers.map((o) => (o.quoteExpiresAt === undefined ? NaN : Date.parse(o.quoteExpiresAt))).filter((t) => Number.isFinite(t));
  const quoteExpiry = expiries.length > 0 ? Math.min(...expiries) : undefined;
  const dateOffset = dateOffsetMs(search);
  let offsetMs = 0;
  let source: TargetTime['source'] = 'clock';
  if (!driven && dateOffset !== undefined) {
    offsetMs = dateOffset;
    source = 'date-header';
  } else if (!driven && quoteExpiry !== undefined) {
    offsetMs = quoteExpiry - lifetimeS * 1000 - localAt;
    source = 'quote-expiry';
  }
  const at = localAt + offsetMs;
  return { offsetMs, answeredAt: at, expiresAt: quoteExpiry ?? at + lifetimeS * 1000, roundTripMs: Math.max(0, search.exchange.durationMs), source };
}

/** How a quote meets the next minute's turn: search again once it turned, first come close to it and search anew, or no turn fits. */
type TurnPlan =
  /** The quote outlives the turn with time to book it: search again at `searchAt` (target time), no later than `searchBy`. */
  | { kind: 'after-turn'; turn: number; searchAt: number; searchBy: number }
  /** The turn comes too late in the quote's life: search anew at `searchAt`, just before the turn, no later than `searchBy`. */
  | { kind: 'before-turn'; turn: number; searchAt: number; searchBy: number }
  /** A later turn than the first no longer fits the quote's life. */
  | { kind: 'none'; turn: number };

/**
 * The next minute's turn after the quote's search (answered at
 * `t.answeredAt`), or after `lastAt` (target instant of the last search that
 * saw the same prices), and what to do about it. A turn within the margin of
 * the search is passed over: the search may have landed on either side.
 */
export function planTurn(t: TargetTime, lastAt?: number): TurnPlan {
  const from = lastAt ?? t.answeredAt;
  let turn = (Math.floor(from / MINUTE_MS) + 1) * MINUTE_MS;
  if (turn - from < TURN_MARGIN_MS) turn += MINUTE_MS;
  const searchAt = turn + TURN_MARGIN_MS;
  const searchBy = t.expiresAt - TURN_MARGIN_MS - TRIPS_TO_BOOK * t.roundTripMs;
  if (searchAt <= searchBy) return { kind: 'after-turn', turn, searchAt, searchBy };
  if (lastAt !== undefined) return { kind: 'none', turn };
  // Sent then, the search answers two margins before the turn; it must answer a margin before it at the latest.
  const before = turn - 2 * TURN_MARGIN_MS - t.roundTripMs;
  return { kind: 'before-turn', turn, searchAt: before, searchBy: before + TURN_MARGIN_MS };
}

/**
 * Shortest quote lifetime, s, that a search two margins before a turn
 * outlives by the turn's margin and a margin to book before it expires, with
 * 3 s of round trips to spare: shorter quotes cannot show a price move.
 */
export const SHORTEST_TURN_LIFETIME_S = (4 * TURN_MARGIN_MS) / 1000 + 3;

/**
 * Target time QT-03 expects to wait across a minute's turn, ms, for a quote
 * living at least {@link SHORTEST_TURN_LIFETIME_S}: the turn comes anywhere in
 * the minute after its first search, half a minute on average, then a margin.
 * A turn too late in the quote's life costs the same: the wait to a search
 * two margins before it, then three margins across it.
 */
export const EXPECTED_TURN_WAIT_MS = MINUTE_MS / 2 + TURN_MARGIN_MS;

/** Longest single wait QT-03 makes, ms: to a search a margin after a turn up to a minute and a margin away (a turn within the margin is passed over). */
export const LONGEST_TURN_WAIT_MS = MINUTE_MS + 2 * TURN_MARGIN_MS;
