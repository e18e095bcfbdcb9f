import { ALL_CHECKS } from '../../../checks/index.js';
import { checkContext, type RunScope } from '../../../checks/check-context.js';
import { Findings, skipped } from '../../../checks/findings.js';
import { createRunCache } from '../../../checks/run-cache.js';
import type { CheckOutcome, Need } from '../../../checks/types.js';
import type { CertifyContext } from '../plan-types.js';
import type { PlanCheck } from '../plan-types.js';

/** The suite's isolation checks, run here with the certified agency as the owner and its partner as the other agency. */
const ISOLATION = ALL_CHECKS.filter((c) => c.area === 'isolation');

/** Why `need` is not met here, or undefined. */
function unmet(need: Need, ctx: CertifyContext): string | undefined {
  if (need === 'receiver' && !ctx.receiver) return ctx.receiverMissing ?? 'no webhook receiver the target can reach';
  if (need === 'hotel' && ctx.partner?.hotel(0) === undefined) return 'the profile has no hotel API, or the certified agency no hotel key';
  if (need === 'clock-control' || need === 'failure-trigger' || need === 'closed-product') return `needs ${need}, which certification does not use`;
  return undefined;
}

/**
 * CERT-09: what one agency addresses by id, token or key (a booking, a quote
 * token, a hotel booking and rate key, an idempotency key, its webhook events,
 * its statement) stays its own when another agency of the same organisation
 * tries it: the suite's isolation checks, run with both agencies' own keys.
 */
export const agenciesApartCheck: PlanCheck = {
  id: 'CERT-09',
  area: 'isolation',
  title: 'Agencies of one organisation are kept apart',
  clause:
    "SPEC §1, §5: the key, the wallet and the limits belong to the agency / REF §4, §5, §7, §9, §10: another agency's booking, quote token, hotel booking, idempotency key, events and statement are not its own",
  required: false,
  async run(ctx) {
    const partner = ctx.partner;
    if (!partner) return skipped(`not run: ${ctx.partnerMissing ?? 'the profile gives no second agency of the same organisation'}`);
    const scope: RunScope = {
      runCache: createRunCache(),
      profile: ctx.profile,
      agencies: [ctx.agency, partner.agency],
      api: (i = 0) => partner.api(i),
      hotel: (i = 0) => partner.hotel(i),
      clock: ctx.clock,
      receiver: ctx.receiver,
      recorder: partner.recorder,
      exchanges: () => partner.recorder.exchanges,
      timeline: { rateLimit: () => undefined, webhook: () => undefined },
      log: (line) => ctx.log(line),
      seed: 0,
      unique: (prefix) => ctx.unique(prefix),
    };
    const outcomes: Record<string, CheckOutcome> = {};
    for (const check of ISOLATION) {
      const why = check.needs.map((n) => unmet(n, ctx)).find((r) => r !== undefined);
      if (why !== undefined) {
        outcomes[check.id] = skipped(`not run: ${why}`);
        continue;
      }
      try {
        outcomes[check.id] = await check.run(checkContext(scope, `${ctx.checkId} ${check.id}`));
      } catch (err) {
        outcomes[check.id] = { verdict: 'ERROR', message: `the test stopped: ${err instanceof Error ? err.message : String(err)}`, evidence: [] };
      }
    }
    ctx.attach('isolation', outcomes);
    const f = new Findings();
    const ran = Object.entries(outcomes).filter(([, o]) => o.verdict !== 'SKIP');
    for (const [id, o] of ran) {
      if (o.verdict === 'PASS') f.see(...(o.evidence ?? []));
      else if (o.verdict === 'WARN') f.warn(`${id}: ${o.message}`, ...(o.evidence ?? []));
      else f.fail(`${id} ${o.verdict}: ${o.message}`, ...(o.evidence ?? []));
    }
    if (ran.length === 0)
      return skipped(
        `not run: ${Object.entries(outcomes)
          .map(([id, o]) => `${id} ${o.message}`)
          .join('; ')}`,
      );
    const notRun = Object.keys(outcomes).filter((id) => outcomes[id]!.verdict === 'SKIP');
    return f.outcome(
      `${ctx.agency.id} and ${partner.agency.id} are kept apart: ${ran.map(([id]) => id).join(', ')} passed${notRun.length > 0 ? ` (not run: ${notRun.join(', ')})` : ''}`,
    );
  },
};
