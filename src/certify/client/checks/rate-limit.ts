import { Findings } from '../../../checks/findings.js';
import { isRead } from '../../../mock/http/route-table.js';
import type { ClientCheck } from '../client-check.js';
import { header, isBooking, notExercised, plural, secs } from '../_internal/facts.js';
import type { ObservedRequest } from '../observed.js';

/**
 * How early a retry may arrive and still count as having waited Retry-After,
 * ms: timers may fire a millisecond early, and the service stamps a request
 * when it arrives, not when its 429 left.
 */
const RETRY_AFTER_TOLERANCE_MS = 10;

/**
 * Requests arriving this soon after a 429 are taken to have been in flight
 * already (sent before the client could read the 429), so they are not
 * counted as hammering, ms.
 */
const IN_FLIGHT_GRACE_MS = 50;

/** How many requests sent while a Retry-After was running are tolerated. */
const HAMMERING_TOLERANCE = 0;

function retryAfterMs(r: ObservedRequest): number {
  const v = Number(r.responseHeaders['retry-after']);
  return Number.isFinite(v) && v > 0 ? v * 1000 : 0;
}

/**
 * CC-02: the first booking attempt was answered 429 with Retry-After; the
 * next attempt at the same booking must come at least Retry-After later,
 * with the same Idempotency-Key and the same body bytes.
 */
export const retryAfterCheck: ClientCheck = {
  id: 'CC-02',
  slug: 'retry-after',
  title: 'a booking answered 429: waits Retry-After, retries with the same Idempotency-Key and body',
  area: 'ratelimit',
  clause: 'SPEC §8.5 Retry-After; SPEC §4 idempotency',
  run({ mine: requests }) {
    const i = requests.findIndex((r) => r.injected === 'rate-limited');
    if (i === -1) return notExercised('the client never tried to book, so no booking could be answered 429');
    const limited = requests[i]!;
    const waitMs = retryAfterMs(limited);
    const retry = requests.slice(i + 1).find((r) => isBooking(r) && r.path === limited.path);
    const f = new Findings().see(limited, retry);
    if (!retry) return f.fail(`the booking answered 429 (${limited.method} ${limited.path}) was never retried`).outcome('');
    const waited = retry.atMs - limited.atMs;
    if (waited + RETRY_AFTER_TOLERANCE_MS < waitMs) f.fail(`retried after ${secs(waited)}, before Retry-After (${waitMs / 1000} s) had passed`);
    const key = header(limited, 'idempotency-key');
    const retryKey = header(retry, 'idempotency-key');
    if (key === undefined || retryKey !== key) f.fail(`retried with another Idempotency-Key (${String(key)} then ${String(retryKey)})`);
    if (!retry.body.equals(limited.body)) f.fail('retried with another body');
    const details = {
      retry_after_s: waitMs / 1000,
      waited_ms: waited,
      idempotency_key: key ?? null,
      retry_idempotency_key: retryKey ?? null,
      same_body: retry.body.equals(limited.body),
    };
    return f.outcome(`waited ${secs(waited)} (Retry-After: ${waitMs / 1000}), retried with the same key and the same body`, details);
  },
};

/**
 * CC-03: counts the client's requests of the limited bucket (writes) that
 * arrived while a Retry-After it had been given was still running; more than
 * {@link HAMMERING_TOLERANCE} fails.
 */
export const backoffCheck: ClientCheck = {
  id: 'CC-03',
  slug: 'backoff',
  title: 'backs off when limited: no request while a Retry-After is running',
  area: 'ratelimit',
  clause: 'SPEC §8 limits',
  run({ mine: requests }) {
    const limited = requests.filter((r) => r.status === 429 && retryAfterMs(r) > 0);
    if (limited.length === 0) return notExercised('the client was never answered 429');
    const windows = limited.map((r) => ({ from: r.atMs + IN_FLIGHT_GRACE_MS, to: r.atMs + retryAfterMs(r), id: r.id }));
    const hammering = requests.filter((r) => !isRead(r.method, r.path) && windows.some((w) => r.atMs >= w.from && r.atMs < w.to));
    const details = { answered_429: limited.length, sent_while_limited: hammering.length, tolerance: HAMMERING_TOLERANCE };
    const f = new Findings().see(...limited);
    if (hammering.length > HAMMERING_TOLERANCE) {
      f.fail(
        `${plural(hammering.length, 'write')} sent while a Retry-After was running (tolerance ${HAMMERING_TOLERANCE}); ${plural(limited.length, 'answer')} 429 in all`,
        ...limited.slice(0, 5),
        ...hammering.slice(0, 15),
      );
    }
    return f.outcome(`sent nothing while limited (${plural(limited.length, 'answer')} 429)`, details);
  },
};
