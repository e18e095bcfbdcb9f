import type { SigningHeaderNames } from '../../protocol/index.js';
import type { Profile } from '../../profile/index.js';
import { UNKNOWN_OUTCOME, unanswered, type LoadRecorder } from '../measure/load-recorder.js';
import type { LoadStep } from './scenario-requests.js';
import { NoncePool } from './signed-template.js';
import type { WalletTally } from '../judge/wallet-reconciliation.js';

/* The parts of autocannon's Client the load drives (lib/httpClient.js, lib/requestIterator.js). */
export interface AcClient {
  getRequestBuffer: () => Buffer;
  on(event: 'headers', fn: (info: { statusCode: number; headers: string[] }) => void): void;
  on(event: 'response', fn: (status: number) => void): void;
  requestIterator: { setRequests(requests: unknown[]): void };
  /**
   * autocannon's per-second request budget of this connection and what it
   * used of it, read before every write: a budget set after the start, with
   * its use at infinity, pauses the connection for good (nothing more is
   * written, what is in flight still completes; no timer refills it, since
   * none was started without a budget).
   */
  rate?: number | undefined;
  reqsMadeThisSecond?: number | undefined;
}

/** A request sent and not yet answered. */
export interface InFlight {
  op: string;
  /** HTTP method, upper case. */
  method: string;
  bucket: string;
  effect: LoadStep['effect'];
  sentAt: number;
  t0: number;
  /** The price a booking reserved of its wallet while in flight. */
  reserved?: number | undefined;
  /** The quote a booking redeems. */
  quote?: string | undefined;
  /** A booking sent as a search, since it would have overdrawn its wallet. */
  replaced?: boolean | undefined;
}

/** What every connection of one autocannon run shares: where it sends, how it signs, where outcomes go. */
export interface AutocannonSession {
  profile: Profile;
  base: URL;
  /** The base address's path without its trailing slash, prefixed to every request path. */
  basePath: string;
  names: SigningHeaderNames;
  /** The Retry-After header name, lower-case. */
  retryName: string;
  /** The X-RateLimit-Limit and X-RateLimit-Remaining header names, lower-case. */
  limitName: string;
  remainingName: string;
  /** The status of a rate-limit refusal (the profile's). */
  rateLimitedStatus: number;
  /** Requests written and not yet answered, over every connection (the stop waits for them). */
  inFlight: number;
  nonces: NoncePool;
  recorder: LoadRecorder;
  wallet: WalletTally;
  /** Target clock, ms since epoch. */
  now: () => number;
  /** Run once autocannon stops: each records what its connection still had in flight. */
  flushers: Array<() => void>;
}

/** A session over the profile's base address and header names. */
export function createSession(profile: Profile, recorder: LoadRecorder, wallet: WalletTally, now: () => number): AutocannonSession {
  const base = new URL(profile.base_url);
  return {
    profile,
    base,
    basePath: base.pathname.replace(/\/$/, ''),
    names: { authorization: profile.headers.authorization, timestamp: profile.headers.timestamp, nonce: profile.headers.nonce },
    retryName: profile.headers.retry_after.toLowerCase(),
    limitName: profile.headers.ratelimit_limit.toLowerCase(),
    remainingName: profile.headers.ratelimit_remaining.toLowerCase(),
    rateLimitedStatus: profile.errors.rate_limited.status,
    inFlight: 0,
    nonces: new NoncePool(),
    recorder,
    wallet,
    now,
    flushers: [],
  };
}

/** Records a request whose outcome is unknown (overtaken by a timeout, or `cutOff` at the stop): it may have been executed, booking included. */
export function recordUnknown(s: AutocannonSession, agency: string, f: InFlight, cutOff = false): void {
  const r = unanswered({ op: f.op, method: f.method, agency, bucket: f.bucket, sentAt: f.sentAt, receivedAt: s.now() + 1 });
  if (cutOff) s.recorder.recordCutOff(r);
  else s.recorder.record(r);
  s.wallet.spending.release(agency, f.reserved);
  if (f.effect === 'book' || f.effect === 'cancel') s.wallet.booking(agency, UNKNOWN_OUTCOME);
}

/** The rate-limit headers of one answer that the load reads: Retry-After, limit and remaining (undefined when absent or malformed). */
export interface RateHeaders {
  retryAfterS?: number | undefined;
  limit?: number | undefined;
  remaining?: number | undefined;
}

const INTEGER = /^\s*\d+\s*$/;

/** Adds one response header to `out` when it is one of the rate-limit headers the load reads (`name` lower-case). */
export function readRateHeader(out: RateHeaders, name: string, value: string | undefined, s: AutocannonSession): void {
  if (name !== s.retryName && name !== s.limitName && name !== s.remainingName) return;
  const n = value !== undefined && INTEGER.test(value) ? Number(value) : undefined;
  if (name === s.retryName) out.retryAfterS = n;
  else if (name === s.limitName) out.limit = n;
  else out.remaining = n;
}
