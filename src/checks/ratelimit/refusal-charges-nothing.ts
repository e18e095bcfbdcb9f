import type { Profile } from '../../profile/index.js';
import { type WalletView, WRITE_EPISODE_MEMBER, writeEpisode } from '../_internal/rl-episode.js';
import { limitsUnknown } from '../_internal/rl-probes.js';
import { admittedBeforeRefusal, isRefused, judgeUnrefusedFill, rlHeaders, type RlShot } from '../_internal/rl-shot.js';
import { errored, Findings } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/** What RL-02 saw. */
interface RefusalChargesNothingObservations {
  writeLimit: number;
  /** Write probes sent until the first refusal. */
  fill: RlShot[];
  /** The booking sent while the write bucket was full. */
  booking: RlShot;
  before: WalletView;
  after: WalletView;
}

/**
 * Judges RL-02: a booking sent while the write bucket is full is refused with
 * the rate-limited error envelope, and the wallet (balance and statement) is
 * exactly as before it.
 */
export function judgeRefusalChargesNothing(obs: RefusalChargesNothingObservations, profile: Profile): CheckOutcome {
  const v = new Findings();
  const rl = profile.errors.rate_limited;
  const filled = obs.fill.some((s) => isRefused(s, profile));
  v.see(obs.fill[obs.fill.length - 1]?.exchangeId, obs.booking.exchangeId, ...obs.before.exchangeIds, ...obs.after.exchangeIds);
  if (!filled)
    judgeUnrefusedFill(
      v,
      obs.fill,
      profile,
      `the write bucket never refused a request (${obs.fill.length} sent, limit ${obs.writeLimit})`,
      'so a booking could not be sent into a full bucket',
    );
  const b = obs.booking;
  if (b.status !== rl.status) {
    v.fail(`a booking sent while the write bucket was full answered ${b.status}, not ${rl.status}`, b.exchangeId);
  } else {
    if (b.code !== rl.code) v.fail(`the ${rl.status} answered error code ${b.code ?? '(none)'}, not ${rl.code}`, b.exchangeId);
    if (b.details === null || typeof b.details !== 'object' || Array.isArray(b.details)) {
      v.fail(`the ${rl.status} carries no details object at ${profile.fields.error_details}`, b.exchangeId);
    } else {
      // REFERENCE-API.md section 8 names retry_after_s in details; when a target sends it, it must agree with the header.
      const inBody = (b.details as Record<string, unknown>).retry_after_s;
      const header = rlHeaders(b, profile).raw.retryAfter;
      if (inBody !== undefined && header !== undefined && String(inBody) !== header.trim()) {
        v.fail(`details.retry_after_s is ${JSON.stringify(inBody)} but ${profile.headers.retry_after} says ${header}`, b.exchangeId);
      }
    }
  }
  const { before, after } = obs;
  if (before.balance === undefined || after.balance === undefined) {
    v.fail('the wallet balance could not be read before and after the refused booking', ...before.exchangeIds, ...after.exchangeIds);
  } else if (before.balance !== after.balance) {
    v.fail(`the refused booking charged the wallet: balance ${before.balance} before, ${after.balance} after`, b.exchangeId, ...after.exchangeIds);
  }
  if (before.entries !== after.entries || before.newestEntryId !== after.newestEntryId) {
    v.fail(
      `the refused booking changed the statement: ${before.entries} entries (newest ${before.newestEntryId ?? 'none'}) before, ${after.entries} (newest ${after.newestEntryId ?? 'none'}) after`,
      b.exchangeId,
      ...after.exchangeIds,
    );
  }
  return v.outcome(`a booking into a full write bucket was refused ${rl.status} ${rl.code} with details and charged nothing`, {
    admittedBeforeBooking: admittedBeforeRefusal(obs.fill, profile),
    balanceBefore: before.balance,
    balanceAfter: after.balance,
  });
}

/** RL-02: a 429 carries the rate-limited envelope and charges nothing. */
export const refusalChargesNothingCheck: Check = {
  id: 'RL-02',
  title: 'A booking refused for the rate limit answers the rate-limited envelope and charges nothing',
  area: 'ratelimit',
  clause: 'SPEC §1 and §7: a request answered with 429 charges nothing; §7: every error uses one envelope',
  needs: ['open-product'],
  ...WRITE_EPISODE_MEMBER,
  async run(ctx) {
    const ep = await writeEpisode(ctx);
    if ('error' in ep) return limitsUnknown(ep);
    if ('error' in ep.booking) return errored(ep.booking.error, ...ep.booking.refs);
    const { before, booking, after } = ep.booking;
    return judgeRefusalChargesNothing({ writeLimit: ep.limits.write, fill: ep.fill, booking, before, after }, ctx.profile);
  },
};
