import { performance } from 'node:perf_hooks';
import { splitPathQuery } from '../../protocol/index.js';
import { readRateHeader, type AcClient, type AutocannonSession, type RateHeaders } from './autocannon-session.js';
import type { LoadAgency } from './load-agency.js';
import { requestRecord, unanswered } from '../measure/load-recorder.js';
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
  const method = fixed.method.toUpperCase();
  const agencyId = agency.id;
  const bucket = bucketOf(s.profile, fixed.method, fixed.op === 'search');
  let pending = false;
  let sentAt = 0;
  let t0 = 0;
  let rate: RateHeaders | undefined;
  // One record for every answer of the connection, filled in anew each time: nothing is allocated per request to record it.
  const r = requestRecord({ op, method, agency: agencyId, bucket });
  // Every answer's rate-limit headers are read (their consistency is judged); the first that carries them tells the bucket's start.
  let needReading = true;
  s.flushers.push(() => {
    if (pending) {
      s.recorder.recordCutOff(unanswered({ op, method, agency: agencyId, bucket, sentAt, receivedAt: s.now() + 1 }));
      s.inFlight -= 1;
    }
    pending = false;
  });
  client.getRequestBuffer = () => {
    if (pending) s.recorder.record(unanswered({ op, method, agency: agencyId, bucket, sentAt, receivedAt: s.now() + 1 }));
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
    const refused = status === s.rateLimitedStatus;
    r.sentAt = sentAt;
    r.receivedAt = s.now() + 1;
    r.latencyMs = performance.now() - t0;
    r.status = status;
    r.retryAfterS = refused ? rate?.retryAfterS : undefined;
    r.remaining = refused ? rate?.remaining : undefined;
    s.recorder.record(r);
    s.recorder.headers(r, rate);
    if (needReading && rate && s.recorder.reading(r, rate)) needReading = false;
  });
}
