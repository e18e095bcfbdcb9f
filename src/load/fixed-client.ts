import { performance } from 'node:perf_hooks';
import { splitPathQuery } from '../client/split-path-query.js';
import type { AcClient, AutocannonSession } from './autocannon-session.js';
import type { LoadAgency } from './load-agency.js';
import { UNKNOWN_OUTCOME } from './load-recorder.js';
import { bucketOf } from './scenario-requests.js';
import { SignedTemplate } from './signed-template.js';

/** One request repeated by the fast path, re-signed for every send. */
export interface FixedRequest {
  /** Operation name for the figures. */
  op: string;
  method: string;
  /** Relative to the base address, e.g. `/wallet/balance`. */
  path: string;
  body?: string;
}

function rawRetryAfter(raw: string[], name: string): number | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === name) return /^\s*\d+\s*$/.test(raw[i + 1]!) ? Number(raw[i + 1]) : undefined;
  }
  return undefined;
}

/**
 * Makes one autocannon connection send `fixed` as one agency, signed into a
 * template patched in place for every send (the fast path), and record each
 * outcome from the raw response events.
 */
export function setupFixedClient(s: AutocannonSession, client: AcClient, agency: LoadAgency, fixed: FixedRequest): void {
  const split = splitPathQuery(fixed.path);
  const template = new SignedTemplate(
    {
      method: fixed.method,
      path: `${s.basePath}${split.path}`,
      query: split.query,
      body: fixed.body,
      host: s.base.host,
      keyId: agency.keyId,
      secret: agency.secret,
      names: s.names,
      headers: fixed.body ? { 'content-type': 'application/json' } : {},
    },
    s.now,
    s.nonces,
  );
  const { op } = fixed;
  const bucket = bucketOf(s.profile, fixed.method, fixed.op === 'search');
  let pending = false;
  let sentAt = 0;
  let t0 = 0;
  let ra: number | undefined;
  s.flushers.push(() => {
    if (pending) s.recorder.record(op, agency.id, bucket, sentAt, s.now() + 1, 0, UNKNOWN_OUTCOME);
    pending = false;
  });
  client.getRequestBuffer = () => {
    if (pending) s.recorder.record(op, agency.id, bucket, sentAt, s.now() + 1, 0, UNKNOWN_OUTCOME);
    pending = true;
    sentAt = s.now() - 1;
    t0 = performance.now();
    return template.next();
  };
  client.on('headers', (info) => {
    ra = info.statusCode === 429 ? rawRetryAfter(info.headers, s.retryName) : undefined;
  });
  client.on('response', (status) => {
    if (!pending) return;
    pending = false;
    s.recorder.record(op, agency.id, bucket, sentAt, s.now() + 1, performance.now() - t0, status, ra);
  });
}
