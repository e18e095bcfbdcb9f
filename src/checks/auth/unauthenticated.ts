import type { Profile } from '../../profile/index.js';
import { signedHeadersFor } from '../_internal/auth-signing.js';
import { errorMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings } from '../findings.js';
import { uniqueNonce } from '../_internal/flow-steps.js';
import type { Check, CheckOutcome } from '../types.js';

/** One refused request of AU-02 and what was wrong with it. */
export interface RefusalCase {
  what: string;
  res: Answer;
}

/** Judges AU-02: each request with a missing or malformed header, or an unknown key id, answers unauthenticated. */
export function judgeUnauthenticated(cases: readonly RefusalCase[], profile: Profile): CheckOutcome {
  const f = new Findings();
  for (const c of cases) f.check(errorMismatch(c.res, profile.errors.unauthenticated, c.what, profile), c.res);
  const e = profile.errors.unauthenticated;
  return f.outcome(`${cases.length} requests with a missing or malformed header or an unknown key id answered ${e.status} ${e.code}`);
}

/** AU-02: missing or malformed signing headers and unknown key ids are refused as unauthenticated. */
export const unauthenticatedCheck: Check = {
  id: 'AU-02',
  title: 'Missing or malformed signing headers and unknown key ids are unauthenticated',
  area: 'auth',
  clause:
    'SPEC §5: every request carries Authorization, X-SVC-Timestamp, X-SVC-Nonce / REF §3: missing or malformed header, unknown key id → 401 UNAUTHENTICATED',
  needs: [],
  uses: {
    requests: { read: 5, write: 0 },
    // Signed and unsigned requests that are refused or only read: no booking goes through on a correct service.
    touches: ['0:read', '0:write'],
  },
  async run(ctx) {
    const api = ctx.api(0);
    const h = ctx.profile.headers;
    const path = ctx.profile.operations.account.path;
    const method = ctx.profile.operations.account.method;
    // Every request is refused on its own and none depends on another: sent together, in one round trip.
    const sends: Array<Promise<RefusalCase>> = [];
    const send = (what: string, headers: Record<string, string>): void => {
      sends.push(api.raw(method, path, undefined, { label: ctx.label(what), signing: { omit: true }, headers }).then((res) => ({ what, res })));
    };
    send('request without signing headers', {});
    for (const name of [h.authorization, h.timestamp, h.nonce]) {
      const all = signedHeadersFor(ctx, { method, path, nonce: uniqueNonce(ctx) });
      const without = Object.fromEntries(Object.entries(all).filter(([k]) => k !== name.toLowerCase()));
      send(`request without ${name}`, without);
    }
    const good = signedHeadersFor(ctx, { method, path, nonce: uniqueNonce(ctx) });
    send(`request with malformed ${h.authorization}`, { ...good, [h.authorization.toLowerCase()]: 'SVC-HMAC-SHA256 not-a-credential' });
    const good2 = signedHeadersFor(ctx, { method, path, nonce: uniqueNonce(ctx) });
    send(`request with malformed ${h.timestamp}`, { ...good2, [h.timestamp.toLowerCase()]: 'yesterday' });
    const unknownKey = `ak_${ctx.unique('unknown').replace(/[^A-Za-z0-9_]/g, '_')}`;
    sends.push(
      api
        .raw(method, path, undefined, { label: ctx.label('unknown key id'), signing: { keyId: unknownKey } })
        .then((res) => ({ what: `request signed with unknown key id ${unknownKey}`, res })),
    );
    const cases = await Promise.all(sends);
    return judgeUnauthenticated(cases, ctx.profile);
  },
};
