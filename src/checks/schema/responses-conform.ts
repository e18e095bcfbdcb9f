import type { Exchange } from '../../client/exchange.js';
import { loadOpenApiDocument } from '../../openapi/load-document.js';
import type { ResponseValidator } from '../../openapi/response-validator.js';
import { Findings } from '../findings.js';
import { searchableProducts, searchProduct } from '../_internal/flow-steps.js';
import type { Check, CheckContext, CheckOutcome } from '../types.js';

/** Exchanges named one by one in a FAIL message; the rest are counted. */
const NAMED = 5;

function describeExchange(x: Exchange): string {
  let path: string;
  try {
    path = new URL(x.request.url).pathname;
  } catch {
    path = x.request.url;
  }
  return `${x.id}${x.label ? ` "${x.label}"` : ''} (${x.request.method} ${path} → ${x.response?.status ?? '-'})`;
}

/**
 * Judges SC-01: every response of the run that the document describes
 * (operation by method and path template, response by status) conforms to its
 * schema and declared headers. Exchanges the document does not describe are
 * counted, not judged. A response whose schema cannot judge it (a `$ref`
 * cycle, a pattern that cannot be evaluated safely) makes the check an ERROR
 * naming the culprit: the document, not the target, is at fault.
 */
export function judgeResponsesConform(exchanges: readonly Exchange[], validator: ResponseValidator): CheckOutcome {
  const f = new Findings();
  const t0 = performance.now();
  const notJudged: Record<string, number> = {};
  const violations: Record<string, unknown>[] = [];
  /** Why the document cannot judge → the operation and the exchanges it left unjudged. */
  const unusable = new Map<string, { where: string; ids: string[] }>();
  let judged = 0;
  let bad = 0;
  for (const x of exchanges) {
    const j = validator.judge(x);
    if (!j.judged) {
      notJudged[j.reason] = (notJudged[j.reason] ?? 0) + 1;
      if (j.reason === 'schema unusable') {
        const seen = unusable.get(j.problem) ?? { where: `${j.operation} ${j.status}`, ids: [] };
        seen.ids.push(x.id);
        unusable.set(j.problem, seen);
      }
      continue;
    }
    judged += 1;
    if (j.violations.length === 0) {
      if (judged <= 20) f.see(x.id);
      continue;
    }
    bad += 1;
    for (const v of j.violations) violations.push({ exchange: x.id, label: x.label, operation: j.operation, status: x.response!.status, ...v });
    const rules = j.violations.map((v) => `${v.pointer}: ${v.message} [${v.rule}]`).join(', ');
    if (bad <= NAMED) f.fail(`${describeExchange(x)} against ${j.operation} ${j.status}: ${rules}`, x.id);
    else if (bad <= 50) f.fail('', x.id);
  }
  const skippedText = Object.entries(notJudged)
    .map(([reason, n]) => `${n} ${reason}`)
    .join(', ');
  const details = { judged, nonConforming: bad, notJudged, violations: violations.slice(0, 50), judgeMs: Math.round(performance.now() - t0) };
  const tail = skippedText ? `; not judged: ${skippedText}` : '';
  if (unusable.size > 0) {
    const named = [...unusable].map(([problem, u]) => `${problem} (in ${u.where}, ${u.ids.length} response${u.ids.length > 1 ? 's' : ''})`);
    const judgedText = bad > 0 ? `; ${bad} of ${judged} judged responses do not conform` : judged > 0 ? `; the ${judged} judged responses conform` : '';
    const evidence = [...unusable.values()].flatMap((u) => u.ids.slice(0, NAMED));
    return {
      verdict: 'ERROR',
      message: `the OpenAPI document cannot judge ${notJudged['schema unusable']} responses: ${named.join('; ')}${judgedText}`,
      evidence,
      details: { ...details, unusable: [...unusable.keys()] },
    };
  }
  if (bad > 0) {
    const o = f.outcome('', details);
    const named = o.message.split('; ').filter((m) => m !== '');
    const more = bad > NAMED ? `; and ${bad - NAMED} more` : '';
    return { ...o, message: `${bad} of ${judged} responses do not conform to the OpenAPI document: ${named.join('; ')}${more}${tail}` };
  }
  if (judged === 0) {
    f.warn(`no response of the run is described by the OpenAPI document${tail}`);
    return f.outcome('', details);
  }
  return f.outcome(`all ${judged} responses described by the OpenAPI document conform to it${tail}`, details);
}

/** A few reads of its own, so that the check judges something in a run of this check alone. */
async function ownReads(ctx: CheckContext): Promise<void> {
  const api = ctx.api(0);
  const { products } = await searchableProducts(ctx, 0);
  for (const product of products) await searchProduct(ctx, api, product, `search ${product}`);
  await api.balance({ label: ctx.label('balance') });
  await api.statement({ label: ctx.label('statement') });
  await api.rates({ label: ctx.label('rates') });
  await api.getWebhookEndpoint({ label: ctx.label('webhook endpoint') });
}

/** SC-01: every response of the whole run conforms to the service's OpenAPI document (Schemathesis' "response schema conformance"). */
export const responsesConformCheck: Check = {
  id: 'SC-01',
  title: 'Every response of the run conforms to the OpenAPI document',
  area: 'schema',
  clause: 'SPEC §2, §4, §7 (REF §2-§5, §10): each response has the fields, types and headers its operation promises / the OpenAPI document of the service',
  needs: [],
  uses: {
    requests: { read: 10, write: 0 },
    // Reads only: after a run that left a write bucket full, it need not wait for it.
    touches: ['0:read'],
  },
  phase: 'last',
  readsOpenApi: true,
  async run(ctx) {
    const doc = await loadOpenApiDocument(ctx.profile.openapi);
    // Loaded here, not at start-up: every command imports the registry, and Ajv is only needed by this check.
    const { responseValidatorFor } = await import('../../openapi/response-validator.js');
    await ownReads(ctx);
    return judgeResponsesConform(ctx.exchanges(), responseValidatorFor(doc));
  },
};
