import type { Exchange } from '../../client/exchange.js';
import type { Profile } from '../../profile/index.js';
import { envelopeProblems } from '../_internal/envelope-shape.js';
import { Findings } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/** True when `url` is under `base` (same origin, path prefix). */
function under(url: string, base: string | null): boolean {
  if (!base) return false;
  try {
    const u = new URL(url);
    const b = new URL(base);
    const prefix = b.pathname.replace(/\/+$/, '');
    return u.origin === b.origin && (u.pathname === prefix || u.pathname.startsWith(`${prefix}/`) || prefix === '');
  } catch {
    return false;
  }
}

/** The error responses of the service and the hotel API among `exchanges` that can carry a body (HEAD cannot). */
function errorExchanges(exchanges: readonly Exchange[], profile: Profile): Exchange[] {
  return exchanges.filter(
    (x) =>
      x.response !== undefined &&
      x.response.status >= 400 &&
      x.request.method.toUpperCase() !== 'HEAD' &&
      (under(x.request.url, profile.base_url) || under(x.request.url, profile.hotel_base_url)),
  );
}

/** Judges ER-01: every error response the run saw is in the one envelope. */
export function judgeEnvelopeEverywhere(exchanges: readonly Exchange[], profile: Profile): CheckOutcome {
  const f = new Findings();
  const errors = errorExchanges(exchanges, profile);
  if (errors.length === 0) {
    f.warn('no error response was seen, so the envelope could not be judged');
    return f.outcome('');
  }
  const bad: string[] = [];
  for (const x of errors) {
    const r = x.response!;
    const problems = envelopeProblems({ status: r.status, headers: r.headers, body: r.body }, profile);
    if (problems.length === 0) f.see(x.id);
    else {
      bad.push(x.id);
      const path = (() => {
        try {
          return new URL(x.request.url).pathname;
        } catch {
          return x.request.url;
        }
      })();
      if (bad.length <= 5) f.fail(`${x.id} (${x.request.method} ${path} → ${r.status}): ${problems.join(', ')}`, x.id);
      else f.see(x.id);
    }
  }
  if (bad.length > 5) f.fail(`and ${bad.length - 5} more error responses outside the envelope`, ...bad.slice(5, 50));
  const codes = new Set(errors.map((x) => x.response!.status));
  if (bad.length > 0) {
    const o = f.outcome('');
    return {
      ...o,
      message: `${bad.length} of ${errors.length} error responses are outside the envelope: ${o.message}`,
      details: { outside: bad.length, total: errors.length },
    };
  }
  // Evidence of a pass: a sample, not thousands of ids.
  const o = f.outcome(`all ${errors.length} error responses of the run (statuses ${[...codes].sort().join(', ')}) are in the envelope`, {
    total: errors.length,
  });
  return { ...o, evidence: (o.evidence ?? []).slice(0, 20) };
}

/** ER-01: every error response of the whole run is in the one envelope, with the request id of its header. */
export const envelopeEverywhereCheck: Check = {
  id: 'ER-01',
  title: 'Every error response of the run uses the one error envelope',
  area: 'errors',
  clause: 'SPEC §7.1-2: every error uses one envelope with a stable error.code and a details object / REF §4',
  needs: [],
  uses: {
    requests: { read: 2, write: 0 },
    // Reads only: after a run that left a write bucket full, it need not wait for it.
    touches: ['0:read'],
  },
  phase: 'last',
  async run(ctx) {
    // One error of its own, so the check judges something even in a run of this check alone.
    await ctx.api(0).raw('GET', `/${encodeURIComponent(ctx.unique('no-such-route'))}`, undefined, { label: ctx.label('unknown route') });
    return judgeEnvelopeEverywhere(ctx.exchanges(), ctx.profile);
  },
};
