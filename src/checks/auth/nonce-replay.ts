import type { Profile } from '../../profile/index.js';
import { errorMismatch, successMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings } from '../findings.js';
import { uniqueNonce } from '../_internal/flow-steps.js';
import type { Check, CheckOutcome } from '../types.js';

/** What AU-05 saw: one nonce used twice. */
interface NonceReplayObservations {
  first: Answer;
  replay: Answer;
}

/** Judges AU-05: a nonce used a second time answers nonce_replayed. */
export function judgeNonceReplay(obs: NonceReplayObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  f.check(successMismatch(obs.first, 'first request with a fresh nonce', profile), obs.first);
  f.check(errorMismatch(obs.replay, profile.errors.nonce_replayed, 'second request with the same nonce', profile), obs.replay);
  const e = profile.errors.nonce_replayed;
  return f.outcome(`a nonce used again answered ${e.status} ${e.code}`);
}

/** AU-05: a nonce seen before is refused. */
export const nonceReplayCheck: Check = {
  id: 'AU-05',
  title: 'A replayed nonce is refused',
  area: 'auth',
  clause: 'SPEC §5: X-SVC-Nonce on every request / REF §3: a (key id, nonce) pair seen in the last 600 s → 401 NONCE_REPLAYED',
  needs: [],
  uses: {
    requests: { read: 3, write: 0 },
    // Signed and unsigned requests that are refused or only read: no booking goes through on a correct service.
    touches: ['0:read', '0:write'],
  },
  async run(ctx) {
    const api = ctx.api(0);
    const nonce = uniqueNonce(ctx);
    const first = await api.account({ label: ctx.label('fresh nonce'), signing: { nonce } });
    const replay = await api.account({ label: ctx.label('same nonce again'), signing: { nonce } });
    return judgeNonceReplay({ first, replay }, ctx.profile);
  },
};
