import { buildStringToSign, computeSignature, parseAuthorization, splitPathQuery } from '../../../protocol/index.js';
import { Findings, skipped } from '../../../checks/findings.js';
import type { ClientCheck, SigningKey } from '../client-check.js';
import { header, plural } from '../_internal/facts.js';
import type { ObservedRequest } from '../observed.js';

/** Timestamp tolerance of the service, s (REFERENCE-API.md section 3). */
const SIGNING_TOLERANCE_S = 300;

const NONCE_RE = /^[A-Za-z0-9_-]{16,64}$/;

/** Why one request's signing is wrong, or undefined when it is right. */
function problemOf(r: ObservedRequest, key: SigningKey, seen: Set<string>): string | undefined {
  const auth = parseAuthorization(header(r, 'authorization'));
  if (!auth) return 'no SVC-HMAC-SHA256 Authorization header';
  if (auth.keyId !== key.keyId) return `signed with key id ${auth.keyId}, not ${key.keyId}`;
  const ts = header(r, 'x-svc-timestamp');
  const nonce = header(r, 'x-svc-nonce');
  if (ts === undefined || !/^\d{1,15}$/.test(ts)) return 'X-SVC-Timestamp missing or not integer Unix seconds';
  if (nonce === undefined || !NONCE_RE.test(nonce)) return 'X-SVC-Nonce missing or not 16 to 64 characters of [A-Za-z0-9_-]';
  const expected = computeSignature(
    key.secret,
    buildStringToSign({ method: r.method, path: r.path, query: splitPathQuery(r.url).query, body: r.body, timestamp: Number(ts), nonce }),
  );
  if (expected !== auth.signature) return 'signature does not match the request';
  const skew = Math.abs(r.atMs / 1000 - Number(ts));
  if (skew > SIGNING_TOLERANCE_S) return `timestamp ${Math.round(skew)} s away from the service clock (tolerance ${SIGNING_TOLERANCE_S} s)`;
  if (seen.has(nonce)) return `nonce ${nonce} used before`;
  seen.add(nonce);
  return undefined;
}

/**
 * CC-01: recomputes, independently of the service's own judgement, the
 * signature of every request the client sent, and checks its timestamp
 * against the service clock and its nonce against every earlier one.
 */
export const signingCheck: ClientCheck = {
  id: 'CC-01',
  slug: 'signing',
  title: 'every request correctly signed, a fresh nonce each time, timestamp within tolerance',
  area: 'auth',
  clause: 'SPEC §5 SVC-HMAC-SHA256',
  run({ requests, key }) {
    if (requests.length === 0) return skipped('not exercised: the client sent no request');
    const seen = new Set<string>();
    const bad: Array<{ id: string; request: string; problem: string }> = [];
    let maxSkew = 0;
    for (const r of requests) {
      const problem = problemOf(r, key, seen);
      if (problem) bad.push({ id: r.id, request: `${r.method} ${r.url}`, problem });
      const ts = Number(header(r, 'x-svc-timestamp'));
      if (Number.isFinite(ts)) maxSkew = Math.max(maxSkew, Math.abs(r.atMs / 1000 - ts));
    }
    const details = { requests: requests.length, distinct_nonces: seen.size, max_timestamp_skew_s: Math.round(maxSkew * 10) / 10, problems: bad.slice(0, 50) };
    const f = new Findings().see(...requests.slice(0, 3));
    if (bad.length > 0) {
      const first = bad[0]!;
      f.fail(
        `${plural(bad.length, 'request')} of ${requests.length} wrongly signed; first: ${first.request}: ${first.problem}`,
        ...bad.slice(0, 20).map((b) => b.id),
      );
    }
    return f.outcome(
      `all ${plural(requests.length, 'request')} correctly signed, each with a fresh nonce, largest timestamp skew ${details.max_timestamp_skew_s} s`,
      details,
    );
  },
};
