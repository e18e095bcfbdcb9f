import { getField, setTemplate } from '../../api/fields.js';
import type { ErrorDef, Profile } from '../../profile/index.js';
import { envelopeProblems } from '../_internal/envelope-shape.js';
import { errorMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings } from '../findings.js';
import { productsToSearch } from '../_internal/flow-steps.js';
import type { Check, CheckOutcome } from '../types.js';

/** One provoked error: what was sent, what should come back, and what came. */
interface ProvokedError {
  what: string;
  expected: ErrorDef;
  res: Answer;
  /** For a validation failure: expect a non-empty list of fields in details. */
  expectFields?: boolean;
}

/** Judges ER-02: each provoked error has its status and code and is in the envelope. */
export function judgeErrorCatalogue(cases: readonly ProvokedError[], profile: Profile): CheckOutcome {
  const f = new Findings();
  for (const c of cases) {
    f.check(errorMismatch(c.res, c.expected, c.what, profile), c.res);
    const problems = envelopeProblems({ status: c.res.status, headers: c.res.headers, body: c.res.text }, profile);
    f.expect(problems.length === 0, `${c.what}: error outside the envelope: ${problems.join(', ')}`, c.res);
    if (c.expectFields && c.res.status === c.expected.status) {
      const fields = getField(getField(c.res.json, profile.fields.error_details), 'fields');
      if (!Array.isArray(fields) || fields.length === 0) f.warn(`${c.what}: ${profile.fields.error_details} carries no list of failing fields`, c.res);
    }
  }
  return f.outcome(
    `${cases.length} provoked errors (${cases.map((c) => `${c.expected.status} ${c.expected.code}`).join(', ')}) came with their status, code and envelope`,
  );
}

/** ER-02: unknown route, wrong method, oversized, malformed and invalid bodies answer their errors in the envelope. */
export const errorCatalogueCheck: Check = {
  id: 'ER-02',
  title: 'Route, method and body errors answer their status and code in the envelope',
  area: 'errors',
  clause: 'SPEC §7: every error uses one envelope; clients branch on error.code / REF §4: 404, 405, 413, 400, 422 with details.fields',
  needs: ['open-product'],
  uses: {
    requests: { read: 6, write: 1 },
    // Every request is refused before it could book: no wallet.
    touches: ['0:read', '0:write'],
  },
  async run(ctx) {
    const api = ctx.api(0);
    const p = ctx.profile;
    const e = p.errors;
    const cases: ProvokedError[] = [];
    const unknown = `/${encodeURIComponent(ctx.unique('no-such-route'))}`;
    cases.push({
      what: `GET ${unknown} (unknown route)`,
      expected: e.not_found,
      res: await api.raw('GET', unknown, undefined, { label: ctx.label('unknown route') }),
    });
    const acct = p.operations.account.path;
    cases.push({
      what: `PATCH ${acct} (method no route has)`,
      expected: e.method_not_allowed,
      res: await api.raw('PATCH', acct, undefined, { label: ctx.label('method not allowed') }),
    });
    const products = await productsToSearch(ctx, 0);
    const product = products[0];
    if (product !== undefined) {
      const path = p.operations.search.path.replace('{product}', encodeURIComponent(product));
      const m = p.operations.search.method;
      const criteria = p.search_criteria[product];
      const padLength = p.limits.max_body_bytes + 1024;
      const big = JSON.stringify({ ...(setTemplate(p.search_body, { criteria }) as object), pad: 'x'.repeat(padLength) });
      cases.push({
        what: `search with a ${big.length}-byte body (limit ${p.limits.max_body_bytes})`,
        expected: e.payload_too_large,
        res: await api.raw(m, path, big, { label: ctx.label('body too large') }),
      });
      cases.push({
        what: 'search with a body that is not JSON',
        expected: e.invalid_json,
        res: await api.raw(m, path, '{"criteria": ', { label: ctx.label('invalid JSON') }),
      });
      const invalid = JSON.stringify(setTemplate(p.search_body, { criteria: {} }));
      cases.push({
        what: 'search without its required criteria',
        expected: e.validation_failed,
        res: await api.raw(m, path, invalid, { label: ctx.label('validation failed') }),
        expectFields: true,
      });
    }
    return judgeErrorCatalogue(cases, ctx.profile);
  },
};
