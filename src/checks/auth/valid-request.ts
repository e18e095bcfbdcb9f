import type { Profile } from '../../profile/index.js';
import { Findings } from '../findings.js';
import { successMismatch, type Answer } from '../_internal/expect-error.js';
import type { Check, CheckOutcome } from '../types.js';

/** What AU-01 saw: a correctly signed request. */
interface ValidRequestObservations {
  account: Answer;
}

/** Judges AU-01: a correctly signed request is accepted. */
export function judgeValidRequest(obs: ValidRequestObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  f.check(successMismatch(obs.account, 'correctly signed account request', profile), obs.account);
  return f.outcome(`a correctly signed request answered ${obs.account.status}`);
}

/** AU-01: a correctly signed request is accepted. */
export const validRequestCheck: Check = {
  id: 'AU-01',
  title: 'A correctly signed request is accepted',
  area: 'auth',
  clause: 'SPEC §5: every request carries Authorization, X-SVC-Timestamp, X-SVC-Nonce (SVC-HMAC-SHA256) / REF §3',
  phase: 'baseline',
  needs: [],
  uses: {
    requests: { read: 2, write: 0 },
    // Signed and unsigned requests that are refused or only read: no booking goes through on a correct service.
    touches: ['0:read', '0:write'],
  },
  async run(ctx) {
    const account = await ctx.api(0).account({ label: ctx.label('signed account request') });
    return judgeValidRequest({ account }, ctx.profile);
  },
};
