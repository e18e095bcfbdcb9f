import type { Profile } from '../../profile/index.js';
import { errorMismatch, successMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/** What AU-04 saw: requests signed with a shifted timestamp. */
interface TimestampObservations {
  /** Shifted beyond the tolerance: must be refused. */
  outside: Array<{ skewS: number; res: Answer }>;
  /** Shifted but within the tolerance: must be accepted. */
  inside: Array<{ skewS: number; res: Answer }>;
}

/** Judges AU-04: timestamps beyond the tolerance, either way, answer timestamp_skew; within it they pass. */
export function judgeTimestampSkew(obs: TimestampObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  const e = profile.errors.timestamp_skew;
  for (const o of obs.outside) f.check(errorMismatch(o.res, e, `request with timestamp ${o.skewS > 0 ? '+' : ''}${o.skewS} s off`, profile), o.res);
  for (const o of obs.inside)
    f.check(
      successMismatch(o.res, `request with timestamp ${o.skewS > 0 ? '+' : ''}${o.skewS} s off (within ±${profile.limits.timestamp_tolerance_s} s)`, profile),
      o.res,
    );
  return f.outcome(
    `timestamps beyond ±${profile.limits.timestamp_tolerance_s} s answered ${e.status} ${e.code} in both directions; within it they were accepted`,
  );
}

/** AU-04: a timestamp beyond the tolerance, in the past or the future, is refused. */
export const timestampSkewCheck: Check = {
  id: 'AU-04',
  title: 'A timestamp beyond the tolerance is refused, in both directions',
  area: 'auth',
  clause: 'SPEC §5: X-SVC-Timestamp on every request / REF §3: a timestamp more than 300 s from the server clock → 401 TIMESTAMP_SKEW',
  needs: [],
  uses: {
    requests: { read: 5, write: 0 },
    // Signed and unsigned requests that are refused or only read: no booking goes through on a correct service.
    touches: ['0:read', '0:write'],
  },
  async run(ctx) {
    const api = ctx.api(0);
    const tol = ctx.profile.limits.timestamp_tolerance_s;
    const obs: TimestampObservations = { outside: [], inside: [] };
    for (const skewS of [-(tol + 60), tol + 60]) {
      obs.outside.push({ skewS, res: await api.account({ label: ctx.label(`timestamp ${skewS} s off`), signing: { skewS } }) });
    }
    // Well inside the tolerance, leaving room for the clocks of harness and target to differ a little.
    if (tol > 60) {
      for (const skewS of [-(tol - 30), tol - 30]) {
        obs.inside.push({ skewS, res: await api.account({ label: ctx.label(`timestamp ${skewS} s off`), signing: { skewS } }) });
      }
    }
    return judgeTimestampSkew(obs, ctx.profile);
  },
};
