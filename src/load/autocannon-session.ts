import type { SigningHeaderNames } from '../client/signer.js';
import type { Profile } from '../profile/types.js';
import { UNKNOWN_OUTCOME, type LoadRecorder } from './load-recorder.js';
import type { LoadStep } from './scenario-requests.js';
import { NoncePool } from './signed-template.js';
import type { WalletTally } from './wallet-reconciliation.js';

/* The parts of autocannon's Client the load drives (lib/httpClient.js, lib/requestIterator.js). */
export interface AcClient {
  getRequestBuffer: () => Buffer;
  on(event: 'headers', fn: (info: { statusCode: number; headers: string[] }) => void): void;
  on(event: 'response', fn: (status: number) => void): void;
  requestIterator: { setRequests(requests: unknown[]): void };
}

/** A request sent and not yet answered. */
export interface InFlight {
  op: string;
  bucket: string;
  effect: LoadStep['effect'];
  sentAt: number;
  t0: number;
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
    nonces: new NoncePool(),
    recorder,
    wallet,
    now,
    flushers: [],
  };
}

/** Records a request whose outcome is unknown (cut off, or overtaken): it may have been executed, booking included. */
export function recordUnknown(s: AutocannonSession, agency: string, f: InFlight): void {
  s.recorder.record(f.op, agency, f.bucket, f.sentAt, s.now() + 1, 0, UNKNOWN_OUTCOME);
  if (f.effect === 'book' || f.effect === 'cancel') s.wallet.booking(agency, UNKNOWN_OUTCOME);
}
