import { performance } from 'node:perf_hooks';
import { splitPathQuery } from '../../protocol/index.js';
import { noteReading, readRateHeader, type AcClient, type AutocannonSession, type RateHeaders } from './autocannon-session.js';
import type { LoadAgency } from './load-agency.js';
import { UNKNOWN_OUTCOME } from '../measure/load-recorder.js';
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

/** Reads the rate-limit headers from autocannon's raw header list (name, value, name, value …). */
function rawRateHeaders(raw: string[], s: AutocannonSession): RateHeaders {
  const out: RateHeaders = {};
  for (let i = 0; i + 1 < raw.length; i += 2) readRateHeader(out, raw[i]!.toLowerCase(), raw[i + 1], s);
  return out;
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
  let rate: RateHeaders | undefined;
  // Every answer's rate-limit headers are read (their consistency is judged); the first that carries them tells the bucket's start.
  let needReading = true;
  s.flushers.push(() => {
    if (pending) {
      s.recorder.recordCutOff(op, agency.id, bucket, sentAt, s.now() + 1);
      s.inFlight -= 1;
    }
    pending = false;
  });
  client.getRequestBuffer = () => {
    if (pending) s.recorder.record(op, agency.id, bucket, sentAt, s.now() + 1, 0, UNKNOWN_OUTCOME);
    else s.inFlight += 1;
    pending = true;
    sentAt = s.now() - 1;
    t0 = performance.now();
    return template.next();
  };
  client.on('headers', (info) => {
    rate = rawRateHeaders(info.headers, s);
  });
  client.on('response', (status) => {
    if (!pending) return;
    pending = false;
    s.inFlight -= 1;
    const receivedAt = s.now() + 1;
    const refused = status === 429;
    s.recorder.record(
      op,
      agency.id,
      bucket,
      sentAt,
      receivedAt,
      performance.now() - t0,
      status,
      refused ? rate?.retryAfterS : undefined,
      false,
      refused ? rate?.remaining : undefined,
    );
    s.recorder.headers(agency.id, bucket, sentAt, status, rate);
    if (needReading && rate && noteReading(s, agency.id, bucket, sentAt, receivedAt, status, rate)) needReading = false;
  });
}
