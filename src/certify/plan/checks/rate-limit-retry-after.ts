import { getString } from '../../../api/fields.js';
import type { ApiResponse } from '../../../api/types.js';
import { Findings } from '../../../checks/findings.js';
import { describe, isError, isOk } from '../_internal/answers.js';
import type { CertifyContext, PlanCheck } from '../plan-types.js';

/** Requests sent beyond the known limit before concluding that no 429 comes. */
const SLACK = 5;
/** Requests sent to find a 429 when the limit is unknown. */
const UNKNOWN_LIMIT_CAP = 2_000;

interface Filler {
  bucket: string;
  limit: number | undefined;
  send(n: number): Promise<ApiResponse>;
  what: string;
}

/** The bucket with the smaller limit (writes on a tie or when unknown), and a request that counts in it and changes nothing. */
async function chooseFiller(ctx: CertifyContext): Promise<Filler> {
  const { profile, api } = ctx;
  const limits = ctx.agency.limits ?? ctx.state.accountLimits ?? {};
  const read = limits.read;
  const write = limits.write;
  const useRead = read !== undefined && (write === undefined || read < write);
  let url = ctx.state.registeredWebhookUrl ?? ctx.state.originalWebhookUrl ?? undefined;
  if (!useRead && url === undefined) {
    const current = await api.getWebhookEndpoint({ label: ctx.label('webhook endpoint (to re-register it unchanged)') });
    url = getString(current.json, profile.fields.webhook_endpoint_url);
    ctx.state.originalWebhookUrl ??= url ?? null;
  }
  if (!useRead && url !== undefined) {
    const u = url;
    return {
      bucket: profile.values.bucket_write,
      limit: write,
      what: 're-registering the same webhook endpoint',
      send: (n) => api.setWebhookEndpoint(u, { label: ctx.label(`write #${n}`) }),
    };
  }
  return { bucket: profile.values.bucket_read, limit: read, what: 'reading the account', send: (n) => api.account({ label: ctx.label(`read #${n}`) }) };
}

/** CERT-08: filling a rate-limit bucket yields a 429 with Retry-After, and a request sent exactly Retry-After later is admitted. */
export const rateLimitRetryAfterCheck: PlanCheck = {
  id: 'CERT-08',
  area: 'ratelimit',
  title: 'A 429 carries Retry-After, and waiting exactly that long is enough',
  clause: 'SPEC §8 limits per agency; a 429 response carries Retry-After',
  required: true,
  async run(ctx) {
    const { profile } = ctx;
    const rl = profile.errors.rate_limited;
    const f = new Findings();
    const filler = await chooseFiller(ctx);
    const cap = filler.limit !== undefined ? filler.limit + SLACK : UNKNOWN_LIMIT_CAP;
    let refused: ApiResponse | undefined;
    let admitted = 0;
    for (let n = 1; n <= cap && !refused; n++) {
      const res = await filler.send(n);
      if (res.status === rl.status) refused = res;
      else if (isOk(res)) admitted += 1;
      else {
        f.fail(`filling the ${filler.bucket} bucket by ${filler.what}: request #${n} answered ${describe(res, profile)}, expected 2xx or ${rl.status}`, res);
        return f.outcome('');
      }
    }
    if (!refused) {
      f.fail(`no ${rl.status} after ${cap} requests in the ${filler.bucket} bucket (limit ${filler.limit ?? 'unknown'})`);
      return f.outcome('');
    }
    f.expect(isError(refused, rl, profile), `the refusal answered ${describe(refused, profile)}, expected ${rl.status} ${rl.code}`, refused);
    const retryAfterS = refused.rateLimit.retryAfterS;
    if (
      !f.expect(
        retryAfterS !== undefined,
        `the ${rl.status} (${refused.exchange.id}) carries no usable ${profile.headers.retry_after} header${refused.rateLimit.retryAfterRaw !== undefined ? ` (got "${refused.rateLimit.retryAfterRaw}")` : ''}`,
        refused,
      )
    )
      return f.outcome('');
    const longest = Math.max(profile.limits.window_s + 1, Math.round(ctx.maxWaitMs / 1000));
    if (
      !f.expect(
        retryAfterS! > 0 && retryAfterS! <= longest,
        `${profile.headers.retry_after}: ${retryAfterS} (${refused.exchange.id}) is outside 1 to ${longest} s`,
        refused,
      )
    )
      return f.outcome('');
    const arrivedAt = refused.exchange.startedAt + refused.exchange.durationMs;
    const waitMs = Math.max(0, arrivedAt + retryAfterS! * 1000 - ctx.clock.now());
    ctx.log(`${admitted} admitted, then ${rl.status}; waiting Retry-After ${retryAfterS} s`);
    await ctx.clock.wait(waitMs);
    const retry = await filler.send(admitted + 2);
    f.expect(
      isOk(retry),
      `a request sent ${retryAfterS} s (Retry-After) after the ${rl.status} answered ${describe(retry, profile)}${retry.rateLimit.retryAfterS !== undefined ? ` with Retry-After ${retry.rateLimit.retryAfterS}` : ''}, expected to be admitted`,
      retry,
    );
    return f.outcome(
      `${admitted} requests admitted in the ${filler.bucket} bucket (limit ${filler.limit ?? 'unknown'}), then ${rl.status} ${rl.code} with Retry-After ${retryAfterS} s; the request sent that long after was admitted (${retry.exchange.id})`,
    );
  },
};
