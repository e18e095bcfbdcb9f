import { signRequest } from '../../../protocol/index.js';
import { Findings } from '../../../checks/findings.js';
import { describe, isError, isOk } from '../_internal/answers.js';
import type { PlanCheck } from '../plan-types.js';

function absolutePath(baseUrl: string, relative: string): string {
  const base = new URL(baseUrl).pathname.replace(/\/+$/, '');
  return base + (relative.startsWith('/') ? relative : `/${relative}`);
}

/** CERT-01: a correctly signed request is accepted, and one changed after signing (or signed with another secret) is refused. */
export const signingCheck: PlanCheck = {
  id: 'CERT-01',
  area: 'auth',
  title: 'Signed requests are accepted; tampered ones are refused',
  clause: 'SPEC §5 SVC-HMAC-SHA256 on every request',
  required: true,
  async run(ctx) {
    const { profile, api, agency } = ctx;
    const f = new Findings();
    const ok = await api.account({ label: ctx.label('signed request') });
    f.expect(isOk(ok), `a correctly signed GET of the account answered ${describe(ok, profile)}, expected 2xx`, ok);

    const expected = profile.errors.signature_invalid;
    const product = (await ctx.products()).open.find((p) => profile.search_criteria[p] !== undefined) ?? profile.products[0]!;
    const op = profile.operations.search;
    const path = op.path.replace('{product}', encodeURIComponent(product));
    const criteria = profile.search_criteria[product] ?? {};
    const signedBody = JSON.stringify({ criteria });
    const sentBody = JSON.stringify({ criteria: { ...criteria, tampered: true } });
    const h = profile.headers;
    const signed = signRequest(
      {
        method: op.method.toUpperCase(),
        path: absolutePath(profile.base_url, path),
        query: '',
        body: signedBody,
        keyId: agency.keyId,
        secret: agency.secret,
        timestamp: Math.floor(ctx.clock.now() / 1000),
        nonce: ctx
          .unique('certnonce')
          .replace(/[^A-Za-z0-9_-]/g, '_')
          .padEnd(16, 'x')
          .slice(-64),
      },
      { authorization: h.authorization.toLowerCase(), timestamp: h.timestamp.toLowerCase(), nonce: h.nonce.toLowerCase() },
    ).headers;
    const tampered = await api.raw(op.method, path, sentBody, {
      label: ctx.label('body changed after signing'),
      signing: { omit: true },
      headers: { ...signed, 'content-type': 'application/json' },
    });
    f.expect(
      isError(tampered, expected, profile),
      `a search whose body was changed after signing answered ${describe(tampered, profile)}, expected ${expected.status} ${expected.code}`,
      tampered,
    );

    const forged = await api.account({ label: ctx.label('signed with another secret'), signing: { secret: `${agency.secret}-not-the-secret` } });
    f.expect(
      isError(forged, expected, profile),
      `an account request signed with another secret answered ${describe(forged, profile)}, expected ${expected.status} ${expected.code}`,
      forged,
    );
    return f.outcome(`a signed request was accepted (${ok.status}); a tampered body and a wrong secret were refused with ${expected.status} ${expected.code}`);
  },
};
