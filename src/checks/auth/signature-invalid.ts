import type { Profile } from '../../profile/index.js';
import { signedHeadersFor } from '../_internal/auth-signing.js';
import { errorMismatch } from '../_internal/expect-error.js';
import { Findings } from '../findings.js';
import { productsToSearch, uniqueNonce } from '../_internal/flow-steps.js';
import type { Check, CheckOutcome } from '../types.js';
import type { RefusalCase } from './unauthenticated.js';

/** Judges AU-03: every request whose signature does not match answers signature_invalid. */
export function judgeSignatureInvalid(cases: readonly RefusalCase[], profile: Profile): CheckOutcome {
  const f = new Findings();
  for (const c of cases) f.check(errorMismatch(c.res, profile.errors.signature_invalid, c.what, profile), c.res);
  const e = profile.errors.signature_invalid;
  return f.outcome(`${cases.length} requests with a signature that does not match answered ${e.status} ${e.code}`);
}

/** AU-03: a signature that does not match what was sent is refused. */
export const signatureInvalidCheck: Check = {
  id: 'AU-03',
  title: 'A signature that does not match the request is refused',
  area: 'auth',
  clause: 'SPEC §5: requests are signed with SVC-HMAC-SHA256 / REF §3: signature does not match → 401 SIGNATURE_INVALID',
  needs: [],
  uses: {
    requests: { read: 5, write: 0 },
    // Signed and unsigned requests that are refused or only read: no booking goes through on a correct service.
    touches: ['0:read', '0:write'],
  },
  async run(ctx) {
    const api = ctx.api(0);
    const agency = ctx.agencies[0]!;
    const ops = ctx.profile.operations;
    const cases: RefusalCase[] = [];
    const otherSecret = `${agency.secret}-not-the-secret`;
    const forged = await api.account({ label: ctx.label('signed with another secret'), signing: { secret: otherSecret } });
    cases.push({ what: 'account request signed with another secret', res: forged });

    // The query is part of the string to sign: a query changed after signing must not verify.
    const q = ctx.profile.statement_query ?? { limit: 'limit', cursor: 'cursor' };
    const signedQuery = `${encodeURIComponent(q.limit)}=1`;
    const sentQuery = `${encodeURIComponent(q.limit)}=2`;
    const st = ops.wallet_statement;
    const qHeaders = signedHeadersFor(ctx, { method: st.method, path: st.path, query: signedQuery, nonce: uniqueNonce(ctx) });
    const qRes = await api.raw(st.method, st.path, undefined, {
      label: ctx.label('query changed after signing'),
      signing: { omit: true },
      headers: qHeaders,
      query: sentQuery,
    });
    cases.push({ what: 'statement request whose query was changed after signing', res: qRes });

    const products = await productsToSearch(ctx, 0);
    const product = products[0];
    if (product !== undefined) {
      const path = ops.search.path.replace('{product}', encodeURIComponent(product));
      const signedBody = JSON.stringify({ criteria: ctx.profile.search_criteria[product] });
      const sentBody = JSON.stringify({ criteria: { ...ctx.profile.search_criteria[product], tampered: true } });
      const headers = signedHeadersFor(ctx, { method: ops.search.method, path, body: signedBody, nonce: uniqueNonce(ctx) });
      const bRes = await api.raw(ops.search.method, path, sentBody, {
        label: ctx.label('body changed after signing'),
        signing: { omit: true },
        headers: { ...headers, 'content-type': 'application/json' },
      });
      cases.push({ what: 'search whose body was changed after signing', res: bRes });
    }
    return judgeSignatureInvalid(cases, ctx.profile);
  },
};
