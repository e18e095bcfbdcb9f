import type { Traveller } from './bookings.js';
import { FieldChecker, isObject, validationFailed, type FieldProblem } from './validation.js';

/** A validated booking request. */
export interface BookingInput {
  quote_token: string;
  travellers: Traveller[];
  client_reference: string | null;
  /** Set only when a replay is executed again (a defect): the quote's redemption is then overlooked. */
  reexecute?: boolean;
}

/** Validates `{quote_token, travellers: [{first_name, last_name}], client_reference?}`; 422 on any wrong field. */
export function validateBookingBody(body: unknown): BookingInput {
  if (!isObject(body)) throw validationFailed([{ field: 'body', message: 'must be a JSON object' }]);
  const problems: FieldProblem[] = [];
  if (typeof body.quote_token !== 'string' || body.quote_token === '') {
    problems.push({ field: 'quote_token', message: body.quote_token === undefined ? 'is required' : 'must be a non-empty string' });
  }
  const t = body.travellers;
  if (!Array.isArray(t) || t.length === 0 || t.length > 20) {
    problems.push({ field: 'travellers', message: t === undefined ? 'is required' : 'must be a list of 1 to 20 travellers' });
  } else {
    t.forEach((traveller: unknown, i) => {
      if (!isObject(traveller)) {
        problems.push({ field: `travellers[${i}]`, message: 'must be an object {first_name, last_name}' });
        return;
      }
      const c = new FieldChecker(traveller, `travellers[${i}].`);
      c.text('first_name');
      c.text('last_name');
      problems.push(...c.problems);
    });
  }
  const ref = body.client_reference;
  if (ref !== undefined && ref !== null && (typeof ref !== 'string' || ref.length > 200)) {
    problems.push({ field: 'client_reference', message: 'must be a string of at most 200 characters' });
  }
  if (problems.length > 0) throw validationFailed(problems);
  return {
    quote_token: body.quote_token as string,
    travellers: (t as Traveller[]).map((x) => ({ first_name: x.first_name, last_name: x.last_name })),
    client_reference: typeof ref === 'string' ? ref : null,
  };
}

/** Validates a cancellation body `{reason?}` (an empty body is `{}`). */
export function validateCancellationBody(body: unknown): { reason: string | null } {
  if (!isObject(body)) throw validationFailed([{ field: 'body', message: 'must be a JSON object' }]);
  const r = body.reason;
  if (r !== undefined && r !== null && (typeof r !== 'string' || r.length > 500)) {
    throw validationFailed([{ field: 'reason', message: 'must be a string of at most 500 characters' }]);
  }
  return { reason: typeof r === 'string' ? r : null };
}

/** Validates `PUT /v1/webhook-endpoint` `{url}`: an http(s) URL, or null to remove it. */
export function validateWebhookBody(body: unknown): { url: string | null } {
  if (!isObject(body)) throw validationFailed([{ field: 'body', message: 'must be a JSON object' }]);
  const u = body.url;
  if (u === null) return { url: null };
  let ok = false;
  if (typeof u === 'string' && u.length <= 2048) {
    try {
      const p = new URL(u).protocol;
      ok = p === 'http:' || p === 'https:';
    } catch {
      ok = false;
    }
  }
  if (!ok) throw validationFailed([{ field: 'url', message: u === undefined ? 'is required' : 'must be an http(s) URL or null' }]);
  return { url: u as string };
}
