import type { Profile } from '../../profile/index.js';
import { errorMismatch, successMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings } from '../findings.js';
import { uniqueNonce } from '../_internal/flow-steps.js';
import type { Check, CheckOutcome } from '../types.js';

/** What AU-06 saw. */
interface JudgingOrderObservations {
  /** Bad signature and stale timestamp together. */
  forgedAndStale: Answer;
  /** Forged request with nonce N, then a valid one with N. */
  forgedNonce: Answer;
  validAfterForged: Answer;
  /** Stale (correctly signed) request with nonce M, then a valid one with M. */
  staleNonce: Answer;
  validAfterStale: Answer;
  /** Stale request reusing a nonce already accepted. */
  staleReplayed: Answer;
}

/**
 * Judges AU-06: signature before timestamp before nonce, and a nonce is only
 * recorded when signature and timestamp passed.
 */
export function judgeJudgingOrder(obs: JudgingOrderObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  const e = profile.errors;
  f.check(errorMismatch(obs.forgedAndStale, e.signature_invalid, 'request with a bad signature and a stale timestamp', profile), obs.forgedAndStale);
  f.check(errorMismatch(obs.forgedNonce, e.signature_invalid, 'forged request carrying nonce N', profile), obs.forgedNonce);
  f.check(
    successMismatch(obs.validAfterForged, 'valid request reusing nonce N of a forged request (a forged request must not use up a nonce)', profile),
    obs.forgedNonce,
    obs.validAfterForged,
  );
  f.check(errorMismatch(obs.staleNonce, e.timestamp_skew, 'stale request carrying nonce M', profile), obs.staleNonce);
  f.check(
    successMismatch(obs.validAfterStale, 'valid request reusing nonce M of a stale request (a refused request must not use up a nonce)', profile),
    obs.staleNonce,
    obs.validAfterStale,
  );
  f.check(
    errorMismatch(obs.staleReplayed, e.timestamp_skew, 'stale request reusing an accepted nonce (timestamp is judged before nonce)', profile),
    obs.staleReplayed,
  );
  return f.outcome('refusals come in the order signature, timestamp, nonce, and refused requests do not use up a nonce');
}

/** AU-06: authentication failures are judged in order, and a refused request does not burn a nonce. */
export const judgingOrderCheck: Check = {
  id: 'AU-06',
  title: 'Auth failures are judged in order; refused requests do not use up a nonce',
  area: 'auth',
  clause:
    'SPEC §5: SVC-HMAC-SHA256 authentication / REF §3: judged form, signature, timestamp, nonce; a nonce is recorded only once signature and timestamp pass',
  needs: [],
  uses: {
    requests: { read: 8, write: 0 },
    // Signed and unsigned requests that are refused or only read: no booking goes through on a correct service.
    touches: ['0:read', '0:write'],
  },
  async run(ctx) {
    const api = ctx.api(0);
    const agency = ctx.agencies[0]!;
    const stale = -(ctx.profile.limits.timestamp_tolerance_s + 60);
    const otherSecret = `${agency.secret}-forged`;
    const forgedAndStale = await api.account({ label: ctx.label('bad signature and stale timestamp'), signing: { secret: otherSecret, skewS: stale } });
    const n = uniqueNonce(ctx);
    const forgedNonce = await api.account({ label: ctx.label('forged request with nonce N'), signing: { secret: otherSecret, nonce: n } });
    const validAfterForged = await api.account({ label: ctx.label('valid request with nonce N'), signing: { nonce: n } });
    const m = uniqueNonce(ctx);
    const staleNonce = await api.account({ label: ctx.label('stale request with nonce M'), signing: { skewS: stale, nonce: m } });
    const validAfterStale = await api.account({ label: ctx.label('valid request with nonce M'), signing: { nonce: m } });
    const staleReplayed = await api.account({ label: ctx.label('stale request reusing accepted nonce N'), signing: { skewS: stale, nonce: n } });
    return judgeJudgingOrder({ forgedAndStale, forgedNonce, validAfterForged, staleNonce, validAfterStale, staleReplayed }, ctx.profile);
  },
};
